//! Building a [`Posterior`] from the coordinates and jumps asked for: each is used where the
//! priors allow it, and every one that does not apply is reported ([`NotApplied`]); the
//! conditions and the order in which the requests are applied are in docs/sampling.md §7.

use serde::{Deserialize, Serialize};
use tdpe_signal::{Parameter, SignalModel, SpinModel};

use super::{Affine, BbhLikelihood, Network, Posterior};
use crate::coordinates::circular_phases::{CircularPhases, Copies};
use crate::coordinates::constrained_chirp_mass::ConstrainedChirpMass;
use crate::coordinates::effective_spin::EffectiveSpin;
use crate::coordinates::peak_phase::PeakPhase;
use crate::coordinates::sky_frame::DetectorFrameSky;
use crate::coordinates::spin_vectors::{SpinVectors, VECTOR_SLOTS};
use crate::coordinates::CoordinateMap;
use crate::distance_marginal::DistanceMarginal;
use crate::jumps::inclination_mirror::InclinationMirror;
use crate::jumps::sky_ring::SkyRingReflection;
use crate::jumps::time_orbit::TimeOrbit;
use crate::jumps::Jump;
use crate::prior::{Distribution, PriorSet};
use crate::time_steps::TimeSteps;
use crate::transform::{spans_period, Transform};

/// The coordinates in which the sampler moves over the sky and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum ReferenceFrame {
    /// Zenith and azimuth about the baseline of a detector pair, and the arrival time at its
    /// first (bilby's `reference_frame = "H1L1"`, `time_reference = "H1"`): of more than two
    /// detectors the pair with the narrowest sky ring at the fiducial point (the record's
    /// `reference_frame` names it); the results are still reported as ra, dec and
    /// geocent_time. Needs two detectors.
    Detectors,
    /// ra, dec and geocent_time themselves.
    Sky,
}

/// The coordinates in which the sampler moves over the mass ratio and the spins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum IntrinsicCoordinates {
    /// The symmetric mass ratio η, the effective spin χ_eff and the position u along the line
    /// of constant χ_eff in the (chi_1, chi_2) square: the combinations the phase depends on,
    /// so the posterior is closer to Gaussian. Each applies when its parameters allow it (η for
    /// mass_ratio within (0, 1], (χ_eff, u) for both spins sampled over the same interval).
    /// Precessing spins are sampled as the spin vectors seen from the line of sight, with the
    /// inclination (see [`SpinVectors`]; bilby's precessing priors). Results are still
    /// bilby's parameters.
    Effective,
    /// mass_ratio and the spins as bilby has them.
    Components,
}

/// The coordinate in which the sampler moves over the orbital phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum PhaseCoordinate {
    /// The phase at the signal's peak, φ + Δ(λ)/2 with Δ the (2,2) phase accumulated from
    /// f_ref to the peak (the co-precessing (2,2) mode's for precessing spins): the phase the
    /// data measure, so the posterior is no longer a thin sheet curved along the masses and
    /// spins. Applies when phase is sampled, periodic, over one full turn. Results are still
    /// bilby's phase at f_ref.
    Peak,
    /// bilby's phase at f_ref itself.
    Reference,
}

/// The sampler's coordinates and jumps, as asked for (the run configuration's `sampler` keys
/// of the same names). Each applies only where the priors allow it; the defaults are the
/// choices of docs/sampling.md (§1.2 says why, §7 when each applies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoordinateOptions {
    /// Marginalise the likelihood over luminosity_distance (bilby's `distance_marginalization`).
    pub distance_marginalization: bool,
    /// Marginalise the likelihood over a uniform phase (bilby's `phase_marginalization`; exact
    /// for the (2,2) mode, docs/sampling.md §5.5).
    pub phase_marginalization: bool,
    /// Mass-ratio and spin coordinates.
    pub intrinsic_coordinates: IntrinsicCoordinates,
    /// chirp_mass as its position within the range that the mass_1 / mass_2 constraints leave
    /// at each mass ratio, so that no constraint is a wall the sampler can run into.
    pub constrained_chirp_mass: bool,
    /// Sky and time coordinates.
    pub reference_frame: ReferenceFrame,
    /// Phase coordinate.
    pub phase_coordinate: PhaseCoordinate,
    /// phase ± psi (each modulo π) instead of phase and psi.
    pub circular_phases: bool,
    /// The face-on/face-off jump after every transition.
    pub inclination_mirror: bool,
    /// The jump between the ends of the sky ring after every transition (two detectors), or
    /// through the plane of the three detectors' sites.
    pub sky_ring_reflection: bool,
    /// The orbit move through whole-sample time shifts (and quarter turns of the phase) after
    /// every transition, where the likelihood follows such shifts.
    pub time_orbit: bool,
    /// Sum the likelihood over this many whole-sample time steps (docs/sampling.md §5.6),
    /// where the likelihood follows such shifts; 0 or 1: not at all.
    pub time_steps: usize,
    /// Independence proposals (prior draws, or a kernel density estimate of earlier draws
    /// with [`Posterior::use_draws_proposal`]) tried after every transition (docs/sampling.md
    /// §4.4).
    pub independence_proposals: usize,
}

impl Default for CoordinateOptions {
    fn default() -> Self {
        Self {
            distance_marginalization: true,
            phase_marginalization: false,
            intrinsic_coordinates: IntrinsicCoordinates::Effective,
            constrained_chirp_mass: true,
            reference_frame: ReferenceFrame::Detectors,
            phase_coordinate: PhaseCoordinate::Peak,
            circular_phases: true,
            inclination_mirror: true,
            sky_ring_reflection: true,
            time_orbit: true,
            time_steps: 0,
            independence_proposals: 0,
        }
    }
}

/// A requested coordinate or jump that does not apply, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotApplied {
    /// The option (its configuration key), and which part of it where it has several.
    pub option: &'static str,
    /// Why it does not apply.
    pub reason: &'static str,
}

/// The planes through the detector baseline that the sky-ring reflections reflect through, at
/// equal angles from the one through the geocentre: reflections through two planes compose to a
/// rotation about the baseline by twice the angle between them, so the chain can jump to any of
/// several positions around the ring, not only to the mirror image through one plane.
pub(super) const SKY_RING_PLANES: usize = 3;

/// Why an option does not apply (the reasons of [`NotApplied`]).
type Refusal = Result<(), &'static str>;

/// One requested option: whether it is asked for, its name, and how it is applied.
type Request<'a, P> = (bool, &'static str, &'a dyn Fn(&mut P) -> Refusal);

impl<L: BbhLikelihood> Posterior<L> {
    /// The posterior of `priors` and `likelihood` in the coordinates and with the jumps of
    /// `options` where the priors allow them (see [`Posterior::not_applied`]), not yet
    /// standardised (c = 0, A = I).
    pub fn new(
        priors: PriorSet,
        likelihood: L,
        options: &CoordinateOptions,
        network: &Network,
    ) -> Self {
        let mut posterior = Self::in_parameters(priors, likelihood);
        let precessing = posterior.priors.spin_model == SpinModel::Precessing;
        // The marginalisations first: they remove coordinates, which the others' checks see.
        let requests: [Request<Self>; 13] = [
            (
                options.distance_marginalization,
                "distance_marginalization",
                &|p| p.use_distance_marginalization(),
            ),
            (
                options.phase_marginalization,
                "phase_marginalization",
                &|p| p.use_phase_marginalization(),
            ),
            (options.time_steps > 1, "time_steps", &|p| {
                p.use_time_steps(options.time_steps)
            }),
            (
                options.intrinsic_coordinates == IntrinsicCoordinates::Effective,
                "intrinsic_coordinates (symmetric mass ratio)",
                &|p| p.use_symmetric_mass_ratio(),
            ),
            (
                options.constrained_chirp_mass,
                "constrained_chirp_mass",
                &|p| p.use_constrained_chirp_mass(),
            ),
            (
                options.intrinsic_coordinates == IntrinsicCoordinates::Effective && !precessing,
                "intrinsic_coordinates (effective spin)",
                &|p| p.use_effective_spin(),
            ),
            (
                options.intrinsic_coordinates == IntrinsicCoordinates::Effective && precessing,
                "intrinsic_coordinates (spin vectors)",
                &|p| p.use_spin_vectors(&network.model),
            ),
            (
                options.reference_frame == ReferenceFrame::Detectors,
                "reference_frame",
                &|p| p.use_detector_frame(network),
            ),
            (options.inclination_mirror, "inclination_mirror", &|p| {
                p.use_inclination_mirror(network)
            }),
            (
                options.phase_coordinate == PhaseCoordinate::Peak,
                "phase_coordinate",
                &|p| p.use_peak_phase(&network.model),
            ),
            (options.circular_phases, "circular_phases", &|p| {
                p.use_circular_phases()
            }),
            (options.sky_ring_reflection, "sky_ring_reflection", &|p| {
                p.use_sky_ring_reflection(network)
            }),
            (options.time_orbit, "time_orbit", &|p| p.use_time_orbit()),
        ];
        for (requested, option, apply) in requests {
            if !requested {
                continue;
            }
            if let Err(reason) = apply(&mut posterior) {
                posterior.not_applied.push(NotApplied { option, reason });
            }
        }
        posterior.independence_proposals = options.independence_proposals;
        posterior
    }

    /// Marginalises the likelihood over luminosity_distance with its prior (see
    /// [`DistanceMarginal`]), which is then no longer sampled: [`Self::draw_marginalized`] gives each
    /// draw its distance.
    pub(super) fn use_distance_marginalization(&mut self) -> Refusal {
        let i = self
            .coordinate_of(Parameter::LuminosityDistance)
            .ok_or("luminosity_distance is not sampled")?;
        let marginal = DistanceMarginal::new(
            &self
                .priors
                .prior(Parameter::LuminosityDistance)
                .distribution,
        )
        .ok_or("luminosity_distance's prior is not bounded and positive")?;
        self.coordinates.remove(i);
        let n = self.coordinates.len();
        self.affine = Affine::diagonal(vec![0.0; n], &vec![1.0; n]);
        self.fixed[Parameter::LuminosityDistance] = marginal.reference_distance();
        self.distance = Some(marginal);
        Ok(())
    }

    /// Marginalises the likelihood over the phase (docs/sampling.md §5.5), which is then no
    /// longer sampled: [`Self::draw_marginalized`] gives each draw its phase. The integral is
    /// over a uniform phase on a full turn; with it the posterior repeats in psi every quarter
    /// turn, so a uniform periodic psi is sampled over one.
    pub(super) fn use_phase_marginalization(&mut self) -> Refusal {
        if !self.likelihood.is_22_only() {
            return Err(
                "it is exact for the (2,2) mode alone and the signal model has higher modes",
            );
        }
        let i = self
            .coordinate_of(Parameter::Phase)
            .ok_or("phase is not sampled")?;
        let prior = self.priors.prior(Parameter::Phase);
        if !prior.is_uniform_over(std::f64::consts::TAU) {
            return Err("phase's prior is not uniform and periodic over 2π");
        }
        self.coordinates.remove(i);
        let n = self.coordinates.len();
        self.affine = Affine::diagonal(vec![0.0; n], &vec![1.0; n]);
        self.fixed[Parameter::Phase] = prior.distribution.support().0;
        self.phase_marginalized = true;
        if let Some(psi) = self.coordinate_of(Parameter::Psi) {
            if self
                .priors
                .prior(Parameter::Psi)
                .is_uniform_over(std::f64::consts::PI)
            {
                let (lower, _) = self.priors.prior(Parameter::Psi).distribution.support();
                self.coordinates[psi].transform = Transform::Periodic {
                    lower,
                    upper: lower + std::f64::consts::FRAC_PI_2,
                };
                self.psi_quarter_turn = true;
            }
        }
        Ok(())
    }

    /// Sums the likelihood over `steps` whole-sample time steps (see [`TimeSteps`]):
    /// geocent_time's coordinate is then the window's start.
    pub(super) fn use_time_steps(&mut self, steps: usize) -> Refusal {
        let dt = self
            .likelihood
            .lattice_spacing()
            .ok_or("the likelihood does not follow whole-sample time shifts")?;
        if self.phase_marginalized {
            return Err("the likelihood is marginalised over the phase");
        }
        if !self.is_sampled(Parameter::GeocentTime) {
            return Err("geocent_time is not sampled");
        }
        let support = self
            .priors
            .prior(Parameter::GeocentTime)
            .distribution
            .support();
        self.time_steps = Some(TimeSteps { steps, dt, support });
        Ok(())
    }

    /// Samples mass_ratio through the symmetric mass ratio η (see [`Transform`]).
    pub(super) fn use_symmetric_mass_ratio(&mut self) -> Refusal {
        let i = self
            .coordinate_of(Parameter::MassRatio)
            .ok_or("mass_ratio is not sampled")?;
        let prior = self.priors.prior(Parameter::MassRatio);
        if prior.is_periodic() {
            return Err("mass_ratio's prior is periodic");
        }
        let (lower, upper) = prior.distribution.support();
        self.coordinates[i].transform = Transform::symmetric_mass_ratio(lower, upper)
            .ok_or("mass_ratio's prior is not within (0, 1]")?;
        Ok(())
    }

    /// Refuses, for `reason`, what holds for aligned spins only.
    fn needs_aligned_spins(&self, reason: &'static str) -> Refusal {
        match self.priors.spin_model {
            SpinModel::Aligned => Ok(()),
            SpinModel::Precessing => Err(reason),
        }
    }

    /// The support of `parameter`'s prior, unless that prior is periodic.
    fn non_periodic_support(&self, parameter: Parameter) -> Option<(f64, f64)> {
        let prior = self.priors.prior(parameter);
        (!prior.is_periodic()).then(|| prior.distribution.support())
    }

    /// Samples chirp_mass as its position within the range the mass constraints leave at q
    /// (see [`ConstrainedChirpMass`]), and narrows mass_ratio's coordinate to the q where that
    /// range is not empty. Without constraints there is no wall, and nothing to do.
    pub(super) fn use_constrained_chirp_mass(&mut self) -> Refusal {
        if self.priors.constraints.is_empty() {
            return Ok(());
        }
        let (Some(mc), Some(q)) = (
            self.coordinate_of(Parameter::ChirpMass),
            self.coordinate_of(Parameter::MassRatio),
        ) else {
            return Err("chirp_mass and mass_ratio are not both sampled");
        };
        let (Some(chirp_mass), Some(mass_ratio)) = (
            self.non_periodic_support(Parameter::ChirpMass),
            self.non_periodic_support(Parameter::MassRatio),
        ) else {
            return Err("chirp_mass's or mass_ratio's prior is periodic");
        };
        let (map, (from, to)) =
            ConstrainedChirpMass::new(chirp_mass, mass_ratio, &self.priors.constraints)?;
        self.coordinates[q].transform = match self.coordinates[q].transform {
            Transform::SymmetricMassRatio { .. } => Transform::symmetric_mass_ratio(from, to)
                .ok_or("mass_ratio's prior is not within (0, 1]")?,
            _ => Transform::Logit {
                lower: from,
                upper: to,
            },
        };
        self.coordinates[mc].transform = Transform::Logit {
            lower: 0.0,
            upper: 1.0,
        };
        self.maps.insert(CoordinateMap::ConstrainedChirpMass(map));
        Ok(())
    }

    /// Samples (chi_1, chi_2) as (χ_eff, u) (see [`EffectiveSpin`]).
    pub(super) fn use_effective_spin(&mut self) -> Refusal {
        self.needs_aligned_spins("the spins are precessing, and it maps chi_1 and chi_2")?;
        let (Some(first), Some(second)) = (
            self.coordinate_of(Parameter::Chi1),
            self.coordinate_of(Parameter::Chi2),
        ) else {
            return Err("chi_1 and chi_2 are not both sampled");
        };
        let spin = self
            .non_periodic_support(Parameter::Chi1)
            .zip(self.non_periodic_support(Parameter::Chi2))
            .and_then(|(a, b)| EffectiveSpin::new(a, b))
            .ok_or("chi_1 and chi_2 do not share one bounded, non-periodic support")?;
        let [effective, fraction] = spin.transforms();
        self.coordinates[first].transform = effective;
        self.coordinates[second].transform = fraction;
        self.maps.insert(CoordinateMap::EffectiveSpin(spin));
        Ok(())
    }

    /// Samples bilby's precessing spins and θ_jn as the spin vectors seen from the line of sight
    /// and the inclination (see [`SpinVectors`]), for bilby's precessing priors: magnitudes
    /// uniform from 0, Sine tilts and θ_jn, and φ_12 and φ_jl uniform over a turn.
    pub(super) fn use_spin_vectors(&mut self, model: &SignalModel) -> Refusal {
        let Some(vector_coordinates) = VECTOR_SLOTS
            .iter()
            .flatten()
            .map(|&p| self.coordinate_of(p))
            .collect::<Option<Vec<usize>>>()
        else {
            return Err("the spins and theta_jn are not all sampled");
        };
        if !self.is_sampled(Parameter::ThetaJn) {
            return Err("the spins and theta_jn are not all sampled");
        }
        let magnitude = |p: Parameter| match self.priors.prior(p).distribution {
            Distribution::Uniform {
                minimum: 0.0,
                maximum,
            } => Some(maximum),
            _ => None,
        };
        let isotropic = |p: Parameter| {
            matches!(
                self.priors.prior(p).distribution,
                Distribution::Sine { minimum, maximum }
                    if minimum == 0.0 && maximum == std::f64::consts::PI
            )
        };
        let uniform_turn =
            |p: Parameter| self.priors.prior(p).is_uniform_over(std::f64::consts::TAU);
        let (Some(a_1), Some(a_2)) = (magnitude(Parameter::A1), magnitude(Parameter::A2)) else {
            return Err("a_1's or a_2's prior is not uniform from 0");
        };
        if ![Parameter::Tilt1, Parameter::Tilt2, Parameter::ThetaJn]
            .into_iter()
            .all(isotropic)
        {
            return Err("tilt_1's, tilt_2's or theta_jn's prior is not Sine on [0, π]");
        }
        if !uniform_turn(Parameter::Phi12) || !uniform_turn(Parameter::PhiJl) {
            return Err("phi_12's or phi_jl's prior is not uniform and periodic over 2π");
        }
        let map = SpinVectors::new([a_1, a_2], model.waveform_settings().reference_frequency())
            .ok_or("a_1's or a_2's largest magnitude is not in (0, 1]")?;
        for i in vector_coordinates {
            self.coordinates[i].transform = Transform::Identity;
        }
        self.maps.insert(CoordinateMap::SpinVectors(map));
        Ok(())
    }

    /// Samples (geocent_time, ra, dec) as (arrival time at the first detector, zenith, azimuth)
    /// in the frame of a detector pair: the network's two, or of more the pair with the
    /// narrowest sky ring ([`Network::frame_pair`]).
    pub(super) fn use_detector_frame(&mut self, network: &Network) -> Refusal {
        let [first, second] = network
            .frame_pair()
            .ok_or("it needs two detectors at distinct sites")?
            .map(|k| &network.detectors()[k]);
        let (Some(t), Some(ra), Some(dec)) = (
            self.coordinate_of(Parameter::GeocentTime),
            self.coordinate_of(Parameter::Ra),
            self.coordinate_of(Parameter::Dec),
        ) else {
            return Err("geocent_time, ra and dec are not all sampled");
        };
        // The frame gives ra in [0, 2π): a periodic ra prior must have that period.
        let ra_prior = self.priors.prior(Parameter::Ra);
        let ra_support = ra_prior.distribution.support();
        let from_zero = ra_support.0 == 0.0 && spans_period(ra_support, std::f64::consts::TAU);
        if ra_prior.is_periodic() && !from_zero {
            return Err("ra's prior is periodic but not over [0, 2π)");
        }
        let mut sky = DetectorFrameSky::new(first, second, network.gmst)
            .map_err(|_| "the pair's detectors are at the same site")?;
        let [time, zenith, azimuth] = sky.transforms(self.coordinates[t].transform);
        self.coordinates[t].transform = time;
        self.coordinates[ra].transform = zenith;
        self.coordinates[dec].transform = azimuth;
        self.maps
            .insert(CoordinateMap::DetectorFrame(Box::new(sky)));
        Ok(())
    }

    /// Offers the sampler the face-on/face-off jump (see [`InclinationMirror`]) after every
    /// transition; the map is an involution only modulo π in ψ, and for precessing spins,
    /// whose image turns the precession cone by π, modulo 2π in φ_jl.
    pub(super) fn use_inclination_mirror(&mut self, network: &Network) -> Refusal {
        if !(self.is_sampled(Parameter::ThetaJn) && self.is_sampled(Parameter::Psi)) {
            return Err("theta_jn and psi are not both sampled");
        }
        if self.priors.spin_model == SpinModel::Precessing {
            let turns = self
                .priors
                .prior(Parameter::PhiJl)
                .is_periodic_over(std::f64::consts::TAU);
            if !(self.is_sampled(Parameter::PhiJl) && turns) {
                return Err("phi_jl is not sampled with a prior periodic over 2π");
            }
        }
        let psi = self.priors.prior(Parameter::Psi);
        if !Parameter::Psi
            .period()
            .is_some_and(|period| psi.is_periodic_over(period))
        {
            return Err("psi's prior is not periodic with period π");
        }
        let detectors = network
            .detectors()
            .iter()
            .cloned()
            .zip(network.sensitivities.iter().copied())
            .collect();
        let mirror = InclinationMirror::new(detectors, network.gmst, self.priors.spin_model);
        self.jumps.push(Jump::Inclination(mirror));
        Ok(())
    }

    /// Samples phase as the phase at the signal's peak (see [`PeakPhase`]) with waveforms of
    /// `model`: the aligned-spin (2,2) mode's, or for precessing spins the co-precessing one's.
    pub(super) fn use_peak_phase(&mut self, model: &SignalModel) -> Refusal {
        let prior = self.priors.prior(Parameter::Phase);
        if !(self.is_sampled(Parameter::Phase) && prior.is_periodic()) {
            return Err("phase is not sampled with a periodic prior");
        }
        let map = PeakPhase::new(
            model.clone(),
            self.priors.spin_model,
            prior.distribution.support(),
        )
        .ok_or("phase's prior does not span one full turn")?;
        self.maps.insert(CoordinateMap::PeakPhase(map));
        Ok(())
    }

    /// Samples (phase, psi) as (phase + psi, phase − psi) (see [`CircularPhases`]), each
    /// modulo π for the (2,±2) modes alone, for which the four (phase, psi) with the same
    /// coordinates have the same posterior; modulo 4π, every (phase, psi) its own point, for
    /// a model with higher modes. Either needs uniform periodic priors over one period (2π and
    /// π).
    pub(super) fn use_circular_phases(&mut self) -> Refusal {
        let copies = if self.likelihood.is_22_only() {
            Copies::Folded
        } else {
            Copies::Unfolded
        };
        let (Some(phase), Some(psi)) = (
            self.coordinate_of(Parameter::Phase),
            self.coordinate_of(Parameter::Psi),
        ) else {
            return Err("phase and psi are not both sampled");
        };
        let uniform_periodic = |p: Parameter| {
            let prior = self.priors.prior(p);
            let uniform = matches!(prior.distribution, Distribution::Uniform { .. });
            (uniform && prior.is_periodic()).then(|| prior.distribution.support())
        };
        let map = uniform_periodic(Parameter::Phase)
            .zip(uniform_periodic(Parameter::Psi))
            .and_then(|(phase, psi)| CircularPhases::new(phase, psi, copies))
            .ok_or("phase and psi do not have uniform periodic priors over 2π and π")?;
        let period = Transform::Periodic {
            lower: 0.0,
            upper: map.period(),
        };
        self.coordinates[phase].transform = period;
        self.coordinates[psi].transform = period;
        self.maps.insert(CoordinateMap::CircularPhases(map));
        Ok(())
    }

    /// Offers the sampler the jump between the ends of the sky ring (see
    /// [`SkyRingReflection`]) after every transition, after the inclination mirror: for two
    /// detectors through [`SKY_RING_PLANES`] planes about their baseline; for more, through the
    /// plane of their sites if there is one (three detectors), keeping the signals of the two
    /// loudest ([`Network::loudest_pair`]) and every arrival time. It needs
    /// the circular phases or the phase marginalised with psi over a quarter turn: the map is
    /// an involution only up to the (φ, ψ) → (φ + π/2, ψ + π/2) symmetry, which φ ± ψ mod π do
    /// not see, nor ψ mod π/2.
    pub(super) fn use_sky_ring_reflection(&mut self, network: &Network) -> Refusal {
        self.needs_aligned_spins(
            "the spins are precessing, and it re-solves theta_jn, phase and psi for an \
             aligned-spin (2,2) signal",
        )?;
        let needed = [
            Parameter::Ra,
            Parameter::Dec,
            Parameter::GeocentTime,
            Parameter::ThetaJn,
        ];
        if !needed.into_iter().all(|p| self.is_sampled(p)) {
            return Err("ra, dec, geocent_time and theta_jn are not all sampled");
        }
        let folded = self
            .maps
            .circular_phases()
            .is_some_and(|map| map.copies() == Copies::Folded);
        if !folded && !self.psi_quarter_turn {
            return Err(if self.likelihood.is_22_only() {
                "it needs the circular phases or the marginalised phase"
            } else {
                "the signal model has higher modes, which tell phase from phase + π/2 with \
                 psi + π/2, and the jump holds only up to that"
            });
        }
        let [i, j] = network
            .loudest_pair()
            .ok_or("it needs two detectors at distinct, non-antipodal sites")?;
        let detectors = network.detectors();
        let pair = [&detectors[i], &detectors[j]];
        let others: Vec<_> = (0..detectors.len())
            .filter(|&k| k != i && k != j)
            .map(|k| detectors[k].clone())
            .collect();
        if others.is_empty() {
            for plane in 0..SKY_RING_PLANES {
                let angle = std::f64::consts::PI * plane as f64 / SKY_RING_PLANES as f64;
                let ring = SkyRingReflection::new(pair, network.gmst, angle)
                    .ok_or("it needs two detectors at distinct, non-antipodal sites")?;
                self.jumps.push(Jump::SkyRing(Box::new(ring)));
            }
        } else {
            let ring = SkyRingReflection::through_sites(pair, &others, network.gmst).ok_or(
                "the detectors' sites are not in one plane, which a reflection that keeps every \
                 arrival time needs (two or three detectors)",
            )?;
            self.jumps.push(Jump::SkyRing(Box::new(ring)));
        }
        Ok(())
    }

    /// Offers the sampler the orbit move through time (see [`TimeOrbit`]) after every
    /// transition and jump, with the phase's quarter turns where phase is sampled with a
    /// uniform periodic prior over a full turn (two of them with the circular phases, which do
    /// not tell φ from φ + π). Only a likelihood that follows whole-sample time shifts has the
    /// orbit's cheap weights (relative binning for a wide posterior, docs/sampling.md §8.4);
    /// with any other the move is not offered, which is no refusal of the priors.
    pub(super) fn use_time_orbit(&mut self) -> Refusal {
        if !self.likelihood.is_22_only() {
            return Err(
                "its lattice holds the (2,2) mode's phase quadratures and the signal model \
                        has higher modes",
            );
        }
        if !self.is_sampled(Parameter::GeocentTime) {
            return Err("geocent_time is not sampled");
        }
        let Some(dt) = self.likelihood.lattice_spacing() else {
            return Ok(());
        };
        let phase = self.priors.prior(Parameter::Phase);
        let support = phase.distribution.support();
        let full_turn =
            self.is_sampled(Parameter::Phase) && phase.is_uniform_over(std::f64::consts::TAU);
        // Summed over a window of about a cycle (docs/sampling.md §5.6), the density hardly
        // changes with a quarter turn of the phase: the turns would only double the cost.
        let polarities = match (full_turn, self.maps.circular_phases().is_some()) {
            _ if self.time_steps.is_some() => 1,
            (false, _) => 1,
            (true, true) => 2,
            (true, false) => 4,
        };
        self.time_orbit = Some(TimeOrbit::new(dt, polarities, support));
        Ok(())
    }
}
