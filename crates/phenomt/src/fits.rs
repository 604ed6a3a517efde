//! Parameter-space fits of IMRPhenomT (LALSimIMRPhenomTHM_fits.c, LALSimIMRPhenomXUtilities.c).
//!
//! Every fit is transcribed from LALSuite's C with the same floating-point operations in the same
//! order, so that with `T = f64` it returns LAL's value bit for bit:
//!
//! - sums and products are evaluated left to right with C's parenthesisation; a constant factor
//!   written on the left in C (`2.0*eta`) is written on the right here (`eta * 2.0`), which is the
//!   same IEEE operation;
//! - `pow(x, 2)` is `x * x` and `pow(x, -1)` is `1.0 / x`: GCC at `-O2` expands `pow` with the
//!   constant exponents −1, 0, 1 and 2 into these operations (the set-up code of the reference
//!   `liblalsimulation` calls `pow` only with other exponents), and glibc's `pow(x, 2)` differs
//!   from `x * x` for about one `x` in 1200; every other `pow(x, n)` is libm's `pow` (`powf`).
//!
//! With a [`crate::scalar::Dual`] for `T` the value part is the same `f64` computation, so the
//! same bits.
//!
//! The fits of the (2,2) mode come first (`LALSimIMRPhenomTHM_fits.c`; Estellés et al.,
//! arXiv:2012.11923), then the final-state fits (`LALSimIMRPhenomXUtilities.c`; Jiménez-Forteza
//! et al. 2017, arXiv:1611.00332) and the fits of the 21, 33, 44 and 55 modes (IMRPhenomTHM).
#![allow(clippy::excessive_precision)]

use crate::scalar::Real;

/// The parameters of the IMRPhenomT fits, as LAL's `IMRPhenomTSetWaveformVariables` computes them
/// from the component masses (m1 ≥ m2, total mass M = 1) and aligned spins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitInputs<T> {
    /// Symmetric mass ratio η.
    pub eta: T,
    /// Effective spin Ŝ = (m1²χ1 + m2²χ2)/(m1² + m2²).
    pub s: T,
    /// Spin difference Δχ = χ1 − χ2.
    pub dchi: T,
    /// Mass asymmetry δ = |m1 − m2|/M.
    pub delta: T,
}

/// What a (2,2) fit reads: its [`FitInputs`] and the C's `pow(η, n)` (n = 3…8) and
/// `pow(Ŝ, n)` (n = 3…6). [`FitInputs`] computes the powers on every call; [`FitPowers`] once per binary
/// (the fits hold ~200 such terms, most of an f64 set-up's time).
pub trait FitArgs<T> {
    fn inputs(&self) -> FitInputs<T>;
    /// libm's `pow(η, n)`, 3 ≤ n ≤ 8.
    fn eta_pow(&self, n: usize) -> T;
    /// libm's `pow(Ŝ, n)`, 3 ≤ n ≤ 6.
    fn s_pow(&self, n: usize) -> T;
}

impl<T: Real> FitArgs<T> for FitInputs<T> {
    #[inline]
    fn inputs(&self) -> FitInputs<T> {
        *self
    }
    #[inline]
    fn eta_pow(&self, n: usize) -> T {
        self.eta.powf(n as f64)
    }
    #[inline]
    fn s_pow(&self, n: usize) -> T {
        self.s.powf(n as f64)
    }
}

/// [`FitInputs`] with its powers computed once: the same bits as [`FitInputs`] gives every fit.
#[derive(Clone, Copy, Debug)]
pub struct FitPowers<T> {
    inputs: FitInputs<T>,
    eta_pow: [T; 6],
    s_pow: [T; 4],
}

impl<T: Real> FitPowers<T> {
    pub fn new(inputs: FitInputs<T>) -> Self {
        Self {
            inputs,
            eta_pow: std::array::from_fn(|k| inputs.eta.powf(k as f64 + 3.0)),
            s_pow: std::array::from_fn(|k| inputs.s.powf(k as f64 + 3.0)),
        }
    }
}

impl<T: Real> FitArgs<T> for FitPowers<T> {
    #[inline]
    fn inputs(&self) -> FitInputs<T> {
        self.inputs
    }
    #[inline]
    fn eta_pow(&self, n: usize) -> T {
        self.eta_pow[n - 3]
    }
    #[inline]
    fn s_pow(&self, n: usize) -> T {
        self.s_pow[n - 3]
    }
}

// ======================= (2,2) mode =======================

/// TaylorT3 time constant `tt0`, calibrated so that TaylorT3 with t0 = `tt0` has the model's
/// frequency at θ = 0.33 (it fixes the first inspiral collocation value).
///
/// LAL: `IMRPhenomT_Inspiral_TaylorT3_t0`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_taylor_t3_t0<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    T::from(1.0) / eta
        * ((T::from(-20.74399646637014) - eta * 106.27711276502542)
            * (T::from(1.0) / (T::from(1.0) + eta * 0.6516016033332481))
            + dchi
                * 0.0012450290074562259
                * delta
                * (T::from(1.0) - eta * 4.701633367918768e6)
                * (eta * eta)
            - dchi
                * 111.5049997379579
                * delta
                * (T::from(1.0) + eta * 19.95458485773613)
                * s
                * (eta * eta)
            + (T::from(1.0) - eta * 4.025474056585855)
                * 1204.6829118499857
                * (dchi * dchi)
                * p.eta_pow(3)
            + s * (T::from(338.7318821277009) - eta * 1553.5891860091408
                + eta * eta * 19614.263378999745
                - p.eta_pow(3) * 156449.78737303324
                + p.eta_pow(4) * 577363.3090369126
                - p.eta_pow(5) * 802867.433363341)
            + (T::from(-55.75053935847546) - eta * 290.36341163610575
                + eta * eta * 7873.7667183299345
                - p.eta_pow(3) * 43585.59040070178
                + p.eta_pow(4) * 87229.84668746481
                - p.eta_pow(5) * 32469.263449695136)
                * (s * s)
            + (T::from(-102.8269343111326) + eta * 5121.845705262981
                - eta * eta * 93026.46878769135
                + p.eta_pow(3) * 650989.6793529999
                - p.eta_pow(4) * 1.8846061037110784e6
                + p.eta_pow(5) * 1.861602620702142e6)
                * p.s_pow(3)
            + (T::from(-7.294950933078567) + eta * 314.24955197427136
                - eta * eta * 3751.8509582195657
                + p.eta_pow(3) * 21205.339564205595
                - p.eta_pow(4) * 46448.94771114493
                + p.eta_pow(5) * 20310.512558558552)
                * p.s_pow(4)
            + (T::from(97.22312282683716) - eta * 4556.60375328623 + eta * eta * 76308.73046927384
                - p.eta_pow(3) * 468784.4188333802
                + p.eta_pow(4) * 998692.0246600509
                - p.eta_pow(5) * 322905.9042578296)
                * p.s_pow(5))
}

/// Inspiral collocation value of ω22 (geometric angular frequency) at θ = 0.45, i.e.
/// t = −5/(η·0.45⁸).
///
/// LAL: `IMRPhenomT_Inspiral_Freq_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_freq_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.014968864336704284 * delta * (T::from(1.0) - eta * 1.942061808318584) * (eta * eta)
        + dchi
            * 0.0017312772309375462
            * delta
            * (T::from(1.0) - eta * 0.07106994121956058)
            * s
            * (eta * eta)
        + s * (T::from(0.0019208448318368731)
            - eta * 0.0013579968243452476
            - eta * eta * 0.0033501404728414627
            + p.eta_pow(3) * 0.008914420175326192)
        + dchi * dchi * 6.687615165457298e-6 * p.eta_pow(3)
        + (T::from(0.02104073275966069)
            + eta * 717.1534194224539
            + eta * eta * 85.37320237350282
            + p.eta_pow(3) * 12.789214868358362
            - p.eta_pow(4) * 16.00243777208413)
            * (T::from(1.0) / (T::from(1.0) + eta * 32934.586638893634))
        + (T::from(-8.306810248117731e-6) + eta * 0.00009918593182087119
            - eta * eta * 0.003805916669791129
            + p.eta_pow(3) * 0.009854209286892323)
            * (s * s)
        + (T::from(-5.578836442449699e-6) - eta * 0.0030378960591856616
            + eta * eta * 0.03746366675135751
            - p.eta_pow(3) * 0.10298471015315146)
            * p.s_pow(3)
        + (T::from(0.00004425141111368952) - eta * 0.0008702073302258368
            + eta * eta * 0.006538604805919268
            - p.eta_pow(3) * 0.01578597166324495)
            * p.s_pow(4)
        + (T::from(-0.000019469656288570753) + eta * 0.002969863931498354
            - eta * eta * 0.03643271052162611
            + p.eta_pow(3) * 0.09959495981802587)
            * p.s_pow(5)
        + (T::from(-0.000042037164406446896) + eta * 0.0007336074135429041
            - eta * eta * 0.005603356997202016
            + p.eta_pow(3) * 0.013439843000090702)
            * p.s_pow(6)
}

/// Inspiral collocation value of ω22 (geometric angular frequency) at θ = 0.55, i.e.
/// t = −5/(η·0.55⁸).
///
/// LAL: `IMRPhenomT_Inspiral_Freq_CP2_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_freq_cp2_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.04486391236129559 * delta * (T::from(1.0) - eta * 1.8997912248414794) * (eta * eta)
        - dchi
            * 0.003531802135161727
            * delta
            * (T::from(1.0) - eta * 8.001211450141325)
            * s
            * (eta * eta)
        + s * (T::from(0.0061664395419698285)
            - eta * 0.0040934633081508905
            - eta * eta * 0.009180337242551828
            + p.eta_pow(3) * 0.020338583755834694)
        + dchi * dchi * 0.00006524644306613066 * p.eta_pow(3)
        + T::from(1.0) / (T::from(1.0) - eta * 3.2125452791404148)
            * (T::from(0.03711511661217631)
                - eta * 0.10663782888636487
                - eta * eta * 0.09963406984414182
                + p.eta_pow(3) * 0.6597367702009397
                - p.eta_pow(4) * 2.777344875144891
                + p.eta_pow(5) * 4.220674345359693)
        + (T::from(0.00044302547647888445) + eta * 0.000424246501303979
            - eta * eta * 0.01394093576260671
            + p.eta_pow(3) * 0.02634851560709597)
            * (s * s)
        + (T::from(0.00011582043047950321) - eta * 0.008282652950117982
            + eta * eta * 0.08965067576998058
            - p.eta_pow(3) * 0.23963885130463913)
            * p.s_pow(3)
        + (T::from(0.0006123158975881322) - eta * 0.007809160444435783
            + eta * eta * 0.028517174579539676
            - p.eta_pow(3) * 0.03717957419042746)
            * p.s_pow(4)
        + (T::from(-0.0000885530893214531) + eta * 0.005939789043536808
            - eta * eta * 0.07106551435109858
            + p.eta_pow(3) * 0.1891131957235774)
            * p.s_pow(5)
        + (T::from(-0.0005110853374341054)
            + eta * 0.0038762476596420855
            + eta * eta * 0.005094077179675256
            - p.eta_pow(3) * 0.047971766995287136)
            * p.s_pow(6)
}

/// Inspiral collocation value of ω22 (geometric angular frequency) at θ = 0.65, i.e.
/// t = −5/(η·0.65⁸).
///
/// LAL: `IMRPhenomT_Inspiral_Freq_CP3_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_freq_cp3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.10196878573773932 * delta * (T::from(1.0) - eta * 1.8918584778973513) * (eta * eta)
        - dchi
            * 0.018820536453940443
            * delta
            * (T::from(1.0) - eta * 3.7307154599131183)
            * s
            * (eta * eta)
        - dchi * dchi * 0.00013162098437956188 * p.eta_pow(3)
        + s * (T::from(0.0145572994468378)
            - eta * 0.0017482433991394227
            - eta * eta * 0.10299007619034371
            + p.eta_pow(3) * 0.4581039376357615
            - p.eta_pow(4) * 0.7123678787549022)
        + (T::from(0.05489007025458171)
            + eta * 5.852073438961151
            + eta * eta * 2.74597705533403
            + p.eta_pow(3) * 4.834336623113389
            - p.eta_pow(4) * 26.931994454691022
            + p.eta_pow(5) * 57.67035368809743)
            * (T::from(1.0) / (T::from(1.0) + eta * 105.52132834236778))
        + (T::from(0.003001211395915229) + eta * 0.0017929418998452987
            - eta * eta * 0.13776590125456148
            + p.eta_pow(3) * 0.7471133710854526
            - p.eta_pow(4) * 1.3620323111858437)
            * (s * s)
        + (T::from(0.001143282743686261) - eta * 0.05793457776296727
            + eta * eta * 0.7841331051705482
            - p.eta_pow(3) * 3.4936244160305323
            + p.eta_pow(4) * 4.802357041496856)
            * p.s_pow(3)
        + (T::from(0.0009168588840889624) - eta * 0.03261437094899735
            + eta * eta * 0.3472881896838799
            - p.eta_pow(3) * 1.3634383958859384
            + p.eta_pow(4) * 1.7313939586675267)
            * p.s_pow(4)
        + (T::from(-0.0002794014744432316) + eta * 0.055911057147527664
            - eta * eta * 0.8686311380514122
            + p.eta_pow(3) * 4.096191294930781
            - p.eta_pow(4) * 6.009676060669872)
            * p.s_pow(5)
        + (T::from(-0.0005046018052528331) + eta * 0.029804593053788925
            - eta * eta * 0.3792653361049425
            + p.eta_pow(3) * 1.6366976231421981
            - p.eta_pow(4) * 2.26904099961476)
            * p.s_pow(6)
}

/// Inspiral collocation value of ω22 (geometric angular frequency) at θ = 0.75, i.e.
/// t = −5/(η·0.75⁸).
///
/// LAL: `IMRPhenomT_Inspiral_Freq_CP4_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_freq_cp4_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.1831889759662071 * delta * (T::from(1.0) - eta * 1.8484261527766557) * (eta * eta)
        - dchi
            * 0.07586202965525136
            * delta
            * (T::from(1.0) - eta * 3.2918162656371983)
            * s
            * (eta * eta)
        + dchi * dchi * 0.0019259052728265817 * p.eta_pow(3)
        + s * (T::from(0.02685637375751212) + eta * 0.013341664908359861
            - eta * eta * 0.3057217933283597
            + p.eta_pow(3) * 1.395763446325911
            - p.eta_pow(4) * 2.2559396974665376)
        + (T::from(0.0725639467287476) + eta * 12.39400068457852 + eta * eta * 12.907450928972402
            - p.eta_pow(3) * 7.422660061864399
            + p.eta_pow(4) * 66.32985901506036
            - p.eta_pow(5) * 117.85875779454518)
            * (T::from(1.0) / (T::from(1.0) + eta * 168.63492460136445))
        + (T::from(0.0087781653701194) + eta * 0.006944161553839352
            - eta * eta * 0.3301149078235105
            + p.eta_pow(3) * 1.6835714783903248
            - p.eta_pow(4) * 2.950404929598742)
            * (s * s)
        + (T::from(0.0037229746496019625) - eta * 0.17155338099487646
            + eta * eta * 2.5881802140836774
            - p.eta_pow(3) * 13.14710199375518
            + p.eta_pow(4) * 21.366803256010915)
            * p.s_pow(3)
        + (T::from(0.00278507305662002) - eta * 0.12475855143364532
            + eta * eta * 1.8640209516178643
            - p.eta_pow(3) * 10.117078727717564
            + p.eta_pow(4) * 17.94244821676711)
            * p.s_pow(4)
        + (T::from(0.0010273954584773936) + eta * 0.1713357629442166
            - eta * eta * 3.017249223460983
            + p.eta_pow(3) * 15.855096360798678
            - p.eta_pow(4) * 26.444621592311933)
            * p.s_pow(5)
        + (T::from(-0.00012207946532225968) + eta * 0.11709700788855186
            - eta * eta * 2.0950821618097026
            + p.eta_pow(3) * 11.925324501640054
            - p.eta_pow(4) * 21.683978511818076)
            * p.s_pow(6)
}

/// Inspiral collocation value of ω22 (geometric angular frequency) at θ = 0.82, i.e.
/// t = −5/(η·0.82⁸).
///
/// LAL: `IMRPhenomT_Inspiral_Freq_CP5_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_freq_cp5_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.2508206617297265 * delta * (T::from(1.0) - eta * 1.861010982421798) * (eta * eta)
        - dchi
            * 0.1392163711259171
            * delta
            * (T::from(1.0) - eta * 3.2669366465555796)
            * s
            * (eta * eta)
        + dchi * dchi * 0.0023126403170013045 * p.eta_pow(3)
        + s * (T::from(0.036750064163293766) + eta * 0.036904343404333906
            - eta * eta * 0.5238739410356437
            + p.eta_pow(3) * 2.3292117112945223
            - p.eta_pow(4) * 3.654184701923543)
        + (T::from(0.08373610487663233)
            + eta * 6.301736487754372
            + eta * eta * 9.03911386193751
            + p.eta_pow(3) * 4.91153188278086)
            * (T::from(1.0) / (T::from(1.0) + eta * 72.64820846804257))
        + (T::from(0.014963449678540705) + eta * 0.008354571522567225
            - eta * eta * 0.41723078020683
            + p.eta_pow(3) * 2.2007932082378785
            - p.eta_pow(4) * 4.245354787320365)
            * (s * s)
        + (T::from(0.005706180633326235) - eta * 0.15748500622007494
            + eta * eta * 2.3477109912232845
            - p.eta_pow(3) * 11.413877195221694
            + p.eta_pow(4) * 17.033120593116756)
            * p.s_pow(3)
        + (T::from(0.003890296981717687) - eta * 0.15985471334551038
            + eta * eta * 2.560312006077997
            - p.eta_pow(3) * 14.400920672743332
            + p.eta_pow(4) * 26.10406142567958)
            * p.s_pow(4)
        + (T::from(0.005305988847210204) + eta * 0.10869207132210629
            - eta * eta * 2.4201307115268875
            + p.eta_pow(3) * 12.544899744864924
            - p.eta_pow(4) * 19.550600837316903)
            * p.s_pow(5)
        + (T::from(0.002917248769788225) + eta * 0.11851143848720952
            - eta * eta * 2.6640023622893416
            + p.eta_pow(3) * 15.993378498844761
            - p.eta_pow(4) * 29.752144941054446)
            * p.s_pow(6)
}

/// Merger collocation value of ω22 at θ = 0.95, i.e. t = −5/(η·0.95⁸).
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    dchi * -0.3926039690467202 * delta * (T::from(1.0) - eta * 2.359180951434749) * (eta * eta)
        - dchi
            * 0.28551098014898896
            * delta
            * (T::from(1.0) - eta * 3.414696100901444)
            * s
            * (eta * eta)
        + dchi * dchi * 0.003414004344822246 * p.eta_pow(3)
        + s * (T::from(0.05697014130854102) + eta * 0.07170430925984912
            - eta * eta * 0.9606499306623374
            + p.eta_pow(3) * 5.440955307244598
            - p.eta_pow(4) * 10.594319036394571)
        + (T::from(0.10030959768350425) + eta * 44.56725135920024 + eta * eta * 163.96290948585087
            - p.eta_pow(3) * 143.05635831020462
            + p.eta_pow(4) * 393.8084861740473)
            * (T::from(1.0) / (T::from(1.0) + eta * 436.6494065618))
        + (T::from(0.021213606590798472) + eta * 0.2148355967310081
            - eta * eta * 2.7747405367196265
            + p.eta_pow(3) * 13.771088220299802
            - p.eta_pow(4) * 25.128755397215368)
            * (s * s)
        + (T::from(-0.003645992092251503) + eta * 0.2137524962844931
            - eta * eta * 0.644979226062801
            - p.eta_pow(3) * 1.7314849842209137
            + p.eta_pow(4) * 5.573297392347478)
            * p.s_pow(3)
        + (T::from(0.029352214609533665) - eta * 0.6020287633594307 + eta * eta * 7.014738679280164
            - p.eta_pow(3) * 36.027159248248296
            + p.eta_pow(4) * 63.42605850359639)
            * p.s_pow(4)
        + (T::from(0.0356519646654399) - eta * 0.5569780178251297 + eta * eta * 4.017784725334053
            - p.eta_pow(3) * 15.05881246593488
            + p.eta_pow(4) * 22.94821359434365)
            * p.s_pow(5)
}

/// ω22 at the peak of |h22| (t = 0): `omegaPeak`.
///
/// LAL: `IMRPhenomT_PeakFrequency_22`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    T::from(0.27212130745330404) + eta * 0.40972689759932074
        - eta * 0.0018392172960247433 * (dchi * dchi)
        + s * (T::from(0.09558832959428547)
            - eta * 0.04834585264918328
            - eta * eta * 0.15275173823699056)
        - eta * eta * 3.4232387074402153
        + p.eta_pow(3) * 32.853772442252605
        - dchi
            * 1.4976829186605336
            * delta
            * (T::from(1.0) - eta * 4.775645585721007)
            * p.eta_pow(3)
        - dchi
            * 0.9981117852179613
            * delta
            * (T::from(1.0) - eta * 5.260098925354571)
            * s
            * p.eta_pow(3)
        - p.eta_pow(4) * 125.22505746137587
        + p.eta_pow(5) * 179.3797198714914
        + (T::from(0.054391696704622204) - eta * 0.1482682698299456
            + eta * eta * 0.08938162810617255)
            * (s * s)
        + (T::from(-0.020719540055375383) + eta * 0.5090144456500953
            - eta * eta * 1.5809441589349338)
            * p.s_pow(3)
        + (T::from(0.024240736699062685) - eta * 0.09490089674418004
            + eta * eta * 0.09518501714836035)
            * p.s_pow(4)
        + (T::from(0.09759303647532228) - eta * 1.105520690228567 + eta * eta * 2.921271981239294)
            * p.s_pow(5)
}

/// Ringdown frequency coefficient c2 (Damour–Nagar ansatz) of the 22 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_22`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    T::from(0.1598180460429256)
        + eta * 0.19120040104567676
        + (T::from(-0.012853620630980167) - eta * 0.006532392920798404) * s
        - eta * eta * 0.7733759581766899
        + dchi
            * 0.18151402648790957
            * delta
            * (T::from(1.0) - eta * 9.041198282315879)
            * (eta * eta)
        + dchi
            * 0.27147713896183995
            * delta
            * (T::from(1.0) - eta * 5.653323210961101)
            * s
            * (eta * eta)
        - dchi * dchi * 0.01603489049446065 * p.eta_pow(3)
        + (T::from(-0.046785083372074494) + eta * 0.102759380109996) * (s * s)
        + (T::from(0.0009883572415502464) - eta * 0.050384608002279486) * p.s_pow(3)
}

/// Ringdown frequency coefficient c3 (Damour–Nagar ansatz) of the 22 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_22`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    T::from(2.6456463496860927) - eta * 28.079375863863458 + eta * eta * 323.1691069138812
        - dchi
            * 0.5040057675360762
            * delta
            * (T::from(1.0) + eta * 21.786482297795278)
            * (eta * eta)
        + dchi
            * 1.561247215701216
            * delta
            * (T::from(1.0) - eta * 1.7508069810164308)
            * s
            * (eta * eta)
        + s * (T::from(3.091917073632116) - eta * 17.345283345692266
            + eta * eta * 33.40735388809028)
        - p.eta_pow(3) * 1490.8128941604907
        + dchi * dchi * 0.1619056474567525 * p.eta_pow(3)
        + p.eta_pow(4) * 2376.3257196613886
        + (T::from(0.734022429223849) - eta * 0.029342234233198747 - eta * eta * 9.281610698291932)
            * (s * s)
}

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.00006480771730217768 * (dchi * dchi)
        - dchi
            * 0.3543965558027252
            * delta
            * (T::from(1.0) - eta * 2.463526130684083)
            * p.eta_pow(3)
        + dchi
            * 0.01879295038873938
            * delta
            * (T::from(1.0) - eta * 5.236796607517272)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.1472653807120573 - eta * eta * 1.9636752493349356
            + p.eta_pow(3) * 14.177521724634461
            - p.eta_pow(4) * 48.94620901701877
            + p.eta_pow(5) * 63.83730899015984)
        + eta
            * (T::from(0.8493442097893826) - eta * 13.211067914003836
                + eta * eta * 311.99021467938235
                - p.eta_pow(3) * 4731.025904601601
                + p.eta_pow(4) * 44821.93042533854
                - p.eta_pow(5) * 264474.1374080295
                + p.eta_pow(6) * 943246.2317701122
                - p.eta_pow(7) * 1.8588135904328802e6
                + p.eta_pow(8) * 1.5524778581809246e6)
        + (eta * 0.04902976057622393 - eta * eta * 1.0152511131279736
            + p.eta_pow(3) * 8.286289152216145
            - p.eta_pow(4) * 30.19775956110767
            + p.eta_pow(5) * 40.670065442751955)
            * (s * s)
        + (eta * 0.04780630695082567 - eta * eta * 1.2177827888317065
            + p.eta_pow(3) * 11.505675146308567
            - p.eta_pow(4) * 46.733420749352135
            + p.eta_pow(5) * 68.40821782168776)
            * p.s_pow(3)
}

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.000100027278976821 * (dchi * dchi)
        - dchi
            * 0.7578403155712378
            * delta
            * (T::from(1.0) - eta * 2.056456271350877)
            * p.eta_pow(3)
        - dchi
            * 0.14126282637778914
            * delta
            * (T::from(1.0) - eta * 2.5840771007494916)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.2331970217833686 - eta * eta * 1.5473968380422929
            + p.eta_pow(3) * 5.973401506474942
            - p.eta_pow(4) * 9.110484789161045)
        + eta
            * (T::from(0.9904613241626621) - eta * 6.708006572605403
                + eta * eta * 127.40270095439482
                - p.eta_pow(3) * 1723.355339710798
                + p.eta_pow(4) * 15430.10086310527
                - p.eta_pow(5) * 88744.26044058547
                + p.eta_pow(6) * 313650.01696201024
                - p.eta_pow(7) * 617887.8122937253
                + p.eta_pow(8) * 518220.9267888211)
        + (eta * 0.08934817374146888 - eta * eta * 0.8887847358339216
            + p.eta_pow(3) * 3.7233864099350784
            - p.eta_pow(4) * 5.814765403882651)
            * (s * s)
        + (eta * 0.04471990627820145 - eta * eta * 0.642458648615624
            + p.eta_pow(3) * 3.393481171493086
            - p.eta_pow(4) * 6.092083983738554)
            * p.s_pow(3)
}

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0002459376633671657 * (dchi * dchi)
        - dchi
            * 0.8794763631110696
            * delta
            * (T::from(1.0) - eta * 2.0751630535350096)
            * p.eta_pow(3)
        - dchi
            * 0.3319387797134261
            * delta
            * (T::from(1.0) - eta * 3.1838055629892184)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.23505507416274007 - eta * eta * 1.2449030421324767
            + p.eta_pow(3) * 4.315803728759738
            - p.eta_pow(4) * 6.384257606413192)
        + eta
            * (T::from(1.0208762064809185) - eta * 3.3799457394243957
                + eta * eta * 16.242639717123314
                + p.eta_pow(3) * 299.2297416582362
                - p.eta_pow(4) * 5913.920743907752
                + p.eta_pow(5) * 46388.231537995445
                - p.eta_pow(6) * 192261.0498470111
                + p.eta_pow(7) * 413750.14250475995
                - p.eta_pow(8) * 364403.84935539874)
        + (eta * 0.09630827896641526 - eta * eta * 0.7915321134872877
            + p.eta_pow(3) * 2.86907420250287
            - p.eta_pow(4) * 4.038995403653199)
            * (s * s)
        + (eta * 0.07395420485618898 - eta * eta * 1.0289224187583748
            + p.eta_pow(3) * 5.275845823734598
            - p.eta_pow(4) * 9.206158044409037)
            * p.s_pow(3)
}

/// Merger collocation value of |h22| at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0004059354652663733 * (dchi * dchi)
        - dchi
            * 0.9382383412276684
            * delta
            * (T::from(1.0) - eta * 2.509151362054917)
            * p.eta_pow(3)
        - dchi
            * 0.6560748977864668
            * delta
            * (T::from(1.0) - eta * 3.426294113321932)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.23465398091766254 - eta * eta * 1.3398914201113978
            + p.eta_pow(3) * 5.9073801933446495
            - p.eta_pow(4) * 10.84221896204708)
        + eta
            * (T::from(1.2946032382158479) - eta * 3.3343035556341816
                + eta * eta * 91.6430240976277
                - p.eta_pow(3) * 1687.6195123629968
                + p.eta_pow(4) * 19726.50907350641
                - p.eta_pow(5) * 140798.18973779568
                + p.eta_pow(6) * 594095.3303894227
                - p.eta_pow(7) * 1.358657562562124e6
                + p.eta_pow(8) * 1.2958912179017465e6)
        + (eta * 0.03174875260265387 + eta * eta * 0.23082150180902375
            - p.eta_pow(3) * 1.9901867982613048
            + p.eta_pow(4) * 4.009389679757772)
            * (s * s)
        + (eta * -0.04033221614773138 + eta * eta * 0.8426888041517518
            - p.eta_pow(3) * 4.742283264846479
            + p.eta_pow(4) * 9.059923021547936)
            * p.s_pow(3)
}

/// Peak value of |h22| (at t = 0).
///
/// LAL: `IMRPhenomT_PeakAmp_22`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0017885007700308166 * (dchi * dchi)
        - dchi
            * 0.5846280668038513
            * delta
            * (T::from(1.0) - eta * 4.879882766464646)
            * p.eta_pow(3)
        - dchi
            * 0.874161608112943
            * delta
            * (T::from(1.0) - eta * 1.690095043235707)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.203557188205307 - eta * eta * 2.4368458739010563
            + p.eta_pow(3) * 12.206344183078137
            - p.eta_pow(4) * 23.417979354674692)
        + eta
            * (T::from(1.4701266133411792) - eta * 1.387711607537906
                + eta * eta * 25.641251409467607
                - p.eta_pow(3) * 186.013359336165
                + p.eta_pow(4) * 801.3039484150348
                - p.eta_pow(5) * 1893.8181854645718
                + p.eta_pow(6) * 1946.531703997353)
        + (eta * -0.0018659293826992745 - eta * eta * 0.1888206507658455
            + p.eta_pow(3) * 1.4677324802664107
            - p.eta_pow(4) * 1.4019283350536489)
            * (s * s)
        + (eta * -0.14699838946027494 + eta * eta * 2.6186847787143837
            - p.eta_pow(3) * 15.574381075605208
            + p.eta_pow(4) * 31.239292792717016)
            * p.s_pow(3)
}

/// Ringdown amplitude coefficient c3 of the 22 mode (uses η and Ŝ only).
///
/// LAL: `IMRPhenomT_RD_Amp_C3_22`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs { eta, s, .. } = p.inputs();
    T::from(-0.48053994718185694)
        + eta * 0.7023672141561462
        + s * (T::from(-0.3597773028596323) + eta * 1.4330280386796503
            - eta * eta * 3.239121799338561)
        - eta * eta * 0.1993836305574211
        + (T::from(-0.2651107472061685) + eta * 1.6433443489711386 - eta * eta * 2.757772023954491)
            * (s * s)
        + (T::from(-0.01973537883495192) - eta * 0.2410762147438714
            + eta * eta * 2.7315015976869756)
            * p.s_pow(3)
}

/// Ringdown frequency f_ring of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_22<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    let x7 = x4 * x3;
    (T::from(0.05947169566573468) - af * 0.14989771215394762
        + x2 * 0.09535606290986028
        + x3 * 0.02260924869042963
        - x4 * 0.02501704155363241
        - x5 * 0.005852438240997211
        + x6 * 0.0027489038393367993
        + x7 * 0.0005821983163192694)
        / (T::from(1.0) - af * 2.8570126619966296 + x2 * 2.373335413978394
            - x4 * 0.6036964688511505
            + x6 * 0.0873798215084077)
}

/// Damping frequency f_damp of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_22<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.014158792290965177) - af * 0.036989395871554566
        + x2 * 0.026822526296575368
        + x3 * 0.0008490933750566702
        - x4 * 0.004843996907020524
        - x5 * 0.00014745235759327472
        + x6 * 0.0001504546201236794)
        / (T::from(1.0) - af * 2.5900842798681376 + x2 * 1.8952576220623967
            - x4 * 0.31416610693042507
            + x6 * 0.009002719412204133)
}

/// Damping frequency of the (2,2,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_22<T: Real>(af: T) -> T {
    T::from(0.043611742588188715)
        + T::from(1.0) / (T::from(2.0) - af * 1.9477781396815619)
            * (af * -0.004016191313442792 - af * af * 0.0027646155943395426
                + af.powf(3.0) * 0.001141927763953028
                + af.powf(4.0) * 0.007938320030300492
                - af.powf(5.0) * 0.0008263166671238823
                - af.powf(6.0) * 0.014025760257115768
                + af.powf(7.0) * 0.001792158578158245
                + af.powf(8.0) * 0.008824138122361842)
}

// ======================= final state =======================

/// Ŝ = (m1²χ1 + m2²χ2)/(m1² + m2²) with m1,2 = (1 ± √(1−4η))/2, as the final-state fits compute it.
///
/// LAL: `XLALSimIMRPhenomXSTotR` (`LALSimIMRPhenomXUtilities.c`).
fn s_tot_r<T: Real>(eta: T, chi1: T, chi2: T) -> T {
    let delta = (T::from(1.0) - eta * 4.0).sqrt();
    let m1 = (T::from(1.0) + delta) * 0.5;
    let m2 = (T::from(1.0) - delta) * 0.5;
    let m1s = m1 * m1;
    let m2s = m2 * m2;
    (m1s * chi1 + m2s * chi2) / (m1s + m2s)
}

/// Final mass in units of the total mass, 1 − E_rad (Jiménez-Forteza et al. 2017,
/// arXiv:1611.00332), at (η, χ1, χ2) with χ1 the spin of the heavier body.
///
/// δ and Ŝ are recomputed from η; the equal-spin part is computed as (E0·[…]/[…]) − E0 and
/// E0 added back, as in LAL.
///
/// LAL: `XLALSimIMRPhenomXFinalMass2017` (`LALSimIMRPhenomXUtilities.c`).
pub fn final_mass_2017<T: Real>(eta: T, chi1: T, chi2: T) -> T {
    let delta = (T::from(1.0) - eta * 4.0).sqrt();
    let eta2 = eta * eta;
    let eta3 = eta2 * eta;
    let eta4 = eta3 * eta;
    let s = s_tot_r(eta, chi1, chi2);
    let s2 = s * s;
    let s3 = s2 * s;
    let dchi = chi1 - chi2;
    let dchi2 = dchi * dchi;
    let no_spin = eta * 0.057190958417936644 + eta2 * 0.5609904135313374 - eta3 * 0.84667563764404
        + eta4 * 3.145145224278187;
    let eq_spin = (eta * 0.057190958417936644 + eta2 * 0.5609904135313374
        - eta3 * 0.84667563764404
        + eta4 * 3.145145224278187)
        * (T::from(1.0)
            + (T::from(-0.13084389181783257) - eta * 1.1387311580238488 + eta2 * 5.49074464410971)
                * s
            + (T::from(-0.17762802148331427) + eta2 * 2.176667900182948) * s2
            + (T::from(-0.6320191645391563) + eta * 4.952698546796005 - eta2 * 10.023747993978121)
                * s3)
        / (T::from(1.0)
            + (T::from(-0.9919475346968611) + eta * 0.367620218664352 + eta2 * 4.274567337924067)
                * s);
    let eq_spin = eq_spin - no_spin;
    let uneq_spin = dchi
        * -0.09803730445895877
        * delta
        * (T::from(1.0) - eta * 3.2283713377939134)
        * eta2
        + dchi2 * 0.01118530335431078 * eta3
        - dchi * 0.01978238971523653 * delta * (T::from(1.0) - eta * 4.91667749015812) * eta * s;
    T::from(1.0) - (no_spin + eq_spin + uneq_spin)
}

/// Dimensionless final spin (Jiménez-Forteza et al. 2017, arXiv:1611.00332) at (η, χ1, χ2),
/// with χ1 the spin of the heavier body. δ and Ŝ are recomputed from η.
///
/// LAL: `XLALSimIMRPhenomXFinalSpin2017` (`LALSimIMRPhenomXUtilities.c`).
pub fn final_spin_2017<T: Real>(eta: T, chi1: T, chi2: T) -> T {
    let delta = (T::from(1.0) - eta * 4.0).sqrt();
    let m1 = (T::from(1.0) + delta) * 0.5;
    let m2 = (T::from(1.0) - delta) * 0.5;
    let m1_sq = m1 * m1;
    let m2_sq = m2 * m2;
    let eta2 = eta * eta;
    let eta3 = eta2 * eta;
    let s = s_tot_r(eta, chi1, chi2);
    let s2 = s * s;
    let s3 = s2 * s;
    let dchi = chi1 - chi2;
    let dchi2 = dchi * dchi;
    let no_spin = (eta * 3.4641016151377544 + eta2 * 20.0830030082033 - eta3 * 12.333573402277912)
        / (T::from(1.0) + eta * 7.2388440419467335);
    let eq_spin = (m1_sq + m2_sq) * s
        + ((eta * -0.8561951310209386 - eta2 * 0.09939065676370885 + eta3 * 1.668810429851045) * s
            + (eta * 0.5881660363307388 - eta2 * 2.149269067519131 + eta3 * 3.4768263932898678)
                * s2
            + (eta * 0.142443244743048 - eta2 * 0.9598353840147513 + eta3 * 1.9595643107593743)
                * s3)
            / (T::from(1.0)
                + (T::from(-0.9142232693081653) + eta * 2.3191363426522633
                    - eta3 * 9.710576749140989)
                    * s);
    let uneq_spin = dchi
        * 0.3223660562764661
        * delta
        * (T::from(1.0) + eta * 9.332575956437443)
        * eta2
        - dchi2 * 0.059808322561702126 * eta3
        + dchi * 2.3170397514509933 * delta * (T::from(1.0) - eta * 3.2624649875884852) * eta3 * s;
    no_spin + eq_spin + uneq_spin
}

// ======================= higher modes (IMRPhenomTHM) =======================

// ---- (2,1) mode ----

/// Merger collocation value of ω21 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.10101718570562333) - eta * 0.04992957057407379
        + s * (T::from(0.04387200581505385) - eta * 0.05535236748836419
            + eta * eta * 0.01186527081077273)
        + eta * eta * 0.8320472976764316
        - eta.powf(3.0) * 3.412564517258671
        + dchi * dchi * 0.009795051484012513 * eta.powf(3.0)
        - dchi * 0.7263372008413999 * (T::from(1.0) - eta * eta * 15.69074025438453) * eta.powf(3.0)
        - dchi
            * 0.7339408066430174
            * s
            * (T::from(1.0) - eta * eta * 15.642722738277692)
            * eta.powf(3.0)
        + eta.powf(4.0) * 5.462583026633245
        + (T::from(0.02791012586433232) - eta * 0.10972878398255334
            + eta * eta * 0.18332510886777628)
            * (s * s)
        + (T::from(0.050124128159139206) - eta * 0.44122176836073457
            + eta * eta * 1.0574966327609319)
            * s.powf(3.0)
        + (T::from(0.03798592538296406) - eta * 0.3390611616798471 + eta * eta * 0.7453351213562277)
            * s.powf(4.0)
        + delta * 0.0
}

/// ω21 at the peak of |h21|.
///
/// LAL: `IMRPhenomT_PeakFrequency_21`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.17642087831932626)
        + eta * 0.31718290537914057
        + s * (T::from(0.03094734575888092) + eta * 0.07319676429288274
            - eta * eta * 0.4370939605469398)
        - eta * eta * 2.2156624517537873
        + eta.powf(3.0) * 14.007580103948815
        + dchi
            * 2.641340486447181
            * delta
            * (T::from(1.0) - eta * 6.221406704917193)
            * eta.powf(3.0)
        + dchi
            * 4.353108475005447
            * delta
            * (T::from(1.0) - eta * 8.473808274993978)
            * s
            * eta.powf(3.0)
        - dchi * dchi * 0.036084481180729745 * eta.powf(3.0)
        - eta.powf(4.0) * 26.085064860873068
        + (T::from(0.017462707546942863) - eta * 0.11463071986182106
            + eta * eta * 0.2800463367551972)
            * (s * s)
        + (T::from(0.033646159761323895) - eta * 0.33812286198554814
            + eta * eta * 0.9635090140454092)
            * s.powf(3.0)
        + (T::from(-0.0011779170821489254) + eta * 0.18369948603536548
            - eta * eta * 0.5978006007616697)
            * s.powf(4.0)
}

/// Ringdown frequency coefficient c2 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.1781545202005886)
        + eta * 0.10906983816039043
        + (T::from(-0.023905104384959013) + eta * 0.1831847458257083) * s
        - eta * eta * 0.5060291743082528
        - dchi * 0.309304704734991 * delta * (T::from(1.0) - eta * 2.5742929128570724) * (eta * eta)
        + dchi
            * 2.1883684085193034
            * delta
            * (T::from(1.0) - eta * 4.850311934387953)
            * s
            * (eta * eta)
        + dchi * dchi * 0.25978316114962485 * eta.powf(3.0)
        + (T::from(-0.00955976176018747) - eta * 0.18697585595061622) * (s * s)
        + (T::from(0.04468930365659441) - eta * 0.44170842157754653) * s.powf(3.0)
}

/// Ringdown frequency coefficient c3 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(3.757258772469613)
        + eta * 0.08380574896251641
        + (T::from(3.634895503051922) - eta * 8.174660936683596) * s
        - eta * eta * 18.17832018576314
        + dchi
            * 0.000043786944413372623
            * delta
            * (T::from(1.0) - eta * 2.0348094407156347e6)
            * (eta * eta)
        + dchi
            * 60.2475724845033
            * delta
            * (T::from(1.0) - eta * 6.868024913964549)
            * s
            * (eta * eta)
        + dchi * dchi * 23.08504961982195 * eta.powf(3.0)
        + (T::from(3.7989582331116707) - eta * 19.36029310028481) * (s * s)
}

/// Inspiral collocation value of |h21| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -0.2457309233525402 * (T::from(1.0) - eta * 1.8588313811238013) * eta.powf(3.0)
        + dchi * 0.007720682776232238 * (T::from(1.0) - eta * 14.5539282402835) * s * eta.powf(3.0)
        + dchi * dchi * 0.00002718410442799091 * eta.powf(3.0)
        + s * (delta * -0.019371607120048675 * eta + delta * 0.03368798661754525 * (eta * eta)
            - delta * 0.0347647962890128 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.12222678288098383) - eta * 2.152654527154567
                + eta * eta * 34.53692688859637
                - eta.powf(3.0) * 317.45437636541044
                + eta.powf(4.0) * 1625.665271951051
                - eta.powf(5.0) * 4325.99209923682
                + eta.powf(6.0) * 4661.112076870376)
        + (delta * -0.004130586129052499 * eta - delta * 0.034242170459751614 * (eta * eta)
            + delta * 0.1845040639852827 * eta.powf(3.0))
            * (s * s)
        + (delta * 0.00023312994425693458 * eta - delta * 0.006465524142621246 * (eta * eta)
            + delta * 0.02059744168116181 * eta.powf(3.0))
            * s.powf(3.0)
        + (delta * -0.010994253719930009 * eta + delta * 0.1617856319808047 * (eta * eta)
            - delta * 0.5128238142456396 * eta.powf(3.0))
            * s.powf(4.0)
}

/// Inspiral collocation value of |h21| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -0.5514762410690445 * (T::from(1.0) - eta * 1.6606901062713382) * eta.powf(3.0)
        - dchi
            * 0.021703163232290525
            * (T::from(1.0) + eta * 12.285199361388841)
            * s
            * eta.powf(3.0)
        + dchi * dchi * 0.00027551818326783677 * eta.powf(3.0)
        + s * (delta * -0.013014289088905106 * eta - delta * 0.14836733162360224 * (eta * eta)
            + delta * 0.3879852721571224 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.15072063925506032) - eta * 0.8093028329445506
                + eta * eta * 6.206684655292913
                - eta.powf(3.0) * 24.88401414398108
                + eta.powf(4.0) * 38.250250718164864)
        + (delta * -0.025960288375186314 * eta + delta * 0.09485066561654602 * (eta * eta)
            - delta * 0.12985415687429802 * eta.powf(3.0))
            * (s * s)
        + (delta * -0.031051316903933826 * eta + delta * 0.29808639962599887 * (eta * eta)
            - delta * 0.7880170636799876 * eta.powf(3.0))
            * s.powf(3.0)
}

/// Inspiral collocation value of |h21| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -0.6553365123485911 * (T::from(1.0) - eta * 1.5398595374318753) * eta.powf(3.0)
        - dchi * 0.03414520050962973 * (T::from(1.0) + eta * 10.152070659598607) * s * eta.powf(3.0)
        + dchi * dchi * 0.0003514981514078436 * eta.powf(3.0)
        + s * (delta * -0.02358276114828079 * eta - delta * 0.06676889646672902 * (eta * eta)
            + delta * 0.10431702660244097 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.16554873311231985) - eta * 0.6991328198972108
                + eta * eta * 4.8998331628863
                - eta.powf(3.0) * 17.811340834192666
                + eta.powf(4.0) * 25.04713555013603)
        + (delta * -0.03170047769861336 * eta + delta * 0.12228560605854709 * (eta * eta)
            - delta * 0.2157318828663416 * eta.powf(3.0))
            * (s * s)
        + (delta * -0.02241156276655523 * eta + delta * 0.1503547988268005 * (eta * eta)
            - delta * 0.32463957366468943 * eta.powf(3.0))
            * s.powf(3.0)
}

/// Merger collocation value of |h21| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -0.9639235481813841 * (T::from(1.0) - eta * 0.0953303705707973) * eta.powf(3.0)
        + dchi * 0.023311043707270836 * (T::from(1.0) - eta * 45.56758470014973) * s * eta.powf(3.0)
        + dchi * dchi * 0.0006882033227649262 * eta.powf(3.0)
        + s * (delta * -0.07909979765641208 * eta
            - delta * 0.1082323292489176 * (eta * eta)
            - delta * 0.059050965420919255 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.2650216550129358) - eta * 0.6689867318991676
                + eta * eta * 6.322130556715582
                - eta.powf(3.0) * 25.30530828638204
                + eta.powf(4.0) * 37.57098989317853)
        + (delta * -0.048774914332679824 * eta
            + delta * 0.058892171955548835 * (eta * eta)
            + delta * 0.04519042054728839 * eta.powf(3.0))
            * (s * s)
        + (delta * -0.04972189708933256 * eta + delta * 0.32903712470645846 * (eta * eta)
            - delta * 0.7095763077249748 * eta.powf(3.0))
            * s.powf(3.0)
}

/// Peak value of |h21| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_21`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -1.124757115880216 * (T::from(1.0) + eta * 3.9089731034256547) * eta.powf(3.0)
        + dchi * 0.14171442436657175 * s * eta.powf(3.0)
        - (T::from(1.0) + delta * 12111.971615981536)
            * 7.996997960509883e-6
            * (dchi * dchi)
            * eta.powf(3.0)
        + delta
            * eta
            * (T::from(0.5940439865028524) - eta * 2.6802250765521083
                + eta * eta * 23.43295820742704
                - eta.powf(3.0) * 89.91427919476679
                + eta.powf(4.0) * 129.10731997830192)
        + s * (delta * -0.40438488955545776 * eta + delta * 0.6359546829540189 * (eta * eta)
            - delta * 7.6174781238188 * eta.powf(3.0)
            + delta * 20.156475820119724 * eta.powf(4.0))
        + (delta * -0.04723336574759155 * eta
            + delta * 0.18082387349024776 * (eta * eta)
            + delta * 1.7306679608818485 * eta.powf(3.0)
            - delta * 8.236553093624009 * eta.powf(4.0))
            * (s * s)
        + (delta * -0.12534984288882925 * eta
            + delta * 0.6131320823681302 * (eta * eta)
            + delta * 5.1648126976659885 * eta.powf(3.0)
            - delta * 24.289576920541403 * eta.powf(4.0))
            * s.powf(3.0)
        + (delta * 0.07112546745185065 * eta - delta * 1.3149279454050955 * (eta * eta)
            + delta * 8.514263145733384 * eta.powf(3.0)
            - delta * 14.271807407363035 * eta.powf(4.0))
            * s.powf(4.0)
}

/// Ringdown amplitude coefficient c3 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, dchi, .. } = *p;
    T::from(-0.04334302376511826) - eta * 0.17676752692299327
        + eta * eta * 0.4505339209591958
        + s * (T::from(-0.06491024396051823) - eta * 1.1215130164808509
            + eta * eta * 2.5523011435327345)
        + (T::from(-0.28713100991035806) + eta * 1.2391262662740283
            - eta * eta * 2.7551841346664796)
            * (s * s)
        + (T::from(-0.6910312848115802) + eta * 5.91843541910692 - eta * eta * 13.892447750204266)
            * s.powf(3.0)
        + dchi * 0.0
}

/// Time of the peak of |h21| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_21`; Estellés et al., arXiv:2012.11923.
pub fn tshift_21<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, dchi, .. } = *p;
    T::from(11.67621653653603) - eta * 73.94592135375544
        + eta * eta * 617.5327332811615
        + s * (T::from(0.2309485101131543) - eta * 57.0459017581492
            + eta * eta * 222.97200099809325)
        - eta.powf(3.0) * 2819.458362260437
        - dchi * 681.9002621172333 * (T::from(1.0) - eta * 3.989581262513545) * eta.powf(3.0)
        - dchi * 1440.639932639621 * (T::from(1.0) - eta * 4.206805719889809) * s * eta.powf(3.0)
        + dchi * dchi * 42.39667266040204 * eta.powf(3.0)
        + eta.powf(4.0) * 4546.903391979042
        + (T::from(2.2730487886808395) - eta * 47.65323000340801 + eta * eta * 57.297549898351896)
            * (s * s)
        + (T::from(-1.7237973456372406) + eta * 21.732949566815307 - eta * eta * 187.71334824449366)
            * s.powf(3.0)
}

/// Ringdown frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_21<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(0.059471695665734674) - af * 0.07585416297991414 + x2 * 0.021967909664591865
        - x3 * 0.0018964744613388146
        + x4 * 0.001164879406179587
        - x5 * 0.0003387374454044957)
        / (T::from(1.0) - af * 1.4437415542456158 + x2 * 0.49246920313191234)
}

/// Damping frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_21<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(2.0696914454467294) - af * 3.1358071947583093
        + x2 * 0.14456081596393977
        + x3 * 1.2194717985037946
        - x4 * 0.2947372598589144
        + x5 * 0.002943057145913646)
        / (T::from(146.1779212636481) - af * 219.81790388304876
            + x2 * 17.7141194900164
            + x3 * 75.90115083917898
            - x4 * 18.975287709794745)
}

/// Damping frequency of the (2,1,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_21<T: Real>(af: T) -> T {
    T::from(0.04357957255256736)
        + T::from(1.0) / (T::from(2.0) - af * 1.9092143068452778)
            * (af * -0.0019991187832937543 - af * af * 0.00397223929602004
                + af.powf(3.0) * 0.0027170335545048836
                - af.powf(4.0) * 0.003787735584625901
                + af.powf(5.0) * 0.003238742776891051
                + af.powf(6.0) * 0.0014093180629203572)
}

// ---- (3,3) mode ----

/// Merger collocation value of ω33 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.28925318007299916) - eta * 0.11957063600442912 + eta * eta * 1.1589911273564353
        - dchi
            * 0.5263424292081523
            * delta
            * (T::from(1.0) - eta * 1.8018453981168454)
            * (eta * eta)
        - dchi
            * 1.509871876079703
            * delta
            * (T::from(1.0) - eta * 4.654249984146787)
            * s
            * (eta * eta)
        - eta.powf(3.0) * 1.5455016775261783
        - dchi * dchi * 0.08410864613712594 * eta.powf(3.0)
        + s * (T::from(0.13053774656007028)
            - eta * 0.1436725066031307
            - eta * eta * 0.3988589708046106
            + eta.powf(3.0) * 1.6814308803706919)
        + (T::from(0.06962116377895124) - eta * 0.25606130995761806 + eta * eta * 2.809259385656226
            - eta.powf(3.0) * 10.655152499726746)
            * (s * s)
        + (T::from(0.13941546691342796) - eta * 1.4663373405231797 + eta * eta * 7.242184758809972
            - eta.powf(3.0) * 14.156137151704971)
            * s.powf(3.0)
        + (T::from(0.11741728765640543) - eta * 0.9473051744486624
            + eta * eta * 0.1981448121599412
            + eta.powf(3.0) * 8.2668429483671)
            * s.powf(4.0)
}

/// ω33 at the peak of |h33|.
///
/// LAL: `IMRPhenomT_PeakFrequency_33`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, dchi, .. } = *p;
    T::from(0.42535721148121036)
        + eta * 0.3085253521281911
        + s * (T::from(0.1280277017287708) + eta * 0.15271593642827125
            - eta * eta * 0.9083681800119519)
        + eta * eta * 0.9392741497311157
        - dchi * 0.20785772397714286 * (T::from(1.0) - eta * 3.487216886252809) * (eta * eta)
        - dchi * 0.7863911902548658 * (T::from(1.0) - eta * 4.74913840513059) * s * (eta * eta)
        - dchi * dchi * 0.41376935975085416 * eta.powf(3.0)
        + (T::from(0.09308538633777035) + eta * 0.055164833113211194
            - eta * eta * 1.1480525120934546)
            * (s * s)
        + (T::from(0.09945668702979882) - eta * 0.5488068825374101 + eta * eta * 0.8675986447602085)
            * s.powf(3.0)
}

/// Ringdown frequency coefficient c2 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.16417885317959574)
        + eta * 0.25804336274633655
        + (T::from(-0.02961300365618534) - eta * 0.006664043292875596) * s
        - eta * eta * 0.9792038927762032
        + dchi * 1.9953234313463062 * delta * (T::from(1.0) - eta * 5.45249062802972) * (eta * eta)
        + dchi
            * 6.3956780147142e-6
            * delta
            * (T::from(1.0) + eta * 1.617071409433673e6)
            * s
            * (eta * eta)
        - dchi * dchi * 1.2001578283095737 * eta.powf(3.0)
        + (T::from(-0.06346953330083285) + eta * 0.12623926538220964) * (s * s)
        + (T::from(-0.015173742568790456) + eta * 0.016604992725771543) * s.powf(3.0)
}

/// Ringdown frequency coefficient c3 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(2.0503935647397173)
        + eta * 2.238118245943281
        + (T::from(0.7121733508300451) - eta * 0.397525795105057) * s
        - eta * eta * 12.794117052655967
        + dchi * 36.20571065481121 * delta * (T::from(1.0) - eta * 5.537022415039092) * (eta * eta)
        + dchi
            * 0.00018637091124974205
            * delta
            * (T::from(1.0) + eta * 1.2667084084427443e6)
            * s
            * (eta * eta)
        - dchi * dchi * 21.894760631998928 * eta.powf(3.0)
        + (T::from(0.4988930825119534) - eta * 3.4004257158793045) * (s * s)
        + (T::from(1.0586608433869105) - eta * 5.625073332864818) * s.powf(3.0)
}

/// Inspiral collocation value of |h33| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta
        * -0.00005000414942937797
        * (T::from(1.0) - eta * 3.0430401949925754)
        * eta
        * (dchi * dchi)
        - dchi * 0.03836271211298855 * (T::from(1.0) - eta * 4.654767900586748) * eta.powf(3.0)
        + dchi * 0.007041962008283751 * (T::from(1.0) - eta * 3.238646631077093) * s * eta.powf(3.0)
        + s * (delta * 0.0432725315235326 * eta - delta * 0.3128744737439017 * (eta * eta)
            + delta * 0.7249180430447414 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.22272167356880285) - eta * 3.217949139895537
                + eta * eta * 45.52929729100423
                - eta.powf(3.0) * 379.70414120110206
                + eta.powf(4.0) * 1801.6287410802781
                - eta.powf(5.0) * 4505.468825419055
                + eta.powf(6.0) * 4606.517765490795)
        + (delta * 0.015232248632190103 * eta - delta * 0.15205944312376768 * (eta * eta)
            + delta * 0.38322848961855754 * eta.powf(3.0))
            * (s * s)
}

/// Inspiral collocation value of |h33| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta * -0.0005485061120167634 * (T::from(1.0) - eta * 5.249847868911592) * eta * (dchi * dchi)
        - dchi * 0.13406080756104294 * (T::from(1.0) - eta * 4.791415116248203) * eta.powf(3.0)
        - dchi * 0.025192101240368327 * (T::from(1.0) - eta * 5.557132409376257) * s * eta.powf(3.0)
        + s * (delta * 0.09903436069097878 * eta - delta * 0.5266490647574258 * (eta * eta)
            + delta * 1.082646288776612 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.296454036493377) - eta * 2.741774425959176 + eta * eta * 42.10341453030946
                - eta.powf(3.0) * 391.5079943491554
                + eta.powf(4.0) * 2084.7204836711294
                - eta.powf(5.0) * 5857.9923995429735
                + eta.powf(6.0) * 6724.299707693131)
        + (delta * 0.04482378193895758 * eta - delta * 0.34909482801592684 * (eta * eta)
            + delta * 0.798188874585321 * eta.powf(3.0))
            * (s * s)
}

/// Inspiral collocation value of |h33| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta
        * -0.00014989518553589642
        * (T::from(1.0) + eta * 0.10284764229097754)
        * eta
        * (dchi * dchi)
        - dchi * 0.16531803034216744 * (T::from(1.0) - eta * 4.9470029202324755) * eta.powf(3.0)
        - dchi * 0.031723644862959394 * (T::from(1.0) - eta * 5.870965439700585) * s * eta.powf(3.0)
        + s * (delta * 0.11070499324391728 * eta - delta * 0.5112660954416434 * (eta * eta)
            + delta * 0.9943348519498412 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.3081004973876298) - eta * 1.4982270638091204
                + eta * eta * 10.664775575232024
                + eta.powf(3.0) * 2.0410986773159214
                - eta.powf(4.0) * 472.97637767340444
                + eta.powf(5.0) * 2442.526427205543
                - eta.powf(6.0) * 3894.4435672165723)
        + (delta * 0.0509202148340841 * eta - delta * 0.3395424984982766 * (eta * eta)
            + delta * 0.7165890644210602 * eta.powf(3.0))
            * (s * s)
}

/// Merger collocation value of |h33| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta * -0.0009410965748168944 * (T::from(1.0) - eta * 7.241296835003745) * eta * (dchi * dchi)
        - dchi * 0.14546859303533213 * (T::from(1.0) - eta * 8.38731410081936) * eta.powf(3.0)
        - dchi * 0.1398648328352838 * (T::from(1.0) - eta * 5.537001000046034) * s * eta.powf(3.0)
        + s * (delta * 0.11682330636277577 * eta - delta * 0.2730553632132845 * (eta * eta)
            + delta * 0.5237293086635135 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.44186265057020313) - eta * 1.2636555898615027
                + eta * eta * 18.126195225020272
                - eta.powf(3.0) * 130.51981907268976
                + eta.powf(4.0) * 526.5238580108073
                - eta.powf(5.0) * 1078.532545666921
                + eta.powf(6.0) * 849.9216826816613)
        + (delta * 0.0510403796344345 * eta - delta * 0.180522632008535 * (eta * eta)
            + delta * 0.4330636324653828 * eta.powf(3.0))
            * (s * s)
}

/// Peak value of |h33| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_33`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta * -0.003288482386411718 * (T::from(1.0) - eta * 8.612308762619447) * eta * (dchi * dchi)
        + delta
            * eta
            * (T::from(0.5684405079702229) - eta * 0.00028819674607128055
                + eta * eta * 2.777740140752971
                - eta.powf(3.0) * 2.3599556709823535)
        + dchi * 0.03887129318550153 * (T::from(1.0) + eta * 42.30525422235957) * eta.powf(3.0)
        - dchi * 0.2051295687108511 * (T::from(1.0) - eta * 4.34985595987507) * s * eta.powf(3.0)
        + s * (delta * 0.0652759726861487 * eta + delta * 0.25561789058890033 * (eta * eta)
            - delta * 1.3134311480695775 * eta.powf(3.0))
        + (delta * 0.04814607684462918 * eta - delta * 0.3140983091545102 * (eta * eta)
            + delta * 1.1976699463228568 * eta.powf(3.0))
            * (s * s)
        + (delta * 0.03619614547561679 * eta - delta * 0.5532673160072701 * (eta * eta)
            + delta * 2.4943333040591695 * eta.powf(3.0))
            * s.powf(3.0)
}

/// Ringdown amplitude coefficient c3 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, .. } = *p;
    T::from(-0.28666660414434536)
        + eta * 0.5669087275249756
        + s * (T::from(-0.22961653919716726) + eta * 0.7755862716197967
            - eta * eta * 0.03726170050389395)
        - eta * eta * 0.2969983864658452
        + (T::from(-0.2177519810696989) + eta * 1.5186886188134678 - eta * eta * 2.1091591639362255)
            * (s * s)
        + (T::from(0.018605290436426794) + eta * 0.8121676169377119 - eta * eta * 3.309654335397225)
            * s.powf(3.0)
}

/// Time of the peak of |h33| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_33`; Estellés et al., arXiv:2012.11923.
pub fn tshift_33<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, .. } = *p;
    T::from(6.047225180659371) - eta * 63.50001473845436
        + s * (T::from(1.26487072884024) + eta * 9.789577125790505 - eta * eta * 18.51669370705306)
        + eta * eta * 451.1074541600744
        - eta.powf(3.0) * 893.7051616506715
        + (T::from(3.816104939071836) - eta * 8.676597277291323 - eta * eta * 5.808122950219083)
            * (s * s)
        + (T::from(2.1374074060226045) - eta * 1.2219912746034096 - eta * eta * 31.342471666791727)
            * s.powf(3.0)
}

/// Ringdown frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_33<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.09540436245212061) - af * 0.22799517865876945
        + x2 * 0.13402916709362475
        + x3 * 0.03343753057911253
        - x4 * 0.030848060170259615
        - x5 * 0.006756504382964637
        + x6 * 0.0027301732074159835)
        / (T::from(1.0) - af * 2.7265947806178334 + x2 * 2.144070539525238
            - x4 * 0.4706873667569393
            + x6 * 0.05321818246993958)
}

/// Damping frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_33<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(0.014754148319335946) - af * 0.03124423610028678
        + x2 * 0.017192623913708124
        + x3 * 0.001034954865629645
        - x4 * 0.0015925124814622795
        - x5 * 0.0001414350555699256)
        / (T::from(1.0) - af * 2.0963684630756894 + x2 * 1.196809702382645
            - x4 * 0.09874113387889819)
}

/// Damping frequency of the (3,3,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_33<T: Real>(af: T) -> T {
    T::from(0.04478453069660422)
        + T::from(1.0) / (T::from(2.0) - af * 1.9490123990107866)
            * (af * -0.0027276947367212184 - af * af * 0.005325382420460958
                + af.powf(3.0) * 0.0011090264831122598
                + af.powf(4.0) * 0.007374826520017088
                - af.powf(5.0) * 0.000513882756528504
                - af.powf(6.0) * 0.011798583916595289
                + af.powf(7.0) * 0.002064124132395282
                + af.powf(8.0) * 0.007865115260801307)
}

// ---- (4,4) mode ----

/// Merger collocation value of ω44 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.3839588385106795) - eta * 0.1433725509161493
        + s * (T::from(0.16172235324877973)
            - eta * 0.029039848526679315
            - eta * eta * 0.5078615524759549)
        + eta * eta * 1.549008100266779
        - eta.powf(3.0) * 2.782419405121844
        - dchi
            * 6.300899329929631
            * delta
            * (T::from(1.0) - eta * 3.4163840266407193)
            * eta.powf(3.0)
        + dchi
            * 3.785702496330771e-7
            * delta
            * (T::from(1.0) - eta * 7.683429533133828e6)
            * s
            * eta.powf(3.0)
        - dchi * dchi * 0.006896021141579361 * eta.powf(3.0)
        + (T::from(0.08448608215066597)
            - eta * 0.04225970075410604
            - eta * eta * 0.5752978186367078)
            * (s * s)
        + (T::from(0.19977344584848072) - eta * 1.6500083087892263 + eta * eta * 3.6200398572688224)
            * s.powf(3.0)
        + (T::from(0.17526054184412337) - eta * 1.6567766073748962 + eta * eta * 3.920825944654624)
            * s.powf(4.0)
}

/// ω44 at the peak of |h44|.
///
/// LAL: `IMRPhenomT_PeakFrequency_44`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.5640094664638)
        + eta * 0.3956446752668519
        + s * (T::from(0.16597514208305744) + eta * 0.38143981208933403
            - eta * eta * 1.9002920053147696)
        + eta * eta * 2.5091004914938675
        - eta.powf(3.0) * 7.403354368373608
        - dchi
            * 5.257927939622048
            * delta
            * (T::from(1.0) - eta * 5.385135507412752)
            * eta.powf(3.0)
        + dchi
            * 1.1110261817411248e-7
            * delta
            * (T::from(1.0) - eta * 1.0881293779054403e7)
            * s
            * eta.powf(3.0)
        - dchi * dchi * 0.06378504432547372 * eta.powf(3.0)
        + (T::from(0.08205749018653839) + eta * 0.016449185328805776
            - eta * eta * 0.509112344628105)
            * (s * s)
        + (T::from(0.13245468901111399) - eta * 1.0716792675901017 + eta * eta * 2.631350201223915)
            * s.powf(3.0)
        + (T::from(0.0798820256896006) - eta * 0.6976704383121812 + eta * eta * 1.6808658698855679)
            * s.powf(4.0)
}

/// Ringdown frequency coefficient c2 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.21336620664104916) - eta * 0.20527614713716544
        + (T::from(-0.057793617403743454) + eta * 0.234794019739202) * s
        - eta * eta * 0.5040007874429419
        + dchi
            * 1.7980712659091223
            * delta
            * (T::from(1.0) - eta * 4.3332243187779715)
            * (eta * eta)
        + dchi
            * 5.615398937364741
            * delta
            * (T::from(1.0) - eta * 4.67655881619209)
            * s
            * (eta * eta)
        + dchi * dchi * 0.019754287494577062 * eta.powf(3.0)
        + (T::from(-0.06870289106806035) + eta * 0.18761585848765555) * (s * s)
}

/// Ringdown frequency coefficient c3 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(3.824722911046124) - eta * 19.434149952978917
        + (T::from(1.1492216649186293) - eta * 0.1794193390842707) * s
        + eta * eta * 46.15218473526611
        - dchi
            * 5.329235322993467e-6
            * delta
            * (T::from(1.0) + eta * 3.600409478406777e6)
            * (eta * eta)
        + dchi
            * 108.44244729377574
            * delta
            * (T::from(1.0) - eta * 4.948832996449642)
            * s
            * (eta * eta)
        + dchi * dchi * 0.8202829030161741 * eta.powf(3.0)
        + (T::from(0.3851268017278357) - eta * 1.4577127768796085) * (s * s)
}

/// Inspiral collocation value of |h44| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    let fit = s
        * (eta * 0.00929146984958081 - eta * eta * 0.058559157503356614
            + eta.powf(3.0) * 0.09641520260278541)
        - dchi
            * 0.06256463263004813
            * delta
            * (T::from(1.0) - eta * 4.724937783266512)
            * eta.powf(3.0)
        - dchi
            * 0.01735529698327505
            * delta
            * (T::from(1.0) - eta * 3.514044834242014)
            * s
            * eta.powf(3.0)
        + dchi * dchi * 0.000842117844243168 * eta.powf(3.0)
        + eta
            * (T::from(0.0799508735514674) - eta * 2.266747175041431
                + eta * eta * 49.99562376971802
                - eta.powf(3.0) * 699.4551506778732
                + eta.powf(4.0) * 6096.872857701541
                - eta.powf(5.0) * 33243.794194712485
                + eta.powf(6.0) * 110236.14177804616
                - eta.powf(7.0) * 203224.30569500144
                + eta.powf(8.0) * 159685.76954854574)
        + (eta * 0.0036836428878512274 - eta * eta * 0.032181253212945134
            + eta.powf(3.0) * 0.06990383731270383)
            * (s * s)
        + (eta * 0.005305905044786687 - eta * eta * 0.05454070105726642
            + eta.powf(3.0) * 0.1328930616146293)
            * s.powf(3.0);
    fit.abs()
}

/// Inspiral collocation value of |h44| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    let fit = s
        * (eta * 0.032054779889996984 - eta * eta * 0.1824264213397133
            + eta.powf(3.0) * 0.2662860950846518)
        - dchi
            * 0.09838860200524911
            * delta
            * (T::from(1.0) - eta * 4.413878576399552)
            * eta.powf(3.0)
        - dchi
            * 0.07541756416690493
            * delta
            * (T::from(1.0) - eta * 4.896726739338081)
            * s
            * eta.powf(3.0)
        + dchi * dchi * 0.00024755181872440586 * eta.powf(3.0)
        + eta
            * (T::from(0.10752001314377323) - eta * 1.3996074805076077
                + eta * eta * 17.290345408924
                - eta.powf(3.0) * 146.28994121129182
                + eta.powf(4.0) * 710.8477248404537
                - eta.powf(5.0) * 1819.0962884465648
                + eta.powf(6.0) * 1897.1460245953783)
        + (eta * 0.020209039503607196 - eta * eta * 0.1635522752682757
            + eta.powf(3.0) * 0.3379077937523624)
            * (s * s)
        + (eta * 0.016250056498330504 - eta * eta * 0.1599454341389429
            + eta.powf(3.0) * 0.38060091765599724)
            * s.powf(3.0);
    fit.abs()
}

/// Inspiral collocation value of |h44| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    let fit = s
        * (eta * 0.0375923390273927 - eta * eta * 0.19675674044979322
            + eta.powf(3.0) * 0.2524073874950236)
        - dchi
            * 0.10103910572578918
            * delta
            * (T::from(1.0) - eta * 4.5113969567894685)
            * eta.powf(3.0)
        - dchi
            * 0.075429355757026
            * delta
            * (T::from(1.0) - eta * 5.38318094443173)
            * s
            * eta.powf(3.0)
        - dchi * dchi * 0.0001543369511547082 * eta.powf(3.0)
        + eta
            * (T::from(0.11684543226973083) - eta * 1.1708344201904572
                + eta * eta * 11.160637047449095
                - eta.powf(3.0) * 76.70545398788732
                + eta.powf(4.0) * 299.88284206545273
                - eta.powf(5.0) * 611.534557826681
                + eta.powf(6.0) * 503.71541521565484)
        + (eta * 0.025070408583957437 - eta * eta * 0.18759667520550588
            + eta.powf(3.0) * 0.36148626759006963)
            * (s * s)
        + (eta * 0.02203846168885738 - eta * eta * 0.20949146417573655
            + eta.powf(3.0) * 0.4885519836075034)
            * s.powf(3.0);
    fit.abs()
}

/// Merger collocation value of |h44| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    let fit = s
        * (eta * 0.058706429585806096 - eta * eta * 0.29646515787762634
            + eta.powf(3.0) * 0.3413797381980054)
        + dchi
            * 0.002277607502351356
            * delta
            * (T::from(1.0) + eta * 205.78624315268536)
            * eta.powf(3.0)
        + dchi
            * 1.4842139797582348e-6
            * delta
            * (T::from(1.0) + eta * 109390.82655130373)
            * s
            * eta.powf(3.0)
        + dchi * dchi * 0.0034168773116717826 * eta.powf(3.0)
        + eta
            * (T::from(0.1883789790445804) - eta * 1.3375818588191817
                + eta * eta * 14.678591980033465
                - eta.powf(3.0) * 137.42245036191002
                + eta.powf(4.0) * 729.2611054727125
                - eta.powf(5.0) * 2042.3910621805978
                + eta.powf(6.0) * 2339.4396482545535)
        + (eta * 0.03693734108438023 - eta * eta * 0.2701634652682831
            + eta.powf(3.0) * 0.5277025188909843)
            * (s * s)
        + (eta * 0.01916289858506809 - eta * eta * 0.16587706623865955
            + eta.powf(3.0) * 0.3873216009596506)
            * s.powf(3.0);
    fit.abs()
}

/// Peak value of |h44| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_44`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    let fit = dchi
        * 0.697452842995687
        * delta
        * (T::from(1.0) - eta * 1.5644622288381207)
        * eta.powf(3.0)
        + dchi
            * 0.7491313799476855
            * delta
            * (T::from(1.0) - eta * 5.51514415207437)
            * s
            * eta.powf(3.0)
        + dchi * dchi * 0.03263766742842678 * eta.powf(3.0)
        + s * (eta * 0.08013462545147897 - eta * eta * 0.707339986581501
            + eta.powf(3.0) * 1.4945536281037473)
        + eta
            * (T::from(0.27614097883794725)
                - eta * 0.403452380875202
                - eta * eta * 15.80475783619391
                + eta.powf(3.0) * 227.28867728765587
                - eta.powf(4.0) * 1523.2444219539561
                + eta.powf(5.0) * 4722.659771036674
                - eta.powf(6.0) * 5388.149395981192)
        + (eta * 0.0484478773571511 - eta * eta * 0.5421173150365266
            + eta.powf(3.0) * 1.5486181139304755)
            * (s * s)
        + (eta * 0.019255034163450358 - eta * eta * 0.18207194531823234
            + eta.powf(3.0) * 0.4812433162713078)
            * s.powf(3.0);
    fit.abs()
}

/// Ringdown amplitude coefficient c3 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, .. } = *p;
    T::from(-0.1772709159577312) - eta * 0.3910604290424687
        + s * (T::from(-0.14215203243769525)
            + eta * 0.6136073658063063
            + eta * eta * 0.11700379912379351)
        + eta * eta * 5.876832797574524
        + (T::from(-0.15523859963666756) + eta * 0.5879889924742473 - eta * eta * 3.514395471691389)
            * (s * s)
        + (T::from(-0.0829048220630192) - eta * 1.965867892839485 + eta * eta * 11.364728644855896)
            * s.powf(3.0)
}

/// Time of the peak of |h44| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_44`; Estellés et al., arXiv:2012.11923.
pub fn tshift_44<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, .. } = *p;
    s * (T::from(-5.203270014829841) + eta * 181.27080583258746 - eta * eta * 1529.1896864534942
        + eta.powf(3.0) * 3705.463809339287)
        + T::from(1.0) / (T::from(1.0) - eta * 2.812531081541394)
            * (T::from(6.6472023470033585) - eta * 98.64869153538237
                + eta * eta * 1148.4724313577744
                - eta.powf(3.0) * 6720.146266369297
                + eta.powf(4.0) * 13400.05768313269)
        + (T::from(6.9133369343740565) - eta * 15.898281197030528 - eta * eta * 364.6027054334757
            + eta.powf(3.0) * 1362.455178365237)
            * (s * s)
        + (T::from(23.15294108414908) - eta * 333.2730725495644 + eta * eta * 1647.4278543557452
            - eta.powf(3.0) * 2702.213569022611)
            * s.powf(3.0)
}

/// Ringdown frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_44<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.1287821193485683) - af * 0.21224284094693793
        + x2 * 0.0710926778043916
        + x3 * 0.015487322972031054
        - x4 * 0.002795401084713644
        + x5 * 0.000045483523029172406
        + x6 * 0.00034775290179000503)
        / (T::from(1.0) - af * 1.9931645124693607 + x2 * 1.0593147376898773
            - x4 * 0.06378640753152783)
}

/// Damping frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_44<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.014986847152355699) - af * 0.01722587715950451 - x2 * 0.0016734788189065538
        + x3 * 0.0002837322846047305
        + x4 * 0.002510528746148588
        + x5 * 0.00031983835498725354
        + x6 * 0.000812185411753066)
        / (T::from(1.0) - af * 1.1350205970682399 - x2 * 0.0500827971270845
            + x4 * 0.13983808071522857
            + x6 * 0.051876225199833995)
}

/// Damping frequency of the (4,4,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_44<T: Real>(af: T) -> T {
    T::from(0.04526815749399381)
        + T::from(1.0) / (T::from(2.0) - af * 1.9488568618006608)
            * (af * -0.001778614725637923 - af * af * 0.00645234041653255
                + af.powf(3.0) * 0.0008619365083550613
                + af.powf(4.0) * 0.0076173707591557305
                - af.powf(5.0) * 0.0005521040642302851
                - af.powf(6.0) * 0.012109903894557721
                + af.powf(7.0) * 0.0022638317039992374
                + af.powf(8.0) * 0.008166822924109219)
}

// ---- (5,5) mode ----

/// Merger collocation value of ω55 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.49157926097800314) - eta * 0.5109882379431707
        + s * (T::from(0.23504290986387008) - eta * 0.4663579238504208
            + eta * eta * 0.6335674200647748)
        + eta * eta * 5.1971222617574755
        - eta.powf(3.0) * 17.312514984111704
        - dchi
            * 8.220653931136855
            * delta
            * (T::from(1.0) - eta * 3.377023099309163)
            * eta.powf(3.0)
        - dchi * 4.92651904204219 * (T::from(1.0) - eta * 4.0976182182508625) * s * eta.powf(3.0)
        + eta.powf(4.0) * 22.250087206692136
        + (T::from(0.01818932761340069) + eta * 1.2525110439050509 - eta * eta * 4.785925497931221)
            * (s * s)
        + (T::from(0.05473740403349404) + eta * 0.204944664491078 - eta * eta * 1.5320283880617676)
            * s.powf(3.0)
        + (T::from(0.19945251844606834) - eta * 2.3208613314645397 + eta * eta * 6.551836762093784)
            * s.powf(4.0)
}

/// ω55 at the peak of |h55|.
///
/// LAL: `IMRPhenomT_PeakFrequency_55`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.7146297908371999)
        + eta * 0.1421128402132339
        + eta * eta * 7.659311331111322
        + s * (T::from(0.29191927041842664) - eta * 0.6512295551490094
            + eta * eta * 1.021846701552054)
        - eta.powf(3.0) * 38.14301940776831
        - dchi
            * 3.460574689440357
            * delta
            * (T::from(1.0) - eta * 4.738903271021608)
            * eta.powf(3.0)
        - dchi * 8.262749319140365 * (T::from(1.0) - eta * 4.1126856272636285) * s * eta.powf(3.0)
        + eta.powf(4.0) * 69.0208119373966
        + (T::from(-0.17737667108149985) + eta * 4.564503709808925 - eta * eta * 15.457705511019)
            * (s * s)
        + (T::from(-0.08755132408422435) + eta * 1.8185807604067965 - eta * eta * 5.710975144545469)
            * s.powf(3.0)
        + (T::from(0.4020378024101137) - eta * 6.137619764177151 + eta * eta * 19.730459568297885)
            * s.powf(4.0)
}

/// Ringdown frequency coefficient c2 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(0.2143703929690296) - eta * 0.26905171511199966
        + (T::from(-0.057285673301351384) + eta * 0.22530123030818466) * s
        - eta * eta * 0.22128464791686953
        + dchi * 1.2330723562386177 * delta * (T::from(1.0) - eta * 5.234362591591656) * (eta * eta)
        + dchi
            * 2.7651387378521104
            * delta
            * (T::from(1.0) - eta * 4.529998650048839)
            * s
            * (eta * eta)
        - dchi * dchi * 0.02296167789737978 * eta.powf(3.0)
        + (T::from(-0.06187017465583654) + eta * 0.19469068079404978) * (s * s)
}

/// Ringdown frequency coefficient c3 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    T::from(3.421296704767661) - eta * 12.809224663506237
        + (T::from(0.17979866256123875) + eta * 3.9220602497543733) * s
        + eta * eta * 22.579308761647468
        + dchi * 38.938817471901075 * delta * (T::from(1.0) - eta * 5.439168816882736) * (eta * eta)
        + dchi
            * 102.01005958254325
            * delta
            * (T::from(1.0) - eta * 4.94517313697764)
            * s
            * (eta * eta)
        + dchi * dchi * 8.156992533112646 * eta.powf(3.0)
        + (T::from(-0.8276383989425874) + eta * 5.653818482979737) * (s * s)
}

/// Inspiral collocation value of |h55| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * -0.0019775643769147514 * (T::from(1.0) - eta * 4.53924184281778) * eta.powf(3.0)
        + dchi
            * 0.0014385048318273654
            * (T::from(1.0) - eta * 3.856415079702643)
            * s
            * eta.powf(3.0)
        + s * (delta * 0.004541994163205327 * eta - delta * 0.032008447973076316 * (eta * eta)
            + delta * 0.06489393530989815 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.028336688600531488) - eta * 0.5409697917194701
                + eta * eta * 5.981455840165866
                - eta.powf(3.0) * 35.58496309663864
                + eta.powf(4.0) * 106.06125067357719
                - eta.powf(5.0) * 124.75528935423806)
        + (delta * 0.0014791305997009444 * eta - delta * 0.013564901743537111 * (eta * eta)
            + delta * 0.032142792215182195 * eta.powf(3.0))
            * (s * s)
}

/// Inspiral collocation value of |h55| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta * -0.00003724952333242274 * (T::from(1.0) - eta * 3.452222430510181) * eta * (dchi * dchi)
        - dchi * 0.009011493135309705 * (T::from(1.0) - eta * 4.802896680414448) * eta.powf(3.0)
        - dchi
            * 0.00013127526660987315
            * (T::from(1.0) - eta * 30.606067223270347)
            * s
            * eta.powf(3.0)
        + s * (delta * 0.018145201665260808 * eta - delta * 0.10875155354973318 * (eta * eta)
            + delta * 0.1967640499342343 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.05099973356701926) - eta * 0.9909406291652298
                + eta * eta * 16.002112346656087
                - eta.powf(3.0) * 151.48298211427934
                + eta.powf(4.0) * 798.2800157600177
                - eta.powf(5.0) * 2185.7904303138503
                + eta.powf(6.0) * 2423.2590529527615)
        + (delta * 0.007157848585528541 * eta - delta * 0.04884915304244923 * (eta * eta)
            + delta * 0.09053190435686395 * eta.powf(3.0))
            * (s * s)
}

/// Inspiral collocation value of |h55| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta
        * 0.000014325948759589005
        * (T::from(1.0) - eta * 0.6402417006774828)
        * eta
        * (dchi * dchi)
        - dchi * 0.010476190606527443 * (T::from(1.0) - eta * 5.143499750443247) * eta.powf(3.0)
        - dchi
            * 0.0030979537930086267
            * (T::from(1.0) - eta * 5.795657988613435)
            * s
            * eta.powf(3.0)
        + s * (delta * 0.02269381988843006 * eta - delta * 0.12335053938879872 * (eta * eta)
            + delta * 0.20474150752693748 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.04442248963378816) - eta * 0.26245173832295265
                + eta * eta * 0.03870693239289467
                + eta.powf(3.0) * 20.204218440428264
                - eta.powf(4.0) * 181.23307091031228
                + eta.powf(5.0) * 648.6147508591258
                - eta.powf(6.0) * 849.2143555875599)
        + (delta * 0.00913213583658649 * eta - delta * 0.04919000144868387 * (eta * eta)
            + delta * 0.065986695477459 * eta.powf(3.0))
            * (s * s)
}

/// Merger collocation value of |h55| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    delta * -0.00031681692142477853 * (T::from(1.0) - eta * 6.678258498810139) * eta * (dchi * dchi)
        + dchi * 0.04782012096371179 * (T::from(1.0) - eta * 2.4136112323522805) * eta.powf(3.0)
        + dchi * 0.017136472806300446 * (T::from(1.0) - eta * 2.278716802319452) * s * eta.powf(3.0)
        + s * (delta * 0.035540705171105316 * eta - delta * 0.13367790689815431 * (eta * eta)
            + delta * 0.1379312625561125 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.09741180071981874) - eta * 1.125020791484383
                + eta * eta * 19.71417205433866
                - eta.powf(3.0) * 206.5659386239305
                + eta.powf(4.0) * 1187.7241527779179
                - eta.powf(5.0) * 3511.371401268973
                + eta.powf(6.0) * 4163.584096800788)
        + (delta * 0.018044647105118435 * eta - delta * 0.09834030851538031 * (eta * eta)
            + delta * 0.18292980258680058 * eta.powf(3.0))
            * (s * s)
}

/// Peak value of |h55| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_55`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = *p;
    dchi * 0.29446699883224503 * (T::from(1.0) - eta * 2.8126528389736913) * eta.powf(3.0)
        + dchi * 0.13166834017031467 * (T::from(1.0) - eta * 3.6911791457138365) * s * eta.powf(3.0)
        + s * (delta * 0.04335058078657487 * eta - delta * 0.21976500003781027 * (eta * eta)
            + delta * 0.1427254606254177 * eta.powf(3.0))
        + delta
            * eta
            * (T::from(0.25471102988397937) - eta * 6.119431622115874
                + eta * eta * 125.28192989146497
                - eta.powf(3.0) * 1339.55067240476
                + eta.powf(4.0) * 7641.25542069701
                - eta.powf(5.0) * 22186.340091384493
                + eta.powf(6.0) * 25846.606598287333)
        + (delta * 0.029015863810076155 * eta - delta * 0.4063151087943421 * (eta * eta)
            + delta * 1.419210840554402 * eta.powf(3.0))
            * (s * s)
        + (delta * 0.01147033599820311 * eta - delta * 0.28735230830842273 * (eta * eta)
            + delta * 1.1999844084222553 * eta.powf(3.0))
            * s.powf(3.0)
}

/// Ringdown amplitude coefficient c3 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, dchi, .. } = *p;
    T::from(0.01889156394866289) - eta * 7.843569775936414
        + s * (T::from(-0.11458748447064408)
            - eta * 0.3369320850812222
            - eta * eta * 0.022525692986479693)
        + eta * eta * 73.19838355427139
        - eta.powf(3.0) * 170.9024182786024
        + dchi * 76.38168535871085 * (T::from(1.0) - eta * 3.8805106289918205) * eta.powf(3.0)
        + dchi * 42.628290542501134 * (T::from(1.0) - eta * 4.260931557685223) * s * eta.powf(3.0)
        + (T::from(-0.18370843418415694) + eta * 4.918601029356566 - eta * eta * 17.29835518657168)
            * (s * s)
}

/// Time of the peak of |h55| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_55`; Estellés et al., arXiv:2012.11923.
pub fn tshift_55<T: Real>(p: &FitInputs<T>) -> T {
    let FitInputs { eta, s, .. } = *p;
    T::from(-0.3189869259194407) + eta * 153.08687719603935 - eta * eta * 1376.0895569730135
        + s * (T::from(10.62118364975699) - eta * 128.69299551679973
            + eta * eta * 401.7008544741773)
        + eta.powf(3.0) * 3511.1779067574766
        + (T::from(10.036441054322665) - eta * 75.42317272972994 + eta * eta * 180.54334490779055)
            * (s * s)
        + (T::from(6.658297274982426) - eta * 35.88874981710895 + eta * eta * 33.86225466072782)
            * s.powf(3.0)
}

/// Ringdown frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_55<T: Real>(af: T) -> T {
    T::from(0.16110773330909547)
        + (af * 0.056600832610159385 + af * af * 0.030041275213566483
            - af.powf(3.0) * 0.07522309632456432
            - af.powf(4.0) * 0.036341969761668556
            + af.powf(5.0) * 0.015617599737487714
            + af.powf(6.0) * 0.0062588909671250715
            + af.powf(7.0) * 0.004242111725892476
            + af.powf(8.0) * 0.0014913342466081074)
            * (T::from(1.0)
                / (T::from(1.0) + af * 0.008923302958356548 - af * af * 1.666395858912649
                    + af.powf(4.0) * 0.6697719493836555))
}

/// Damping frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_55<T: Real>(af: T) -> T {
    T::from(0.015104212245401403)
        + T::from(1.0) / (T::from(2.0) - af * 1.9485458003209648)
            * (af * -0.0002946999837678157 - af * af * 0.0024189312940399916
                + af.powf(3.0) * 0.0002099427928656942
                + af.powf(4.0) * 0.00258435043118687
                - af.powf(5.0) * 0.00020630579058983925
                - af.powf(6.0) * 0.004126708789254023
                + af.powf(7.0) * 0.0007950067180727237
                + af.powf(8.0) * 0.0027916616982894588)
}

/// Damping frequency of the (5,5,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_55<T: Real>(af: T) -> T {
    T::from(0.04550451880252191)
        + T::from(1.0) / (T::from(2.0) - af * 1.948578997793657)
            * (af * -0.0012254856066171247 - af * af * 0.007001556265084966
                + af.powf(3.0) * 0.0006934110689396443
                + af.powf(4.0) * 0.007758785424957949
                - af.powf(5.0) * 0.0005928556371123753
                - af.powf(6.0) * 0.012383887808125627
                + af.powf(7.0) * 0.002365118383999583
                + af.powf(8.0) * 0.00838080791280435)
}
