//! Fits of the (4,4) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::form::fit;
use super::FitInputs;
use crate::scalar::Real;

/// Merger collocation value of ω44 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.3839588385106795),
        Times(-0.1433725509161493, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.16172235324877973, -0.029039848526679315, -0.5078615524759549])]),
        Times(1.549008100266779, &[Eta(2)]),
        Times(-2.782419405121844, &[Eta(3)]),
        Times(-6.300899329929631, &[Dchi(1), Delta, Poly(&[1.0, -3.4163840266407193]), Eta(3)]),
        Times(3.785702496330771e-7,
            &[Dchi(1), Delta, Poly(&[1.0, -7.683429533133828e6]), S(1), Eta(3)]),
        Times(-0.006896021141579361, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[0.08448608215066597, -0.04225970075410604, -0.5752978186367078]), S(2)]),
        Product(&[Poly(&[0.19977344584848072, -1.6500083087892263, 3.6200398572688224]), S(3)]),
        Product(&[Poly(&[0.17526054184412337, -1.6567766073748962, 3.920825944654624]), S(4)]),
    )
}

/// ω44 at the peak of |h44|.
///
/// LAL: `IMRPhenomT_PeakFrequency_44`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.5640094664638),
        Times(0.3956446752668519, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.16597514208305744, 0.38143981208933403, -1.9002920053147696])]),
        Times(2.5091004914938675, &[Eta(2)]),
        Times(-7.403354368373608, &[Eta(3)]),
        Times(-5.257927939622048, &[Dchi(1), Delta, Poly(&[1.0, -5.385135507412752]), Eta(3)]),
        Times(1.1110261817411248e-7,
            &[Dchi(1), Delta, Poly(&[1.0, -1.0881293779054403e7]), S(1), Eta(3)]),
        Times(-0.06378504432547372, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[0.08205749018653839, 0.016449185328805776, -0.509112344628105]), S(2)]),
        Product(&[Poly(&[0.13245468901111399, -1.0716792675901017, 2.631350201223915]), S(3)]),
        Product(&[Poly(&[0.0798820256896006, -0.6976704383121812, 1.6808658698855679]), S(4)]),
    )
}

/// Ringdown frequency coefficient c2 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.21336620664104916),
        Times(-0.20527614713716544, &[Eta(1)]),
        Product(&[Poly(&[-0.057793617403743454, 0.234794019739202]), S(1)]),
        Times(-0.5040007874429419, &[Eta(2)]),
        Times(1.7980712659091223, &[Dchi(1), Delta, Poly(&[1.0, -4.3332243187779715]), Eta(2)]),
        Times(5.615398937364741, &[Dchi(1), Delta, Poly(&[1.0, -4.67655881619209]), S(1), Eta(2)]),
        Times(0.019754287494577062, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[-0.06870289106806035, 0.18761585848765555]), S(2)]),
    )
}

/// Ringdown frequency coefficient c3 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(3.824722911046124),
        Times(-19.434149952978917, &[Eta(1)]),
        Product(&[Poly(&[1.1492216649186293, -0.1794193390842707]), S(1)]),
        Times(46.15218473526611, &[Eta(2)]),
        Times(-5.329235322993467e-6, &[Dchi(1), Delta, Poly(&[1.0, 3.600409478406777e6]), Eta(2)]),
        Times(108.44244729377574,
            &[Dchi(1), Delta, Poly(&[1.0, -4.948832996449642]), S(1), Eta(2)]),
        Times(0.8202829030161741, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[0.3851268017278357, -1.4577127768796085]), S(2)]),
    )
}

/// Inspiral collocation value of |h44| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Product(&[S(1), Poly1(&[0.00929146984958081, -0.058559157503356614, 0.09641520260278541])]),
        Times(-0.06256463263004813, &[Dchi(1), Delta, Poly(&[1.0, -4.724937783266512]), Eta(3)]),
        Times(-0.01735529698327505,
            &[Dchi(1), Delta, Poly(&[1.0, -3.514044834242014]), S(1), Eta(3)]),
        Times(0.000842117844243168, &[Dchi(2), Eta(3)]),
        Product(&[Eta(1), Poly(&[0.0799508735514674, -2.266747175041431, 49.99562376971802,
            -699.4551506778732, 6096.872857701541, -33243.794194712485, 110236.14177804616,
            -203224.30569500144, 159685.76954854574])]),
        Product(&[Poly1(&[0.0036836428878512274, -0.032181253212945134, 0.06990383731270383]),
            S(2)]),
        Product(&[Poly1(&[0.005305905044786687, -0.05454070105726642, 0.1328930616146293]), S(3)]),
    )
    .abs()
}

/// Inspiral collocation value of |h44| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Product(&[S(1), Poly1(&[0.032054779889996984, -0.1824264213397133, 0.2662860950846518])]),
        Times(-0.09838860200524911, &[Dchi(1), Delta, Poly(&[1.0, -4.413878576399552]), Eta(3)]),
        Times(-0.07541756416690493,
            &[Dchi(1), Delta, Poly(&[1.0, -4.896726739338081]), S(1), Eta(3)]),
        Times(0.00024755181872440586, &[Dchi(2), Eta(3)]),
        Product(&[Eta(1), Poly(&[0.10752001314377323, -1.3996074805076077, 17.290345408924,
            -146.28994121129182, 710.8477248404537, -1819.0962884465648, 1897.1460245953783])]),
        Product(&[Poly1(&[0.020209039503607196, -0.1635522752682757, 0.3379077937523624]), S(2)]),
        Product(&[Poly1(&[0.016250056498330504, -0.1599454341389429, 0.38060091765599724]), S(3)]),
    )
    .abs()
}

/// Inspiral collocation value of |h44| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_44`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Product(&[S(1), Poly1(&[0.0375923390273927, -0.19675674044979322, 0.2524073874950236])]),
        Times(-0.10103910572578918, &[Dchi(1), Delta, Poly(&[1.0, -4.5113969567894685]), Eta(3)]),
        Times(-0.075429355757026, &[Dchi(1), Delta, Poly(&[1.0, -5.38318094443173]), S(1), Eta(3)]),
        Times(-0.0001543369511547082, &[Dchi(2), Eta(3)]),
        Product(&[Eta(1), Poly(&[0.11684543226973083, -1.1708344201904572, 11.160637047449095,
            -76.70545398788732, 299.88284206545273, -611.534557826681, 503.71541521565484])]),
        Product(&[Poly1(&[0.025070408583957437, -0.18759667520550588, 0.36148626759006963]), S(2)]),
        Product(&[Poly1(&[0.02203846168885738, -0.20949146417573655, 0.4885519836075034]), S(3)]),
    )
    .abs()
}

/// Merger collocation value of |h44| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_44`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Product(&[S(1), Poly1(&[0.058706429585806096, -0.29646515787762634, 0.3413797381980054])]),
        Times(0.002277607502351356, &[Dchi(1), Delta, Poly(&[1.0, 205.78624315268536]), Eta(3)]),
        Times(1.4842139797582348e-6,
            &[Dchi(1), Delta, Poly(&[1.0, 109390.82655130373]), S(1), Eta(3)]),
        Times(0.0034168773116717826, &[Dchi(2), Eta(3)]),
        Product(&[Eta(1), Poly(&[0.1883789790445804, -1.3375818588191817, 14.678591980033465,
            -137.42245036191002, 729.2611054727125, -2042.3910621805978, 2339.4396482545535])]),
        Product(&[Poly1(&[0.03693734108438023, -0.2701634652682831, 0.5277025188909843]), S(2)]),
        Product(&[Poly1(&[0.01916289858506809, -0.16587706623865955, 0.3873216009596506]), S(3)]),
    )
    .abs()
}

/// Peak value of |h44| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_44`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(0.697452842995687, &[Dchi(1), Delta, Poly(&[1.0, -1.5644622288381207]), Eta(3)]),
        Times(0.7491313799476855, &[Dchi(1), Delta, Poly(&[1.0, -5.51514415207437]), S(1), Eta(3)]),
        Times(0.03263766742842678, &[Dchi(2), Eta(3)]),
        Product(&[S(1), Poly1(&[0.08013462545147897, -0.707339986581501, 1.4945536281037473])]),
        Product(&[Eta(1), Poly(&[0.27614097883794725, -0.403452380875202, -15.80475783619391,
            227.28867728765587, -1523.2444219539561, 4722.659771036674, -5388.149395981192])]),
        Product(&[Poly1(&[0.0484478773571511, -0.5421173150365266, 1.5486181139304755]), S(2)]),
        Product(&[Poly1(&[0.019255034163450358, -0.18207194531823234, 0.4812433162713078]), S(3)]),
    )
    .abs()
}

/// Ringdown amplitude coefficient c3 of the 44 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_44`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(-0.1772709159577312),
        Times(-0.3910604290424687, &[Eta(1)]),
        Product(&[S(1), Poly(&[-0.14215203243769525, 0.6136073658063063, 0.11700379912379351])]),
        Times(5.876832797574524, &[Eta(2)]),
        Product(&[Poly(&[-0.15523859963666756, 0.5879889924742473, -3.514395471691389]), S(2)]),
        Product(&[Poly(&[-0.0829048220630192, -1.965867892839485, 11.364728644855896]), S(3)]),
    )
}

/// Time of the peak of |h44| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_44`; Estellés et al., arXiv:2012.11923.
pub fn tshift_44<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Product(&[S(1), Poly(&[-5.203270014829841, 181.27080583258746, -1529.1896864534942,
            3705.463809339287])]),
        Product(&[Inv(&[1.0, -2.812531081541394]), Poly(&[6.6472023470033585, -98.64869153538237,
            1148.4724313577744, -6720.146266369297, 13400.05768313269])]),
        Product(&[Poly(&[6.9133369343740565, -15.898281197030528, -364.6027054334757,
            1362.455178365237]), S(2)]),
        Product(&[Poly(&[23.15294108414908, -333.2730725495644, 1647.4278543557452,
            -2702.213569022611]), S(3)]),
    )
}
