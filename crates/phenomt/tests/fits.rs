//! The parameter-space fits against the set-up scalars of `tests/data/intermediates.json`
//! (a copy of `shared/reference/imrphenomt/intermediates.json`), and the derivatives of their
//! dual-number instantiation against finite differences.

use std::f64::consts::PI;

use serde_json::Value;
use tdpe_phenomt::fits::*;
use tdpe_phenomt::scalar::Dual;

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
    Case { name: "T02_gw150914_like", m1: 36.0, m2: 29.0, chi1: 0.3, chi2: -0.2 },
    Case { name: "T09_q3_M40_antialigned_fref40", m1: 30.0, m2: 10.0, chi1: -0.9, chi2: -0.9 },
    Case { name: "THM02_q8_M90", m1: 80.0, m2: 10.0, chi1: 0.5, chi2: -0.4 },
];

/// The fit inputs and final state exactly as `IMRPhenomTSetWaveformVariables` computes them.
struct Setup {
    fit: FitInputs<f64>,
    mfinal: f64,
    afinal: f64,
}

impl Case {
    fn setup(&self) -> Setup {
        let (m1_in, m2_in) = ((self.m1 * MSUN_SI) / MSUN_SI, (self.m2 * MSUN_SI) / MSUN_SI);
        assert!(m1_in >= m2_in);
        let (m1, m2, chi1, chi2) = (m1_in, m2_in, self.chi1, self.chi2);
        let delta = ((m1 - m2) / (m1 + m2)).abs();
        let eta = (0.25 * (1.0 - delta * delta)).abs().min(0.25);
        let mtot = m1 + m2;
        let (m1, m2) = (m1 / mtot, m2 / mtot);
        let s = (m1 * m1 * chi1 + m2 * m2 * chi2) / (m1 * m1 + m2 * m2);
        Setup {
            fit: FitInputs { eta, s, dchi: chi1 - chi2, delta },
            mfinal: final_mass_2017(eta, chi1, chi2),
            afinal: final_spin_2017(eta, chi1, chi2),
        }
    }
}

fn reference() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/intermediates.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Compares `ours` with `case[group][key]`; returns the relative deviation.
fn check(case: &Value, group: &str, key: &str, ours: f64, tol: f64) -> f64 {
    let want = case[group][key].as_f64().unwrap_or_else(|| panic!("no {group}.{key}"));
    let rel = if ours == want { 0.0 } else { ((ours - want) / want).abs() };
    println!("{group:>8}.{key:<24} {ours:>24.17e} {want:>24.17e} rel {rel:.2e}");
    assert!(rel <= tol, "{group}.{key}: {ours:e} vs {want:e} (rel {rel:e} > {tol:e})");
    rel
}

#[test]
fn fit_inputs_and_final_state_match_reference() {
    let all = reference();
    for c in &CASES {
        let r = &all["cases"][c.name];
        let su = c.setup();
        println!("{}", c.name);
        check(r, "waveform", "eta", su.fit.eta, 0.0);
        check(r, "waveform", "delta", su.fit.delta, 0.0);
        check(r, "waveform", "Shat", su.fit.s, 0.0);
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
        let Setup { fit: p, mfinal, afinal } = c.setup();
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
type ModeFits = (
    [fn(&FitInputs<f64>) -> f64; 10],
    [fn(f64) -> f64; 3],
);

#[test]
fn fits_hm_match_reference() {
    let all = reference();
    let c = &CASES[2];
    let r = &all["cases"][c.name];
    let Setup { fit: p, mfinal, afinal } = c.setup();
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
    let amp_keys = ["ampCP_m2000", "ampCP_m250", "ampCP_m150", "ampMergerCP_m25", "ampPeak", "c3"];
    for ((lm, (fits, [fring, fdamp, fdamp_n2])), tshift) in modes.iter().zip(tshift) {
        let (phase, amp) = (format!("phase{lm}"), format!("amp{lm}"));
        for (key, f) in phase_keys.iter().zip(&fits[..4]) {
            check(r, &phase, key, f(&p), TOL);
        }
        for (key, f) in amp_keys.iter().zip(&fits[4..]) {
            check(r, &amp, key, f(&p), TOL);
        }
        check(r, &amp, "tshift", tshift(&p), TOL);
        check(r, &phase, "omegaRING", 2.0 * PI * (fring(afinal) / mfinal), TOL);
        check(r, &phase, "alpha1RD", 2.0 * PI * (fdamp(afinal) / mfinal), TOL);
        check(r, &amp, "alpha2RD", 2.0 * PI * (fdamp_n2(afinal) / mfinal), TOL);
    }
}

/// Central finite difference of a scalar function.
fn fd(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// Checks a dual evaluation: value part bit-identical to `f64`, derivatives matching central
/// finite differences of the `f64` function in each of the two seeded directions.
fn check_dual(name: &str, d: Dual<2>, f: impl Fn(f64, f64) -> f64, x: f64, y: f64) {
    assert_eq!(d.re.to_bits(), f(x, y).to_bits(), "{name}: value part differs");
    let h = 1e-5;
    for (k, num) in [fd(|x| f(x, y), x, h), fd(|y| f(x, y), y, h)].into_iter().enumerate() {
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
    let inputs = |eta, s| FitInputs { eta, s, dchi: p.dchi, delta: p.delta };
    let dual = FitInputs {
        eta: Dual::<2>::variable(p.eta, 0),
        s: Dual::variable(p.s, 1),
        dchi: Dual::from(p.dchi),
        delta: Dual::from(p.delta),
    };
    let fits: [(&str, fn(&FitInputs<Dual<2>>) -> Dual<2>, fn(&FitInputs<f64>) -> f64); 8] = [
        ("tt0", inspiral_taylor_t3_t0, inspiral_taylor_t3_t0),
        ("freq_cp1", inspiral_freq_cp1_22, inspiral_freq_cp1_22),
        ("freq_cp3", inspiral_freq_cp3_22, inspiral_freq_cp3_22),
        ("freq_cp5", inspiral_freq_cp5_22, inspiral_freq_cp5_22),
        ("peak_freq", peak_frequency_22, peak_frequency_22),
        ("amp_cp1", inspiral_amp_cp1_22, inspiral_amp_cp1_22),
        ("peak_amp", peak_amp_22, peak_amp_22),
        ("tshift_44", tshift_44, tshift_44),
    ];
    for (name, fd_, ff) in fits {
        check_dual(name, fd_(&dual), |eta, s| ff(&inputs(eta, s)), p.eta, p.s);
    }
    // Final state with respect to η and χ1; QNM fits with respect to the final spin.
    let (chi1, chi2) = (CASES[0].chi1, CASES[0].chi2);
    let (eta, c1) = (Dual::<2>::variable(p.eta, 0), Dual::variable(chi1, 1));
    let c2 = Dual::from(chi2);
    check_dual("Mfinal", final_mass_2017(eta, c1, c2), |e, x| final_mass_2017(e, x, chi2), p.eta, chi1);
    check_dual("afinal", final_spin_2017(eta, c1, c2), |e, x| final_spin_2017(e, x, chi2), p.eta, chi1);
    let af = final_spin_2017(p.eta, chi1, chi2);
    let qnm: [(&str, fn(Dual<2>) -> Dual<2>, fn(f64) -> f64); 4] = [
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
