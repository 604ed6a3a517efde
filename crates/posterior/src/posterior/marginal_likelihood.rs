//! ln L of the posterior through the marginals chosen: over the distance (docs/sampling.md
//! §5.2), the phase (§5.5) and whole-sample time steps (§5.6), with its gradient in θ.

use tdpe_likelihood::{InnerProducts, LikelihoodError, QuadratureProducts};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector};

use super::{BbhLikelihood, Posterior};
use crate::phase_marginal::log_phase_marginal;
use crate::time_steps::TimeSteps;

impl<L: BbhLikelihood> Posterior<L> {
    /// ln L at the phase of the inner products `ip`, through the distance marginal if there is
    /// one, with its partials in (⟨d|h⟩, ⟨h|h⟩).
    pub(super) fn at_phase(&self, ip: InnerProducts) -> [f64; 3] {
        match &self.distance {
            Some(marginal) => marginal.log_marginal(ip),
            None => ip.log_likelihood_ratio_with_partials(),
        }
    }

    /// ln L marginalised over the phase, and the distance if chosen, with its partials in the
    /// quadrature products `q`.
    pub(super) fn over_phase(&self, q: &QuadratureProducts) -> [f64; 6] {
        match &self.distance {
            Some(marginal) => marginal.log_marginal_over_phase(q),
            None => log_phase_marginal(q),
        }
    }

    /// ln L̃ = ln Σ_j w_j L(θ_j) over the time steps θ_j (docs/sampling.md §5.6), with its
    /// θ-gradient and the steps' posterior weights.
    pub(super) fn over_time_steps(
        &self,
        p: &BbhParameters,
        steps: TimeSteps,
        grad_theta: &mut ParameterVector,
        weights: &mut Vec<f64>,
    ) -> Result<f64, LikelihoodError> {
        let (log_weights, slopes) = self.time_step_weights(p, steps);
        let term = |j: usize, ip: InnerProducts| self.step_term(&log_weights, j, ip);
        let value = self.likelihood.window_function_and_gradient(
            p,
            steps.steps,
            &term,
            grad_theta,
            weights,
        )?;
        // The prior's weights move with s: Σ_j (ρ_j − w_j) d ln π(t_j)/dt.
        grad_theta[Parameter::GeocentTime] += weights
            .iter()
            .zip(&log_weights)
            .zip(&slopes)
            .map(|((rho, log_w), slope)| (rho - log_w.exp()) * slope)
            .sum::<f64>();
        Ok(value)
    }

    /// [F_j, ∂F_j/∂⟨d|h⟩, ∂F_j/∂⟨h|h⟩] of time step j at its inner products `ip`: ln L there
    /// plus the time prior's ln weight `log_weights[j]`.
    fn step_term(&self, log_weights: &[f64], j: usize, ip: InnerProducts) -> [f64; 3] {
        let [value, d_dh, d_hh] = self.at_phase(ip);
        [value + log_weights[j], d_dh, d_hh]
    }

    /// The time prior's ln weights of the steps of the window starting at `p`'s geocent_time,
    /// and their slopes in it ([`TimeSteps::log_weights`]).
    fn time_step_weights(&self, p: &BbhParameters, steps: TimeSteps) -> (Vec<f64>, Vec<f64>) {
        let time_prior = &self.priors.prior(Parameter::GeocentTime).distribution;
        steps.log_weights(time_prior, p.geocent_time)
    }

    /// ln L of [`Self::likelihood_at`] without its gradient (−∞ on failure).
    pub(super) fn likelihood_value(&self, theta: &ParameterVector) -> f64 {
        let p = BbhParameters::from_array(*theta);
        let result = if let Some(steps) = self.time_steps {
            let (log_weights, _) = self.time_step_weights(&p, steps);
            let term = |j: usize, ip: InnerProducts| self.step_term(&log_weights, j, ip);
            self.likelihood.window_function(&p, steps.steps, &term)
        } else if self.phase_marginalized {
            self.likelihood
                .quadrature_products(&p)
                .map(|q| self.over_phase(&q)[0])
        } else {
            self.likelihood
                .inner_products(&p)
                .map(|ip| self.at_phase(ip)[0])
        };
        match result {
            Ok(v) if v.is_finite() => v,
            _ => f64::NEG_INFINITY,
        }
    }

    /// ln L (marginalised over the distance and the phase where chosen) and its θ-gradient at θ
    /// (−∞ and zeros on failure).
    pub(super) fn likelihood_at(
        &self,
        theta: &ParameterVector,
        grad_theta: &mut ParameterVector,
    ) -> f64 {
        let p = BbhParameters::from_array(*theta);
        let result = if let Some(steps) = self.time_steps {
            self.over_time_steps(&p, steps, grad_theta, &mut Vec::new())
        } else if self.phase_marginalized {
            self.likelihood.quadrature_function_and_gradient(
                &p,
                &|q| self.over_phase(&q),
                grad_theta,
            )
        } else {
            self.likelihood
                .function_and_gradient(&p, &|ip| self.at_phase(ip), grad_theta)
        };
        match result {
            Ok(v) if v.is_finite() && grad_theta.iter().all(|g| g.is_finite()) => v,
            _ => {
                grad_theta.fill(0.0);
                f64::NEG_INFINITY
            }
        }
    }
}
