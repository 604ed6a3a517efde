//! Forward-mode derivatives of h22 (dual numbers) against central finite differences of the
//! f64 model, with respect to m1, m2, χ1, χ2 and time, across the parameter space and in every
//! region of the waveform.

use tdpe_phenomt::{Dual, IMRPhenomT, Mode22, Mode22Adjoint, Settings};

/// With exact reference times and slopes the model is smooth in its parameters (see `Settings`).
const SETTINGS: Settings = Settings {
    f_min: 20.0,
    f_ref: 20.0,
    delta_t: 1.0 / 4096.0,
    smooth: true,
};

/// (m1, m2, χ1, χ2) spanning mass ratios 1.2–12, total masses 12–190 M☉ and spins ±0.9.
const POINTS: [[f64; 4]; 6] = [
    [36.0, 29.0, 0.3, -0.2],
    [12.0, 10.0, -0.5, 0.6],
    [40.0, 10.0, 0.8, 0.1],
    [150.0, 40.0, -0.9, -0.3],
    [8.0, 4.0, 0.0, 0.9],
    [120.0, 10.0, 0.5, 0.2],
];

/// Evaluation times as fractions of the start time (inspiral) and multiples of M (merger,
/// ringdown).
fn times(model: &IMRPhenomT<f64>) -> Vec<f64> {
    let m = model.total_mass_seconds();
    let t0 = model.start_time();
    vec![
        0.9 * t0,
        0.3 * t0,
        -400.0 * m,
        -60.0 * m,
        -10.0 * m,
        8.0 * m,
        40.0 * m,
    ]
}

/// A quantity of the mode, its dual derivatives, and its scale.
type Check = (fn(&Mode22<f64>) -> f64, [f64; 5], f64);

fn mode_at(p: [f64; 4], t: f64) -> Mode22<f64> {
    IMRPhenomT::new(p[0], p[1], p[2], p[3], &SETTINGS)
        .unwrap()
        .mode22(t)
}

#[test]
fn dual_derivatives_match_finite_differences() {
    let (mut worst_inspiral, mut worst_merger) = (0.0_f64, 0.0_f64);
    for p in POINTS {
        let duals: [Dual<5>; 4] = std::array::from_fn(|k| Dual::variable(p[k], k));
        let model = IMRPhenomT::new(duals[0], duals[1], duals[2], duals[3], &SETTINGS).unwrap();
        let plain = IMRPhenomT::new(p[0], p[1], p[2], p[3], &SETTINGS).unwrap();
        for t in times(&plain) {
            let m = model.mode22(Dual::variable(t, 4));
            // Values are bit-identical to the f64 model.
            let v = plain.mode22(t);
            assert_eq!(m.amplitude.re.to_bits(), v.amplitude.to_bits());
            assert_eq!(m.phase.re.to_bits(), v.phase.to_bits());
            // LAL's set-up takes finite differences with 1e-7 steps, so some coefficients carry
            // rounding noise as functions of the parameters (docs/imrphenomt.md §8.1): the merger
            // phase jitters by ~5e-5 rad under 1e-9 changes of a mass, and so does everything
            // that depends on it (the merger amplitude; the inspiral amplitude when the −150 M
            // collocation point lies in the merger; the whole phase when t(f_ref) does). A
            // few probe steps of 1e-9 detect it: there the finite-difference steps must be large
            // (1e-2 of a mass, 5e-2 in spin) to average the noise out, which limits what the
            // comparison can show to a few 1e-3. Elsewhere the model is smooth; time never
            // enters the set-up.
            // (quantity, its derivatives, its scale: amplitudes relative, phases in radians)
            let checks: [Check; 2] = [
                (|m| m.amplitude, m.amplitude.eps, v.amplitude),
                (|m| m.phase, m.phase.eps, 1.0),
            ];
            for (quantity, dual_eps, scale) in checks {
                let exact = quantity(&v);
                for k in 0..5 {
                    let noisy = k < 4
                        && [-2.0, -1.0, 1.0, 2.0].iter().any(|&n| {
                            let mut q = p;
                            let probe = n * 1e-9 * p[k].abs().max(1.0);
                            q[k] += probe;
                            let jitter = quantity(&mode_at(q, t)) - exact - dual_eps[k] * probe;
                            jitter.abs() > 1e-11 * exact.abs().max(scale)
                        });
                    let h = match (k, noisy) {
                        (0 | 1, true) => 1e-2 * p[k],
                        (0 | 1, false) => 1e-5 * p[k],
                        (2 | 3, true) => 5e-2,
                        (2 | 3, false) => 1e-5,
                        _ => 1e-4 * plain.total_mass_seconds(),
                    };
                    let at = |s: f64| {
                        let m = if k < 4 {
                            let mut q = p;
                            q[k] += s * h;
                            mode_at(q, t)
                        } else {
                            plain.mode22(t + s * h)
                        };
                        quantity(&m)
                    };
                    let fd = (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * h);
                    // Relative error, with a floor at the quantity's own size per unit of the
                    // parameter (so that near-zero derivatives are not judged relatively).
                    let floor = exact.abs() / p.get(k).map_or(1.0, |x| x.abs().max(1.0));
                    let err = (dual_eps[k] - fd).abs() / fd.abs().max(floor).max(1e-300);
                    let (tolerance, worst) = if noisy {
                        (3e-3, &mut worst_merger)
                    } else {
                        (1e-6, &mut worst_inspiral)
                    };
                    *worst = worst.max(err);
                    assert!(
                        err < tolerance,
                        "p = {p:?}, t = {t}, k = {k}: {} vs {fd} ({err:e})",
                        dual_eps[k]
                    );
                }
            }
        }
    }
    println!(
        "worst relative error of dual vs finite-difference derivatives: {worst_inspiral:.2e} \
         where the model is smooth (and in time everywhere), {worst_merger:.2e} where LAL's \
         set-up noise was detected"
    );
}

#[test]
fn time_derivative_of_phase_is_the_frequency() {
    // dΦ/dt = ω22 / M (the model's phase is the exact antiderivative of its frequency).
    let model = IMRPhenomT::new(
        Dual::<1>::from(36.0),
        29.0.into(),
        0.3.into(),
        (-0.2).into(),
        &SETTINGS,
    )
    .unwrap();
    let plain = IMRPhenomT::new(36.0, 29.0, 0.3, -0.2, &SETTINGS).unwrap();
    // At the start time the 22 frequency is f_min (to the root finder's tolerance).
    let t0 = plain.start_time();
    let omega = model.mode22(Dual::variable(t0, 0)).phase.eps[0];
    let f = omega / (2.0 * std::f64::consts::PI);
    assert!(
        (f - SETTINGS.f_min).abs() < 1e-6 * SETTINGS.f_min,
        "f(t_min) = {f}"
    );
    // At the peak (merger–ringdown boundary) phase and frequency are continuous by construction.
    let below = model.mode22(Dual::variable(-1e-12, 0));
    let above = model.mode22(Dual::variable(1e-12, 0));
    // ±1e-12 s is ±3e-9 M, over which the phase advances by ~1e-9 rad.
    assert!((below.phase.re - above.phase.re).abs() < 1e-8);
    assert!((below.phase.eps[0] - above.phase.eps[0]).abs() < 1e-6 * above.phase.eps[0]);
}

#[test]
fn adjoint_gradient_matches_dual_numbers() {
    // Reverse mode (f64 at each time, contracted once with a Dual<4> set-up) against forward
    // Dual<5> in (m1, m2, χ1, χ2, t), for weighted sums ā·A + φ̄·Φ at times in every region,
    // including 22-merger phase under the inspiral amplitude (t_cut < t < −150 M at small η).
    let mut worst = 0.0_f64;
    for p in POINTS {
        let d5: [Dual<5>; 4] = std::array::from_fn(|k| Dual::variable(p[k], k));
        let forward = IMRPhenomT::new(d5[0], d5[1], d5[2], d5[3], &SETTINGS).unwrap();
        let d4: [Dual<4>; 4] = std::array::from_fn(|k| Dual::variable(p[k], k));
        let reverse = IMRPhenomT::new(d4[0], d4[1], d4[2], d4[3], &SETTINGS).unwrap();
        let values = reverse.values();
        let m = values.total_mass_seconds();
        let mut times = times(&values);
        times.extend([-200.0, -160.0, -140.0, -1e-3, 0.0, 1e-3, 300.0, 5000.0].map(|x| x * m));
        let mut adjoint = Mode22Adjoint::default();
        let mut expected = [0.0; 5];
        let mut scale = [0.0_f64; 5];
        let (mut amplitude_bars, mut phase_bars) = (vec![], vec![]);
        for (i, &t) in times.iter().enumerate() {
            let w = forward.mode22(Dual::variable(t, 4));
            let (value, trace) = values.mode22_traced(t);
            assert_eq!(value, values.mode22(t));
            assert_eq!(value.phase.to_bits(), w.phase.re.to_bits());
            // Weights of order one per unit of ln A and of Φ.
            let (a_bar, phi_bar) = (
                (1.0 + 0.3 * i as f64) / w.amplitude.re,
                0.7 - 0.2 * i as f64,
            );
            amplitude_bars.push(a_bar);
            phase_bars.push(phi_bar);
            let dt = values.mode22_adjoint(&trace, a_bar, phi_bar, &mut adjoint);
            let time_term = a_bar * w.amplitude.eps[4] + phi_bar * w.phase.eps[4];
            let time_scale = (a_bar * w.amplitude.eps[4]).abs() + (phi_bar * w.phase.eps[4]).abs();
            expected[4] += time_term;
            scale[4] += time_scale;
            let err = (dt - time_term).abs() / time_scale;
            assert!(
                err < 1e-10,
                "p = {p:?}, t = {t}: d/dt {dt} vs {time_term} ({err:e})"
            );
            worst = worst.max(err);
            for k in 0..4 {
                expected[k] += a_bar * w.amplitude.eps[k] + phi_bar * w.phase.eps[k];
                scale[k] += (a_bar * w.amplitude.eps[k]).abs() + (phi_bar * w.phase.eps[k]).abs();
            }
        }
        // One time at a time, and all times at once on lanes.
        let mut modes = vec![Default::default(); times.len()];
        values.mode22_traced_many(&times, &mut modes);
        let mut batch = Mode22Adjoint::default();
        let dt_sum = values.mode22_adjoint_many(&modes, &amplitude_bars, &phase_bars, &mut batch);
        let err = (dt_sum - expected[4]).abs() / scale[4];
        assert!(
            err < 1e-10,
            "p = {p:?}: Σ d/dt {dt_sum} vs {} ({err:e})",
            expected[4]
        );
        worst = worst.max(err);
        for gradient in [reverse.gradient(&adjoint), reverse.gradient(&batch)] {
            for k in 0..4 {
                let err = (gradient[k] - expected[k]).abs() / scale[k];
                assert!(
                    err < 1e-10,
                    "p = {p:?}, k = {k}: {} vs {} ({err:e})",
                    gradient[k],
                    expected[k]
                );
                worst = worst.max(err);
            }
        }
    }
    println!("worst relative difference, reverse vs forward: {worst:.2e}");
}

#[test]
fn staged_evaluation_equals_one_time_at_a_time() {
    for p in POINTS {
        let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &SETTINGS).unwrap();
        let (t0, m) = (model.start_time(), model.total_mass_seconds());
        // Inspiral runs, the merger and ringdown, and a short tail.
        let times: Vec<f64> = (0..203)
            .map(|k| t0 * (1.0 - k as f64 / 200.0) + 30.0 * m * (k as f64 / 200.0))
            .collect();
        let mut many = vec![Default::default(); times.len()];
        model.mode22_traced_many(&times, &mut many);
        for (&t, (mode, _)) in times.iter().zip(&many) {
            assert_eq!(*mode, model.mode22(t), "p = {p:?}, t = {t}");
        }
    }
}

/// Smoothness on the scale gradient samplers probe: along steps of 1e-7 in the total mass, the
/// phase in the merger and ringdown follows a quadratic to rounding (1e-10 rad). LAL's
/// finite-difference slopes make it jitter by ~1e-5 rad there (`Settings::smooth`), which the
/// likelihood turns into ln L noise of ~1e-3 and a gradient that changes direction between
/// neighbouring points; the check shows LAL's settings fail it.
#[test]
fn merger_phase_is_smooth_in_the_masses() {
    let lal = Settings {
        smooth: false,
        ..SETTINGS
    };
    for (settings, smooth) in [(SETTINGS, true), (lal, false)] {
        let mut worst: f64 = 0.0;
        for p in &POINTS {
            for t_m in [-10.0, 0.0, 8.0] {
                let phase: Vec<f64> = (-3..=3)
                    .map(|k| {
                        let s = 1.0 + 1e-7 * k as f64;
                        let model =
                            IMRPhenomT::new(p[0] * s, p[1] * s, p[2], p[3], &settings).unwrap();
                        model.mode22(t_m * model.total_mass_seconds() / s).phase
                    })
                    .collect();
                // Third differences vanish for a quadratic.
                for w in phase.windows(4) {
                    worst = worst.max((w[3] - 3.0 * w[2] + 3.0 * w[1] - w[0]).abs());
                }
            }
        }
        if smooth {
            assert!(worst < 1e-10, "third difference {worst:e} rad");
        } else {
            assert!(
                worst > 1e-8,
                "LAL's slopes now smooth ({worst:e} rad): update the docs"
            );
        }
    }
}

/// Equal masses are a common point (a prior's q = 1 bound, a fixed q = 1): the derivatives
/// there are finite, and the limits of those at m1 slightly above m2 (which the other tests
/// compare with finite differences; at the merger LAL's set-up noise defeats a one-sided
/// difference). Through δ = √(1 − 4η) the final-state fits' derivatives were ∞ · 0 = NaN.
#[test]
fn derivatives_are_finite_at_equal_masses() {
    let mode = |p: [f64; 4], t: f64| {
        let duals: [Dual<5>; 4] = std::array::from_fn(|k| Dual::variable(p[k], k));
        let model = IMRPhenomT::new(duals[0], duals[1], duals[2], duals[3], &SETTINGS).unwrap();
        model.mode22(Dual::variable(t, 4))
    };
    for p in [[30.0, 30.0, 0.3, -0.2], [10.0, 10.0, 0.0, 0.0]] {
        let plain = IMRPhenomT::new(p[0], p[1], p[2], p[3], &SETTINGS).unwrap();
        let mut near = p;
        near[0] *= 1.0 + 1e-7;
        for t in times(&plain) {
            let (at, beside) = (mode(p, t), mode(near, t));
            let pairs = at.amplitude.eps.iter().zip(&beside.amplitude.eps);
            for (k, (a, b)) in pairs.enumerate() {
                let scale = at.amplitude.re / p.get(k).map_or(1.0, |x| x.abs().max(1.0));
                assert!(
                    a.is_finite() && (a - b).abs() < 1e-5 * b.abs().max(scale),
                    "p = {p:?}, t = {t}, k = {k}: {a} vs {b} beside"
                );
            }
            for (k, (a, b)) in at.phase.eps.iter().zip(&beside.phase.eps).enumerate() {
                assert!(
                    a.is_finite() && (a - b).abs() < 1e-5 * b.abs().max(1.0),
                    "p = {p:?}, t = {t}, k = {k}: phase {a} vs {b} beside"
                );
            }
        }
    }
}
