//! The PP test of a campaign (docs/campaigns.md §3): for every parameter the prior draws, the
//! credible level of the injected value in each run's posterior, the Kolmogorov–Smirnov test
//! of their uniformity and Fisher's combination over the parameters (as bilby's
//! `make_pp_plot`), the coverage of the 90 % credible intervals, and each run's convergence and
//! cost, read from the runs' result.json files.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde_json::Value;
use tdpe_signal::PARAMETER_NAMES;

use super::local::RUN_PREFIX;
use super::uniformity::{fisher_combined_pvalue, ks_pvalue};
use crate::output::json::{parse_python_json, Json};
use crate::output::{atomic, pp_plot};

/// The central credible interval whose coverage the report gives.
pub const COVERAGE_INTERVAL: f64 = 0.9;
/// R̂ at and above which a run counts as not converged (the runs' own criterion).
pub const RHAT_LIMIT: f64 = 1.01;

/// What the PP test needs of one run's result.json.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// The run's folder name (or its file's path).
    pub name: String,
    /// The parameters with a prior that is not fixed (bilby's names, in the model's order).
    pub parameters: Vec<String>,
    /// Per parameter: the fraction of posterior draws below the injected value (bilby's
    /// `get_injection_credible_level`).
    pub credible_levels: Vec<f64>,
    /// The network optimal SNR of the injection, √(Σ ρ_k²).
    pub network_snr: f64,
    /// The largest R̂ and the smallest bulk ESS over the reported parameters.
    pub max_rhat: f64,
    /// See `max_rhat`.
    pub min_ess_bulk: f64,
    /// Draws per chain after warm-up (the first chain's).
    pub draws: usize,
    /// Density evaluations with and without the gradient.
    pub gradients: u64,
    /// See `gradients`.
    pub densities: u64,
    /// Wall time of the run (s).
    pub wall_time: f64,
}

impl RunRecord {
    /// Reads the record of the run whose result.json is `path`.
    pub fn read(path: &Path, name: String) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let result = parse_python_json(&text)
            .with_context(|| format!("{}: not a JSON document", path.display()))?;
        Self::from_result(&result, name).with_context(|| format!("{}", path.display()))
    }

    /// The record of a parsed result.json.
    pub fn from_result(result: &Value, name: String) -> anyhow::Result<Self> {
        let meta = &result["meta_data"];
        if meta["interrupted"].as_bool() == Some(true) {
            bail!("the run was interrupted");
        }
        let Value::Object(priors) = &result["priors"] else {
            bail!("no priors");
        };
        let parameters: Vec<String> = PARAMETER_NAMES
            .iter()
            .filter(|name| {
                priors
                    .get(**name)
                    .and_then(Value::as_str)
                    .is_some_and(|repr| {
                        !repr.starts_with("Constraint") && !repr.starts_with("DeltaFunction")
                    })
            })
            .map(|name| name.to_string())
            .collect();
        let posterior = &result["posterior"]["content"];
        let injection = &result["injection_parameters"];
        let credible_levels = parameters
            .iter()
            .map(|p| {
                let truth = injection[p]
                    .as_f64()
                    .with_context(|| format!("no injected value of {p}"))?;
                let Value::Array(draws) = &posterior[p] else {
                    bail!("no posterior of {p}");
                };
                if draws.is_empty() {
                    bail!("an empty posterior");
                }
                let below = draws
                    .iter()
                    .filter(|d| d.as_f64().is_some_and(|d| d < truth))
                    .count();
                Ok(below as f64 / draws.len() as f64)
            })
            .collect::<anyhow::Result<Vec<f64>>>()?;
        // The largest (or smallest) value of a table of diagnostics; NaN if it is empty or
        // holds a NaN (or a null: bilby's NaN), which no criterion is met by.
        let extreme = |table: &Value, largest: bool| -> f64 {
            let values: Vec<f64> = table
                .as_object()
                .into_iter()
                .flat_map(|m| m.values())
                .map(|v| v.as_f64().unwrap_or(f64::NAN))
                .collect();
            if values.is_empty() || values.iter().any(|v| v.is_nan()) {
                return f64::NAN;
            }
            let pick = if largest { f64::max } else { f64::min };
            values.into_iter().reduce(pick).unwrap_or(f64::NAN)
        };
        let network_snr = meta["likelihood"]["interferometers"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.values())
            .map(|ifo| ifo["optimal_SNR"].as_f64().unwrap_or(f64::NAN).powi(2))
            .sum::<f64>()
            .sqrt();
        let count = |v: &Value| v.as_u64().unwrap_or(0);
        let draws = meta["chains"]["num_draws"]
            .as_array()
            .and_then(|a| a.first())
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize;
        Ok(Self {
            name,
            parameters,
            credible_levels,
            network_snr,
            max_rhat: extreme(&meta["diagnostics"]["rhat"], true),
            min_ess_bulk: extreme(&meta["diagnostics"]["ess_bulk"], false),
            draws,
            gradients: count(&meta["gradient_evaluations"]),
            densities: count(&meta["density_evaluations"]),
            wall_time: meta["total_time"].as_f64().unwrap_or(f64::NAN),
        })
    }

    /// Whether the run met its convergence criterion: R̂ < 1.01 for every parameter (a NaN
    /// R̂ does not).
    pub fn converged(&self) -> bool {
        self.max_rhat < RHAT_LIMIT
    }
}

/// A run that has no usable result, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct FailedRun {
    /// The run's folder name.
    pub name: String,
    /// Why (no result.json, interrupted, unreadable).
    pub reason: String,
}

/// The runs of a campaign folder: every sub-folder's result.json, in name order; a run's
/// folder (`injection_…`) without one, or with one that cannot be used, is a failed run.
/// Other folders without a result (a scheduler's files and logs) are not runs.
pub fn read_runs(dir: &Path) -> anyhow::Result<(Vec<RunRecord>, Vec<FailedRun>)> {
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the campaign folder {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let (mut runs, mut failed) = (Vec::new(), Vec::new());
    for folder in folders {
        let name = folder
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let path = folder.join("result.json");
        if !path.exists() && !name.starts_with(RUN_PREFIX) {
            continue;
        }
        if !path.exists() {
            failed.push(FailedRun {
                name,
                reason: "no result.json (still running, or failed: see its run.log)".into(),
            });
            continue;
        }
        match RunRecord::read(&path, name.clone()) {
            Ok(run) => runs.push(run),
            Err(e) => failed.push(FailedRun {
                name,
                reason: format!("{e:#}"),
            }),
        }
    }
    Ok((runs, failed))
}

/// The PP test over a set of runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PpTest {
    /// The parameters tested (those of the first run, which every run must share).
    pub parameters: Vec<String>,
    /// `levels[j]`: every run's credible level of parameter j.
    pub levels: Vec<Vec<f64>>,
    /// The KS p-value of each parameter's levels against U(0, 1).
    pub pvalues: Vec<f64>,
    /// Fisher's combination of `pvalues`.
    pub combined_pvalue: f64,
    /// Per parameter, the fraction of runs whose central 90 % interval holds the injection.
    pub coverage: Vec<f64>,
}

impl PpTest {
    /// The test over `runs`, which must all have the same parameters.
    pub fn new(runs: &[RunRecord]) -> anyhow::Result<Self> {
        let Some(first) = runs.first() else {
            bail!("no run has a result to test");
        };
        if let Some(other) = runs.iter().find(|r| r.parameters != first.parameters) {
            bail!(
                "the runs {} and {} have different parameters ({} against {}): a PP test needs \
                 one prior",
                first.name,
                other.name,
                first.parameters.join(", "),
                other.parameters.join(", ")
            );
        }
        let levels: Vec<Vec<f64>> = (0..first.parameters.len())
            .map(|j| runs.iter().map(|r| r.credible_levels[j]).collect())
            .collect();
        let pvalues: Vec<f64> = levels.iter().map(|l| ks_pvalue(l)).collect();
        let tail = (1.0 - COVERAGE_INTERVAL) / 2.0;
        let coverage = levels
            .iter()
            .map(|l| {
                l.iter().filter(|&&c| c >= tail && c <= 1.0 - tail).count() as f64 / l.len() as f64
            })
            .collect();
        Ok(Self {
            parameters: first.parameters.clone(),
            combined_pvalue: fisher_combined_pvalue(&pvalues),
            levels,
            pvalues,
            coverage,
        })
    }

    /// pp.json: the levels, p-values and coverage, and each run's figures.
    pub fn to_json(&self, runs: &[RunRecord], failed: &[FailedRun]) -> String {
        let per_parameter = |values: &[f64]| {
            Json::object(
                self.parameters
                    .iter()
                    .zip(values)
                    .map(|(p, &v)| (p.clone(), Json::Float(v))),
            )
        };
        let runs_json = runs
            .iter()
            .map(|r| {
                Json::object([
                    ("name", Json::str(r.name.clone())),
                    ("network_optimal_snr", Json::Float(r.network_snr)),
                    ("max_rhat", Json::Float(r.max_rhat)),
                    ("min_ess_bulk", Json::Float(r.min_ess_bulk)),
                    ("draws_per_chain", Json::count(r.draws)),
                    ("gradient_evaluations", Json::count(r.gradients)),
                    ("density_evaluations", Json::count(r.densities)),
                    ("total_time", Json::Float(r.wall_time)),
                    ("credible_levels", per_parameter(&r.credible_levels)),
                ])
            })
            .collect();
        let failed_json = failed
            .iter()
            .map(|f| {
                Json::object([
                    ("name", Json::str(f.name.clone())),
                    ("reason", Json::str(f.reason.clone())),
                ])
            })
            .collect();
        Json::object([
            (
                "parameters",
                Json::Array(
                    self.parameters
                        .iter()
                        .map(|p| Json::str(p.clone()))
                        .collect(),
                ),
            ),
            ("ks_pvalues", per_parameter(&self.pvalues)),
            ("combined_pvalue", Json::Float(self.combined_pvalue)),
            ("coverage_90", per_parameter(&self.coverage)),
            ("runs", Json::Array(runs_json)),
            ("failed", Json::Array(failed_json)),
        ])
        .to_pretty_string()
    }

    /// The report this module writes as `pp.md` (an output file): the p-values and coverage per
    /// parameter, the runs' convergence and cost, and the failed runs.
    pub fn to_markdown(&self, runs: &[RunRecord], failed: &[FailedRun]) -> String {
        let n = runs.len();
        let mut md = format!(
            "# PP test\n\n{n} runs with results, {} failed. Combined p-value (Fisher's method \
             over the parameters' Kolmogorov–Smirnov p-values): **{:.3}**. ![PP plot](pp.png)\n\n",
            failed.len(),
            self.combined_pvalue
        );
        let sd = (COVERAGE_INTERVAL * (1.0 - COVERAGE_INTERVAL) / n as f64).sqrt();
        md.push_str(&format!(
            "| parameter | KS p-value | in the 90 % interval (expected 90 ± {:.1} %) |\n|---|---:|---:|\n",
            100.0 * sd
        ));
        for ((p, pv), c) in self
            .parameters
            .iter()
            .zip(&self.pvalues)
            .zip(&self.coverage)
        {
            md.push_str(&format!("| {p} | {pv:.3} | {:.1} % |\n", 100.0 * c));
        }
        let converged = runs.iter().filter(|r| r.converged()).count();
        let total_time: f64 = runs.iter().map(|r| r.wall_time).sum();
        let gradients: u64 = runs.iter().map(|r| r.gradients).sum();
        md.push_str(&format!(
            "\n## Runs\n\n{converged} of {n} converged (R̂ < {RHAT_LIMIT} for every parameter). \
             Total: {total_time:.0} s of run time, {gradients} gradients.\n\n\
             | run | network SNR | max R̂ | min bulk ESS | draws per chain | gradients | densities | wall (s) |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|\n"
        ));
        for r in runs {
            let flag = if r.converged() {
                ""
            } else {
                " **(not converged)**"
            };
            md.push_str(&format!(
                "| {}{flag} | {:.1} | {:.3} | {:.0} | {} | {} | {} | {:.1} |\n",
                r.name,
                r.network_snr,
                r.max_rhat,
                r.min_ess_bulk,
                r.draws,
                r.gradients,
                r.densities,
                r.wall_time
            ));
        }
        if !failed.is_empty() {
            md.push_str("\n## Failed runs\n\n");
            for f in failed {
                md.push_str(&format!("- {}: {}\n", f.name, f.reason));
            }
        }
        md
    }
}

/// Writes the PP test of the runs in `dir` (the output files `pp.json`, `pp.md` and `pp.png`
/// there) and returns a line that sums it up.
pub fn write_report(dir: &Path) -> anyhow::Result<String> {
    let (runs, failed) = read_runs(dir)?;
    let test = PpTest::new(&runs)?;
    atomic::write_bytes(
        &dir.join("pp.json"),
        test.to_json(&runs, &failed).as_bytes(),
    )?;
    atomic::write_bytes(
        &dir.join("pp.md"),
        test.to_markdown(&runs, &failed).as_bytes(),
    )?;
    pp_plot::write(&test, &dir.join("pp.png"))?;
    let lowest = test
        .parameters
        .iter()
        .zip(&test.pvalues)
        .min_by(|a, b| a.1.total_cmp(b.1))
        .map_or_else(String::new, |(p, v)| format!(", lowest {p} {v:.3}"));
    Ok(format!(
        "tdpe pp: {} runs ({} failed, {} not converged): combined p-value {:.3}{lowest}; \
         pp.png, pp.md and pp.json in {}",
        runs.len(),
        failed.len(),
        runs.iter().filter(|r| !r.converged()).count(),
        test.combined_pvalue,
        dir.display()
    ))
}

/// The share of a parameter's levels below each of `grid`'s values: the PP curve.
pub fn pp_curve(levels: &[f64], grid: &[f64]) -> Vec<f64> {
    let mut sorted = levels.to_vec();
    sorted.sort_by(f64::total_cmp);
    grid.iter()
        .map(|&x| sorted.partition_point(|&l| l < x) as f64 / sorted.len().max(1) as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result.json with the given posterior of chirp_mass and psi (psi fixed by a
    /// DeltaFunction when `fixed_psi`).
    fn result(draws: &[f64], truth: f64, rhat: f64, fixed_psi: bool) -> Value {
        let psi_prior = if fixed_psi {
            "DeltaFunction(peak=1.0, name='psi')"
        } else {
            "Uniform(minimum=0.0, maximum=3.14, name='psi')"
        };
        serde_json::json!({
            "priors": {
                "chirp_mass": "UniformInComponentsChirpMass(minimum=20.0, maximum=40.0)",
                "mass_1": "Constraint(minimum=10.0, maximum=80.0, name='mass_1')",
                "psi": psi_prior,
                "__prior_dict__": true
            },
            "posterior": {"content": {"chirp_mass": draws, "psi": draws}},
            "injection_parameters": {"chirp_mass": truth, "psi": truth},
            "meta_data": {
                "interrupted": false,
                "diagnostics": {"rhat": {"chirp_mass": rhat, "psi": 1.0},
                                "ess_bulk": {"chirp_mass": 900.0, "psi": 500.0}},
                "likelihood": {"interferometers": {"H1": {"optimal_SNR": 3.0},
                                                   "L1": {"optimal_SNR": 4.0}}},
                "chains": {"num_draws": [10, 10]},
                "gradient_evaluations": 1000,
                "density_evaluations": 10,
                "total_time": 2.5
            }
        })
    }

    /// The record takes the parameters with free priors in the model's order, each credible
    /// level as the share of draws below the truth, and the run's convergence and cost.
    #[test]
    fn records_read_levels_convergence_and_cost() {
        let draws: Vec<f64> = (0..10).map(f64::from).collect();
        let record = RunRecord::from_result(&result(&draws, 2.5, 1.02, false), "a".into()).unwrap();
        assert_eq!(record.parameters, ["chirp_mass", "psi"]);
        assert_eq!(record.credible_levels, [0.3, 0.3]);
        assert_eq!(record.network_snr, 5.0);
        assert_eq!((record.max_rhat, record.min_ess_bulk), (1.02, 500.0));
        assert_eq!(
            (record.draws, record.gradients, record.densities),
            (10, 1000, 10)
        );
        assert!(!record.converged());
        let mut unknown = result(&draws, 2.5, 1.0, false);
        unknown["meta_data"]["diagnostics"]["rhat"]["chirp_mass"] = Value::Null;
        let unknown = RunRecord::from_result(&unknown, "n".into()).unwrap();
        assert!(unknown.max_rhat.is_nan() && !unknown.converged());
        let fixed = RunRecord::from_result(&result(&draws, 2.5, 1.0, true), "b".into()).unwrap();
        assert_eq!(fixed.parameters, ["chirp_mass"]);
        let mut interrupted = result(&draws, 2.5, 1.0, false);
        interrupted["meta_data"]["interrupted"] = Value::Bool(true);
        assert!(RunRecord::from_result(&interrupted, "c".into()).is_err());
    }

    /// Coverage counts the levels inside [0.05, 0.95]; the PP curve is the levels' empirical
    /// CDF; runs with other parameters cannot be tested together.
    #[test]
    fn coverage_curve_and_mixed_priors() {
        let draws: Vec<f64> = (0..100).map(f64::from).collect();
        let runs: Vec<RunRecord> = [1.5, 50.5, 97.5, 30.5]
            .iter()
            .map(|&t| RunRecord::from_result(&result(&draws, t, 1.0, false), "r".into()).unwrap())
            .collect();
        let test = PpTest::new(&runs).unwrap();
        assert_eq!(test.levels[0], [0.02, 0.51, 0.98, 0.31]);
        assert_eq!(test.coverage, [0.5, 0.5]);
        assert_eq!(
            pp_curve(&test.levels[0], &[0.0, 0.3, 0.5, 0.99, 1.0]),
            [0.0, 0.25, 0.5, 1.0, 1.0]
        );
        let other = RunRecord::from_result(&result(&draws, 3.0, 1.0, true), "o".into()).unwrap();
        let e = PpTest::new(&[runs[0].clone(), other])
            .unwrap_err()
            .to_string();
        assert!(e.contains("different parameters"), "{e}");
        assert!(PpTest::new(&[]).is_err());
    }
}
