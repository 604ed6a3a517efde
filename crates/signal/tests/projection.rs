//! The detector strain Re[Q·W] (and Σ_lm Re[Q_lm·W_lm] with higher modes) against the direct
//! projection F₊h₊ + F×h× of LAL-convention polarisations, and the closed-form gradient of Q
//! and τ against finite differences.

use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_phenomt::{IMRPhenomT, IMRPhenomTHM, Mode, WaveformError};
use tdpe_signal::{BbhParameters, Parameter, SignalError, SignalModel, PARAMETER_NAMES};

fn model() -> SignalModel {
    let detectors = Detector::network(&["H1", "L1", "V1"]).unwrap();
    SignalModel::new(detectors, GpsTime::new(1126259462, 0), 20.0, 1.0 / 2048.0).unwrap()
}

/// The segment the strain tests take: start (s from the epoch), sampling interval, samples.
const SEGMENT: (f64, f64, usize) = (-1.6, 1.0 / 2048.0, 4096);

/// F₊h₊ + F×h× of each detector on [`SEGMENT`], with `polarizations(t, D, θ_jn, φ)` the
/// waveform's at time t from its peak.
fn direct_projection(
    model: &SignalModel,
    p: &BbhParameters,
    polarizations: impl Fn(f64, f64, f64, f64) -> (f64, f64),
) -> Vec<Vec<f64>> {
    let (start, dt, n) = SEGMENT;
    let gmst = greenwich_mean_sidereal_time(GpsTime::new(1126259462, 400_000_000)).unwrap();
    model
        .detectors()
        .iter()
        .map(|det| {
            let f = det.antenna_pattern(p.ra, p.dec, p.psi, gmst);
            let tau = det.time_delay_from_geocenter(p.ra, p.dec, gmst);
            (0..n)
                .map(|i| {
                    let t = start + i as f64 * dt - p.geocent_time - tau;
                    let (hp, hc) = polarizations(t, p.luminosity_distance, p.theta_jn, p.phase);
                    f.plus * hp + f.cross * hc
                })
                .collect()
        })
        .collect()
}

/// The model's strain on [`SEGMENT`] against `direct`, sample by sample, to 1e-11 of its peak.
fn assert_strain_is(model: &SignalModel, p: &BbhParameters, direct: &[Vec<f64>]) {
    let (start, dt, n) = SEGMENT;
    let strain = model.strain(p, start, dt, n).unwrap();
    for (k, det) in model.detectors().iter().enumerate() {
        let peak = strain[k].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        for (i, (&h, &d)) in strain[k].iter().zip(&direct[k]).enumerate() {
            assert!(
                (h - d).abs() < 1e-11 * peak,
                "{} sample {i}: {h} vs {d}",
                det.name
            );
        }
    }
}

#[test]
fn strain_equals_antenna_weighted_polarizations() {
    let (model, p) = (model(), BbhParameters::gw150914_like());
    let (m1, m2) = p.component_masses();
    let waveform = IMRPhenomT::new(m1, m2, p.chi_1, p.chi_2, model.waveform_settings()).unwrap();
    let direct = direct_projection(&model, &p, |t, d, i, f| waveform.polarizations(t, d, i, f));
    assert_strain_is(&model, &p, &direct);
}

/// An unequal-mass, inclined binary, where every higher mode matters.
fn unequal_inclined() -> BbhParameters {
    BbhParameters {
        mass_ratio: 0.2,
        theta_jn: 1.2,
        ..BbhParameters::gw150914_like()
    }
}

#[test]
fn strain_with_higher_modes_equals_antenna_weighted_polarizations() {
    let model = model().with_modes(&Mode::ALL).unwrap();
    let p = unequal_inclined();
    let (m1, m2) = p.component_masses();
    let settings = model.waveform_settings();
    let waveform = IMRPhenomTHM::new(m1, m2, p.chi_1, p.chi_2, settings, &Mode::ALL).unwrap();
    let only22 = IMRPhenomT::new(m1, m2, p.chi_1, p.chi_2, settings).unwrap();
    let direct = direct_projection(&model, &p, |t, d, i, f| waveform.polarizations(t, d, i, f));
    assert_strain_is(&model, &p, &direct);
    // The higher modes are there: at q = 1/5 and θ_jn = 1.2 they are ~10 % of the peak.
    let direct22 = direct_projection(&model, &p, |t, d, i, f| only22.polarizations(t, d, i, f));
    for ((all, only), det) in direct.iter().zip(&direct22).zip(model.detectors()) {
        let peak = all.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let share = all
            .iter()
            .zip(only)
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()))
            / peak;
        assert!(share > 0.05, "{}", det.name);
    }
}

#[test]
fn mode_lists_are_checked() {
    let err = model().with_modes(&[]).unwrap_err();
    assert_eq!(err, SignalError::Waveform(WaveformError::NoModes));
    let err = model()
        .with_modes(&[Mode::L3M3, Mode::L2M2, Mode::L3M3])
        .unwrap_err();
    assert_eq!(
        err,
        SignalError::Waveform(WaveformError::RepeatedMode { l: 3, m: 3 })
    );
    let model = model()
        .with_modes(&[Mode::L4M4, Mode::L2M1, Mode::L2M2])
        .unwrap();
    assert_eq!(model.modes(), [Mode::L2M2, Mode::L2M1, Mode::L4M4]);
    assert!(!model.is_22_only());
}

#[test]
fn projection_gradient_matches_finite_differences() {
    let all = model().with_modes(&Mode::ALL).unwrap();
    let p = unequal_inclined();
    for k in 0..3 {
        for (j, mode) in Mode::ALL.into_iter().enumerate() {
            let g = &all.mode_projections(k, &p)[j];
            for (i, name) in PARAMETER_NAMES.iter().enumerate() {
                let h = 1e-6 * p.to_array()[i].abs().max(1.0);
                let shifted = |s: f64| {
                    let mut v = p.to_array();
                    v[i] += s * h;
                    all.mode_projections(k, &BbhParameters::from_array(v))[j].value
                };
                let (up, down) = (shifted(1.0), shifted(-1.0));
                let fd = (up.factor - down.factor) / (2.0 * h);
                let scale = g.value.factor.norm() / p.to_array()[i].abs().max(1.0);
                assert!(
                    (g.d_factor[i] - fd).norm() < 1e-6 * scale,
                    "detector {k}, {mode:?}, {name}: {} vs {fd}",
                    g.d_factor[i]
                );
            }
        }
    }
    // The (2,2) factor is the same with or without the other modes, bit for bit.
    let only22 = model();
    for k in 0..3 {
        assert_eq!(only22.projection(k, &p), all.mode_projections(k, &p)[0]);
    }
}

#[test]
fn projection_gradient_of_the_22_matches_finite_differences() {
    let (model, p) = (model(), BbhParameters::gw150914_like());
    for k in 0..3 {
        let g = model.projection(k, &p);
        for (j, name) in PARAMETER_NAMES.iter().enumerate() {
            let h = 1e-6 * p.to_array()[j].abs().max(1.0);
            let shifted = |s: f64| {
                let mut v = p.to_array();
                v[j] += s * h;
                model.projection(k, &BbhParameters::from_array(v)).value
            };
            let (up, down) = (shifted(1.0), shifted(-1.0));
            let fd_factor = (up.factor - down.factor) / (2.0 * h);
            let fd_delay = (up.delay - down.delay) / (2.0 * h);
            let scale = g.value.factor.norm() / p.to_array()[j].abs().max(1.0);
            assert!(
                (g.d_factor[j] - fd_factor).norm() < 1e-6 * scale,
                "detector {k}, {name}: {} vs {fd_factor}",
                g.d_factor[j]
            );
            assert!(
                (g.d_delay[j] - fd_delay).abs() < 1e-9,
                "detector {k}, {name}: {} vs {fd_delay}",
                g.d_delay[j]
            );
        }
    }
}

#[test]
fn bad_parameters_are_clear_errors() {
    let model = model();
    for (parameter, value, needle) in [
        (Parameter::ChirpMass, -1.0, "chirp_mass"),
        (Parameter::MassRatio, 1.5, "mass_ratio"),
        (Parameter::Chi1, 1.2, "chi_1"),
        (Parameter::LuminosityDistance, 0.0, "luminosity_distance"),
        (Parameter::Ra, f64::NAN, "ra"),
    ] {
        let mut v = BbhParameters::gw150914_like().to_array();
        v[parameter] = value;
        let err = model
            .strain(&BbhParameters::from_array(v), 0.0, 1e-3, 16)
            .unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    }
}
