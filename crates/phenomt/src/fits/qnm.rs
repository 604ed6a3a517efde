//! Quasi-normal-mode frequencies of the remnant, as functions of its dimensionless spin, in units
//! of its mass: for each of the 22, 21, 33, 44 and 55 modes the ringdown frequency and the
//! damping frequencies of the fundamental mode (n = 1, PhenomXAS's fits) and of the first
//! overtone (n = 2) (docs/imrphenomt.md §4.2).
//!
//! LAL: `evaluate_QNMfit_*` in `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use crate::scalar::Real;

/// Ringdown frequency f_ring of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_22<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    let x7 = x4 * x3;
    (T::from(0.05947169566573468) - af * 0.14989771215394762
        + x2 * 0.09535606290986028
        + x3 * 0.02260924869042963
        - x4 * 0.02501704155363241
        - x5 * 0.005852438240997211
        + x6 * 0.0027489038393367993
        + x7 * 0.0005821983163192694)
        / (T::from(1.0) - af * 2.8570126619966296 + x2 * 2.373335413978394
            - x4 * 0.6036964688511505
            + x6 * 0.0873798215084077)
}

/// Damping frequency f_damp of the (2,2,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_22<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.014158792290965177) - af * 0.036989395871554566
        + x2 * 0.026822526296575368
        + x3 * 0.0008490933750566702
        - x4 * 0.004843996907020524
        - x5 * 0.00014745235759327472
        + x6 * 0.0001504546201236794)
        / (T::from(1.0) - af * 2.5900842798681376 + x2 * 1.8952576220623967
            - x4 * 0.31416610693042507
            + x6 * 0.009002719412204133)
}

/// Damping frequency of the (2,2,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp22n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_22<T: Real>(af: T) -> T {
    T::from(0.043611742588188715)
        + T::from(1.0) / (T::from(2.0) - af * 1.9477781396815619)
            * (af * -0.004016191313442792 - af * af * 0.0027646155943395426
                + af.powf(3.0) * 0.001141927763953028
                + af.powf(4.0) * 0.007938320030300492
                - af.powf(5.0) * 0.0008263166671238823
                - af.powf(6.0) * 0.014025760257115768
                + af.powf(7.0) * 0.001792158578158245
                + af.powf(8.0) * 0.008824138122361842)
}

/// Ringdown frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_21<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(0.059471695665734674) - af * 0.07585416297991414 + x2 * 0.021967909664591865
        - x3 * 0.0018964744613388146
        + x4 * 0.001164879406179587
        - x5 * 0.0003387374454044957)
        / (T::from(1.0) - af * 1.4437415542456158 + x2 * 0.49246920313191234)
}

/// Damping frequency of the (2,1,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_21<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(2.0696914454467294) - af * 3.1358071947583093
        + x2 * 0.14456081596393977
        + x3 * 1.2194717985037946
        - x4 * 0.2947372598589144
        + x5 * 0.002943057145913646)
        / (T::from(146.1779212636481) - af * 219.81790388304876
            + x2 * 17.7141194900164
            + x3 * 75.90115083917898
            - x4 * 18.975287709794745)
}

/// Damping frequency of the (2,1,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp21n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_21<T: Real>(af: T) -> T {
    T::from(0.04357957255256736)
        + T::from(1.0) / (T::from(2.0) - af * 1.9092143068452778)
            * (af * -0.0019991187832937543 - af * af * 0.00397223929602004
                + af.powf(3.0) * 0.0027170335545048836
                - af.powf(4.0) * 0.003787735584625901
                + af.powf(5.0) * 0.003238742776891051
                + af.powf(6.0) * 0.0014093180629203572)
}

/// Ringdown frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_33<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.09540436245212061) - af * 0.22799517865876945
        + x2 * 0.13402916709362475
        + x3 * 0.03343753057911253
        - x4 * 0.030848060170259615
        - x5 * 0.006756504382964637
        + x6 * 0.0027301732074159835)
        / (T::from(1.0) - af * 2.7265947806178334 + x2 * 2.144070539525238
            - x4 * 0.4706873667569393
            + x6 * 0.05321818246993958)
}

/// Damping frequency of the (3,3,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_33<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    (T::from(0.014754148319335946) - af * 0.03124423610028678
        + x2 * 0.017192623913708124
        + x3 * 0.001034954865629645
        - x4 * 0.0015925124814622795
        - x5 * 0.0001414350555699256)
        / (T::from(1.0) - af * 2.0963684630756894 + x2 * 1.196809702382645
            - x4 * 0.09874113387889819)
}

/// Damping frequency of the (3,3,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp33n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_33<T: Real>(af: T) -> T {
    T::from(0.04478453069660422)
        + T::from(1.0) / (T::from(2.0) - af * 1.9490123990107866)
            * (af * -0.0027276947367212184 - af * af * 0.005325382420460958
                + af.powf(3.0) * 0.0011090264831122598
                + af.powf(4.0) * 0.007374826520017088
                - af.powf(5.0) * 0.000513882756528504
                - af.powf(6.0) * 0.011798583916595289
                + af.powf(7.0) * 0.002064124132395282
                + af.powf(8.0) * 0.007865115260801307)
}

/// Ringdown frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_44<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.1287821193485683) - af * 0.21224284094693793
        + x2 * 0.0710926778043916
        + x3 * 0.015487322972031054
        - x4 * 0.002795401084713644
        + x5 * 0.000045483523029172406
        + x6 * 0.00034775290179000503)
        / (T::from(1.0) - af * 1.9931645124693607 + x2 * 1.0593147376898773
            - x4 * 0.06378640753152783)
}

/// Damping frequency of the (4,4,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_44<T: Real>(af: T) -> T {
    let x2 = af * af;
    let x3 = x2 * af;
    let x4 = x2 * x2;
    let x5 = x3 * x2;
    let x6 = x3 * x3;
    (T::from(0.014986847152355699) - af * 0.01722587715950451 - x2 * 0.0016734788189065538
        + x3 * 0.0002837322846047305
        + x4 * 0.002510528746148588
        + x5 * 0.00031983835498725354
        + x6 * 0.000812185411753066)
        / (T::from(1.0) - af * 1.1350205970682399 - x2 * 0.0500827971270845
            + x4 * 0.13983808071522857
            + x6 * 0.051876225199833995)
}

/// Damping frequency of the (4,4,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp44n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_44<T: Real>(af: T) -> T {
    T::from(0.04526815749399381)
        + T::from(1.0) / (T::from(2.0) - af * 1.9488568618006608)
            * (af * -0.001778614725637923 - af * af * 0.00645234041653255
                + af.powf(3.0) * 0.0008619365083550613
                + af.powf(4.0) * 0.0076173707591557305
                - af.powf(5.0) * 0.0005521040642302851
                - af.powf(6.0) * 0.012109903894557721
                + af.powf(7.0) * 0.0022638317039992374
                + af.powf(8.0) * 0.008166822924109219)
}

/// Ringdown frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fring55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fring_55<T: Real>(af: T) -> T {
    T::from(0.16110773330909547)
        + (af * 0.056600832610159385 + af * af * 0.030041275213566483
            - af.powf(3.0) * 0.07522309632456432
            - af.powf(4.0) * 0.036341969761668556
            + af.powf(5.0) * 0.015617599737487714
            + af.powf(6.0) * 0.0062588909671250715
            + af.powf(7.0) * 0.004242111725892476
            + af.powf(8.0) * 0.0014913342466081074)
            * (T::from(1.0)
                / (T::from(1.0) + af * 0.008923302958356548 - af * af * 1.666395858912649
                    + af.powf(4.0) * 0.6697719493836555))
}

/// Damping frequency of the (5,5,n=1) QNM (PhenomXAS fit).
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_55<T: Real>(af: T) -> T {
    T::from(0.015104212245401403)
        + T::from(1.0) / (T::from(2.0) - af * 1.9485458003209648)
            * (af * -0.0002946999837678157 - af * af * 0.0024189312940399916
                + af.powf(3.0) * 0.0002099427928656942
                + af.powf(4.0) * 0.00258435043118687
                - af.powf(5.0) * 0.00020630579058983925
                - af.powf(6.0) * 0.004126708789254023
                + af.powf(7.0) * 0.0007950067180727237
                + af.powf(8.0) * 0.0027916616982894588)
}

/// Damping frequency of the (5,5,n=2) overtone.
///
/// `af` is the dimensionless final spin; the result is in units of the final mass (divide by
/// `Mfinal`). LAL rejects |af| > 1 with `XLAL_EDOM`; the caller must check that.
///
/// LAL: `evaluate_QNMfit_fdamp55n2`; Estellés et al., arXiv:2012.11923.
pub fn qnm_fdamp_n2_55<T: Real>(af: T) -> T {
    T::from(0.04550451880252191)
        + T::from(1.0) / (T::from(2.0) - af * 1.948578997793657)
            * (af * -0.0012254856066171247 - af * af * 0.007001556265084966
                + af.powf(3.0) * 0.0006934110689396443
                + af.powf(4.0) * 0.007758785424957949
                - af.powf(5.0) * 0.0005928556371123753
                - af.powf(6.0) * 0.012383887808125627
                + af.powf(7.0) * 0.002365118383999583
                + af.powf(8.0) * 0.00838080791280435)
}
