//! Sampling coordinates for the sky and time: the frame of a detector pair (docs/sampling.md
//! §3.3).

use tdpe_signal::{Parameter, ParameterVector};

use tdpe_detector::{Detector, DetectorPairFrame};

use crate::transform::Transform;

/// Samples the sky in the frame of the first two detectors and the time at the first detector
/// (bilby's `reference_frame = "H1L1"`, `time_reference = "H1"`): the two-detector sky ring is
/// a line of constant zenith, and the arrival time at a detector is measured far better than
/// the geocentre time, which the ring correlates with ra and dec. The frame and the delay are
/// taken at the sidereal time of the epoch (the likelihood's move with t_c, by under 0.2 µs of
/// delay over the prior's ±0.1 s), so the map is an exact change of variables,
/// t_gc = t_det − τ_det(ra, dec; GMST(epoch)), with det ∂θ/∂s = sin(zenith)/cos(dec), and
/// t_det is the arrival time at the first detector to that accuracy.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectorFrameSky {
    frame: DetectorPairFrame,
    reference: Detector,
    gmst: f64,
}

/// ∂θ/∂s of the sky coordinates and ln|det ∂θ/∂s| with its gradient.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkyJacobian {
    /// ∂(geocent_time, ra, dec)/∂zenith and ∂/∂azimuth.
    pub d_zenith: [f64; 3],
    pub d_azimuth: [f64; 3],
    pub log_det: f64,
    /// ∂ ln|det|/∂(zenith, azimuth).
    pub d_log_det: [f64; 2],
}

impl SkyJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        let dot = |d: &[f64; 3]| {
            d[0] * g[Parameter::GeocentTime] + d[1] * g[Parameter::Ra] + d[2] * g[Parameter::Dec]
        };
        out[Parameter::Ra] = dot(&self.d_zenith);
        out[Parameter::Dec] = dot(&self.d_azimuth);
        out
    }
}

impl DetectorFrameSky {
    /// The frame of `first` and `second` at sidereal time `gmst`; times at `first`.
    pub fn new(
        first: &Detector,
        second: &Detector,
        gmst: f64,
    ) -> Result<Self, tdpe_detector::DetectorError> {
        Ok(Self {
            frame: DetectorPairFrame::new(first, second, gmst)?,
            reference: first.clone(),
            gmst,
        })
    }

    /// Largest |τ| of any detector (s): the reference time's range beyond the geocentre's.
    fn max_delay(&self) -> f64 {
        let r = &self.reference.location;
        (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt() / tdpe_detector::delay::C_SI
    }

    /// s of θ: (t_det, zenith, azimuth) in place of (geocent_time, ra, dec).
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        let mut s = *theta;
        let (zenith, azimuth) = self
            .frame
            .from_ra_dec(theta[Parameter::Ra], theta[Parameter::Dec]);
        let delay = self.reference.time_delay_from_geocenter(
            theta[Parameter::Ra],
            theta[Parameter::Dec],
            self.gmst,
        );
        s[Parameter::GeocentTime] = theta[Parameter::GeocentTime] + delay;
        s[Parameter::Ra] = zenith;
        s[Parameter::Dec] = azimuth;
        s
    }

    /// θ of s, with the Jacobian.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, SkyJacobian) {
        let sky = self.frame.to_ra_dec(s[Parameter::Ra], s[Parameter::Dec]);
        let delay = self
            .reference
            .time_delay_derivatives(sky.ra, sky.dec, self.gmst);
        let mut theta = *s;
        theta[Parameter::GeocentTime] = s[Parameter::GeocentTime] - delay.value;
        theta[Parameter::Ra] = sky.ra;
        theta[Parameter::Dec] = sky.dec;
        let column = |k: usize| {
            [
                -(delay.d_ra * sky.d_ra[k] + delay.d_dec * sky.d_dec[k]),
                sky.d_ra[k],
                sky.d_dec[k],
            ]
        };
        let tan_dec = sky.dec.tan();
        let jacobian = SkyJacobian {
            d_zenith: column(0),
            d_azimuth: column(1),
            log_det: s[Parameter::Ra].sin().ln() - sky.dec.cos().ln(),
            d_log_det: [
                1.0 / s[Parameter::Ra].tan() + tan_dec * sky.d_dec[0],
                tan_dec * sky.d_dec[1],
            ],
        };
        (theta, jacobian)
    }

    /// Transforms of (t_det, zenith, azimuth): the time's support widened by the largest delay.
    pub fn transforms(&self, time: Transform) -> [Transform; 3] {
        let pad = self.max_delay();
        let time = match time {
            Transform::Logit { lower, upper } => Transform::Logit {
                lower: lower - pad,
                upper: upper + pad,
            },
            Transform::LogLower { lower } => Transform::LogLower { lower: lower - pad },
            Transform::LogUpper { upper } => Transform::LogUpper { upper: upper + pad },
            other => other,
        };
        [
            time,
            Transform::Logit {
                lower: 0.0,
                upper: std::f64::consts::PI,
            },
            Transform::Periodic {
                lower: 0.0,
                upper: std::f64::consts::TAU,
            },
        ]
    }
}
