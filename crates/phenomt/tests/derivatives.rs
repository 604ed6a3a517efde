//! Forward-mode derivatives of h22 (dual numbers) against central finite differences of the
//! f64 model, with respect to m1, m2, χ1, χ2 and time, across the parameter space and in every
//! region of the waveform.

use tdpe_phenomt::{Dual, IMRPhenomT, Mode22, Settings};

/// With the exact reference time the model is smooth in its parameters (see `Settings`).
const SETTINGS: Settings = Settings {
    f_min: 20.0,
    f_ref: 20.0,
    delta_t: 1.0 / 4096.0,
    exact_reference_time: true,
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
            // rounding noise as functions of the parameters (docs/imrphenomt.md §6): the merger
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
