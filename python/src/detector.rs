//! Detector responses: bilby's `Interferometer.antenna_response` and
//! `time_delay_from_geocenter`, from the detector crate the likelihood uses.

use pyo3::prelude::*;
use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};

use crate::to_py_err;

/// The detector named `name` (H1, L1, V1, K1) and the GMST of `geocent_time` (GPS s).
fn detector_at(name: &str, geocent_time: f64) -> PyResult<(Detector, f64)> {
    let detector = Detector::from_name(name).map_err(|e| to_py_err(e.into()))?;
    let gmst = GpsTime::from_f64(geocent_time)
        .and_then(greenwich_mean_sidereal_time)
        .map_err(|e| to_py_err(anyhow::Error::from(e).context("geocent_time")))?;
    Ok((detector, gmst))
}

/// (F₊, F×) of detector `name` for a source at (ra, dec) (rad) with polarisation angle psi
/// (rad) at `geocent_time` (GPS s), as bilby's `antenna_response` ("plus", "cross").
#[pyfunction]
pub fn antenna_response(
    name: &str,
    ra: f64,
    dec: f64,
    psi: f64,
    geocent_time: f64,
) -> PyResult<(f64, f64)> {
    let (detector, gmst) = detector_at(name, geocent_time)?;
    let pattern = detector.antenna_pattern(ra, dec, psi, gmst);
    Ok((pattern.plus, pattern.cross))
}

/// Arrival time at detector `name` minus arrival time at the geocentre (s), for a source at
/// (ra, dec) (rad) at `geocent_time` (GPS s).
#[pyfunction]
pub fn time_delay_from_geocenter(
    name: &str,
    ra: f64,
    dec: f64,
    geocent_time: f64,
) -> PyResult<f64> {
    let (detector, gmst) = detector_at(name, geocent_time)?;
    Ok(detector.time_delay_from_geocenter(ra, dec, gmst))
}
