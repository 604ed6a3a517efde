//! Amplitude spectra for the spectrum plot, in the one-sided ASD scaling of
//! [`DetectorSpectrum`]: |FFT(w·x)| · √(2 / (f_s Σ w²)).

use num_complex::Complex64;
use realfft::RealFftPlanner;

use crate::run_result::DetectorSpectrum;

/// The amplitude spectrum of series of one length under one window.
pub struct AmplitudeSpectrum {
    window: Vec<f64>,
    scale: f64,
    planner: RealFftPlanner<f64>,
}

impl AmplitudeSpectrum {
    /// For series of `window.len()` samples at `sampling_frequency` Hz.
    pub fn new(window: Vec<f64>, sampling_frequency: f64) -> Self {
        let power: f64 = window.iter().map(|w| w * w).sum();
        Self {
            scale: (2.0 / (sampling_frequency * power)).sqrt(),
            window,
            planner: RealFftPlanner::new(),
        }
    }

    /// A(f_j) for j = 1..=N/2 (DC left out: it is not on a log axis).
    pub fn of(&mut self, x: &[f64]) -> anyhow::Result<Vec<f64>> {
        let n = self.window.len();
        anyhow::ensure!(x.len() == n, "series of {} samples, expected {n}", x.len());
        let mut input: Vec<f64> = x.iter().zip(&self.window).map(|(v, w)| v * w).collect();
        let mut spectrum = vec![Complex64::new(0.0, 0.0); n / 2 + 1];
        self.planner
            .plan_fft_forward(n)
            .process(&mut input, &mut spectrum)
            .map_err(|e| anyhow::anyhow!("spectrum FFT: {e}"))?;
        Ok(spectrum[1..]
            .iter()
            .map(|z| z.norm() * self.scale)
            .collect())
    }
}

/// The spectra of one detector: its data, √PSD at the FFT's frequencies, the posterior draws'
/// `signal_asd` (each from [`AmplitudeSpectrum::of`]) and `injection` through the same window.
pub fn detector_spectrum(
    detector: &str,
    spectrum: &mut AmplitudeSpectrum,
    sampling_frequency: f64,
    data: &[f64],
    psd: &tdpe_noise::Psd,
    signal_asd: Vec<Vec<f64>>,
    injection: Option<&[f64]>,
) -> anyhow::Result<DetectorSpectrum> {
    let n = data.len();
    let frequencies: Vec<f64> = (1..=n / 2)
        .map(|j| j as f64 * sampling_frequency / n as f64)
        .collect();
    let psd_asd = frequencies
        .iter()
        .map(|&f| psd.value(f).map(f64::sqrt).unwrap_or(f64::NAN))
        .collect();
    Ok(DetectorSpectrum {
        detector: detector.to_string(),
        data_asd: spectrum.of(data)?,
        psd_asd,
        signal_asd,
        injection_asd: injection.map(|h| spectrum.of(h)).transpose()?,
        frequencies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{simulate_noise, tukey_window};
    use tdpe_likelihood::SampleGrid;
    use tdpe_noise::{AnalysisBand, Psd};

    /// Simulated noise of aLIGO's design PSD: the mean of A² over 16 realisations and bands of
    /// 32 bins (512 values, each an exponential variable for Gaussian noise: 4.4 % scatter of
    /// the mean) is within 15 % of the PSD's mean over the band, from 24 Hz to 960 Hz.
    #[test]
    fn the_asd_of_simulated_noise_is_the_psd() {
        let grid = SampleGrid::new(-2.0, 2048.0, 4.0).unwrap();
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let cutoff = AnalysisBand::default();
        let fs = grid.sampling_frequency();
        let mut spectrum = AmplitudeSpectrum::new(tukey_window(grid.len, 0.2 * fs), fs);
        let realisations: Vec<Vec<f64>> = (0..16)
            .map(|seed| {
                spectrum
                    .of(&simulate_noise(&psd, &cutoff, &grid, seed).unwrap())
                    .unwrap()
            })
            .collect();
        let df = 1.0 / grid.duration();
        let (first, last) = ((24.0 / df) as usize, (960.0 / df) as usize);
        for band in (first..last).step_by(32) {
            let bins = band..band + 32;
            let measured: f64 = realisations
                .iter()
                .flat_map(|a| a[bins.clone()].iter().map(|v| v * v))
                .sum::<f64>()
                / (16.0 * 32.0);
            let expected: f64 = bins
                .clone()
                .map(|j| psd.value((j + 1) as f64 * df).unwrap())
                .sum::<f64>()
                / 32.0;
            let ratio = measured / expected;
            assert!(
                (ratio - 1.0).abs() < 0.15,
                "{} Hz: {ratio}",
                (band + 1) as f64 * df
            );
        }
    }
}
