//! The higher modes' smooth variant, derivatives and errors (their agreement with LAL is
//! `tests/lal_reference_thm.rs`).

use super::{IMRPhenomTHM, Mode};
use crate::error::WaveformError;
use crate::model::Settings;
use crate::scalar::Dual;

/// (m1, m2, χ1, χ2) across mass ratios 1.3–18 and spins of both signs, the first with the
/// (2,2)'s −150 M in its inspiral, the others (small η) in its merger.
const POINTS: [[f64; 4]; 5] = [
    [36.0, 29.0, 0.3, -0.2],
    [40.0, 10.0, -0.8, 0.5],
    [90.0, 10.0, 0.9, -0.4],
    [18.0, 6.0, 0.2, 0.95],
    [180.0, 10.0, -0.6, 0.0],
];

fn settings(smooth: bool) -> Settings {
    Settings {
        smooth,
        ..Settings::lal(20.0, 20.0, 1.0 / 4096.0)
    }
}

fn higher_modes() -> [Mode; 4] {
    [Mode::L2M1, Mode::L3M3, Mode::L4M4, Mode::L5M5]
}

/// The smooth variant replaces LAL's finite differences by exact slopes and Brent's reference
/// time by the exact root. The differences' rounding noise moves the merger frequency by
/// ~1e-6 relative, which over the long merger of a small-η binary (180 + 10 M☉ from 20 Hz is
/// merger from its start, ~550 M before the peak) adds up to a few 1e-3 of the peak amplitude;
/// elsewhere 1e-7 to 1e-5.
#[test]
fn smooth_modes_differ_from_lals_by_the_finite_differences_only() {
    for p in POINTS {
        let [lal, smooth] = [false, true]
            .map(|s| IMRPhenomTHM::new(p[0], p[1], p[2], p[3], &settings(s), &Mode::ALL).unwrap());
        let (a, b) = (lal.modes_on_grid(), smooth.modes_on_grid());
        for (j, mode) in Mode::ALL.into_iter().enumerate() {
            let peak = a[j].iter().fold(0.0_f64, |m, h| m.max(h.0.hypot(h.1)));
            // The reference phases differ (Brent's iterate against the exact root) by a
            // constant, which rotates mode (l, m) by m/2 times it: take the best rotation out.
            let (mut c_re, mut c_im) = (0.0, 0.0);
            for (x, y) in a[j].iter().zip(&b[j]) {
                c_re += x.0 * y.0 + x.1 * y.1;
                c_im += x.1 * y.0 - x.0 * y.1;
            }
            let (sin, cos) = c_im.atan2(c_re).sin_cos();
            let diff = a[j].iter().zip(&b[j]).fold(0.0_f64, |m, (x, y)| {
                let rotated = (x.0 * cos + x.1 * sin, x.1 * cos - x.0 * sin);
                m.max((rotated.0 - y.0).hypot(rotated.1 - y.1))
            });
            assert!(diff > 0.0, "{p:?} {mode:?}: identical");
            assert!(diff < 1e-2 * peak, "{p:?} {mode:?}: {:e}", diff / peak);
        }
    }
}

/// With exact slopes each higher mode is smooth in the masses: third differences of its phase
/// and log-amplitude along steps of 1e-7 in the masses vanish to rounding in the merger and the
/// ringdown. With LAL's finite differences their rounding noise shows (docs/imrphenomt.md
/// §12.5).
#[test]
fn higher_modes_are_smooth_in_the_masses_with_exact_slopes() {
    for smooth in [true, false] {
        let mut worst: f64 = 0.0;
        for p in POINTS {
            for t_m in [-100.0, -10.0, 0.0, 8.0] {
                let modes: Vec<Vec<(f64, f64)>> = (-3..=3)
                    .map(|k| {
                        let s = 1.0 + 1e-7 * f64::from(k);
                        let model = IMRPhenomTHM::new(
                            p[0] * s,
                            p[1] * s,
                            p[2],
                            p[3],
                            &settings(smooth),
                            &higher_modes(),
                        )
                        .unwrap();
                        let m = model.model22().total_mass_seconds();
                        model.modes_at(t_m * m)
                    })
                    .collect();
                for j in 0..4 {
                    let (r0, i0) = modes[3][j];
                    if r0 == 0.0 && i0 == 0.0 {
                        continue;
                    }
                    // ln h relative to the middle point: (ln|h/h0|, arg(h/h0)), no branch cut.
                    let log_ratio: Vec<(f64, f64)> = modes
                        .iter()
                        .map(|h| {
                            let (r, i) = h[j];
                            let re = r * r0 + i * i0;
                            let im = i * r0 - r * i0;
                            ((r.hypot(i) / r0.hypot(i0)).ln(), im.atan2(re))
                        })
                        .collect();
                    for w in log_ratio.windows(4) {
                        let third = |f: fn(&(f64, f64)) -> f64| {
                            (f(&w[3]) - 3.0 * f(&w[2]) + 3.0 * f(&w[1]) - f(&w[0])).abs()
                        };
                        worst = worst.max(third(|x| x.0)).max(third(|x| x.1));
                    }
                }
            }
        }
        if smooth {
            assert!(worst < 1e-10, "third difference {worst:e}");
        } else {
            assert!(
                worst > 1e-8,
                "LAL's slopes now smooth ({worst:e}): update the docs"
            );
        }
    }
}

/// Forward-mode derivatives of every higher mode in m1, m2, χ1, χ2 and t against central
/// differences of the f64 model, in the inspiral, merger and ringdown.
#[test]
fn dual_derivatives_match_finite_differences() {
    let mut worst = 0.0_f64;
    for p in POINTS {
        let duals: [Dual<5>; 4] = std::array::from_fn(|k| Dual::variable(p[k], k));
        let s = settings(true);
        let modes = higher_modes();
        let model = IMRPhenomTHM::new(duals[0], duals[1], duals[2], duals[3], &s, &modes).unwrap();
        let plain = IMRPhenomTHM::new(p[0], p[1], p[2], p[3], &s, &modes).unwrap();
        let m = plain.model22().total_mass_seconds();
        let at = |q: [f64; 4], t: f64| {
            IMRPhenomTHM::new(q[0], q[1], q[2], q[3], &s, &modes)
                .unwrap()
                .modes_at(t)
        };
        for t in [
            -1500.0 * m,
            -300.0 * m,
            -60.0 * m,
            -5.0 * m,
            3.0 * m,
            30.0 * m,
        ] {
            let exact = model.modes_at(Dual::variable(t, 4));
            let values = plain.modes_at(t);
            for j in 0..4 {
                let (re, im) = exact[j];
                assert_eq!(re.re.to_bits(), values[j].0.to_bits());
                assert_eq!(im.re.to_bits(), values[j].1.to_bits());
                let modulus = values[j].0.hypot(values[j].1);
                if modulus == 0.0 {
                    continue;
                }
                for k in 0..5 {
                    let h = if k < 4 {
                        1e-5 * p[k].abs().max(1.0)
                    } else {
                        1e-4 * m
                    };
                    let shifted = |n: f64| {
                        if k < 4 {
                            let mut q = p;
                            q[k] += n * h;
                            at(q, t)[j]
                        } else {
                            plain.modes_at(t + n * h)[j]
                        }
                    };
                    let (a, b, c, d) = (shifted(-2.0), shifted(-1.0), shifted(1.0), shifted(2.0));
                    let fd = |f: fn((f64, f64)) -> f64| {
                        (f(a) - 8.0 * f(b) + 8.0 * f(c) - f(d)) / (12.0 * h)
                    };
                    let scale = if k < 4 { p[k].abs().max(1.0) } else { m };
                    for (dual, fd) in [(re.eps[k], fd(|h| h.0)), (im.eps[k], fd(|h| h.1))] {
                        let err = (dual - fd).abs() / fd.abs().max(modulus / scale);
                        worst = worst.max(err);
                        assert!(err < 1e-5, "{p:?} t = {t} mode {j} k = {k}: {dual} vs {fd}");
                    }
                }
            }
        }
    }
    println!("worst relative error of dual vs finite-difference derivatives: {worst:.2e}");
}

#[test]
fn bad_mode_lists_are_errors() {
    let s = settings(false);
    assert_eq!(
        IMRPhenomTHM::new(36.0, 29.0, 0.0, 0.0, &s, &[]).unwrap_err(),
        WaveformError::NoModes
    );
    assert_eq!(
        IMRPhenomTHM::new(
            36.0,
            29.0,
            0.0,
            0.0,
            &s,
            &[Mode::L3M3, Mode::L2M2, Mode::L3M3]
        )
        .unwrap_err(),
        WaveformError::RepeatedMode { l: 3, m: 3 }
    );
    // Out-of-range binaries fail as IMRPhenomT's do.
    let err = IMRPhenomTHM::new(36.0, 29.0, 1.2, 0.0, &s, &Mode::ALL).unwrap_err();
    assert!(matches!(
        err,
        WaveformError::OutOfRange { name: "chi_1", .. }
    ));
    assert_eq!(Mode::from_lm(4, 4), Some(Mode::L4M4));
    assert_eq!(Mode::from_lm(3, 2), None);
}

/// One mode at its own time is that mode of all modes at the time, bit for bit, with or
/// without the (2,2) mode among them; the modes differ from each other.
#[test]
fn one_mode_is_that_of_all_modes() {
    let sets: [&[Mode]; 2] = [&Mode::ALL, &higher_modes()];
    for p in POINTS {
        for modes in sets {
            let w = IMRPhenomTHM::new(p[0], p[1], p[2], p[3], &settings(true), modes).unwrap();
            for t in [-2.0, -0.1, -0.004, 0.0, 0.01] {
                let all = w.modes_at(t);
                for (i, h) in all.iter().enumerate() {
                    assert_eq!(w.mode_at(i, t), *h, "{p:?} mode {i} at {t} s");
                }
                assert_ne!(all[0], all[1]);
            }
        }
    }
}
