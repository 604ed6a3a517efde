//! The smooth variant of IMRPhenomTPHM (docs/precession.md §5.2, docs/precession_smooth_notes.md)
//! against the `lal` variant and LAL's reference files, its convergence in the number of steps,
//! its derivatives and its smoothness.

mod common;

use common::{case_inputs, data_path, mismatch, reference_polarizations};
use serde_json::Value;
use tdpe_phenomt::precession::rotation::{l0_modes, EulerAngles, Harmonics, SphericalModes, Wigner};
use tdpe_phenomt::{IMRPhenomTPHM, Settings, SmoothPrecession, SmoothSteps};

const CASES: [&str; 10] = [
    "P01_gw150914_like",
    "P02_q1_strongprec",
    "P03_q4_chi1perp08",
    "P04_q8_chi1perp09",
    "P05_nearly_aligned",
    "P06_antialigned",
    "P07_edgeon_dt4096",
    "P08_fref35",
    "P09_lowmass_long",
    "P10_m1_lt_m2_swap",
];

/// A case's masses and L0 spins.
fn binary(case: &str) -> (f64, f64, [f64; 3], [f64; 3]) {
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(data_path(&format!("{case}.json"))).unwrap())
            .unwrap();
    let get = |k: &str| meta["inputs"][k].as_f64().unwrap();
    (
        get("m1_msun"),
        get("m2_msun"),
        [get("chi1x"), get("chi1y"), get("chi1z")],
        [get("chi2x"), get("chi2y"), get("chi2z")],
    )
}

fn smooth_model(case: &str, settings: &Settings, steps: SmoothSteps) -> SmoothPrecession<f64> {
    let (m1, m2, chi1, chi2) = binary(case);
    let inputs = case_inputs(case);
    // One sample before LAL's first.
    let t_start = inputs.epoch_ns as f64 * 1e-9 - settings.delta_t;
    SmoothPrecession::new(m1, m2, chi1, chi2, settings, t_start, steps).unwrap()
}

/// The `lal` variant's L0 modes with the exact Wigner matrices in the global rotation (LAL's
/// √52.2 typo moves the L0 modes (5, ±2) by up to 4e-6 of max|h22|, docs/precession.md §2.3).
fn lal_exact_modes(lal: &IMRPhenomTPHM) -> Vec<SphericalModes<f64>> {
    let series = lal.angles();
    let angles: Vec<EulerAngles<f64>> = (0..series.alpha.len())
        .map(|k| EulerAngles {
            alpha: series.alpha[k],
            cos_beta: series.cos_beta[k],
            gamma: series.gamma[k],
        })
        .collect();
    let coprecessing = lal.coprecessing();
    l0_modes(
        &coprecessing.modes(),
        &coprecessing.modes_on_grid(),
        &angles,
        series.orbit.reference_index,
        Wigner::Exact,
    )
}

#[test]
fn explore() {
    for case in CASES {
        let inputs = case_inputs(case);
        let (m1, m2, chi1, chi2) = binary(case);
        let t0 = std::time::Instant::now();
        let lal = IMRPhenomTPHM::lal(m1, m2, chi1, chi2, 300, &inputs.settings).unwrap();
        let lal_modes = lal_exact_modes(&lal);
        let t_lal = t0.elapsed().as_secs_f64();
        let t0 = std::time::Instant::now();
        let smooth = smooth_model(case, &inputs.settings, SmoothSteps::default());
        let modes = smooth.l0_modes_on_grid();
        let t_smooth = t0.elapsed().as_secs_f64();
        let half = smooth_model(case, &inputs.settings, SmoothSteps::default().scaled(0.5));
        let times = smooth.grid_times();
        let msec = lal.coprecessing().model22().total_mass_seconds();
        let peak22 = lal_modes.iter().map(|m| { let h = m.get(2, 2); h.0.hypot(h.1) }).fold(0.0, f64::max);
        let mut worst = [0.0f64; 4];
        let mut worst_t = [0.0f64; 4];
        let mut conv = 0.0f64;
        for (k, (a, b)) in modes.iter().zip(&lal_modes).enumerate() {
            let tm = times[k] / msec;
            let d = a.iter().zip(b.iter()).map(|(x, y)| (x.2 .0 - y.2 .0).hypot(x.2 .1 - y.2 .1)).fold(0.0, f64::max) / peak22;
            let region = if tm < -500.0 { 0 } else if tm < -50.0 { 1 } else if tm < 0.0 { 2 } else { 3 };
            if d > worst[region] { worst[region] = d; worst_t[region] = tm; }
            let fa = smooth.frame_at(times[k]).matrix();
            let fb = half.frame_at(times[k]).matrix();
            for i in 0..3 { for j in 0..3 { conv = conv.max((fa[i][j] - fb[i][j]).abs()); } }
        }
        let harmonics = Harmonics::new(inputs.inclination, inputs.phi_ref);
        let (hp, hc): (Vec<f64>, Vec<f64>) = modes.iter().map(|m| m.polarizations(&harmonics, 1.0 / inputs.distance)).unzip();
        let pol = lal.polarizations_on_grid(inputs.distance, inputs.inclination, inputs.phi_ref);
        let (rp, rc) = reference_polarizations(case, &inputs, &pol);
        let mm = mismatch((&hp, &hc), (&rp, &rc));
        println!("{case:20} <-500M {:.1e} (t={:.0}) -500..-50 {:.1e} ({:.0}) -50..0 {:.1e} ({:.1}) >0 {:.1e} ({:.1}) mm {mm:.2e} conv {conv:.1e} nodes {} tlal {t_lal:.3} tsm {t_smooth:.3}",
            worst[0], worst_t[0], worst[1], worst_t[1], worst[2], worst_t[2], worst[3], worst_t[3], smooth.node_count());
    }
}

#[test]
fn explore_convergence() {
    let b: usize = std::env::var("SB").map(|s| s.parse().unwrap()).unwrap_or(256);
    let i: usize = std::env::var("SI").map(|s| s.parse().unwrap()).unwrap_or(512);
    let m: usize = std::env::var("SM").map(|s| s.parse().unwrap()).unwrap_or(32);
    let steps = SmoothSteps { backward: b, inspiral: i, merger: m };
    for case in CASES {
        let inputs = case_inputs(case);
        let smooth = smooth_model(case, &inputs.settings, steps);
        let fine = smooth_model(case, &inputs.settings, steps.scaled(8.0));
        let times = smooth.grid_times();
        let msec = smooth.coprecessing().model22().total_mass_seconds();
        let mut worst = [0.0f64; 4];
        let mut worst_t = [0.0f64; 4];
        for &t in &times {
            let tm = t / msec;
            let region = if tm < -500.0 { 0 } else if tm < -50.0 { 1 } else if tm < 0.0 { 2 } else { 3 };
            let fa = smooth.frame_at(t).matrix();
            let fb = fine.frame_at(t).matrix();
            let mut d = 0.0f64;
            for i in 0..3 { for j in 0..3 { d = d.max((fa[i][j] - fb[i][j]).abs()); } }
            if d > worst[region] { worst[region] = d; worst_t[region] = tm; }
        }
        println!("{case:20} err vs 8x: <-500M {:.1e} ({:.0}) -500..-50 {:.1e} ({:.0}) -50..0 {:.1e} ({:.1}) >0 {:.1e} ({:.1}) rate {:.3} tref {:.0}",
            worst[0], worst_t[0], worst[1], worst_t[1], worst[2], worst_t[2], worst[3], worst_t[3], smooth.ringdown_rate()*msec, smooth.reference_time()/msec);
    }
}

#[test]
fn explore_orbit() {
    use tdpe_phenomt::SpinOrbit;
    for case in CASES {
        let inputs = case_inputs(case);
        let (m1, m2, chi1, chi2) = binary(case);
        let orbit = SpinOrbit::lal(m1, m2, chi1, chi2, &inputs.settings).unwrap();
        let smooth = smooth_model(case, &inputs.settings, SmoothSteps { backward: 512, inspiral: 2048, merger: 256 });
        let times = smooth.grid_times();
        let msec = smooth.coprecessing().model22().total_mass_seconds();
        let n = orbit.len();
        let mut worst = [(0.0f64, 0.0f64); 3];
        for k in 1..n - 6 {
            let tm = times[k] / msec;
            let region = if tm < -1000.0 { 0 } else if tm < -200.0 { 1 } else { 2 };
            let o = smooth.orbit_at(times[k]);
            let dl = (0..3).map(|i| (o[0][i] - orbit.ln_hat[k][i]).abs()).fold(0.0, f64::max);
            let de = (0..3).map(|i| (o[3][i] - orbit.e1[k][i]).abs()).fold(0.0, f64::max);
            let d = dl.max(de);
            if d > worst[region].0 { worst[region] = (d, tm); }
        }
        println!("{case:20} orbit: <-1000M {:.1e} ({:.0}) -1000..-200 {:.1e} ({:.0}) >-200 {:.1e} ({:.0}) iref {}", worst[0].0, worst[0].1, worst[1].0, worst[1].1, worst[2].0, worst[2].1, orbit.reference_index);
    }
}

#[test]
fn explore_lal_frames() {
    use tdpe_phenomt::precession::Rotation;
    for case in CASES {
        let inputs = case_inputs(case);
        let (m1, m2, chi1, chi2) = binary(case);
        let lal = IMRPhenomTPHM::lal(m1, m2, chi1, chi2, 300, &inputs.settings).unwrap();
        let a = lal.angles();
        let orbit = &a.orbit;
        let iref = orbit.reference_index;
        let r = |k: usize| Rotation::from_euler(a.alpha[k], a.cos_beta[k].acos(), a.gamma[k]);
        let rref_inv = r(iref).inverse();
        let msec = lal.coprecessing().model22().total_mass_seconds();
        let t0 = inputs.epoch_ns as f64 * 1e-9;
        let mut worst = [(0.0f64, 0.0f64); 3];
        for k in 1..orbit.len() - 6 {
            let tm = (t0 + k as f64 * inputs.settings.delta_t) / msec;
            let region = if tm < -1000.0 { 0 } else if tm < -200.0 { 1 } else { 2 };
            let f_angles = rref_inv.then(&r(k)).matrix();
            let f_orbit = Rotation::from_frame(orbit.ln_hat[k], orbit.e1[k]).matrix();
            let mut d = 0.0f64;
            for i in 0..3 { for j in 0..3 { d = d.max((f_angles[i][j] - f_orbit[i][j]).abs()); } }
            if d > worst[region].0 { worst[region] = (d, tm); }
        }
        println!("{case:20} LAL angles vs LAL orbit frame: <-1000M {:.1e} ({:.0}) -1000..-200 {:.1e} ({:.0}) >-200 {:.1e} ({:.0})", worst[0].0, worst[0].1, worst[1].0, worst[1].1, worst[2].0, worst[2].1);
    }
}
