//! Shared helpers for the likelihood tests.
#![allow(dead_code)]

use tdpe_noise::band::planck_ramp;

/// A smooth chirp-like test signal at times `t` (s): frequency sweeping from 25 Hz at t = t0 to
/// 25 + 225 Hz at t = t0 + len, phase φ0, amplitude `amp`·(1 + u), with Planck tapers of 0.3 s at
/// both ends; zero outside [t0, t0 + len].
pub fn chirp(t: f64, t0: f64, len: f64, amp: f64, phi0: f64) -> f64 {
    let s = t - t0;
    if s <= 0.0 || s >= len {
        return 0.0;
    }
    let u = s / len;
    let phase = 2.0 * std::f64::consts::PI * (25.0 * s + 0.5 * 225.0 * u * u * len) + phi0;
    let env = planck_ramp(s, 0.0, 0.3) * planck_ramp(len - s, 0.0, 0.3);
    amp * env * (1.0 + u) * phase.cos()
}

pub fn sample(n: usize, dt: f64, offset: f64, f: impl Fn(f64) -> f64) -> Vec<f64> {
    (0..n).map(|i| f(offset + i as f64 * dt)).collect()
}
