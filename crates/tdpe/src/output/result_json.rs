//! `result.json` in bilby's result layout (`bilby.core.result.Result.save_to_file`), readable
//! by `bilby.core.result.read_in_result`.
//!
//! bilby's JSON conventions followed here: the posterior is a pandas DataFrame encoded as
//! `{"__dataframe__": true, "content": {column: [values]}}`; the priors are a `BBHPriorDict`
//! tagged with `__prior_dict__`, `__module__`, `__name__`, whose entries are bilby prior reprs
//! (strings such as `Uniform(minimum=0, maximum=1, name='x')`, which `PriorDict` parses on
//! load); `version` names the bilby release whose layout this is (PESummary picks its bilby
//! reader by it); classes and functions (the waveform generator's, for `CBCResult`) are
//! `{"__class__" or "__function__": true, "__module__", "__name__"}`; `log_noise_evidence` is
//! −½Σ⟨d|d⟩ as bilby's is; `sampling_time` is a `datetime.timedelta` tagged `__timedelta__`; quantities an MCMC
//! run does not compute (the evidence) are NaN, written as Python writes NaN.
//!
//! Beyond bilby's keys, `meta_data` carries the run's own record: the per-detector SNRs where
//! bilby's GW likelihood puts them (`meta_data.likelihood.interferometers.<IFO>.optimal_SNR`),
//! `setup_time`, `sampling_time` and `total_time` in s, `versions`, `diagnostics` (`rhat`, `ess_bulk`,
//! `ess_tail` keyed by parameter), `not_applied` (the requested sampling coordinates and jumps
//! that the priors did not allow: reason keyed by option), the per-chain sampler statistics
//! (`chains`: one list per statistic, in chain order, as bilby's HDF5 writer can store them),
//! the normalised noise log-likelihood and the configuration.

use std::path::Path;

use super::atomic;
use super::json::Json;
use super::labels;
use crate::run_result::{NamedValue, RunResult};
use tdpe_mcmc::ChainSummary;

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
        // PESummary reads a file as bilby's when `version` names bilby (and warns when the
        // release differs from its own); tdpe's own version is in meta_data.versions.
        ("version", Json::str(format!("bilby={BILBY_RELEASE}"))),
    ]))
}

/// The bilby release whose result layout result.json follows, tested with
/// `tools/check_bilby_result.py`.
pub const BILBY_RELEASE: &str = "2.8.2";

/// The priors as a bilby `BBHPriorDict` of repr strings (bilby parses them when loading); a
/// `BBHPriorDict`, unlike a plain `PriorDict`, applies the mass constraints when it samples.
fn priors(result: &RunResult) -> Json {
    let mut entries: Vec<(String, Json)> = result
        .priors
        .iter()
        .map(|p| (p.name.clone(), Json::str(&p.repr)))
        .collect();
    entries.push(("__prior_dict__".into(), Json::Bool(true)));
    entries.push(("__module__".into(), Json::str("bilby.gw.prior")));
    entries.push(("__name__".into(), Json::str("BBHPriorDict")));
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

/// A Python class or function as bilby's JSON encoder writes one (`tag` is `__class__` or
/// `__function__`).
fn python_object(tag: &str, module: &str, name: &str) -> Json {
    Json::object([
        (tag, Json::Bool(true)),
        ("__module__", Json::str(module)),
        ("__name__", Json::str(name)),
    ])
}

/// The per-chain statistics as one list per statistic, in chain order: bilby's HDF5 writer
/// stores lists of numbers, not lists of objects.
fn per_chain_columns(chains: &[ChainSummary]) -> anyhow::Result<Json> {
    let rows = chains
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()?;
    let names: Vec<String> = rows
        .first()
        .and_then(|row| row.as_object())
        .map(|fields| fields.keys().cloned().collect())
        .unwrap_or_default();
    Ok(Json::Object(
        names
            .into_iter()
            .map(|name| {
                let values = rows.iter().map(|row| row[&name].clone()).collect();
                (name, Json::from_serde(serde_json::Value::Array(values)))
            })
            .collect(),
    ))
}

/// The options that did not apply, keyed by option (reasons joined where one has several).
fn not_applied(result: &RunResult) -> Json {
    let mut reasons: Vec<(String, String)> = Vec::new();
    for n in &result.not_applied {
        match reasons.iter_mut().find(|(option, _)| option == n.option) {
            Some((_, reason)) => *reason = format!("{reason}; {}", n.reason),
            None => reasons.push((n.option.to_string(), n.reason.to_string())),
        }
    }
    Json::Object(
        reasons
            .into_iter()
            .map(|(option, reason)| (option, Json::str(reason)))
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

/// A bilby_pipe frequency dict as its ini file writes it, `{'H1': 20.0, 'L1': 20.0}`, of `edge`
/// per detector, with a `waveform` entry where given.
fn band_dict(
    result: &RunResult,
    edge: fn(&crate::run_result::DetectorInfo) -> f64,
    waveform: Option<f64>,
) -> String {
    let entries: Vec<String> = result
        .detectors
        .iter()
        .map(|d| format!("'{}': {:?}", d.name, edge(d)))
        .chain(waveform.map(|f| format!("'waveform': {f:?}")))
        .collect();
    format!("{{{}}}", entries.join(", "))
}

fn meta_data(result: &RunResult) -> anyhow::Result<Json> {
    let interferometers = result.detectors.iter().map(|d| {
        let entry = Json::object([
            ("optimal_SNR", Json::Float(d.optimal_snr)),
            ("matched_filter_SNR", Json::Float(d.matched_filter_snr)),
            ("minimum_frequency", Json::Float(d.minimum_frequency)),
            ("maximum_frequency", Json::Float(d.maximum_frequency)),
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
                ("maximum_frequency", Json::Float(result.maximum_frequency)),
                (
                    "mode_array",
                    Json::Array(
                        result
                            .mode_array
                            .iter()
                            .map(|&[l, m]| {
                                Json::Array(vec![Json::Int(l.into()), Json::Int(m.into())])
                            })
                            .collect(),
                    ),
                ),
            ]),
        ),
        ("sampling_frequency", Json::Float(result.sampling_frequency)),
        ("duration", Json::Float(result.duration)),
        // Not a key of bilby's likelihood: PESummary copies this table's numbers into its meta
        // data, where it looks for the frequency resolution (else it warns and takes 1/256 Hz).
        ("delta_f", Json::Float(1.0 / result.duration)),
        ("start_time", Json::Float(result.start_time)),
        ("trigger_time", Json::Float(result.trigger_time)),
        // bilby's record of the sampled sky and time coordinates; the posterior holds ra, dec
        // and geocent_time whatever they were.
        (
            "time_reference",
            Json::str(&result.sky_choices.time_reference),
        ),
        (
            "reference_frame",
            Json::str(&result.sky_choices.reference_frame),
        ),
        // What bilby's `CBCResult` rebuilds a waveform generator from: bilby's own
        // frequency-domain model of the same approximant (LAL's conditioning of IMRPhenomT).
        (
            "waveform_generator_class",
            python_object(
                "__class__",
                "bilby.gw.waveform_generator",
                "WaveformGenerator",
            ),
        ),
        (
            "frequency_domain_source_model",
            python_object("__function__", "bilby.gw.source", "lal_binary_black_hole"),
        ),
        ("time_domain_source_model", Json::Null),
        (
            "parameter_conversion",
            python_object(
                "__function__",
                "bilby.gw.conversion",
                "convert_to_lal_binary_black_hole_parameters",
            ),
        ),
        ("waveform_generator_meta_data", Json::Object(Vec::new())),
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
    let chains = per_chain_columns(&result.chains)?;

    Ok(Json::object([
        ("likelihood", likelihood),
        ("setup_time", Json::Float(result.setup_time_s)),
        ("sampling_time", Json::Float(result.sampling_time_s)),
        ("total_time", Json::Float(result.total_time_s)),
        (
            "gradient_evaluations",
            Json::count(result.gradient_evaluations),
        ),
        (
            "density_evaluations",
            Json::count(result.density_evaluations),
        ),
        ("interrupted", Json::Bool(result.interrupted)),
        (
            "versions",
            Json::object([("tdpe", Json::str(&result.version))]),
        ),
        ("diagnostics", diagnostics),
        (
            "log_noise_evidence_normalised",
            Json::Float(result.log_noise_evidence_normalised),
        ),
        ("not_applied", not_applied(result)),
        (
            "sky_reflection",
            result
                .sky_choices
                .sky_reflection
                .as_deref()
                .map_or(Json::Null, Json::str),
        ),
        (
            "data_sources",
            Json::Array(result.data_sources.iter().map(Json::str).collect()),
        ),
        ("chains", chains),
        (
            "tempering",
            match &result.tempering {
                Some(t) => Json::from_serde(serde_json::to_value(t)?),
                None => Json::Null,
            },
        ),
        // The frequency band and approximant where PESummary looks for them, in bilby_pipe's
        // record of its command line: the bands as bilby_pipe's per-detector dicts, with the
        // waveform's start frequency as their `waveform` entry (PESummary's f_start).
        (
            "command_line_args",
            Json::object([
                (
                    "minimum_frequency",
                    Json::str(band_dict(
                        result,
                        |d| d.minimum_frequency,
                        Some(result.minimum_frequency),
                    )),
                ),
                (
                    "maximum_frequency",
                    Json::str(band_dict(result, |d| d.maximum_frequency, None)),
                ),
                (
                    "reference_frequency",
                    Json::Float(result.reference_frequency),
                ),
                ("waveform_approximant", Json::str(&result.approximant)),
                (
                    "injection_waveform_approximant",
                    match &result.injection_model {
                        Some((approximant, _)) => Json::str(approximant),
                        None => Json::Null,
                    },
                ),
            ]),
        ),
        ("config", Json::str(&result.config_toml)),
    ]))
}
