//! The modes of IMRPhenomTHM and what each higher mode takes from the fits: its quasi-normal
//! modes, collocation values and peak time, and its complex PN inspiral amplitude
//! (docs/imrphenomt.md §12.1, §12.2).
//!
//! The PN amplitudes are those of Estellés et al., arXiv:2012.11923 App. A (eqs. A2–A5, from
//! Blanchet et al. 2008, Buonanno et al. 2013 and Arun et al. 2008), after the constant rotation
//! of its eq. 13 that makes them mostly real ([`HigherMode::phase_offset`] undoes it); they are
//! written term for term as LAL's `IMRPhenomTSetHMAmplitudeCoefficients` writes them.

use std::f64::consts::PI;

use crate::fits::{self, FitArgs};
use crate::phase::BinaryVariables;
use crate::scalar::Real;

/// A mode (l, m > 0) of IMRPhenomTHM; m < 0 follows from h_{l,−m} = (−1)^l conj(h_{lm}).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    L2M2,
    L2M1,
    L3M3,
    L4M4,
    L5M5,
}

impl Mode {
    /// Every mode of the model, in LAL's order.
    pub const ALL: [Mode; 5] = [Mode::L2M2, Mode::L2M1, Mode::L3M3, Mode::L4M4, Mode::L5M5];

    /// The mode (l, |m|), if the model has it.
    pub fn from_lm(l: u32, m: u32) -> Option<Mode> {
        Mode::ALL.into_iter().find(|mode| mode.lm() == (l, m))
    }

    /// (l, m).
    pub fn lm(self) -> (u32, u32) {
        match self {
            Mode::L2M2 => (2, 2),
            Mode::L2M1 => (2, 1),
            Mode::L3M3 => (3, 3),
            Mode::L4M4 => (4, 4),
            Mode::L5M5 => (5, 5),
        }
    }

    /// The mode as a higher mode, unless it is (2,2).
    pub(crate) fn higher(self) -> Option<HigherMode> {
        match self {
            Mode::L2M2 => None,
            Mode::L2M1 => Some(HigherMode::L2M1),
            Mode::L3M3 => Some(HigherMode::L3M3),
            Mode::L4M4 => Some(HigherMode::L4M4),
            Mode::L5M5 => Some(HigherMode::L5M5),
        }
    }
}

/// A mode other than (2,2): its phase is the (2,2) phase times m/2 in the inspiral and its own
/// after −150 M, and its amplitude is complex in the inspiral.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HigherMode {
    L2M1,
    L3M3,
    L4M4,
    L5M5,
}

impl HigherMode {
    pub fn mode(self) -> Mode {
        match self {
            HigherMode::L2M1 => Mode::L2M1,
            HigherMode::L3M3 => Mode::L3M3,
            HigherMode::L4M4 => Mode::L4M4,
            HigherMode::L5M5 => Mode::L5M5,
        }
    }

    /// m/2, the factor of the (2,2) phase in the mode's inspiral phase.
    pub fn half_m(self) -> f64 {
        f64::from(self.mode().lm().1) / 2.0
    }

    /// The constant rotation of the PN amplitude (arXiv:2012.11923 eq. 13), added back to the
    /// mode's phase.
    pub fn phase_offset(self) -> f64 {
        match self {
            HigherMode::L2M1 => 0.5 * PI,
            HigherMode::L3M3 => -0.5 * PI,
            HigherMode::L4M4 => PI,
            HigherMode::L5M5 => 0.5 * PI,
        }
    }

    /// Whether the mode vanishes identically for this binary: odd m for equal masses and equal
    /// spins, which LAL sets to zero without setting the mode up.
    pub fn vanishes<T: Real>(self, v: &BinaryVariables<T>) -> bool {
        self.mode().lm().1 % 2 == 1 && v.delta.re() < 1e-10 && (v.chi1 - v.chi2).re().abs() < 1e-10
    }
}

/// A mode's fundamental quasi-normal mode and first overtone for a final black hole, in units of
/// the total mass M (LAL: `evaluate_QNMfit_*` over M_f).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Qnm<T> {
    /// Ringdown angular frequency of the fundamental QNM.
    pub omega_ring: T,
    /// Damping rates 2π·f_damp of the fundamental QNM and of its first overtone.
    pub alpha1: T,
    pub alpha2: T,
}

impl<T: Real> Qnm<T> {
    /// The QNMs of `mode` for a final spin `af` and a final mass `mf` (in M).
    pub fn new(mode: HigherMode, af: T, mf: T) -> Self {
        let two_pi = 2.0 * PI;
        let (fring, fdamp, fdamp_n2) = match mode {
            HigherMode::L2M1 => (
                fits::qnm_fring_21(af),
                fits::qnm_fdamp_21(af),
                fits::qnm_fdamp_n2_21(af),
            ),
            HigherMode::L3M3 => (
                fits::qnm_fring_33(af),
                fits::qnm_fdamp_33(af),
                fits::qnm_fdamp_n2_33(af),
            ),
            HigherMode::L4M4 => (
                fits::qnm_fring_44(af),
                fits::qnm_fdamp_44(af),
                fits::qnm_fdamp_n2_44(af),
            ),
            HigherMode::L5M5 => (
                fits::qnm_fring_55(af),
                fits::qnm_fdamp_55(af),
                fits::qnm_fdamp_n2_55(af),
            ),
        };
        // 2π·(f/M_f), as LAL (the product commutes bit for bit).
        Self {
            omega_ring: fring / mf * two_pi,
            alpha1: fdamp / mf * two_pi,
            alpha2: fdamp_n2 / mf * two_pi,
        }
    }
}

/// What a higher mode's set-up takes from the fits, in units of the total mass M (angular
/// frequencies in rad/M). LAL: `LALSimIMRPhenomTHM_fits.c`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModeFits<T> {
    /// The QNMs of the aligned-spin final state, which shape the merger.
    pub qnm: Qnm<T>,
    /// The QNMs that the ringdown's amplitude and phase use: those of the final spin
    /// `BinaryVariables::ringdown_final_spin` (docs/precession.md §2.2).
    pub ringdown_qnm: Qnm<T>,
    /// The frequency at the mode's −25 M collocation point, at the peak of |h22|, and the
    /// ringdown frequency coefficients c2, c3.
    pub merger_freq_cp: T,
    pub peak_frequency: T,
    pub rd_freq_c2: T,
    pub rd_freq_c3: T,
    /// |h_lm| at −2000, −250 and −150 M, at −25 M, and at its peak.
    pub inspiral_amp_cp: [T; 3],
    pub merger_amp_cp: T,
    pub peak_amp: T,
    /// The ringdown amplitude's coefficient c3.
    pub rd_amp_c3: T,
    /// Time of the peak of |h_lm| after the peak of |h22|.
    pub t_shift: T,
    /// Step of the finite difference of the ringdown frequency at the peak (LAL's choice per
    /// mode).
    pub peak_slope_step: f64,
}

impl<T: Real> ModeFits<T> {
    /// The fits of a higher mode.
    pub fn new(mode: HigherMode, v: &BinaryVariables<T>) -> Self {
        let p = &v.fits.inputs();
        let per_mode = match mode {
            HigherMode::L2M1 => [
                fits::merger_freq_cp1_21(p),
                fits::peak_frequency_21(p),
                fits::rd_freq_d2_21(p),
                fits::rd_freq_d3_21(p),
                fits::inspiral_amp_cp1_21(p),
                fits::inspiral_amp_cp2_21(p),
                fits::inspiral_amp_cp3_21(p),
                fits::merger_amp_cp1_21(p),
                fits::peak_amp_21(p),
                fits::rd_amp_c3_21(p),
                fits::tshift_21(p),
            ],
            HigherMode::L3M3 => [
                fits::merger_freq_cp1_33(p),
                fits::peak_frequency_33(p),
                fits::rd_freq_d2_33(p),
                fits::rd_freq_d3_33(p),
                fits::inspiral_amp_cp1_33(p),
                fits::inspiral_amp_cp2_33(p),
                fits::inspiral_amp_cp3_33(p),
                fits::merger_amp_cp1_33(p),
                fits::peak_amp_33(p),
                fits::rd_amp_c3_33(p),
                fits::tshift_33(p),
            ],
            HigherMode::L4M4 => [
                fits::merger_freq_cp1_44(p),
                fits::peak_frequency_44(p),
                fits::rd_freq_d2_44(p),
                fits::rd_freq_d3_44(p),
                fits::inspiral_amp_cp1_44(p),
                fits::inspiral_amp_cp2_44(p),
                fits::inspiral_amp_cp3_44(p),
                fits::merger_amp_cp1_44(p),
                fits::peak_amp_44(p),
                fits::rd_amp_c3_44(p),
                fits::tshift_44(p),
            ],
            HigherMode::L5M5 => [
                fits::merger_freq_cp1_55(p),
                fits::peak_frequency_55(p),
                fits::rd_freq_d2_55(p),
                fits::rd_freq_d3_55(p),
                fits::inspiral_amp_cp1_55(p),
                fits::inspiral_amp_cp2_55(p),
                fits::inspiral_amp_cp3_55(p),
                fits::merger_amp_cp1_55(p),
                fits::peak_amp_55(p),
                fits::rd_amp_c3_55(p),
                fits::tshift_55(p),
            ],
        };
        let [merger_freq_cp, peak_frequency, rd_freq_c2, rd_freq_c3, cp1, cp2, cp3, merger_amp_cp, peak_amp, rd_amp_c3, t_shift] =
            per_mode;
        Self {
            qnm: Qnm::new(mode, v.final_spin, v.final_mass),
            ringdown_qnm: Qnm::new(mode, v.ringdown_final_spin, v.final_mass),
            merger_freq_cp,
            peak_frequency,
            rd_freq_c2,
            rd_freq_c3,
            inspiral_amp_cp: [cp1, cp2, cp3],
            merger_amp_cp,
            peak_amp,
            rd_amp_c3,
            t_shift,
            peak_slope_step: match mode {
                HigherMode::L2M1 | HigherMode::L3M3 => 1e-5,
                _ => 1e-7,
            },
        }
    }
}

/// A complex PN amplitude H(x)/(fac0·x) = Σ_k (re_k + i·im_k) x^(k/2) + log·ln(16x)·x³ over the
/// half-integer orders k = 0…7 (arXiv:2012.11923 eq. 14, before its pseudo-PN terms).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PnAmplitude<T> {
    pub re: [T; 8],
    pub im: [T; 8],
    pub log: T,
}

impl<T: Real> PnAmplitude<T> {
    /// The PN amplitude of a higher mode (arXiv:2012.11923 eqs. A2–A5).
    pub fn new(mode: HigherMode, v: &BinaryVariables<T>) -> Self {
        let (eta, delta, chi1, chi2) = (v.eta, v.delta, v.chi1, v.chi2);
        let zero = T::from(0.0);
        let mut re = [zero; 8];
        let mut im = [zero; 8];
        // (1 − δ)/2 + (1 + δ)/2, which LAL's expressions divide by (1 up to rounding).
        let hs = -(delta - 1.0) / 2.0 + (delta + 1.0) / 2.0;
        let ln2 = 2f64.ln();
        match mode {
            HigherMode::L2M1 => {
                re[1] = delta / 3.0;
                re[2] = -chi1 / 4.0 + chi2 / 4.0
                    - chi1 * delta / (hs * 4.0)
                    - chi2 * delta / (hs * 4.0);
                re[3] = delta * -17.0 / 84.0 + delta * 5.0 * eta / 21.0;
                im[4] = -delta / 6.0 - delta * 2.0 * ln2 / 3.0;
                re[4] = chi1 * 79.0 / 84.0 - chi2 * 79.0 / 84.0
                    + chi1 * 79.0 * delta / 84.0
                    + chi2 * 79.0 * delta / 84.0
                    - chi1 * 43.0 / (hs * 42.0)
                    + chi2 * 43.0 / (hs * 42.0)
                    - chi1 * 43.0 * delta / (hs * 42.0)
                    - chi2 * 43.0 * delta / (hs * 42.0)
                    - chi1 * 139.0 * eta / 84.0
                    + chi2 * 139.0 * eta / 84.0
                    - chi1 * 139.0 * delta * eta / 84.0
                    - chi2 * 139.0 * delta * eta / 84.0
                    + chi1 * 86.0 * eta / (hs * 21.0)
                    - chi2 * 86.0 * eta / (hs * 21.0)
                    + chi1 * 43.0 * delta * eta / (hs * 21.0)
                    + chi2 * 43.0 * delta * eta / (hs * 21.0)
                    + delta * PI / 3.0;
                re[5] = delta * -43.0 / 378.0 - delta * 509.0 * eta / 378.0
                    + delta * 79.0 * (eta * eta) / 504.0;
                im[6] = -(delta * -17.0 / 168.0 + delta * 353.0 * eta / 84.0
                    - delta * 17.0 * ln2 / 42.0
                    + delta * eta * ln2 / 7.0);
                re[6] = delta * -17.0 * PI / 84.0 + delta * eta * PI / 14.0;
            }
            HigherMode::L3M3 => {
                re[1] = delta * 0.7763237542601484;
                re[3] = delta * -3.1052950170405937 + delta * 1.5526475085202969 * eta;
                im[4] = delta * -1.371926598204461;
                re[4] = -(chi1 * -0.5822428156951114 + chi2 * 0.5822428156951114
                    - delta * 7.316679009572791
                    - chi1 * 0.5822428156951114 * delta
                    - chi2 * 0.5822428156951114 * delta
                    + chi1 * 1.3585665699552598 / hs
                    - chi2 * 1.3585665699552598 / hs
                    + chi1 * 1.3585665699552598 * delta / hs
                    + chi2 * 1.3585665699552598 * delta / hs
                    + chi1 * 1.7467284470853341 * eta
                    - chi2 * 1.7467284470853341 * eta
                    + chi1 * 1.7467284470853341 * delta * eta
                    + chi2 * 1.7467284470853341 * delta * eta
                    - chi1 * 5.434266279821039 * eta / hs
                    + chi2 * 5.434266279821039 * eta / hs
                    - chi1 * 2.7171331399105196 * delta * eta / hs
                    - chi2 * 2.7171331399105196 * delta * eta / hs);
                re[5] = -(delta * -0.08680711070363478 + delta * 8.647776123213047 * eta
                    - delta * 2.0866641516022777 * (eta * eta));
            }
            HigherMode::L4M4 => {
                let lead = 0.751248226425348;
                re[2] = (-(eta * 3.0) + 1.0) * lead;
                re[4] = eta * 14.489984730901032 + (-4.049910893365739)
                    - eta * eta * 5.9758381647470875;
                re[5] = (T::from(4.0 * PI) - eta * 12.0 * PI) * lead;
                im[5] = (eta * 13.189467666561313 + (-2.854822555520438)) * lead;
                re[6] = -((T::from(5.338016983016983) - eta * 1088119.0 / 28600.0
                    + eta * eta * 146879.0 / 2340.0
                    - eta.powf(3.0) * 226097.0 / 17160.0)
                    * (-8.0 * 0.7142857142857143f64.powf(0.5)))
                    / 9.0;
            }
            HigherMode::L5M5 => {
                let lead = 0.8013768943966973;
                re[3] = delta * lead * (-(eta * 2.0) + 1.0);
                re[5] = delta
                    * lead
                    * (eta * 688.0 / 39.0 + (-6.743589743589744) - eta * eta * 256.0 / 39.0);
                im[6] = delta * -3.0177162096765713 + delta * 12.454250695829877 * eta;
                re[6] = delta * 12.58799882096634 - delta * 25.175997641932675 * eta;
            }
        }
        Self { re, im, log: zero }
    }
}
