//! Fits of the (3,3) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::FitInputs;
use crate::scalar::Real;

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
