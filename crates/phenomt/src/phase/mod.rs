//! Frequency and phase of the (2,2) mode: inspiral (TaylorT3 plus six pseudo-PN terms), merger
//! (asinh ansatz) and ringdown (Damour–Nagar), with the collocation solves that fix them.
//!
//! Equations: Estellés et al., arXiv:2012.11923 (IMRPhenomTHM) eqs. 9–11 (inspiral), 24–30
//! (merger and ringdown); TaylorT3 coefficients from arXiv:2004.08302 App. A1; ringdown form from
//! Damour & Nagar, arXiv:1406.0401 eq. 5 (docs/imrphenomt.md §5).
//! Times are in units of the total mass M, frequencies are angular 22-mode frequencies in rad/M.
//!
//! This file holds the binary's variables and the coefficients' layout; the rest, by concept:
//!
//! - `setup.rs`: the collocation solves that fix the coefficients, in LAL's operation order
//!   (`IMRPhenomTSetPhase22Coefficients`), with LAL's finite-difference slopes or exact ones
//!   (§5.2–5.5, §8.2);
//! - `ansatz.rs`: each region's frequency and phase as LAL writes them, which the set-up and the
//!   root finder use (§5, §3.1);
//! - `evaluation.rs`: frequency and phase at any time for evaluation, one region at a time
//!   sharing transcendental functions, also on lanes (§7.3, §7.4);
//! - `adjoint.rs`: their reverse mode (§9.3).

mod adjoint;
mod ansatz;
mod evaluation;
mod setup;

use crate::fits::{self, FitInputs, FitPowers};
use crate::gsl;
use crate::ringdown::RingdownPhase;
use crate::scalar::Real;

/// Mass and spin variables of the set-up (LAL's `IMRPhenomTWaveformStruct`, geometric part).
#[derive(Clone, Copy, Debug)]
pub struct BinaryVariables<T> {
    /// Symmetric mass ratio η.
    pub eta: T,
    /// δ = (m1 − m2)/M with m1 ≥ m2.
    pub delta: T,
    /// Aligned spin of the heavier body.
    pub chi1: T,
    /// Aligned spin of the lighter body.
    pub chi2: T,
    /// Final mass in units of M.
    pub final_mass: T,
    /// Final dimensionless spin.
    pub final_spin: T,
    /// The final spin of the higher modes' ringdown (LAL's `afinal_prec`): `final_spin` for
    /// IMRPhenomTHM, the precessing final spin for IMRPhenomTPHM's co-precessing modes
    /// (docs/precession.md §2.2).
    pub ringdown_final_spin: T,
    /// The arguments of the parameter-space fits, (η, Ŝ, Δχ, δ), with their powers.
    pub fits: FitPowers<T>,
}

impl<T: Real> BinaryVariables<T> {
    /// From component masses (any unit, m1 ≥ m2) and aligned spins, as
    /// `IMRPhenomTSetWaveformVariables` computes them.
    pub fn new(m1: T, m2: T, chi1: T, chi2: T) -> Self {
        let delta = ((m1 - m2) / (m1 + m2)).abs();
        let mut eta = ((-(delta * delta - 1.0)) * 0.25).abs();
        if eta.re() > 0.25 {
            eta = T::from(0.25);
        }
        let (m1, m2) = (m1 / (m1 + m2), m2 / (m1 + m2));
        let final_spin = fits::final_spin_2017(eta, delta, chi1, chi2);
        Self {
            eta,
            delta,
            chi1,
            chi2,
            final_mass: fits::final_mass_2017(eta, delta, chi1, chi2),
            final_spin,
            ringdown_final_spin: final_spin,
            fits: FitPowers::new(FitInputs {
                eta,
                s: (m1 * m1 * chi1 + m2 * m2 * chi2) / (m1 * m1 + m2 * m2),
                dchi: chi1 - chi2,
                delta,
            }),
        }
    }
}

/// Coefficients of the 22 frequency and phase (LAL's `IMRPhenomTPhase22Struct`). With `f64`
/// the same layout also holds the coefficients' adjoints (reverse-mode derivatives).
#[derive(Clone, Copy, Debug, Default)]
pub struct Phase22<T> {
    pub eta: T,
    /// TaylorT3 coefficients at 1, 1.5, 2, 2.5, 3 and 3.5PN.
    pn: [T; 6],
    /// Pseudo-PN coefficients of θ⁸ … θ¹³.
    insp_c: [T; 6],
    /// Fitted TaylorT3 t0 (used only by the start-time root finder, as in LAL).
    pub tt0: T,
    /// Start of the late inspiral, θ = 0.33.
    pub t_early: T,
    /// Inspiral–merger boundary, θ = 0.81.
    pub t_cut: T,
    /// Sampling interval in units of M: LAL switches to the merger one sample before `t_cut`.
    pub dt_m: T,
    pub omega_ring: T,
    pub alpha1: T,
    pub omega_peak: T,
    /// Rescaled frequency slope at the peak, ω̄'(0).
    domega_peak: T,
    merger_c: [T; 3],
    rd_c1: T,
    rd_c2: T,
    rd_c3: T,
    ph_off_merger: T,
    ph_off_rd: T,
    /// Evaluation only: the pseudo-PN phase coefficients c_k/(k + 3), k = 0…5.
    phase_pseudo: [T; 6],
    /// Evaluation only: the inspiral phase's factor 10/η.
    phase_scale: T,
    /// Evaluation only: the merger's F = 1 − ω_peak/ω_RING, k = ω̄'(0)/α₁ and 1/α₁.
    merger_f: T,
    merger_k: T,
    inv_alpha1: T,
}

/// The merger's rescaled frequency ω̄ = 1 − ω/ω_RING = F + (ω̄'_peak/α₁)u + c1u² + c2u³ + c3u⁴,
/// u = asinh(α₁t), F = 1 − ω_peak/ω_RING (arXiv:2012.11923 eq. 27), as the (2,2) and each higher
/// mode of IMRPhenomTHM have it with their own coefficients (docs/imrphenomt.md §5.3, §12.4).
#[derive(Clone, Copy, Debug)]
pub(crate) struct MergerFrequency<T> {
    pub omega_ring: T,
    pub alpha1: T,
    pub omega_peak: T,
    /// ω̄'(0), the rescaled frequency slope at the peak of |h22|.
    pub domega_peak: T,
    pub c: [T; 3],
}

impl<T: Real> MergerFrequency<T> {
    /// The coefficients c that give ω̄ = `omega_bar_cut` and dω̄/dt = `domega_bar_cut` at
    /// `t_cut`, and ω̄ = `omega_bar_cp` at `t_cp` (eq. 30; LAL's 3×3 LU solve, in its operation
    /// order); `c` is ignored.
    pub fn solve(
        &mut self,
        t_cut: T,
        t_cp: T,
        omega_bar_cut: T,
        omega_bar_cp: T,
        domega_bar_cut: T,
    ) {
        let alpha1 = self.alpha1;
        let fixed = -(self.omega_peak / self.omega_ring - 1.0);
        let row_at = |u: T| [u * u, u * (u * u), u * (u * (u * u))];
        let as_cut = gsl::arcsinh(alpha1 * t_cut);
        let as_cp = gsl::arcsinh(alpha1 * t_cp);
        let den_cut = (t_cut * t_cut * alpha1 * alpha1 + 1.0).sqrt();
        let [u1, u2, u3] = row_at(as_cut);
        let a = [
            [u1, u2, u3],
            row_at(as_cp),
            [
                alpha1 * 2.0 * as_cut / den_cut,
                alpha1 * 3.0 * u1 / den_cut,
                alpha1 * 4.0 * u2 / den_cut,
            ],
        ];
        let b = [
            omega_bar_cut - fixed - self.domega_peak / alpha1 * as_cut,
            omega_bar_cp - fixed - self.domega_peak / alpha1 * as_cp,
            domega_bar_cut - self.domega_peak / den_cut,
        ];
        self.c = gsl::lu_solve(a, b);
    }

    /// The phase, the antiderivative of ω with no constant (`IMRPhenomTMergerPhaseAnsatz22`
    /// before its offset), written with u = asinh(α₁t) and R = √(1 + α₁²t²).
    pub fn phase(&self, t: T) -> T {
        let a = self.alpha1;
        let u = gsl::arcsinh(a * t);
        let r = (a * a * t * t + 1.0).sqrt();
        let (u2, u3) = (u * u, u * u * u);
        let [c1, c2, c3] = self.c;
        let integral = -(self.omega_peak / self.omega_ring - 1.0) * t
            + self.domega_peak / a * (t * u - r / a)
            + c1 * (t * u2 - u * r * 2.0 / a + t * 2.0)
            + c2 * (t * u3 - u2 * r * 3.0 / a + t * u * 6.0 - r * 6.0 / a)
            + c3 * (t * u3 * u - u3 * r * 4.0 / a + t * u2 * 12.0 - u * r * 24.0 / a + t * 24.0);
        self.omega_ring * t - self.omega_ring * integral
    }
}

#[inline]
fn k<T: Real>(v: f64) -> T {
    T::from(v)
}

/// 107/280, the coefficient of ln θ in the 3PN frequency term.
const LOG_TERM: f64 = 107.0 / 280.0;

impl<T: Real> Phase22<T> {
    /// The ringdown phase with the ringdown frequency `omega_ring` in place of the aligned-spin
    /// one, continuous at the peak (IMRPhenomTPHM's `c1_prec`, `omegaRING_prec`;
    /// docs/precession.md §2.2).
    pub(crate) fn ringdown_phase_with(&self, omega_ring: T) -> RingdownPhase<T> {
        RingdownPhase::new(
            omega_ring,
            self.omega_peak,
            self.rd_c2,
            self.rd_c3,
            self.ph_off_rd,
        )
    }

    /// The same coefficients converted to another scalar through their values (drops
    /// derivatives with respect to the binary's parameters).
    pub fn values_as<U: Real>(&self) -> Phase22<U> {
        self.map(|x| U::from(x.re()))
    }

    /// Every coefficient, in a fixed order (pairs values with adjoints).
    pub fn fields(&self) -> [T; 39] {
        let [p0, p1, p2, p3, p4, p5] = self.pn;
        let [i0, i1, i2, i3, i4, i5] = self.insp_c;
        let [m0, m1, m2] = self.merger_c;
        let [d0, d1, d2, d3, d4, d5] = self.phase_pseudo;
        [
            self.eta,
            p0,
            p1,
            p2,
            p3,
            p4,
            p5,
            i0,
            i1,
            i2,
            i3,
            i4,
            i5,
            self.tt0,
            self.t_early,
            self.t_cut,
            self.dt_m,
            self.omega_ring,
            self.alpha1,
            self.omega_peak,
            self.domega_peak,
            m0,
            m1,
            m2,
            self.rd_c1,
            self.rd_c2,
            self.rd_c3,
            self.ph_off_merger,
            self.ph_off_rd,
            d0,
            d1,
            d2,
            d3,
            d4,
            d5,
            self.phase_scale,
            self.merger_f,
            self.merger_k,
            self.inv_alpha1,
        ]
    }
}

impl<T: Copy> Phase22<T> {
    /// The coefficients mapped by `c`.
    pub(crate) fn map<U>(&self, c: impl Fn(T) -> U) -> Phase22<U> {
        Phase22 {
            eta: c(self.eta),
            pn: self.pn.map(&c),
            insp_c: self.insp_c.map(&c),
            tt0: c(self.tt0),
            t_early: c(self.t_early),
            t_cut: c(self.t_cut),
            dt_m: c(self.dt_m),
            omega_ring: c(self.omega_ring),
            alpha1: c(self.alpha1),
            omega_peak: c(self.omega_peak),
            domega_peak: c(self.domega_peak),
            merger_c: self.merger_c.map(&c),
            rd_c1: c(self.rd_c1),
            rd_c2: c(self.rd_c2),
            rd_c3: c(self.rd_c3),
            ph_off_merger: c(self.ph_off_merger),
            ph_off_rd: c(self.ph_off_rd),
            phase_pseudo: self.phase_pseudo.map(&c),
            phase_scale: c(self.phase_scale),
            merger_f: c(self.merger_f),
            merger_k: c(self.merger_k),
            inv_alpha1: c(self.inv_alpha1),
        }
    }
}
