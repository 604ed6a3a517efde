//! The log posterior of the 11 BBH parameters on the sampler's unconstrained vector x.
//!
//! Each sampled parameter θ_i (those without a DeltaFunction prior) has a [`Transform`]
//! θ_i = g_i(y_i), and the vector y is an affine image y = c + A x of the sampler's x (c at the
//! fiducial point, A A^T ≈ the posterior covariance of y there, so that x is roughly N(0, I)
//! and the sampler starts with a well-conditioned problem). Then
//!
//! ln p(x) = Σ_i [ln π_i(θ_i) + ln|g_i'(y_i)|] + ln|det A| + [constraints] + ln L(θ),
//!
//! with the constraint term 0 inside and −∞ outside, and by the chain rule
//! ∇_x ln p = A^T v, v_i = (ln π_i)'(θ_i) g_i'(y_i) + (ln|g_i'|)'(y_i) + ∂ ln L/∂θ_i · g_i'(y_i).
//! Optional maps θ = F(s) replace groups of coordinates, each adding ln|det ∂θ/∂s| to ln p
//! and pulling gradients in θ back by (∂θ/∂s)ᵀ: with an [`EffectiveSpin`], (chi_1, chi_2)
//! becomes (χ_eff, u); with a [`DetectorFrameSky`], (geocent_time, ra, dec) becomes the arrival
//! time at the first detector and the (zenith, azimuth) of the detector pair's frame; with a
//! [`PeakPhase`], phase becomes the phase at the signal's peak (det 1); with
//! [`CircularPhases`], (phase, psi) becomes (phase + psi, phase − psi), each modulo π (a
//! four-to-one map, constant det). (The mass ratio through η is a per-coordinate [`Transform`].)
//! With a [`DistanceMarginal`], luminosity_distance is no coordinate and ln L is replaced by
//! ln ∫ π(D_L) L(D_L) dD_L (its prior term then integrated with it).
//! Any failure of the likelihood (parameters outside the waveform's domain) or a non-finite
//! value gives −∞, which the samplers treat as outside the support.

use tdpe_likelihood::{BbhRelativeBinning, InnerProducts, LikelihoodError};
use tdpe_mcmc::{LogDensity, PriorLikelihood};
use tdpe_signal::{component_masses, BbhParameters, SignalModel, PARAMETER_NAMES};

use crate::circular_phases::CircularPhases;
use crate::distance_marginal::{DistanceMarginal, LUMINOSITY_DISTANCE};
use crate::effective_spin::{EffectiveSpin, SpinJacobian, CHI_1, CHI_2, MASS_RATIO};
use crate::inclination_mirror::{InclinationMirror, PSI, THETA_JN};
use crate::peak_phase::{PeakPhase, PhaseJacobian, PHASE};
use crate::prior::{Distribution, PriorSet, GEOCENT_TIME};
use crate::sky_frame::{DetectorFrameSky, SkyJacobian, DEC, RA};
use crate::sky_ring::SkyRingReflection;
use crate::transform::{spans_period, Transform};

/// A BBH likelihood through the inner products ⟨d|h⟩ and ⟨h|h⟩ (ln L = ⟨d|h⟩ − ½⟨h|h⟩), with
/// gradients in the 11 parameters ([`PARAMETER_NAMES`] order).
pub trait BbhLikelihood: Sync {
    /// The inner products at θ.
    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError>;

    /// F(⟨d|h⟩, ⟨h|h⟩) and ∂F/∂θ, where `f` returns [F, ∂F/∂⟨d|h⟩, ∂F/∂⟨h|h⟩].
    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        gradient: &mut [f64; 11],
    ) -> Result<f64, LikelihoodError>;
}

impl BbhLikelihood for BbhRelativeBinning {
    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
        BbhRelativeBinning::inner_products(self, p)
    }

    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        gradient: &mut [f64; 11],
    ) -> Result<f64, LikelihoodError> {
        BbhRelativeBinning::function_and_gradient(self, p, f, gradient)
    }
}

/// One sampled coordinate.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Coordinate {
    /// Index into [`PARAMETER_NAMES`].
    parameter: usize,
    transform: Transform,
}

/// θ(x) and what the gradients need.
struct Forwarded {
    theta: [f64; 11],
    /// Per coordinate: ds/dy, ln|ds/dy| and its y-derivative.
    coordinates: Vec<(f64, f64, f64)>,
    spin: Option<SpinJacobian>,
    sky: Option<SkyJacobian>,
    phase: Option<PhaseJacobian>,
    /// Whether (phase, psi) came from [`CircularPhases`] (whose Jacobian is constant).
    circular: bool,
}

impl Forwarded {
    /// The s-gradient of a function with θ-gradient `g`: θ = phase(circular(sky(spin(s)))),
    /// where the phase map reads the physical chirp mass, mass ratio and spins (so it is pulled
    /// back first) and the circular, spin and sky maps act on disjoint parameters.
    fn pull_back(&self, g: &[f64; 11]) -> [f64; 11] {
        let g = self.phase.map_or(*g, |j| j.pull_back(g));
        let g = if self.circular {
            CircularPhases::pull_back(&g)
        } else {
            g
        };
        let g = self.sky.map_or(g, |j| j.pull_back(&g));
        self.spin.map_or(g, |j| j.pull_back(&g))
    }
}

/// The affine map y = c + A x (A and A⁻¹ dense, row-major).
#[derive(Debug, Clone, PartialEq)]
pub struct Affine {
    /// c: y at x = 0.
    pub center: Vec<f64>,
    /// A (n × n, row-major).
    pub matrix: Vec<f64>,
    /// A⁻¹ (n × n, row-major).
    pub inverse: Vec<f64>,
    /// ln|det A|.
    pub log_det: f64,
}

impl Affine {
    /// y = c + diag(scales) x.
    pub fn diagonal(center: Vec<f64>, scales: &[f64]) -> Self {
        let n = scales.len();
        let mut matrix = vec![0.0; n * n];
        let mut inverse = vec![0.0; n * n];
        for (i, &s) in scales.iter().enumerate() {
            matrix[i * n + i] = s;
            inverse[i * n + i] = 1.0 / s;
        }
        Self {
            center,
            matrix,
            inverse,
            log_det: scales.iter().map(|s| s.abs().ln()).sum(),
        }
    }

    fn dim(&self) -> usize {
        self.center.len()
    }

    /// y = c + A x.
    fn y(&self, x: &[f64]) -> Vec<f64> {
        let n = self.dim();
        (0..n)
            .map(|i| self.center[i] + (0..n).map(|j| self.matrix[i * n + j] * x[j]).sum::<f64>())
            .collect()
    }

    /// x = A⁻¹ (y − c).
    fn x(&self, y: &[f64]) -> Vec<f64> {
        let n = self.dim();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| self.inverse[i * n + j] * (y[j] - self.center[j]))
                    .sum::<f64>()
            })
            .collect()
    }

    /// A^T v into `out`.
    fn pull_back(&self, v: &[f64], out: &mut [f64]) {
        let n = self.dim();
        for (j, o) in out.iter_mut().enumerate() {
            *o = (0..n).map(|i| self.matrix[i * n + j] * v[i]).sum();
        }
    }
}

/// The posterior on the unconstrained, standardised vector x.
pub struct Posterior<L> {
    priors: PriorSet,
    likelihood: L,
    coordinates: Vec<Coordinate>,
    affine: Affine,
    /// Values of the fixed parameters (and placeholders for the sampled ones).
    fixed: [f64; 11],
    /// Aligned spins as (χ_eff, u), if chosen.
    spin: Option<EffectiveSpin>,
    /// Sky and time in a detector frame, if chosen.
    sky: Option<DetectorFrameSky>,
    /// The phase at the signal's peak in place of the reference phase, if chosen.
    phase: Option<PeakPhase>,
    /// (phase + psi, phase − psi) in place of (phase, psi), if chosen.
    circular: Option<CircularPhases>,
    /// The face-on/face-off jump, if chosen.
    mirror: Option<InclinationMirror>,
    /// The jump between the ends of the two-detector sky ring, if chosen.
    ring: Option<SkyRingReflection>,
    /// The likelihood marginalised over luminosity_distance (then not sampled), if chosen.
    distance: Option<DistanceMarginal>,
}

/// A Metropolis–Hastings jump offered to the sampler after every transition.
enum Jump<'a> {
    Inclination(&'a InclinationMirror),
    SkyRing(&'a SkyRingReflection),
}

impl<L: BbhLikelihood> Posterior<L> {
    /// The posterior of `priors` and `likelihood`, with no standardisation (c = 0, s = 1).
    pub fn new(priors: PriorSet, likelihood: L) -> Self {
        let mut fixed = [0.0; 11];
        let mut coordinates = Vec::new();
        for (k, prior) in priors.parameters.iter().enumerate() {
            match prior.distribution {
                Distribution::DeltaFunction { peak } => fixed[k] = peak,
                _ => coordinates.push(Coordinate {
                    parameter: k,
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
            spin: None,
            sky: None,
            phase: None,
            circular: None,
            mirror: None,
            ring: None,
            distance: None,
        }
    }

    /// Marginalises the likelihood over luminosity_distance with its prior (see
    /// [`DistanceMarginal`]), which is then no longer sampled: [`Self::draw_distance`] gives each
    /// draw its distance. Returns false (and changes nothing) unless luminosity_distance is
    /// sampled with a bounded, positive support. Call before [`Self::standardize`].
    pub fn use_distance_marginalization(&mut self) -> bool {
        let Some(i) = self.coordinate_of(LUMINOSITY_DISTANCE) else {
            return false;
        };
        let Some(marginal) =
            DistanceMarginal::new(&self.priors.parameters[LUMINOSITY_DISTANCE].distribution)
        else {
            return false;
        };
        self.coordinates.remove(i);
        let n = self.coordinates.len();
        self.affine = Affine::diagonal(vec![0.0; n], &vec![1.0; n]);
        self.fixed[LUMINOSITY_DISTANCE] = marginal.reference_distance();
        self.distance = Some(marginal);
        true
    }

    /// Whether the likelihood is marginalised over luminosity_distance.
    pub fn marginalizes_distance(&self) -> bool {
        self.distance.is_some()
    }

    /// With distance marginalisation, replaces theta's luminosity_distance by a draw from its
    /// conditional posterior given the other parameters; otherwise leaves theta as it is.
    pub fn draw_distance<R: rand::Rng + ?Sized>(
        &self,
        theta: &mut [f64; 11],
        rng: &mut R,
    ) -> Result<(), LikelihoodError> {
        let Some(marginal) = &self.distance else {
            return Ok(());
        };
        theta[LUMINOSITY_DISTANCE] = marginal.reference_distance();
        let ip = self
            .likelihood
            .inner_products(&BbhParameters::from_array(*theta))?;
        theta[LUMINOSITY_DISTANCE] = marginal.draw(ip, rng).ok_or_else(|| {
            LikelihoodError::InvalidInput(format!("no distance posterior at {theta:?}"))
        })?;
        Ok(())
    }

    /// Samples mass_ratio through the symmetric mass ratio η (see [`Transform`]). Returns false
    /// (and changes nothing) unless mass_ratio is sampled, non-periodic, within (0, 1].
    pub fn use_symmetric_mass_ratio(&mut self) -> bool {
        let prior = &self.priors.parameters[MASS_RATIO];
        let (lower, upper) = prior.distribution.support();
        let transform = Transform::symmetric_mass_ratio(lower, upper);
        match (
            self.coordinates
                .iter_mut()
                .find(|c| c.parameter == MASS_RATIO),
            transform,
        ) {
            (Some(c), Some(t)) if !prior.is_periodic() => {
                c.transform = t;
                true
            }
            _ => false,
        }
    }

    /// Samples (chi_1, chi_2) as (χ_eff, u) (see [`EffectiveSpin`]). Returns false (and
    /// changes nothing) unless both spins are sampled over the same bounded, non-periodic
    /// support.
    pub fn use_effective_spin(&mut self) -> bool {
        let (Some(first), Some(second)) = (self.coordinate_of(CHI_1), self.coordinate_of(CHI_2))
        else {
            return false;
        };
        let support = |k: usize| {
            let prior = &self.priors.parameters[k];
            (!prior.is_periodic()).then(|| prior.distribution.support())
        };
        let Some(spin) = support(CHI_1)
            .zip(support(CHI_2))
            .and_then(|(a, b)| EffectiveSpin::new(a, b))
        else {
            return false;
        };
        let [effective, fraction] = spin.transforms();
        self.coordinates[first].transform = effective;
        self.coordinates[second].transform = fraction;
        self.spin = Some(spin);
        true
    }

    /// Samples (geocent_time, ra, dec) as (arrival time at the first detector, zenith, azimuth)
    /// in `sky`'s frame. Returns false (and changes nothing) unless all three are sampled.
    pub fn use_detector_frame(&mut self, sky: DetectorFrameSky) -> bool {
        let position = |k: usize| self.coordinate_of(k);
        let (Some(t), Some(ra), Some(dec)) = (position(GEOCENT_TIME), position(RA), position(DEC))
        else {
            return false;
        };
        let [time, zenith, azimuth] = sky.transforms(self.coordinates[t].transform);
        self.coordinates[t].transform = time;
        self.coordinates[ra].transform = zenith;
        self.coordinates[dec].transform = azimuth;
        self.sky = Some(sky);
        true
    }

    /// Samples phase as the phase at the signal's peak (see [`PeakPhase`]) with waveforms of
    /// `model`. Returns false (and changes nothing) unless phase is sampled, periodic, over
    /// one full turn.
    pub fn use_peak_phase(&mut self, model: SignalModel) -> bool {
        let prior = &self.priors.parameters[PHASE];
        let sampled = self.coordinate_of(PHASE).is_some();
        match PeakPhase::new(model, prior.distribution.support()) {
            Some(map) if sampled && prior.is_periodic() => {
                self.phase = Some(map);
                true
            }
            _ => false,
        }
    }

    /// Samples (phase, psi) as (phase + psi, phase − psi), each modulo π (see
    /// [`CircularPhases`]). Returns false (and changes nothing) unless both are sampled with
    /// uniform periodic priors over one period (2π and π): the four (phase, psi) with the same
    /// coordinates then have the same posterior.
    pub fn use_circular_phases(&mut self) -> bool {
        let (Some(phase), Some(psi)) = (self.coordinate_of(PHASE), self.coordinate_of(PSI)) else {
            return false;
        };
        let uniform_periodic = |k: usize| {
            let prior = &self.priors.parameters[k];
            let uniform = matches!(prior.distribution, Distribution::Uniform { .. });
            (uniform && prior.is_periodic()).then(|| prior.distribution.support())
        };
        let Some(map) = uniform_periodic(PHASE)
            .zip(uniform_periodic(PSI))
            .and_then(|(phase, psi)| CircularPhases::new(phase, psi))
        else {
            return false;
        };
        let half_turn = Transform::Periodic {
            lower: 0.0,
            upper: std::f64::consts::PI,
        };
        self.coordinates[phase].transform = half_turn;
        self.coordinates[psi].transform = half_turn;
        self.circular = Some(map);
        true
    }

    /// θ, or with [`Posterior::use_circular_phases`] the `k`-th (k mod 4) of the four
    /// parameter vectors that the sampler does not tell apart (same posterior, same x).
    pub fn equivalent_parameters(&self, theta: &[f64; 11], k: usize) -> [f64; 11] {
        self.circular.map_or(*theta, |map| map.equivalent(theta, k))
    }

    /// Offers the sampler the jump between the ends of the sky ring (see [`SkyRingReflection`])
    /// after every transition, after the inclination mirror. Returns false (and changes
    /// nothing) unless the sky, the time, theta_jn and the circular phases are sampled (the map
    /// is an involution only up to the (φ, ψ) → (φ + π/2, ψ + π/2) symmetry, which φ ± ψ mod π
    /// do not see).
    pub fn use_sky_ring_reflection(&mut self, ring: SkyRingReflection) -> bool {
        let sampled = |k: usize| self.coordinate_of(k).is_some();
        let needed = [RA, DEC, GEOCENT_TIME, THETA_JN];
        if self.circular.is_some() && needed.into_iter().all(sampled) {
            self.ring = Some(ring);
            true
        } else {
            false
        }
    }

    /// The jumps offered to the sampler, in order: the inclination mirror, the sky ring.
    fn jumps(&self) -> impl Iterator<Item = Jump<'_>> {
        let mirror = self.mirror.as_ref().map(Jump::Inclination);
        let ring = self.ring.as_ref().map(Jump::SkyRing);
        [mirror, ring].into_iter().flatten()
    }

    /// Offers the sampler the face-on/face-off jump of `mirror` (see [`InclinationMirror`])
    /// after every transition. Returns false (and changes nothing) unless theta_jn is sampled
    /// and psi is sampled with a periodic prior of period π (the map is an involution only
    /// modulo π in ψ).
    pub fn use_inclination_mirror(&mut self, mirror: InclinationMirror) -> bool {
        let sampled = |k: usize| self.coordinate_of(k).is_some();
        let psi = &self.priors.parameters[PSI];
        let period_pi =
            psi.is_periodic() && spans_period(psi.distribution.support(), std::f64::consts::PI);
        if sampled(THETA_JN) && sampled(PSI) && period_pi {
            self.mirror = Some(mirror);
            true
        } else {
            false
        }
    }

    /// The index in x of `parameter`'s coordinate, if it is sampled.
    fn coordinate_of(&self, parameter: usize) -> Option<usize> {
        self.coordinates
            .iter()
            .position(|c| c.parameter == parameter)
    }

    /// The likelihood.
    pub fn likelihood(&self) -> &L {
        &self.likelihood
    }

    /// Names of the sampled parameters, in the order of x.
    pub fn sampled_names(&self) -> Vec<&'static str> {
        self.coordinates
            .iter()
            .map(|c| PARAMETER_NAMES[c.parameter])
            .collect()
    }

    /// The unconstrained image y of `theta` (the centre for [`Posterior::standardize`]); NaN
    /// in the phase where the waveform cannot be set up.
    pub fn to_y(&self, theta: &[f64; 11]) -> Vec<f64> {
        let s = match &self.phase {
            Some(map) => map.sampled(theta).unwrap_or_else(|_| {
                let mut s = *theta;
                s[PHASE] = f64::NAN;
                s
            }),
            None => *theta,
        };
        let s = self.circular.map_or(s, |map| map.sampled(&s));
        let s = self.spin.map_or(s, |spin| spin.sampled(&s));
        let s = self.sky.as_ref().map_or(s, |sky| sky.sampled(&s));
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
                    theta[c.parameter] =
                        self.priors.parameters[c.parameter].distribution.sample(rng);
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

    /// Sets the affine map y = c + A x.
    pub fn standardize(&mut self, affine: Affine) {
        self.affine = affine;
    }

    /// x of a parameter vector (inside the prior support), periodic coordinates within half a
    /// period of the centre.
    pub fn to_x(&self, theta: &[f64; 11]) -> Vec<f64> {
        let mut x = self.affine.x(&self.to_y(theta));
        self.wrap_periodic(&mut x);
        x
    }

    /// The 11 parameters of x (periodic ones wrapped, geocent_time relative to the epoch).
    pub fn parameters(&self, x: &[f64]) -> [f64; 11] {
        self.forward(x).theta
    }

    /// ln π(θ) of the physical parameters (Σ of the priors' log densities, fixed ones
    /// contributing 0, a marginalised distance its prior), −∞ outside a prior's support or a
    /// constraint.
    pub fn log_prior(&self, theta: &[f64; 11]) -> f64 {
        if !self.constraints_hold(theta) {
            return f64::NEG_INFINITY;
        }
        let marginalized = self.distance.as_ref().map(|_| LUMINOSITY_DISTANCE);
        self.coordinates
            .iter()
            .map(|c| c.parameter)
            .chain(marginalized)
            .map(|k| self.priors.parameters[k].distribution.ln_pdf(theta[k]))
            .sum()
    }

    fn constraints_hold(&self, theta: &[f64; 11]) -> bool {
        if self.priors.constraints.is_empty() {
            return true;
        }
        let (m1, m2) = component_masses(theta[0], theta[1]);
        self.priors
            .constraints
            .iter()
            .all(|c| match c.name.as_str() {
                "mass_1" => c.allows(m1),
                "mass_2" => c.allows(m2),
                _ => false,
            })
    }

    /// θ(x), and per coordinate ds/dy, ln|ds/dy| and its y-derivative, and the sky Jacobian.
    fn forward(&self, x: &[f64]) -> Forwarded {
        let mut s = self.fixed;
        let mut coordinates = Vec::with_capacity(x.len());
        for (c, yi) in self.coordinates.iter().zip(self.affine.y(x)) {
            let f = c.transform.forward(yi);
            s[c.parameter] = f.value;
            coordinates.push((f.derivative, f.log_jacobian, f.d_log_jacobian));
        }
        let (s, spin) = match &self.spin {
            Some(spin) => {
                let (s, jacobian) = spin.theta(&s);
                (s, Some(jacobian))
            }
            None => (s, None),
        };
        let (s, sky) = match &self.sky {
            Some(frame) => {
                let (s, jacobian) = frame.theta(&s);
                (s, Some(jacobian))
            }
            None => (s, None),
        };
        let s = self.circular.map_or(s, |map| map.theta(&s));
        let (theta, phase) = match &self.phase {
            Some(map) => {
                let (theta, jacobian) = map.theta(&s);
                (theta, Some(jacobian))
            }
            None => (s, None),
        };
        Forwarded {
            theta,
            coordinates,
            spin,
            sky,
            phase,
            circular: self.circular.is_some(),
        }
    }

    /// ln π with its x-gradient, at the point `forwarded` (see [`PriorLikelihood`]).
    fn prior_term(&self, forwarded: &Forwarded, grad: &mut [f64]) -> f64 {
        let theta = &forwarded.theta;
        grad.fill(0.0);
        if !self.constraints_hold(theta) {
            return f64::NEG_INFINITY;
        }
        let mut total = self.affine.log_det;
        let mut d_theta = [0.0; 11];
        for c in &self.coordinates {
            let dist = &self.priors.parameters[c.parameter].distribution;
            let t = theta[c.parameter];
            total += dist.ln_pdf(t);
            d_theta[c.parameter] = dist.d_ln_pdf(t);
        }
        let mut d_s = forwarded.pull_back(&d_theta);
        if let Some(spin) = &forwarded.spin {
            total += spin.log_det;
            d_s[MASS_RATIO] += spin.d_log_det[0];
            d_s[CHI_1] += spin.d_log_det[1];
        }
        if forwarded.circular {
            total += CircularPhases::LOG_DET;
        }
        if let Some(sky) = &forwarded.sky {
            total += sky.log_det;
            d_s[RA] += sky.d_log_det[0];
            d_s[DEC] += sky.d_log_det[1];
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
        self.affine.pull_back(&v, grad);
        if total.is_finite() && grad.iter().all(|g| g.is_finite()) {
            total
        } else {
            grad.fill(0.0);
            f64::NEG_INFINITY
        }
    }

    /// ln L with its x-gradient, at the point `forwarded`.
    fn likelihood_term(&self, forwarded: &Forwarded, grad: &mut [f64]) -> f64 {
        let mut g = [0.0; 11];
        let value = self.likelihood_at(&forwarded.theta, &mut g);
        let d_s = forwarded.pull_back(&g);
        let v: Vec<f64> = self
            .coordinates
            .iter()
            .zip(&forwarded.coordinates)
            .map(|(c, &(ds, _, _))| d_s[c.parameter] * ds)
            .collect();
        self.affine.pull_back(&v, grad);
        value
    }

    /// Moves the periodic coordinates of y(x) to their copies within half a period of the
    /// centre c (the posterior mode), where the density is the same (see
    /// [`LogDensity::canonicalize`]).
    fn wrap_periodic(&self, x: &mut [f64]) {
        let mut y = self.affine.y(x);
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
            x.copy_from_slice(&self.affine.x(&y));
        }
    }

    /// Jump `which`'s image of x and ln|det ∂x'/∂x| (see [`LogDensity::mirror`]): the map's
    /// ln|det ∂θ'/∂θ| plus that of the coordinate maps, |det ∂θ/∂x| at x over that at x', each
    /// the prior term's Jacobian part.
    fn mirror_image(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        let log_jacobian = |forwarded: &Forwarded| {
            let mut grad = vec![0.0; forwarded.coordinates.len()];
            self.prior_term(forwarded, &mut grad) - self.log_prior(&forwarded.theta)
        };
        let forwarded = self.forward(x);
        let (theta_image, log_det_theta) = match self.jumps().nth(which)? {
            Jump::Inclination(mirror) => (mirror.image(&forwarded.theta), 0.0),
            Jump::SkyRing(ring) => {
                let distance_sampled = self.coordinate_of(LUMINOSITY_DISTANCE).is_some();
                ring.image(&forwarded.theta, distance_sampled)?
            }
        };
        let x_image = self.to_x(&theta_image);
        let log_det =
            log_det_theta + log_jacobian(&forwarded) - log_jacobian(&self.forward(&x_image));
        if !log_det.is_finite() {
            // The image lies outside the prior's support (or the waveform's domain).
            return None;
        }
        image.copy_from_slice(&x_image);
        Some(log_det)
    }

    /// ln L (or with distance marginalisation ln L_D) and its θ-gradient at θ (−∞ and zeros
    /// on failure).
    fn likelihood_at(&self, theta: &[f64; 11], grad_theta: &mut [f64; 11]) -> f64 {
        let p = BbhParameters::from_array(*theta);
        let result = match &self.distance {
            Some(marginal) => self.likelihood.function_and_gradient(
                &p,
                &|ip| marginal.log_marginal(ip),
                grad_theta,
            ),
            None => self.likelihood.function_and_gradient(
                &p,
                &|ip| ip.log_likelihood_ratio_with_partials(),
                grad_theta,
            ),
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

impl<L: BbhLikelihood> PriorLikelihood for Posterior<L> {
    fn dim(&self) -> usize {
        self.coordinates.len()
    }

    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.prior_term(&self.forward(x), grad)
    }

    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.likelihood_term(&self.forward(x), grad)
    }

    fn canonicalize(&self, x: &mut [f64]) {
        self.wrap_periodic(x);
    }

    fn mirror_count(&self) -> usize {
        self.jumps().count()
    }

    fn mirror(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        self.mirror_image(which, x, image)
    }
}

impl<L: BbhLikelihood> LogDensity for Posterior<L> {
    fn dim(&self) -> usize {
        self.coordinates.len()
    }

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

    fn canonicalize(&self, x: &mut [f64]) {
        self.wrap_periodic(x);
    }

    fn mirror_count(&self) -> usize {
        self.jumps().count()
    }

    fn mirror(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        self.mirror_image(which, x, image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prior::{PriorFile, DEFAULT_PRIOR};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use tdpe_detector::Detector;

    /// A smooth mock with a template ∝ 1/D_L: with u = μ_D/D_L and
    /// b(θ) = −½ Σ_{k≠D} w_k (θ_k − μ_k)² + 0.3 sin(θ_7) cos(θ_6), ⟨d|h⟩ = u (ρ² + b) and
    /// ⟨h|h⟩ = u² ρ² (ρ² = [`MOCK_SNR2`]), so ln L = u(ρ² + b) − ½u²ρ²; failing for chi_1 > 0.9.
    struct Mock {
        mu: [f64; 11],
        w: [f64; 11],
    }

    const MOCK_SNR2: f64 = 100.0;

    impl Mock {
        /// The inner products and their θ-gradients.
        fn parts(
            &self,
            p: &BbhParameters,
        ) -> Result<(InnerProducts, [f64; 11], [f64; 11]), LikelihoodError> {
            let t = p.to_array();
            if t[2] > 0.9 {
                return Err(LikelihoodError::InvalidInput("chi_1 too large".into()));
            }
            let mut b = 0.3 * t[7].sin() * t[6].cos();
            let mut db = [0.0; 11];
            for k in (0..11).filter(|&k| k != LUMINOSITY_DISTANCE) {
                b -= 0.5 * self.w[k] * (t[k] - self.mu[k]).powi(2);
                db[k] = -self.w[k] * (t[k] - self.mu[k]);
            }
            db[7] += 0.3 * t[7].cos() * t[6].cos();
            db[6] -= 0.3 * t[7].sin() * t[6].sin();
            let distance = t[LUMINOSITY_DISTANCE];
            let u = self.mu[LUMINOSITY_DISTANCE] / distance;
            let ip = InnerProducts {
                d_h: u * (MOCK_SNR2 + b),
                h_h: u * u * MOCK_SNR2,
            };
            let mut d_dh = db.map(|g| u * g);
            d_dh[LUMINOSITY_DISTANCE] = -ip.d_h / distance;
            let mut d_hh = [0.0; 11];
            d_hh[LUMINOSITY_DISTANCE] = -2.0 * ip.h_h / distance;
            Ok((ip, d_dh, d_hh))
        }
    }

    impl BbhLikelihood for Mock {
        fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
            Ok(self.parts(p)?.0)
        }

        fn function_and_gradient(
            &self,
            p: &BbhParameters,
            f: &dyn Fn(InnerProducts) -> [f64; 3],
            g: &mut [f64; 11],
        ) -> Result<f64, LikelihoodError> {
            let (ip, d_dh, d_hh) = self.parts(p)?;
            let [value, f_d, f_h] = f(ip);
            for k in 0..11 {
                g[k] = f_d * d_dh[k] + f_h * d_hh[k];
            }
            Ok(value)
        }
    }

    fn posterior(prior_text: &str) -> Posterior<Mock> {
        let file = PriorFile::parse(prior_text, "test").unwrap();
        let priors = PriorSet::resolve(file, 1126259462.4, 1126259462.4).unwrap();
        let mu = [30.0, 0.8, 0.1, -0.1, 1000.0, 2.0, 0.5, 1.0, 0.01, 2.0, -1.0];
        let w = [0.5, 10.0, 4.0, 4.0, 1e-5, 1.0, 1.0, 1.0, 1e4, 1.0, 1.0];
        Posterior::new(priors, Mock { mu, w })
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let mut post = posterior(DEFAULT_PRIOR);
        assert_eq!(LogDensity::dim(&post), 11);
        let theta = [
            28.0, 0.7, 0.2, -0.3, 1200.0, 2.6, 0.6, 1.3, 0.02, 1.95, -1.27,
        ];
        // A full (non-symmetric) A with a known inverse: A = D(I + εN), N strictly lower.
        let scales = [0.1, 0.2, 0.3, 0.3, 0.1, 0.2, 0.5, 0.5, 0.01, 0.3, 0.2];
        let mut affine = Affine::diagonal(post.to_y(&theta), &scales);
        affine.matrix[3 * 11 + 2] = 0.05;
        affine.inverse[3 * 11 + 2] = -0.05 / (0.3 * 0.3);
        post.standardize(affine);
        let x0 = post.to_x(&theta);
        assert!(x0.iter().all(|v| v.abs() < 1e-9), "{x0:?}");
        let back = post.parameters(&x0);
        for k in 0..11 {
            assert!(
                (back[k] - theta[k]).abs() < 1e-9 * (1.0 + theta[k].abs()),
                "{k}"
            );
        }
        for x in [
            x0.clone(),
            vec![0.3, -0.5, 0.2, 0.1, -0.7, 0.4, 9.0, -8.0, 0.5, 12.0, 0.3],
        ] {
            assert_gradient_matches(&post, &x);
        }
    }

    /// ∇ ln p against central differences at `x`.
    fn assert_gradient_matches(post: &Posterior<Mock>, x: &[f64]) {
        let n = x.len();
        let mut g = vec![0.0; n];
        let f = post.log_density_and_gradient(x, &mut g);
        assert!(f.is_finite());
        for i in 0..n {
            let h = 1e-6;
            let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
            xp[i] += h;
            xm[i] -= h;
            let mut scratch = vec![0.0; n];
            let fd = (post.log_density_and_gradient(&xp, &mut scratch)
                - post.log_density_and_gradient(&xm, &mut scratch))
                / (2.0 * h);
            assert!(
                (fd - g[i]).abs() < 1e-5 * (1.0 + g[i].abs()),
                "coordinate {i}: fd {fd} vs {}",
                g[i]
            );
        }
    }

    /// A parameter vector inside the default priors.
    const THETA: [f64; 11] = [
        28.0, 0.7, 0.2, -0.3, 1200.0, 2.6, 0.6, 1.3, 0.02, 1.95, -1.27,
    ];

    /// θ → x → θ at [`THETA`], and the gradient there and at a far point.
    fn assert_round_trip_and_gradients(post: &Posterior<Mock>) {
        let x0 = post.to_x(&THETA);
        let back = post.parameters(&x0);
        for k in 0..11 {
            assert!(
                (back[k] - THETA[k]).abs() < 1e-9 * (1.0 + THETA[k].abs()),
                "{k}"
            );
        }
        assert_gradient_matches(post, &x0);
        assert_gradient_matches(
            post,
            &[0.3, -0.5, 0.2, 0.1, -0.7, 0.4, 9.0, -8.0, 0.5, 1.2, 3.3],
        );
    }

    /// In the H1–L1 frame: θ → x → θ round trip, the gradient, and the prior measure (the
    /// isotropic ra/dec prior becomes sin(zenith) × uniform azimuth, so ln π + ln|det| in s
    /// equals ln sin(zenith) up to a constant).
    #[test]
    fn detector_frame_sky() {
        let mut post = posterior(DEFAULT_PRIOR);
        let h1 = Detector::from_name("H1").unwrap();
        let l1 = Detector::from_name("L1").unwrap();
        assert!(post.use_detector_frame(DetectorFrameSky::new(&h1, &l1, 0.8).unwrap()));
        assert_round_trip_and_gradients(&post);
        let sky = post.sky.clone().unwrap();
        let mut offsets = Vec::new();
        for (zenith, azimuth) in [(0.3, 0.2), (1.0, 2.0), (2.2, 4.0), (2.9, 5.9)] {
            let mut s = THETA;
            (s[GEOCENT_TIME], s[RA], s[DEC]) = (0.01, zenith, azimuth);
            let (t, jacobian) = sky.theta(&s);
            let ln_prior: f64 = [RA, DEC]
                .iter()
                .map(|&k| post.priors.parameters[k].distribution.ln_pdf(t[k]))
                .sum();
            offsets.push(ln_prior + jacobian.log_det - f64::ln(zenith.sin()));
        }
        assert!(
            offsets.iter().all(|o| (o - offsets[0]).abs() < 1e-12),
            "{offsets:?}"
        );
    }

    /// The posterior of a prior file sampled in η, (χ_eff, u) and the H1–L1 frame.
    fn posterior_in_effective_coordinates(prior_text: &str) -> Posterior<Mock> {
        let mut post = posterior(prior_text);
        assert!(post.use_effective_spin());
        assert!(post.use_symmetric_mass_ratio());
        let h1 = Detector::from_name("H1").unwrap();
        let l1 = Detector::from_name("L1").unwrap();
        assert!(post.use_detector_frame(DetectorFrameSky::new(&h1, &l1, 0.8).unwrap()));
        post
    }

    /// With η, (χ_eff, u) and the H1–L1 frame together: round trip and gradient.
    #[test]
    fn effective_spin_coordinates() {
        assert_round_trip_and_gradients(&posterior_in_effective_coordinates(DEFAULT_PRIOR));
    }

    /// (phase + psi, phase − psi): round trip, gradient, the density's normalisation, and when
    /// the map is not offered.
    #[test]
    fn circular_phase_coordinates() {
        let plain = posterior_in_effective_coordinates(DEFAULT_PRIOR);
        let mut post = posterior_in_effective_coordinates(DEFAULT_PRIOR);
        assert!(post.use_circular_phases());
        assert_round_trip_and_gradients(&post);
        // Uniform (φ, ψ) over [0, 2π) × [0, π) becomes the uniform density 1/π² on the torus
        // [0, π)² of (α, δ).
        let mut g = vec![0.0; 11];
        let with = PriorLikelihood::log_prior_and_gradient(&post, &post.to_x(&THETA), &mut g);
        let without = PriorLikelihood::log_prior_and_gradient(&plain, &plain.to_x(&THETA), &mut g);
        let uniform_phase_psi = -(2.0 * std::f64::consts::PI.powi(2)).ln();
        let torus = with - (without - uniform_phase_psi);
        assert!(
            (torus + 2.0 * std::f64::consts::PI.ln()).abs() < 1e-12,
            "{torus}"
        );
        // Each of the four equivalent parameter vectors has the same x.
        let x = post.to_x(&THETA);
        for k in 1..4 {
            let other = post.equivalent_parameters(&THETA, k);
            assert!((other[PHASE] - THETA[PHASE]).abs() > 0.1);
            let x_other = post.to_x(&other);
            assert!(x.iter().zip(&x_other).all(|(a, b)| (a - b).abs() < 1e-9));
        }
        for (from, to) in [
            (
                "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi, boundary='periodic')",
                "phase = TruncatedGaussian(name='phase', mu=3, sigma=1, minimum=0, maximum=2 * np.pi, boundary='periodic')",
            ),
            (
                "psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')",
                "psi = Uniform(name='psi', minimum=0, maximum=2 * np.pi, boundary='periodic')",
            ),
            ("psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')", "psi = 0.6"),
        ] {
            let text = DEFAULT_PRIOR.replace(from, to);
            assert_ne!(text, DEFAULT_PRIOR, "the default prior's line changed: {from}");
            let mut post = posterior(&text);
            assert!(!post.use_circular_phases(), "{to}");
            assert_eq!(post.equivalent_parameters(&THETA, 1), THETA);
        }
    }

    /// The distance-marginalised log density at x equals the full posterior's integrated over
    /// the distance coordinate, and its gradient matches finite differences.
    #[test]
    fn distance_marginalization_integrates_the_full_posterior() {
        let full = posterior(DEFAULT_PRIOR);
        let mut marginal = posterior(DEFAULT_PRIOR);
        assert!(marginal.use_distance_marginalization());
        assert!(!marginal.use_distance_marginalization());
        assert_eq!(LogDensity::dim(&marginal), 10);
        assert!(!marginal.sampled_names().contains(&"luminosity_distance"));
        let i_distance = full.coordinate_of(LUMINOSITY_DISTANCE).unwrap();
        for theta in [
            THETA,
            [31.0, 0.6, -0.2, 0.4, 700.0, 1.0, 2.0, 4.0, -0.03, 0.5, 0.3],
        ] {
            let x_marginal = marginal.to_x(&theta);
            assert_gradient_matches(&marginal, &x_marginal);
            let mut g = vec![0.0; 10];
            let value = marginal.log_density_and_gradient(&x_marginal, &mut g);
            // ln ∫ p(x, x_D) dx_D over the distance coordinate (a logit of the bounded D) by
            // the trapezoid rule.
            let mut x_full = full.to_x(&theta);
            let mut g_full = vec![0.0; 11];
            let (n, half_width) = (40_000, 40.0);
            let step = 2.0 * half_width / n as f64;
            let logs: Vec<f64> = (0..=n)
                .map(|k| {
                    x_full[i_distance] = -half_width + step * k as f64;
                    full.log_density_and_gradient(&x_full, &mut g_full)
                })
                .collect();
            let peak = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let integral = peak + (step * logs.iter().map(|l| (l - peak).exp()).sum::<f64>()).ln();
            assert!((value - integral).abs() < 1e-6, "{value} vs {integral}");
            // The reported prior includes the distance's; a draw lies in its support.
            let mut drawn = theta;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            marginal.draw_distance(&mut drawn, &mut rng).unwrap();
            assert!((100.0..=5000.0).contains(&drawn[LUMINOSITY_DISTANCE]));
            assert!((marginal.log_prior(&drawn) - full.log_prior(&drawn)).abs() < 1e-12);
        }
    }

    #[test]
    fn fixed_parameters_constraints_and_failures() {
        let text = DEFAULT_PRIOR.replace(
            "chi_2 = Uniform(name='chi_2', minimum=-0.99, maximum=0.99)",
            "chi_2 = -0.2",
        );
        let post = posterior(&text);
        assert_eq!(LogDensity::dim(&post), 10);
        assert!(!post.sampled_names().contains(&"chi_2"));
        let x = vec![0.0; 10];
        assert_eq!(post.parameters(&x)[3], -0.2);
        // chi_1 = 0.99·tanh(y/2) → above 0.9 the mock fails: −∞, not a panic.
        let mut x = vec![0.0; 10];
        x[2] = 5.0;
        let mut g = vec![0.0; 10];
        assert_eq!(post.log_density_and_gradient(&x, &mut g), f64::NEG_INFINITY);
        // M_c = 34 M☉: m1 ≈ 73.8 at q = 0.3 but ≈ 80.8 > 80 at q = 0.255 (rejected).
        let theta = [34.0, 0.3, 0.0, -0.2, 1000.0, 2.0, 0.5, 1.0, 0.0, 2.0, -1.0];
        assert!(post.log_prior(&theta).is_finite());
        let theta = [
            34.0, 0.255, 0.0, -0.2, 1000.0, 2.0, 0.5, 1.0, 0.0, 2.0, -1.0,
        ];
        assert_eq!(post.log_prior(&theta), f64::NEG_INFINITY);
    }

    #[test]
    fn peak_phase_coordinate() {
        let mut post = posterior_in_effective_coordinates(DEFAULT_PRIOR);
        let epoch = tdpe_detector::GpsTime::from_f64(1126259462.4).unwrap();
        let detectors = ["H1", "L1"].map(|name| Detector::from_name(name).unwrap());
        let model = SignalModel::new(detectors.to_vec(), epoch, 20.0, 1.0 / 2048.0).unwrap();
        assert!(post.use_peak_phase(model));
        // The mock's ln L depends on the phase, so the gradient test covers ∂θ_phase/∂λ.
        assert_round_trip_and_gradients(&post);
        // A phase prior over less than a turn keeps bilby's phase.
        let half_turn = DEFAULT_PRIOR.replace(
            "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi, boundary='periodic')",
            "phase = Uniform(name='phase', minimum=0, maximum=np.pi, boundary='periodic')",
        );
        assert_ne!(
            half_turn, DEFAULT_PRIOR,
            "the default prior's phase line changed"
        );
        let mut post = posterior(&half_turn);
        let model = SignalModel::new(vec![], epoch, 20.0, 1.0 / 2048.0).unwrap();
        assert!(!post.use_peak_phase(model));
    }

    #[test]
    fn periodic_coordinates_wrap() {
        let post = posterior(DEFAULT_PRIOR);
        let names = post.sampled_names();
        let phase = names.iter().position(|n| *n == "phase").unwrap();
        assert!(post.priors.parameters[7].is_periodic());
        let mut x = vec![0.0; 11];
        x[phase] = 1.0 + 4.0 * std::f64::consts::PI;
        let theta = post.parameters(&x);
        assert!((theta[7] - 1.0).abs() < 1e-12);
        let mut g1 = vec![0.0; 11];
        let mut g2 = vec![0.0; 11];
        let a = post.log_density_and_gradient(&x, &mut g1);
        x[phase] = 1.0;
        let b = post.log_density_and_gradient(&x, &mut g2);
        assert!((a - b).abs() < 1e-9);
        assert!((g1[phase] - g2[phase]).abs() < 1e-9);
        // Canonicalised: the copy within half a period of the centre (0 here), same θ.
        x[phase] = 1.0 + 4.0 * std::f64::consts::PI;
        LogDensity::canonicalize(&post, &mut x);
        assert!((x[phase] - 1.0).abs() < 1e-12, "{}", x[phase]);
        x[phase] = -2.0 * std::f64::consts::PI - 3.5;
        let before = post.parameters(&x);
        LogDensity::canonicalize(&post, &mut x);
        assert!(x[phase].abs() <= std::f64::consts::PI, "{}", x[phase]);
        assert!((post.parameters(&x)[7] - before[7]).abs() < 1e-12);
    }

    /// ln|det M| of a square row-major matrix (Gaussian elimination, partial pivoting).
    fn log_abs_det(mut m: Vec<f64>, n: usize) -> f64 {
        let mut log_det = 0.0;
        for col in 0..n {
            let pivot = (col..n)
                .max_by(|&a, &b| m[a * n + col].abs().total_cmp(&m[b * n + col].abs()))
                .unwrap();
            for k in 0..n {
                m.swap(col * n + k, pivot * n + k);
            }
            let d = m[col * n + col];
            log_det += d.abs().ln();
            for row in col + 1..n {
                let f = m[row * n + col] / d;
                for k in col..n {
                    m[row * n + k] -= f * m[col * n + k];
                }
            }
        }
        log_det
    }

    /// The inclination mirror in the sampler's coordinates (η, (χ_eff, u), the H1–L1 frame, a
    /// standardisation): an involution whose ln|det ∂x'/∂x| matches finite differences; not
    /// offered when ψ's prior does not have period π.
    #[test]
    fn inclination_mirror_in_sampler_coordinates() {
        // θ_jn's bounds not symmetric about π/2, so that its logit's Jacobian changes.
        let asymmetric = DEFAULT_PRIOR.replace(
            "theta_jn = Sine(name='theta_jn')",
            "theta_jn = Sine(name='theta_jn', minimum=0.05, maximum=3)",
        );
        assert_ne!(
            asymmetric, DEFAULT_PRIOR,
            "the default prior's theta_jn line changed"
        );
        let h1 = Detector::from_name("H1").unwrap();
        for circular in [false, true] {
            let mut post = posterior_in_effective_coordinates(&asymmetric);
            assert!(!circular || post.use_circular_phases());
            let center = post.to_y(&THETA);
            let scales = [0.1, 0.2, 0.3, 0.3, 0.1, 0.2, 0.5, 0.5, 0.01, 0.3, 0.2];
            post.standardize(Affine::diagonal(center, &scales));
            assert!(
                post.use_inclination_mirror(InclinationMirror::new(vec![(h1.clone(), 1.0)], 0.8))
            );
            assert_mirror_is_an_involution_with_its_determinant(&post, 0, |theta, image| {
                (image[THETA_JN] - (std::f64::consts::PI - theta[THETA_JN])).abs() < 1e-12
            });
        }

        let psi_two_pi = DEFAULT_PRIOR.replace(
            "psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')",
            "psi = Uniform(name='psi', minimum=0, maximum=2 * np.pi, boundary='periodic')",
        );
        assert_ne!(
            psi_two_pi, DEFAULT_PRIOR,
            "the default prior's psi line changed"
        );
        let mut post = posterior(&psi_two_pi);
        assert!(!post.use_inclination_mirror(InclinationMirror::new(vec![(h1, 1.0)], 0.8)));
        let x = vec![0.1; 11];
        assert_eq!(LogDensity::mirror(&post, 0, &x, &mut [0.0; 11]), None);
    }

    /// The sky-ring reflection in the sampler's coordinates (as the mirror's test, with the
    /// circular phases), with the distance sampled and marginalised: an involution whose
    /// ln|det ∂x'/∂x| matches finite differences; offered only with the circular phases.
    #[test]
    fn sky_ring_reflection_in_sampler_coordinates() {
        let (h1, l1) = (
            Detector::from_name("H1").unwrap(),
            Detector::from_name("L1").unwrap(),
        );
        let ring = || SkyRingReflection::new(&[h1.clone(), l1.clone()], 0.8).unwrap();
        for marginalised in [false, true] {
            let mut post = posterior_in_effective_coordinates(DEFAULT_PRIOR);
            if marginalised {
                assert!(post.use_distance_marginalization());
            }
            assert!(
                !post.use_sky_ring_reflection(ring()),
                "needs the circular phases"
            );
            assert!(post.use_circular_phases());
            let center = post.to_y(&THETA);
            let scales = vec![0.2; center.len()];
            post.standardize(Affine::diagonal(center, &scales));
            assert!(post.use_sky_ring_reflection(ring()));
            assert_eq!(LogDensity::mirror_count(&post), 1);
            assert_mirror_is_an_involution_with_its_determinant(&post, 0, |theta, image| {
                (image[DEC] - theta[DEC]).abs() > 0.05
            });
        }
    }

    /// Jump `which` of `post` near [`THETA`] satisfies `moved(θ, θ')`, maps its image back, and
    /// its ln|det ∂x'/∂x| matches central differences (and is not trivially 0).
    fn assert_mirror_is_an_involution_with_its_determinant(
        post: &Posterior<Mock>,
        which: usize,
        moved: impl Fn(&[f64; 11], &[f64; 11]) -> bool,
    ) {
        let n = LogDensity::dim(post);
        let x: Vec<f64> = post.to_x(&THETA).iter().map(|v| v + 0.3).collect();
        let mut image = vec![0.0; n];
        let log_det = LogDensity::mirror(post, which, &x, &mut image).unwrap();
        let theta = post.parameters(&x);
        let mirrored = post.parameters(&image);
        assert!(moved(&theta, &mirrored), "{theta:?} -> {mirrored:?}");
        let mut back = vec![0.0; n];
        let log_det_back = LogDensity::mirror(post, which, &image, &mut back).unwrap();
        for (a, b) in back.iter().zip(&x) {
            assert!((a - b).abs() < 1e-9, "{back:?} vs {x:?}");
        }
        assert!((log_det + log_det_back).abs() < 1e-12);
        // ∂x'/∂x by central differences.
        let h = 1e-6;
        let mut jacobian = vec![0.0; n * n];
        for j in 0..n {
            let (mut plus, mut minus) = (x.clone(), x.clone());
            plus[j] += h;
            minus[j] -= h;
            let (mut image_plus, mut image_minus) = (vec![0.0; n], vec![0.0; n]);
            LogDensity::mirror(post, which, &plus, &mut image_plus).unwrap();
            LogDensity::mirror(post, which, &minus, &mut image_minus).unwrap();
            for i in 0..n {
                jacobian[i * n + j] = (image_plus[i] - image_minus[i]) / (2.0 * h);
            }
        }
        let numeric = log_abs_det(jacobian, n);
        assert!((numeric - log_det).abs() < 1e-6, "{numeric} vs {log_det}");
        assert!(
            log_det.abs() > 0.1,
            "a trivial determinant tests nothing: {log_det}"
        );
    }
}
