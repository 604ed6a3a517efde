//! Projection of the two polarisations into a detector's strain.

use crate::error::DetectorError;
use crate::response::AntennaPattern;

/// h_det\[i\] = F₊ h₊\[i\] + F× h×\[i\], written into `out` (all slices of equal length).
///
/// The caller evaluates h₊, h× at the detector's sample times shifted by the geocentre delay,
/// i.e. at t_i − t_c − τ_det (times relative to a common epoch, in s).
pub fn project_strain_into(
    f: AntennaPattern,
    h_plus: &[f64],
    h_cross: &[f64],
    out: &mut [f64],
) -> Result<(), DetectorError> {
    if h_cross.len() != h_plus.len() {
        return Err(DetectorError::LengthMismatch {
            what: "h_cross",
            got: h_cross.len(),
            expected: h_plus.len(),
        });
    }
    if out.len() != h_plus.len() {
        return Err(DetectorError::LengthMismatch {
            what: "out",
            got: out.len(),
            expected: h_plus.len(),
        });
    }
    for ((o, p), c) in out.iter_mut().zip(h_plus).zip(h_cross) {
        *o = f.plus * p + f.cross * c;
    }
    Ok(())
}

/// h_det = F₊ h₊ + F× h× as a new vector.
pub fn project_strain(
    f: AntennaPattern,
    h_plus: &[f64],
    h_cross: &[f64],
) -> Result<Vec<f64>, DetectorError> {
    let mut out = vec![0.0; h_plus.len()];
    project_strain_into(f, h_plus, h_cross, &mut out)?;
    Ok(out)
}
