//! The model's domain: parameters outside it give a `WaveformError` that names the parameter
//! and its allowed range (never a panic or NaN), and parameters at its edges give finite
//! waveforms.

use tdpe_phenomt::{IMRPhenomT, Settings, WaveformError};

const DT: f64 = 1.0 / 4096.0;

fn settings(f_min: f64, f_ref: f64, delta_t: f64) -> Settings {
    Settings::lal(f_min, f_ref, delta_t)
}

fn new(m1: f64, m2: f64, chi1: f64, chi2: f64, s: &Settings) -> Result<IMRPhenomT<f64>, String> {
    IMRPhenomT::new(m1, m2, chi1, chi2, s).map_err(|e| e.to_string())
}

/// The error message for these parameters; fails if the set-up succeeds.
fn error(m1: f64, m2: f64, chi1: f64, chi2: f64, s: &Settings) -> String {
    match new(m1, m2, chi1, chi2, s) {
        Ok(_) => panic!("({m1}, {m2}, {chi1}, {chi2}, {s:?}) was accepted"),
        Err(e) => e,
    }
}

/// Asserts that `message` contains every one of `parts`.
fn assert_mentions(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{message:?} lacks {part:?}");
    }
}

#[test]
fn masses_must_be_positive_and_finite() {
    let s = settings(20.0, 20.0, DT);
    for bad in [
        0.0,
        -0.0,
        -30.0,
        1e300,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        let e = error(bad, 29.0, 0.3, -0.2, &s);
        assert_mentions(&e, &["mass_1", "(0, 1e270] M☉"]);
        let e = error(36.0, bad, 0.3, -0.2, &s);
        assert_mentions(&e, &["mass_2", "(0, 1e270] M☉"]);
    }
}

#[test]
fn mass_ratio_is_at_most_200() {
    let s = settings(20.0, 20.0, DT);
    for (m1, m2) in [(201.0, 1.0), (1.0, 201.0), (1000.0, 2.0)] {
        let e = error(m1, m2, 0.0, 0.0, &s);
        assert_mentions(&e, &["mass_ratio", "[1, 200]"]);
    }
}

#[test]
fn spins_lie_in_the_unit_interval() {
    let s = settings(20.0, 20.0, DT);
    for bad in [1.0000001, -1.01, 2.0, f64::NAN, f64::INFINITY] {
        assert_mentions(&error(36.0, 29.0, bad, 0.0, &s), &["chi_1", "[-1, 1]"]);
        assert_mentions(&error(36.0, 29.0, 0.0, bad, &s), &["chi_2", "[-1, 1]"]);
    }
}

#[test]
fn high_spin_at_high_mass_ratio_is_refused() {
    let s = settings(20.0, 20.0, DT);
    // q > 20 with χ1 ≥ 0.9: the model's fits are pathological there (LAL refuses it too).
    for (m1, m2, chi1) in [(42.0, 2.0, 0.9), (100.0, 2.0, 0.99), (2.0, 60.0, 0.95)] {
        let (c1, c2) = if m1 >= m2 { (chi1, 0.0) } else { (0.0, chi1) };
        let e = error(m1, m2, c1, c2, &s);
        assert_mentions(&e, &["chi_1", "mass ratio > 20", "[-1, 0.9)"]);
    }
    // Just inside: q = 20 at χ1 = 0.95, and q = 21 at χ1 = 0.89.
    assert!(new(40.0, 2.0, 0.95, 0.0, &s).is_ok());
    assert!(new(42.0, 2.0, 0.89, 0.0, &s).is_ok());
}

#[test]
fn frequencies_and_sampling_interval_must_be_positive() {
    for bad in [0.0, -20.0, f64::NAN, f64::INFINITY] {
        let e = error(36.0, 29.0, 0.3, -0.2, &settings(bad, 20.0, DT));
        assert_mentions(&e, &["minimum_frequency", "(0, ∞) Hz"]);
        let e = error(36.0, 29.0, 0.3, -0.2, &settings(20.0, 20.0, bad));
        assert_mentions(&e, &["delta_t", "(0, ∞) s"]);
    }
    for bad in [-1.0, -1e-300, f64::NAN, f64::INFINITY] {
        let e = error(36.0, 29.0, 0.3, -0.2, &settings(20.0, bad, DT));
        assert_mentions(&e, &["reference_frequency", "[0, ∞) Hz"]);
    }
    // f_ref = 0 means f_min, as in LAL.
    assert!(new(36.0, 29.0, 0.3, -0.2, &settings(20.0, 0.0, DT)).is_ok());
}

#[test]
fn frequencies_beyond_the_ringdown_are_refused_with_the_range() {
    for (f_min, f_ref, name) in [
        (1000.0, 1000.0, "minimum_frequency"),
        (20.0, 1000.0, "reference_frequency"),
        (1e9, 0.0, "minimum_frequency"),
    ] {
        let err =
            IMRPhenomT::<f64>::new(36.0, 29.0, 0.3, -0.2, &settings(f_min, f_ref, DT)).unwrap_err();
        let WaveformError::FrequencyNotReached {
            name: n,
            lowest_hz,
            ringdown_hz,
            ..
        } = err
        else {
            panic!("{err:?}")
        };
        assert_eq!(n, name);
        // This binary's ringdown frequency is ~270 Hz; at t = −1e9 M its frequency is ~0.2 Hz.
        assert!(ringdown_hz > 200.0 && ringdown_hz < 400.0, "{ringdown_hz}");
        assert!(lowest_hz > 0.01 && lowest_hz < 1.0, "{lowest_hz}");
        assert_mentions(
            &err.to_string(),
            &[name, &format!("{ringdown_hz:.2}) Hz"), "allowed range"],
        );
    }
}

#[test]
fn frequencies_below_the_model_start_are_refused_with_the_range() {
    // A 1+1 M☉ binary from 0.01 Hz would start ~1e13 M before the peak; the model covers 1e9 M.
    let err = error(1.0, 1.0, 0.0, 0.0, &settings(0.01, 0.0, DT));
    assert_mentions(&err, &["minimum_frequency = 0.01 Hz", "allowed range"]);
}

#[test]
fn no_input_panics_or_gives_nan() {
    let odd = [
        f64::NAN,
        f64::INFINITY,
        -1.0,
        0.0,
        1e-300,
        1e-12,
        0.5,
        1.0,
        30.0,
        1e6,
        1e300,
    ];
    let spins = [f64::NAN, -1.0, -0.999, 0.0, 0.999, 1.0, 1.5];
    let mut accepted = 0;
    for &m1 in &odd {
        for &m2 in &odd {
            for &chi in &spins {
                for &f_min in &[f64::NAN, 1e-3, 20.0, 1e4] {
                    let s = settings(f_min, 0.0, DT);
                    let Ok(model) = IMRPhenomT::<f64>::new(m1, m2, chi, -chi, &s) else {
                        continue;
                    };
                    accepted += 1;
                    // f_min between the peak and ringdown frequencies starts after the peak.
                    let t0 = model.start_time();
                    let m = model.total_mass_seconds();
                    assert!(
                        t0.is_finite() && t0 < 500.0 * m,
                        "({m1}, {m2}, {chi}, {f_min}): {t0}"
                    );
                    for t in [
                        t0,
                        0.5 * t0,
                        -200.0 * m,
                        -50.0 * m,
                        0.0,
                        20.0 * m,
                        500.0 * m,
                    ] {
                        let h = model.mode22(t);
                        assert!(
                            h.amplitude.is_finite() && h.phase.is_finite(),
                            "({m1}, {m2}, {chi}, {f_min}) at {t}: {h:?}"
                        );
                    }
                }
            }
        }
    }
    assert!(accepted > 10, "{accepted}");
}

/// Every sample of the polarisations on LAL's grid is finite, and the signal is not empty.
fn assert_finite_waveform(m1: f64, m2: f64, chi1: f64, chi2: f64, f_min: f64) {
    let model = IMRPhenomT::<f64>::new(m1, m2, chi1, chi2, &settings(f_min, f_min, DT))
        .unwrap_or_else(|e| panic!("({m1}, {m2}, {chi1}, {chi2}): {e}"));
    let pol = model.polarizations_on_grid(100.0, 0.7, 0.2);
    assert!(pol.hp.len() > 100);
    let peak = pol.hp.iter().fold(0.0_f64, |m, h| m.max(h.abs()));
    assert!(peak > 0.0);
    for (k, (hp, hc)) in pol.hp.iter().zip(&pol.hc).enumerate() {
        assert!(hp.is_finite() && hc.is_finite(), "({m1}, {m2}) sample {k}");
    }
}

#[test]
fn mass_ratio_200_is_finite() {
    assert_finite_waveform(200.0, 1.0, 0.0, 0.0, 10.0);
    assert_finite_waveform(200.0, 1.0, -0.9, 0.5, 10.0);
    assert_finite_waveform(1.0, 200.0, 0.5, 0.85, 10.0);
}

#[test]
fn extremal_spins_are_finite() {
    for (chi1, chi2) in [
        (0.999, 0.999),
        (-0.999, -0.999),
        (0.999, -0.999),
        (-0.999, 0.999),
    ] {
        assert_finite_waveform(36.0, 29.0, chi1, chi2, 20.0);
        assert_finite_waveform(80.0, 10.0, chi1, chi2, 20.0);
    }
    assert_finite_waveform(20.0, 20.0, 1.0, 1.0, 20.0);
    assert_finite_waveform(20.0, 20.0, -1.0, -1.0, 20.0);
}
