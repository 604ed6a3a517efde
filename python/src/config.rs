//! A run configuration from Python: a TOML file or the embedded default, with overrides given
//! as a dict of dotted keys (`{"sampler.num_draws": 500}`), checked as the file's own keys are.

use std::path::Path;

use anyhow::{bail, Context};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use tdpe::config::{Config, DEFAULT_CONFIG};

use crate::to_py_err;

/// The embedded default configuration (the GW150914-like injection run), as TOML text: the
/// template `tdpe config` prints.
#[pyfunction]
pub fn default_config() -> &'static str {
    DEFAULT_CONFIG
}

/// The `[sampler]` table of the embedded default configuration: every setting the sampler
/// takes, with its default value (the keyword arguments of the bilby sampler plugin).
#[pyfunction]
pub fn default_sampler_settings(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let table: toml::Table = toml::from_str(DEFAULT_CONFIG)
        .map_err(|e| to_py_err(anyhow::anyhow!("the embedded default configuration: {e}")))?;
    let settings = PyDict::new(py);
    if let Some(toml::Value::Table(sampler)) = table.get("sampler") {
        for (key, value) in sampler {
            settings.set_item(key, python_value(py, value)?)?;
        }
    }
    Ok(settings)
}

/// A TOML scalar or array as a Python object.
fn python_value<'py>(py: Python<'py>, value: &toml::Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        toml::Value::Boolean(b) => b.into_pyobject(py)?.to_owned().into_any(),
        toml::Value::Integer(i) => i.into_pyobject(py)?.into_any(),
        toml::Value::Float(x) => x.into_pyobject(py)?.into_any(),
        toml::Value::String(s) => s.into_pyobject(py)?.into_any(),
        toml::Value::Array(items) => PyList::new(
            py,
            items
                .iter()
                .map(|v| python_value(py, v))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        other => other.to_string().into_pyobject(py)?.into_any(),
    })
}

/// The configuration `source` names (`"default"` or a TOML file's path) with `overrides`.
pub fn load(source: &str, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Config> {
    let (text, name, base) = if source == "default" {
        (
            DEFAULT_CONFIG.to_string(),
            "(embedded default)".to_string(),
            Path::new(".").to_path_buf(),
        )
    } else {
        let path = Path::new(source);
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config file {source}"))
            .map_err(to_py_err)?;
        let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        (text, source.to_string(), base)
    };
    let text = match overrides {
        Some(overrides) if !overrides.is_empty() => {
            let mut table: toml::Table = toml::from_str(&text)
                .with_context(|| format!("invalid configuration {name}"))
                .map_err(to_py_err)?;
            for (key, value) in overrides.iter() {
                let key: String = key
                    .extract()
                    .map_err(|_| to_py_err(anyhow::anyhow!("override keys must be strings")))?;
                let value = toml_value(&value)
                    .with_context(|| format!("override {key}"))
                    .map_err(to_py_err)?;
                set_dotted(&mut table, &key, value).map_err(to_py_err)?;
            }
            toml::to_string(&table)
                .context("cannot write the overridden configuration")
                .map_err(to_py_err)?
        }
        _ => text,
    };
    let source = match overrides {
        Some(o) if !o.is_empty() => format!("{name} with overrides"),
        _ => name,
    };
    let config = Config::parse(&text, &source, &base).map_err(to_py_err)?;
    config.validate().map_err(to_py_err)?;
    Ok(config)
}

/// Sets `key` (`section.name`, or a top-level name) in `table`, creating sections as needed.
fn set_dotted(table: &mut toml::Table, key: &str, value: toml::Value) -> anyhow::Result<()> {
    let mut parts: Vec<&str> = key.split('.').collect();
    let last = parts.pop().filter(|s| !s.is_empty());
    let Some(last) = last else {
        bail!("override key {key:?} is empty");
    };
    let mut section = table;
    for part in parts {
        let entry = section
            .entry(part)
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        section = match entry {
            toml::Value::Table(t) => t,
            _ => bail!("override {key}: {part} is a value, not a section"),
        };
    }
    section.insert(last.to_string(), value);
    Ok(())
}

/// The TOML value of a Python bool, int, float, str, or a list/tuple/dict of them.
fn toml_value(value: &Bound<'_, PyAny>) -> anyhow::Result<toml::Value> {
    // bool before int: Python's bool is an int.
    if value.is_instance_of::<PyBool>() {
        return Ok(toml::Value::Boolean(value.extract()?));
    }
    if value.is_instance_of::<PyInt>() {
        return Ok(toml::Value::Integer(value.extract()?));
    }
    if value.is_instance_of::<PyFloat>() {
        return Ok(toml::Value::Float(value.extract()?));
    }
    if value.is_instance_of::<PyString>() {
        return Ok(toml::Value::String(value.extract()?));
    }
    if value.is_instance_of::<PyList>() || value.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = value.extract()?;
        return Ok(toml::Value::Array(
            items
                .iter()
                .map(toml_value)
                .collect::<anyhow::Result<_>>()?,
        ));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut table = toml::Table::new();
        for (k, v) in dict.iter() {
            table.insert(k.extract()?, toml_value(&v)?);
        }
        return Ok(toml::Value::Table(table));
    }
    bail!(
        "{} is not a bool, int, float, str, list or dict",
        value.get_type().name()?
    )
}
