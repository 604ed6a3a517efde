//! Integer-factor decimation with an anti-alias FIR filter, as gwpy's `TimeSeries.resample`
//! does it for bilby_pipe: `scipy.signal.decimate(x, q, ftype='fir', zero_phase=True)`, i.e.
//! the (20q + 1)-tap Hamming-windowed sinc low-pass `firwin(20q + 1, 1/q, window='hamming')`
//! (−6 dB at the new Nyquist frequency; scipy's default order n = 20q, as its parameter
//! documentation says; the summary line's "30 point FIR" is out of date) applied
//! without phase shift and evaluated on every q-th sample:
//!
//! y_k = Σ_{j=0}^{2h} b_j x_{kq + h − j},  h = 10q,
//!
//! with x = 0 outside the array (scipy's `resample_poly` zero padding). Inside a file the
//! samples around a segment are real data, so [`Decimator::apply`] takes them: only at the
//! file's ends does the zero padding remain.

use crate::error::StrainError;

/// The FIR order the summary of scipy's `decimate` documentation still states (a 30th-order,
/// 31-tap filter whatever q). scipy's code uses order 20q, and so does
/// [`Decimator::scipy_fir`]: this constant is not what the decimator uses; it stays for
/// callers that name it.
pub const SCIPY_FIR_ORDER: usize = 30;

/// scipy's default FIR half length per unit of decimation factor: `half_len = 10 q`.
const SCIPY_FIR_HALF_LEN_PER_FACTOR: usize = 10;

/// A decimation by an integer factor.
#[derive(Debug, Clone, PartialEq)]
pub struct Decimator {
    factor: usize,
    taps: Vec<f64>,
}

impl Decimator {
    /// scipy's FIR decimator by `factor` ≥ 1 (factor 1: the identity).
    pub fn scipy_fir(factor: usize) -> Result<Self, StrainError> {
        if factor == 0 {
            return Err(StrainError::InvalidSetting {
                name: "decimation factor",
                value: 0.0,
                allowed: "must be a whole number ≥ 1".into(),
            });
        }
        if factor == 1 {
            return Ok(Self {
                factor,
                taps: vec![1.0],
            });
        }
        Ok(Self {
            factor,
            taps: windowed_sinc(
                2 * SCIPY_FIR_HALF_LEN_PER_FACTOR * factor + 1,
                1.0 / factor as f64,
            ),
        })
    }

    /// The decimator from `from` Hz to `to` Hz: `from`/`to` must be a whole number.
    pub fn between(from: f64, to: f64) -> Result<Self, StrainError> {
        let ratio = from / to;
        let factor = ratio.round();
        if to.is_nan() || to <= 0.0 || factor < 1.0 || (ratio - factor).abs() > 1e-9 * ratio {
            return Err(StrainError::InvalidSetting {
                name: "sampling-frequency",
                value: to,
                allowed: format!(
                    "the file's {from} Hz must be a whole multiple of it (integer decimation)"
                ),
            });
        }
        Self::scipy_fir(factor as usize)
    }

    /// The factor q.
    pub fn factor(&self) -> usize {
        self.factor
    }

    /// Half the filter length h: the input samples each side an output sample depends on.
    pub fn half_len(&self) -> usize {
        (self.taps.len() - 1) / 2
    }

    /// The filter's (real, zero-phase) response at `f` in units of the input rate.
    pub fn response(&self, f: f64) -> f64 {
        let h = self.half_len() as f64;
        self.taps
            .iter()
            .enumerate()
            .map(|(j, b)| b * (2.0 * std::f64::consts::PI * f * (j as f64 - h)).cos())
            .sum()
    }

    /// `count` output samples at input indices `first`, `first + q`, ... of `x` (zero outside).
    pub fn apply(&self, x: &[f64], first: usize, count: usize) -> Vec<f64> {
        let h = self.half_len() as isize;
        (0..count)
            .map(|k| {
                let centre = (first + k * self.factor) as isize;
                self.taps
                    .iter()
                    .enumerate()
                    .filter_map(|(j, b)| {
                        let i = centre + h - j as isize;
                        (0..x.len() as isize)
                            .contains(&i)
                            .then(|| b * x[i as usize])
                    })
                    .sum()
            })
            .collect()
    }
}

/// `scipy.signal.firwin(numtaps, cutoff, window='hamming')`: the sinc low-pass with cut-off
/// `cutoff` × Nyquist, times the symmetric Hamming window 0.54 − 0.46 cos(2πn/(N−1)), scaled
/// to unit gain at DC.
fn windowed_sinc(numtaps: usize, cutoff: f64) -> Vec<f64> {
    use std::f64::consts::PI;
    let centre = (numtaps - 1) as f64 / 2.0;
    let taps: Vec<f64> = (0..numtaps)
        .map(|n| {
            let m = n as f64 - centre;
            let x = cutoff * m;
            let sinc = if x == 0.0 {
                1.0
            } else {
                (PI * x).sin() / (PI * x)
            };
            let hamming = 0.54 - 0.46 * (2.0 * PI * n as f64 / (numtaps - 1) as f64).cos();
            cutoff * sinc * hamming
        })
        .collect();
    let gain: f64 = taps.iter().sum();
    taps.into_iter().map(|b| b / gain).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factor_one_is_the_identity_and_non_integer_ratios_are_refused() {
        let d = Decimator::between(4096.0, 4096.0).unwrap();
        let x = [1.0, 2.0, 3.0];
        assert_eq!(d.apply(&x, 0, 3), x.to_vec());
        assert_eq!(Decimator::between(16384.0, 4096.0).unwrap().factor(), 4);
        assert!(Decimator::between(4096.0, 3000.0).is_err());
        assert!(Decimator::between(2048.0, 4096.0).is_err());
        assert!(Decimator::scipy_fir(0).is_err());
    }
}
