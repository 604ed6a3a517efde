//! Time delay of a plane wave between the geocentre and a detector.
//!
//! τ = n̂ · (0 − r_det) / c, where n̂ = (cos δ cos gha, −cos δ sin gha, sin δ) points from the
//! geocentre to the source and gha = GMST − ra; this is LAL's `XLALTimeDelayFromEarthCenter`
//! (`XLALArrivalTimeDiff(r_det, 0, ra, dec, gps)`, `lal/lib/date/TimeDelay.c`): the arrival time
//! at the detector minus the arrival time at the geocentre.

use crate::error::DetectorError;
use crate::site::Detector;
use crate::time::{greenwich_mean_sidereal_time, GpsTime};

/// Speed of light in vacuum (m/s), `LAL_C_SI`.
pub const C_SI: f64 = 299_792_458.0;

/// τ and its first derivatives at fixed GMST (∂τ/∂GMST = −∂τ/∂ra).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeDelayDerivatives {
    /// τ = t_det − t_geocentre (s).
    pub value: f64,
    /// ∂τ/∂ra (s/rad).
    pub d_ra: f64,
    /// ∂τ/∂dec (s/rad).
    pub d_dec: f64,
}

impl Detector {
    /// Arrival time at this detector minus arrival time at the geocentre (s), for a source at
    /// (ra, dec) (rad) when the GMST is `gmst` (rad).
    pub fn time_delay_from_geocenter(&self, ra: f64, dec: f64, gmst: f64) -> f64 {
        self.time_delay_derivatives(ra, dec, gmst).value
    }

    /// As [`Detector::time_delay_from_geocenter`], with the GMST computed from a GPS time.
    pub fn time_delay_at_gps(&self, ra: f64, dec: f64, gps: GpsTime) -> Result<f64, DetectorError> {
        let gmst = greenwich_mean_sidereal_time(gps)?;
        Ok(self.time_delay_from_geocenter(ra, dec, gmst))
    }

    /// τ and its closed-form derivatives with respect to ra and dec.
    pub fn time_delay_derivatives(&self, ra: f64, dec: f64, gmst: f64) -> TimeDelayDerivatives {
        let gha = gmst - ra;
        let (singha, cosgha) = gha.sin_cos();
        let (sindec, cosdec) = dec.sin_cos();
        let n = [cosdec * cosgha, cosdec * -singha, sindec];
        // ∂n/∂gha and ∂n/∂dec.
        let n_gha = [-cosdec * singha, -cosdec * cosgha, 0.0];
        let n_dec = [-sindec * cosgha, sindec * singha, cosdec];
        let r = [-self.location[0], -self.location[1], -self.location[2]];
        let dot = |u: &[f64; 3]| u[0] * r[0] + u[1] * r[1] + u[2] * r[2];
        TimeDelayDerivatives {
            value: dot(&n) / C_SI,
            d_ra: -dot(&n_gha) / C_SI,
            d_dec: dot(&n_dec) / C_SI,
        }
    }
}
