//! The rotations of IMRPhenomTPHM (docs/precession.md §2.3, §2.5): the Wigner small-d matrices
//! for 2 ≤ l ≤ 5, the time-dependent twist of the co-precessing modes into the J frame, the
//! constant rotation from the J frame into the L0 frame, and h₊ − i h× from the L0 modes.
//!
//! These are the steps of LAL's `PhenomTPHM_RotateModes`, `PhenomTPHM_RotateModes_Global` and
//! `XLALSimAddMode` (`LALSimIMRPhenomTPHM_FrameRotations.c`, `LALSimIMRPhenomTPHM.c`), with the
//! Euler angles as inputs, so that they can be tested apart from the spin ODE that makes the
//! angles (tests/lal_reference_tphm_rotation.rs).
//!
//! **Conventions** (docs/precession.md §2.3):
//! - R = R_z(α) R_y(β) R_z(γ), active rotations, maps the co-precessing axes into the J frame;
//!   β = arccos(cos β) ∈ [0, π].
//! - d^l_{mm'}(β) = ⟨lm|e^(−iβJ_y)|lm'⟩, so d^2_{21}(β) = −2 cos³(β/2) sin(β/2).
//! - The twist, at every sample:
//!   h^J_lm = Σ_m' e^(−imα) d^l_{mm'}(β) e^(−im'γ) h^P_lm'.
//! - The global rotation, with the angles (α₀, β₀, γ₀) of the reference sample:
//!   h^L0_lm = Σ_m' e^(+im'α₀) d^l_{m'm}(β₀) e^(+imγ₀) h^J_lm', the inverse of the twist there. So
//!   at the reference sample the L0 modes are the co-precessing ones.
//! - h₊ − i h× = Σ_{l≤5} Σ_m h^L0_lm ₋₂Y_lm(ι, π/2 − φ_ref) (docs/precession.md §2.5).
//!
//! **Against LAL.** LAL writes each d-matrix out by hand from cos(β/2) and sin(β/2), with β's
//! sign as an argument: +1 for the twist, −1 for the global rotation, which it calls with −α₀ and
//! −γ₀ to get the inverse. Here every entry comes from Wigner's closed-form sum, which equals
//! LAL's to rounding, except the row d^5_{0,±2} of LAL's global rotation: see
//! [`Wigner::LalGlobal`]. LAL's loops also skip a term when the real parts of the accumulator and
//! of the source are both exactly 0 (docs/precession.md §2.3); that drops only terms of
//! identically zero sources, so it is not reproduced.

use std::sync::OnceLock;

use crate::harmonics::spin_weighted_y;
use crate::scalar::{Dual, Real};
use crate::thm::Mode;

/// The largest l of the model's modes: the co-precessing (5,5) mode spreads over every
/// (5, m) under the rotations, and h₊, h× need all of them (docs/precession.md §2.5).
pub const L_MAX: u32 = 5;
/// The number of modes (l, m) with 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l.
const MODE_COUNT: usize = 32;
/// The number of entries d^l_{mm'} with 2 ≤ l ≤ [`L_MAX`].
const WIGNER_COUNT: usize = 276;

/// A complex number as (re, im), as in the rest of the crate.
type Complex<T> = (T, T);

#[inline]
fn mul<T: Real>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

#[inline]
fn conj<T: Real>(a: Complex<T>) -> Complex<T> {
    (a.0, -a.1)
}

#[inline]
fn scale<T: Real>(a: Complex<T>, x: T) -> Complex<T> {
    (a.0 * x, a.1 * x)
}

/// (−1)^l.
fn parity(l: u32) -> f64 {
    if l % 2 == 1 {
        -1.0
    } else {
        1.0
    }
}

/// The position of (l, m) among the modes: l first, then m from −l to l.
fn mode_index(l: u32, m: i32) -> usize {
    assert!(
        (2..=L_MAX).contains(&l) && m.unsigned_abs() <= l,
        "no mode (l, m) = ({l}, {m}) with 2 ≤ l ≤ {L_MAX}, |m| ≤ l"
    );
    (l * l - 4) as usize + (m + l as i32) as usize
}

/// The position of d^l_{mm'}: l first, then m, then m', each from −l to l.
fn wigner_index(l: u32, m: i32, mp: i32) -> usize {
    assert!(
        (2..=L_MAX).contains(&l) && m.unsigned_abs() <= l && mp.unsigned_abs() <= l,
        "no Wigner entry d^{l}_({m},{mp}) with 2 ≤ l ≤ {L_MAX}"
    );
    // Σ (2l' + 1)² over 2 ≤ l' < l.
    let offset = [0, 25, 74, 155][(l - 2) as usize];
    let width = 2 * l as i32 + 1;
    offset + ((m + l as i32) * width + mp + l as i32) as usize
}

/// Every (l, m) in the order of [`mode_index`].
fn all_modes() -> impl Iterator<Item = (u32, i32)> {
    (2..=L_MAX).flat_map(|l| (-(l as i32)..=l as i32).map(move |m| (l, m)))
}

/// One term c·cos^a(β/2)·sin^b(β/2) of Wigner's sum.
#[derive(Clone, Copy, Debug)]
struct Term {
    coefficient: f64,
    cos_power: usize,
    sin_power: usize,
}

/// The terms of every d^l_{mm'}, those of entry i being `terms[starts[i]..starts[i + 1]]`.
struct WignerTable {
    terms: Vec<Term>,
    starts: Vec<usize>,
}

/// Wigner's formula, in the convention d^l_{mm'}(β) = ⟨lm|e^(−iβJ_y)|lm'⟩:
///
///   d^l_{mm'}(β) = Σ_k (−1)^(k+m−m') √((l+m)!(l−m)!(l+m')!(l−m')!)
///                  / ((l+m'−k)! k! (m−m'+k)! (l−m−k)!) · cos^(2l+m'−m−2k)(β/2) sin^(m−m'+2k)(β/2),
///
/// over the k where every factorial's argument is ≥ 0. Each coefficient is a square root of an
/// integer below 2⁵³ over an integer, so it carries at most two roundings.
fn wigner_table() -> &'static WignerTable {
    static TABLE: OnceLock<WignerTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let factorial = |n: i32| (1..=n).map(f64::from).product::<f64>();
        let mut table = WignerTable {
            terms: Vec::new(),
            starts: vec![0],
        };
        for l in 2..=L_MAX as i32 {
            for m in -l..=l {
                for mp in -l..=l {
                    let norm = (factorial(l + m)
                        * factorial(l - m)
                        * factorial(l + mp)
                        * factorial(l - mp))
                    .sqrt();
                    for k in 0.max(mp - m)..=(l + mp).min(l - m) {
                        let sign = if (k + m - mp) % 2 == 0 { 1.0 } else { -1.0 };
                        let denominator = factorial(l + mp - k)
                            * factorial(k)
                            * factorial(m - mp + k)
                            * factorial(l - m - k);
                        table.terms.push(Term {
                            coefficient: sign * norm / denominator,
                            cos_power: (2 * l + mp - m - 2 * k) as usize,
                            sin_power: (m - mp + 2 * k) as usize,
                        });
                    }
                    table.starts.push(table.terms.len());
                }
            }
        }
        debug_assert_eq!(table.starts.len(), WIGNER_COUNT + 1);
        table
    })
}

/// The terms of d^l_{mm'} as (coefficient, power of cos(β/2), power of sin(β/2)), for the
/// Wigner matrices of a rotation given otherwise than by Euler angles (the smooth variant's
/// quaternions, `precession::frame`). Panics unless 2 ≤ l ≤ [`L_MAX`] and |m|, |m'| ≤ l.
pub(crate) fn wigner_terms(l: u32, m: i32, mp: i32) -> impl Iterator<Item = (f64, usize, usize)> {
    let table = wigner_table();
    let index = wigner_index(l, m, mp);
    table.terms[table.starts[index]..table.starts[index + 1]]
        .iter()
        .map(|t| (t.coefficient, t.cos_power, t.sin_power))
}

/// cos(β/2) and sin(β/2) from cos β, for β ∈ [0, π], as LAL takes them
/// (`IMRPhenomTPHM_SetWignerDStruct`): √(|1 ± cos β|/2).
///
/// The derivative of either is infinite where it vanishes (β = 0 or π); a frame given by other
/// means can pass the half angles to [`WignerSmallD::new`] directly.
fn half_angles<T: Real>(cos_beta: T) -> (T, T) {
    (
        ((cos_beta + 1.0).abs() * 0.5).sqrt(),
        ((-cos_beta + 1.0).abs() * 0.5).sqrt(),
    )
}

/// cos^k(β/2) and sin^k(β/2) for 0 ≤ k ≤ 2·[`L_MAX`], by repeated multiplication as LAL.
struct HalfAnglePowers<T> {
    cos: [T; 2 * L_MAX as usize + 1],
    sin: [T; 2 * L_MAX as usize + 1],
}

impl<T: Real> HalfAnglePowers<T> {
    fn new(cos_half: T, sin_half: T) -> Self {
        let powers = |x: T| {
            let mut p = [T::from(1.0); 2 * L_MAX as usize + 1];
            for k in 1..p.len() {
                p[k] = p[k - 1] * x;
            }
            p
        };
        Self {
            cos: powers(cos_half),
            sin: powers(sin_half),
        }
    }

    /// The entry at `index` ([`wigner_index`]).
    fn entry(&self, index: usize) -> T {
        let table = wigner_table();
        table.terms[table.starts[index]..table.starts[index + 1]]
            .iter()
            .fold(T::from(0.0), |sum, t| {
                sum + self.cos[t.cos_power] * self.sin[t.sin_power] * t.coefficient
            })
    }

    /// d^l_{mm'}(β).
    fn d(&self, l: u32, m: i32, mp: i32) -> T {
        self.entry(wigner_index(l, m, mp))
    }
}

/// Which values the Wigner matrices take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wigner {
    /// The exact matrices: the default, for anything that is not compared with LAL to rounding.
    #[default]
    Exact,
    /// The matrices of LAL's global rotation (`IMRPhenomTPHM_SetWignerDStruct` with
    /// `globalRot = 1`), whose d^5_{0,±2}(β) carries the factor √52.2 where the exact value has
    /// √52.5 (docs/precession.md §2.3). This moves the L0 modes
    /// (5, ±2), and h₊, h× with them, by up to 4e-6 of max|h22|. LAL's time-dependent twist
    /// never reads that row. For LAL parity only.
    LalGlobal,
}

/// LAL's d^5_{0,±2} over the exact one: √52.2/√52.5.
fn lal_typo_factor() -> f64 {
    52.2_f64.sqrt() / 52.5_f64.sqrt()
}

/// The Wigner small-d matrices d^l_{mm'}(β) = ⟨lm|e^(−iβJ_y)|lm'⟩ for every 2 ≤ l ≤ [`L_MAX`]
/// and |m|, |m'| ≤ l, from Wigner's closed-form sum in powers of cos(β/2) and sin(β/2).
#[derive(Clone, Debug)]
pub struct WignerSmallD<T> {
    values: [T; WIGNER_COUNT],
}

impl<T: Real> WignerSmallD<T> {
    /// The matrices at the angle β with cos(β/2) = `cos_half` and sin(β/2) = `sin_half`.
    pub fn new(cos_half: T, sin_half: T, wigner: Wigner) -> Self {
        let powers = HalfAnglePowers::new(cos_half, sin_half);
        let mut values = std::array::from_fn(|i| powers.entry(i));
        if wigner == Wigner::LalGlobal {
            for mp in [-2, 2] {
                values[wigner_index(5, 0, mp)] *= T::from(lal_typo_factor());
            }
        }
        Self { values }
    }

    /// The matrices at β = arccos(`cos_beta`) ∈ [0, π], as LAL computes the half angles.
    pub fn from_cos_beta(cos_beta: T, wigner: Wigner) -> Self {
        let (cos_half, sin_half) = half_angles(cos_beta);
        Self::new(cos_half, sin_half, wigner)
    }

    /// d^l_{mm'}(β). Panics unless 2 ≤ l ≤ [`L_MAX`] and |m|, |m'| ≤ l.
    pub fn get(&self, l: u32, m: i32, mp: i32) -> T {
        self.values[wigner_index(l, m, mp)]
    }
}

/// The Euler angles of the co-precessing frame in the J frame at one sample:
/// R = R_z(α) R_y(β) R_z(γ) (docs/precession.md §2.3), with β ∈ [0, π] given by its cosine, as
/// LAL's `_CoprecModes` returns the angles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EulerAngles<T> {
    pub alpha: T,
    pub cos_beta: T,
    pub gamma: T,
}

/// e^(−ikθ) for 0 ≤ k ≤ [`L_MAX`], by repeated multiplication of e^(−iθ) (as LAL).
fn phase_powers<T: Real>(theta: T) -> [Complex<T>; L_MAX as usize + 1] {
    let (sin, cos) = theta.sin_cos();
    let mut p = [(T::from(1.0), T::from(0.0)); L_MAX as usize + 1];
    for k in 1..p.len() {
        p[k] = mul(p[k - 1], (cos, -sin));
    }
    p
}

/// e^(−imθ) from [`phase_powers`] of θ, for |m| ≤ [`L_MAX`].
fn phase<T: Real>(powers: &[Complex<T>; L_MAX as usize + 1], m: i32) -> Complex<T> {
    let p = powers[m.unsigned_abs() as usize];
    if m < 0 {
        conj(p)
    } else {
        p
    }
}

/// Every mode h_lm with 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l at one sample, in one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct SphericalModes<T> {
    values: [Complex<T>; MODE_COUNT],
}

impl<T: Real> SphericalModes<T> {
    /// Every mode zero.
    pub fn zero() -> Self {
        Self {
            values: [(T::from(0.0), T::from(0.0)); MODE_COUNT],
        }
    }

    /// h_lm as (re, im). Panics unless 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l.
    pub fn get(&self, l: u32, m: i32) -> (T, T) {
        self.values[mode_index(l, m)]
    }

    /// Adds `value` to h_lm. Panics unless 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l.
    pub(crate) fn add(&mut self, l: u32, m: i32, value: (T, T)) {
        let slot = &mut self.values[mode_index(l, m)];
        slot.0 += value.0;
        slot.1 += value.1;
    }

    /// Every (l, m, h_lm), l from 2 to [`L_MAX`], then m from −l to l.
    pub fn iter(&self) -> impl Iterator<Item = (u32, i32, (T, T))> + '_ {
        all_modes().zip(&self.values).map(|((l, m), &h)| (l, m, h))
    }

    /// h₊ and h× = `scale`·(Re, −Im) of Σ_{l,m} h_lm ₋₂Y_lm(ι, π/2 − φ_ref), as LAL's
    /// `XLALSimAddMode` sums the L0 modes (docs/precession.md §2.5), with the harmonics of
    /// [`Harmonics::new`]. LAL's modes already carry the 1/distance of the strain, so `scale` is 1
    /// for them; the crate's modes are for a source at 1 Mpc (see
    /// [`crate::IMRPhenomTHM::modes_at`]), so `scale` is 1/distance in Mpc for them.
    pub fn polarizations(&self, harmonics: &Harmonics<T>, scale: T) -> (T, T) {
        let (mut re, mut im) = (T::from(0.0), T::from(0.0));
        for (&h, &y) in self.values.iter().zip(&harmonics.values) {
            let hy = mul(h, y);
            re += hy.0;
            im += hy.1;
        }
        (re * scale, -(im * scale))
    }
}

/// The twist of the co-precessing modes into the J frame at one sample (docs/precession.md
/// §2.3): h^J_lm = Σ_m' e^(−imα) d^l_{mm'}(β) e^(−im'γ) h^P_lm', with the exact d.
///
/// `coprecessing[j]` is h^P of `modes[j]` (m' > 0), as [`crate::IMRPhenomTHM::modes_at`] returns
/// them; each brings its partner h^P_{l,−m'} = (−1)^l conj(h^P_lm') (docs/precession.md §2.2).
/// Every other co-precessing mode is zero. Panics unless the two slices have the same length.
pub fn twist<T: Real>(
    modes: &[Mode],
    coprecessing: &[(T, T)],
    angles: &EulerAngles<T>,
) -> SphericalModes<T> {
    assert_eq!(
        modes.len(),
        coprecessing.len(),
        "one co-precessing value per mode"
    );
    let (cos_half, sin_half) = half_angles(angles.cos_beta);
    let d = HalfAnglePowers::new(cos_half, sin_half);
    let alpha = phase_powers(angles.alpha);
    let gamma = phase_powers(angles.gamma);
    let mut out = SphericalModes::zero();
    for (&mode, &h) in modes.iter().zip(coprecessing) {
        let (l, mp) = mode.lm();
        let mp = mp as i32;
        // e^(−im'γ) h^P_lm', and for −m': e^(+im'γ) h^P_{l,−m'} = (−1)^l conj(e^(−im'γ) h^P_lm').
        let plus = mul(phase(&gamma, mp), h);
        let minus = scale(conj(plus), T::from(parity(l)));
        for m in -(l as i32)..=l as i32 {
            let (d_plus, d_minus) = (d.d(l, m, mp), d.d(l, m, -mp));
            let sum = (
                plus.0 * d_plus + minus.0 * d_minus,
                plus.1 * d_plus + minus.1 * d_minus,
            );
            let rotated = mul(phase(&alpha, m), sum);
            let slot = &mut out.values[mode_index(l, m)];
            slot.0 += rotated.0;
            slot.1 += rotated.1;
        }
    }
    out
}

/// The constant rotation from the J frame into the L0 frame (docs/precession.md §2.3, §2.4):
/// h^L0_lm = Σ_m' e^(+im'α₀) d^l_{m'm}(β₀) e^(+imγ₀) h^J_lm', the inverse of the twist with the
/// angles of the reference sample.
#[derive(Clone, Debug)]
pub struct GlobalRotation<T> {
    /// e^(+im'α₀) d^l_{m'm}(β₀) e^(+imγ₀) at [`wigner_index`]`(l, m', m)`.
    matrix: [Complex<T>; WIGNER_COUNT],
}

impl<T: Real> GlobalRotation<T> {
    /// The rotation for the angles `reference` of the reference sample (LAL: the sample
    /// iref = ⌊(t_ref − t_min)/Δt_M⌋, docs/precession.md §2.5), with the d-matrices `wigner`.
    pub fn new(reference: &EulerAngles<T>, wigner: Wigner) -> Self {
        let d = WignerSmallD::from_cos_beta(reference.cos_beta, wigner);
        let alpha = phase_powers(reference.alpha);
        let gamma = phase_powers(reference.gamma);
        let mut matrix = [(T::from(0.0), T::from(0.0)); WIGNER_COUNT];
        for l in 2..=L_MAX {
            let l_signed = l as i32;
            for mp in -l_signed..=l_signed {
                for m in -l_signed..=l_signed {
                    // e^(+ikθ) is e^(−ikθ) at −k.
                    let phases = mul(phase(&alpha, -mp), phase(&gamma, -m));
                    matrix[wigner_index(l, mp, m)] = scale(phases, d.get(l, mp, m));
                }
            }
        }
        Self { matrix }
    }

    /// The L0-frame modes of the J-frame modes `j`.
    pub fn apply(&self, j: &SphericalModes<T>) -> SphericalModes<T> {
        let mut out = SphericalModes::zero();
        for (l, m) in all_modes() {
            let l_signed = l as i32;
            let slot = &mut out.values[mode_index(l, m)];
            for mp in -l_signed..=l_signed {
                let term = mul(
                    j.values[mode_index(l, mp)],
                    self.matrix[wigner_index(l, mp, m)],
                );
                slot.0 += term.0;
                slot.1 += term.1;
            }
        }
        out
    }
}

/// The L0-frame modes at every sample k: the twist with `angles[k]`, then the global rotation
/// with `angles[reference]` and the d-matrices `wigner` (docs/precession.md §2.3).
///
/// `coprecessing[j][k]` is h^P of `modes[j]` (m' > 0) at sample k, as
/// [`crate::IMRPhenomTHM::modes_on_grid`] returns them. Panics unless there is one series per
/// mode, each as long as `angles`, and `reference` is a sample.
pub fn l0_modes<T: Real>(
    modes: &[Mode],
    coprecessing: &[Vec<(T, T)>],
    angles: &[EulerAngles<T>],
    reference: usize,
    wigner: Wigner,
) -> Vec<SphericalModes<T>> {
    assert_eq!(modes.len(), coprecessing.len(), "one series per mode");
    assert!(
        coprecessing
            .iter()
            .all(|series| series.len() == angles.len()),
        "every series as long as the angles"
    );
    let global = GlobalRotation::new(&angles[reference], wigner);
    let mut sample = Vec::with_capacity(modes.len());
    angles
        .iter()
        .enumerate()
        .map(|(k, a)| {
            sample.clear();
            sample.extend(coprecessing.iter().map(|series| series[k]));
            global.apply(&twist(modes, &sample, a))
        })
        .collect()
}

/// ₋₂Y_lm(ι, π/2 − φ_ref) for every 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l: the harmonics of LAL's
/// polarisations (docs/precession.md §2.5), in LAL's convention
/// (`XLALSpinWeightedSphericalHarmonic`).
#[derive(Clone, Debug)]
pub struct Harmonics<T> {
    values: [Complex<T>; MODE_COUNT],
}

impl<T: Real> Harmonics<T> {
    /// The harmonics for the inclination `inclination` and the reference phase `phi_ref` (rad).
    pub fn new(inclination: T, phi_ref: T) -> Self {
        let azimuth = -(phi_ref - std::f64::consts::PI / 2.0);
        let mut values = [(T::from(0.0), T::from(0.0)); MODE_COUNT];
        for ((l, m), y) in all_modes().zip(&mut values) {
            *y = spin_weighted_y(l, m, inclination, azimuth);
        }
        Self { values }
    }

    /// ₋₂Y_lm as (re, im). Panics unless 2 ≤ l ≤ [`L_MAX`] and |m| ≤ l.
    pub fn get(&self, l: u32, m: i32) -> (T, T) {
        self.values[mode_index(l, m)]
    }

    /// ∂/∂φ_ref of every harmonic: −im ₋₂Y_lm, since ₋₂Y_lm ∝ e^(im(π/2 − φ_ref)).
    pub fn phase_derivative(&self) -> Self {
        let mut values = self.values;
        for ((_, m), y) in all_modes().zip(&mut values) {
            let m = f64::from(m);
            *y = (y.1 * m, -(y.0 * m));
        }
        Self { values }
    }
}

impl Harmonics<f64> {
    /// ∂/∂ι of the harmonics of [`Harmonics::new`].
    pub fn inclination_derivative(inclination: f64, phi_ref: f64) -> Self {
        let seeded = Harmonics::new(Dual::<1>::variable(inclination, 0), Dual::from(phi_ref));
        Self {
            values: seeded.values.map(|(re, im)| (re.eps[0], im.eps[0])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Dual;
    use crate::{IMRPhenomTHM, Settings};

    /// Angles over [0, π], the ends and points near them included.
    const BETAS: [f64; 8] = [
        0.0,
        1e-6,
        0.3,
        1.0,
        std::f64::consts::FRAC_PI_2,
        2.2,
        3.1,
        std::f64::consts::PI,
    ];

    fn wigner_at(beta: f64, wigner: Wigner) -> WignerSmallD<f64> {
        WignerSmallD::new((beta / 2.0).cos(), (beta / 2.0).sin(), wigner)
    }

    /// Σ_m' d^l_{mm'} d^l_{m''m'} = δ_{mm''}: each d^l is a real orthogonal matrix.
    #[test]
    fn wigner_d_is_orthogonal() {
        let mut worst = 0.0_f64;
        for beta in BETAS {
            let d = wigner_at(beta, Wigner::Exact);
            for l in 2..=L_MAX {
                let range = -(l as i32)..=l as i32;
                for m in range.clone() {
                    for m2 in range.clone() {
                        let dot: f64 = range
                            .clone()
                            .map(|mp| d.get(l, m, mp) * d.get(l, m2, mp))
                            .sum();
                        let expected = if m == m2 { 1.0 } else { 0.0 };
                        worst = worst.max((dot - expected).abs());
                    }
                }
            }
        }
        println!("worst deviation from orthogonality: {worst:.1e}");
        assert!(worst < 1e-14, "{worst:e}");
    }

    /// The l = 2 closed forms in this convention, one of LAL's hand-written l = 5 entries,
    /// and the symmetries d_{mm'} = (−1)^(m−m') d_{m'm} = d_{−m',−m}.
    #[test]
    fn wigner_d_has_the_closed_forms() {
        for beta in BETAS {
            let d = wigner_at(beta, Wigner::Exact);
            let (c, s) = ((beta / 2.0).cos(), (beta / 2.0).sin());
            let (cb, sb) = (beta.cos(), beta.sin());
            let expected = [
                (2, 2, 2, c.powi(4)),
                (2, 2, 1, -2.0 * c.powi(3) * s),
                (2, 1, 2, 2.0 * c.powi(3) * s),
                (2, 2, 0, (3.0_f64 / 8.0).sqrt() * sb * sb),
                (2, 2, -1, -2.0 * c * s.powi(3)),
                (2, 2, -2, s.powi(4)),
                (2, 1, 1, (2.0 * cb * cb + cb - 1.0) / 2.0),
                (2, 1, 0, -(1.5_f64).sqrt() * sb * cb),
                (2, 1, -1, (-2.0 * cb * cb + cb + 1.0) / 2.0),
                (2, 0, 0, (3.0 * cb * cb - 1.0) / 2.0),
                // LAL's d55[5] (sign +1) is d^5_{0,5} = 6√7 cos⁵(β/2) sin⁵(β/2).
                (5, 0, 5, 6.0 * 7.0_f64.sqrt() * c.powi(5) * s.powi(5)),
            ];
            for (l, m, mp, value) in expected {
                let ours = d.get(l, m, mp);
                assert!(
                    (ours - value).abs() < 1e-15,
                    "β = {beta}: d^{l}_({m},{mp}) = {ours}, not {value}"
                );
            }
            for l in 2..=L_MAX {
                let range = -(l as i32)..=l as i32;
                for m in range.clone() {
                    for mp in range.clone() {
                        let sign = f64::from(if (m - mp) % 2 == 0 { 1 } else { -1 });
                        let x = d.get(l, m, mp);
                        assert!((x - sign * d.get(l, mp, m)).abs() < 1e-15);
                        assert!((x - d.get(l, -mp, -m)).abs() < 1e-15);
                    }
                }
            }
        }
    }

    /// d^l(0) is the identity and d^l_{mm'}(π) = (−1)^(l+m) δ_{m,−m'}, exactly.
    #[test]
    fn wigner_d_at_the_ends() {
        let zero = WignerSmallD::from_cos_beta(1.0, Wigner::Exact);
        let pi = WignerSmallD::from_cos_beta(-1.0, Wigner::Exact);
        for l in 2..=L_MAX {
            let range = -(l as i32)..=l as i32;
            for m in range.clone() {
                for mp in range.clone() {
                    assert_eq!(zero.get(l, m, mp), if m == mp { 1.0 } else { 0.0 });
                    let flip = if m == -mp {
                        parity(l) * parity(m.unsigned_abs())
                    } else {
                        0.0
                    };
                    assert_eq!(pi.get(l, m, mp), flip, "d^{l}_({m},{mp})(π)");
                }
            }
        }
    }

    /// [`Wigner::LalGlobal`] changes d^5_{0,±2} by √52.2/√52.5 and nothing else.
    #[test]
    fn lal_typo_changes_exactly_its_row() {
        for beta in [0.3, 1.0, 2.2] {
            let exact = wigner_at(beta, Wigner::Exact);
            let lal = wigner_at(beta, Wigner::LalGlobal);
            for l in 2..=L_MAX {
                let range = -(l as i32)..=l as i32;
                for m in range.clone() {
                    for mp in range.clone() {
                        let (x, y) = (exact.get(l, m, mp), lal.get(l, m, mp));
                        if (l, m) == (5, 0) && mp.abs() == 2 {
                            assert!(x.abs() > 1e-3);
                            let ratio = y / x;
                            let expected = (52.2_f64 / 52.5).sqrt();
                            assert!((ratio - expected).abs() < 1e-15, "{ratio} vs {expected}");
                        } else {
                            assert_eq!(x, y, "d^{l}_({m},{mp})");
                        }
                    }
                }
            }
        }
    }

    /// Co-precessing values of every mode, arbitrary but of the model's sizes.
    fn sample_modes() -> Vec<(f64, f64)> {
        vec![
            (0.9, -0.4),
            (0.1, 0.05),
            (-0.07, 0.12),
            (0.02, -0.03),
            (-0.004, 0.008),
        ]
    }

    /// The global rotation with the same angles undoes the twist: the L0 modes are the
    /// co-precessing ones, zero where the model has none (docs/precession.md §2.3).
    #[test]
    fn global_rotation_inverts_the_twist() {
        let h = sample_modes();
        for angles in [
            EulerAngles {
                alpha: -2.0,
                cos_beta: 0.97,
                gamma: 2.0,
            },
            EulerAngles {
                alpha: 0.7,
                cos_beta: -0.3,
                gamma: 5.1,
            },
            EulerAngles {
                alpha: 4.0,
                cos_beta: 0.0,
                gamma: -1.2,
            },
        ] {
            let j = twist(&Mode::ALL, &h, &angles);
            let l0 = GlobalRotation::new(&angles, Wigner::Exact).apply(&j);
            let mut expected = SphericalModes::zero();
            for (&mode, &value) in Mode::ALL.iter().zip(&h) {
                let (l, m) = mode.lm();
                let m = m as i32;
                expected.values[mode_index(l, m)] = value;
                expected.values[mode_index(l, -m)] = scale(conj(value), parity(l));
            }
            for ((l, m, a), (_, _, b)) in l0.iter().zip(expected.iter()) {
                let error = (a.0 - b.0).abs().max((a.1 - b.1).abs());
                assert!(error < 1e-15, "{angles:?}: ({l},{m}) off by {error:e}");
            }
            // The twist is unitary: per l, Σ_m |h^J_lm|² is the co-precessing one.
            for l in 2..=L_MAX {
                let norm = |modes: &SphericalModes<f64>| -> f64 {
                    modes
                        .iter()
                        .filter(|&(k, _, _)| k == l)
                        .map(|(_, _, h)| h.0 * h.0 + h.1 * h.1)
                        .sum()
                };
                let (a, b) = (norm(&j), norm(&expected));
                assert!((a - b).abs() < 4e-15 * b, "{angles:?}, l = {l}: {a} vs {b}");
            }
        }
    }

    /// With the co-precessing frame fixed along J (β = 0, γ = −α), the polarisations are
    /// IMRPhenomTHM's.
    #[test]
    fn aligned_frame_gives_thm_polarizations() {
        let settings = Settings::lal(20.0, 20.0, 1.0 / 4096.0);
        let thm = IMRPhenomTHM::new(36.0, 29.0, 0.3, -0.2, &settings, &Mode::ALL).unwrap();
        let (distance, inclination, phi_ref) = (410.0, 1.1, 0.4);
        let harmonics = Harmonics::new(inclination, phi_ref);
        let angles = EulerAngles {
            alpha: 0.8,
            cos_beta: 1.0,
            gamma: -0.8,
        };
        let global = GlobalRotation::new(
            &EulerAngles {
                alpha: 0.0,
                cos_beta: 1.0,
                gamma: 0.0,
            },
            Wigner::Exact,
        );
        for t in [-0.3, -0.01, 0.0, 0.004] {
            let l0 = global.apply(&twist(&thm.modes(), &thm.modes_at(t), &angles));
            let (hp, hc) = l0.polarizations(&harmonics, 1.0 / distance);
            let (hp_thm, hc_thm) = thm.polarizations(t, distance, inclination, phi_ref);
            let size = hp_thm.hypot(hc_thm);
            assert!(
                (hp - hp_thm).abs() < 1e-14 * size && (hc - hc_thm).abs() < 1e-14 * size,
                "t = {t}: ({hp}, {hc}) vs ({hp_thm}, {hc_thm})"
            );
        }
    }

    /// In dual numbers the values are the f64 ones, bit for bit, and the derivatives with
    /// respect to the angles are those of central differences.
    #[test]
    fn rotations_differentiate() {
        let h = sample_modes();
        let reference = EulerAngles {
            alpha: -0.4,
            cos_beta: 0.8,
            gamma: 0.4,
        };
        let at = |alpha: f64, cos_beta: f64, gamma: f64| {
            let angles = EulerAngles {
                alpha,
                cos_beta,
                gamma,
            };
            GlobalRotation::new(&reference, Wigner::Exact).apply(&twist(&Mode::ALL, &h, &angles))
        };
        let x = [1.3, 0.35, -2.1];
        let dual_reference = EulerAngles {
            alpha: Dual::<3>::constant(reference.alpha),
            cos_beta: Dual::constant(reference.cos_beta),
            gamma: Dual::constant(reference.gamma),
        };
        let dual_angles = EulerAngles {
            alpha: Dual::variable(x[0], 0),
            cos_beta: Dual::variable(x[1], 1),
            gamma: Dual::variable(x[2], 2),
        };
        let dual_h: Vec<(Dual<3>, Dual<3>)> = h
            .iter()
            .map(|&(a, b)| (Dual::constant(a), Dual::constant(b)))
            .collect();
        let dual = GlobalRotation::new(&dual_reference, Wigner::Exact).apply(&twist(
            &Mode::ALL,
            &dual_h,
            &dual_angles,
        ));
        let plain = at(x[0], x[1], x[2]);
        let step = 1e-6;
        for k in 0..3 {
            let (mut up, mut down) = (x, x);
            up[k] += step;
            down[k] -= step;
            let (up, down) = (at(up[0], up[1], up[2]), at(down[0], down[1], down[2]));
            for (i, (l, m, d)) in dual.iter().enumerate() {
                assert_eq!((d.0.re, d.1.re), plain.values[i]);
                for (part, fd) in [
                    (
                        d.0.eps[k],
                        (up.values[i].0 - down.values[i].0) / (2.0 * step),
                    ),
                    (
                        d.1.eps[k],
                        (up.values[i].1 - down.values[i].1) / (2.0 * step),
                    ),
                ] {
                    assert!(
                        (part - fd).abs() < 1e-8,
                        "({l},{m}), angle {k}: {part} vs {fd}"
                    );
                }
            }
        }
    }
}
