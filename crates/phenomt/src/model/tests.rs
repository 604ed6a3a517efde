//! The batch evaluation and the batch adjoint against the one-time ones, and the AVX2 paths
//! against the portable ones.

use super::*;
use crate::amplitude::T_CUT_AMP;

/// (m1, m2, χ1, χ2): mass ratios 1.2–12 (so the merger phase starts before and after
/// −150 M), total masses 12–190 M☉, spins ±0.9.
const POINTS: [[f64; 4]; 6] = [
    [36.0, 29.0, 0.3, -0.2],
    [12.0, 10.0, -0.5, 0.6],
    [40.0, 10.0, 0.8, 0.1],
    [150.0, 40.0, -0.9, -0.3],
    [8.0, 4.0, 0.0, 0.9],
    [120.0, 10.0, 0.5, 0.2],
];

/// Times from the start through the inspiral, merger and ringdown, in an order that
/// mixes the regions within blocks, and more than one block.
fn times(model: &IMRPhenomT<f64>) -> Vec<f64> {
    let (t0, m) = (model.start_time(), model.total_mass_seconds());
    let mut times: Vec<f64> = (0..300)
        .map(|k| {
            let u = k as f64 / 299.0;
            // Dense near the peak: −400 M … 60 M over the last two thirds.
            if k < 100 {
                t0 * (1.0 - 3.0 * u) - 400.0 * m * 3.0 * u
            } else {
                -400.0 * m + 460.0 * m * (u - 1.0 / 3.0) * 1.5
            }
        })
        .collect();
    times.swap(3, 250);
    times.swap(70, 290);
    times
}

#[test]
fn h22_many_matches_mode22() {
    let settings = Settings::lal(20.0, 20.0, 1.0 / 4096.0);
    let (mut worst_amp, mut worst_phase): (f64, f64) = (0.0, 0.0);
    for p in POINTS {
        let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
        let times = times(&model);
        let mut out = vec![[0.0; 2]; times.len()];
        let mut modes = vec![Default::default(); times.len()];
        let mut out_traced = out.clone();
        model.h22_many(&times, &mut out);
        model.h22_traced_many(&times, &mut modes, &mut out_traced);
        let mut reference = vec![Default::default(); times.len()];
        model.mode22_traced_many(&times, &mut reference);
        for (i, &t) in times.iter().enumerate() {
            let exact = model.mode22(t);
            let (mode, trace) = modes[i];
            let (_, ref_trace) = reference[i];
            assert_eq!(out[i], out_traced[i]);
            let amp = (mode.amplitude - exact.amplitude).abs() / exact.amplitude;
            let phase = (mode.phase - exact.phase).abs();
            worst_amp = worst_amp.max(amp);
            // Relative to the phase before the reference value is subtracted.
            worst_phase = worst_phase.max(phase / (exact.phase.abs() + model.phase_ref.abs()));
            // The traces feed the adjoint: the same quantities to rounding.
            assert_eq!(trace.t, ref_trace.t);
            for (a, b) in [
                (trace.omega, ref_trace.omega),
                (trace.modulus, ref_trace.modulus),
                (trace.phase[0], ref_trace.phase[0]),
                (trace.phase[1], ref_trace.phase[1]),
                (trace.amplitude[0], ref_trace.amplitude[0]),
                (trace.amplitude[1], ref_trace.amplitude[1]),
            ] {
                assert!((a - b).abs() <= 1e-13 * b.abs().max(1e-3), "{a} vs {b}");
            }
            // h22 = A e^(−iΦ).
            let (s, c) = exact.phase.sin_cos();
            let h = [exact.amplitude * c, -exact.amplitude * s];
            for k in 0..2 {
                assert!(
                    (out[i][k] - h[k]).abs()
                        <= 1e-12 * exact.amplitude * exact.phase.abs().max(1.0),
                    "p = {p:?}, t = {t}: {:?} vs {h:?}",
                    out[i]
                );
            }
        }
    }
    // The phase before its reference value is subtracted reaches 1e3–1e5 rad, and the
    // inspiral amplitude's series cancels near −150 M, which amplifies ulps of x.
    println!("h22_many vs mode22: amplitude {worst_amp:.1e}, phase {worst_phase:.1e} (relative)");
    assert!(worst_amp < 1e-13, "{worst_amp:e}");
    assert!(worst_phase < 1e-14, "{worst_phase:e}");
}

/// The AVX2 path (where the CPU has it) gives the same bits as the portable one.
#[test]
fn h22_many_same_bits_on_every_path() {
    let settings = Settings::lal(20.0, 20.0, 1.0 / 2048.0);
    for p in POINTS {
        let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
        let times = times(&model);
        let n = times.len();
        let (mut a, mut b) = (vec![[0.0; 2]; n], vec![[0.0; 2]; n]);
        let mut ma: Vec<(Mode22<f64>, Mode22Trace)> = vec![Default::default(); n];
        let mut mb = ma.clone();
        model.staged(&times, &mut ma, &mut a);
        model.staged_body(&times, &mut mb, &mut b);
        for i in 0..n {
            assert_eq!(a[i][0].to_bits(), b[i][0].to_bits());
            assert_eq!(a[i][1].to_bits(), b[i][1].to_bits());
            let (x, y) = (&ma[i], &mb[i]);
            assert_eq!(x.0, y.0);
            assert_eq!(format!("{:?}", x.1), format!("{:?}", y.1));
        }
    }
}

type Weighted = (Vec<(Mode22<f64>, Mode22Trace)>, Vec<f64>, Vec<f64>);

/// Traced modes at [`times`] and at the region boundaries of phase and amplitude, with
/// weights of order one per unit of ln A and of Φ (amplitude, phase).
fn weighted_modes(model: &IMRPhenomT<f64>) -> Weighted {
    let m = model.total_mass_seconds();
    let phase_inspiral_end = model.phase.t_cut - model.phase.dt_m;
    let mut times = times(model);
    times.extend(
        [
            phase_inspiral_end - 1e-9,
            phase_inspiral_end,
            -200.0,
            T_CUT_AMP,
            -140.0,
            -1e-3,
            0.0,
            1e-3,
            300.0,
        ]
        .map(|t| t * m),
    );
    let mut modes = vec![Default::default(); times.len()];
    model.mode22_traced_many(&times, &mut modes);
    let amplitude_bar = (modes.iter().enumerate())
        .map(|(i, (mode, _))| (1.0 + 0.3 * (i % 7) as f64) / mode.amplitude)
        .collect();
    let phase_bar = (0..times.len())
        .map(|i| 0.7 - 0.2 * (i % 5) as f64)
        .collect();
    (modes, amplitude_bar, phase_bar)
}

/// Every coefficient adjoint of `a`.
fn adjoint_fields(a: &Mode22Adjoint) -> Vec<f64> {
    let mut fields = a.phase.fields().to_vec();
    fields.extend(a.amplitude.fields());
    fields.extend([a.total_mass_s, a.amp_fac, a.phase_ref]);
    fields
}

/// The batch adjoint adds to the adjoint, and returns, what the one-time adjoints do, to
/// rounding (relative to the sum of the terms' magnitudes): times in every region of
/// phase and amplitude, mixed, in pieces of 0, 1, 7, 1, 64 (a block), 9 and the rest
/// accumulated into one adjoint.
#[test]
fn adjoint_many_matches_one_time_at_a_time() {
    let settings = Settings {
        smooth: true,
        ..Settings::lal(20.0, 20.0, 1.0 / 4096.0)
    };
    let mut worst: f64 = 0.0;
    for p in POINTS {
        let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
        let (modes, amplitude_bar, phase_bar) = weighted_modes(&model);
        let (mut one_at_a_time, mut many) = Default::default();
        let mut scale = vec![0.0; adjoint_fields(&many).len()];
        let mut start = 0;
        for len in [0, 1, 7, 1, 64, 9, modes.len() - 82] {
            let piece = start..start + len;
            start += len;
            let (mut dt, mut dt_scale) = (0.0, 0.0);
            for i in piece.clone() {
                let mut single = Mode22Adjoint::default();
                let (a_bar, p_bar) = (amplitude_bar[i], phase_bar[i]);
                let dt_i = model.mode22_adjoint(&modes[i].1, a_bar, p_bar, &mut single);
                model.mode22_adjoint(&modes[i].1, a_bar, p_bar, &mut one_at_a_time);
                (dt, dt_scale) = (dt + dt_i, dt_scale + dt_i.abs());
                for (s, x) in scale.iter_mut().zip(adjoint_fields(&single)) {
                    *s += x.abs();
                }
            }
            let dt_many = model.mode22_adjoint_many(
                &modes[piece.clone()],
                &amplitude_bar[piece.clone()],
                &phase_bar[piece],
                &mut many,
            );
            let err = (dt_many - dt).abs() / dt_scale.max(f64::MIN_POSITIVE);
            assert!(
                err < 1e-13,
                "p = {p:?}, {len} times: d/dt {dt_many} vs {dt}"
            );
            worst = worst.max(err);
            let fields = adjoint_fields(&one_at_a_time).into_iter();
            for (k, (x, y)) in adjoint_fields(&many).into_iter().zip(fields).enumerate() {
                let err = (x - y).abs() / scale[k].max(f64::MIN_POSITIVE);
                assert!(err < 1e-13, "p = {p:?}, {len} times, field {k}: {x} vs {y}");
                worst = worst.max(err);
            }
        }
    }
    println!("adjoint_many vs mode22_adjoint: {worst:.1e} (relative)");
}

/// The AVX2 path (where the CPU has it) gives the same bits as the portable one.
#[test]
fn adjoint_many_same_bits_on_every_path() {
    let settings = Settings::lal(20.0, 20.0, 1.0 / 2048.0);
    for p in POINTS {
        let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
        let (modes, amplitude_bar, phase_bar) = weighted_modes(&model);
        let (mut a, mut b) = Default::default();
        let x = model.mode22_adjoint_many(&modes, &amplitude_bar, &phase_bar, &mut a);
        let y = model.adjoint_many_body(&modes, &amplitude_bar, &phase_bar, &mut b);
        assert_eq!(x.to_bits(), y.to_bits());
        for (x, y) in adjoint_fields(&a).into_iter().zip(adjoint_fields(&b)) {
            assert_eq!(x.to_bits(), y.to_bits());
        }
    }
}
