//! The remnant black hole: its mass and dimensionless spin from the binary's η and aligned spins
//! (docs/imrphenomt.md §4.1). IMRPhenomT uses PhenomX's fits.
//!
//! LAL: `LALSimIMRPhenomXUtilities.c`; Jiménez-Forteza et al. 2017, arXiv:1611.00332.

use crate::scalar::Real;

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
