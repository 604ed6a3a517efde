//! The extrinsic part of the signal in one detector, in closed form with its gradient.
//!
//! With W the (2,2) mode at 1 Mpc and h2−2 = conj(h22) (aligned spins),
//! h₊ − i h× = (1 Mpc/D)[W ₋₂Y₂₂ + W̄ ₋₂Y₂₋₂] at azimuth π/2 − φ, so that
//! h = F₊h₊ + F×h× = Re[Q W] with
//!
//! Q = (1 Mpc/D) e^(2i(π/2 − φ)) [F₊ (f₂₂ + f₂₋₂) + i F× (f₂₂ − f₂₋₂)],
//!
//! f₂ₘ(θ_jn) the real factors of ₋₂Y₂ₘ (docs/likelihood.md §2.1). A higher mode (l, m > 0)
//! of IMRPhenomTHM, with h_{l,−m} = (−1)^l conj(h_lm), enters alike (docs/likelihood.md §2.3):
//!
//! Q_lm = (1 Mpc/D) e^(im(π/2 − φ)) [F₊ (f_lm + (−1)^l f_{l,−m}) + i F× (f_lm − (−1)^l f_{l,−m})].

use num_complex::Complex64;
use tdpe_detector::time::GMST_RATE_RAD_PER_S;
use tdpe_detector::Detector;
use tdpe_phenomt::Dual;

use crate::params::{BbhParameters, Parameter, NUM_PARAMETERS};

/// What one detector does to the (2,2) mode: h_k(t) = Re[factor · W(t − t_c − delay)].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Q_k, for W at 1 Mpc.
    pub factor: Complex64,
    /// τ_k, arrival time at the detector minus at the geocentre, in s.
    pub delay: f64,
}

/// A [`Projection`] and its derivatives with respect to the parameters (indexed by
/// [`Parameter`]; zero for the intrinsic ones).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProjectionGradient {
    pub value: Projection,
    pub d_factor: [Complex64; NUM_PARAMETERS],
    pub d_delay: [f64; NUM_PARAMETERS],
}

/// Q_k and τ_k of the (2,2) mode with their gradient, for a detector whose sidereal time at
/// t_c = 0 is `gmst0` (GMST is linear in time over a segment: GMST(t_c) = gmst0 + Ω t_c).
pub(crate) fn project(detector: &Detector, gmst0: f64, p: &BbhParameters) -> ProjectionGradient {
    let (y_plus, y_minus) = tdpe_phenomt::y22_factors(p.theta_jn);
    // d f₂,±2/dθ: f₂₂ ∝ (1 + cos θ)², f₂₋₂ ∝ (1 − cos θ)².
    let norm = (5.0 / (64.0 * std::f64::consts::PI)).sqrt();
    let (s, c) = p.theta_jn.sin_cos();
    let harmonics = Harmonics {
        m: 2,
        sum: y_plus + y_minus,
        diff: y_plus - y_minus,
        d_sum: -4.0 * norm * c * s,
        d_diff: -4.0 * norm * s,
    };
    assemble(detector, gmst0, p, &harmonics)
}

/// Q_k,lm and τ_k of mode (l, m > 0) with their gradient ([`project`] for any mode).
pub(crate) fn project_mode(
    detector: &Detector,
    gmst0: f64,
    p: &BbhParameters,
    (l, m): (u32, u32),
) -> ProjectionGradient {
    if (l, m) == (2, 2) {
        return project(detector, gmst0, p);
    }
    let m = m as i32;
    let parity = if l % 2 == 0 { 1.0 } else { -1.0 };
    // f_lm and f_{l,−m} with their θ_jn-derivatives, by a dual number.
    let theta = Dual::<1>::variable(p.theta_jn, 0);
    let plus = tdpe_phenomt::spin_weighted_factor(l, m, theta);
    let minus = tdpe_phenomt::spin_weighted_factor(l, -m, theta) * parity;
    let (sum, diff) = (plus + minus, plus - minus);
    let harmonics = Harmonics {
        m,
        sum: sum.re,
        diff: diff.re,
        d_sum: sum.eps[0],
        d_diff: diff.eps[0],
    };
    assemble(detector, gmst0, p, &harmonics)
}

/// What the inclination does to a mode (l, m): f_lm ± (−1)^l f_{l,−m} and their
/// θ_jn-derivatives.
struct Harmonics {
    m: i32,
    sum: f64,
    diff: f64,
    d_sum: f64,
    d_diff: f64,
}

/// What a detector does to any source: its antenna patterns K = F₊ + iF× and delay τ_k, with
/// their derivatives with respect to the parameters (ψ, ra, dec and, through the sidereal
/// time, geocent_time; zero for the rest).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AntennaGradient {
    /// K = F₊ + iF×.
    pub antenna: Complex64,
    pub d_antenna: [Complex64; NUM_PARAMETERS],
    /// τ_k, arrival time at the detector minus at the geocentre, in s.
    pub delay: f64,
    pub d_delay: [f64; NUM_PARAMETERS],
}

/// ∂(t_c + τ_k)/∂`parameter`: how a parameter moves a detector's arrival time, τ_k's
/// derivatives being `d_delay`. A signal taken at t − t_c − τ_k moves with it.
pub fn arrival_derivative(parameter: Parameter, d_delay: &[f64; NUM_PARAMETERS]) -> f64 {
    let geocentre = if parameter == Parameter::GeocentTime {
        1.0
    } else {
        0.0
    };
    geocentre + d_delay[parameter]
}

/// K and τ of `detector` with their gradient, its sidereal time at t_c = 0 being `gmst0`
/// (GMST is linear in time over a segment: GMST(t_c) = gmst0 + Ω t_c).
pub(crate) fn antenna(detector: &Detector, gmst0: f64, p: &BbhParameters) -> AntennaGradient {
    let gmst = gmst0 + GMST_RATE_RAD_PER_S * p.geocent_time;
    let f = detector.antenna_pattern_derivatives(p.ra, p.dec, p.psi, gmst);
    let tau = detector.time_delay_derivatives(p.ra, p.dec, gmst);
    let k = |a: tdpe_detector::AntennaPattern| Complex64::new(a.plus, a.cross);
    let mut d_antenna = [Complex64::new(0.0, 0.0); NUM_PARAMETERS];
    d_antenna[Parameter::Psi] = k(f.d_psi);
    d_antenna[Parameter::Ra] = k(f.d_ra);
    d_antenna[Parameter::Dec] = k(f.d_dec);
    // The patterns and the delay depend on ra − GMST, and GMST advances with t_c.
    d_antenna[Parameter::GeocentTime] = -k(f.d_ra) * GMST_RATE_RAD_PER_S;
    let mut d_delay = [0.0; NUM_PARAMETERS];
    d_delay[Parameter::Ra] = tau.d_ra;
    d_delay[Parameter::Dec] = tau.d_dec;
    d_delay[Parameter::GeocentTime] = -tau.d_ra * GMST_RATE_RAD_PER_S;
    AntennaGradient {
        antenna: k(f.value),
        d_antenna,
        delay: tau.value,
        d_delay,
    }
}

/// Q and τ with their gradient from the mode's [`Harmonics`].
fn assemble(
    detector: &Detector,
    gmst0: f64,
    p: &BbhParameters,
    y: &Harmonics,
) -> ProjectionGradient {
    let a = antenna(detector, gmst0, p);
    let (sum, diff) = (y.sum, y.diff);
    let m = f64::from(y.m);

    // e^(im(π/2 − φ))/D = i^m e^(−imφ)/D, with i^m exact.
    let i_m = [
        Complex64::new(1.0, 0.0),
        Complex64::new(0.0, 1.0),
        Complex64::new(-1.0, 0.0),
        Complex64::new(0.0, -1.0),
    ][y.m.rem_euclid(4) as usize];
    let prefactor = i_m * Complex64::from_polar(1.0, -m * p.phase) / p.luminosity_distance;
    let bracket = |k: Complex64, a: f64, b: f64| prefactor * Complex64::new(k.re * a, k.im * b);
    let factor = bracket(a.antenna, sum, diff);

    let mut d_factor = a.d_antenna.map(|dk| bracket(dk, sum, diff));
    d_factor[Parameter::LuminosityDistance] = -factor / p.luminosity_distance;
    d_factor[Parameter::Phase] = Complex64::new(0.0, -m) * factor;
    d_factor[Parameter::ThetaJn] = bracket(a.antenna, y.d_sum, y.d_diff);
    // −Ω ∂Q/∂ra: the bracket of ∂K/∂t_c in value, in the rounding aligned-spin runs have.
    d_factor[Parameter::GeocentTime] = -d_factor[Parameter::Ra] * GMST_RATE_RAD_PER_S;

    ProjectionGradient {
        value: Projection {
            factor,
            delay: a.delay,
        },
        d_factor,
        d_delay: a.d_delay,
    }
}
