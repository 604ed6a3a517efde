//! Times waveform generation in-process (no start-up cost), for tools/bench_waveform_vs_lal.py.
//!
//! ```text
//! cargo run --release -p tdpe-phenomt --example time_generation -- \
//!     --mass-1 36 --mass-2 29 --chi-1 0.3 --chi-2 -0.2 --distance 410 --inclination 0.4 \
//!     --phase 0.3 --sampling-frequency 4096 --minimum-frequency 20 --repeat 200
//! cargo run --release -p tdpe-phenomt --example time_generation -- --precessing 1 \
//!     --mass-1 36 --mass-2 29 --spin-1x 0.12 --spin-1y 0.05 --spin-1z 0.3 \
//!     --spin-2x -0.08 --spin-2y 0.1 --spin-2z -0.2 --distance 410 --inclination 2.7 \
//!     --phase 0.3 --sampling-frequency 2048 --minimum-frequency 20 --repeat 20
//! ```
//!
//! `--chi-1`/`--chi-2` are the same as `--spin-1z`/`--spin-2z`. Prints one JSON object with the
//! median wall time per call, in seconds. For IMRPhenomT:
//! - `setup`: `IMRPhenomT::new` alone;
//! - `f64_grid`: set-up plus h₊, h× on LAL's grid (what `SimInspiralChooseTDWaveform` does);
//! - `f64_times`: set-up plus h₊, h× at the grid's times through the arbitrary-time API;
//! - `dual5_times`: the same with `Dual<5>`: values and derivatives with respect to
//!   (m1, m2, χ1, χ2, t).
//!
//! With `--precessing 1`, for IMRPhenomTPHM (LAL's default angles):
//! - `setup`: `IMRPhenomTPHM::lal` alone (co-precessing modes, the spin ODE and the Euler
//!   angles on LAL's grid);
//! - `f64_grid`: set-up plus h₊, h× on LAL's grid;
//! - `l0_modes`: set-up plus every L0 mode on LAL's grid (what `SimInspiralChooseTDModes`
//!   does).

use std::hint::black_box;
use std::time::Instant;

use tdpe_phenomt::{Dual, IMRPhenomT, IMRPhenomTPHM, Settings, DEFAULT_PREC_VERSION};

/// Parameters of one timing run.
struct Params {
    m1: f64,
    m2: f64,
    /// Dimensionless spins in LAL's L0 frame (only the z components for IMRPhenomT).
    chi1: [f64; 3],
    chi2: [f64; 3],
    /// IMRPhenomTPHM rather than IMRPhenomT.
    precessing: bool,
    distance: f64,
    inclination: f64,
    phase: f64,
    sampling_frequency: f64,
    f_min: f64,
    f_ref: f64,
    repeat: usize,
}

fn parse_args() -> Result<Params, String> {
    let mut p = Params {
        m1: 36.0,
        m2: 29.0,
        chi1: [0.0, 0.0, 0.3],
        chi2: [0.0, 0.0, -0.2],
        precessing: false,
        distance: 410.0,
        inclination: 0.4,
        phase: 0.3,
        sampling_frequency: 4096.0,
        f_min: 20.0,
        f_ref: 0.0,
        repeat: 100,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [name, value] = pair else {
            return Err(format!("{} has no value", pair[0]));
        };
        let x: f64 = value.parse().map_err(|e| format!("{name} {value}: {e}"))?;
        match name.as_str() {
            "--mass-1" => p.m1 = x,
            "--mass-2" => p.m2 = x,
            "--chi-1" | "--spin-1z" => p.chi1[2] = x,
            "--chi-2" | "--spin-2z" => p.chi2[2] = x,
            "--spin-1x" => p.chi1[0] = x,
            "--spin-1y" => p.chi1[1] = x,
            "--spin-2x" => p.chi2[0] = x,
            "--spin-2y" => p.chi2[1] = x,
            "--precessing" if x == 0.0 || x == 1.0 => p.precessing = x == 1.0,
            "--distance" => p.distance = x,
            "--inclination" => p.inclination = x,
            "--phase" => p.phase = x,
            "--sampling-frequency" => p.sampling_frequency = x,
            "--minimum-frequency" => p.f_min = x,
            "--reference-frequency" => p.f_ref = x,
            "--repeat" if x >= 1.0 && x.fract() == 0.0 => p.repeat = x as usize,
            _ => return Err(format!("unknown option or bad value: {name} {value}")),
        }
    }
    Ok(p)
}

/// Median wall time of `repeat` calls of `f`, in seconds (after one warm-up call).
fn median_time<R>(repeat: usize, mut f: impl FnMut() -> R) -> f64 {
    black_box(f());
    let mut times: Vec<f64> = (0..repeat)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() -> Result<(), String> {
    let p = parse_args()?;
    let settings = Settings::lal(p.f_min, p.f_ref, 1.0 / p.sampling_frequency);
    if p.precessing {
        time_precessing(&p, &settings)
    } else {
        time_aligned(&p, &settings)
    }
}

/// IMRPhenomT's timings.
fn time_aligned(p: &Params, settings: &Settings) -> Result<(), String> {
    let (chi1, chi2) = (p.chi1[2], p.chi2[2]);
    let model =
        IMRPhenomT::<f64>::new(p.m1, p.m2, chi1, chi2, settings).map_err(|e| e.to_string())?;
    let grid = model.polarizations_on_grid(p.distance, p.inclination, p.phase);
    let times: Vec<f64> = (0..grid.hp.len()).map(|k| grid.time(k)).collect();

    let setup = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, chi1, chi2, settings)
    });
    let f64_grid = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, chi1, chi2, settings)
            .map(|m| m.polarizations_on_grid(p.distance, p.inclination, p.phase))
    });
    let f64_times = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, chi1, chi2, settings).map(|m| {
            times
                .iter()
                .map(|&t| m.polarizations(t, p.distance, p.inclination, p.phase))
                .collect::<Vec<_>>()
        })
    });
    let dual5_times = median_time(p.repeat, || {
        let v = |x, k| Dual::<5>::variable(x, k);
        let c = Dual::<5>::constant;
        IMRPhenomT::new(v(p.m1, 0), v(p.m2, 1), v(chi1, 2), v(chi2, 3), settings).map(|m| {
            let (d, i, ph) = (c(p.distance), c(p.inclination), c(p.phase));
            times
                .iter()
                .map(|&t| m.polarizations(v(t, 4), d, i, ph))
                .collect::<Vec<_>>()
        })
    });
    println!(
        "{{\"samples\": {}, \"repeat\": {}, \"setup\": {setup:e}, \"f64_grid\": {f64_grid:e}, \
         \"f64_times\": {f64_times:e}, \"dual5_times\": {dual5_times:e}}}",
        times.len(),
        p.repeat
    );
    Ok(())
}

/// IMRPhenomTPHM's timings.
fn time_precessing(p: &Params, settings: &Settings) -> Result<(), String> {
    let make = || IMRPhenomTPHM::lal(p.m1, p.m2, p.chi1, p.chi2, DEFAULT_PREC_VERSION, settings);
    let samples = make()
        .map_err(|e| e.to_string())?
        .polarizations_on_grid(p.distance, p.inclination, p.phase)
        .hp
        .len();
    let setup = median_time(p.repeat, make);
    let f64_grid = median_time(p.repeat, || {
        make().map(|m| m.polarizations_on_grid(p.distance, p.inclination, p.phase))
    });
    let l0_modes = median_time(p.repeat, || make().map(|m| m.l0_modes_on_grid()));
    println!(
        "{{\"samples\": {samples}, \"repeat\": {}, \"setup\": {setup:e}, \
         \"f64_grid\": {f64_grid:e}, \"l0_modes\": {l0_modes:e}}}",
        p.repeat
    );
    Ok(())
}
