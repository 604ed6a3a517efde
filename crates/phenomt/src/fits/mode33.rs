//! Fits of the (3,3) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::form::fit;
use super::FitInputs;
use crate::scalar::Real;

/// Merger collocation value of ω33 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.28925318007299916),
        Times(-0.11957063600442912, &[Eta(1)]),
        Times(1.1589911273564353, &[Eta(2)]),
        Times(-0.5263424292081523, &[Dchi(1), Delta, Poly(&[1.0, -1.8018453981168454]), Eta(2)]),
        Times(-1.509871876079703,
            &[Dchi(1), Delta, Poly(&[1.0, -4.654249984146787]), S(1), Eta(2)]),
        Times(-1.5455016775261783, &[Eta(3)]),
        Times(-0.08410864613712594, &[Dchi(2), Eta(3)]),
        Product(&[S(1), Poly(&[0.13053774656007028, -0.1436725066031307, -0.3988589708046106,
            1.6814308803706919])]),
        Product(&[Poly(&[0.06962116377895124, -0.25606130995761806, 2.809259385656226,
            -10.655152499726746]), S(2)]),
        Product(&[Poly(&[0.13941546691342796, -1.4663373405231797, 7.242184758809972,
            -14.156137151704971]), S(3)]),
        Product(&[Poly(&[0.11741728765640543, -0.9473051744486624, 0.1981448121599412,
            8.2668429483671]), S(4)]),
    )
}

/// ω33 at the peak of |h33|.
///
/// LAL: `IMRPhenomT_PeakFrequency_33`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.42535721148121036),
        Times(0.3085253521281911, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.1280277017287708, 0.15271593642827125, -0.9083681800119519])]),
        Times(0.9392741497311157, &[Eta(2)]),
        Times(-0.20785772397714286, &[Dchi(1), Poly(&[1.0, -3.487216886252809]), Eta(2)]),
        Times(-0.7863911902548658, &[Dchi(1), Poly(&[1.0, -4.74913840513059]), S(1), Eta(2)]),
        Times(-0.41376935975085416, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[0.09308538633777035, 0.055164833113211194, -1.1480525120934546]), S(2)]),
        Product(&[Poly(&[0.09945668702979882, -0.5488068825374101, 0.8675986447602085]), S(3)]),
    )
}

/// Ringdown frequency coefficient c2 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.16417885317959574),
        Times(0.25804336274633655, &[Eta(1)]),
        Product(&[Poly(&[-0.02961300365618534, -0.006664043292875596]), S(1)]),
        Times(-0.9792038927762032, &[Eta(2)]),
        Times(1.9953234313463062, &[Dchi(1), Delta, Poly(&[1.0, -5.45249062802972]), Eta(2)]),
        Times(6.3956780147142e-6,
            &[Dchi(1), Delta, Poly(&[1.0, 1.617071409433673e6]), S(1), Eta(2)]),
        Times(-1.2001578283095737, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[-0.06346953330083285, 0.12623926538220964]), S(2)]),
        Product(&[Poly(&[-0.015173742568790456, 0.016604992725771543]), S(3)]),
    )
}

/// Ringdown frequency coefficient c3 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(2.0503935647397173),
        Times(2.238118245943281, &[Eta(1)]),
        Product(&[Poly(&[0.7121733508300451, -0.397525795105057]), S(1)]),
        Times(-12.794117052655967, &[Eta(2)]),
        Times(36.20571065481121, &[Dchi(1), Delta, Poly(&[1.0, -5.537022415039092]), Eta(2)]),
        Times(0.00018637091124974205,
            &[Dchi(1), Delta, Poly(&[1.0, 1.2667084084427443e6]), S(1), Eta(2)]),
        Times(-21.894760631998928, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[0.4988930825119534, -3.4004257158793045]), S(2)]),
        Product(&[Poly(&[1.0586608433869105, -5.625073332864818]), S(3)]),
    )
}

/// Inspiral collocation value of |h33| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.00005000414942937797,
            &[Delta, Poly(&[1.0, -3.0430401949925754]), Eta(1), Dchi(2)]),
        Times(-0.03836271211298855, &[Dchi(1), Poly(&[1.0, -4.654767900586748]), Eta(3)]),
        Times(0.007041962008283751, &[Dchi(1), Poly(&[1.0, -3.238646631077093]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.0432725315235326, -0.3128744737439017,
            0.7249180430447414])]),
        Product(&[Delta, Eta(1), Poly(&[0.22272167356880285, -3.217949139895537, 45.52929729100423,
            -379.70414120110206, 1801.6287410802781, -4505.468825419055, 4606.517765490795])]),
        Product(&[DeltaPoly1(&[0.015232248632190103, -0.15205944312376768, 0.38322848961855754]),
            S(2)]),
    )
}

/// Inspiral collocation value of |h33| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.0005485061120167634, &[Delta, Poly(&[1.0, -5.249847868911592]), Eta(1), Dchi(2)]),
        Times(-0.13406080756104294, &[Dchi(1), Poly(&[1.0, -4.791415116248203]), Eta(3)]),
        Times(-0.025192101240368327, &[Dchi(1), Poly(&[1.0, -5.557132409376257]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.09903436069097878, -0.5266490647574258,
            1.082646288776612])]),
        Product(&[Delta, Eta(1), Poly(&[0.296454036493377, -2.741774425959176, 42.10341453030946,
            -391.5079943491554, 2084.7204836711294, -5857.9923995429735, 6724.299707693131])]),
        Product(&[DeltaPoly1(&[0.04482378193895758, -0.34909482801592684, 0.798188874585321]),
            S(2)]),
    )
}

/// Inspiral collocation value of |h33| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_33`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.00014989518553589642,
            &[Delta, Poly(&[1.0, 0.10284764229097754]), Eta(1), Dchi(2)]),
        Times(-0.16531803034216744, &[Dchi(1), Poly(&[1.0, -4.9470029202324755]), Eta(3)]),
        Times(-0.031723644862959394, &[Dchi(1), Poly(&[1.0, -5.870965439700585]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.11070499324391728, -0.5112660954416434,
            0.9943348519498412])]),
        Product(&[Delta, Eta(1), Poly(&[0.3081004973876298, -1.4982270638091204, 10.664775575232024,
            2.0410986773159214, -472.97637767340444, 2442.526427205543, -3894.4435672165723])]),
        Product(&[DeltaPoly1(&[0.0509202148340841, -0.3395424984982766, 0.7165890644210602]),
            S(2)]),
    )
}

/// Merger collocation value of |h33| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_33`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.0009410965748168944, &[Delta, Poly(&[1.0, -7.241296835003745]), Eta(1), Dchi(2)]),
        Times(-0.14546859303533213, &[Dchi(1), Poly(&[1.0, -8.38731410081936]), Eta(3)]),
        Times(-0.1398648328352838, &[Dchi(1), Poly(&[1.0, -5.537001000046034]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.11682330636277577, -0.2730553632132845,
            0.5237293086635135])]),
        Product(&[Delta, Eta(1), Poly(&[0.44186265057020313, -1.2636555898615027,
            18.126195225020272, -130.51981907268976, 526.5238580108073, -1078.532545666921,
            849.9216826816613])]),
        Product(&[DeltaPoly1(&[0.0510403796344345, -0.180522632008535, 0.4330636324653828]), S(2)]),
    )
}

/// Peak value of |h33| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_33`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.003288482386411718, &[Delta, Poly(&[1.0, -8.612308762619447]), Eta(1), Dchi(2)]),
        Product(&[Delta, Eta(1), Poly(&[0.5684405079702229, -0.00028819674607128055,
            2.777740140752971, -2.3599556709823535])]),
        Times(0.03887129318550153, &[Dchi(1), Poly(&[1.0, 42.30525422235957]), Eta(3)]),
        Times(-0.2051295687108511, &[Dchi(1), Poly(&[1.0, -4.34985595987507]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.0652759726861487, 0.25561789058890033,
            -1.3134311480695775])]),
        Product(&[DeltaPoly1(&[0.04814607684462918, -0.3140983091545102, 1.1976699463228568]),
            S(2)]),
        Product(&[DeltaPoly1(&[0.03619614547561679, -0.5532673160072701, 2.4943333040591695]),
            S(3)]),
    )
}

/// Ringdown amplitude coefficient c3 of the 33 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_33`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(-0.28666660414434536),
        Times(0.5669087275249756, &[Eta(1)]),
        Product(&[S(1), Poly(&[-0.22961653919716726, 0.7755862716197967, -0.03726170050389395])]),
        Times(-0.2969983864658452, &[Eta(2)]),
        Product(&[Poly(&[-0.2177519810696989, 1.5186886188134678, -2.1091591639362255]), S(2)]),
        Product(&[Poly(&[0.018605290436426794, 0.8121676169377119, -3.309654335397225]), S(3)]),
    )
}

/// Time of the peak of |h33| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_33`; Estellés et al., arXiv:2012.11923.
pub fn tshift_33<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(6.047225180659371),
        Times(-63.50001473845436, &[Eta(1)]),
        Product(&[S(1), Poly(&[1.26487072884024, 9.789577125790505, -18.51669370705306])]),
        Times(451.1074541600744, &[Eta(2)]),
        Times(-893.7051616506715, &[Eta(3)]),
        Product(&[Poly(&[3.816104939071836, -8.676597277291323, -5.808122950219083]), S(2)]),
        Product(&[Poly(&[2.1374074060226045, -1.2219912746034096, -31.342471666791727]), S(3)]),
    )
}
