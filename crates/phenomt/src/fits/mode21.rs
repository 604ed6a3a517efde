//! Fits of the (2,1) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::form::fit;
use super::FitInputs;
use crate::scalar::Real;

/// Merger collocation value of ω21 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.10101718570562333),
        Times(-0.04992957057407379, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.04387200581505385, -0.05535236748836419, 0.01186527081077273])]),
        Times(0.8320472976764316, &[Eta(2)]),
        Times(-3.412564517258671, &[Eta(3)]),
        Times(0.009795051484012513, &[Dchi(2), Eta(3)]),
        Times(-0.7263372008413999,
            &[Dchi(1), Sum(&[Const(1.0), Times(-15.69074025438453, &[Eta(2)])]), Eta(3)]),
        Times(-0.7339408066430174,
            &[Dchi(1), S(1), Sum(&[Const(1.0), Times(-15.642722738277692, &[Eta(2)])]), Eta(3)]),
        Times(5.462583026633245, &[Eta(4)]),
        Product(&[Poly(&[0.02791012586433232, -0.10972878398255334, 0.18332510886777628]), S(2)]),
        Product(&[Poly(&[0.050124128159139206, -0.44122176836073457, 1.0574966327609319]), S(3)]),
        Product(&[Poly(&[0.03798592538296406, -0.3390611616798471, 0.7453351213562277]), S(4)]),
        Times(0.0, &[Delta]),
    )
}

/// ω21 at the peak of |h21|.
///
/// LAL: `IMRPhenomT_PeakFrequency_21`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.17642087831932626),
        Times(0.31718290537914057, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.03094734575888092, 0.07319676429288274, -0.4370939605469398])]),
        Times(-2.2156624517537873, &[Eta(2)]),
        Times(14.007580103948815, &[Eta(3)]),
        Times(2.641340486447181, &[Dchi(1), Delta, Poly(&[1.0, -6.221406704917193]), Eta(3)]),
        Times(4.353108475005447, &[Dchi(1), Delta, Poly(&[1.0, -8.473808274993978]), S(1), Eta(3)]),
        Times(-0.036084481180729745, &[Dchi(2), Eta(3)]),
        Times(-26.085064860873068, &[Eta(4)]),
        Product(&[Poly(&[0.017462707546942863, -0.11463071986182106, 0.2800463367551972]), S(2)]),
        Product(&[Poly(&[0.033646159761323895, -0.33812286198554814, 0.9635090140454092]), S(3)]),
        Product(&[Poly(&[-0.0011779170821489254, 0.18369948603536548, -0.5978006007616697]), S(4)]),
    )
}

/// Ringdown frequency coefficient c2 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.1781545202005886),
        Times(0.10906983816039043, &[Eta(1)]),
        Product(&[Poly(&[-0.023905104384959013, 0.1831847458257083]), S(1)]),
        Times(-0.5060291743082528, &[Eta(2)]),
        Times(-0.309304704734991, &[Dchi(1), Delta, Poly(&[1.0, -2.5742929128570724]), Eta(2)]),
        Times(2.1883684085193034,
            &[Dchi(1), Delta, Poly(&[1.0, -4.850311934387953]), S(1), Eta(2)]),
        Times(0.25978316114962485, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[-0.00955976176018747, -0.18697585595061622]), S(2)]),
        Product(&[Poly(&[0.04468930365659441, -0.44170842157754653]), S(3)]),
    )
}

/// Ringdown frequency coefficient c3 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(3.757258772469613),
        Times(0.08380574896251641, &[Eta(1)]),
        Product(&[Poly(&[3.634895503051922, -8.174660936683596]), S(1)]),
        Times(-18.17832018576314, &[Eta(2)]),
        Times(0.000043786944413372623,
            &[Dchi(1), Delta, Poly(&[1.0, -2.0348094407156347e6]), Eta(2)]),
        Times(60.2475724845033, &[Dchi(1), Delta, Poly(&[1.0, -6.868024913964549]), S(1), Eta(2)]),
        Times(23.08504961982195, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[3.7989582331116707, -19.36029310028481]), S(2)]),
    )
}

/// Inspiral collocation value of |h21| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.2457309233525402, &[Dchi(1), Poly(&[1.0, -1.8588313811238013]), Eta(3)]),
        Times(0.007720682776232238, &[Dchi(1), Poly(&[1.0, -14.5539282402835]), S(1), Eta(3)]),
        Times(0.00002718410442799091, &[Dchi(2), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[-0.019371607120048675, 0.03368798661754525,
            -0.0347647962890128])]),
        Product(&[Delta, Eta(1), Poly(&[0.12222678288098383, -2.152654527154567, 34.53692688859637,
            -317.45437636541044, 1625.665271951051, -4325.99209923682, 4661.112076870376])]),
        Product(&[DeltaPoly1(&[-0.004130586129052499, -0.034242170459751614, 0.1845040639852827]),
            S(2)]),
        Product(&[DeltaPoly1(&[0.00023312994425693458, -0.006465524142621246, 0.02059744168116181]),
            S(3)]),
        Product(&[DeltaPoly1(&[-0.010994253719930009, 0.1617856319808047, -0.5128238142456396]),
            S(4)]),
    )
}

/// Inspiral collocation value of |h21| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.5514762410690445, &[Dchi(1), Poly(&[1.0, -1.6606901062713382]), Eta(3)]),
        Times(-0.021703163232290525, &[Dchi(1), Poly(&[1.0, 12.285199361388841]), S(1), Eta(3)]),
        Times(0.00027551818326783677, &[Dchi(2), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[-0.013014289088905106, -0.14836733162360224,
            0.3879852721571224])]),
        Product(&[Delta, Eta(1), Poly(&[0.15072063925506032, -0.8093028329445506, 6.206684655292913,
            -24.88401414398108, 38.250250718164864])]),
        Product(&[DeltaPoly1(&[-0.025960288375186314, 0.09485066561654602, -0.12985415687429802]),
            S(2)]),
        Product(&[DeltaPoly1(&[-0.031051316903933826, 0.29808639962599887, -0.7880170636799876]),
            S(3)]),
    )
}

/// Inspiral collocation value of |h21| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_21`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.6553365123485911, &[Dchi(1), Poly(&[1.0, -1.5398595374318753]), Eta(3)]),
        Times(-0.03414520050962973, &[Dchi(1), Poly(&[1.0, 10.152070659598607]), S(1), Eta(3)]),
        Times(0.0003514981514078436, &[Dchi(2), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[-0.02358276114828079, -0.06676889646672902,
            0.10431702660244097])]),
        Product(&[Delta, Eta(1), Poly(&[0.16554873311231985, -0.6991328198972108, 4.8998331628863,
            -17.811340834192666, 25.04713555013603])]),
        Product(&[DeltaPoly1(&[-0.03170047769861336, 0.12228560605854709, -0.2157318828663416]),
            S(2)]),
        Product(&[DeltaPoly1(&[-0.02241156276655523, 0.1503547988268005, -0.32463957366468943]),
            S(3)]),
    )
}

/// Merger collocation value of |h21| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_21`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.9639235481813841, &[Dchi(1), Poly(&[1.0, -0.0953303705707973]), Eta(3)]),
        Times(0.023311043707270836, &[Dchi(1), Poly(&[1.0, -45.56758470014973]), S(1), Eta(3)]),
        Times(0.0006882033227649262, &[Dchi(2), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[-0.07909979765641208, -0.1082323292489176,
            -0.059050965420919255])]),
        Product(&[Delta, Eta(1), Poly(&[0.2650216550129358, -0.6689867318991676, 6.322130556715582,
            -25.30530828638204, 37.57098989317853])]),
        Product(&[DeltaPoly1(&[-0.048774914332679824, 0.058892171955548835, 0.04519042054728839]),
            S(2)]),
        Product(&[DeltaPoly1(&[-0.04972189708933256, 0.32903712470645846, -0.7095763077249748]),
            S(3)]),
    )
}

/// Peak value of |h21| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_21`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-1.124757115880216, &[Dchi(1), Poly(&[1.0, 3.9089731034256547]), Eta(3)]),
        Times(0.14171442436657175, &[Dchi(1), S(1), Eta(3)]),
        Times(-7.996997960509883e-6,
            &[Sum(&[Const(1.0), Times(12111.971615981536, &[Delta])]), Dchi(2), Eta(3)]),
        Product(&[Delta, Eta(1), Poly(&[0.5940439865028524, -2.6802250765521083, 23.43295820742704,
            -89.91427919476679, 129.10731997830192])]),
        Product(&[S(1), DeltaPoly1(&[-0.40438488955545776, 0.6359546829540189, -7.6174781238188,
            20.156475820119724])]),
        Product(&[DeltaPoly1(&[-0.04723336574759155, 0.18082387349024776, 1.7306679608818485,
            -8.236553093624009]), S(2)]),
        Product(&[DeltaPoly1(&[-0.12534984288882925, 0.6131320823681302, 5.1648126976659885,
            -24.289576920541403]), S(3)]),
        Product(&[DeltaPoly1(&[0.07112546745185065, -1.3149279454050955, 8.514263145733384,
            -14.271807407363035]), S(4)]),
    )
}

/// Ringdown amplitude coefficient c3 of the 21 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_21`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(-0.04334302376511826),
        Times(-0.17676752692299327, &[Eta(1)]),
        Times(0.4505339209591958, &[Eta(2)]),
        Product(&[S(1), Poly(&[-0.06491024396051823, -1.1215130164808509, 2.5523011435327345])]),
        Product(&[Poly(&[-0.28713100991035806, 1.2391262662740283, -2.7551841346664796]), S(2)]),
        Product(&[Poly(&[-0.6910312848115802, 5.91843541910692, -13.892447750204266]), S(3)]),
        Times(0.0, &[Dchi(1)]),
    )
}

/// Time of the peak of |h21| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_21`; Estellés et al., arXiv:2012.11923.
pub fn tshift_21<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(11.67621653653603),
        Times(-73.94592135375544, &[Eta(1)]),
        Times(617.5327332811615, &[Eta(2)]),
        Product(&[S(1), Poly(&[0.2309485101131543, -57.0459017581492, 222.97200099809325])]),
        Times(-2819.458362260437, &[Eta(3)]),
        Times(-681.9002621172333, &[Dchi(1), Poly(&[1.0, -3.989581262513545]), Eta(3)]),
        Times(-1440.639932639621, &[Dchi(1), Poly(&[1.0, -4.206805719889809]), S(1), Eta(3)]),
        Times(42.39667266040204, &[Dchi(2), Eta(3)]),
        Times(4546.903391979042, &[Eta(4)]),
        Product(&[Poly(&[2.2730487886808395, -47.65323000340801, 57.297549898351896]), S(2)]),
        Product(&[Poly(&[-1.7237973456372406, 21.732949566815307, -187.71334824449366]), S(3)]),
    )
}
