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

/// h₊ and h× of a compact binary on LAL's time grid (that of `SimInspiralChooseTDWaveform`): a
/// dict with "time" (s, relative to the peak of |h22|), "plus" and "cross". With `modes=True`,
/// the modes instead, as LAL's `SimInspiralChooseTDModes` gives them: "time" and (l, m) →
/// complex h_lm, for m > 0 with IMRPhenomT and IMRPhenomTHM (h_{l,−m} = (−1)^l conj(h_lm)),
/// for every L0-frame mode with 2 ≤ l ≤ 5 and −l ≤ m ≤ l with IMRPhenomTPHM.
///
/// With `times` (s, relative to the peak of |h22|, any values), the same at those times instead
/// of LAL's grid: the aligned-spin models are in closed form at any time, so no grid is
/// generated (IMRPhenomTPHM, whose Euler angles are integrated on the grid, refuses `times`).
///
/// Masses in M☉ (detector frame), distance in Mpc, angles in rad, frequencies in Hz;
/// `chi_1`, `chi_2` are the spins along the orbital angular momentum (LAL's S1z, S2z) and
/// `spin_1x`…`spin_2y` the in-plane components in LAL's L0 frame at the reference frequency
/// (IMRPhenomTPHM only); `prec_version` is LAL's `PrecVersion` of IMRPhenomTPHM (300, the
/// default, or the NNLO and MSA angles: 101–104, 220–224 and their 5-digit variants);
/// `reference_frequency` defaults to `minimum_frequency`; `mode_array` is bilby's list of
/// [l, m] (each with its −m), by default every mode of the approximant (for IMRPhenomTPHM,
/// its co-precessing modes).
#[pyfunction]
#[pyo3(signature = (
    mass_1, mass_2, luminosity_distance, *, chi_1 = 0.0, chi_2 = 0.0, spin_1x = 0.0,
    spin_1y = 0.0, spin_2x = 0.0, spin_2y = 0.0, theta_jn = 0.0, phase = 0.0,
    sampling_frequency = 4096.0, minimum_frequency = 20.0, reference_frequency = None,
    approximant = "IMRPhenomT", prec_version = None, mode_array = None, modes = false,
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
    spin_1x: f64,
    spin_1y: f64,
    spin_2x: f64,
    spin_2y: f64,
    theta_jn: f64,
    phase: f64,
    sampling_frequency: f64,
    minimum_frequency: f64,
    reference_frequency: Option<f64>,
    approximant: &str,
    prec_version: Option<u32>,
    mode_array: Option<Vec<[i32; 2]>>,
    modes: bool,
    times: Option<PyReadonlyArray1<'py, f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let approximant: Approximant = approximant.parse().map_err(PyValueError::new_err)?;
    let args = Args {
        approximant,
        mass_1,
        mass_2,
        chi_1: Some(chi_1),
        chi_2: Some(chi_2),
        spin_1x: Some(spin_1x),
        spin_1y: Some(spin_1y),
        spin_1z: None,
        spin_2x: Some(spin_2x),
        spin_2y: Some(spin_2y),
        spin_2z: None,
        prec_version,
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
        // Columns come in (re, im) pairs, one pair per (l, m) of `table.modes`.
        for (&lm, pair) in table.modes.iter().zip(table.columns.chunks(2)) {
            let h: Vec<Complex64> = pair[0]
                .iter()
                .zip(&pair[1])
                .map(|(&re, &im)| Complex64::new(re, im))
                .collect();
            out.set_item(lm, PyArray1::from_vec(py, h))?;
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
