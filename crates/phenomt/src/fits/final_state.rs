//! The remnant black hole: its mass and dimensionless spin from the binary's η and aligned spins
//! (docs/imrphenomt.md §4.1). IMRPhenomT uses PhenomX's fits.
//!
//! LAL: `LALSimIMRPhenomXUtilities.c`; Jiménez-Forteza et al. 2017, arXiv:1611.00332.

use crate::scalar::Real;

/// What both fits compute from (η, δ, χ1, χ2), as LAL computes it.
struct Vars<T> {
    /// δ = √(1 − 4η) as LAL recomputes it from η, with the derivative of the δ given: through
    /// the square root, the derivative at equal masses would be ∞ · 0 = NaN.
    delta: T,
    /// m1² + m2² with m1,2 = (1 ± δ)/2.
    m_sq: T,
    eta2: T,
    eta3: T,
    /// Ŝ = (m1²χ1 + m2²χ2)/(m1² + m2²) (LAL: `XLALSimIMRPhenomXSTotR`).
    s: T,
    s2: T,
    s3: T,
    /// Δχ = χ1 − χ2.
    dchi: T,
    dchi2: T,
}

impl<T: Real> Vars<T> {
    fn new(eta: T, delta: T, chi1: T, chi2: T) -> Self {
        let delta = delta.lift((1.0 - 4.0 * eta.re()).sqrt(), 1.0);
        let m1 = (T::from(1.0) + delta) * 0.5;
        let m2 = (T::from(1.0) - delta) * 0.5;
        let (m1s, m2s) = (m1 * m1, m2 * m2);
        let s = (m1s * chi1 + m2s * chi2) / (m1s + m2s);
        let (eta2, s2, dchi) = (eta * eta, s * s, chi1 - chi2);
        Self {
            delta,
            m_sq: m1s + m2s,
            eta2,
            eta3: eta2 * eta,
            s,
            s2,
            s3: s2 * s,
            dchi,
            dchi2: dchi * dchi,
        }
    }
}

/// Final mass in units of the total mass, 1 − E_rad (Jiménez-Forteza et al. 2017,
/// arXiv:1611.00332), at (η, χ1, χ2) with χ1 the spin of the heavier body and δ = (m1 − m2)/M.
///
/// δ's value and Ŝ are recomputed from η (`delta` gives δ's derivative); the equal-spin part
/// is computed as (E0·[…]/[…]) − E0 and E0 added back, as in LAL (which writes E0 out twice).
///
/// LAL: `XLALSimIMRPhenomXFinalMass2017` (`LALSimIMRPhenomXUtilities.c`).
pub fn final_mass_2017<T: Real>(eta: T, delta: T, chi1: T, chi2: T) -> T {
    let v = Vars::new(eta, delta, chi1, chi2);
    let eta4 = v.eta3 * eta;
    let no_spin = eta * 0.057190958417936644 + v.eta2 * 0.5609904135313374
        - v.eta3 * 0.84667563764404
        + eta4 * 3.145145224278187;
    let eq_spin = no_spin
        * (T::from(1.0)
            + (T::from(-0.13084389181783257) - eta * 1.1387311580238488
                + v.eta2 * 5.49074464410971)
                * v.s
            + (T::from(-0.17762802148331427) + v.eta2 * 2.176667900182948) * v.s2
            + (T::from(-0.6320191645391563) + eta * 4.952698546796005
                - v.eta2 * 10.023747993978121)
                * v.s3)
        / (T::from(1.0)
            + (T::from(-0.9919475346968611)
                + eta * 0.367620218664352
                + v.eta2 * 4.274567337924067)
                * v.s);
    let eq_spin = eq_spin - no_spin;
    let uneq_spin = v.dchi
        * -0.09803730445895877
        * v.delta
        * (T::from(1.0) - eta * 3.2283713377939134)
        * v.eta2
        + v.dchi2 * 0.01118530335431078 * v.eta3
        - v.dchi
            * 0.01978238971523653
            * v.delta
            * (T::from(1.0) - eta * 4.91667749015812)
            * eta
            * v.s;
    T::from(1.0) - (no_spin + eq_spin + uneq_spin)
}

/// Dimensionless final spin (Jiménez-Forteza et al. 2017, arXiv:1611.00332) at (η, χ1, χ2),
/// with χ1 the spin of the heavier body and δ = (m1 − m2)/M. δ's value and Ŝ are recomputed
/// from η (`delta` gives δ's derivative).
///
/// LAL: `XLALSimIMRPhenomXFinalSpin2017` (`LALSimIMRPhenomXUtilities.c`).
pub fn final_spin_2017<T: Real>(eta: T, delta: T, chi1: T, chi2: T) -> T {
    let v = Vars::new(eta, delta, chi1, chi2);
    let no_spin = (eta * 3.4641016151377544 + v.eta2 * 20.0830030082033
        - v.eta3 * 12.333573402277912)
        / (T::from(1.0) + eta * 7.2388440419467335);
    let eq_spin = v.m_sq * v.s
        + ((eta * -0.8561951310209386 - v.eta2 * 0.09939065676370885 + v.eta3 * 1.668810429851045)
            * v.s
            + (eta * 0.5881660363307388 - v.eta2 * 2.149269067519131
                + v.eta3 * 3.4768263932898678)
                * v.s2
            + (eta * 0.142443244743048 - v.eta2 * 0.9598353840147513
                + v.eta3 * 1.9595643107593743)
                * v.s3)
            / (T::from(1.0)
                + (T::from(-0.9142232693081653) + eta * 2.3191363426522633
                    - v.eta3 * 9.710576749140989)
                    * v.s);
    let uneq_spin =
        v.dchi * 0.3223660562764661 * v.delta * (T::from(1.0) + eta * 9.332575956437443) * v.eta2
            - v.dchi2 * 0.059808322561702126 * v.eta3
            + v.dchi
                * 2.3170397514509933
                * v.delta
                * (T::from(1.0) - eta * 3.2624649875884852)
                * v.eta3
                * v.s;
    no_spin + eq_spin + uneq_spin
}
