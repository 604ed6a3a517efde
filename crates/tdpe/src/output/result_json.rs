//! `result.json` in bilby's result layout (`bilby.core.result.Result.save_to_file`), readable
//! by `bilby.core.result.read_in_result`.
//!
//! bilby's JSON conventions followed here: the posterior is a pandas DataFrame encoded as
//! `{"__dataframe__": true, "content": {column: [values]}}`; the priors are a `PriorDict`
//! tagged with `__prior_dict__`, `__module__`, `__name__`, whose entries are bilby prior reprs
//! (strings such as `Uniform(minimum=0, maximum=1, name='x')`, which `PriorDict` parses on
//! load); `sampling_time` is a `datetime.timedelta` tagged `__timedelta__`; quantities an MCMC
//! run does not compute (the evidence) are NaN, written as Python writes NaN.
//!
//! Beyond bilby's keys, `meta_data` carries the run's own record: the per-detector SNRs where
//! bilby's GW likelihood puts them (`meta_data.likelihood.interferometers.<IFO>.optimal_SNR`),
//! `sampling_time` and `total_time` in s, `versions`, `diagnostics` (`rhat`, `ess_bulk`,
//! `ess_tail` keyed by parameter), `not_applied` (the requested sampling coordinates and jumps
//! that the priors did not allow, each `{"option", "reason"}`), the per-chain sampler
//! statistics and the configuration.

use std::path::Path;

use super::atomic;
use super::json::Json;
use super::labels;
use crate::run_result::{NamedValue, RunResult};

/// Writes `result.json` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    let text = document(result)?.to_pretty_string();
    atomic::write_bytes(path, text.as_bytes())
}

/// The whole document, keys in bilby's order.
fn document(result: &RunResult) -> anyhow::Result<Json> {
    let search = &result.search_parameter_keys;
    let fixed: Vec<Json> = result
        .priors
        .iter()
        .filter(|p| p.fixed)
        .map(|p| Json::str(&p.name))
        .collect();
    let constraints: Vec<Json> = result
        .priors
        .iter()
        .filter(|p| p.repr.starts_with("Constraint("))
        .map(|p| Json::str(&p.name))
        .collect();
    // Thermodynamic integration over the tempering ladder; NaN (as bilby writes) otherwise.
    let (ln_bayes_factor, ln_bayes_factor_err) = result
        .tempering
        .as_ref()
        .and_then(|t| t.ln_bayes_factor)
        .unwrap_or((f64::NAN, f64::NAN));
    Ok(Json::object([
        ("label", Json::str(&result.label)),
        ("outdir", Json::str(result.outdir.to_string_lossy())),
        ("sampler", Json::str(&result.sampler)),
        (
            "log_evidence",
            Json::Float(ln_bayes_factor + result.log_noise_evidence),
        ),
        ("log_evidence_err", Json::Float(ln_bayes_factor_err)),
        ("log_noise_evidence", Json::Float(result.log_noise_evidence)),
        ("log_bayes_factor", Json::Float(ln_bayes_factor)),
        ("priors", priors(result)),
        ("posterior", posterior(result)),
        (
            "injection_parameters",
            result
                .injection_parameters
                .as_deref()
                .map_or(Json::Null, named_values),
        ),
        ("meta_data", meta_data(result)?),
        (
            "search_parameter_keys",
            Json::Array(search.iter().map(Json::str).collect()),
        ),
        ("fixed_parameter_keys", Json::Array(fixed)),
        ("constraint_parameter_keys", Json::Array(constraints)),
        ("sampling_time", timedelta(result.sampling_time_s)),
        (
            "sampler_kwargs",
            Json::from_serde(serde_json::to_value(&result.sampler_kwargs)?),
        ),
        ("use_ratio", Json::Bool(true)),
        (
            "parameter_labels",
            Json::Array(search.iter().map(|n| Json::str(labels::latex(n))).collect()),
        ),
        (
            "parameter_labels_with_unit",
            Json::Array(
                search
                    .iter()
                    .map(|n| Json::str(labels::latex_with_unit(n)))
                    .collect(),
            ),
        ),
        ("version", Json::str(format!("tdpe={}", result.version))),
    ]))
}

/// The priors as a bilby `PriorDict` of repr strings (bilby parses them when loading).
fn priors(result: &RunResult) -> Json {
    let mut entries: Vec<(String, Json)> = result
        .priors
        .iter()
        .map(|p| (p.name.clone(), Json::str(&p.repr)))
        .collect();
    entries.push(("__prior_dict__".into(), Json::Bool(true)));
    entries.push(("__module__".into(), Json::str("bilby.core.prior.dict")));
    entries.push(("__name__".into(), Json::str("PriorDict")));
    Json::Object(entries)
}

/// The posterior as bilby's encoded DataFrame (columns in the table's order).
fn posterior(result: &RunResult) -> Json {
    let columns = result
        .posterior
        .columns
        .iter()
        .map(|c| (c.name.clone(), Json::floats(&c.values)));
    Json::object([
        ("__dataframe__", Json::Bool(true)),
        ("content", Json::Object(columns.collect())),
    ])
}

fn named_values(values: &[NamedValue]) -> Json {
    Json::Object(
        values
            .iter()
            .map(|v| (v.name.clone(), Json::Float(v.value)))
            .collect(),
    )
}

/// A duration as bilby encodes a `datetime.timedelta`.
fn timedelta(seconds: f64) -> Json {
    Json::object([
        ("__timedelta__", Json::Bool(true)),
        ("__total_seconds__", Json::Float(seconds)),
    ])
}

fn meta_data(result: &RunResult) -> anyhow::Result<Json> {
    let interferometers = result.detectors.iter().map(|d| {
        let entry = Json::object([
            ("optimal_SNR", Json::Float(d.optimal_snr)),
            ("matched_filter_SNR", Json::Float(d.matched_filter_snr)),
            ("psd", Json::str(&d.psd)),
            (
                "relative_binning_nodes",
                Json::count(d.relative_binning_nodes),
            ),
        ]);
        (d.name.clone(), entry)
    });
    let likelihood = Json::object([
        ("interferometers", Json::Object(interferometers.collect())),
        ("time_marginalization", Json::Bool(false)),
        (
            "phase_marginalization",
            Json::Bool(result.sampler_kwargs.phase_marginalization),
        ),
        (
            "distance_marginalization",
            Json::Bool(result.sampler_kwargs.distance_marginalization),
        ),
        (
            "waveform_arguments",
            Json::object([
                ("waveform_approximant", Json::str(&result.approximant)),
                (
                    "reference_frequency",
                    Json::Float(result.reference_frequency),
                ),
                ("minimum_frequency", Json::Float(result.minimum_frequency)),
            ]),
        ),
        ("sampling_frequency", Json::Float(result.sampling_frequency)),
        ("duration", Json::Float(result.duration)),
        ("start_time", Json::Float(result.start_time)),
        ("trigger_time", Json::Float(result.trigger_time)),
        ("time_reference", Json::str("geocent")),
        (
            "fiducial_parameters",
            named_values(&result.fiducial_parameters),
        ),
        (
            "fiducial_log_likelihood",
            Json::Float(result.fiducial_log_likelihood),
        ),
        (
            "relative_binning",
            Json::from_serde(serde_json::to_value(&result.relative_binning)?),
        ),
    ]);
    let diagnostic = |pick: fn(&crate::run_result::ParamDiagnostics) -> f64| {
        Json::Object(
            result
                .diagnostics
                .iter()
                .map(|(n, d)| (n.clone(), Json::Float(pick(d))))
                .collect(),
        )
    };
    let diagnostics = Json::object([
        ("rhat", diagnostic(|d| d.rhat)),
        ("ess_bulk", diagnostic(|d| d.ess_bulk)),
        ("ess_tail", diagnostic(|d| d.ess_tail)),
    ]);
    let chains = result
        .chains
        .iter()
        .map(|c| serde_json::to_value(c).map(Json::from_serde))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Json::object([
        ("likelihood", likelihood),
        ("sampling_time", Json::Float(result.sampling_time_s)),
        ("total_time", Json::Float(result.total_time_s)),
        (
            "gradient_evaluations",
            Json::count(result.gradient_evaluations),
        ),
        ("interrupted", Json::Bool(result.interrupted)),
        (
            "versions",
            Json::object([("tdpe", Json::str(&result.version))]),
        ),
        ("diagnostics", diagnostics),
        (
            "not_applied",
            Json::from_serde(serde_json::to_value(&result.not_applied)?),
        ),
        ("chains", Json::Array(chains)),
        (
            "tempering",
            match &result.tempering {
                Some(t) => Json::from_serde(serde_json::to_value(t)?),
                None => Json::Null,
            },
        ),
        ("config", Json::str(&result.config_toml)),
    ]))
}
