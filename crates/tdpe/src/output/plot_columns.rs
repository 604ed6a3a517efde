//! What the corner and trace plots show of the posterior: the sampled parameters in bilby's
//! names, with `geocent_time` shown relative to the trigger time (absolute GPS times spread
//! over milliseconds make unreadable ticks), and the injected values where there are any.

use super::labels;
use crate::run_result::RunResult;

/// One plotted parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct PlotColumn {
    /// bilby name.
    pub name: String,
    /// Axis label (symbol and unit, and the time origin for `geocent_time`).
    pub label: String,
    /// What the values are, without unit: the symbol, or `t_c − <trigger time>`.
    pub quantity: String,
    /// The draws, shifted for `geocent_time`.
    pub values: Vec<f64>,
    /// The injected value, shifted like the draws.
    pub truth: Option<f64>,
}

/// The sampled parameters and a marginalised distance and phase (drawn afterwards), present in the
/// posterior, in bilby's order.
pub fn sampled(result: &RunResult) -> Vec<PlotColumn> {
    let shown = |name: &str| {
        result.search_parameter_keys.iter().any(|k| k == name)
            || (name == "luminosity_distance" && result.sampler_kwargs.distance_marginalization)
            || (name == "phase" && result.sampler_kwargs.phase_marginalization)
    };
    result
        .parameter_names
        .iter()
        .filter(|name| shown(name))
        .filter_map(|name| column(result, name))
        .collect()
}

/// The warm-up states of `name` (chain after chain, as `result.warmup.chain`), shifted as
/// [`column`] shifts the draws, if the warm-up table has it.
pub fn warmup_values(result: &RunResult, name: &str) -> Option<Vec<f64>> {
    let values = result.warmup.column(name)?;
    let origin = if name == "geocent_time" {
        result.trigger_time
    } else {
        0.0
    };
    Some(values.iter().map(|v| v - origin).collect())
}

/// The column `name` as plotted, if the posterior has it.
pub fn column(result: &RunResult, name: &str) -> Option<PlotColumn> {
    let values = result.posterior.column(name)?;
    let truth = result.injected(name);
    if name == "geocent_time" {
        let t0 = result.trigger_time;
        Some(PlotColumn {
            name: name.to_string(),
            label: format!("{} − {t0} [s]", labels::symbol(name)),
            quantity: format!("{} − {t0}", labels::symbol(name)),
            values: values.iter().map(|t| t - t0).collect(),
            truth: truth.map(|t| t - t0),
        })
    } else {
        Some(PlotColumn {
            name: name.to_string(),
            label: labels::plain_with_unit(name),
            quantity: labels::symbol(name).to_string(),
            values: values.to_vec(),
            truth,
        })
    }
}
