//! The low-frequency cut-off, put into the covariance (docs/likelihood.md §1.3).
//!
//! 1/S_TD(f) = w(f)/S(f) + (1 − w(f))/(G·S(f_low)),
//!
//! with w a C^∞ Planck ramp from 0 at f_low − Δ to 1 at f_low (McKechan, Robinson &
//! Sathyaprakash, CQG 27 084020 (2010), eq. 7), Δ = 4 Hz and G = 1e4 by default. Above f_low the
//! band is weighted exactly by 1/S; below f_low − Δ the noise is a flat floor G·S(f_low) so
//! large that those frequencies carry (almost) no information. As G → ∞ this reproduces the
//! frequency-domain inner product with a soft window; unlike a sharp step it gives a short
//! inverse autocovariance.

use crate::error::NoiseError;
use crate::psd::Psd;

/// Parameters of the cut-off ramp.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LowFrequencyCutoff {
    /// f_low (Hz): 1/S is used unchanged at and above this frequency.
    pub f_low: f64,
    /// Ramp width Δ (Hz): the ramp runs from f_low − Δ to f_low.
    pub ramp_width: f64,
    /// G: the floor below the ramp is G·S(f_low).
    pub gain: f64,
}

impl Default for LowFrequencyCutoff {
    /// f_low = 20 Hz, Δ = 4 Hz, G = 1e4 (docs/likelihood.md §1.3).
    fn default() -> Self {
        Self {
            f_low: 20.0,
            ramp_width: 4.0,
            gain: 1e4,
        }
    }
}

/// Planck taper rising from 0 at `f0` to 1 at `f1` (C^∞; McKechan et al. 2010, eq. 7):
/// w = 1/(exp(z) + 1), z = (f1 − f0)/(f − f0) + (f1 − f0)/(f − f1) for f0 < f < f1.
pub fn planck_ramp(f: f64, f0: f64, f1: f64) -> f64 {
    if f <= f0 {
        0.0
    } else if f >= f1 {
        1.0
    } else {
        let d = f1 - f0;
        let z = d / (f - f0) + d / (f - f1);
        1.0 / (z.exp() + 1.0)
    }
}

impl LowFrequencyCutoff {
    /// Checks 0 < Δ ≤ f_low and G ≥ 1.
    pub fn validate(&self) -> Result<(), NoiseError> {
        if !(self.f_low.is_finite() && self.f_low > 0.0) {
            return Err(NoiseError::InvalidParameter {
                name: "f_low",
                value: self.f_low,
                allowed: "a finite frequency > 0 Hz".into(),
            });
        }
        if !(self.ramp_width > 0.0 && self.ramp_width <= self.f_low) {
            return Err(NoiseError::InvalidParameter {
                name: "ramp_width",
                value: self.ramp_width,
                allowed: format!("(0, f_low = {}] Hz", self.f_low),
            });
        }
        if !(self.gain.is_finite() && self.gain >= 1.0) {
            return Err(NoiseError::InvalidParameter {
                name: "gain",
                value: self.gain,
                allowed: "a finite value >= 1".into(),
            });
        }
        Ok(())
    }

    /// Lowest frequency (Hz) at which the PSD itself is needed: f_low − Δ.
    pub fn f_start(&self) -> f64 {
        self.f_low - self.ramp_width
    }

    /// S_TD at each frequency in `freqs` (Hz, ≥ 0); the PSD must cover
    /// [f_low − Δ, max(freqs)].
    pub fn apply(&self, psd: &Psd, freqs: &[f64]) -> Result<Vec<f64>, NoiseError> {
        self.validate()?;
        let f_hi = freqs.iter().cloned().fold(0.0, f64::max);
        psd.check_covers(self.f_start(), f_hi.max(self.f_low))?;
        let floor = self.gain * psd.value(self.f_low)?;
        freqs
            .iter()
            .map(|&f| {
                if f.is_nan() || f < 0.0 {
                    return Err(NoiseError::InvalidParameter {
                        name: "frequency",
                        value: f,
                        allowed: "a frequency >= 0 Hz".into(),
                    });
                }
                if f <= self.f_start() {
                    Ok(floor)
                } else if f >= self.f_low {
                    psd.value(f)
                } else {
                    let w = planck_ramp(f, self.f_start(), self.f_low);
                    Ok(1.0 / (w / psd.value(f)? + (1.0 - w) / floor))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_limits_and_monotonicity() {
        assert_eq!(planck_ramp(16.0, 16.0, 20.0), 0.0);
        assert_eq!(planck_ramp(20.0, 16.0, 20.0), 1.0);
        assert!((planck_ramp(18.0, 16.0, 20.0) - 0.5).abs() < 1e-15);
        let mut prev = 0.0;
        for i in 1..400 {
            let w = planck_ramp(16.0 + i as f64 * 0.01, 16.0, 20.0);
            assert!(w >= prev && (0.0..=1.0).contains(&w));
            prev = w;
        }
    }

    #[test]
    fn s_td_matches_definition() {
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let c = LowFrequencyCutoff::default();
        let f = [0.0, 10.0, 16.0, 18.0, 20.0, 100.0];
        let s = c.apply(&psd, &f).unwrap();
        let s20 = psd.value(20.0).unwrap();
        assert_eq!(s[0], 1e4 * s20);
        assert_eq!(s[1], 1e4 * s20);
        assert_eq!(s[4], s20);
        assert_eq!(s[5], psd.value(100.0).unwrap());
        let w = 0.5;
        let expect = 1.0 / (w / psd.value(18.0).unwrap() + (1.0 - w) / (1e4 * s20));
        assert!((s[3] / expect - 1.0).abs() < 1e-14);
        // Parameter errors.
        let bad = LowFrequencyCutoff {
            ramp_width: 30.0,
            ..c
        };
        assert!(bad.apply(&psd, &f).is_err());
        assert!(c.apply(&psd, &[-1.0]).is_err());
    }
}
