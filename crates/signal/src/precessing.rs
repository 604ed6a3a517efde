//! A precessing binary seen by a detector: its signal as a sum over the co-precessing modes, each
//! times a coefficient that follows the precessing frame (docs/precession.md §12).
//!
//! bilby's θ_jn, φ_jl and phase only turn the L0-frame spins about L̂_N (by ψ′,
//! [`LalSpins::turn`]), and the model is covariant under that turn, so the smooth IMRPhenomTPHM is
//! set up once in bilby's standard orientation, from the masses, a_1, a_2, tilt_1, tilt_2 and
//! φ_12 alone (docs/precession.md §7.3). A view then takes the harmonics at ι and φ + ψ′ and
//! turns each co-precessing mode by e^(im′ψ′). With K = F₊ + iF× and the sums A, B of
//! [`SmoothPrecession::projection_sums`], a detector sees
//!
//! h(t) = Σ_{lm′} Re[c_lm′(t) h^P_lm′(t)],  c_lm′ = e^(im′ψ′)/D · [K A_lm′ + (−1)^l conj(K B_lm′)].

use tdpe_phenomt::precession::rotation::Harmonics;
use tdpe_phenomt::{Mode, Real, Settings, SmoothPrecession, SmoothSteps};

use crate::error::SignalError;
use crate::spins::{lal_spins, PrecessingSpins};

/// (re, im) of a complex number of any scalar.
pub type Complex<T> = (T, T);

/// How many co-precessing modes (m′ > 0) the model has: those of [`Mode::ALL`].
pub const COPRECESSING_MODES: usize = Mode::ALL.len();

fn mul<T: Real>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// A precessing binary and one view of it: the smooth IMRPhenomTPHM in bilby's standard
/// orientation, and the harmonics and turns of the line of sight, the phase and φ_jl.
#[derive(Clone, Debug)]
pub struct PrecessingSource<T> {
    model: SmoothPrecession<T>,
    harmonics: Harmonics<T>,
    /// e^(im′ψ′)/D of each co-precessing mode, D in Mpc (the modes are for 1 Mpc).
    turns: [Complex<T>; COPRECESSING_MODES],
}

impl<T: Real> PrecessingSource<T> {
    /// The binary of component masses `mass_1` ≥ `mass_2` (detector frame, M☉) with bilby's
    /// `spins` at the reference frequency of `settings`, seen at `theta_jn` with orbital
    /// `phase` from `distance_mpc`. The frame is integrated from `t_start` (s, relative to the
    /// peak) on: the earliest time the caller will ask for.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mass_1: T,
        mass_2: T,
        spins: &PrecessingSpins<T>,
        theta_jn: T,
        phase: T,
        distance_mpc: T,
        settings: &Settings,
        t_start: f64,
    ) -> Result<Self, SignalError> {
        let distance = distance_mpc.re();
        if !(distance > 0.0 && distance.is_finite()) {
            return Err(SignalError::OutOfRange {
                name: "luminosity_distance",
                value: distance,
                allowed: "(0, ∞) Mpc",
            });
        }
        let view = lal_spins(
            spins,
            theta_jn,
            mass_1,
            mass_2,
            settings.reference_frequency(),
            phase,
        )?;
        let (chi_1, chi_2) = spins.standard_orientation();
        let model = SmoothPrecession::new(
            mass_1,
            mass_2,
            chi_1,
            chi_2,
            settings,
            t_start,
            SmoothSteps::default(),
        )?;
        let harmonics = Harmonics::new(view.inclination, phase + view.turn);
        let turns = Mode::ALL.map(|mode| {
            let (sin, cos) = (view.turn * f64::from(mode.lm().1)).sin_cos();
            (cos / distance_mpc, sin / distance_mpc)
        });
        Ok(Self {
            model,
            harmonics,
            turns,
        })
    }

    /// The smooth model in the standard orientation.
    pub fn model(&self) -> &SmoothPrecession<T> {
        &self.model
    }

    /// c_lm′(t) of a detector with antenna patterns `antenna` = F₊ + iF× at `t` (s, relative
    /// to the peak as the detector sees it), in the order of [`Mode::ALL`].
    pub fn coefficients(&self, antenna: Complex<T>, t: T) -> [Complex<T>; COPRECESSING_MODES] {
        let sums = self.model.projection_sums(t, &self.harmonics);
        std::array::from_fn(|j| {
            let [a, b] = sums[j];
            let parity = if Mode::ALL[j].lm().0.is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            let (ka, kb) = (mul(antenna, a), mul(antenna, b));
            mul(self.turns[j], (ka.0 + kb.0 * parity, ka.1 - kb.1 * parity))
        })
    }

    /// The strain of a detector with antenna patterns `antenna` = F₊ + iF× at `t`.
    pub fn strain(&self, antenna: Complex<T>, t: T) -> T {
        let modes = self.model.coprecessing().modes_at(t);
        self.coefficients(antenna, t)
            .iter()
            .zip(modes)
            .fold(T::from(0.0), |sum, (c, h)| sum + c.0 * h.0 - c.1 * h.1)
    }
}
