//! bilby's precessing spins as LAL's component spins, against bilby 2.8.2 with LALSuite 7.26.16
//! (`tools/make_bilby_spin_fixture.py`), and their derivatives.

use std::path::PathBuf;

use tdpe_phenomt::{Dual, Real};
use tdpe_signal::{bilby_spins, lal_spins, LalSpins, PrecessingSpins, SignalError};

/// The fixture's rows: 11 inputs, then ι and the six spin components.
fn rows() -> Vec<Vec<f64>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/bilby_spins.csv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .map(|line| line.split(',').map(|v| v.parse().unwrap()).collect())
        .collect()
}

fn convert<T: Real>(input: &[T]) -> Result<LalSpins<T>, SignalError> {
    let spins = PrecessingSpins {
        phi_jl: input[1],
        tilt_1: input[2],
        tilt_2: input[3],
        phi_12: input[4],
        a_1: input[5],
        a_2: input[6],
    };
    lal_spins(
        &spins,
        input[0],
        input[7],
        input[8],
        input[9].re(),
        input[10],
    )
}

fn flatten<T: Copy>(s: &LalSpins<T>) -> [T; 7] {
    let (a, b) = (s.chi_1, s.chi_2);
    [s.inclination, a[0], a[1], a[2], b[0], b[1], b[2]]
}

#[test]
fn spins_are_bilbys() {
    let rows = rows();
    assert!(rows.len() > 300);
    let mut worst = 0.0_f64;
    for row in &rows {
        let ours = flatten(&convert(&row[..11]).unwrap());
        for (o, r) in ours.iter().zip(&row[11..]) {
            worst = worst.max((o - r).abs());
        }
    }
    println!(
        "largest difference from bilby over {} points: {worst:.1e}",
        rows.len()
    );
    assert!(worst <= 2e-14, "{worst:e}");
}

#[test]
fn derivatives_are_those_of_the_values() {
    // Central differences of every output in every input but the reference frequency, at the
    // random points (the edges hold exact comparisons or acos at ±1).
    for row in rows().iter().take(40) {
        for k in (0..11).filter(|&k| k != 9) {
            let seeded: Vec<Dual<1>> = row[..11]
                .iter()
                .enumerate()
                .map(|(i, &x)| {
                    if i == k {
                        Dual::variable(x, 0)
                    } else {
                        Dual::from(x)
                    }
                })
                .collect();
            let exact = flatten(&convert(&seeded).unwrap());
            let h = 1e-6 * row[k].abs().max(1.0);
            let at = |step: f64| {
                let mut x = row[..11].to_vec();
                x[k] += step;
                flatten(&convert(&x).unwrap())
            };
            let (up, down) = (at(h), at(-h));
            for j in 0..7 {
                let numeric = (up[j] - down[j]) / (2.0 * h);
                let d = exact[j].eps[0];
                assert!(
                    (d - numeric).abs() <= 1e-6 * (1.0 + numeric.abs()),
                    "input {k}, output {j}: {d} against {numeric}"
                );
            }
        }
    }
}

#[test]
fn the_view_and_the_phase_only_turn_the_spins_about_l() {
    // docs/precession.md §7.3: θ_jn, φ_jl and the phase leave χ_z, |χ⊥| and the angle between
    // the in-plane spins unchanged.
    let base = [0.4, 1.3, 0.8, 2.1, 4.0, 0.6, 0.5, 36.0, 29.0, 20.0, 1.2];
    let invariants = |input: &[f64]| {
        let s = convert(input).unwrap();
        let (a, b) = (s.chi_1, s.chi_2);
        let azimuth = (b[1].atan2(b[0]) - a[1].atan2(a[0])).rem_euclid(std::f64::consts::TAU);
        [a[2], b[2], a[0].hypot(a[1]), b[0].hypot(b[1]), azimuth]
    };
    let reference = invariants(&base);
    for (k, value) in [(0, 2.5), (1, 5.9), (10, 0.1), (0, 0.0)] {
        let mut input = base;
        input[k] = value;
        for (x, r) in invariants(&input).iter().zip(&reference) {
            assert!(
                (x - r).abs() < 1e-14,
                "input {k} = {value}: {x} against {r}"
            );
        }
    }
}

#[test]
fn bilby_spins_invert_lal_spins() {
    // At every fixture point: LAL's spins at phase 0 back to bilby's parameters, and those at
    // another phase turned by that phase about L̂_N.
    let tau = std::f64::consts::TAU;
    let angle_gap = |a: f64, b: f64| {
        let d = (a - b).rem_euclid(tau);
        d.min(tau - d)
    };
    let (mut worst, mut compared) = (0.0_f64, 0);
    for row in rows() {
        let mut input = row[..11].to_vec();
        input[10] = 0.0;
        let lal = convert(&input).unwrap();
        let (spins, theta_jn) = bilby_spins(
            lal.chi_1,
            lal.chi_2,
            lal.inclination,
            input[7],
            input[8],
            input[9],
        );
        // Edges where an angle is undefined or acos is ill-conditioned: no spin, a spin (nearly)
        // along L̂_N, or N along J.
        let edge = |x: f64| x.abs() < 1e-6;
        if [
            input[5],
            input[6],
            input[2].sin(),
            input[3].sin(),
            input[0].sin(),
        ]
        .into_iter()
        .any(edge)
        {
            continue;
        }
        compared += 1;
        let gaps = [
            (theta_jn - input[0]).abs(),
            angle_gap(spins.phi_jl, input[1]),
            (spins.tilt_1 - input[2]).abs(),
            (spins.tilt_2 - input[3]).abs(),
            (spins.a_1 - input[5]).abs(),
            (spins.a_2 - input[6]).abs(),
        ];
        for gap in gaps.into_iter().chain([angle_gap(spins.phi_12, input[4])]) {
            worst = worst.max(gap);
        }
    }
    println!("largest round-trip difference over {compared} points: {worst:.1e}");
    assert!(compared > 300);
    assert!(worst <= 1e-9, "{worst:e}");
}

#[test]
fn bad_spins_are_refused() {
    let base = [0.4, 1.3, 0.8, 2.1, 4.0, 0.6, 0.5, 36.0, 29.0, 20.0, 1.2];
    for (k, value) in [(5, 1.01), (6, -0.1), (5, f64::NAN), (9, 0.0), (9, f64::NAN)] {
        let mut input = base;
        input[k] = value;
        assert!(
            matches!(convert(&input), Err(SignalError::OutOfRange { .. })),
            "input {k} = {value} accepted"
        );
    }
}
