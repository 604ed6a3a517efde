//! The log posterior of the BBH parameters on the sampler's unconstrained vector x
//! (docs/sampling.md §2: the density §2.5, its gradient §2.6, −∞ outside the support §2.7).
//!
//! Each sampled parameter θ_i (those without a DeltaFunction prior) has a [`Transform`]
//! s_i = g_i(y_i), and the vector y is an affine image y = c + A x of the sampler's x (c at the
//! posterior mode, A A^T ≈ the posterior covariance of y there, so that x is roughly N(0, I)
//! and the sampler starts with a well-conditioned problem). The [`Coordinates`] θ = F(s)
//! replace groups of parameters (the effective spin, the detector frame, the peak phase, the
//! circular phases), each adding ln|det ∂θ/∂s|. Then
//!
//! ln p(x) = Σ_i [ln π_i(θ_i) + ln|g_i'(y_i)|] + Σ_maps ln|det ∂θ/∂s| + ln|det A|
//!           + [constraints] + ln L(θ),
//!
//! with the constraint term 0 inside and −∞ outside, and by the chain rule ∇_x ln p = A^T v,
//!
//! v_i = [(∂θ/∂s)ᵀ(∇_θ ln π + ∇_θ ln L) + ∇_s ln|det|]_i g_i'(y_i) + (ln|g_i'|)'(y_i).
//!
//! With a [`DistanceMarginal`], luminosity_distance is no coordinate and ln L is replaced by
//! ln ∫ π(D_L) L(D_L) dD_L (its prior term then integrated with it). With an image chart
//! (precessing spins, [`image_chart`]) x ends in one more coordinate, the label u of the chart
//! that reads it, which adds ln p(u) and, where u < 0, reads θ through the inclination mirror.
//! Any failure of the likelihood (parameters outside the waveform's domain) or a non-finite
//! value gives −∞, which the samplers treat as outside the support.

mod image_chart;
mod likelihood;
mod marginal_likelihood;
mod network;
mod options;
mod proposal;
#[cfg(test)]
mod tests;

use tdpe_likelihood::log_sum_exp::log_sum_exp;
use tdpe_likelihood::{LikelihoodError, QuadratureProducts};
use tdpe_mcmc::{LogDensity, PriorLikelihood, Space};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector};

pub use crate::affine::Affine;
use crate::coordinates::circular_phases::Copies;
use crate::coordinates::{pull_back, Coordinates, Jacobian};
use crate::distance_marginal::DistanceMarginal;
use crate::jumps::inclination_mirror::InclinationMirror;
use crate::jumps::sky_ring::SkyRingReflection;
use crate::jumps::time_orbit::TimeOrbit;
use crate::jumps::Jump;
use crate::phase_marginal::draw_phase_angle;
use crate::prior::{Distribution, PriorSet};
use crate::time_steps::TimeSteps;
use crate::transform::wrap;
use crate::transform::Transform;
pub use image_chart::LABEL_MODE;
use image_chart::{draw_label, label_log_density};
pub use likelihood::BbhLikelihood;
pub use network::{Network, SkyChoices};
pub use options::{
    CoordinateOptions, IntrinsicCoordinates, NotApplied, PhaseCoordinate, ReferenceFrame,
};
use proposal::DrawsProposal;
use std::f64::consts::{PI, TAU};

/// One sampled coordinate.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Coordinate {
    parameter: Parameter,
    transform: Transform,
}

/// θ(x) and what the gradients need.
struct Forwarded {
    theta: ParameterVector,
    /// The label of x's chart, if the posterior has an image chart (θ is then T of the maps'
    /// output where it is negative).
    label: Option<f64>,
    /// Per coordinate: ds/dy, ln|ds/dy| and its y-derivative.
    coordinates: Vec<(f64, f64, f64)>,
    /// The coordinate maps' Jacobians, in the order of composition.
    jacobians: Vec<Jacobian>,
}

/// The posterior on the unconstrained, standardised vector x.
pub struct Posterior<L> {
    priors: PriorSet,
    likelihood: L,
    coordinates: Vec<Coordinate>,
    affine: Affine,
    /// Values of the fixed parameters (and placeholders for the sampled ones).
    fixed: ParameterVector,
    /// The coordinate maps chosen.
    maps: Coordinates,
    /// The jumps offered to the sampler after every transition, in order.
    jumps: Vec<Jump>,
    /// The orbit move through time offered after the jumps, if chosen and the likelihood
    /// follows whole-sample time shifts.
    time_orbit: Option<TimeOrbit>,
    /// The likelihood marginalised over luminosity_distance (then not sampled), if chosen.
    distance: Option<DistanceMarginal>,
    /// Whether the likelihood is marginalised over a uniform phase (then not sampled).
    phase_marginalized: bool,
    /// Whether psi is then sampled over a quarter turn, the period of the marginal posterior.
    psi_quarter_turn: bool,
    /// The window of whole-sample time steps the likelihood is summed over, if chosen
    /// (docs/sampling.md §5.6): geocent_time's coordinate is then its start s.
    time_steps: Option<TimeSteps>,
    /// Independence proposals tried after every transition (docs/sampling.md §4.4).
    independence_proposals: usize,
    /// The proposal's kernel density estimate from earlier draws, and the share of prior
    /// draws mixed into it; without one, prior draws alone.
    draws_proposal: Option<(DrawsProposal, f64)>,
    /// The requested coordinates and jumps that do not apply to these priors.
    not_applied: Vec<NotApplied>,
    /// The mirror whose image is a chart of its own, with x's last coordinate its label (see
    /// [`image_chart`]).
    image_chart: Option<InclinationMirror>,
}

impl<L: BbhLikelihood> Posterior<L> {
    /// The posterior of `priors` and `likelihood` in bilby's parameters (each through its
    /// prior's [`Transform`]), with no standardisation (c = 0, A = I).
    fn in_parameters(priors: PriorSet, likelihood: L) -> Self {
        let mut fixed = [0.0; tdpe_signal::NUM_PARAMETERS];
        let mut coordinates = Vec::new();
        for (parameter, prior) in priors.iter() {
            match prior.distribution {
                Distribution::DeltaFunction { peak } => fixed[parameter] = peak,
                _ => coordinates.push(Coordinate {
                    parameter,
                    transform: Transform::for_prior(prior),
                }),
            }
        }
        let n = coordinates.len();
        Self {
            priors,
            likelihood,
            coordinates,
            affine: Affine::diagonal(vec![0.0; n], &vec![1.0; n]),
            fixed,
            maps: Coordinates::default(),
            jumps: Vec::new(),
            time_orbit: None,
            distance: None,
            phase_marginalized: false,
            psi_quarter_turn: false,
            time_steps: None,
            independence_proposals: 0,
            draws_proposal: None,
            not_applied: Vec::new(),
            image_chart: None,
        }
    }

    /// The requested coordinates and jumps that do not apply to these priors (each with why):
    /// the posterior uses bilby's parameters there instead.
    pub fn not_applied(&self) -> &[NotApplied] {
        &self.not_applied
    }

    /// The detectors the sky frame and the sky reflection were built on.
    pub fn sky_choices(&self) -> SkyChoices {
        let (reference_frame, time_reference) = match self.maps.detector_frame() {
            Some(frame) => {
                let [first, second] = frame.pair();
                (format!("{first}{second}"), first.to_string())
            }
            None => ("sky".to_string(), "geocent".to_string()),
        };
        let rings: Vec<&SkyRingReflection> = self
            .jumps
            .iter()
            .filter_map(|j| match j {
                Jump::SkyRing(ring) => Some(ring.as_ref()),
                Jump::Inclination(_) => None,
            })
            .collect();
        let sky_reflection = rings.first().map(|ring| {
            let [first, second] = ring.pair();
            if ring.keeps_every_site() {
                format!(
                    "through the plane of the detectors' sites, keeping the {first} and \
                     {second} signals and every arrival time"
                )
            } else {
                format!(
                    "through {} planes about the {first}-{second} baseline",
                    rings.len()
                )
            }
        });
        SkyChoices {
            reference_frame,
            time_reference,
            sky_reflection,
        }
    }

    /// Whether the likelihood is marginalised over luminosity_distance.
    pub fn marginalizes_distance(&self) -> bool {
        self.distance.is_some()
    }

    /// The priors.
    pub fn priors(&self) -> &PriorSet {
        &self.priors
    }

    /// Whether the likelihood is marginalised over the phase.
    pub fn marginalizes_phase(&self) -> bool {
        self.phase_marginalized
    }

    /// The window of whole-sample time steps the likelihood is summed over, if any.
    pub fn time_steps(&self) -> Option<TimeSteps> {
        self.time_steps
    }

    /// ln π of `parameter`'s prior at `value` and its derivative; for geocent_time summed over
    /// the time steps, the prior of their start (docs/sampling.md §5.6).
    fn log_prior_of(&self, parameter: Parameter, value: f64) -> (f64, f64) {
        let dist = &self.priors.prior(parameter).distribution;
        match self.time_steps {
            Some(steps) if parameter == Parameter::GeocentTime => steps.log_prior(dist, value),
            _ => (dist.ln_pdf(value), dist.d_ln_pdf(value)),
        }
    }

    /// Replaces theta's marginalised parameters by draws from their conditional posterior
    /// given the others: the luminosity_distance first (with the phase integrated out where it
    /// is marginalised too), then the phase given the distance; with time steps, geocent_time
    /// (the window's start) moved first by a step drawn from its conditional posterior. Without
    /// marginalisation or time steps leaves theta as it is.
    pub fn draw_marginalized<R: rand::Rng + ?Sized>(
        &self,
        theta: &mut ParameterVector,
        rng: &mut R,
    ) -> Result<(), LikelihoodError> {
        let at = *theta;
        let no_posterior =
            |what: &str| LikelihoodError::InvalidInput(format!("no {what} posterior at {at:?}"));
        if let Some(steps) = self.time_steps {
            // The step j given s (docs/sampling.md §5.6), then the distance at s + j·dt.
            let mut weights = Vec::new();
            let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
            let mut p = BbhParameters::from_array(*theta);
            if let Some(marginal) = &self.distance {
                p.luminosity_distance = marginal.reference_distance();
            }
            self.over_time_steps(&p, steps, &mut gradient, &mut weights)?;
            let step = crate::time_steps::draw_index(weights, rng.random())
                .ok_or_else(|| no_posterior("time step"))?;
            theta[Parameter::GeocentTime] += step as f64 * steps.dt;
        }
        // The inner products at the reference distance D₀, which scale by u = D₀/D_L (and u²).
        let mut p = BbhParameters::from_array(*theta);
        if let Some(marginal) = &self.distance {
            p.luminosity_distance = marginal.reference_distance();
        }
        if !self.phase_marginalized {
            if let Some(marginal) = &self.distance {
                theta[Parameter::LuminosityDistance] = marginal
                    .draw(self.likelihood.inner_products(&p)?, rng)
                    .ok_or_else(|| no_posterior("distance"))?;
            }
            return Ok(());
        }
        let q = self.likelihood.quadrature_products(&p)?;
        let u = match &self.distance {
            Some(marginal) => {
                let distance = marginal
                    .draw_over_phase(&q, rng)
                    .ok_or_else(|| no_posterior("distance"))?;
                theta[Parameter::LuminosityDistance] = distance;
                marginal.reference_distance() / distance
            }
            None => 1.0,
        };
        let angle = draw_phase_angle(&q, u, rng).ok_or_else(|| no_posterior("phase"))?;
        // The (2,2) template at phase φ + ψ/2 is h(ψ); φ + π gives the same one.
        let turn = if rng.random::<bool>() { PI } else { 0.0 };
        let (lower, _) = self.priors.prior(Parameter::Phase).distribution.support();
        theta[Parameter::Phase] = wrap(p.phase + 0.5 * angle + turn, lower, TAU);
        Ok(())
    }

    /// θ, or with the circular phases the `k`-th (k mod 4) of the four parameter vectors that
    /// the sampler does not tell apart (same posterior, same x); with the phase marginalised
    /// and ψ sampled over a quarter turn, the `k`-th (k mod 2) of two.
    pub fn equivalent_parameters(&self, theta: &ParameterVector, k: usize) -> ParameterVector {
        if self.psi_quarter_turn && k % 2 == 1 {
            // With the phase marginalised, ψ is sampled over a quarter turn: (φ, ψ) and
            // (φ + π/2, ψ + π/2) give the same (2,2) signal.
            let mut other = *theta;
            for parameter in [Parameter::Phase, Parameter::Psi] {
                let (lower, upper) = self.priors.prior(parameter).distribution.support();
                other[parameter] = wrap(theta[parameter] + 0.5 * PI, lower, upper - lower);
            }
            return other;
        }
        self.maps
            .circular_phases()
            .map_or(*theta, |map| map.equivalent(theta, k))
    }

    /// The index in x of `parameter`'s coordinate, if it is sampled.
    fn coordinate_of(&self, parameter: Parameter) -> Option<usize> {
        self.coordinates
            .iter()
            .position(|c| c.parameter == parameter)
    }

    /// Whether `parameter` is one of the sampler's coordinates.
    fn is_sampled(&self, parameter: Parameter) -> bool {
        self.coordinate_of(parameter).is_some()
    }

    /// The likelihood.
    pub fn likelihood(&self) -> &L {
        &self.likelihood
    }

    /// Names of the sampled parameters, in the order of x.
    pub fn sampled_names(&self) -> Vec<&'static str> {
        self.coordinates
            .iter()
            .map(|c| c.parameter.name())
            .collect()
    }

    /// The unconstrained image y of `theta` (the centre for [`Posterior::standardize`]); NaN
    /// in the phase where the waveform cannot be set up.
    pub fn to_y(&self, theta: &ParameterVector) -> Vec<f64> {
        let s = self.maps.sampled(theta);
        self.coordinates
            .iter()
            .map(|c| c.transform.inverse(s[c.parameter]))
            .collect()
    }

    /// Standard deviation of each y coordinate under the prior (from `draws` prior draws): the
    /// widest the posterior can be, which bounds the standardisation where the likelihood is flat.
    pub fn prior_widths<R: rand::Rng + ?Sized>(&self, draws: usize, rng: &mut R) -> Vec<f64> {
        let ys: Vec<Vec<f64>> = (0..draws)
            .map(|_| {
                let mut theta = self.fixed;
                for c in &self.coordinates {
                    theta[c.parameter] = self.priors.prior(c.parameter).distribution.sample(rng);
                }
                self.to_y(&theta)
            })
            .collect();
        (0..self.coordinates.len())
            .map(|i| {
                let finite: Vec<f64> = ys.iter().map(|y| y[i]).filter(|y| y.is_finite()).collect();
                let mean = finite.iter().sum::<f64>() / finite.len() as f64;
                let var =
                    finite.iter().map(|y| (y - mean).powi(2)).sum::<f64>() / finite.len() as f64;
                var.sqrt()
            })
            .collect()
    }

    /// How many parameter vectors the sampler does not tell apart map to one x: four with the
    /// folded circular phases, two with psi over a quarter turn, else one.
    fn equivalent_count(&self) -> usize {
        if self.psi_quarter_turn {
            2
        } else if self
            .maps
            .circular_phases()
            .is_some_and(|map| map.copies() == Copies::Folded)
        {
            4
        } else {
            1
        }
    }

    /// The shifts of y between the points over one parameter vector: with the unfolded circular
    /// phases, k·(π, −π) in (phase + psi, phase − psi), k = 0…3, which keep phase and move psi
    /// by whole turns; else none but zero.
    fn cover_shifts(&self) -> Vec<Vec<f64>> {
        let zero = vec![0.0; self.coordinates.len()];
        let slots = (
            self.coordinate_of(Parameter::Phase),
            self.coordinate_of(Parameter::Psi),
        );
        match (self.maps.circular_phases(), slots) {
            (Some(map), (Some(phase), Some(psi))) if map.copies() == Copies::Unfolded => (0..4)
                .map(|k| {
                    let mut shift = zero.clone();
                    shift[phase] = k as f64 * PI;
                    shift[psi] = -(k as f64) * PI;
                    shift
                })
                .collect(),
            _ => vec![zero],
        }
    }

    /// x of a draw from the prior of the sampled coordinates, whose density in x (summed over
    /// the [`Self::cover_shifts`]) is [`Self::equivalent_count`] times the prior term's, and
    /// times the number of shifts (docs/sampling.md §4.4); `None` where
    /// it breaks a constraint. Such a draw is not drawn again: the proposal's density must
    /// not depend on how often the constraints hold, which no one knows exactly.
    fn prior_draw(&self, rng: &mut dyn rand::RngCore, label: Option<f64>) -> Option<Vec<f64>> {
        let mut theta = self.fixed;
        for c in &self.coordinates {
            theta[c.parameter] = self.priors.prior(c.parameter).distribution.sample(rng);
        }
        if !self.priors.constraints_hold(&theta) {
            return None;
        }
        if let Some(steps) = self.time_steps {
            // The start s of the window that holds t at step j, j drawn by its share.
            let t = theta[Parameter::GeocentTime];
            let shares = (0..steps.steps).map(|j| steps.log_share(j, t).0.exp());
            let step = crate::time_steps::draw_index(shares, rand::Rng::random(rng))?;
            theta[Parameter::GeocentTime] = t - step as f64 * steps.dt;
        }
        let x = self.to_x_in_chart(&theta, label);
        x.iter().all(|v| v.is_finite()).then_some(x)
    }

    /// Proposes, besides prior draws (a share `prior_share` of them), draws from a kernel
    /// density estimate of `draws` (an earlier run's, in bilby's parameters with geocent_time
    /// the sampled coordinate's value) in the independence moves (docs/sampling.md §4.4);
    /// false, and prior draws alone, where the draws do not make one.
    pub fn use_draws_proposal(&mut self, draws: &[ParameterVector], prior_share: f64) -> bool {
        let ys: Vec<Vec<f64>> = draws.iter().map(|t| self.to_y(t)).collect();
        let periods: Vec<Option<f64>> = self
            .coordinates
            .iter()
            .map(|c| match c.transform {
                Transform::Periodic { lower, upper } => Some(upper - lower),
                _ => None,
            })
            .collect();
        self.draws_proposal = DrawsProposal::new(ys, &periods).map(|kde| (kde, prior_share));
        self.draws_proposal.is_some()
    }

    /// Sets the affine map y = c + A x.
    pub fn standardize(&mut self, affine: Affine) {
        self.affine = affine;
    }

    /// x of a parameter vector (inside the prior support), periodic coordinates within half a
    /// period of the centre; with an image chart, in the first chart.
    pub fn to_x(&self, theta: &ParameterVector) -> Vec<f64> {
        self.to_x_in_chart(theta, self.image_chart.as_ref().map(|_| LABEL_MODE))
    }

    /// x of θ in the chart of `label` (`None` without an image chart), ending in that label.
    fn to_x_in_chart(&self, theta: &ParameterVector, label: Option<f64>) -> Vec<f64> {
        // T is an involution: θ = T(θ₀) where θ₀ = T(θ).
        let read = self
            .image_of_label(label)
            .map_or(*theta, |t| t.image(theta));
        let mut x = self.affine.x(&self.to_y(&read));
        x.extend(label);
        self.wrap_periodic(&mut x);
        x
    }

    /// The mirror that the chart of `label` reads θ through: the image chart's for a negative
    /// label.
    fn image_of_label(&self, label: Option<f64>) -> Option<&InclinationMirror> {
        self.image_chart
            .as_ref()
            .filter(|_| label.is_some_and(|u| u < 0.0))
    }

    /// The θ-gradient `g` at the point `forwarded` pulled back to s: through T in the image
    /// chart, then through the coordinate maps.
    fn pull_back_to_s(&self, forwarded: &Forwarded, mut g: ParameterVector) -> ParameterVector {
        if let Some(mirror) = self.image_of_label(forwarded.label) {
            mirror.pull_back(&forwarded.theta, &mut g);
        }
        pull_back(&forwarded.jacobians, &g)
    }

    /// The parameters of x (periodic ones wrapped, geocent_time relative to the epoch).
    pub fn parameters(&self, x: &[f64]) -> ParameterVector {
        self.forward(x).theta
    }

    /// ln π(θ) of the physical parameters (Σ of the priors' log densities, fixed ones
    /// contributing 0, a marginalised distance its prior), −∞ outside a prior's support or a
    /// constraint.
    pub fn log_prior(&self, theta: &ParameterVector) -> f64 {
        self.log_prior_over(theta, |p, value| {
            self.priors.prior(p).distribution.ln_pdf(value)
        })
    }

    /// ln π of the sampled parameters: [`Self::log_prior`] with geocent_time the start of a
    /// window of time steps, whose prior is π_s (docs/sampling.md §5.6), where there are any.
    fn sampled_log_prior(&self, theta: &ParameterVector) -> f64 {
        self.log_prior_over(theta, |p, value| self.log_prior_of(p, value).0)
    }

    /// Σ of `log_prior_of(parameter, value)` over the sampled and marginalised parameters, −∞
    /// where a constraint fails.
    fn log_prior_over(
        &self,
        theta: &ParameterVector,
        log_prior_of: impl Fn(Parameter, f64) -> f64,
    ) -> f64 {
        if !self.priors.constraints_hold(theta) {
            return f64::NEG_INFINITY;
        }
        let marginalized = [
            self.distance
                .as_ref()
                .map(|_| Parameter::LuminosityDistance),
            self.phase_marginalized.then_some(Parameter::Phase),
        ]
        .into_iter()
        .flatten();
        self.coordinates
            .iter()
            .map(|c| c.parameter)
            .chain(marginalized)
            .map(|p| log_prior_of(p, theta[p]))
            .sum()
    }

    /// θ(x), and per coordinate ds/dy, ln|ds/dy| and its y-derivative, and the maps' Jacobians.
    fn forward(&self, x: &[f64]) -> Forwarded {
        let n = self.coordinates.len();
        let label = self.image_chart.as_ref().and(x.get(n).copied());
        let mut s = self.fixed;
        let mut coordinates = Vec::with_capacity(n);
        for (c, yi) in self.coordinates.iter().zip(self.affine.y(&x[..n])) {
            let f = c.transform.forward(yi);
            s[c.parameter] = f.value;
            coordinates.push((f.derivative, f.log_jacobian, f.d_log_jacobian));
        }
        let (mut theta, jacobians) = self.maps.theta(&s);
        if let Some(mirror) = self.image_of_label(label) {
            theta = mirror.image(&theta);
        }
        Forwarded {
            theta,
            label,
            coordinates,
            jacobians,
        }
    }

    /// ln π with its x-gradient, at the point `forwarded` (see [`PriorLikelihood`]).
    fn prior_term(&self, forwarded: &Forwarded, grad: &mut [f64]) -> f64 {
        let theta = &forwarded.theta;
        grad.fill(0.0);
        if !self.priors.constraints_hold(theta) {
            return f64::NEG_INFINITY;
        }
        let n = self.coordinates.len();
        let mut total = self.affine.log_det;
        let mut d_theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        for c in &self.coordinates {
            let (value, slope) = self.log_prior_of(c.parameter, theta[c.parameter]);
            total += value;
            d_theta[c.parameter] = slope;
        }
        // The priors are symmetric under T, so their value at T(θ) is theirs at θ.
        let mut d_s = self.pull_back_to_s(forwarded, d_theta);
        for (m, jacobian) in forwarded.jacobians.iter().enumerate() {
            if let Some(log_det) = jacobian.log_det() {
                total += log_det;
            }
            if jacobian.log_det_reads_earlier_outputs() {
                // Its gradient is in the slots as the earlier maps leave them: pulled back
                // through those maps to s (docs/sampling.md §3.6).
                let mut own = [0.0; tdpe_signal::NUM_PARAMETERS];
                jacobian.add_log_det_gradient(&mut own);
                let pulled = pull_back(&forwarded.jacobians[..m], &own);
                for (d, p) in d_s.iter_mut().zip(pulled) {
                    *d += p;
                }
            } else {
                jacobian.add_log_det_gradient(&mut d_s);
            }
        }
        let v: Vec<f64> = self
            .coordinates
            .iter()
            .zip(&forwarded.coordinates)
            .map(|(c, &(ds, log_jac, d_log_jac))| {
                total += log_jac;
                d_s[c.parameter] * ds + d_log_jac
            })
            .collect();
        self.affine.pull_back(&v, &mut grad[..n]);
        if let Some(u) = forwarded.label {
            let (value, slope) = label_log_density(u);
            total += value;
            grad[n] = slope;
        }
        if total.is_finite() && grad.iter().all(|g| g.is_finite()) {
            total
        } else {
            grad.fill(0.0);
            f64::NEG_INFINITY
        }
    }

    /// ln L with its x-gradient, at the point `forwarded`.
    fn likelihood_term(&self, forwarded: &Forwarded, grad: &mut [f64]) -> f64 {
        let mut g = [0.0; tdpe_signal::NUM_PARAMETERS];
        let value = self.likelihood_at(&forwarded.theta, &mut g);
        let d_s = self.pull_back_to_s(forwarded, g);
        let v: Vec<f64> = self
            .coordinates
            .iter()
            .zip(&forwarded.coordinates)
            .map(|(c, &(ds, _, _))| d_s[c.parameter] * ds)
            .collect();
        let n = self.coordinates.len();
        self.affine.pull_back(&v, &mut grad[..n]);
        grad[n..].fill(0.0);
        value
    }

    /// Moves the periodic coordinates of y(x) to their copies within half a period of the
    /// centre c (the posterior mode), where the density is the same (see
    /// [`Space::canonicalize`]; docs/sampling.md §2.8).
    fn wrap_periodic(&self, x: &mut [f64]) {
        let n = self.coordinates.len();
        let mut y = self.affine.y(&x[..n]);
        let mut moved = false;
        for (i, c) in self.coordinates.iter().enumerate() {
            if let Transform::Periodic { lower, upper } = c.transform {
                let (period, center) = (upper - lower, self.affine.center[i]);
                let offset = (y[i] - center + 0.5 * period).rem_euclid(period) - 0.5 * period;
                if center + offset != y[i] {
                    y[i] = center + offset;
                    moved = true;
                }
            }
        }
        if moved {
            x[..n].copy_from_slice(&self.affine.x(&y));
        }
    }

    /// Jump `which`'s image of x and ln|det ∂x'/∂x| (see [`Space::mirror`]); after the jumps,
    /// the change of chart u → −u where there is an image chart.
    fn mirror_image(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        if which == self.jumps.len() {
            let n = self.coordinates.len();
            self.image_chart.as_ref()?;
            image.copy_from_slice(x);
            image[n] = -x[n];
            return Some(0.0);
        }
        let forwarded = self.forward(x);
        let distance_sampled = self.is_sampled(Parameter::LuminosityDistance);
        let (theta_image, log_det_theta) = self
            .jumps
            .get(which)?
            .image(&forwarded.theta, distance_sampled)?;
        self.image_in_x(&forwarded, &theta_image, log_det_theta, image)
    }

    /// x' of the image θ' of the point `forwarded` under a map of ln|det ∂θ'/∂θ| =
    /// `log_det_theta`, into `image`, and ln|det ∂x'/∂x|: the map's plus that of the
    /// coordinate maps, |det ∂θ/∂x| at x over that at x', each the prior term's Jacobian part
    /// (docs/sampling.md §4); `None` where θ' lies outside the prior's support.
    fn image_in_x(
        &self,
        forwarded: &Forwarded,
        theta_image: &ParameterVector,
        log_det_theta: f64,
        image: &mut [f64],
    ) -> Option<f64> {
        let log_jacobian = |forwarded: &Forwarded| {
            let mut grad = vec![0.0; forwarded.coordinates.len()];
            self.prior_term(forwarded, &mut grad) - self.sampled_log_prior(&forwarded.theta)
        };
        let x_image = self.to_x_in_chart(theta_image, forwarded.label);
        let log_det =
            log_det_theta + log_jacobian(forwarded) - log_jacobian(&self.forward(&x_image));
        if !log_det.is_finite() {
            // The image lies outside the prior's support (or the waveform's domain).
            return None;
        }
        image.copy_from_slice(&x_image);
        Some(log_det)
    }

    /// The time orbit's weights at x (see [`Space::orbit`], [`TimeOrbit::weights`]): the
    /// likelihood's time lattice at θ(x), through the distance and phase marginals where they
    /// are chosen.
    fn time_orbit_weights(&self, x: &[f64], weights: &mut Vec<[f64; 2]>) -> Option<usize> {
        let orbit = self.time_orbit.as_ref()?;
        let theta = self.forward(x).theta;
        let p = BbhParameters::from_array(theta);
        let lattice = self.likelihood.time_lattice(&p).ok()??;
        let time_prior = &self.priors.prior(Parameter::GeocentTime).distribution;
        let log_likelihood = |q: &QuadratureProducts| {
            if self.phase_marginalized {
                self.over_phase(q)[0]
            } else {
                self.at_phase(q.at(0.0))[0]
            }
        };
        orbit.weights(
            &theta,
            &lattice,
            time_prior,
            self.time_steps,
            log_likelihood,
            weights,
        )
    }

    /// The time orbit's member `offset` places after x and ln|det ∂x'/∂x| (see
    /// [`Space::orbit_image`]); the orbit's maps are translations of θ (determinant 1).
    fn time_orbit_image(&self, x: &[f64], offset: isize, image: &mut [f64]) -> Option<f64> {
        let orbit = self.time_orbit.as_ref()?;
        let forwarded = self.forward(x);
        let theta_image = orbit.image(&forwarded.theta, offset);
        self.image_in_x(&forwarded, &theta_image, 0.0, image)
    }
}

impl<L: BbhLikelihood> Space for Posterior<L> {
    fn dim(&self) -> usize {
        self.coordinates.len() + usize::from(self.image_chart.is_some())
    }

    fn canonicalize(&self, x: &mut [f64]) {
        self.wrap_periodic(x);
    }

    fn mirror_count(&self) -> usize {
        self.jumps.len() + usize::from(self.image_chart.is_some())
    }

    fn mirror(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        self.mirror_image(which, x, image)
    }

    fn orbit_count(&self) -> usize {
        usize::from(self.time_orbit.is_some())
    }

    fn orbit(&self, _which: usize, x: &[f64], weights: &mut Vec<[f64; 2]>) -> Option<usize> {
        self.time_orbit_weights(x, weights)
    }

    fn orbit_image(
        &self,
        _which: usize,
        x: &[f64],
        offset: isize,
        image: &mut [f64],
    ) -> Option<f64> {
        self.time_orbit_image(x, offset, image)
    }

    fn orbit_inverse(&self, _which: usize, offset: isize) -> isize {
        self.time_orbit
            .as_ref()
            .map_or(-offset, |orbit| orbit.inverse(offset))
    }

    fn independence_count(&self) -> usize {
        self.independence_proposals
    }

    fn independence_draw(&self, rng: &mut dyn rand::RngCore, image: &mut [f64]) -> Option<f64> {
        // The label, drawn from its own density, picks the chart the draw is read in.
        let label = self.image_chart.as_ref().map(|_| draw_label(rng));
        let x = match &self.draws_proposal {
            Some((kde, prior_share)) if rand::Rng::random::<f64>(rng) >= *prior_share => {
                let mut y = vec![0.0; self.coordinates.len()];
                kde.draw(rng, &mut y);
                let mut x = self.affine.x(&y);
                x.extend(label);
                self.wrap_periodic(&mut x);
                x
            }
            _ => self.prior_draw(rng, label)?,
        };
        image.copy_from_slice(&x);
        Some(self.independence_log_density(&x))
    }

    fn independence_log_density(&self, x: &[f64]) -> f64 {
        let mut grad = vec![0.0; x.len()];
        // A prior draw reaches x from each of the parameter vectors the sampler does not tell
        // apart, so its density in x is that many times the prior term. With the unfolded
        // circular phases the draws land on one of the points over their parameters and the
        // chain may stand on any: the density is summed over those points, the density of the
        // proposals on the parameters, which is what the test between them needs
        // (docs/sampling.md §4.4).
        let shifts = self.cover_shifts();
        let copies = (self.equivalent_count() * shifts.len()) as f64;
        let forwarded = self.forward(x);
        let prior = self.prior_term(&forwarded, &mut grad) + copies.ln();
        match &self.draws_proposal {
            None => prior,
            Some((kde, prior_share)) => {
                let n = self.coordinates.len();
                let label = forwarded.label.map_or(0.0, |u| label_log_density(u).0);
                let y = self.affine.y(&x[..n]);
                let at_points: Vec<f64> = shifts
                    .iter()
                    .map(|shift| {
                        let moved: Vec<f64> = y.iter().zip(shift).map(|(a, b)| a + b).collect();
                        kde.log_density(&moved)
                    })
                    .collect();
                let draws = log_sum_exp(&at_points) + self.affine.log_det + label;
                log_sum_exp(&[prior_share.ln() + prior, (1.0 - prior_share).ln() + draws])
            }
        }
    }
}

impl<L: BbhLikelihood> PriorLikelihood for Posterior<L> {
    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.prior_term(&self.forward(x), grad)
    }

    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.likelihood_term(&self.forward(x), grad)
    }

    fn log_likelihood(&self, x: &[f64]) -> f64 {
        self.likelihood_value(&self.forward(x).theta)
    }
}

impl<L: BbhLikelihood> LogDensity for Posterior<L> {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        // θ(x) once for both terms.
        let forwarded = self.forward(x);
        let log_prior = self.prior_term(&forwarded, grad);
        if !log_prior.is_finite() {
            return f64::NEG_INFINITY;
        }
        let mut g_like = vec![0.0; grad.len()];
        let log_like = self.likelihood_term(&forwarded, &mut g_like);
        if !log_like.is_finite() {
            return f64::NEG_INFINITY;
        }
        grad.iter_mut().zip(&g_like).for_each(|(g, l)| *g += l);
        log_prior + log_like
    }

    fn log_density(&self, x: &[f64]) -> f64 {
        let forwarded = self.forward(x);
        let log_prior = self.prior_term(&forwarded, &mut vec![0.0; x.len()]);
        if !log_prior.is_finite() {
            return f64::NEG_INFINITY;
        }
        log_prior + self.likelihood_value(&forwarded.theta)
    }
}
