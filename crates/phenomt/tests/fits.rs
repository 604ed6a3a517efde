//! The parameter-space fits against the set-up scalars of `tests/data/intermediates.json`
//! (a copy of `shared/reference/imrphenomt/intermediates.json`), and the derivatives of their
//! dual-number instantiation against finite differences.

use std::f64::consts::PI;

use serde_json::Value;
use tdpe_phenomt::fits::*;
use tdpe_phenomt::scalar::{Dual, Real};

/// LAL_MSUN_SI.
const MSUN_SI: f64 = 1.988409870698050731911960804878414216e30;

/// Relative tolerance for a fit against the reference (a few ulp).
const TOL: f64 = 1e-14;

/// A reference case: component masses in solar masses and aligned spins, as the generator passed
/// them to LAL (masses as `m * MSUN_SI` kg).
struct Case {
    name: &'static str,
    m1: f64,
    m2: f64,
    chi1: f64,
    chi2: f64,
}

const CASES: [Case; 3] = [
    Case {
        name: "T02_gw150914_like",
        m1: 36.0,
        m2: 29.0,
        chi1: 0.3,
        chi2: -0.2,
    },
    Case {
        name: "T09_q3_M40_antialigned_fref40",
        m1: 30.0,
        m2: 10.0,
        chi1: -0.9,
        chi2: -0.9,
    },
    Case {
        name: "THM02_q8_M90",
        m1: 80.0,
        m2: 10.0,
        chi1: 0.5,
        chi2: -0.4,
    },
];

/// The fit inputs and final state exactly as `IMRPhenomTSetWaveformVariables` computes them.
struct Setup {
    fit: FitInputs<f64>,
    mfinal: f64,
    afinal: f64,
}

impl Case {
    fn setup(&self) -> Setup {
        setup(self.m1, self.m2, self.chi1, self.chi2)
    }
}

/// `IMRPhenomTSetWaveformVariables` for masses in solar masses (passed to LAL as `m * MSUN_SI`).
fn setup(m1: f64, m2: f64, chi1: f64, chi2: f64) -> Setup {
    let (m1_in, m2_in) = ((m1 * MSUN_SI) / MSUN_SI, (m2 * MSUN_SI) / MSUN_SI);
    let (m1, m2, chi1, chi2) = if m1_in >= m2_in {
        (m1_in, m2_in, chi1, chi2)
    } else {
        (m2_in, m1_in, chi2, chi1)
    };
    let delta = ((m1 - m2) / (m1 + m2)).abs();
    let eta = (0.25 * (1.0 - delta * delta)).abs().min(0.25);
    let mtot = m1 + m2;
    let (m1, m2) = (m1 / mtot, m2 / mtot);
    let s = (m1 * m1 * chi1 + m2 * m2 * chi2) / (m1 * m1 + m2 * m2);
    Setup {
        fit: FitInputs {
            eta,
            s,
            dchi: chi1 - chi2,
            delta,
        },
        mfinal: final_mass_2017(eta, delta, chi1, chi2),
        afinal: final_spin_2017(eta, delta, chi1, chi2),
    }
}

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/intermediates.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Compares `ours` with `case[group][key]`; returns the relative deviation.
fn check(case: &Value, group: &str, key: &str, ours: f64, tol: f64) -> f64 {
    let want = case[group][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {group}.{key}"));
    let rel = if ours == want {
        0.0
    } else {
        ((ours - want) / want).abs()
    };
    println!("{group:>8}.{key:<24} {ours:>24.17e} {want:>24.17e} rel {rel:.2e}");
    assert!(
        rel <= tol,
        "{group}.{key}: {ours:e} vs {want:e} (rel {rel:e} > {tol:e})"
    );
    rel
}

#[test]
fn fit_inputs_and_final_state_match_reference() {
    let all = reference();
    for c in &CASES {
        let r = &all["cases"][c.name];
        let su = c.setup();
        println!("{}", c.name);
        // The reference's η of T02 is one ulp below LAL's (it was not read out of LAL), hence TOL.
        check(r, "waveform", "eta", su.fit.eta, TOL);
        check(r, "waveform", "delta", su.fit.delta, 0.0);
        check(r, "waveform", "Shat", su.fit.s, TOL);
        check(r, "waveform", "dchi", su.fit.dchi, 0.0);
        check(r, "waveform", "Mfinal", su.mfinal, TOL);
        check(r, "waveform", "afinal", su.afinal, TOL);
    }
}

#[test]
fn fits_22_match_reference() {
    let all = reference();
    for c in &CASES {
        let r = &all["cases"][c.name];
        let Setup {
            fit: p,
            mfinal,
            afinal,
        } = c.setup();
        println!("{}", c.name);
        let ph = |key, v| check(r, "phase22", key, v, TOL);
        ph("tt0", inspiral_taylor_t3_t0(&p));
        ph("omega_colloc_theta045", inspiral_freq_cp1_22(&p));
        ph("omega_colloc_theta055", inspiral_freq_cp2_22(&p));
        ph("omega_colloc_theta065", inspiral_freq_cp3_22(&p));
        ph("omega_colloc_theta075", inspiral_freq_cp4_22(&p));
        ph("omega_colloc_theta082", inspiral_freq_cp5_22(&p));
        ph("merger_freq_CP_fit", merger_freq_cp1_22(&p));
        ph("omegaPeak", peak_frequency_22(&p));
        ph("c2", rd_freq_d2_22(&p));
        ph("c3", rd_freq_d3_22(&p));
        // As IMRPhenomTSetPhase22Coefficients: 2*LAL_PI*(fit/Mfinal).
        ph("omegaRING", 2.0 * PI * (qnm_fring_22(afinal) / mfinal));
        ph("alpha1RD", 2.0 * PI * (qnm_fdamp_22(afinal) / mfinal));
        let am = |key, v| check(r, "amp22", key, v, TOL);
        am("ampCP_m2000", inspiral_amp_cp1_22(&p));
        am("ampCP_m250", inspiral_amp_cp2_22(&p));
        am("ampCP_m150", inspiral_amp_cp3_22(&p));
        am("ampMergerCP_m25", merger_amp_cp1_22(&p));
        am("ampPeak", peak_amp_22(&p));
        am("c3", rd_amp_c3_22(&p));
        am("alpha2RD", 2.0 * PI * (qnm_fdamp_n2_22(afinal) / mfinal));
    }
}

/// The fits of one higher mode, in the order of the reference keys below.
type ModeFits = ([fn(&FitInputs<f64>) -> f64; 10], [fn(f64) -> f64; 3]);

#[test]
fn fits_hm_match_reference() {
    let all = reference();
    let c = &CASES[2];
    let r = &all["cases"][c.name];
    let Setup {
        fit: p,
        mfinal,
        afinal,
    } = c.setup();
    let modes: [(&str, ModeFits); 4] = [
        (
            "21",
            (
                [
                    merger_freq_cp1_21,
                    peak_frequency_21,
                    rd_freq_d2_21,
                    rd_freq_d3_21,
                    inspiral_amp_cp1_21,
                    inspiral_amp_cp2_21,
                    inspiral_amp_cp3_21,
                    merger_amp_cp1_21,
                    peak_amp_21,
                    rd_amp_c3_21,
                ],
                [qnm_fring_21, qnm_fdamp_21, qnm_fdamp_n2_21],
            ),
        ),
        (
            "33",
            (
                [
                    merger_freq_cp1_33,
                    peak_frequency_33,
                    rd_freq_d2_33,
                    rd_freq_d3_33,
                    inspiral_amp_cp1_33,
                    inspiral_amp_cp2_33,
                    inspiral_amp_cp3_33,
                    merger_amp_cp1_33,
                    peak_amp_33,
                    rd_amp_c3_33,
                ],
                [qnm_fring_33, qnm_fdamp_33, qnm_fdamp_n2_33],
            ),
        ),
        (
            "44",
            (
                [
                    merger_freq_cp1_44,
                    peak_frequency_44,
                    rd_freq_d2_44,
                    rd_freq_d3_44,
                    inspiral_amp_cp1_44,
                    inspiral_amp_cp2_44,
                    inspiral_amp_cp3_44,
                    merger_amp_cp1_44,
                    peak_amp_44,
                    rd_amp_c3_44,
                ],
                [qnm_fring_44, qnm_fdamp_44, qnm_fdamp_n2_44],
            ),
        ),
        (
            "55",
            (
                [
                    merger_freq_cp1_55,
                    peak_frequency_55,
                    rd_freq_d2_55,
                    rd_freq_d3_55,
                    inspiral_amp_cp1_55,
                    inspiral_amp_cp2_55,
                    inspiral_amp_cp3_55,
                    merger_amp_cp1_55,
                    peak_amp_55,
                    rd_amp_c3_55,
                ],
                [qnm_fring_55, qnm_fdamp_55, qnm_fdamp_n2_55],
            ),
        ),
    ];
    let tshift = [tshift_21, tshift_33, tshift_44, tshift_55];
    let phase_keys = ["merger_freq_CP_fit", "omegaPeak", "c2", "c3"];
    let amp_keys = [
        "ampCP_m2000",
        "ampCP_m250",
        "ampCP_m150",
        "ampMergerCP_m25",
        "ampPeak",
        "c3",
    ];
    for ((lm, (fits, [fring, fdamp, fdamp_n2])), tshift) in modes.iter().zip(tshift) {
        let (phase, amp) = (format!("phase{lm}"), format!("amp{lm}"));
        for (key, f) in phase_keys.iter().zip(&fits[..4]) {
            check(r, &phase, key, f(&p), TOL);
        }
        for (key, f) in amp_keys.iter().zip(&fits[4..]) {
            check(r, &amp, key, f(&p), TOL);
        }
        check(r, &amp, "tshift", tshift(&p), TOL);
        check(
            r,
            &phase,
            "omegaRING",
            2.0 * PI * (fring(afinal) / mfinal),
            TOL,
        );
        check(
            r,
            &phase,
            "alpha1RD",
            2.0 * PI * (fdamp(afinal) / mfinal),
            TOL,
        );
        check(
            r,
            &amp,
            "alpha2RD",
            2.0 * PI * (fdamp_n2(afinal) / mfinal),
            TOL,
        );
    }
}

/// Values read out of LAL itself (the `IMRPhenomTWaveformStruct` and `IMRPhenomTPhase22Struct`
/// that `IMRPhenomTSetWaveformVariables` and `IMRPhenomTSetPhase22Coefficients` of the lalsuite
/// 7.26.16 wheel's `liblalsimulation` fill) for the inputs of every case in
/// `shared/reference/imrphenomt`: (m1, m2 in M☉, χ1, χ2, [η, δ, Ŝ, Δχ, Mfinal, afinal, tt0,
/// omegaPeak, c2, c3, omegaRING, alpha1RD]).
#[rustfmt::skip]
const LAL_SETUP: [(f64, f64, f64, f64, [f64; 12]); 16] = [
    // T01_q1_nospin
    (30.0, 30.0, 0.0, 0.0, [0.25, 0.0, 0.0, 0.0, 0.9515839428556587, 0.6863698793893069, -162.74231094502235, 0.3599559340268216, 0.15928214891830167, 1.8124424370074337, 0.5534800448682082, 0.08542898955873282]),
    // T02_gw150914_like
    (36.0, 29.0, 0.3, -0.2, [0.24710059171597634, 0.1076923076923077, 0.10322882545624709, 0.5, 0.9497594162037633, 0.7152939548934211, -98.7278394084921, 0.36648265752514003, 0.15727484636519026, 1.885325912035932, 0.5681346799281781, 0.0844324085231954]),
    // T03_q2_M30_spinup
    (20.0, 10.0, 0.5, 0.5, [0.2222222222222222, 0.3333333333333333, 0.5, 0.0, 0.9449648921241292, 0.804783402497793, 296.8151034872369, 0.3937645877740741, 0.14969954277810563, 2.31056512351895, 0.6234448928283457, 0.07968042900243825]),
    // T04_q4_M50_mixed
    (40.0, 10.0, -0.6, 0.3, [0.16, 0.6, -0.5470588235294117, -0.8999999999999999, 0.983146778276199, 0.15602051333961123, -997.9744081975804, 0.28358173199774434, 0.171555557093955, 1.4234057407893723, 0.4020150762423279, 0.0900216886360242]),
    // T05_q8_M90_highspin
    (80.0, 10.0, 0.9, 0.0, [0.09876543209876543, 0.7777777777777778, 0.8861538461538462, 0.9, 0.9708606399828777, 0.9242234893656978, 1691.6258293033582, 0.43951296233879517, 0.12849751879793028, 3.8253325444285, 0.7241155072290691, 0.061993970751785143]),
    // T06_q18_M190
    (180.0, 10.0, 0.4, -0.5, [0.04986149584487534, 0.8947368421052632, 0.3972307692307693, 0.9, 0.9944851825878638, 0.5023385931389452, 1637.7415534161312, 0.3325193229219082, 0.1558772486426695, 2.907543290940844, 0.4673230753847865, 0.08607526771368645]),
    // T07_M10_q1p5
    (6.0, 4.0, 0.2, 0.1, [0.24, 0.2, 0.1692307692307692, 0.1, 0.950476119321901, 0.7205941985905284, -27.764348419646765, 0.36834884409281204, 0.15776602116239527, 1.9427157741182306, 0.5703363507624459, 0.08413545649298844]),
    // T08_M200_q1_spin09_edgeon
    (100.0, 100.0, 0.9, 0.9, [0.25, 0.0, 0.9, 0.0, 0.9002922733073552, 0.9302748839349559, 506.01172368386966, 0.4571855535776265, 0.12069487650480842, 2.690377530338724, 0.7909190839963308, 0.0652843483222985]),
    // T09_q3_M40_antialigned_fref40
    (30.0, 10.0, -0.9, -0.9, [0.1875, 0.5, -0.9, 0.0, 0.9814315805507963, 0.09903162640677393, -1285.0351366544553, 0.2796051540591161, 0.16502681958265436, 1.2651446885225202, 0.3941967021520722, 0.09038738787600516]),
    // T10_m1_lt_m2_swap
    (12.0, 24.0, 0.7, -0.3, [0.2222222222222222, 0.3333333333333333, -0.10000000000000002, -1.0, 0.9627673560513567, 0.5685304895387706, -175.034688354156, 0.3383199667935123, 0.1680415989241884, 1.7654852988604348, 0.5025963495605378, 0.087707170911433]),
    // T11_q12_M130_fref25
    (120.0, 10.0, 0.6, 0.8, [0.07100591715976332, 0.8461538461538461, 0.6013793103448275, -0.20000000000000007, 0.9881628763988831, 0.698806562929112, 1742.374527721859, 0.37055186200748597, 0.1465028030716085, 3.276127662381782, 0.5384616601745854, 0.08180831435217176]),
    // T12_q6_M21
    (18.0, 3.0, 0.3, -0.9, [0.12244897959183673, 0.7142857142857143, 0.26756756756756755, 1.2, 0.9831026233715932, 0.554557193017719, 219.58609961201154, 0.3331095465078162, 0.16542852342768619, 2.26626393537223, 0.4878478110721718, 0.08617006643632422]),
    // T13_brent_sensitive
    (55.74, 5.94, 0.8, 0.41, [0.08702913745855353, 0.8073929961089493, 0.795620753813405, 0.39000000000000007, 0.9798569822054936, 0.8568086893849234, 1792.1670134193687, 0.4154308613878614, 0.13460876337367647, 3.681116486344248, 0.64130742948546, 0.0721269748816854]),
    // THM01_gw150914_like
    (36.0, 29.0, 0.3, -0.2, [0.24710059171597634, 0.1076923076923077, 0.10322882545624709, 0.5, 0.9497594162037633, 0.7152939548934211, -98.7278394084921, 0.36648265752514003, 0.15727484636519026, 1.885325912035932, 0.5681346799281781, 0.0844324085231954]),
    // THM02_q8_M90
    (80.0, 10.0, 0.5, -0.4, [0.09876543209876543, 0.7777777777777778, 0.48615384615384616, 0.9, 0.9846993630221909, 0.655613463464343, 868.2776003821683, 0.35577037660235755, 0.15599675829359766, 2.7883019296307796, 0.5221442693394526, 0.08357343802453494]),
    // THM03_q1_equalspin
    (40.0, 40.0, 0.6, 0.6, [0.25, 0.0, 0.6, 0.0, 0.9268436748536464, 0.8578507233846938, 304.91017613540095, 0.41537813331869794, 0.14048854812959838, 2.371346982864279, 0.67896551114823, 0.07612933320948889]),
];

#[test]
fn fits_22_are_bit_identical_to_lal() {
    for (m1, m2, chi1, chi2, want) in LAL_SETUP {
        let Setup {
            fit: p,
            mfinal,
            afinal,
        } = setup(m1, m2, chi1, chi2);
        let ours = [
            p.eta,
            p.delta,
            p.s,
            p.dchi,
            mfinal,
            afinal,
            inspiral_taylor_t3_t0(&p),
            peak_frequency_22(&p),
            rd_freq_d2_22(&p),
            rd_freq_d3_22(&p),
            2.0 * PI * (qnm_fring_22(afinal) / mfinal),
            2.0 * PI * (qnm_fdamp_22(afinal) / mfinal),
        ];
        for (k, (o, w)) in ours.iter().zip(want).enumerate() {
            assert_eq!(
                o.to_bits(),
                w.to_bits(),
                "({m1}, {m2}, {chi1}, {chi2}) item {k}: {o:e} vs {w:e}"
            );
        }
    }
}

/// A fit of (η, Ŝ, Δχ, δ) instantiated for one scalar type.
type Fit<T> = fn(&FitInputs<T>) -> T;

/// A QNM fit instantiated for one scalar type.
type Qnm<T> = fn(T) -> T;

/// Central finite difference of a scalar function.
fn fd(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Checks a dual evaluation: value part bit-identical to `f64`, derivatives matching central
/// finite differences of the `f64` function in each of the two seeded directions.
fn check_dual(name: &str, d: Dual<2>, f: impl Fn(f64, f64) -> f64, x: f64, y: f64) {
    assert_eq!(
        d.re.to_bits(),
        f(x, y).to_bits(),
        "{name}: value part differs"
    );
    let h = 1e-7;
    for (k, num) in [fd(|x| f(x, y), x, h), fd(|y| f(x, y), y, h)]
        .into_iter()
        .enumerate()
    {
        let err = (d.eps[k] - num).abs();
        assert!(
            err <= 1e-6 * num.abs().max(1e-3 * f(x, y).abs()),
            "{name}: d/dx{k} = {} vs finite difference {num}",
            d.eps[k]
        );
    }
}

#[test]
fn dual_instantiation_values_and_derivatives() {
    let p = CASES[0].setup().fit;
    // Derivatives with respect to η and Ŝ (Δχ and δ held fixed).
    let inputs = |eta, s| FitInputs {
        eta,
        s,
        dchi: p.dchi,
        delta: p.delta,
    };
    let dual = FitInputs {
        eta: Dual::<2>::variable(p.eta, 0),
        s: Dual::variable(p.s, 1),
        dchi: Dual::from(p.dchi),
        delta: Dual::from(p.delta),
    };
    let fits: [(&str, Fit<Dual<2>>, Fit<f64>); 8] = [
        ("tt0", inspiral_taylor_t3_t0, inspiral_taylor_t3_t0),
        ("freq_cp1", inspiral_freq_cp1_22, inspiral_freq_cp1_22),
        ("freq_cp3", inspiral_freq_cp3_22, inspiral_freq_cp3_22),
        ("freq_cp5", inspiral_freq_cp5_22, inspiral_freq_cp5_22),
        ("peak_freq", peak_frequency_22, peak_frequency_22),
        ("amp_cp1", inspiral_amp_cp1_22, inspiral_amp_cp1_22),
        ("peak_amp", peak_amp_22, peak_amp_22),
        ("tshift_44", tshift_44, tshift_44),
    ];
    for (name, fdual, ff) in fits {
        check_dual(name, fdual(&dual), |eta, s| ff(&inputs(eta, s)), p.eta, p.s);
    }
    // Final state with respect to η and χ1; QNM fits with respect to the final spin.
    let (chi1, chi2) = (CASES[0].chi1, CASES[0].chi2);
    let (eta, c1) = (Dual::<2>::variable(p.eta, 0), Dual::variable(chi1, 1));
    let c2 = Dual::from(chi2);
    let delta_of = |e: f64| (1.0 - 4.0 * e).sqrt();
    let delta = (Dual::from(1.0) - eta * 4.0).sqrt();
    check_dual(
        "Mfinal",
        final_mass_2017(eta, delta, c1, c2),
        |e, x| final_mass_2017(e, delta_of(e), x, chi2),
        p.eta,
        chi1,
    );
    check_dual(
        "afinal",
        final_spin_2017(eta, delta, c1, c2),
        |e, x| final_spin_2017(e, delta_of(e), x, chi2),
        p.eta,
        chi1,
    );
    let af = final_spin_2017(p.eta, delta_of(p.eta), chi1, chi2);
    let qnm: [(&str, Qnm<Dual<2>>, Qnm<f64>); 4] = [
        ("fring_22", qnm_fring_22, qnm_fring_22),
        ("fdamp_22", qnm_fdamp_22, qnm_fdamp_22),
        ("fdamp_n2_22", qnm_fdamp_n2_22, qnm_fdamp_n2_22),
        ("fring_55", qnm_fring_55, qnm_fring_55),
    ];
    for (name, qd, qf) in qnm {
        // Direction 0 is the final spin; direction 1 is a dummy (derivative 0).
        check_dual(name, qd(Dual::variable(af, 0)), |x, _| qf(x), af, 0.0);
    }
}
