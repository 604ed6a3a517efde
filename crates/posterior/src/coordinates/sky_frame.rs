//! Sampling coordinates for the sky and time: the frame of a detector pair (docs/sampling.md
//! §3.3).

use tdpe_signal::{Parameter, ParameterVector};

use tdpe_detector::{Detector, DetectorPairFrame};

use crate::transform::{ln_sigmoid, Transform};

/// Width of the soft edges of [`TimeWindow`], as a fraction of the geocent_time prior's width:
/// narrow enough that a signal a quarter of the window from its edges sees t_c = t₁ − τ₁ to
/// within e⁻⁵ of the delay's sky dependence, wide enough that a posterior filling the window
/// meets edges whose curvature the sampler's steps follow (docs/sampling.md §3.3).
const TIME_WINDOW_SOFTNESS: f64 = 0.05;

/// A smooth bijection of the real line onto the geocent_time prior's support (lower, upper)
/// that is the identity away from its edges:
///
///   t_c = lower + w [softplus((r − lower)/w) − softplus((r − upper)/w)],
///
/// with r = t₁ − τ₁ and w the edges' width. The arrival time t₁ ranges over a window that moves
/// with the sky, (lower + τ₁, upper + τ₁); with a logit over the widest such range (the
/// window widened by the largest delay) the density had a wall wherever t_c left the prior,
/// which a weak signal's posterior, filling the window, ran into.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TimeWindow {
    lower: f64,
    upper: f64,
    width: f64,
}

/// t_c of r, ln(dt_c/dr) and its r-derivative.
struct WindowPoint {
    value: f64,
    log_derivative: f64,
    d_log_derivative: f64,
}

impl TimeWindow {
    fn at(&self, r: f64) -> WindowPoint {
        let w = self.width;
        let (x1, x2) = ((r - self.lower) / w, (r - self.upper) / w);
        let softplus = |x: f64| -ln_sigmoid(-x);
        let sigmoid = |x: f64| ln_sigmoid(x).exp();
        // dt_c/dr = σ(x1) − σ(x2) = σ(x1) σ(−x2) (1 − e^(x2 − x1)), without cancellation.
        let span = -(-(self.upper - self.lower) / w).exp_m1();
        // From the nearer bound (the construction is symmetric under r → lower + upper − r),
        // so that t_c stays within the support where the soft edge rounds onto it.
        let value = if x1 + x2 < 0.0 {
            self.lower + w * (softplus(x1) - softplus(x2))
        } else {
            self.upper - w * (softplus(-x2) - softplus(-x1))
        };
        WindowPoint {
            value,
            log_derivative: ln_sigmoid(x1) + ln_sigmoid(-x2) + span.ln(),
            d_log_derivative: (sigmoid(-x1) - sigmoid(x2)) / w,
        }
    }

    /// r of t_c: with E = e^((t_c − lower)/w) and K = e^((lower − upper)/w), e^((r − lower)/w) =
    /// (E − 1)/(1 − E K). NaN outside (lower, upper).
    fn inverse(&self, t: f64) -> f64 {
        let w = self.width;
        let above = ((t - self.lower) / w).exp_m1();
        let below = -((t - self.upper) / w).exp_m1();
        self.lower + w * (above.ln() - below.ln())
    }
}

/// Samples the sky in the frame of the first two detectors and the time at the first detector
/// (bilby's `reference_frame = "H1L1"`, `time_reference = "H1"`): the two-detector sky ring is
/// a line of constant zenith, and the arrival time at a detector is measured far better than
/// the geocentre time, which the ring correlates with ra and dec. The frame and the delay are
/// taken at the sidereal time of the epoch (the likelihood's move with t_c, by under 0.2 µs of
/// delay over the prior's ±0.1 s), so the map is an exact change of variables,
/// t_gc = t_det − τ_det(ra, dec; GMST(epoch)), with det ∂θ/∂s = sin(zenith)/cos(dec), and
/// t_det is the arrival time at the first detector to that accuracy; for a bounded time prior
/// t_gc is that difference passed through the prior's soft window (docs/sampling.md §3.3), which
/// adds its log-derivative to ln|det|.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectorFrameSky {
    frame: DetectorPairFrame,
    reference: Detector,
    /// The second detector's name (the frame keeps only its position).
    second: String,
    gmst: f64,
    /// The soft window of a bounded geocent_time prior; `None`: t_c = t₁ − τ₁.
    window: Option<TimeWindow>,
}

/// ∂θ/∂s of the sky coordinates and ln|det ∂θ/∂s| with its gradient.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkyJacobian {
    /// ∂geocent_time/∂t₁.
    pub d_time: f64,
    /// ∂(geocent_time, ra, dec)/∂zenith and ∂/∂azimuth.
    pub d_zenith: [f64; 3],
    pub d_azimuth: [f64; 3],
    pub log_det: f64,
    /// ∂ ln|det|/∂(t₁, zenith, azimuth).
    pub d_log_det: [f64; 3],
}

impl SkyJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        let dot = |d: &[f64; 3]| {
            d[0] * g[Parameter::GeocentTime] + d[1] * g[Parameter::Ra] + d[2] * g[Parameter::Dec]
        };
        out[Parameter::GeocentTime] = self.d_time * g[Parameter::GeocentTime];
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
            second: second.name.clone(),
            gmst,
            window: None,
        })
    }

    /// The names of the pair; the arrival time is the first's.
    pub fn pair(&self) -> [&str; 2] {
        [&self.reference.name, &self.second]
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
        let t = theta[Parameter::GeocentTime];
        s[Parameter::GeocentTime] = self.window.map_or(t, |w| w.inverse(t)) + delay;
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
        let r = s[Parameter::GeocentTime] - delay.value;
        let window = self.window.map_or(
            WindowPoint {
                value: r,
                log_derivative: 0.0,
                d_log_derivative: 0.0,
            },
            |w| w.at(r),
        );
        let d_time = window.log_derivative.exp();
        let mut theta = *s;
        theta[Parameter::GeocentTime] = window.value;
        theta[Parameter::Ra] = sky.ra;
        theta[Parameter::Dec] = sky.dec;
        // ∂τ₁/∂(zenith, azimuth).
        let d_delay = |k: usize| delay.d_ra * sky.d_ra[k] + delay.d_dec * sky.d_dec[k];
        let column = |k: usize| [-d_time * d_delay(k), sky.d_ra[k], sky.d_dec[k]];
        let tan_dec = sky.dec.tan();
        let jacobian = SkyJacobian {
            d_time,
            d_zenith: column(0),
            d_azimuth: column(1),
            log_det: s[Parameter::Ra].sin().ln() - sky.dec.cos().ln() + window.log_derivative,
            d_log_det: [
                window.d_log_derivative,
                1.0 / s[Parameter::Ra].tan() + tan_dec * sky.d_dec[0]
                    - window.d_log_derivative * d_delay(0),
                tan_dec * sky.d_dec[1] - window.d_log_derivative * d_delay(1),
            ],
        };
        (theta, jacobian)
    }

    /// Transforms of (t_det, zenith, azimuth) for geocent_time's transform `time`: for a
    /// bounded prior the identity, with t_c in the prior's soft window (docs/sampling.md §3.3);
    /// otherwise the time's support widened by the largest delay.
    pub fn transforms(&mut self, time: Transform) -> [Transform; 3] {
        let pad = self.max_delay();
        let time = match time {
            Transform::Logit { lower, upper } => {
                self.window = Some(TimeWindow {
                    lower,
                    upper,
                    width: TIME_WINDOW_SOFTNESS * (upper - lower),
                });
                Transform::Identity
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: TimeWindow = TimeWindow {
        lower: -0.1,
        upper: 0.1,
        width: 0.01,
    };

    /// Onto (lower, upper), the identity away from the edges, inverted, with the derivatives
    /// of central differences.
    #[test]
    fn time_window_is_a_smooth_bijection() {
        for r in [-3.0, -0.15, -0.1, -0.08, 0.0, 0.03, 0.095, 0.2, 1.0] {
            let p = WINDOW.at(r);
            assert!(
                p.value > -0.1 && p.value < 0.1 || r.abs() > 0.5,
                "{r}: {}",
                p.value
            );
            if r.abs() < 0.5 {
                assert!((WINDOW.inverse(p.value) - r).abs() < 1e-12, "{r}");
            }
            let h = 1e-6;
            let (plus, minus) = (WINDOW.at(r + h), WINDOW.at(r - h));
            let fd = (plus.value - minus.value) / (2.0 * h);
            assert!((fd - p.log_derivative.exp()).abs() < 1e-7, "{r}");
            let fd = (plus.log_derivative - minus.log_derivative) / (2.0 * h);
            assert!(
                (fd - p.d_log_derivative).abs() < 1e-5 * (1.0 + fd.abs()),
                "{r}"
            );
        }
        // Within 0.1 of the edges at most e^(−5) from the identity, in value and slope.
        for r in [-0.05, 0.0, 0.05] {
            let p = WINDOW.at(r);
            assert!((p.value - r).abs() < 1e-2 * (-5.0f64).exp(), "{r}");
            assert!(p.log_derivative.abs() < (-5.0f64).exp(), "{r}");
        }
        assert!(WINDOW.inverse(0.1).is_infinite() && WINDOW.inverse(0.2).is_nan());
    }

    /// With the window: the Jacobian of (t₁, zenith, azimuth) → (t_c, ra, dec) and the
    /// gradient of ln|det| against central differences, near an edge where both matter.
    #[test]
    fn frame_with_window_matches_finite_differences() {
        let (h1, l1) = (
            Detector::from_name("H1").unwrap(),
            Detector::from_name("L1").unwrap(),
        );
        let mut sky = DetectorFrameSky::new(&h1, &l1, 1.2).unwrap();
        let [time, ..] = sky.transforms(Transform::Logit {
            lower: -0.1,
            upper: 0.1,
        });
        assert_eq!(time, Transform::Identity);
        let slots = [Parameter::GeocentTime, Parameter::Ra, Parameter::Dec];
        for (t, zenith, azimuth) in [(0.093, 1.1, 2.0), (-0.11, 0.4, 5.0), (0.0, 2.5, 0.3)] {
            let mut s = [0.0; tdpe_signal::NUM_PARAMETERS];
            (s[slots[0]], s[slots[1]], s[slots[2]]) = (t, zenith, azimuth);
            let (theta, j) = sky.theta(&s);
            let back = sky.sampled(&theta);
            assert!((back[slots[0]] - t).abs() < 1e-12);
            let columns = [[j.d_time, 0.0, 0.0], j.d_zenith, j.d_azimuth];
            for (k, slot) in slots.into_iter().enumerate() {
                let h = 1e-7;
                let (mut plus, mut minus) = (s, s);
                plus[slot] += h;
                minus[slot] -= h;
                let ((tp, jp), (tm, jm)) = (sky.theta(&plus), sky.theta(&minus));
                for (i, out) in slots.into_iter().enumerate() {
                    let fd = (tp[out] - tm[out]) / (2.0 * h);
                    assert!((fd - columns[k][i]).abs() < 1e-6, "{t} d{k} of {i}: {fd}");
                }
                let fd = (jp.log_det - jm.log_det) / (2.0 * h);
                assert!(
                    (fd - j.d_log_det[k]).abs() < 1e-5 * (1.0 + fd.abs()),
                    "{t} {k}"
                );
            }
        }
    }
}
