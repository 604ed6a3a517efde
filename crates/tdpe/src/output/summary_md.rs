//! `summary.md`: what a person reads first. Per parameter the median and 90 % credible
//! interval (numpy's quantiles, as bilby), the injected value, R̂ and bulk/tail ESS; per chain
//! acceptance and divergences; wall time and gradient evaluations; relative-binning nodes and
//! SNR per detector. Convergence problems are stated at the top, not hidden in the table.

use std::fmt::Write;
use std::path::Path;

use tdpe_mcmc::ConvergenceTarget;

use super::atomic;
use super::number_format::{decimals_for, ess, fixed, rhat, significant};
use super::quantile::CredibleInterval;
use super::skymap::SkyLocalisation;
use crate::run_result::{RunResult, MAX_RHAT, RELATIVE_BINNING_TOLERANCE};

/// Bulk ESS below this makes the quoted intervals unreliable (Vehtari et al. 2021).
const ESS_THRESHOLD: f64 = 400.0;

/// Writes `summary.md` for `result` to `path` (atomically).
pub fn write(result: &RunResult, sky: Option<&SkyLocalisation>, path: &Path) -> anyhow::Result<()> {
    atomic::write_bytes(path, render(result, sky).as_bytes())
}

/// The Markdown text.
fn render(result: &RunResult, sky: Option<&SkyLocalisation>) -> String {
    let mut out = String::new();
    header(&mut out, result);
    plots(&mut out, sky);
    posterior_table(&mut out, result);
    chains_table(&mut out, result);
    tempering(&mut out, result);
    cost(&mut out, result);
    detectors_table(&mut out, result);
    out
}

fn header(out: &mut String, result: &RunResult) {
    let s = &result.sampler_kwargs;
    let _ = writeln!(out, "# tdpe run `{}`\n", result.label);
    let _ = writeln!(
        out,
        "Sampler `{}`: {} chains × {} draws after {} warm-up iterations, seed {}. \
         {} draws in the posterior. Approximant {} with the modes {}, {} s at {} Hz from GPS {}, \
         f_min {} Hz, f_ref {} Hz, trigger time GPS {}.\n",
        result.sampler,
        s.num_chains,
        result.draws_per_chain(),
        s.num_warmup,
        s.seed,
        result.posterior.len(),
        result.approximant,
        result.modes,
        result.duration,
        result.sampling_frequency,
        result.start_time,
        result.minimum_frequency,
        result.reference_frequency,
        result.trigger_time,
    );
    if let Some((approximant, modes)) = &result.injection_model {
        let _ = writeln!(
            out,
            "The injected signal is {approximant}'s, with the modes {modes}; the analysis \
             models the modes {}.\n",
            result.modes
        );
    }
    if !result.data_sources.is_empty() {
        out.push_str("Data from GWOSC files:\n\n");
        for source in &result.data_sources {
            let _ = writeln!(out, "- {source}");
        }
        out.push('\n');
    }
    if let Some(max_draws) = s
        .max_draws
        .filter(|_| result.draws_per_chain() > s.num_draws)
    {
        let target = ConvergenceTarget {
            max_rhat: MAX_RHAT,
            min_ess_bulk: s.target_ess,
            max_draws,
        };
        let diagnostics: Vec<(f64, f64)> = result
            .diagnostics
            .iter()
            .map(|(_, d)| (d.rhat, d.ess_bulk))
            .collect();
        let met = target.is_met(&diagnostics);
        let outcome = if met {
            "reached"
        } else {
            "not reached by the last draw"
        };
        let _ = writeln!(
            out,
            "The chains went on past the planned {} draws for a bulk ESS of {} with R̂ < {} in \
             every parameter (at most {} draws): {outcome}.\n",
            s.num_draws, s.target_ess, MAX_RHAT, max_draws
        );
    }
    if result.sampler_kwargs.distance_marginalization {
        out.push_str(
            "The likelihood was marginalised over luminosity_distance; each draw's distance was \
             drawn afterwards from its conditional posterior.\n\n",
        );
    }
    if result.sampler_kwargs.phase_marginalization {
        out.push_str(
            "The likelihood was marginalised over the phase; each draw's phase was drawn \
             afterwards from its conditional posterior.\n\n",
        );
    }
    sampling_choices(out, result);
    if result.interrupted {
        out.push_str("**Interrupted:** the run was stopped early; the posterior holds the draws made so far.\n\n");
    }
    let unconverged = result.unconverged(MAX_RHAT);
    if unconverged.is_empty() {
        let _ = writeln!(
            out,
            "Convergence: R̂ ≤ {MAX_RHAT} for every assessed parameter.\n"
        );
    } else {
        let _ = writeln!(
            out,
            "**Warning: the chains disagree** (R̂ > {MAX_RHAT}) for: {}. The posterior may be \
             multimodal or the chains not yet mixed; do not trust the intervals of these parameters.\n",
            unconverged.join(", ")
        );
    }
    if result.relative_binning_inaccurate() {
        let _ = writeln!(
            out,
            "**Warning: relative binning is inaccurate here**: |Δ ln L| up to {} against the exact \
             likelihood at posterior draws (tolerance {RELATIVE_BINNING_TOLERANCE}); the posterior \
             may be biased (see Detectors).\n",
            significant(result.relative_binning.max_abs_error, 2)
        );
    }
    let low_ess: Vec<&str> = result
        .diagnostics
        .iter()
        .filter(|(_, d)| d.ess_bulk.is_nan() || d.ess_bulk < ESS_THRESHOLD)
        .map(|(n, _)| n.as_str())
        .collect();
    if !low_ess.is_empty() {
        let _ = writeln!(
            out,
            "**Warning: few effective samples** (bulk ESS < {ESS_THRESHOLD}) for: {}.\n",
            low_ess.join(", ")
        );
    }
}

/// The sky and time coordinates and the sky reflection the sampler used, and every requested
/// coordinate or jump that did not apply, with why.
fn sampling_choices(out: &mut String, result: &RunResult) {
    let sky = &result.sky_choices;
    let detectors = result.detectors.len();
    if sky.reference_frame == "sky" {
        let _ = write!(
            out,
            "Sky and time sampled as ra, dec and geocent_time ({detectors} detectors). "
        );
    } else {
        let first = &sky.time_reference;
        let second = sky
            .reference_frame
            .strip_prefix(first.as_str())
            .unwrap_or("?");
        let _ = write!(
            out,
            "Sky and time sampled as zenith and azimuth about the {first}–{second} baseline and \
             the arrival time at {first} (bilby's reference_frame \"{}\", time_reference \
             \"{first}\"; of {detectors} detectors). ",
            sky.reference_frame
        );
    }
    match &sky.sky_reflection {
        Some(how) => {
            let _ = writeln!(out, "Sky reflection {how}.\n");
        }
        None => out.push_str("No sky reflection.\n\n"),
    }
    for n in &result.not_applied {
        let _ = writeln!(out, "Not applied: sampler.{} ({}).\n", n.option, n.reason);
    }
}

/// Links to the plots, and the sky areas.
fn plots(out: &mut String, sky: Option<&SkyLocalisation>) {
    out.push_str(
        "Plots: [corner](corner.png), [source frame](corner_source_frame.png), \
         [trace](trace.png), [waveform](waveform.png), \
         [sky map](skymap.png), \
         [spectrum](spectrum.png).\n\n",
    );
    if let Some(sky) = sky {
        let _ = writeln!(
            out,
            "Sky localisation: {} (kernel density estimate of the (ra, dec) draws, bandwidth \
             {}°).\n",
            sky.areas_text(),
            significant(sky.density.bandwidth.to_degrees(), 2)
        );
    }
}

fn posterior_table(out: &mut String, result: &RunResult) {
    out.push_str("## Posterior\n\n");
    out.push_str("Median and 90 % credible interval (5 % and 95 % quantiles).");
    if result.injection_parameters.is_some() {
        out.push_str(" \"In 90 %\" says whether the injected value lies inside the interval.");
    }
    out.push_str("\n\n");
    let has_injection = result.injection_parameters.is_some();
    out.push_str("| parameter | median | 90 % interval |");
    if has_injection {
        out.push_str(" injected | in 90 % |");
    }
    out.push_str(" R̂ | ESS bulk | ESS tail |\n|---|---:|---:|");
    if has_injection {
        out.push_str("---:|:---:|");
    }
    out.push_str("---:|---:|---:|\n");
    for column in &result.posterior.columns {
        let ci = CredibleInterval::of(&column.values);
        let d = decimals_for(ci.upper - ci.lower, ci.median, 3);
        let fixed_param = result
            .priors
            .iter()
            .any(|p| p.fixed && p.name == column.name);
        let interval = if fixed_param {
            "fixed".to_string()
        } else {
            format!("[{}, {}]", fixed(ci.lower, d), fixed(ci.upper, d))
        };
        let _ = write!(
            out,
            "| {} | {} | {} |",
            column.name,
            fixed(ci.median, d),
            interval
        );
        if has_injection {
            match result.injected(&column.name) {
                Some(v) => {
                    let inside = if fixed_param {
                        "—"
                    } else if (ci.lower..=ci.upper).contains(&v) {
                        "yes"
                    } else {
                        "**no**"
                    };
                    let _ = write!(out, " {} | {inside} |", fixed(v, d));
                }
                None => out.push_str(" — | — |"),
            }
        }
        match result.diagnostics_of(&column.name) {
            Some(diag) => {
                let flag = if diag.rhat <= MAX_RHAT { "" } else { " ⚠" };
                let _ = writeln!(
                    out,
                    " {}{flag} | {} | {} |",
                    rhat(diag.rhat),
                    ess(diag.ess_bulk),
                    ess(diag.ess_tail)
                );
            }
            None => out.push_str(" — | — | — |\n"),
        }
    }
    out.push('\n');
}

fn chains_table(out: &mut String, result: &RunResult) {
    out.push_str("## Chains\n\n");
    out.push_str(
        "| chain | draws | acceptance | divergences | mirror jumps | time moves | independence jumps | step size \
         | mean tree depth | max tree depth | gradient evaluations (warm-up + sampling) | E-BFMI |\n\
         |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    // Only NUTS builds trees; HMC's and MALA's depths would read as zeros.
    let nuts = result.sampler_kwargs.kernel == "nuts";
    for c in &result.chains {
        let (mean_depth, max_depth) = if nuts {
            (fixed(c.mean_tree_depth, 2), c.max_tree_depth.to_string())
        } else {
            ("—".to_string(), "—".to_string())
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} + {} | {} |",
            c.chain,
            c.num_draws,
            fixed(c.mean_accept_stat, 3),
            c.divergences,
            c.mirrored,
            c.orbit_moves,
            c.independent_moves,
            significant(c.step_size, 3),
            mean_depth,
            max_depth,
            c.warmup_grad_evals,
            c.grad_evals,
            fixed(c.e_bfmi, 2),
        );
    }
    let divergences: usize = result.chains.iter().map(|c| c.divergences).sum();
    if divergences > 0 {
        let _ = writeln!(
            out,
            "\n**{divergences} divergent transitions** after warm-up: the sampler met curvature it \
             could not follow; the posterior may be biased there."
        );
    }
    out.push('\n');
}

/// Swap acceptance, round trips and the evidence of a tempered run.
fn tempering(out: &mut String, result: &RunResult) {
    let Some(t) = &result.tempering else {
        return;
    };
    out.push_str(
        "## Parallel tempering

",
    );
    let list = |values: &mut dyn Iterator<Item = String>| values.collect::<Vec<_>>().join(", ");
    let _ = writeln!(
        out,
        "- {} temperatures per chain; swap acceptance per neighbouring pair (β = 1 first): {}",
        t.ladders.first().map_or(0, Vec::len),
        list(&mut t.swap_acceptance.iter().map(|a| fixed(*a, 2)))
    );
    let _ = writeln!(
        out,
        "- Round trips per chain (β = 1 → β_min → β = 1): {}",
        list(&mut t.round_trips.iter().map(usize::to_string))
    );
    if let Some(ladder) = t.ladders.first() {
        let _ = writeln!(
            out,
            "- Ladder of chain 0 (β): {}",
            list(&mut ladder.iter().map(|b| significant(*b, 3)))
        );
    }
    if let Some((ln_z, err)) = t.ln_bayes_factor {
        let _ = writeln!(
            out,
            "- ln Bayes factor (signal vs noise, thermodynamic integration): {} ± {} (Monte-Carlo error only; the quadrature over the ladder adds more)",
            fixed(ln_z, 2),
            fixed(err, 2)
        );
    }
    out.push('\n');
}

fn cost(out: &mut String, result: &RunResult) {
    out.push_str("## Cost\n\n");
    let t = result.sampling_time_s;
    let _ = writeln!(
        out,
        "- Set-up wall time (data, likelihood set-up, fiducial search, relative binning): {} s",
        fixed(result.setup_time_s, 2)
    );
    let _ = writeln!(out, "- Sampling wall time: {} s", fixed(t, 2));
    let _ = writeln!(
        out,
        "- Total wall time (set-up, sampling, checks and reconstruction of the results): {} s",
        fixed(result.total_time_s, 2)
    );
    let _ = writeln!(
        out,
        "- Gradient evaluations (all chains, warm-up included): {} ({} per second of sampling)",
        result.gradient_evaluations,
        fixed(result.gradient_evaluations as f64 / t, 0)
    );
    if result.density_evaluations > 0 {
        let _ = writeln!(
            out,
            "- Density evaluations without the gradient (independence proposals): {}",
            result.density_evaluations
        );
    }
    let min_ess = result
        .diagnostics
        .iter()
        .map(|(_, d)| d.ess_bulk)
        .fold(f64::INFINITY, f64::min);
    if min_ess.is_finite() {
        let _ = writeln!(
            out,
            "- Smallest bulk ESS: {} ({} per second of sampling)",
            ess(min_ess),
            fixed(min_ess / t, 1)
        );
    }
    out.push('\n');
}

fn detectors_table(out: &mut String, result: &RunResult) {
    out.push_str("## Detectors\n\n");
    out.push_str(
        "SNRs of the fiducial signal (the injection, or the maximum-likelihood point for real \
         data).\n\n| detector | optimal SNR | matched-filter SNR | band (Hz) | relative-binning nodes | \
         PSD |\n|---|---:|---:|---:|---:|---|\n",
    );
    for d in &result.detectors {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}–{} | {} | {} |",
            d.name,
            fixed(d.optimal_snr, 2),
            fixed(d.matched_filter_snr, 2),
            d.minimum_frequency,
            d.maximum_frequency,
            d.relative_binning_nodes,
            d.psd
        );
    }
    let network = result
        .detectors
        .iter()
        .map(|d| d.optimal_snr.powi(2))
        .sum::<f64>()
        .sqrt();
    let _ = writeln!(out, "\nNetwork optimal SNR: {}.", fixed(network, 2));
    let rb = &result.relative_binning;
    if let Some(pilot) = &rb.pilot {
        let nodes: Vec<String> = pilot.fisher_nodes.iter().map(usize::to_string).collect();
        let cells: Vec<String> = pilot
            .cell_nodes
            .iter()
            .map(|c| c.iter().map(usize::to_string).collect::<Vec<_>>().join("/"))
            .collect();
        let bounds: Vec<String> = pilot.cell_bounds.iter().map(|b| fixed(*b, 1)).collect();
        let _ = writeln!(
            out,
            "\nA wide posterior: the Fisher design set needed too many nodes, so they were \
             refined on {} draws of a pilot run ({} gradient and {} density evaluations) on relative binning \
             capped at {} nodes, in {} cells of the (2,2) peak frequency (nodes {}; bounds {} \
             Hz), with a spread of ln L_RB − ln L_exact of {} at {} held-out draws. The \
             likelihood was summed over {} whole-sample time steps, and every transition was \
             followed by {} independence proposals (the pilot's draws and the prior){} \
             (docs/sampling.md §4.4, §5.6).",
            pilot.design_draws,
            pilot.gradient_evaluations,
            pilot.density_evaluations,
            nodes.join("/"),
            cells.len(),
            cells.join(", "),
            if bounds.is_empty() {
                "none".to_string()
            } else {
                bounds.join(", ")
            },
            significant(pilot.held_out_spread, 2),
            pilot.held_out_draws,
            pilot.time_steps,
            pilot.independence_proposals,
            if result.sampler_kwargs.kernel == "nuts" {
                format!(
                    ", with NUTS trees of depth at most {}",
                    pilot.max_tree_depth
                )
            } else {
                String::new()
            }
        );
    }
    if rb.refinement_errors.iter().any(|&e| e > rb.target) {
        let errors: Vec<String> = rb
            .refinement_errors
            .iter()
            .map(|&e| format!("{e:.1e}"))
            .collect();
        let _ = writeln!(
            out,
            "\n**Warning:** the node refinement stopped at its cap with errors {} on its design \
             set, above the target {:.0e}.",
            errors.join(", "),
            rb.target
        );
    }
    let _ = writeln!(
        out,
        "\nRelative binning against the exact likelihood at {} posterior draws: \
         |Δ ln L| ≤ {} (median {}), standard deviation of Δ ln L {} (how far it moves the \
         posterior's means, in posterior standard deviations).",
        rb.check_points,
        significant(rb.max_abs_error, 2),
        significant(rb.median_abs_error, 2),
        significant(rb.spread, 2)
    );
}
