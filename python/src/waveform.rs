//! `tdpe.waveform`: the polarisations or the modes of one binary on LAL's time grid, as
//! `tdpe waveform` computes them (its `table`).

use std::path::PathBuf;

use numpy::Complex64;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tdpe::commands::waveform::{model, table, Args};
use tdpe::waveform_model::Approximant;

use crate::to_py_err;

/// h₊ and h× of a compact binary with aligned spins on LAL's time grid (that of
/// `SimInspiralChooseTDWaveform`): a dict with "time" (s, relative to the peak of |h22|),
/// "plus" and "cross". With `modes=True`, the modes instead, as LAL's
/// `SimInspiralChooseTDModes` gives them: "time" and (l, m) → complex h_lm for m > 0
/// (h_{l,−m} = (−1)^l conj(h_lm)).
///
/// With `times` (s, relative to the peak of |h22|, any values), the same at those times instead
/// of LAL's grid: the model is in closed form at any time, so no grid is generated.
///
/// Masses in M☉ (detector frame), distance in Mpc, angles in rad, frequencies in Hz;
/// `reference_frequency` defaults to `minimum_frequency`; `mode_array` is bilby's list of
/// [l, m] (each with its −m), by default every mode of the approximant.
#[pyfunction]
#[pyo3(signature = (
    mass_1, mass_2, luminosity_distance, *, chi_1 = 0.0, chi_2 = 0.0, theta_jn = 0.0,
    phase = 0.0, sampling_frequency = 4096.0, minimum_frequency = 20.0,
    reference_frequency = None, approximant = "IMRPhenomT", mode_array = None, modes = false,
    times = None
))]
#[allow(clippy::too_many_arguments)]
pub fn waveform<'py>(
    py: Python<'py>,
    mass_1: f64,
    mass_2: f64,
    luminosity_distance: f64,
    chi_1: f64,
    chi_2: f64,
    theta_jn: f64,
    phase: f64,
    sampling_frequency: f64,
    minimum_frequency: f64,
    reference_frequency: Option<f64>,
    approximant: &str,
    mode_array: Option<Vec<[i32; 2]>>,
    modes: bool,
    times: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let approximant: Approximant = approximant.parse().map_err(PyValueError::new_err)?;
    let args = Args {
        approximant,
        mass_1,
        mass_2,
        chi_1,
        chi_2,
        luminosity_distance,
        inclination: theta_jn,
        phase,
        sampling_frequency,
        minimum_frequency,
        reference_frequency,
        mode_array: mode_array.map(|pairs| {
            let pairs: Vec<String> = pairs.iter().map(|[l, m]| format!("[{l},{m}]")).collect();
            format!("[{}]", pairs.join(","))
        }),
        modes,
        output: PathBuf::from("-"),
    };
    if let Some(times) = times {
        let times = times.as_array().to_vec();
        return at_times(py, &args, times);
    }
    let table = py.detach(|| table(&args)).map_err(to_py_err)?;
    let samples = table.columns.first().map_or(0, Vec::len);
    let epoch = table.epoch_ns as f64 * 1e-9;
    let time: Vec<f64> = (0..samples)
        .map(|k| epoch + k as f64 * table.delta_t)
        .collect();
    let out = PyDict::new(py);
    out.set_item("time", time.into_pyarray(py))?;
    if modes {
        // Columns come in (re, im) pairs, named h{l}{m}_re / h{l}{m}_im in LAL's order.
        let names = table.header[1..].chunks(2);
        for (name, pair) in names.zip(table.columns.chunks(2)) {
            let digits: Vec<u32> = name[0]
                .trim_start_matches('h')
                .trim_end_matches("_re")
                .chars()
                .filter_map(|c| c.to_digit(10))
                .collect();
            let h: Vec<Complex64> = pair[0]
                .iter()
                .zip(&pair[1])
                .map(|(&re, &im)| Complex64::new(re, im))
                .collect();
            out.set_item((digits[0], digits[1]), PyArray1::from_vec(py, h))?;
        }
    } else {
        let mut columns = table.columns.into_iter();
        out.set_item("plus", columns.next().unwrap_or_default().into_pyarray(py))?;
        out.set_item("cross", columns.next().unwrap_or_default().into_pyarray(py))?;
    }
    Ok(out)
}

/// The polarisations (or the modes) of `args` at `times` (s from the peak), with the checks of
/// `tdpe waveform` (which makes the model, so that an out-of-range binary fails as there).
fn at_times<'py>(py: Python<'py>, args: &Args, times: Vec<f64>) -> PyResult<Bound<'py, PyDict>> {
    if let Some(t) = times.iter().find(|t| !t.is_finite()) {
        return Err(PyValueError::new_err(format!(
            "times: {t} is not a finite time"
        )));
    }
    let model = py.detach(|| model(args)).map_err(to_py_err)?;
    let out = PyDict::new(py);
    if args.modes {
        let scale = 1.0 / args.luminosity_distance;
        let values: Vec<Vec<(f64, f64)>> =
            py.detach(|| times.iter().map(|&t| model.modes_at(t)).collect());
        for (k, mode) in model.modes().iter().enumerate() {
            let h: Vec<Complex64> = values
                .iter()
                .map(|v| Complex64::new(v[k].0 * scale, v[k].1 * scale))
                .collect();
            out.set_item(mode.lm(), PyArray1::from_vec(py, h))?;
        }
    } else {
        let (plus, cross): (Vec<f64>, Vec<f64>) = py.detach(|| {
            times
                .iter()
                .map(|&t| {
                    model.polarizations(t, args.luminosity_distance, args.inclination, args.phase)
                })
                .unzip()
        });
        out.set_item("plus", plus.into_pyarray(py))?;
        out.set_item("cross", cross.into_pyarray(py))?;
    }
    out.set_item("time", times.into_pyarray(py))?;
    Ok(out)
}
