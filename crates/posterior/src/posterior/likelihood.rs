//! The likelihood a [`Posterior`](super::Posterior) samples: any BBH likelihood through its
//! inner products, with the quadrature pair of the phase marginal (docs/sampling.md §5.5) and
//! the window of time steps (§5.6), and relative binning's shortcuts for both.

use tdpe_likelihood::log_sum_exp::log_sum_exp_weights;
use tdpe_likelihood::{
    BbhRelativeBinning, InnerProducts, LikelihoodError, QuadratureProducts, TimeLattice,
};
use tdpe_signal::{BbhParameters, ParameterVector};

/// A BBH likelihood through the inner products ⟨d|h⟩ and ⟨h|h⟩ (ln L = ⟨d|h⟩ − ½⟨h|h⟩), with
/// gradients in the parameters ([`Parameter`](tdpe_signal::Parameter) order).
pub trait BbhLikelihood: Sync {
    /// Whether the template is the (2,2) mode alone, whose symmetries the phase marginal, the
    /// circular phases and the time orbit's lattice rest on (a turn of the phase by π/4 is a
    /// quadrature, by π/2 a sign); with higher modes they do not hold.
    fn is_22_only(&self) -> bool;

    /// The inner products at θ.
    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError>;

    /// F(⟨d|h⟩, ⟨h|h⟩) and ∂F/∂θ, where `f` returns [F, ∂F/∂⟨d|h⟩, ∂F/∂⟨h|h⟩].
    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError>;

    /// The inner products of the template at θ and at θ with phase + π/4 (the (2,2) mode's
    /// quadrature pair, [`QuadratureProducts`]). The default takes three evaluations: at phase,
    /// phase + π/4 and phase + π/8, where h = (h₀ + h₁)/√2 gives h₀₁.
    fn quadrature_products(
        &self,
        p: &BbhParameters,
    ) -> Result<QuadratureProducts, LikelihoodError> {
        let [at_0, at_quarter, at_eighth] =
            QUADRATURE_PHASES.map(|offset| self.inner_products(&with_phase_offset(p, offset)));
        let (at_0, at_quarter) = (at_0?, at_quarter?);
        Ok(QuadratureProducts {
            d_0: at_0.d_h,
            d_1: at_quarter.d_h,
            h_00: at_0.h_h,
            h_01: at_eighth?.h_h - 0.5 * (at_0.h_h + at_quarter.h_h),
            h_11: at_quarter.h_h,
        })
    }

    /// F of the [`QuadratureProducts`] at θ and ∂F/∂θ, where `f` returns [F, ∂F/∂d₀, ∂F/∂d₁,
    /// ∂F/∂h₀₀, ∂F/∂h₀₁, ∂F/∂h₁₁]. The default chains the partials through
    /// [`Self::function_and_gradient`] at the three phases of [`Self::quadrature_products`].
    fn quadrature_function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(QuadratureProducts) -> [f64; 6],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        let [value, f_d0, f_d1, f_h00, f_h01, f_h11] = f(self.quadrature_products(p)?);
        let weights = [
            [f_d0, f_h00 - 0.5 * f_h01],
            [f_d1, f_h11 - 0.5 * f_h01],
            [0.0, f_h01],
        ];
        gradient.fill(0.0);
        for (offset, [f_d, f_h]) in QUADRATURE_PHASES.into_iter().zip(weights) {
            let mut part = [0.0; tdpe_signal::NUM_PARAMETERS];
            let p = with_phase_offset(p, offset);
            self.function_and_gradient(&p, &|_| [0.0, f_d, f_h], &mut part)?;
            gradient.iter_mut().zip(part).for_each(|(g, d)| *g += d);
        }
        Ok(value)
    }

    /// The sample spacing of [`Self::time_lattice`], `None` if the likelihood has none (the
    /// default).
    fn lattice_spacing(&self) -> Option<f64> {
        None
    }

    /// ln Σ_j exp F_j over the `steps` trials θ_j = θ with geocent_time moved by j samples of
    /// the time lattice (j = 0 … steps − 1), where `f(j, ip_j)` returns [F_j, ∂F_j/∂⟨d|h⟩,
    /// ∂F_j/∂⟨h|h⟩]; its θ-gradient into `gradient` and the weights e^(F_j)/Σ_i e^(F_i) into
    /// `weights` (docs/sampling.md §5.6). The default evaluates every step on its own; a
    /// likelihood with a time lattice shares one waveform evaluation among them.
    fn window_function_and_gradient(
        &self,
        p: &BbhParameters,
        steps: usize,
        f: &dyn Fn(usize, InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
        weights: &mut Vec<f64>,
    ) -> Result<f64, LikelihoodError> {
        window_step_by_step(self, p, steps, f, gradient, weights)
    }

    /// ln Σ_j exp F_j of [`Self::window_function_and_gradient`] without its gradient (F_j the
    /// first of `f`'s values), for a proposal that only a Metropolis–Hastings test sees. The
    /// default drops the gradient.
    fn window_function(
        &self,
        p: &BbhParameters,
        steps: usize,
        f: &dyn Fn(usize, InnerProducts) -> [f64; 3],
    ) -> Result<f64, LikelihoodError> {
        let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
        self.window_function_and_gradient(p, steps, f, &mut gradient, &mut Vec::new())
    }

    /// ⟨d|h⟩ at θ with geocent_time moved by whole samples, and ⟨h|h⟩, where the likelihood
    /// gives them cheaply ([`BbhRelativeBinning::time_lattice`]); `None` otherwise.
    fn time_lattice(&self, _p: &BbhParameters) -> Result<Option<TimeLattice>, LikelihoodError> {
        Ok(None)
    }
}

/// [`BbhLikelihood::window_function_and_gradient`] with every step evaluated on its own.
fn window_step_by_step<L: BbhLikelihood + ?Sized>(
    likelihood: &L,
    p: &BbhParameters,
    steps: usize,
    f: &dyn Fn(usize, InnerProducts) -> [f64; 3],
    gradient: &mut ParameterVector,
    weights: &mut Vec<f64>,
) -> Result<f64, LikelihoodError> {
    let dt = likelihood.lattice_spacing().ok_or_else(|| {
        LikelihoodError::InvalidInput("the likelihood has no time lattice".into())
    })?;
    let mut values = Vec::with_capacity(steps);
    let mut gradients = Vec::with_capacity(steps);
    for j in 0..steps {
        let mut moved = *p;
        moved.geocent_time += j as f64 * dt;
        let mut g = [0.0; tdpe_signal::NUM_PARAMETERS];
        values.push(likelihood.function_and_gradient(&moved, &|ip| f(j, ip), &mut g)?);
        gradients.push(g);
    }
    let value = log_sum_exp_weights(&values, weights);
    gradient.fill(0.0);
    for (w, g) in weights.iter().zip(&gradients) {
        gradient
            .iter_mut()
            .zip(g)
            .for_each(|(total, d)| *total += w * d);
    }
    Ok(value)
}

/// The phase offsets of the default [`BbhLikelihood::quadrature_products`]: h₀, h₁ and their
/// normalised sum.
const QUADRATURE_PHASES: [f64; 3] = [
    0.0,
    std::f64::consts::FRAC_PI_4,
    std::f64::consts::FRAC_PI_8,
];

/// `p` with its phase moved by `offset`.
fn with_phase_offset(p: &BbhParameters, offset: f64) -> BbhParameters {
    let mut moved = *p;
    moved.phase += offset;
    moved
}

impl BbhLikelihood for BbhRelativeBinning {
    fn is_22_only(&self) -> bool {
        self.model().is_22_only()
    }

    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
        BbhRelativeBinning::inner_products(self, p)
    }

    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        BbhRelativeBinning::function_and_gradient(self, p, f, gradient)
    }

    fn quadrature_products(
        &self,
        p: &BbhParameters,
    ) -> Result<QuadratureProducts, LikelihoodError> {
        BbhRelativeBinning::quadrature_products(self, p)
    }

    fn quadrature_function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(QuadratureProducts) -> [f64; 6],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        BbhRelativeBinning::quadrature_function_and_gradient(self, p, f, gradient)
    }

    fn lattice_spacing(&self) -> Option<f64> {
        BbhRelativeBinning::lattice_spacing(self)
    }

    fn time_lattice(&self, p: &BbhParameters) -> Result<Option<TimeLattice>, LikelihoodError> {
        BbhRelativeBinning::time_lattice(self, p)
    }

    fn window_function_and_gradient(
        &self,
        p: &BbhParameters,
        steps: usize,
        f: &dyn Fn(usize, InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
        weights: &mut Vec<f64>,
    ) -> Result<f64, LikelihoodError> {
        // Beyond the summary data's shifts (an arrival window capped by the segment) the
        // nodes follow the steps one by one.
        if self.follows_window(p, steps) {
            BbhRelativeBinning::window_function_and_gradient(self, p, steps, f, gradient, weights)
        } else {
            window_step_by_step(self, p, steps, f, gradient, weights)
        }
    }

    fn window_function(
        &self,
        p: &BbhParameters,
        steps: usize,
        f: &dyn Fn(usize, InnerProducts) -> [f64; 3],
    ) -> Result<f64, LikelihoodError> {
        if self.follows_window(p, steps) {
            BbhRelativeBinning::window_function(self, p, steps, |j, ip| f(j, ip)[0])
        } else {
            let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
            window_step_by_step(self, p, steps, f, &mut gradient, &mut Vec::new())
        }
    }
}
