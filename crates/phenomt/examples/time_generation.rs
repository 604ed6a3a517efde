//! Times waveform generation in-process (no start-up cost), for tools/bench_waveform_vs_lal.py.
//!
//! ```text
//! cargo run --release -p tdpe-phenomt --example time_generation -- \
//!     --mass-1 36 --mass-2 29 --chi-1 0.3 --chi-2 -0.2 --distance 410 --inclination 0.4 \
//!     --phase 0.3 --sampling-frequency 4096 --minimum-frequency 20 --repeat 200
//! ```
//!
//! Prints one JSON object with the median wall time per call, in seconds, of
//! - `setup`: `IMRPhenomT::new` alone;
//! - `f64_grid`: set-up plus h₊, h× on LAL's grid (what `SimInspiralChooseTDWaveform` does);
//! - `f64_times`: set-up plus h₊, h× at the grid's times through the arbitrary-time API;
//! - `dual5_times`: the same with `Dual<5>`: values and derivatives with respect to
//!   (m1, m2, χ1, χ2, t).

use std::hint::black_box;
use std::time::Instant;

use tdpe_phenomt::{Dual, IMRPhenomT, Settings};

/// Parameters of one timing run.
struct Params {
    m1: f64,
    m2: f64,
    chi1: f64,
    chi2: f64,
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
        chi1: 0.3,
        chi2: -0.2,
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
            "--chi-1" => p.chi1 = x,
            "--chi-2" => p.chi2 = x,
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
    let model =
        IMRPhenomT::<f64>::new(p.m1, p.m2, p.chi1, p.chi2, &settings).map_err(|e| e.to_string())?;
    let grid = model.polarizations_on_grid(p.distance, p.inclination, p.phase);
    let times: Vec<f64> = (0..grid.hp.len()).map(|k| grid.time(k)).collect();

    let setup = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, p.chi1, p.chi2, &settings)
    });
    let f64_grid = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, p.chi1, p.chi2, &settings)
            .map(|m| m.polarizations_on_grid(p.distance, p.inclination, p.phase))
    });
    let f64_times = median_time(p.repeat, || {
        IMRPhenomT::<f64>::new(p.m1, p.m2, p.chi1, p.chi2, &settings).map(|m| {
            times
                .iter()
                .map(|&t| m.polarizations(t, p.distance, p.inclination, p.phase))
                .collect::<Vec<_>>()
        })
    });
    let dual5_times = median_time(p.repeat, || {
        let v = |x, k| Dual::<5>::variable(x, k);
        let c = Dual::<5>::constant;
        IMRPhenomT::new(
            v(p.m1, 0),
            v(p.m2, 1),
            v(p.chi1, 2),
            v(p.chi2, 3),
            &settings,
        )
        .map(|m| {
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
