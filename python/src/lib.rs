//! The Python package `tdpe` (module `tdpe._native`): the waveform, detector responses, the
//! likelihood and the run of the `tdpe` command line, on the same code path (docs/python.md).
//!
//! Every function releases the GIL while Rust works; errors become Python exceptions
//! ([`to_py_err`]): `OSError` for files, `ValueError` for everything a user gave.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

mod config;
mod detector;
mod likelihood;
mod parameters;
mod run;
mod waveform;

/// The exception for an error of tdpe's: the whole chain of causes in one message, as the
/// command line prints it.
fn to_py_err(error: anyhow::Error) -> PyErr {
    let message = format!("{error:#}");
    if error.chain().any(|cause| cause.is::<std::io::Error>()) {
        PyOSError::new_err(message)
    } else {
        PyValueError::new_err(message)
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "PARAMETER_NAMES",
        parameters::ALIGNED_PARAMETERS
            .iter()
            .map(|p| p.name().to_string())
            .collect::<Vec<_>>(),
    )?;
    m.add_class::<likelihood::Likelihood>()?;
    m.add_function(wrap_pyfunction!(waveform::waveform, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(detector::antenna_response, m)?)?;
    m.add_function(wrap_pyfunction!(detector::time_delay_from_geocenter, m)?)?;
    m.add_function(wrap_pyfunction!(config::default_config, m)?)?;
    m.add_function(wrap_pyfunction!(config::default_sampler_settings, m)?)?;
    Ok(())
}
