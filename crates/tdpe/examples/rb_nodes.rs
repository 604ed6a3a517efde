//! Relative-binning nodes of a wide posterior, set-up only (docs/sampler_studies.md,
//! "Relative-binning nodes on weak signals"): the run's pilot (docs/sampling.md §8.4), then the
//! nodes refined on its draws as a run does (cells of the peak frequency) and around one
//! centre, each checked against the exact likelihood at the pilot's other draws.
//!
//!     cargo run --release -p tdpe --example rb_nodes -- campaigns/prior_injections/03.toml
//!
//! One line per variant: nodes per cell and detector, |Δ ln L| at the held-out draws (max,
//! median and sd: a constant offset leaves the posterior unchanged) and µs per ln L + gradient.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::pilot;
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::{BbhParameters, ParameterVector};

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .map(std::path::PathBuf::from)
        .ok_or_else(|| anyhow::anyhow!("usage: rb_nodes CONFIG"))?;
    let problem = Problem::set_up(Config::load(Some(&path))?)?;
    let fiducial = pilot::fiducial(&problem)?.theta;
    let stop = AtomicBool::new(false);
    let steps = pilot::time_steps(&problem, &fiducial);
    let snr = pilot::matched_filter_snr(&problem, &fiducial);
    let sampler = problem.config.sampler.for_wide_posterior(steps, snr);
    let clock = Instant::now();
    let run = pilot::pilot_run(&problem, &fiducial, &sampler, false, &stop)?;
    println!(
        "pilot: {:.1} s, {} gradients, {steps} time steps, window {:.4} s, Fisher nodes {:?}",
        clock.elapsed().as_secs_f64(),
        run.gradient_evaluations,
        run.arrival_window,
        run.fisher_nodes
    );
    let all: Vec<ParameterVector> = run.chains.iter().flatten().copied().collect();
    let clock = Instant::now();
    let bank = pilot::bank_on_pilot(&problem, &run)?;
    let bank_setup = clock.elapsed().as_secs_f64();
    // Held out as the run holds them out, each at its best distance.
    let held = &bank.held_out;
    anyhow::ensure!(!held.is_empty(), "no held-out pilot draw has an exact ln L");
    let design: Vec<ParameterVector> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !pilot::is_held_out(*i))
        .map(|(_, t)| *t)
        .collect();
    let clock = Instant::now();
    let centre =
        pilot::best_distance(&problem, &design[design.len() / 2]).map_or(fiducial, |(_, t)| t);
    let single = problem
        .analysis
        .place_nodes_on_draws(
            &centre,
            &design,
            &RelativeBinningOptions {
                best_effort: true,
                arrival_window: pilot::arrival_window(&problem, &centre, steps),
                ..pilot::options(&problem)
            },
        )?
        .summarise()?;
    let single_setup = clock.elapsed().as_secs_f64();
    for (name, rb, setup) in [
        (
            "cells of the peak frequency (a run's)",
            &bank.relative_binning,
            bank_setup,
        ),
        ("one centre", &single, single_setup),
    ] {
        report(name, rb, held, setup)?;
    }
    Ok(())
}

/// One line: nodes, the held-out errors and the cost of a gradient.
fn report(
    name: &str,
    rb: &BbhRelativeBinning,
    held: &[(ParameterVector, f64)],
    setup: f64,
) -> anyhow::Result<()> {
    let deltas: Vec<f64> = held
        .iter()
        .map(|(t, e)| Ok(rb.log_likelihood_ratio(&BbhParameters::from_array(*t))? - e))
        .collect::<anyhow::Result<_>>()?;
    let mut abs: Vec<f64> = deltas.iter().map(|d| d.abs()).collect();
    abs.sort_by(f64::total_cmp);
    let sd = tdpe::run::collect::standard_deviation(&deltas);
    let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
    let clock = Instant::now();
    let mut calls = 0;
    while clock.elapsed().as_secs_f64() < 0.5 {
        for (t, _) in held {
            rb.log_likelihood_ratio_and_gradient(&BbhParameters::from_array(*t), &mut gradient)?;
            calls += 1;
        }
    }
    let micros = clock.elapsed().as_secs_f64() * 1e6 / calls as f64;
    println!(
        "{name:<40} nodes {:?} | held-out |Δ| max {:.1e} median {:.1e} sd {sd:.1e} | {micros:.1} µs/grad, setup {setup:.2} s",
        rb.cell_node_counts(),
        abs[abs.len() - 1],
        quantile(&abs, 0.5),
    );
    Ok(())
}
