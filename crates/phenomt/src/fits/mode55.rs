//! Fits of the (5,5) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::FitInputs;
use crate::scalar::Real;

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
