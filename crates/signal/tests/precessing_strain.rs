//! The strain of a precessing binary as the signal model computes it, from one set-up in bilby's
//! standard orientation and per-mode coefficients (docs/precession.md §12), against the direct
//! route: the smooth model set up with the view's own L0-frame spins (bilby's conversion), its
//! polarisations, and F₊h₊ + F×h× at the detector's delay.

use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_phenomt::{Settings, SmoothPrecession, SmoothSteps, EVERY_MODE};
use tdpe_signal::{
    lal_spins, BbhParameters, Parameter, ParameterVector, SignalModel, SpinModel,
    COPRECESSING_MODES, NUM_PARAMETERS,
};

const F_REF: f64 = 20.0;
const DT: f64 = 1.0 / 2048.0;

fn binary(theta_jn: f64, phi_jl: f64, phase: f64) -> BbhParameters {
    BbhParameters {
        theta_jn,
        phase,
        chi_1: 0.0,
        chi_2: 0.0,
        a_1: 0.7,
        a_2: 0.5,
        tilt_1: 1.2,
        tilt_2: 2.1,
        phi_12: 0.8,
        phi_jl,
        ..BbhParameters::gw150914_like()
    }
}

#[test]
fn factorised_strain_is_the_direct_one() {
    let epoch = GpsTime::from_f64(1126259462.0).unwrap();
    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    let model = SignalModel::new(detectors.clone(), epoch, F_REF, DT).unwrap();
    let settings = Settings {
        f_min: F_REF,
        f_ref: F_REF,
        delta_t: DT,
        smooth: true,
    };
    let (start, n) = (-1.6, 4096);
    let gmst0 = greenwich_mean_sidereal_time(epoch).unwrap();
    for (theta_jn, phi_jl, phase) in [(1.0, 0.3, 1.3), (2.6, 4.0, 5.5), (0.1, 2.0, 0.0)] {
        let p = binary(theta_jn, phi_jl, phase);
        let spins = p.precessing_spins();
        let ours = model.precessing_strain(&p, start, DT, n).unwrap();
        let (m1, m2) = p.component_masses();
        let view = lal_spins(&spins, theta_jn, m1, m2, F_REF, phase).unwrap();
        // The view's spins are the standard orientation's turned by ψ′. The direct route takes
        // the turned ones exactly: bilby's conversion gives them only to rounding, and the
        // smooth THM amplitude's finite-difference slope at −150 M turns a 1e-16 change in an
        // aligned component into ~4e-7 of the (2,2) mode near −90 M (docs/precession.md §11).
        let turned = {
            let (sin, cos) = view.turn.sin_cos();
            let (chi_1, chi_2) = spins.standard_orientation();
            [chi_1, chi_2].map(|v| [cos * v[0] - sin * v[1], sin * v[0] + cos * v[1], v[2]])
        };
        for (ours, bilby) in turned.iter().zip([view.chi_1, view.chi_2]) {
            for (a, b) in ours.iter().zip(bilby) {
                assert!((a - b).abs() < 1e-14, "{a} against bilby's {b}");
            }
        }
        let t_start = start - p.geocent_time - 0.03;
        let direct = SmoothPrecession::new(
            m1,
            m2,
            turned[0],
            turned[1],
            &settings,
            t_start,
            SmoothSteps::for_binary(m1, m2, turned[0][2], turned[1][2], &settings, t_start)
                .unwrap(),
        )
        .unwrap();
        let gmst = gmst0 + tdpe_detector::time::GMST_RATE_RAD_PER_S * p.geocent_time;
        for (detector, strain) in detectors.iter().zip(&ours) {
            let f = detector.antenna_pattern(p.ra, p.dec, p.psi, gmst);
            let delay = detector.time_delay_from_geocenter(p.ra, p.dec, gmst);
            let expected: Vec<f64> = (0..n)
                .map(|i| {
                    let t = start + i as f64 * DT - p.geocent_time - delay;
                    let (hp, hc) =
                        direct.polarizations(t, p.luminosity_distance, view.inclination, phase);
                    f.plus * hp + f.cross * hc
                })
                .collect();
            let peak = expected.iter().fold(0.0_f64, |m, h| m.max(h.abs()));
            let worst = strain
                .iter()
                .zip(&expected)
                .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
            println!(
                "θ_jn {theta_jn}, φ_jl {phi_jl}, φ {phase}, {}: largest difference {:.1e} of the peak",
                detector.name,
                worst / peak
            );
            // The frame is covariant under turns about L̂ to ~2e-10 at the peak
            // (docs/precession.md §11); the strain is not zero (the peak is in the segment).
            assert!(peak > 1e-22, "{peak:e}");
            assert!(worst < 5e-10 * peak, "{:e}", worst / peak);
        }
    }
}

#[test]
fn bad_precessing_input_is_refused() {
    let epoch = GpsTime::from_f64(1126259462.0).unwrap();
    let model = SignalModel::new(Detector::network(&["H1"]).unwrap(), epoch, F_REF, DT).unwrap();
    let p = binary(1.0, 0.3, 1.3);
    let too_fast = BbhParameters { a_1: 1.2, ..p };
    let error = model
        .precessing_strain(&too_fast, -1.6, DT, 16)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("a_1 = 1.2 is outside"), "{error}");
    let far = BbhParameters {
        luminosity_distance: -1.0,
        ..p
    };
    assert!(model.precessing_strain(&far, -1.6, DT, 16).is_err());
    // An absolute GPS time for the relative geocent_time: refused, not gigabytes of nodes.
    let absolute = BbhParameters {
        geocent_time: 1126259462.4,
        ..p
    };
    let error = model
        .precessing_strain(&absolute, -1.6, DT, 16)
        .unwrap_err()
        .to_string();
    assert!(error.contains("t_start"), "{error}");
    let unknown_angle = BbhParameters {
        phi_jl: f64::NAN,
        ..p
    };
    let error = model
        .precessing_strain(&unknown_angle, -1.6, DT, 16)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("phi_jl = NaN"), "{error}");
    let unreachable =
        SignalModel::new(Detector::network(&["H1"]).unwrap(), epoch, 900.0, DT).unwrap();
    let error = unreachable
        .precessing_strain(&p, -1.6, DT, 16)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("reference_frequency = 900 Hz"), "{error}");
}

/// The strain of the model's first detector at the times `times` (s, relative to the epoch)
/// with its gradient in the parameters, from the component gradients and their adjoint.
fn strain_gradient(
    p: &BbhParameters,
    model: &SignalModel,
    times: &[f64],
) -> Vec<(f64, ParameterVector)> {
    use num_complex::Complex64;
    use tdpe_signal::ComponentAdjoint;
    let t_start = times[0] - p.geocent_time - 0.03;
    let source = model.precessing_gradient_source(p, t_start).unwrap();
    let detector = model.antenna(0, p);
    times
        .iter()
        .map(|&time| {
            let t = time - p.geocent_time - detector.delay;
            let parts = source.components(detector.antenna, t, &EVERY_MODE);
            // Each mode alone is the same term, and the modes not asked for are zero.
            for j in 0..parts.len() {
                let mut wanted = [false; COPRECESSING_MODES];
                wanted[j] = true;
                let alone = source.components(detector.antenna, t, &wanted);
                for (k, z) in alone.iter().enumerate() {
                    let expected = if k == j { parts[j] } else { Default::default() };
                    assert_eq!(*z, expected, "mode {k} with only mode {j} wanted");
                }
            }
            // h = Σ Re z: every term with weight 1.
            let mut adjoint = ComponentAdjoint::default();
            parts
                .iter()
                .for_each(|z| adjoint.add(Complex64::new(1.0, 0.0), z));
            let mut gradient = [0.0; NUM_PARAMETERS];
            adjoint.add_to(&detector, p, &mut gradient);
            (parts.iter().map(|z| z.value.re).sum(), gradient)
        })
        .collect()
}

#[test]
fn strain_gradient_matches_finite_differences() {
    let epoch = GpsTime::from_f64(1126259462.0).unwrap();
    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    let p = binary(1.0, 0.3, 1.3);
    let peak_mass_s = 65.0 * 4.925e-6;
    // Inspiral, late inspiral, merger, ringdown (the peak is at 0.4 s).
    let offsets_m = [
        -3000.0, -600.0, -200.0, -100.0, -40.0, -10.0, 0.0, 8.0, 30.0,
    ];
    let times: Vec<f64> = offsets_m
        .iter()
        .map(|m| p.geocent_time + m * peak_mass_s)
        .collect();
    // Where the aligned components or η change, steps of 1e-3: smaller ones meet the rounding
    // jitter of THM's −150 M slope (docs/precession.md §12.2), larger ones its curvature. The
    // jitter then leaves ~1e-5 of the largest derivative.
    let moves_aligned_spins = |parameter: Parameter| {
        matches!(
            parameter,
            Parameter::MassRatio
                | Parameter::A1
                | Parameter::A2
                | Parameter::Tilt1
                | Parameter::Tilt2
        )
    };
    let step = |parameter: Parameter| match parameter {
        Parameter::ChirpMass => 1e-4,
        Parameter::LuminosityDistance => 1e-2,
        Parameter::GeocentTime => 1e-7,
        other if moves_aligned_spins(other) => 1e-3,
        _ => 1e-5,
    };
    // The truth's step counts for every point, as an analysis fixes them: counts that followed
    // the parameters could jump between the differences' points.
    let settings = Settings {
        f_min: F_REF,
        f_ref: F_REF,
        delta_t: DT,
        smooth: true,
    };
    let (m1, m2) = p.component_masses();
    let (chi_1, chi_2) = p.precessing_spins().standard_orientation();
    let t_start = times[0] - p.geocent_time - 0.03;
    let steps = SmoothSteps::for_binary(m1, m2, chi_1[2], chi_2[2], &settings, t_start).unwrap();
    for detector in &detectors {
        let model = SignalModel::new(vec![detector.clone()], epoch, F_REF, DT)
            .unwrap()
            .with_precession_steps(steps);
        let strain_at = |p: &BbhParameters| -> Vec<f64> {
            times
                .iter()
                .map(|&t| model.precessing_strain(p, t, DT, 1).unwrap()[0][0])
                .collect()
        };
        let ours = strain_gradient(&p, &model, &times);
        let plain = strain_at(&p);
        for (i, (h, _)) in ours.iter().enumerate() {
            assert!(
                (h - plain[i]).abs() <= 1e-12 * plain[i].abs().max(1e-22),
                "value"
            );
        }
        for &parameter in SpinModel::Precessing.parameters() {
            // Five-point differences.
            let at = |c: f64| {
                let mut moved = p.to_array();
                moved[parameter] += c * step(parameter);
                strain_at(&BbhParameters::from_array(moved))
            };
            let (m2, m1, p1, p2) = (at(-2.0), at(-1.0), at(1.0), at(2.0));
            let scale = ours
                .iter()
                .fold(0.0_f64, |m, (_, g)| m.max(g[parameter].abs()));
            let mut worst = 0.0_f64;
            for (i, (_, g)) in ours.iter().enumerate() {
                let fd = (m2[i] - 8.0 * m1[i] + 8.0 * p1[i] - p2[i]) / (12.0 * step(parameter));
                worst = worst.max((g[parameter] - fd).abs() / scale);
            }
            let name = parameter.name();
            println!(
                "{}: {name}: largest difference {worst:.1e} of the largest derivative",
                detector.name
            );
            assert!(scale > 0.0, "{name}: no derivative");
            let tolerance = if moves_aligned_spins(parameter) {
                1e-4
            } else {
                1e-7
            };
            assert!(worst < tolerance, "{name}: {worst:e}");
        }
    }
}

/// The cost of the gradient's pieces, for docs/precession.md §12.4 (run with `--ignored
/// --nocapture`, alone): the set-up with its dual numbers, and one node's five components with
/// their gradient, against the set-up in f64.
#[test]
#[ignore]
fn cost() {
    use num_complex::Complex64;
    use tdpe_signal::{PrecessingGradientSource, PrecessingSource};
    let settings = Settings {
        f_min: F_REF,
        f_ref: F_REF,
        delta_t: DT,
        smooth: true,
    };
    let p = BbhParameters {
        luminosity_distance: 400.0,
        ..binary(1.0, 0.3, 1.3)
    };
    let spins = p.precessing_spins();
    let (m1, m2) = p.component_masses();
    let median = |f: &mut dyn FnMut()| {
        let mut times: Vec<f64> = (0..21)
            .map(|_| {
                let clock = std::time::Instant::now();
                f();
                clock.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        times.sort_by(f64::total_cmp);
        times[10]
    };
    let t_start = -4.0;
    let (chi_1, chi_2) = spins.standard_orientation();
    let for_binary =
        SmoothSteps::for_binary(m1, m2, chi_1[2], chi_2[2], &settings, t_start).unwrap();
    for (name, steps) in [
        ("default", SmoothSteps::default()),
        ("for_binary", for_binary),
    ] {
        let plain = median(&mut || {
            PrecessingSource::new(m1, m2, &spins, 1.0, 1.3, 400.0, &settings, t_start, steps)
                .unwrap();
        });
        let new_gradient = || PrecessingGradientSource::new(&p, &settings, t_start, steps).unwrap();
        let setup = median(&mut || {
            new_gradient();
        });
        let source = new_gradient();
        let antenna = Complex64::new(0.3, -0.5);
        let nodes: Vec<f64> = (0..100).map(|k| -1.0 + 0.0105 * k as f64).collect();
        let per_node = median(&mut || {
            for &t in &nodes {
                std::hint::black_box(source.components(antenna, t, &EVERY_MODE));
            }
        }) / nodes.len() as f64;
        println!(
            "{name} steps {steps:?}: set-up from 4 s before the peak: f64 {plain:.2} ms, with the \
             gradient's dual numbers {setup:.2} ms; one node's five components with their \
             gradient {:.1} µs",
            per_node * 1e3
        );
    }
}
