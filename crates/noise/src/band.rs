//! The analysed frequency band, put into the covariance (docs/likelihood.md §1.3).
//!
//! 1/S_TD(f) = w(f)/S_edge(f) + (1 − w(f))/F,
//!
//! with w = 1 on [f_low, f_high] and C^∞ Planck ramps (McKechan, Robinson & Sathyaprakash,
//! CQG 27 084020 (2010), eq. 7) to 0 at f_low − Δ and, when the band ends below the Nyquist
//! frequency, at f_high + Δ. In the band S_edge = S; on a ramp S_edge = max(S, S at the band's
//! edge), so that a PSD which falls outside the band (an estimate from data without power
//! there) gives those frequencies no more weight than the edge of the band has; F = G·max(S at
//! the edges) is a floor so large that frequencies beyond the ramps carry (almost) no
//! information. Outside the band the PSD is not needed at all. As G → ∞ this reproduces the
//! frequency-domain inner product with soft edges; unlike a sharp step it gives a short
//! inverse autocovariance.

use crate::error::NoiseError;
use crate::psd::Psd;

/// The analysed band and the ramps at its edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalysisBand {
    /// f_low (Hz, bilby's `minimum_frequency`): 1/S is used unchanged from here.
    pub f_low: f64,
    /// f_high (Hz, bilby's `maximum_frequency`): 1/S is used unchanged up to here; `None`: up
    /// to the Nyquist frequency.
    pub f_high: Option<f64>,
    /// Ramp width Δ (Hz): the ramps run from f_low − Δ to f_low and from f_high to
    /// min(f_high + Δ, Nyquist).
    pub ramp_width: f64,
    /// G: the floor beyond the ramps is G times the larger PSD value at the band's edges.
    pub gain: f64,
}

impl Default for AnalysisBand {
    /// f_low = 20 Hz up to the Nyquist frequency, Δ = 4 Hz, G = 1e4 (docs/likelihood.md §1.3).
    fn default() -> Self {
        Self {
            f_low: 20.0,
            f_high: None,
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

impl AnalysisBand {
    /// Checks 0 < Δ ≤ f_low < f_high and G ≥ 1.
    pub fn validate(&self) -> Result<(), NoiseError> {
        if !(self.f_low.is_finite() && self.f_low > 0.0) {
            return Err(NoiseError::InvalidParameter {
                name: "f_low",
                value: self.f_low,
                allowed: "a finite frequency > 0 Hz".into(),
            });
        }
        if let Some(f_high) = self.f_high {
            if !(f_high.is_finite() && f_high > self.f_low) {
                return Err(NoiseError::InvalidParameter {
                    name: "f_high",
                    value: f_high,
                    allowed: format!("a finite frequency above f_low = {} Hz", self.f_low),
                });
            }
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

    /// Where the lower ramp starts (Hz): f_low − Δ.
    pub fn f_start(&self) -> f64 {
        self.f_low - self.ramp_width
    }

    /// The band's upper edge (Hz) for data sampled with this Nyquist frequency.
    pub fn upper_edge(&self, nyquist: f64) -> f64 {
        self.f_high.map_or(nyquist, |f| f.min(nyquist))
    }

    /// Error unless `psd` is tabulated over the whole band [f_low, f_high] (f_high ≤ `nyquist`,
    /// the Nyquist frequency of the data) and f_low lies below the Nyquist frequency.
    pub fn check_psd(&self, psd: &Psd, nyquist: f64) -> Result<(), NoiseError> {
        self.validate()?;
        if let Some(f_high) = self.f_high.filter(|&f| f > nyquist) {
            return Err(NoiseError::InvalidParameter {
                name: "f_high",
                value: f_high,
                allowed: format!("at most the Nyquist frequency {nyquist} Hz"),
            });
        }
        if self.f_low >= nyquist {
            return Err(NoiseError::InvalidParameter {
                name: "f_low",
                value: self.f_low,
                allowed: format!("below the Nyquist frequency {nyquist} Hz"),
            });
        }
        psd.check_covers(self.f_low, self.upper_edge(nyquist))
    }

    /// S_TD at each frequency in `freqs` (Hz, ≥ 0; the largest is taken as the Nyquist
    /// frequency); the PSD must cover the band (see [`Self::check_psd`]).
    pub fn apply(&self, psd: &Psd, freqs: &[f64]) -> Result<Vec<f64>, NoiseError> {
        let nyquist = freqs.iter().cloned().fold(0.0, f64::max);
        self.check_psd(psd, nyquist)?;
        let f_high = self.upper_edge(nyquist);
        let (s_low, s_high) = (psd.value(self.f_low)?, psd.value(f_high)?);
        // The default band (up to Nyquist) keeps the floor of the lower edge alone.
        let floor = self.gain * self.f_high.map_or(s_low, |_| s_low.max(s_high));
        let ramp_end = (f_high + self.ramp_width).min(nyquist);
        let edge_value = |f: f64, s_edge: f64| match psd.value(f) {
            Ok(s) => s.max(s_edge),
            Err(_) => s_edge,
        };
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
                let (w, s) = if (self.f_low..=f_high).contains(&f) {
                    return psd.value(f);
                } else if f < self.f_low {
                    (planck_ramp(f, self.f_start(), self.f_low), s_low)
                } else {
                    (1.0 - planck_ramp(f, f_high, ramp_end), s_high)
                };
                if w == 0.0 {
                    Ok(floor)
                } else {
                    Ok(1.0 / (w / edge_value(f, s) + (1.0 - w) / floor))
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
        let c = AnalysisBand::default();
        let f = [0.0, 10.0, 16.0, 18.0, 20.0, 100.0, 1024.0];
        let s = c.apply(&psd, &f).unwrap();
        let s20 = psd.value(20.0).unwrap();
        assert_eq!(s[0], 1e4 * s20);
        assert_eq!(s[1], 1e4 * s20);
        assert_eq!(s[4], s20);
        assert_eq!(s[5], psd.value(100.0).unwrap());
        assert_eq!(s[6], psd.value(1024.0).unwrap());
        // The design curve rises below 20 Hz: the ramp blends S itself.
        let w = 0.5;
        let expect = 1.0 / (w / psd.value(18.0).unwrap() + (1.0 - w) / (1e4 * s20));
        assert!((s[3] / expect - 1.0).abs() < 1e-14);
        // Parameter errors.
        let bad = AnalysisBand {
            ramp_width: 30.0,
            ..c
        };
        assert!(bad.apply(&psd, &f).is_err());
        assert!(c.apply(&psd, &[-1.0]).is_err());
        let inverted = AnalysisBand {
            f_high: Some(15.0),
            ..c
        };
        assert!(inverted.apply(&psd, &f).is_err());
        let above_nyquist = AnalysisBand {
            f_high: Some(2000.0),
            ..c
        };
        assert!(above_nyquist.apply(&psd, &f).is_err());
    }

    #[test]
    fn a_psd_falling_outside_the_band_gets_no_more_weight_than_the_edges() {
        // An estimate from data without power below 20 Hz or above 800 Hz: 1e-51 there.
        let freqs: Vec<f64> = (1..=1024).map(f64::from).collect();
        let values: Vec<f64> = freqs
            .iter()
            .map(|&f| {
                if (20.0..=800.0).contains(&f) {
                    1e-46
                } else {
                    1e-51
                }
            })
            .collect();
        let psd = Psd::from_samples("estimate", freqs, values).unwrap();
        let band = AnalysisBand {
            f_high: Some(800.0),
            ..AnalysisBand::default()
        };
        let grid: Vec<f64> = (0..=4096).map(|j| j as f64 * 0.25).collect();
        let s = band.apply(&psd, &grid).unwrap();
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 1e-12;
        for (&f, &v) in grid.iter().zip(&s) {
            assert!(v >= 1e-46 * (1.0 - 1e-12), "S_TD({f}) = {v}");
            if (20.0..=800.0).contains(&f) {
                assert!(close(v, 1e-46), "band at {f}: {v}");
            }
            if !(16.0..=804.0).contains(&f) {
                assert!(close(v, 1e-42), "floor at {f}: {v}");
            }
        }
        // The PSD is needed on the band only.
        let narrow = Psd::from_samples("narrow", vec![20.0, 800.0], vec![1e-46, 1e-46]).unwrap();
        let s_narrow = band.apply(&narrow, &grid).unwrap();
        for (a, b) in s.iter().zip(&s_narrow) {
            assert!((a / b - 1.0).abs() < 1e-12);
        }
        let short = Psd::from_samples("short", vec![25.0, 800.0], vec![1e-46, 1e-46]).unwrap();
        assert!(matches!(
            band.apply(&short, &grid),
            Err(NoiseError::BandNotCovered { .. })
        ));
    }
}
