//! Fits of the (5,5) mode, for IMRPhenomTHM: its merger collocation frequency, peak frequency
//! and ringdown frequency coefficients, its amplitude's collocation values, peak value and
//! ringdown coefficient, and the time of its peak relative to the peak of |h22|. Its
//! quasi-normal-mode frequencies are in `qnm.rs`.
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::form::fit;
use super::FitInputs;
use crate::scalar::Real;

/// Merger collocation value of ω55 at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Freq_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn merger_freq_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.49157926097800314),
        Times(-0.5109882379431707, &[Eta(1)]),
        Product(&[S(1), Poly(&[0.23504290986387008, -0.4663579238504208, 0.6335674200647748])]),
        Times(5.1971222617574755, &[Eta(2)]),
        Times(-17.312514984111704, &[Eta(3)]),
        Times(-8.220653931136855, &[Dchi(1), Delta, Poly(&[1.0, -3.377023099309163]), Eta(3)]),
        Times(-4.92651904204219, &[Dchi(1), Poly(&[1.0, -4.0976182182508625]), S(1), Eta(3)]),
        Times(22.250087206692136, &[Eta(4)]),
        Product(&[Poly(&[0.01818932761340069, 1.2525110439050509, -4.785925497931221]), S(2)]),
        Product(&[Poly(&[0.05473740403349404, 0.204944664491078, -1.5320283880617676]), S(3)]),
        Product(&[Poly(&[0.19945251844606834, -2.3208613314645397, 6.551836762093784]), S(4)]),
    )
}

/// ω55 at the peak of |h55|.
///
/// LAL: `IMRPhenomT_PeakFrequency_55`; Estellés et al., arXiv:2012.11923.
pub fn peak_frequency_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.7146297908371999),
        Times(0.1421128402132339, &[Eta(1)]),
        Times(7.659311331111322, &[Eta(2)]),
        Product(&[S(1), Poly(&[0.29191927041842664, -0.6512295551490094, 1.021846701552054])]),
        Times(-38.14301940776831, &[Eta(3)]),
        Times(-3.460574689440357, &[Dchi(1), Delta, Poly(&[1.0, -4.738903271021608]), Eta(3)]),
        Times(-8.262749319140365, &[Dchi(1), Poly(&[1.0, -4.1126856272636285]), S(1), Eta(3)]),
        Times(69.0208119373966, &[Eta(4)]),
        Product(&[Poly(&[-0.17737667108149985, 4.564503709808925, -15.457705511019]), S(2)]),
        Product(&[Poly(&[-0.08755132408422435, 1.8185807604067965, -5.710975144545469]), S(3)]),
        Product(&[Poly(&[0.4020378024101137, -6.137619764177151, 19.730459568297885]), S(4)]),
    )
}

/// Ringdown frequency coefficient c2 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D2_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d2_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.2143703929690296),
        Times(-0.26905171511199966, &[Eta(1)]),
        Product(&[Poly(&[-0.057285673301351384, 0.22530123030818466]), S(1)]),
        Times(-0.22128464791686953, &[Eta(2)]),
        Times(1.2330723562386177, &[Dchi(1), Delta, Poly(&[1.0, -5.234362591591656]), Eta(2)]),
        Times(2.7651387378521104,
            &[Dchi(1), Delta, Poly(&[1.0, -4.529998650048839]), S(1), Eta(2)]),
        Times(-0.02296167789737978, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[-0.06187017465583654, 0.19469068079404978]), S(2)]),
    )
}

/// Ringdown frequency coefficient c3 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Freq_D3_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_freq_d3_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(3.421296704767661),
        Times(-12.809224663506237, &[Eta(1)]),
        Product(&[Poly(&[0.17979866256123875, 3.9220602497543733]), S(1)]),
        Times(22.579308761647468, &[Eta(2)]),
        Times(38.938817471901075, &[Dchi(1), Delta, Poly(&[1.0, -5.439168816882736]), Eta(2)]),
        Times(102.01005958254325, &[Dchi(1), Delta, Poly(&[1.0, -4.94517313697764]), S(1), Eta(2)]),
        Times(8.156992533112646, &[Dchi(2), Eta(3)]),
        Product(&[Poly(&[-0.8276383989425874, 5.653818482979737]), S(2)]),
    )
}

/// Inspiral collocation value of |h55| at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.0019775643769147514, &[Dchi(1), Poly(&[1.0, -4.53924184281778]), Eta(3)]),
        Times(0.0014385048318273654, &[Dchi(1), Poly(&[1.0, -3.856415079702643]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.004541994163205327, -0.032008447973076316,
            0.06489393530989815])]),
        Product(&[Delta, Eta(1), Poly(&[0.028336688600531488, -0.5409697917194701,
            5.981455840165866, -35.58496309663864, 106.06125067357719, -124.75528935423806])]),
        Product(&[DeltaPoly1(&[0.0014791305997009444, -0.013564901743537111, 0.032142792215182195]),
            S(2)]),
    )
}

/// Inspiral collocation value of |h55| at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.00003724952333242274, &[Delta, Poly(&[1.0, -3.452222430510181]), Eta(1), Dchi(2)]),
        Times(-0.009011493135309705, &[Dchi(1), Poly(&[1.0, -4.802896680414448]), Eta(3)]),
        Times(-0.00013127526660987315, &[Dchi(1), Poly(&[1.0, -30.606067223270347]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.018145201665260808, -0.10875155354973318,
            0.1967640499342343])]),
        Product(&[Delta, Eta(1), Poly(&[0.05099973356701926, -0.9909406291652298,
            16.002112346656087, -151.48298211427934, 798.2800157600177, -2185.7904303138503,
            2423.2590529527615])]),
        Product(&[DeltaPoly1(&[0.007157848585528541, -0.04884915304244923, 0.09053190435686395]),
            S(2)]),
    )
}

/// Inspiral collocation value of |h55| at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_55`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(0.000014325948759589005,
            &[Delta, Poly(&[1.0, -0.6402417006774828]), Eta(1), Dchi(2)]),
        Times(-0.010476190606527443, &[Dchi(1), Poly(&[1.0, -5.143499750443247]), Eta(3)]),
        Times(-0.0030979537930086267, &[Dchi(1), Poly(&[1.0, -5.795657988613435]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.02269381988843006, -0.12335053938879872,
            0.20474150752693748])]),
        Product(&[Delta, Eta(1), Poly(&[0.04442248963378816, -0.26245173832295265,
            0.03870693239289467, 20.204218440428264, -181.23307091031228, 648.6147508591258,
            -849.2143555875599])]),
        Product(&[DeltaPoly1(&[0.00913213583658649, -0.04919000144868387, 0.065986695477459]),
            S(2)]),
    )
}

/// Merger collocation value of |h55| at t − tshift = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_55`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(-0.00031681692142477853, &[Delta, Poly(&[1.0, -6.678258498810139]), Eta(1), Dchi(2)]),
        Times(0.04782012096371179, &[Dchi(1), Poly(&[1.0, -2.4136112323522805]), Eta(3)]),
        Times(0.017136472806300446, &[Dchi(1), Poly(&[1.0, -2.278716802319452]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.035540705171105316, -0.13367790689815431,
            0.1379312625561125])]),
        Product(&[Delta, Eta(1), Poly(&[0.09741180071981874, -1.125020791484383, 19.71417205433866,
            -206.5659386239305, 1187.7241527779179, -3511.371401268973, 4163.584096800788])]),
        Product(&[DeltaPoly1(&[0.018044647105118435, -0.09834030851538031, 0.18292980258680058]),
            S(2)]),
    )
}

/// Peak value of |h55| (at t = tshift).
///
/// LAL: `IMRPhenomT_PeakAmp_55`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Times(0.29446699883224503, &[Dchi(1), Poly(&[1.0, -2.8126528389736913]), Eta(3)]),
        Times(0.13166834017031467, &[Dchi(1), Poly(&[1.0, -3.6911791457138365]), S(1), Eta(3)]),
        Product(&[S(1), DeltaPoly1(&[0.04335058078657487, -0.21976500003781027,
            0.1427254606254177])]),
        Product(&[Delta, Eta(1), Poly(&[0.25471102988397937, -6.119431622115874, 125.28192989146497,
            -1339.55067240476, 7641.25542069701, -22186.340091384493, 25846.606598287333])]),
        Product(&[DeltaPoly1(&[0.029015863810076155, -0.4063151087943421, 1.419210840554402]),
            S(2)]),
        Product(&[DeltaPoly1(&[0.01147033599820311, -0.28735230830842273, 1.1999844084222553]),
            S(3)]),
    )
}

/// Ringdown amplitude coefficient c3 of the 55 mode.
///
/// LAL: `IMRPhenomT_RD_Amp_C3_55`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(0.01889156394866289),
        Times(-7.843569775936414, &[Eta(1)]),
        Product(&[S(1), Poly(&[-0.11458748447064408, -0.3369320850812222, -0.022525692986479693])]),
        Times(73.19838355427139, &[Eta(2)]),
        Times(-170.9024182786024, &[Eta(3)]),
        Times(76.38168535871085, &[Dchi(1), Poly(&[1.0, -3.8805106289918205]), Eta(3)]),
        Times(42.628290542501134, &[Dchi(1), Poly(&[1.0, -4.260931557685223]), S(1), Eta(3)]),
        Product(&[Poly(&[-0.18370843418415694, 4.918601029356566, -17.29835518657168]), S(2)]),
    )
}

/// Time of the peak of |h55| relative to the peak of |h22|.
///
/// LAL: `IMRPhenomT_tshift_55`; Estellés et al., arXiv:2012.11923.
pub fn tshift_55<T: Real>(p: &FitInputs<T>) -> T {
    fit!(p;
        Const(-0.3189869259194407),
        Times(153.08687719603935, &[Eta(1)]),
        Times(-1376.0895569730135, &[Eta(2)]),
        Product(&[S(1), Poly(&[10.62118364975699, -128.69299551679973, 401.7008544741773])]),
        Times(3511.1779067574766, &[Eta(3)]),
        Product(&[Poly(&[10.036441054322665, -75.42317272972994, 180.54334490779055]), S(2)]),
        Product(&[Poly(&[6.658297274982426, -35.88874981710895, 33.86225466072782]), S(3)]),
    )
}
