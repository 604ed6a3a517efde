//! Time-translation invariance: h22 is a closed-form function of the physical time relative to
//! the peak, with no phase tied to a grid index or to the first sample.

use tdpe_phenomt::{IMRPhenomT, Settings};

const DT: f64 = 1.0 / 4096.0;

fn gw150914_like(f_min: f64, f_ref: f64) -> IMRPhenomT<f64> {
    IMRPhenomT::new(36.0, 29.0, 0.3, -0.2, &Settings::lal(f_min, f_ref, DT)).unwrap()
}

/// Times from the start of the inspiral to the end of the ringdown, on LAL's grid and between
/// its samples.
fn times(model: &IMRPhenomT<f64>) -> Vec<f64> {
    let pol = model.polarizations_on_grid(1.0, 0.0, 0.0);
    (0..pol.hp.len())
        .map(|k| pol.time(k))
        .chain((0..1000).map(|k| model.start_time() * (1.0 - k as f64 / 1000.0) + 1.3e-5))
        .collect()
}

#[test]
fn a_shifted_waveform_evaluated_at_shifted_times_is_unchanged() {
    let model = gw150914_like(20.0, 20.0);
    // The waveform with its peak at t = δ is t ↦ h22(t − δ).
    for delta in [0.3, 0.123456789, -2.5e-3] {
        let shifted = |t: f64| model.mode22(t - delta);
        let mut worst_phase = 0.0_f64;
        for t in times(&model) {
            let (a, b) = (model.mode22(t), shifted(t + delta));
            // (t + δ) − δ differs from t by rounding only, ≤ 1 ulp of δ: a phase error
            // ≤ ω·ulp(δ) ~ 1e-13 rad.
            let dphase = (a.phase - b.phase).abs();
            worst_phase = worst_phase.max(dphase);
            assert!(dphase <= 1e-9, "δ = {delta}, t = {t}: Δφ = {dphase:e}");
            let damp = (a.amplitude - b.amplitude).abs() / a.amplitude;
            assert!(damp <= 1e-9, "δ = {delta}, t = {t}: ΔA/A = {damp:e}");
        }
        println!("δ = {delta}: max |Δφ| = {worst_phase:.1e} rad");
    }
}

#[test]
fn the_value_at_a_time_does_not_depend_on_where_the_grid_starts() {
    // Same reference frequency, different starting frequencies: different first samples,
    // different grids, the same function of time, bit for bit.
    for f_ref in [30.0, 20.0] {
        let early = gw150914_like(20.0, f_ref);
        let late = gw150914_like(25.0, f_ref);
        assert!(late.start_time() > early.start_time() + 0.1);
        assert_ne!(early.epoch_ns(), late.epoch_ns());
        let ts = times(&early);
        for &t in &ts {
            let (a, b) = (early.mode22(t), late.mode22(t));
            assert_eq!(a.amplitude.to_bits(), b.amplitude.to_bits(), "t = {t}");
            assert_eq!(a.phase.to_bits(), b.phase.to_bits(), "t = {t}");
            let (pa, pb) = (
                early.polarizations(t, 410.0, 0.4, 0.3),
                late.polarizations(t, 410.0, 0.4, 0.3),
            );
            assert_eq!(pa, pb, "t = {t}");
        }
        // Samples of the later grid lie on the earlier waveform: ~0.5 ns of epoch rounding
        // apart at most, so within ω·0.5 ns ≤ 1e-6 rad in phase.
        let grid = late.mode22_on_grid();
        let pol = late.polarizations_on_grid(1.0, 0.0, 0.0);
        for (k, m) in grid.iter().enumerate().step_by(97) {
            let e = early.mode22(pol.time(k));
            assert!((m.phase - e.phase).abs() < 1e-6, "sample {k}");
        }
    }
}
