//! Sampling coordinates: maps θ = F(s) that replace a group of bilby's parameters by
//! coordinates in which the posterior is closer to Gaussian (docs/sampling.md §3; their place
//! in the posterior, §2.3).
//!
//! Each map acts on a few entries of the parameter vector and leaves the others as they are. The
//! posterior composes the chosen maps in the order of [`CoordinateMap`]'s variants, which is
//! also the order in which their log-determinants are summed: the constrained chirp mass comes
//! first, so that the maps after it read physical masses; the effective spin (aligned spins) or
//! the spin vectors (precessing spins, which also read the masses), the circular phases and the
//! detector frame act on disjoint parameters; and the peak phase, which reads the physical
//! masses and spins, comes last. Going back from θ to s, and pulling gradients back from θ to
//! s, runs through them in reverse (docs/sampling.md §3.6).
//!
//! A new map goes into a module of its own here, with a variant of [`CoordinateMap`] and of
//! [`Jacobian`] (or the reuse of one), and a line in [`crate::Posterior`]'s options that says
//! when the prior allows it.

pub mod circular_phases;
pub mod constrained_chirp_mass;
pub mod effective_spin;
pub mod peak_phase;
pub mod sky_frame;
pub mod spin_vectors;

use tdpe_signal::{Parameter, ParameterVector};

use circular_phases::CircularPhases;
use constrained_chirp_mass::{ChirpMassJacobian, ConstrainedChirpMass};
use effective_spin::{EffectiveSpin, SpinJacobian};
use peak_phase::{PeakPhase, PhaseJacobian};
use sky_frame::{DetectorFrameSky, SkyJacobian};
use spin_vectors::{SpinVectorJacobian, SpinVectors};

/// One of the coordinate maps, in the order they are composed from s to θ.
#[derive(Debug, Clone)]
pub enum CoordinateMap {
    /// chirp_mass as its position within the range the mass constraints leave at q.
    ConstrainedChirpMass(ConstrainedChirpMass),
    /// (chi_1, chi_2) as (χ_eff, u).
    EffectiveSpin(EffectiveSpin),
    /// (a_i, tilt_i, phi_12, phi_jl, theta_jn) as the spin vectors seen from the line of sight
    /// and the inclination.
    SpinVectors(SpinVectors),
    /// (phase, psi) as (phase + psi, phase − psi), each modulo π or 4π.
    CircularPhases(CircularPhases),
    /// (geocent_time, ra, dec) as the arrival time at the first detector and the zenith and
    /// azimuth of the detector pair's frame.
    DetectorFrame(Box<DetectorFrameSky>),
    /// phase as the phase at the signal's peak.
    PeakPhase(PeakPhase),
}

/// ∂θ/∂s of one map at a point, and ln|det ∂θ/∂s| with its s-gradient.
#[derive(Debug, Clone, PartialEq)]
pub enum Jacobian {
    /// Of [`ConstrainedChirpMass`].
    ChirpMass(ChirpMassJacobian),
    /// Of [`EffectiveSpin`].
    Spin(SpinJacobian),
    /// Of [`SpinVectors`].
    SpinVectors(Box<SpinVectorJacobian>),
    /// Of [`CircularPhases`] (constant: its log-determinant).
    Circular(f64),
    /// Of [`DetectorFrameSky`].
    Sky(SkyJacobian),
    /// Of [`PeakPhase`] (a shear: det 1).
    Phase(PhaseJacobian),
}

impl CoordinateMap {
    /// The position in the composition (the variants' order).
    fn rank(&self) -> usize {
        match self {
            Self::ConstrainedChirpMass(_) => 0,
            Self::EffectiveSpin(_) => 1,
            Self::SpinVectors(_) => 2,
            Self::CircularPhases(_) => 3,
            Self::DetectorFrame(_) => 4,
            Self::PeakPhase(_) => 5,
        }
    }

    /// s of θ. Where the waveform cannot be set up, the peak phase is NaN.
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        match self {
            Self::ConstrainedChirpMass(map) => map.sampled(theta),
            Self::EffectiveSpin(map) => map.sampled(theta),
            Self::SpinVectors(map) => map.sampled(theta),
            Self::CircularPhases(map) => map.sampled(theta),
            Self::DetectorFrame(map) => map.sampled(theta),
            Self::PeakPhase(map) => map.sampled(theta).unwrap_or_else(|_| {
                let mut s = *theta;
                s[Parameter::Phase] = f64::NAN;
                s
            }),
        }
    }

    /// θ of s, with the Jacobian there.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, Jacobian) {
        match self {
            Self::ConstrainedChirpMass(map) => {
                let (theta, jacobian) = map.theta(s);
                (theta, Jacobian::ChirpMass(jacobian))
            }
            Self::EffectiveSpin(map) => {
                let (theta, jacobian) = map.theta(s);
                (theta, Jacobian::Spin(jacobian))
            }
            Self::SpinVectors(map) => {
                let (theta, jacobian) = map.theta(s);
                (theta, Jacobian::SpinVectors(Box::new(jacobian)))
            }
            Self::CircularPhases(map) => (map.theta(s), Jacobian::Circular(map.log_det())),
            Self::DetectorFrame(map) => {
                let (theta, jacobian) = map.theta(s);
                (theta, Jacobian::Sky(jacobian))
            }
            Self::PeakPhase(map) => {
                let (theta, jacobian) = map.theta(s);
                (theta, Jacobian::Phase(jacobian))
            }
        }
    }
}

impl Jacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        match self {
            Self::ChirpMass(j) => j.pull_back(g),
            Self::Spin(j) => j.pull_back(g),
            Self::SpinVectors(j) => j.pull_back(g),
            Self::Circular(_) => CircularPhases::pull_back(g),
            Self::Sky(j) => j.pull_back(g),
            Self::Phase(j) => j.pull_back(g),
        }
    }

    /// ln|det ∂θ/∂s|, where the map changes the volume.
    pub fn log_det(&self) -> Option<f64> {
        match self {
            Self::ChirpMass(j) => Some(j.log_det),
            Self::Spin(j) => Some(j.log_det),
            Self::SpinVectors(j) => Some(j.log_det),
            Self::Circular(log_det) => Some(*log_det),
            Self::Sky(j) => Some(j.log_det),
            Self::Phase(_) => None,
        }
    }

    /// Whether ln|det ∂θ/∂s| reads a slot that an earlier map writes, so that its gradient
    /// must be pulled back through those maps: the spin vectors' reads the chirp mass, which
    /// the constrained chirp mass writes. The others read only slots no earlier map writes.
    pub fn log_det_reads_earlier_outputs(&self) -> bool {
        matches!(self, Self::SpinVectors(_))
    }

    /// Adds the s-gradient of ln|det ∂θ/∂s| to `d_s`.
    pub fn add_log_det_gradient(&self, d_s: &mut ParameterVector) {
        match self {
            Self::ChirpMass(j) => d_s[Parameter::MassRatio] += j.d_log_det,
            Self::Spin(j) => {
                d_s[Parameter::MassRatio] += j.d_log_det[0];
                d_s[Parameter::Chi1] += j.d_log_det[1];
            }
            Self::SpinVectors(j) => j.add_log_det_gradient(d_s),
            Self::Sky(j) => {
                d_s[Parameter::GeocentTime] += j.d_log_det[0];
                d_s[Parameter::Ra] += j.d_log_det[1];
                d_s[Parameter::Dec] += j.d_log_det[2];
            }
            Self::Circular(_) | Self::Phase(_) => {}
        }
    }
}

/// The chosen maps, composed in their fixed order.
#[derive(Debug, Clone, Default)]
pub struct Coordinates {
    maps: Vec<CoordinateMap>,
}

impl Coordinates {
    /// Adds `map` at its place in the composition (at most one of each kind).
    pub fn insert(&mut self, map: CoordinateMap) {
        self.maps.retain(|m| m.rank() != map.rank());
        let at = self.maps.partition_point(|m| m.rank() < map.rank());
        self.maps.insert(at, map);
    }

    /// The circular phases, if chosen.
    pub fn circular_phases(&self) -> Option<&CircularPhases> {
        self.maps.iter().find_map(|m| match m {
            CoordinateMap::CircularPhases(map) => Some(map),
            _ => None,
        })
    }

    /// The detector sky frame, if chosen.
    pub fn detector_frame(&self) -> Option<&DetectorFrameSky> {
        self.maps.iter().find_map(|m| match m {
            CoordinateMap::DetectorFrame(map) => Some(map.as_ref()),
            _ => None,
        })
    }

    /// s of θ: the maps' inverses in reverse order.
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        self.maps
            .iter()
            .rev()
            .fold(*theta, |s, map| map.sampled(&s))
    }

    /// θ of s and each map's Jacobian, in the order of composition.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, Vec<Jacobian>) {
        let mut jacobians = Vec::with_capacity(self.maps.len());
        let mut theta = *s;
        for map in &self.maps {
            let (next, jacobian) = map.theta(&theta);
            theta = next;
            jacobians.push(jacobian);
        }
        (theta, jacobians)
    }
}

/// The s-gradient of a function with θ-gradient `g`, through `jacobians` (in the order of
/// composition, so pulled back last to first).
pub fn pull_back(jacobians: &[Jacobian], g: &ParameterVector) -> ParameterVector {
    jacobians.iter().rev().fold(*g, |g, j| j.pull_back(&g))
}
