//! Fits of the (2,1) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::FitInputs;
use crate::scalar::Real;

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
