//! The detector strain Re[Q·W] against the direct projection F₊h₊ + F×h× of LAL-convention
//! polarisations, and the closed-form gradient of Q and τ against finite differences.

use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_phenomt::IMRPhenomT;
use tdpe_signal::{BbhParameters, SignalModel, PARAMETER_NAMES};

fn model() -> SignalModel {
    let detectors = Detector::network(&["H1", "L1", "V1"]).unwrap();
    SignalModel::new(detectors, GpsTime::new(1126259462, 0), 20.0, 1.0 / 2048.0).unwrap()
}

#[test]
fn strain_equals_antenna_weighted_polarizations() {
    let (model, p) = (model(), BbhParameters::gw150914_like());
    let (start, dt, n) = (-1.6, 1.0 / 2048.0, 4096);
    let strain = model.strain(&p, start, dt, n).unwrap();
    let (m1, m2) = p.component_masses();
    let waveform = IMRPhenomT::new(m1, m2, p.chi_1, p.chi_2, model.waveform_settings()).unwrap();
    let gmst = greenwich_mean_sidereal_time(GpsTime::new(1126259462, 400_000_000)).unwrap();
    for (k, det) in model.detectors().iter().enumerate() {
        let f = det.antenna_pattern(p.ra, p.dec, p.psi, gmst);
        let tau = det.time_delay_from_geocenter(p.ra, p.dec, gmst);
        let peak = strain[k].iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        for (i, &h) in strain[k].iter().enumerate() {
            let t = start + i as f64 * dt - p.geocent_time - tau;
            let (hp, hc) = waveform.polarizations(t, p.luminosity_distance, p.theta_jn, p.phase);
            let direct = f.plus * hp + f.cross * hc;
            assert!(
                (h - direct).abs() < 1e-11 * peak,
                "{} sample {i}: {h} vs {direct}",
                det.name
            );
        }
    }
}

#[test]
fn projection_gradient_matches_finite_differences() {
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
    for (index, value, needle) in [
        (0, -1.0, "chirp_mass"),
        (1, 1.5, "mass_ratio"),
        (2, 1.2, "chi_1"),
        (4, 0.0, "luminosity_distance"),
        (9, f64::NAN, "ra"),
    ] {
        let mut v = BbhParameters::gw150914_like().to_array();
        v[index] = value;
        let err = model
            .strain(&BbhParameters::from_array(v), 0.0, 1e-3, 16)
            .unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
    }
}
