//! The analysed band, put into the covariance (docs/likelihood.md §1.3).
//!
//! 1/S_TD(f) = w(f)/S_edge(f) + (1 − w(f))/F,
//!
//! with w = 1 on [f_low + Δ/2, f_high − Δ/2] and C^∞ Planck ramps (McKechan, Robinson &
//! Sathyaprakash, CQG 27 084020 (2010), eq. 7) centred on the band's edges: from 0 at
//! f_low − Δ/2 to 1 at f_low + Δ/2 and, when the band ends below the Nyquist frequency, from 1
//! at f_high − Δ/2 to 0 at f_high + Δ/2. The ramp is antisymmetric about its midpoint
//! (w(f0 + x) + w(f1 − x) = 1), so a flat integrand weighted by it integrates to what a sharp
//! cut at f_low (f_high) gives; on steep PSDs and on data without power below f_low it does
//! not quite, and where the ramp sits is the trade-off measured in docs/likelihood.md §1.3.
//! In the band S_edge = S; below f_low (above f_high) S_edge = max(S, S at the band's edge), so that a PSD
//! which falls outside the band (an estimate from data without power there) gives those
//! frequencies no more weight than the edge of the band has; F = G·max(S at the edges) is a
//! floor so large that frequencies beyond the ramps carry (almost) no information. Outside the
//! band the PSD is not needed at all. As G → ∞ this reproduces the frequency-domain inner
//! product with soft edges; unlike a sharp step it gives a short inverse autocovariance.

use crate::error::NoiseError;
use crate::psd::Psd;

/// The analysed band and the ramps at its edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnalysisBand {
    /// f_low (Hz, bilby's `minimum_frequency`): the middle of the lower ramp; 1/S is used
    /// unchanged from f_low + Δ/2.
    pub f_low: f64,
    /// f_high (Hz, bilby's `maximum_frequency`): the middle of the upper ramp; 1/S is used
    /// unchanged up to f_high − Δ/2; `None` (or the Nyquist frequency): up to the Nyquist
    /// frequency, no upper ramp.
    pub f_high: Option<f64>,
    /// Ramp width Δ (Hz): the ramps run from f_low − Δ/2 to f_low + Δ/2 and from f_high − Δ/2
    /// to min(f_high + Δ/2, Nyquist).
    pub ramp_width: f64,
    /// G: the floor beyond the ramps is G times the larger PSD value at the band's edges.
    pub gain: f64,
}

impl Default for AnalysisBand {
    /// f_low = 20 Hz (ramp 18–22 Hz) up to the Nyquist frequency, Δ = 4 Hz, G = 1e4
    /// (docs/likelihood.md §1.3).
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
    /// Checks 0 < Δ ≤ f_low < f_high and G ≥ 1 (ramps closer than Δ overlap: their weights
    /// multiply).
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

    /// The band's weight w(f) (1 in its interior, 0 beyond the ramps) for data with this
    /// Nyquist frequency.
    fn weight(&self, f: f64, nyquist: f64) -> f64 {
        let half = 0.5 * self.ramp_width;
        let low = planck_ramp(f, self.f_low - half, self.f_low + half);
        let f_high = self.upper_edge(nyquist);
        let high = if f_high < nyquist {
            1.0 - planck_ramp(f, f_high - half, f_high + half)
        } else {
            1.0
        };
        low * high
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
                let w = self.weight(f, nyquist);
                if w == 0.0 {
                    return Ok(floor);
                }
                // Inside [f_low, f_high] the PSD itself; outside, no less than at the edge.
                let s = if f < self.f_low {
                    edge_value(f, s_low)
                } else if f > f_high {
                    edge_value(f, s_high)
                } else {
                    psd.value(f)?
                };
                if w == 1.0 {
                    Ok(s)
                } else {
                    Ok(1.0 / (w / s + (1.0 - w) / floor))
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
        let f = [0.0, 10.0, 18.0, 19.0, 20.0, 22.0, 100.0, 1024.0];
        let s = c.apply(&psd, &f).unwrap();
        let (s20, floor) = (psd.value(20.0).unwrap(), 1e4 * psd.value(20.0).unwrap());
        assert_eq!(s[0], floor);
        assert_eq!(s[1], floor);
        assert_eq!(s[2], floor);
        // The ramp is centred on f_low: weight 1/2 there.
        assert!((s[4] / (1.0 / (0.5 / s20 + 0.5 / floor)) - 1.0).abs() < 1e-14);
        assert_eq!(s[5], psd.value(22.0).unwrap());
        assert_eq!(s[6], psd.value(100.0).unwrap());
        assert_eq!(s[7], psd.value(1024.0).unwrap());
        // The design curve rises below 20 Hz: the ramp blends S itself.
        let w = planck_ramp(19.0, 18.0, 22.0);
        let expect = 1.0 / (w / psd.value(19.0).unwrap() + (1.0 - w) / floor);
        assert!((s[3] / expect - 1.0).abs() < 1e-14);
        // Antisymmetry about the midpoint: the ramp weighs like a sharp cut at f_low.
        for x in [0.1, 0.7, 1.3, 1.9] {
            let sum = planck_ramp(18.0 + x, 18.0, 22.0) + planck_ramp(22.0 - x, 18.0, 22.0);
            assert!((sum - 1.0).abs() < 1e-14);
        }
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
            if (22.0..=798.0).contains(&f) {
                assert!(close(v, 1e-46), "band at {f}: {v}");
            }
            if !(18.0..=802.0).contains(&f) {
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
