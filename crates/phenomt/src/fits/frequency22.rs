//! Fits of the (2,2) frequency: the TaylorT3 time constant t0, the five inspiral collocation
//! values (θ = 0.45 … 0.82), the merger collocation value (θ = 0.95), the frequency at the peak
//! and the two Damour–Nagar ringdown coefficients (docs/imrphenomt.md §5.2–5.4).
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::{FitArgs, FitInputs};
use crate::scalar::Real;

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
