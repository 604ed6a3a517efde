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
//!
//! [`PrecessingGradientSource`] gives each term with its derivatives in every parameter of the
//! source, from dual numbers in the set-up's seven parameters and the chain rule through the
//! view (docs/precession.md §12.4).

use num_complex::Complex64;
use tdpe_phenomt::precession::rotation::Harmonics;
use tdpe_phenomt::{
    Dual, Mode, ModeSelection, Real, Settings, SmoothPrecession, SmoothSteps, EVERY_MODE,
};

use crate::error::SignalError;
use crate::params::{component_masses, BbhParameters, Parameter, ParameterVector};
use crate::projection::{arrival_derivative, AntennaGradient};
use crate::spins::{lal_spins, PrecessingSpins};

/// (re, im) of a complex number of any scalar.
pub type Complex<T> = (T, T);

/// How many co-precessing modes (m′ > 0) the model has: those of [`Mode::ALL`].
pub const COPRECESSING_MODES: usize = Mode::ALL.len();

/// The parameters the set-up depends on, in the order `PrecessingGradientSource::new` seeds
/// them (the masses, then the spins of the standard orientation).
const SETUP_PARAMETERS: [Parameter; 7] = [
    Parameter::ChirpMass,
    Parameter::MassRatio,
    Parameter::A1,
    Parameter::A2,
    Parameter::Tilt1,
    Parameter::Tilt2,
    Parameter::Phi12,
];

/// The parameters a precessing source's signal depends on other than through the detector (its
/// antenna patterns, delay and distance), in the order of [`ComponentGradient::d_source`]:
/// the set-up's, then the view's.
pub const SOURCE_PARAMETERS: [Parameter; 10] = {
    let view = [Parameter::PhiJl, Parameter::ThetaJn, Parameter::Phase];
    let mut all = [Parameter::Phase; 10];
    let mut k = 0;
    while k < all.len() {
        all[k] = if k < SETUP_PARAMETERS.len() {
            SETUP_PARAMETERS[k]
        } else {
            view[k - SETUP_PARAMETERS.len()]
        };
        k += 1;
    }
    all
};

/// The set-up's dual directions: its parameters, then the time.
const SETUP_DIRECTIONS: usize = SETUP_PARAMETERS.len() + 1;
const TIME_DIRECTION: usize = SETUP_PARAMETERS.len();
/// The directions of ι and ψ′: every one of [`SOURCE_PARAMETERS`].
const VIEW_DIRECTIONS: usize = SOURCE_PARAMETERS.len();
const PHASE_DIRECTION: usize = 9;
const _: () = assert!(matches!(
    SOURCE_PARAMETERS[PHASE_DIRECTION],
    Parameter::Phase
));

fn mul<T: Real>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// (−1)^l of co-precessing mode `j`.
fn parity(j: usize) -> f64 {
    if Mode::ALL[j].lm().0.is_multiple_of(2) {
        1.0
    } else {
        -1.0
    }
}

/// K·A + (−1)^l conj(K·B): the bracket of c_lm′, for sums A, B of any scalar.
fn bracket<T: Real>(antenna: Complex64, [a, b]: [Complex<T>; 2], parity: f64) -> Complex<T> {
    let k = (T::from(antenna.re), T::from(antenna.im));
    let (ka, kb) = (mul(k, a), mul(k, b));
    (ka.0 + kb.0 * parity, ka.1 - kb.1 * parity)
}

fn value_of<T: Real>(z: Complex<T>) -> Complex64 {
    Complex64::new(z.0.re(), z.1.re())
}

/// A precessing binary and one view of it: the smooth IMRPhenomTPHM in bilby's standard
/// orientation (in any scalar), and the harmonics and turns of the line of sight, the phase
/// and φ_jl.
#[derive(Clone, Debug)]
pub struct PrecessingSource<T> {
    model: SmoothPrecession<T>,
    harmonics: Harmonics<f64>,
    /// e^(im′ψ′)/D of each co-precessing mode, D in Mpc (the modes are for 1 Mpc).
    turns: [Complex64; COPRECESSING_MODES],
}

impl<T: Real> PrecessingSource<T> {
    /// The set-up for component masses `mass_1` ≥ `mass_2` (M☉) and `spins`, seen at
    /// `inclination` and `turn` ([`crate::LalSpins`]) with `phase`, from `distance_mpc`, the
    /// frame integrated from `t_start` (s, relative to the peak) on in `steps`.
    #[allow(clippy::too_many_arguments)]
    fn with_view(
        mass_1: T,
        mass_2: T,
        spins: &PrecessingSpins<T>,
        inclination: f64,
        turn: f64,
        phase: f64,
        distance_mpc: f64,
        settings: &Settings,
        t_start: f64,
        steps: SmoothSteps,
    ) -> Result<Self, SignalError> {
        let (chi_1, chi_2) = spins.standard_orientation();
        let model = SmoothPrecession::new(mass_1, mass_2, chi_1, chi_2, settings, t_start, steps)?;
        Ok(Self {
            model,
            harmonics: Harmonics::new(inclination, phase + turn),
            turns: Mode::ALL.map(|mode| {
                Complex64::from_polar(1.0 / distance_mpc, turn * f64::from(mode.lm().1))
            }),
        })
    }

    /// The smooth model in the standard orientation.
    pub fn model(&self) -> &SmoothPrecession<T> {
        &self.model
    }

    /// c_lm′(t) of a detector with antenna patterns `antenna` = F₊ + iF× at `t` (s, relative
    /// to the peak as the detector sees it), in the order of [`Mode::ALL`], of the modes
    /// `wanted` (the others zero).
    pub fn coefficients(
        &self,
        antenna: Complex64,
        t: T,
        wanted: &ModeSelection,
    ) -> [Complex<T>; COPRECESSING_MODES] {
        let [sums] = self.model.projection_sums(t, [&self.harmonics], wanted);
        std::array::from_fn(|j| {
            let turn = (T::from(self.turns[j].re), T::from(self.turns[j].im));
            mul(turn, bracket(antenna, sums[j], parity(j)))
        })
    }

    /// Each co-precessing mode's term z_lm′ = c_lm′(t) h^P_lm′(t) of the strain h = Σ Re z of
    /// a detector with antenna patterns `antenna` = F₊ + iF× at `t`, of the modes `wanted` (the
    /// others zero).
    pub fn components(
        &self,
        antenna: Complex64,
        t: T,
        wanted: &ModeSelection,
    ) -> [Complex<T>; COPRECESSING_MODES] {
        let modes = self.model.coprecessing().selected_modes_at(t, wanted);
        let c = self.coefficients(antenna, t, wanted);
        std::array::from_fn(|j| mul(c[j], modes[j]))
    }

    /// The strain of a detector with antenna patterns `antenna` = F₊ + iF× at `t`.
    pub fn strain(&self, antenna: Complex64, t: T) -> T {
        self.components(antenna, t, &EVERY_MODE)
            .iter()
            .fold(T::from(0.0), |sum, z| sum + z.0)
    }
}

/// Checks the masses and the distance and converts bilby's view to LAL's (ι, ψ′) in any
/// scalar.
fn view<T: Real>(
    mass_1: T,
    mass_2: T,
    spins: &PrecessingSpins<T>,
    theta_jn: T,
    phase: T,
    distance_mpc: f64,
    settings: &Settings,
) -> Result<(T, T), SignalError> {
    let (m1, m2) = (mass_1.re(), mass_2.re());
    if !(m1 > 0.0 && m1.is_finite()) {
        return Err(SignalError::OutOfRange {
            name: "mass_1",
            value: m1,
            allowed: "(0, ∞) M☉",
        });
    }
    // The set-up would swap lighter and heavier bodies, bilby's conversion would not.
    if !(m2 > 0.0 && m2 <= m1) {
        return Err(SignalError::OutOfRange {
            name: "mass_2",
            value: m2,
            allowed: "(0, mass_1] M☉",
        });
    }
    if !(distance_mpc > 0.0 && distance_mpc.is_finite()) {
        return Err(SignalError::OutOfRange {
            name: "luminosity_distance",
            value: distance_mpc,
            allowed: "(0, ∞) Mpc",
        });
    }
    let lal = lal_spins(
        spins,
        theta_jn,
        mass_1,
        mass_2,
        settings.reference_frequency(),
        phase,
    )?;
    Ok((lal.inclination, lal.turn))
}

impl PrecessingSource<f64> {
    /// The binary of component masses `mass_1` ≥ `mass_2` (detector frame, M☉) with bilby's
    /// `spins` at the reference frequency of `settings`, seen at `theta_jn` with orbital
    /// `phase` from `distance_mpc`. The frame is integrated from `t_start` (s, relative to the
    /// peak) on, the earliest time the caller will ask for, in `steps` (an analysis fixes them
    /// once, e.g. by [`SmoothSteps::for_binary`]).
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        mass_1: f64,
        mass_2: f64,
        spins: &PrecessingSpins<f64>,
        theta_jn: f64,
        phase: f64,
        distance_mpc: f64,
        settings: &Settings,
        t_start: f64,
        steps: SmoothSteps,
    ) -> Result<Self, SignalError> {
        let (inclination, turn) = view(
            mass_1,
            mass_2,
            spins,
            theta_jn,
            phase,
            distance_mpc,
            settings,
        )?;
        Self::with_view(
            mass_1,
            mass_2,
            spins,
            inclination,
            turn,
            phase,
            distance_mpc,
            settings,
            t_start,
            steps,
        )
    }
}

/// One co-precessing mode's contribution z = c_lm′(t) h^P_lm′(t) to a detector's signal
/// (h = Σ Re z) with its derivatives.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComponentGradient {
    /// z.
    pub value: Complex64,
    /// ∂z/∂ of each of [`SOURCE_PARAMETERS`].
    pub d_source: [Complex64; VIEW_DIRECTIONS],
    /// ∂z/∂t, t the time relative to the peak.
    pub d_time: Complex64,
    /// ∂z/∂K and ∂z/∂conj(K): dz = (∂z/∂K) dK + (∂z/∂conj K) conj(dK) for K = F₊ + iF×.
    pub d_antenna: [Complex64; 2],
}

/// The adjoint of a function F of a detector's terms: with dF = Re Σ_b w_b dz_b over terms z_b
/// ([`ComponentGradient`]) and their weights w_b, the sums by which the parts of the terms'
/// gradients enter, turned into F's gradient in the parameters by [`Self::add_to`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComponentAdjoint {
    /// Σ Re[w z]: the distance's part, as z ∝ 1/D.
    value: f64,
    source: [f64; VIEW_DIRECTIONS],
    time: f64,
    antenna: [Complex64; 2],
}

impl ComponentAdjoint {
    /// Adds term `z` with weight `w`.
    pub fn add(&mut self, w: Complex64, z: &ComponentGradient) {
        self.value += (w * z.value).re;
        for (sum, d) in self.source.iter_mut().zip(&z.d_source) {
            *sum += (w * d).re;
        }
        self.time += (w * z.d_time).re;
        self.antenna[0] += w * z.d_antenna[0];
        self.antenna[1] += w * z.d_antenna[1];
    }

    /// Adds F's gradient at `p` to `gradient`, for terms taken at t = t_b − t_c − τ_k (fixed
    /// sample times t_b) in a detector with antenna patterns and delay `detector`: through the
    /// source, the distance, K = F₊ + iF× and the time.
    pub fn add_to(
        &self,
        detector: &AntennaGradient,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
    ) {
        for (sum, parameter) in self.source.iter().zip(SOURCE_PARAMETERS) {
            gradient[parameter] += sum;
        }
        gradient[Parameter::LuminosityDistance] -= self.value / p.luminosity_distance;
        for parameter in Parameter::ALL {
            let dk = detector.d_antenna[parameter];
            let through_antenna = (self.antenna[0] * dk + self.antenna[1] * dk.conj()).re;
            let moves_time = arrival_derivative(parameter, &detector.d_delay);
            gradient[parameter] += through_antenna - self.time * moves_time;
        }
    }
}

/// A precessing source with what the gradient of its signal needs: the set-up in dual numbers
/// over its seven parameters (and the time, at evaluation), and ι and ψ′ with their derivatives
/// in every parameter of the source (docs/precession.md §12.4). The distance enters as 1/D.
#[derive(Clone, Debug)]
pub struct PrecessingGradientSource {
    source: PrecessingSource<Dual<SETUP_DIRECTIONS>>,
    inclination: Dual<VIEW_DIRECTIONS>,
    turn: Dual<VIEW_DIRECTIONS>,
    /// ∂₋₂Y_lm/∂ι and ∂₋₂Y_lm/∂φ_ref at the view.
    harmonics_d_inclination: Harmonics<f64>,
    harmonics_d_azimuth: Harmonics<f64>,
}

impl PrecessingGradientSource {
    /// The source of [`PrecessingSource::new`] for `p` (its precessing spins; chi_1 and chi_2
    /// play no part), the frame integrated from `t_start` (s, relative to the peak) in `steps`.
    pub fn new(
        p: &BbhParameters,
        settings: &Settings,
        t_start: f64,
        steps: SmoothSteps,
    ) -> Result<Self, SignalError> {
        let values = p.to_array();
        let seeded = SOURCE_PARAMETERS.map(|parameter| values[parameter]);
        let (phase, distance_mpc) = (p.phase, p.luminosity_distance);
        let view_seeds: [Dual<VIEW_DIRECTIONS>; VIEW_DIRECTIONS] =
            std::array::from_fn(|k| Dual::variable(seeded[k], k));
        let [mc_v, q_v, a_1v, a_2v, tilt_1v, tilt_2v, phi_12v, phi_jlv, theta_jnv, phase_v] =
            view_seeds;
        let (mass_1v, mass_2v) = component_masses(mc_v, q_v);
        let view_spins = PrecessingSpins {
            a_1: a_1v,
            a_2: a_2v,
            tilt_1: tilt_1v,
            tilt_2: tilt_2v,
            phi_12: phi_12v,
            phi_jl: phi_jlv,
        };
        let (inclination, turn) = view(
            mass_1v,
            mass_2v,
            &view_spins,
            theta_jnv,
            phase_v,
            distance_mpc,
            settings,
        )?;
        let setup: [Dual<SETUP_DIRECTIONS>; SETUP_PARAMETERS.len()] =
            std::array::from_fn(|k| Dual::variable(seeded[k], k));
        let (mass_1, mass_2) = component_masses(setup[0], setup[1]);
        let setup_spins = PrecessingSpins {
            a_1: setup[2],
            a_2: setup[3],
            tilt_1: setup[4],
            tilt_2: setup[5],
            phi_12: setup[6],
            phi_jl: Dual::from(p.phi_jl),
        };
        let source = PrecessingSource::with_view(
            mass_1,
            mass_2,
            &setup_spins,
            inclination.re,
            turn.re,
            phase,
            distance_mpc,
            settings,
            t_start,
            steps,
        )?;
        let harmonics_d_inclination =
            Harmonics::inclination_derivative(inclination.re, phase + turn.re);
        Ok(Self {
            harmonics_d_azimuth: source.harmonics.phase_derivative(),
            source,
            inclination,
            turn,
            harmonics_d_inclination,
        })
    }

    /// Each co-precessing mode's contribution to the signal of a detector with antenna
    /// patterns `antenna` = F₊ + iF× at `t` (s, relative to the peak), with its gradient, for
    /// the modes `wanted` (the others zero).
    ///
    /// The set-up's dual numbers give the direct derivatives in its seven parameters and in t;
    /// the view's enter by the chain rule through ι (the harmonics), the harmonics' azimuth
    /// φ + ψ′, and the turn e^(im′ψ′) (docs/precession.md §12.4).
    pub fn components(
        &self,
        antenna: Complex64,
        t: f64,
        wanted: &ModeSelection,
    ) -> [ComponentGradient; COPRECESSING_MODES] {
        let source = &self.source;
        let t = Dual::variable(t, TIME_DIRECTION);
        let (sums, [sums_d_inclination, sums_d_azimuth]) =
            source.model.projection_sums_through_frame(
                t,
                &source.harmonics,
                [&self.harmonics_d_inclination, &self.harmonics_d_azimuth],
                wanted,
            );
        let modes = source.model.coprecessing().selected_modes_at(t, wanted);
        std::array::from_fn(|j| {
            if !wanted[j] {
                return ComponentGradient::default();
            }
            let p = parity(j);
            let turn = source.turns[j];
            let h = modes[j];
            let z = mul(
                mul(
                    (Dual::from(turn.re), Dual::from(turn.im)),
                    bracket(antenna, sums[j], p),
                ),
                h,
            );
            let value = value_of(z);
            let h = value_of(h);
            let at = |s: [Complex<f64>; 2]| turn * value_of(bracket(antenna, s, p)) * h;
            let (z_inclination, z_azimuth) = (at(sums_d_inclination[j]), at(sums_d_azimuth[j]));
            let z_turn = Complex64::new(0.0, f64::from(Mode::ALL[j].lm().1)) * value;
            let d_source = std::array::from_fn(|k| {
                let direct = if k < SETUP_PARAMETERS.len() {
                    Complex64::new(z.0.eps[k], z.1.eps[k])
                } else {
                    Complex64::new(0.0, 0.0)
                };
                let d_turn = self.turn.eps[k];
                let d_azimuth = d_turn + if k == PHASE_DIRECTION { 1.0 } else { 0.0 };
                direct
                    + z_inclination * self.inclination.eps[k]
                    + z_azimuth * d_azimuth
                    + z_turn * d_turn
            });
            let [a, b] = sums[j];
            ComponentGradient {
                value,
                d_source,
                d_time: Complex64::new(z.0.eps[TIME_DIRECTION], z.1.eps[TIME_DIRECTION]),
                d_antenna: [turn * value_of(a) * h, turn * p * value_of(b).conj() * h],
            }
        })
    }
}
