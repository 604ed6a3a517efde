//! Relative-binning nodes of a wide posterior, set-up only (docs/sampler_studies.md,
//! "Relative-binning nodes on weak signals"): the run's pilot (docs/sampling.md §8.4), then the
//! nodes refined on its design draws in several ways, each checked against the exact likelihood
//! at the pilot's other draws (held out: not in the design set).
//!
//!     cargo run --release -p tdpe --example rb_nodes -- campaigns/prior_injections/03.toml
//!
//! Extra arguments keep only the variants whose names contain one of them. One line per
//! variant: nodes per detector, where they lie in time (by time before the centre's peak),
//! |Δ ln L| at the held-out draws (max, median, p90, max |Δ − median Δ| and sd: a constant
//! offset leaves the posterior unchanged) and µs per ln L + gradient.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::pilot;
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector};

struct Variant {
    name: String,
    /// The fiducial of the relative binning, if not the run's.
    fiducial: Option<ParameterVector>,
    design: Vec<ParameterVector>,
    options: RelativeBinningOptions,
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::PathBuf::from(&args[1]);
    let only: Vec<&str> = args[2..].iter().map(String::as_str).collect();
    let problem = Problem::set_up(Config::load(Some(&path))?)?;
    let fiducial = pilot::fiducial(&problem)?.theta;
    let stop = AtomicBool::new(false);
    let base = pilot::options(&problem);
    let capped = RelativeBinningOptions {
        max_nodes: pilot::NODE_BUDGET,
        best_effort: true,
        ..base.clone()
    };
    let fisher = problem.analysis.relative_binning(&fiducial, &capped)?;
    println!(
        "fisher capped: nodes {:?} errors {:?}",
        fisher.node_counts(),
        fisher.refinement_errors()
    );
    let clock = Instant::now();
    let run = pilot::pilot_run(&problem, &fiducial, false, &stop)?;
    println!(
        "pilot: {:.1} s, {} gradients, window {:.4} s, fisher nodes {:?}",
        clock.elapsed().as_secs_f64(),
        run.gradient_evaluations,
        run.arrival_window,
        run.fisher_nodes
    );
    let design = pilot::design_draws(&run.chains);
    let all: Vec<ParameterVector> = run.chains.iter().flatten().copied().collect();
    // Held out: the draws the design set skips, each with its distance drawn from its
    // conditional posterior, as the run's check does.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut held: Vec<ParameterVector> = Vec::new();
    for t in all.iter().filter(|t| !design.contains(t)) {
        let mut t = *t;
        run.posterior.draw_marginalized(&mut t, &mut rng)?;
        held.push(t);
    }
    let exact = problem.exact();
    let exact_lnl: Vec<f64> = held
        .iter()
        .map(|t| exact.log_likelihood_ratio(&BbhParameters::from_array(*t)))
        .collect::<Result<_, _>>()?;
    let mut sorted = exact_lnl.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "held out: {} draws, exact ln L median {:.2}, 5–95 % [{:.2}, {:.2}], fiducial ln L {:.2}",
        held.len(),
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.05),
        quantile(&sorted, 0.95),
        exact.log_likelihood_ratio(&BbhParameters::from_array(fiducial))?
    );
    // Design draws ranked by their exact ln L, to see whether the far ones drive the count.
    let design_lnl: Vec<f64> = design
        .iter()
        .map(|t| {
            let mut t = *t;
            run.posterior.draw_marginalized(&mut t, &mut rng)?;
            Ok(exact.log_likelihood_ratio(&BbhParameters::from_array(t))?)
        })
        .collect::<anyhow::Result<_>>()?;
    let mut ranked: Vec<usize> = (0..design.len()).collect();
    ranked.sort_by(|&a, &b| design_lnl[b].total_cmp(&design_lnl[a]));
    let spread = |name: &str, p: Parameter| {
        let mut v: Vec<f64> = all.iter().map(|t| t[p]).collect();
        v.sort_by(f64::total_cmp);
        println!(
            "  pilot {name}: 5/50/95 % {:.4} {:.4} {:.4} (fiducial {:.4})",
            quantile(&v, 0.05),
            quantile(&v, 0.5),
            quantile(&v, 0.95),
            fiducial[p]
        );
    };
    spread("chirp_mass", Parameter::ChirpMass);
    spread("mass_ratio", Parameter::MassRatio);
    spread("chi_1", Parameter::Chi1);
    spread("geocent_time", Parameter::GeocentTime);

    let window = run.arrival_window;
    let prod = RelativeBinningOptions {
        best_effort: true,
        arrival_window: window,
        ..base.clone()
    };
    let mut variants = vec![Variant {
        name: "production (128 draws, max, T=1e-7)".into(),
        design: design.clone(),
        fiducial: None,
        options: prod.clone(),
    }];
    // Which coordinates drive the count: the draws' intrinsic parameters alone (their times
    // and sky the fiducial's), their arrival times alone.
    let extrinsic = [Parameter::GeocentTime, Parameter::Ra, Parameter::Dec];
    let intrinsic = [
        Parameter::ChirpMass,
        Parameter::MassRatio,
        Parameter::Chi1,
        Parameter::Chi2,
    ];
    let with = |keep: &[Parameter]| -> Vec<ParameterVector> {
        design
            .iter()
            .map(|t| {
                let mut x = fiducial;
                keep.iter().for_each(|&p| x[p] = t[p]);
                x
            })
            .collect()
    };
    variants.push(Variant {
        name: "intrinsic only".into(),
        design: with(&intrinsic),
        fiducial: None,
        options: prod.clone(),
    });
    variants.push(Variant {
        name: "arrival times only".into(),
        design: with(&extrinsic),
        fiducial: None,
        options: prod.clone(),
    });
    for keep in [0.5, 0.75, 0.9] {
        let n = (design.len() as f64 * keep).round() as usize;
        variants.push(Variant {
            name: format!("top {:.0} % of design by ln L", keep * 100.0),
            design: ranked[..n].iter().map(|&i| design[i]).collect(),
            fiducial: None,
            options: prod.clone(),
        });
    }
    for target in [3e-7, 1e-6] {
        variants.push(Variant {
            name: format!("T={target:.0e}"),
            design: design.clone(),
            fiducial: None,
            options: RelativeBinningOptions {
                target,
                ..prod.clone()
            },
        });
    }
    variants.push(Variant {
        name: "all pilot draws".into(),
        design: all.clone(),
        fiducial: None,
        options: prod.clone(),
    });

    // The fiducial moved to the best design draw (its distance drawn): the ratios of the other
    // draws are then ratios to a waveform inside the posterior.
    let mut best = design[ranked[0]];
    run.posterior.draw_marginalized(&mut best, &mut rng)?;
    variants.push(Variant {
        name: "fiducial = best design draw".into(),
        design: design.clone(),
        fiducial: Some(best),
        options: prod.clone(),
    });
    // What a run does (tdpe::run::pilot::refine_on_pilot): the better of the two centres at
    // the pilot's held-out draws.
    let refined = pilot::refine_on_pilot(&problem, &fiducial, &run)?;
    println!(
        "refine_on_pilot: centre {:?}, spreads at {} held-out draws {:.1e} (fiducial) / {:.1e} (median M_c) / {:.1e} (best draw), nodes {:?}",
        refined.centre,
        refined.held_out,
        refined.spreads[0],
        refined.spreads[1],
        refined.spreads[2],
        refined.relative_binning.node_counts()
    );
    let candidates: Vec<(f64, ParameterVector)> = design
        .iter()
        .filter_map(|t| pilot::best_distance(&problem, t))
        .collect();
    let mut by_mass: Vec<&(f64, ParameterVector)> = candidates.iter().collect();
    by_mass.sort_by(|a, b| a.1[Parameter::ChirpMass].total_cmp(&b.1[Parameter::ChirpMass]));
    let chosen = match refined.centre {
        pilot::Centre::Fiducial => None,
        pilot::Centre::MedianChirpMass => Some(by_mass[by_mass.len() / 2].1),
        pilot::Centre::BestDraw => candidates
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|c| c.1),
    };
    variants.push(Variant {
        name: "tdpe run: the better centre".into(),
        design: design.clone(),
        fiducial: chosen,
        options: prod.clone(),
    });
    // The draw of median chirp mass: the ratios' frequency differences at the merger, which
    // the chirp mass sets, are then smallest at the posterior's ends.
    let mut by_mass: Vec<usize> = (0..design.len()).collect();
    by_mass.sort_by(|&a, &b| {
        design[a][Parameter::ChirpMass].total_cmp(&design[b][Parameter::ChirpMass])
    });
    let mut median = design[by_mass[by_mass.len() / 2]];
    run.posterior.draw_marginalized(&mut median, &mut rng)?;
    variants.push(Variant {
        name: "median-Mc fiducial".into(),
        design: design.clone(),
        fiducial: Some(median),
        options: prod.clone(),
    });
    let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
    for v in variants {
        if !only.is_empty() && !only.iter().any(|o| v.name.contains(o)) {
            continue;
        }
        let theta0 = v.fiducial.unwrap_or(fiducial);
        let window = pilot::arrival_window(&problem, &theta0);
        let options = RelativeBinningOptions {
            arrival_window: window,
            ..v.options.clone()
        };
        let clock = Instant::now();
        let rb: BbhRelativeBinning = problem
            .analysis
            .relative_binning_from_draws(&theta0, &v.design, &options)?;
        let setup = clock.elapsed().as_secs_f64();
        let mut deltas: Vec<f64> = held
            .iter()
            .zip(&exact_lnl)
            .map(|(t, e)| Ok(rb.log_likelihood_ratio(&BbhParameters::from_array(*t))? - e))
            .collect::<anyhow::Result<_>>()?;
        let mut abs: Vec<f64> = deltas.iter().map(|d| d.abs()).collect();
        abs.sort_by(f64::total_cmp);
        deltas.sort_by(f64::total_cmp);
        let centre = quantile(&deltas, 0.5);
        let mean = deltas.iter().sum::<f64>() / deltas.len() as f64;
        let sd =
            (deltas.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / deltas.len() as f64).sqrt();
        let relative = deltas
            .iter()
            .map(|d| (d - centre).abs())
            .fold(0.0, f64::max);
        let clock = Instant::now();
        let mut calls = 0;
        while clock.elapsed().as_secs_f64() < 0.5 {
            for t in &held {
                rb.log_likelihood_ratio_and_gradient(
                    &BbhParameters::from_array(*t),
                    &mut gradient,
                )?;
                calls += 1;
            }
        }
        let micros = clock.elapsed().as_secs_f64() * 1e6 / calls as f64;
        // Nodes by time before the reference's peak (the fiducial moved by the window).
        let peak = theta0[Parameter::GeocentTime]
            + (window / problem.exact().likelihood().grid().dt).ceil()
                * problem.exact().likelihood().grid().dt;
        let bands: Vec<String> = rb
            .node_times()
            .iter()
            .map(|times| {
                let count = |lo: f64, hi: f64| {
                    times
                        .iter()
                        .filter(|&&t| (lo..hi).contains(&(peak - t)))
                        .count()
                };
                format!(
                    "{}/{}/{}/{}/{}",
                    count(1.0, f64::INFINITY),
                    count(0.3, 1.0),
                    count(0.05, 0.3),
                    count(0.0, 0.05),
                    count(f64::NEG_INFINITY, 0.0)
                )
            })
            .collect();
        println!(
            "{:<40} nodes {:?} [s before peak >1/0.3-1/0.05-0.3/0-0.05/after: {}] err {:?} | held-out |Δ| max {:.1e} median {:.1e} p90 {:.1e}, max|Δ−med| {:.1e} sd {:.1e} | {:.1} µs/grad, setup {:.2} s",
            v.name,
            rb.node_counts(),
            bands.join(", "),
            rb.refinement_errors().iter().map(|e| format!("{e:.1e}")).collect::<Vec<_>>(),
            abs[abs.len() - 1],
            quantile(&abs, 0.5),
            quantile(&abs, 0.9),
            relative,
            sd,
            micros,
            setup
        );
    }
    Ok(())
}
