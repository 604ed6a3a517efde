//! Fits of the (4,4) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::FitInputs;
use crate::scalar::Real;

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
