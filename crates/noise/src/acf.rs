//! Autocovariance of stationary noise from its one-sided PSD.
//!
//! ρ(τ) = ∫₀^∞ S(f) cos(2πfτ) df. On a grid of M samples at rate fs (frequency step
//! df = fs/M, f_j = j·df, j = 0..M/2) this is ρ_k = ½·fs·irfft(S)_k = df·Σ' S_j cos(2π f_j kΔt)
//! (numpy's normalised irfft; the `ringdown` convention, docs/likelihood.md §1.2). The result is
//! periodic with period M samples, so the grid must be at least twice as long as the analysis
//! segment (df ≤ 1/(2T)) for the lags < N not to alias; by default the grid period is
//! max(64 s, 2T) rounded up to a power of two samples.

use crate::band::AnalysisBand;
use crate::error::NoiseError;
use crate::psd::Psd;
use realfft::RealFftPlanner;
use rustfft::num_complex::Complex64;

/// Default minimum period (s) of the frequency grid: df ≤ 1/64 Hz.
pub const DEFAULT_GRID_PERIOD_S: f64 = 64.0;

/// A one-sided spectrum sampled on the grid f_j = j·fs/M, j = 0..=M/2 (M even).
#[derive(Debug, Clone, PartialEq)]
pub struct GriddedSpectrum {
    /// Sampling frequency fs (Hz).
    pub sampling_frequency: f64,
    /// Grid length M (samples in one period of the ACF).
    pub grid_len: usize,
    /// S(f_j) (1/Hz), j = 0..=M/2.
    pub values: Vec<f64>,
}

/// Autocovariance lags ρ_k = ρ(k/fs), k = 0..=M/2 (strain²).
#[derive(Debug, Clone, PartialEq)]
pub struct Acf {
    /// Sampling interval Δt = 1/fs (s).
    pub dt: f64,
    /// ρ_k for k = 0..=M/2.
    pub rho: Vec<f64>,
}

/// Grid length M for an analysis segment of `n_samples` at `fs`: the smallest power of two
/// ≥ max(period_s·fs, 2·n_samples).
pub fn grid_length(fs: f64, n_samples: usize, period_s: f64) -> usize {
    let m = ((period_s * fs).ceil() as usize).max(2 * n_samples).max(2);
    m.next_power_of_two()
}

impl GriddedSpectrum {
    /// S_TD (the PSD limited to the band of [`AnalysisBand`]) on a grid of length
    /// [`grid_length`]`(fs, n_samples, 64 s)`. The PSD must cover the band.
    pub fn from_psd(
        psd: &Psd,
        cutoff: &AnalysisBand,
        sampling_frequency: f64,
        n_samples: usize,
    ) -> Result<Self, NoiseError> {
        let m = grid_length(sampling_frequency, n_samples, DEFAULT_GRID_PERIOD_S);
        Self::from_psd_with_grid(psd, cutoff, sampling_frequency, m)
    }

    /// As [`GriddedSpectrum::from_psd`] with an explicit (even) grid length M.
    pub fn from_psd_with_grid(
        psd: &Psd,
        cutoff: &AnalysisBand,
        sampling_frequency: f64,
        grid_len: usize,
    ) -> Result<Self, NoiseError> {
        check_fs(sampling_frequency)?;
        if grid_len < 2 || grid_len & 1 == 1 {
            return Err(NoiseError::InvalidParameter {
                name: "grid_len",
                value: grid_len as f64,
                allowed: "an even number >= 2".into(),
            });
        }
        let df = sampling_frequency / grid_len as f64;
        let freqs: Vec<f64> = (0..=grid_len / 2).map(|j| j as f64 * df).collect();
        let values = cutoff.apply(psd, &freqs)?;
        Ok(Self {
            sampling_frequency,
            grid_len,
            values,
        })
    }

    /// A user-supplied spectrum on the grid (values for j = 0..=M/2, each finite and ≥ 0).
    pub fn from_values(sampling_frequency: f64, values: Vec<f64>) -> Result<Self, NoiseError> {
        check_fs(sampling_frequency)?;
        crate::error::check_finite("spectrum", &values)?;
        if values.len() < 2 {
            return Err(NoiseError::InvalidParameter {
                name: "spectrum length",
                value: values.len() as f64,
                allowed: ">= 2 (M/2 + 1 values)".into(),
            });
        }
        if let Some(i) = values.iter().position(|&v| v < 0.0) {
            return Err(NoiseError::InvalidParameter {
                name: "spectrum value",
                value: values[i],
                allowed: format!(">= 0 (index {i})"),
            });
        }
        Ok(Self {
            sampling_frequency,
            grid_len: 2 * (values.len() - 1),
            values,
        })
    }

    /// Frequency step df = fs/M (Hz).
    pub fn df(&self) -> f64 {
        self.sampling_frequency / self.grid_len as f64
    }

    /// ρ = ½·fs·irfft(S) (see the module documentation).
    pub fn acf(&self) -> Acf {
        let m = self.grid_len;
        let mut planner = RealFftPlanner::<f64>::new();
        let c2r = planner.plan_fft_inverse(m);
        let mut spec: Vec<Complex64> = self
            .values
            .iter()
            .map(|&s| Complex64::new(s, 0.0))
            .collect();
        let mut out = vec![0.0; m];
        // Imaginary parts are exactly zero, so this cannot fail.
        c2r.process(&mut spec, &mut out)
            .expect("real spectrum has zero imaginary parts");
        // realfft's inverse is unnormalised: out = M·irfft(S). ρ = ½·fs·irfft(S).
        let scale = 0.5 * self.sampling_frequency / m as f64;
        let rho = out[..=m / 2].iter().map(|v| v * scale).collect();
        Acf {
            dt: 1.0 / self.sampling_frequency,
            rho,
        }
    }
}

fn check_fs(fs: f64) -> Result<(), NoiseError> {
    if !(fs.is_finite() && fs > 0.0) {
        return Err(NoiseError::InvalidParameter {
            name: "sampling_frequency",
            value: fs,
            allowed: "a finite frequency > 0 Hz".into(),
        });
    }
    Ok(())
}

impl Acf {
    /// The first `n` lags ρ_0..ρ_{n−1} (the first column of the N×N covariance); `n` must not
    /// exceed M/2 + 1, beyond which the periodic ACF aliases.
    pub fn lags(&self, n: usize) -> Result<&[f64], NoiseError> {
        if n == 0 || n > self.rho.len() {
            return Err(NoiseError::InvalidParameter {
                name: "n_samples",
                value: n as f64,
                allowed: format!(
                    "1..={} (half the ACF grid; use a finer frequency grid for longer segments)",
                    self.rho.len()
                ),
            });
        }
        Ok(&self.rho[..n])
    }

    /// Noise variance ρ(0) (strain²).
    pub fn variance(&self) -> f64 {
        self.rho[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_noise_acf() {
        // One-sided white PSD S0 ⇒ variance S0·fs/2, other lags zero.
        let s0 = 2.0e-46;
        let fs = 1024.0;
        let spec = GriddedSpectrum::from_values(fs, vec![s0; 513]).unwrap();
        let acf = spec.acf();
        assert!((acf.variance() / (s0 * fs / 2.0) - 1.0).abs() < 1e-13);
        assert!(acf.rho[1..]
            .iter()
            .all(|r| r.abs() < 1e-14 * acf.variance()));
    }

    #[test]
    fn cosine_line_acf() {
        // A single line of power P at bin j ⇒ ρ_k = P·df·cos(2π j k / M).
        let m = 256;
        let fs = 256.0;
        let mut v = vec![0.0; m / 2 + 1];
        v[10] = 3.0;
        let acf = GriddedSpectrum::from_values(fs, v).unwrap().acf();
        let df = fs / m as f64;
        for k in 0..20 {
            let expect = 3.0 * df * (2.0 * std::f64::consts::PI * 10.0 * k as f64 / m as f64).cos();
            assert!((acf.rho[k] - expect).abs() < 1e-14);
        }
    }

    #[test]
    fn grid_length_rules() {
        assert_eq!(grid_length(2048.0, 8192, 64.0), 131072);
        assert_eq!(grid_length(4096.0, 524288, 64.0), 1 << 20);
    }

    #[test]
    fn band_must_be_covered() {
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let c = AnalysisBand::default();
        // fs = 16384 needs the PSD up to 8192 Hz; the curve stops at 4096 Hz.
        let err = GriddedSpectrum::from_psd(&psd, &c, 16384.0, 1024).unwrap_err();
        assert!(matches!(err, NoiseError::BandNotCovered { .. }), "{err}");
        // The band starts below the curve's 5 Hz start; a ramp below it needs no PSD.
        let below = AnalysisBand {
            f_low: 4.5,
            ramp_width: 4.0,
            ..c
        };
        assert!(GriddedSpectrum::from_psd(&psd, &below, 2048.0, 1024).is_err());
        let ramp_below = AnalysisBand {
            f_low: 8.0,
            ..below
        };
        assert!(GriddedSpectrum::from_psd(&psd, &ramp_below, 2048.0, 1024).is_ok());
    }
}
