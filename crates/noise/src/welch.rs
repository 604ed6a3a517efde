//! Welch PSD estimate with median averaging, as `scipy.signal.welch(x, fs, window, nperseg,
//! noverlap, detrend='constant', scaling='density', average='median')`, which is what gwpy and
//! bilby_pipe use (`psd_method = median`). bilby_pipe windows each segment with a Tukey window
//! (α = 2·0.2 s / segment duration); scipy's default is Hann. Both are available here; the
//! windows are "periodic" (DFT-even), as `scipy.signal.get_window` returns them.
//!
//! The median of the periodograms is divided by scipy's bias factor
//! b(n) = 1 + Σ_{k=1}^{⌊(n−1)/2⌋} [1/(2k+1) − 1/(2k)] (≈ ln 2 for large n), the median of a χ²₂/2
//! variable (`scipy.signal._spectral_py._median_bias`).

use crate::error::NoiseError;
use crate::psd::Psd;
use realfft::RealFftPlanner;

/// Window applied to each segment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WelchWindow {
    /// Periodic Hann window, w_n = ½ − ½cos(2πn/L) (scipy's default).
    Hann,
    /// Periodic Tukey window with taper fraction α ∈ [0, 1] (bilby_pipe / gwpy).
    Tukey {
        /// Fraction of the window inside the cosine tapers.
        alpha: f64,
    },
}

/// Options of the Welch estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WelchOptions {
    /// Samples per segment (scipy's nperseg).
    pub segment_len: usize,
    /// Overlapping samples between segments (scipy's noverlap).
    pub overlap: usize,
    /// Segment window.
    pub window: WelchWindow,
}

impl WelchOptions {
    /// Segments of `segment_duration` s at `fs` Hz, 50 % overlap, Hann window.
    pub fn hann(fs: f64, segment_duration: f64) -> Self {
        let segment_len = (segment_duration * fs).round() as usize;
        Self {
            segment_len,
            overlap: segment_len / 2,
            window: WelchWindow::Hann,
        }
    }

    /// bilby_pipe's choice: 50 % overlap and a Tukey window with α = 2·roll_off/duration
    /// (roll_off = 0.2 s by default).
    pub fn bilby_pipe(fs: f64, segment_duration: f64, roll_off: f64) -> Self {
        let segment_len = (segment_duration * fs).round() as usize;
        Self {
            segment_len,
            overlap: segment_len / 2,
            window: WelchWindow::Tukey {
                alpha: (2.0 * roll_off / segment_duration).clamp(0.0, 1.0),
            },
        }
    }
}

/// A Welch estimate on f_j = j·fs/L, j = 0..=L/2.
#[derive(Debug, Clone, PartialEq)]
pub struct WelchEstimate {
    /// Frequencies (Hz), starting at 0.
    pub frequencies: Vec<f64>,
    /// One-sided PSD (1/Hz).
    pub psd: Vec<f64>,
    /// Number of segments that were averaged.
    pub n_segments: usize,
}

impl WelchEstimate {
    /// As a [`Psd`] (drops the DC bin, which log-log interpolation cannot use).
    pub fn to_psd(&self, name: &str) -> Result<Psd, NoiseError> {
        Psd::from_samples(name, self.frequencies[1..].to_vec(), self.psd[1..].to_vec())
    }
}

/// The periodic window of length `len`.
pub fn window(kind: WelchWindow, len: usize) -> Vec<f64> {
    use std::f64::consts::PI;
    match kind {
        WelchWindow::Hann => (0..len)
            .map(|n| 0.5 - 0.5 * (2.0 * PI * n as f64 / len as f64).cos())
            .collect(),
        WelchWindow::Tukey { alpha } => {
            // scipy.signal.windows.tukey(len + 1, alpha, sym=True)[:-1]
            let m = len + 1;
            if alpha <= 0.0 {
                return vec![1.0; len];
            }
            if alpha >= 1.0 {
                return window(WelchWindow::Hann, len);
            }
            let width = (alpha * (m - 1) as f64 / 2.0).floor() as usize;
            let mm = (m - 1) as f64;
            (0..len)
                .map(|n| {
                    let nf = n as f64;
                    if n <= width {
                        0.5 * (1.0 + (PI * (-1.0 + 2.0 * nf / alpha / mm)).cos())
                    } else if n >= m - width - 1 {
                        0.5 * (1.0 + (PI * (-2.0 / alpha + 1.0 + 2.0 * nf / alpha / mm)).cos())
                    } else {
                        1.0
                    }
                })
                .collect()
        }
    }
}

/// scipy's median bias b(n) (see the module documentation).
pub fn median_bias(n: usize) -> f64 {
    let kmax = n.saturating_sub(1) / 2;
    1.0 + (1..=kmax)
        .map(|k| {
            let ii = 2.0 * k as f64;
            1.0 / (ii + 1.0) - 1.0 / ii
        })
        .sum::<f64>()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Welch estimate of the one-sided PSD of `x` sampled at `fs` Hz, median-averaged.
pub fn welch_median(x: &[f64], fs: f64, opts: &WelchOptions) -> Result<WelchEstimate, NoiseError> {
    crate::error::check_finite("strain", x)?;
    if !(fs.is_finite() && fs > 0.0) {
        return Err(NoiseError::InvalidParameter {
            name: "sampling_frequency",
            value: fs,
            allowed: "a finite frequency > 0 Hz".into(),
        });
    }
    let l = opts.segment_len;
    if l < 2 || l > x.len() {
        return Err(NoiseError::InvalidParameter {
            name: "segment_len",
            value: l as f64,
            allowed: format!("2..={} (the data length)", x.len()),
        });
    }
    if opts.overlap >= l {
        return Err(NoiseError::InvalidParameter {
            name: "overlap",
            value: opts.overlap as f64,
            allowed: format!("0..{l} (less than the segment length)"),
        });
    }
    if let WelchWindow::Tukey { alpha } = opts.window {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(NoiseError::InvalidParameter {
                name: "tukey alpha",
                value: alpha,
                allowed: "[0, 1]".into(),
            });
        }
    }
    let step = l - opts.overlap;
    let n_seg = (x.len() - opts.overlap) / step;
    let w = window(opts.window, l);
    let scale = 1.0 / (fs * w.iter().map(|v| v * v).sum::<f64>());
    let mut planner = RealFftPlanner::<f64>::new();
    let r2c = planner.plan_fft_forward(l);
    let mut buf = r2c.make_input_vec();
    let mut spec = r2c.make_output_vec();
    let nf = l / 2 + 1;
    let mut periodograms = vec![0.0; nf * n_seg];
    for s in 0..n_seg {
        let seg = &x[s * step..s * step + l];
        let mean = seg.iter().sum::<f64>() / l as f64;
        buf.iter_mut()
            .zip(seg.iter().zip(&w))
            .for_each(|(b, (v, wv))| *b = (v - mean) * wv);
        r2c.process(&mut buf, &mut spec)
            .expect("buffer lengths match the plan");
        for (j, c) in spec.iter().enumerate() {
            let mut p = c.norm_sqr() * scale;
            let nyquist = l & 1 == 0 && j == nf - 1;
            if j > 0 && !nyquist {
                p *= 2.0;
            }
            periodograms[j * n_seg + s] = p;
        }
    }
    let bias = median_bias(n_seg);
    let psd = periodograms
        .chunks_mut(n_seg)
        .map(|col| median(col) / bias)
        .collect();
    Ok(WelchEstimate {
        frequencies: (0..nf).map(|j| j as f64 * fs / l as f64).collect(),
        psd,
        n_segments: n_seg,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_match_scipy_definitions() {
        let h = window(WelchWindow::Hann, 8);
        assert!(h[0].abs() < 1e-15 && (h[4] - 1.0).abs() < 1e-15);
        // scipy.signal.get_window(('tukey', 0.5), 8)
        // = tukey(9, 0.5)[:-1] = [0, 0.5, 1, 1, 1, 1, 1, 0.5]
        let t = window(WelchWindow::Tukey { alpha: 0.5 }, 8);
        let expect = [0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5];
        for (a, b) in t.iter().zip(expect) {
            assert!((a - b).abs() < 1e-12, "{t:?}");
        }
    }

    #[test]
    fn median_bias_values() {
        assert_eq!(median_bias(1), 1.0);
        assert_eq!(median_bias(2), 1.0);
        assert!((median_bias(3) - (1.0 + 1.0 / 3.0 - 0.5)).abs() < 1e-15);
        assert!((median_bias(100_001) - std::f64::consts::LN_2).abs() < 1e-5);
    }

    #[test]
    fn bad_options_are_errors() {
        let x = vec![0.0; 100];
        assert!(welch_median(
            &x,
            10.0,
            &WelchOptions {
                segment_len: 200,
                overlap: 0,
                window: WelchWindow::Hann
            }
        )
        .is_err());
        assert!(welch_median(
            &x,
            10.0,
            &WelchOptions {
                segment_len: 20,
                overlap: 20,
                window: WelchWindow::Hann
            }
        )
        .is_err());
        let mut y = x.clone();
        y[5] = f64::NAN;
        assert!(welch_median(&y, 10.0, &WelchOptions::hann(10.0, 2.0)).is_err());
    }
}
