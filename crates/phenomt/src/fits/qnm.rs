//! Quasi-normal-mode frequencies of the remnant, as functions of its dimensionless spin, in units
//! of its mass: for each of the 22, 21, 33, 44 and 55 modes the ringdown frequency and the
//! damping frequencies of the fundamental mode (n = 1, PhenomXAS's fits) and of the first
//! overtone (n = 2) (docs/imrphenomt.md §4.2).
//!
//! LAL: `evaluate_QNMfit_*` in `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::{c_pow, powers_to_7};
use crate::scalar::Real;

/// A polynomial Σ c·a^k in the final spin a, as its terms (k, c) in the C's order.
type Terms = &'static [(usize, f64)];

/// The forms of LAL's QNM fits, each with its C's operations.
enum Qnm {
    /// `N(a)/D(a)`, PhenomXAS's fits, with a² … a⁷ from [`powers_to_7`].
    Ratio(Terms, Terms),
    /// `c + pow(D(a),-1)*N(a)`, with C's `pow(a,k)` ([`c_pow`]): the overtones' fits and
    /// f_damp of the 55 mode.
    InvTimes(f64, Terms, Terms),
    /// `c + N(a)*pow(D(a),-1)`, likewise: f_ring of the 55 mode.
    TimesInv(f64, Terms, Terms),
}

impl Qnm {
    /// The fit at final spin `a`.
    #[inline(always)]
    fn at<T: Real>(&self, a: T) -> T {
        // Σ c·a^k with C's pow(a, k).
        let poly = |terms: Terms| {
            series(terms.iter().copied(), |k, c| {
                c_pow(a, k, |k| a.powf(k as f64)) * c
            })
        };
        match *self {
            Qnm::Ratio(num, den) => {
                let x = powers_to_7(a);
                let ladder = |terms: Terms| series(terms.iter().copied(), |k, c| x[k - 1] * c);
                ladder(num) / ladder(den)
            }
            Qnm::InvTimes(c, den, num) => T::from(c) + T::from(1.0) / poly(den) * poly(num),
            Qnm::TimesInv(c, num, den) => T::from(c) + poly(num) * (T::from(1.0) / poly(den)),
        }
    }
}

/// Σ c·x^k over `terms` (k, c), summed left to right as the C does: the term of k = 0 is the
/// constant c itself, any other `term(k, c)`.
#[inline(always)]
fn series<T: Real>(
    terms: impl IntoIterator<Item = (usize, f64)>,
    term: impl Fn(usize, f64) -> T,
) -> T {
    let mut terms = terms
        .into_iter()
        .map(|(k, c)| if k == 0 { T::from(c) } else { term(k, c) });
    let first = terms.next().expect("a series has a term");
    terms.fold(first, |sum, t| sum + t)
}

/// Ringdown frequency f_ring of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_22<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.05947169566573468),
            (1, -0.14989771215394762),
            (2, 0.09535606290986028),
            (3, 0.02260924869042963),
            (4, -0.02501704155363241),
            (5, -0.005852438240997211),
            (6, 0.0027489038393367993),
            (7, 0.0005821983163192694),
        ],
        &[
            (0, 1.0),
            (1, -2.8570126619966296),
            (2, 2.373335413978394),
            (4, -0.6036964688511505),
            (6, 0.0873798215084077),
        ],
    )
    .at(af)
}

/// Damping frequency f_damp of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_22<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.014158792290965177),
            (1, -0.036989395871554566),
            (2, 0.026822526296575368),
            (3, 0.0008490933750566702),
            (4, -0.004843996907020524),
            (5, -0.00014745235759327472),
            (6, 0.0001504546201236794),
        ],
        &[
            (0, 1.0),
            (1, -2.5900842798681376),
            (2, 1.8952576220623967),
            (4, -0.31416610693042507),
            (6, 0.009002719412204133),
        ],
    )
    .at(af)
}

/// Damping frequency of the (2,2,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_22<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.043611742588188715,
        &[(0, 2.0), (1, -1.9477781396815619)],
        &[
            (1, -0.004016191313442792),
            (2, -0.0027646155943395426),
            (3, 0.001141927763953028),
            (4, 0.007938320030300492),
            (5, -0.0008263166671238823),
            (6, -0.014025760257115768),
            (7, 0.001792158578158245),
            (8, 0.008824138122361842),
        ],
    )
    .at(af)
}

/// Ringdown frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_21<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.059471695665734674),
            (1, -0.07585416297991414),
            (2, 0.021967909664591865),
            (3, -0.0018964744613388146),
            (4, 0.001164879406179587),
            (5, -0.0003387374454044957),
        ],
        &[(0, 1.0), (1, -1.4437415542456158), (2, 0.49246920313191234)],
    )
    .at(af)
}

/// Damping frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_21<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 2.0696914454467294),
            (1, -3.1358071947583093),
            (2, 0.14456081596393977),
            (3, 1.2194717985037946),
            (4, -0.2947372598589144),
            (5, 0.002943057145913646),
        ],
        &[
            (0, 146.1779212636481),
            (1, -219.81790388304876),
            (2, 17.7141194900164),
            (3, 75.90115083917898),
            (4, -18.975287709794745),
        ],
    )
    .at(af)
}

/// Damping frequency of the (2,1,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_21<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.04357957255256736,
        &[(0, 2.0), (1, -1.9092143068452778)],
        &[
            (1, -0.0019991187832937543),
            (2, -0.00397223929602004),
            (3, 0.0027170335545048836),
            (4, -0.003787735584625901),
            (5, 0.003238742776891051),
            (6, 0.0014093180629203572),
        ],
    )
    .at(af)
}

/// Ringdown frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_33<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.09540436245212061),
            (1, -0.22799517865876945),
            (2, 0.13402916709362475),
            (3, 0.03343753057911253),
            (4, -0.030848060170259615),
            (5, -0.006756504382964637),
            (6, 0.0027301732074159835),
        ],
        &[
            (0, 1.0),
            (1, -2.7265947806178334),
            (2, 2.144070539525238),
            (4, -0.4706873667569393),
            (6, 0.05321818246993958),
        ],
    )
    .at(af)
}

/// Damping frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_33<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.014754148319335946),
            (1, -0.03124423610028678),
            (2, 0.017192623913708124),
            (3, 0.001034954865629645),
            (4, -0.0015925124814622795),
            (5, -0.0001414350555699256),
        ],
        &[
            (0, 1.0),
            (1, -2.0963684630756894),
            (2, 1.196809702382645),
            (4, -0.09874113387889819),
        ],
    )
    .at(af)
}

/// Damping frequency of the (3,3,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_33<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.04478453069660422,
        &[(0, 2.0), (1, -1.9490123990107866)],
        &[
            (1, -0.0027276947367212184),
            (2, -0.005325382420460958),
            (3, 0.0011090264831122598),
            (4, 0.007374826520017088),
            (5, -0.000513882756528504),
            (6, -0.011798583916595289),
            (7, 0.002064124132395282),
            (8, 0.007865115260801307),
        ],
    )
    .at(af)
}

/// Ringdown frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_44<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.1287821193485683),
            (1, -0.21224284094693793),
            (2, 0.0710926778043916),
            (3, 0.015487322972031054),
            (4, -0.002795401084713644),
            (5, 0.000045483523029172406),
            (6, 0.00034775290179000503),
        ],
        &[
            (0, 1.0),
            (1, -1.9931645124693607),
            (2, 1.0593147376898773),
            (4, -0.06378640753152783),
        ],
    )
    .at(af)
}

/// Damping frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_44<T: Real>(af: T) -> T {
    Qnm::Ratio(
        &[
            (0, 0.014986847152355699),
            (1, -0.01722587715950451),
            (2, -0.0016734788189065538),
            (3, 0.0002837322846047305),
            (4, 0.002510528746148588),
            (5, 0.00031983835498725354),
            (6, 0.000812185411753066),
        ],
        &[
            (0, 1.0),
            (1, -1.1350205970682399),
            (2, -0.0500827971270845),
            (4, 0.13983808071522857),
            (6, 0.051876225199833995),
        ],
    )
    .at(af)
}

/// Damping frequency of the (4,4,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_44<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.04526815749399381,
        &[(0, 2.0), (1, -1.9488568618006608)],
        &[
            (1, -0.001778614725637923),
            (2, -0.00645234041653255),
            (3, 0.0008619365083550613),
            (4, 0.0076173707591557305),
            (5, -0.0005521040642302851),
            (6, -0.012109903894557721),
            (7, 0.0022638317039992374),
            (8, 0.008166822924109219),
        ],
    )
    .at(af)
}

/// Ringdown frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_55<T: Real>(af: T) -> T {
    Qnm::TimesInv(
        0.16110773330909547,
        &[
            (1, 0.056600832610159385),
            (2, 0.030041275213566483),
            (3, -0.07522309632456432),
            (4, -0.036341969761668556),
            (5, 0.015617599737487714),
            (6, 0.0062588909671250715),
            (7, 0.004242111725892476),
            (8, 0.0014913342466081074),
        ],
        &[
            (0, 1.0),
            (1, 0.008923302958356548),
            (2, -1.666395858912649),
            (4, 0.6697719493836555),
        ],
    )
    .at(af)
}

/// Damping frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_55<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.015104212245401403,
        &[(0, 2.0), (1, -1.9485458003209648)],
        &[
            (1, -0.0002946999837678157),
            (2, -0.0024189312940399916),
            (3, 0.0002099427928656942),
            (4, 0.00258435043118687),
            (5, -0.00020630579058983925),
            (6, -0.004126708789254023),
            (7, 0.0007950067180727237),
            (8, 0.0027916616982894588),
        ],
    )
    .at(af)
}

/// Damping frequency of the (5,5,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_55<T: Real>(af: T) -> T {
    Qnm::InvTimes(
        0.04550451880252191,
        &[(0, 2.0), (1, -1.948578997793657)],
        &[
            (1, -0.0012254856066171247),
            (2, -0.007001556265084966),
            (3, 0.0006934110689396443),
            (4, 0.007758785424957949),
            (5, -0.0005928556371123753),
            (6, -0.012383887808125627),
            (7, 0.002365118383999583),
            (8, 0.00838080791280435),
        ],
    )
    .at(af)
}
