//! Strain data on the analysis grid: simulated (signal + seeded Gaussian noise) or read from
//! files, and the whitening used for plots.

use std::path::Path;

use anyhow::{bail, Context};
use realfft::num_complex::Complex64;
use realfft::RealFftPlanner;
use tdpe_likelihood::SampleGrid;
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, Psd};

/// The noise seed of detector `k`: splitmix64 of (seed, k), so that detectors get independent
/// streams and adding a detector does not change the others' noise.
pub fn detector_seed(seed: u64, k: usize) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(k as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Gaussian noise of one-sided PSD `psd` (with the likelihood's analysed band) on
/// `grid`, exactly of the covariance the likelihood assumes (`tdpe_noise::simulate`).
pub fn simulate_noise(
    psd: &Psd,
    band: &AnalysisBand,
    grid: &SampleGrid,
    seed: u64,
) -> anyhow::Result<Vec<f64>> {
    let spectrum = GriddedSpectrum::from_psd(psd, band, grid.sampling_frequency(), grid.len)?;
    Ok(simulate_frequency_domain_seeded(&spectrum, grid.len, seed)?)
}

/// The start of an input `line` for a message: a line of a data file can be megabytes long.
pub fn excerpt(line: &str) -> String {
    const MAX_CHARS: usize = 120;
    match line.char_indices().nth(MAX_CHARS) {
        Some((end, _)) => format!("{}… ({} bytes)", &line[..end], line.len()),
        None => line.to_string(),
    }
}

/// Reads whitespace- or comma-separated numeric columns, skipping blank and `#` lines;
/// every data line must have `columns` numbers. Each row comes with its line number.
fn read_columns(path: &Path, columns: usize) -> anyhow::Result<Vec<(usize, Vec<f64>)>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read strain file {}", path.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let values: Vec<f64> = line
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()
            .filter(|v: &Vec<f64>| v.len() == columns && v.iter().all(|x| x.is_finite()))
            .with_context(|| {
                format!(
                    "{}:{}: expected {columns} finite numbers: `{}`",
                    path.display(),
                    i + 1,
                    excerpt(line)
                )
            })?;
        rows.push((i + 1, values));
    }
    Ok(rows)
}

/// How far (in samples) a time-series row's time may be from the uniform grid of the file's
/// first time and the declared rate: rounding in the file's digits, never a whole sample.
const TIME_STAMP_TOLERANCE: f64 = 0.01;

/// A two-column (GPS time in s, strain) file sampled at the grid's rate and covering it;
/// `start_gps` is the GPS time of the grid's first sample.
pub fn read_time_series(
    path: &Path,
    grid: &SampleGrid,
    start_gps: f64,
) -> anyhow::Result<Vec<f64>> {
    let rows = read_columns(path, 2)?;
    if rows.len() < 2 {
        bail!("{}: needs at least 2 samples", path.display());
    }
    let (t0, dt) = (rows[0].1[0], grid.dt);
    let step = rows[1].1[0] - t0;
    if (step - dt).abs() > 1e-6 * dt {
        bail!(
            "{}: sampling interval {step} s differs from 1/sampling_frequency = {dt} s",
            path.display(),
        );
    }
    // Every row on the grid of the first: a missing, repeated or out-of-order row would shift
    // the data after it.
    for (k, (line, row)) in rows.iter().enumerate() {
        let expected = t0 + k as f64 * dt;
        if (row[0] - expected).abs() > TIME_STAMP_TOLERANCE * dt {
            bail!(
                "{}:{line}: time {} s is not on the uniform grid of the first time and \
                 1/sampling_frequency = {dt} s (expected {expected} s, {:+.2} samples off): \
                 samples must be increasing, evenly spaced and complete",
                path.display(),
                row[0],
                (row[0] - expected) / dt
            );
        }
    }
    let rows: Vec<&[f64]> = rows.iter().map(|(_, row)| row.as_slice()).collect();
    // Index of the grid's first sample (f64 GPS: resolution ~0.24 µs ≪ dt).
    let offset = (start_gps - rows[0][0]) / dt;
    let first = offset.round();
    if (offset - first).abs() > 1e-3 || first < 0.0 || first as usize + grid.len > rows.len() {
        bail!(
            "{}: covers GPS [{}, {}] but the analysis needs [{start_gps}, {}) on the same sample times",
            path.display(),
            rows[0][0],
            rows[rows.len() - 1][0],
            start_gps + grid.duration()
        );
    }
    let first = first as usize;
    Ok(rows[first..first + grid.len].iter().map(|r| r[1]).collect())
}

/// A three-column (f in Hz, Re, Im) file of bilby's frequency-domain strain
/// h̃_j = rfft(h)_j / f_s on f_j = j/T with T = the grid's duration, returned on the grid as
/// h_i = (1/T) Σ'_j h̃_j e^{2πi j i/N} (the inverse real FFT times f_s); frequencies above the
/// grid's Nyquist frequency are dropped (an ideal low-pass: resampling to the analysis rate),
/// and the imaginary parts of the DC and Nyquist bins are set to zero.
pub fn read_frequency_series(path: &Path, grid: &SampleGrid) -> anyhow::Result<Vec<f64>> {
    let rows = read_columns(path, 3)?;
    let n = grid.len;
    if n % 2 == 1 {
        bail!("frequency-series strain needs an even number of samples, got {n}");
    }
    let df = 1.0 / grid.duration();
    let bins = n / 2 + 1;
    if rows.len() < bins {
        bail!(
            "{}: {} frequency bins, need at least {bins} (up to {} Hz)",
            path.display(),
            rows.len(),
            grid.sampling_frequency() / 2.0
        );
    }
    for (j, (line, row)) in rows.iter().take(bins).enumerate() {
        if (row[0] - j as f64 * df).abs() > 1e-6 * df.max(row[0]) {
            bail!(
                "{}:{line}: bin {j} is at {} Hz, expected {} Hz (df = 1/duration = {df} Hz)",
                path.display(),
                row[0],
                j as f64 * df
            );
        }
    }
    let mut spectrum: Vec<Complex64> = rows[..bins]
        .iter()
        .map(|(_, r)| Complex64::new(r[1], r[2]))
        .collect();
    spectrum[0].im = 0.0;
    spectrum[bins - 1].im = 0.0;
    let mut out = vec![0.0; n];
    RealFftPlanner::<f64>::new()
        .plan_fft_inverse(n)
        .process(&mut spectrum, &mut out)
        .map_err(|e| anyhow::anyhow!("inverse FFT of {}: {e}", path.display()))?;
    out.iter_mut().for_each(|x| *x *= df);
    Ok(out)
}

/// Roll-off (s) of the Tukey window applied before whitening, at each end of the segment.
pub const WHITENING_ROLL_OFF: f64 = 0.2;

/// A Tukey window of `n` samples whose cosine ramps at each end are `roll_off` samples long
/// (rounded; at most half the window).
pub fn tukey_window(n: usize, roll_off: f64) -> Vec<f64> {
    let ramp = roll_off.round().min(n as f64 / 2.0);
    (0..n)
        .map(|i| {
            let edge = (i.min(n - 1 - i)) as f64;
            if edge < ramp {
                0.5 * (1.0 - (std::f64::consts::PI * edge / ramp).cos())
            } else {
                1.0
            }
        })
        .collect()
}

/// Whitens time series on one grid: x̃_w(f) = x̃(f) / √(S_TD(f)·f_s/2), with S_TD the PSD with
/// the low-frequency cut-off (see `run_result::WaveformReconstruction`), after a Tukey window
/// with [`WHITENING_ROLL_OFF`] at each end (against leakage of the strong low-frequency noise);
/// optionally band-passed to where a signal has its power ([`Self::band_passed`]).
pub struct Whitener {
    /// 1/√(S_TD(f_j)·f_s/2) for j = 0..=N/2 (0 at DC).
    weights: Vec<f64>,
    /// Tukey window w_i.
    window: Vec<f64>,
    planner_len: usize,
    /// Frequency spacing f_s/N (Hz).
    df: f64,
}

/// Width (Hz) of the cosine taper above a band-passed whitening's upper edge: a sharp cut
/// would ring through the plotted merger.
const BAND_PASS_TAPER: f64 = 16.0;

impl Whitener {
    /// For `grid` and `psd` (which must cover [f_low − 4 Hz, f_s/2]).
    pub fn new(psd: &Psd, band: &AnalysisBand, grid: &SampleGrid) -> anyhow::Result<Self> {
        let n = grid.len;
        let fs = grid.sampling_frequency();
        let freqs: Vec<f64> = (0..=n / 2).map(|j| j as f64 * fs / n as f64).collect();
        let s = band.apply(psd, &freqs)?;
        let weights = s
            .iter()
            .enumerate()
            .map(|(j, &v)| {
                if j == 0 {
                    0.0
                } else {
                    1.0 / (v * fs / 2.0).sqrt()
                }
            })
            .collect();
        let window = tukey_window(n, WHITENING_ROLL_OFF * fs);
        Ok(Self {
            weights,
            window,
            planner_len: n,
            df: fs / n as f64,
        })
    }

    /// The same whitening with everything above `f_high` (Hz) removed, through a cosine taper
    /// 16 Hz wide: whitened data then show the signal's band, not the white
    /// noise of the kilohertz the signal has no power in (the low edge is the analysed band's).
    pub fn band_passed(mut self, f_high: f64) -> Self {
        for (j, w) in self.weights.iter_mut().enumerate() {
            let above = j as f64 * self.df - f_high;
            if above >= BAND_PASS_TAPER {
                *w = 0.0;
            } else if above > 0.0 {
                *w *= 0.5 * (1.0 + (std::f64::consts::PI * above / BAND_PASS_TAPER).cos());
            }
        }
        self
    }

    /// No power yet, to be summed over signals by [`Self::add_power`].
    pub fn zero_power(&self) -> Vec<f64> {
        vec![0.0; self.weights.len()]
    }

    /// Adds the power spectrum of the whitened `signal` to `power` (of [`Self::zero_power`]):
    /// signals are summed one at a time, so that none needs to be kept.
    pub fn add_power(&self, power: &mut [f64], signal: &[f64]) -> anyhow::Result<()> {
        for (p, z) in power.iter_mut().zip(self.whitened_spectrum(signal)?) {
            *p += z.norm_sqr();
        }
        Ok(())
    }

    /// The frequency (Hz) below which the summed `power` (of [`Self::add_power`]) holds the
    /// fraction `fraction`: the upper edge of the signals' band.
    pub fn power_edge(&self, power: &[f64], fraction: f64) -> f64 {
        let total: f64 = power.iter().sum();
        let top = (power.len() - 1) as f64 * self.df;
        if total.is_nan() || total <= 0.0 {
            return top;
        }
        let mut cumulative = 0.0;
        for (j, p) in power.iter().enumerate() {
            cumulative += p;
            if cumulative >= fraction * total {
                return j as f64 * self.df;
            }
        }
        top
    }

    /// The whitened series (unit variance per sample for noise of the PSD, before a band-pass).
    pub fn whiten(&self, x: &[f64]) -> anyhow::Result<Vec<f64>> {
        let n = self.planner_len;
        let mut spectrum = self.whitened_spectrum(x)?;
        let mut out = vec![0.0; n];
        RealFftPlanner::<f64>::new()
            .plan_fft_inverse(n)
            .process(&mut spectrum, &mut out)
            .map_err(|e| anyhow::anyhow!("whitening FFT: {e}"))?;
        Ok(out)
    }

    /// The real FFT of the windowed `x` times the whitening weights, over N (so that the
    /// inverse FFT is the whitened series).
    fn whitened_spectrum(&self, x: &[f64]) -> anyhow::Result<Vec<Complex64>> {
        let n = self.planner_len;
        if x.len() != n {
            bail!("whitening a series of {} samples on a grid of {n}", x.len());
        }
        let mut input: Vec<f64> = x.iter().zip(&self.window).map(|(v, w)| v * w).collect();
        let mut spectrum = vec![Complex64::new(0.0, 0.0); n / 2 + 1];
        RealFftPlanner::<f64>::new()
            .plan_fft_forward(n)
            .process(&mut input, &mut spectrum)
            .map_err(|e| anyhow::anyhow!("whitening FFT: {e}"))?;
        for (z, w) in spectrum.iter_mut().zip(&self.weights) {
            *z *= *w / n as f64;
        }
        if n & 1 == 0 {
            spectrum[n / 2].im = 0.0;
        }
        Ok(spectrum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frequency_series_round_trip_and_whitened_noise_has_unit_variance() {
        let grid = SampleGrid::new(-2.0, 256.0, 4.0).unwrap();
        let n = grid.len;
        let x: Vec<f64> = (0..n)
            .map(|i| (0.3 * i as f64).sin() + 0.1 * (i % 7) as f64)
            .collect();
        // bilby's frequency series: rfft(x)/fs.
        let mut input = x.clone();
        let mut spec = vec![Complex64::new(0.0, 0.0); n / 2 + 1];
        RealFftPlanner::<f64>::new()
            .plan_fft_forward(n)
            .process(&mut input, &mut spec)
            .unwrap();
        let dir = std::env::temp_dir().join(format!("tdpe-fd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fd.txt");
        let text: String = spec
            .iter()
            .enumerate()
            .map(|(j, z)| format!("{} {:e} {:e}\n", j as f64 / 4.0, z.re / 256.0, z.im / 256.0))
            .collect();
        std::fs::write(&path, text).unwrap();
        let back = read_frequency_series(&path, &grid).unwrap();
        for (a, b) in x.iter().zip(&back) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
        std::fs::remove_dir_all(&dir).unwrap();

        let grid = SampleGrid::new(-2.0, 2048.0, 8.0).unwrap();
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let cutoff = AnalysisBand::default();
        let noise = simulate_noise(&psd, &cutoff, &grid, 5).unwrap();
        let w = Whitener::new(&psd, &cutoff, &grid)
            .unwrap()
            .whiten(&noise)
            .unwrap();
        let middle = &w[w.len() / 4..3 * w.len() / 4];
        let var = middle.iter().map(|v| v * v).sum::<f64>() / middle.len() as f64;
        assert!((var - 1.0).abs() < 0.05, "{var}");
        assert_ne!(detector_seed(1, 0), detector_seed(1, 1));
    }

    /// The band-pass keeps a signal inside its band as it was and removes the noise above it.
    #[test]
    fn band_passed_whitening_keeps_the_signal_band_only() {
        let grid = SampleGrid::new(-2.0, 2048.0, 8.0).unwrap();
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let band = AnalysisBand::default();
        let whitener = Whitener::new(&psd, &band, &grid).unwrap();
        // A 60 Hz tone with a Gaussian envelope around t = 0.
        let tone: Vec<f64> = (0..grid.len)
            .map(|i| {
                let t = grid.time(i);
                (-t * t / 0.02).exp() * (std::f64::consts::TAU * 60.0 * t).cos() * 1e-21
            })
            .collect();
        let mut power = whitener.zero_power();
        whitener.add_power(&mut power, &tone).unwrap();
        let edge = whitener.power_edge(&power, 0.999);
        assert!((60.0..75.0).contains(&edge), "{edge}");
        let full = whitener.whiten(&tone).unwrap();
        let noise = simulate_noise(&psd, &band, &grid, 7).unwrap();
        let white = whitener.whiten(&noise).unwrap();
        let passed = whitener.band_passed(200.0);
        let kept = passed.whiten(&tone).unwrap();
        let peak = full.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let change = full
            .iter()
            .zip(&kept)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(change <= 1e-3 * peak, "{change} of {peak}");
        // White noise from 20 to 1024 Hz keeps about (208 − 20)/(1024 − 20) of its variance.
        let variance = |x: &[f64]| {
            let middle = &x[x.len() / 4..3 * x.len() / 4];
            middle.iter().map(|v| v * v).sum::<f64>() / middle.len() as f64
        };
        let ratio = variance(&passed.whiten(&noise).unwrap()) / variance(&white);
        assert!((0.16..0.22).contains(&ratio), "{ratio}");
        assert!(passed.whiten(&[0.0; 10]).is_err());
    }

    #[test]
    fn time_series_rows_off_the_uniform_grid_are_errors_naming_the_line() {
        let grid = SampleGrid::new(-1.0, 64.0, 2.0).unwrap();
        let start_gps = 1e9 + grid.start;
        let times: Vec<f64> = (0..160)
            .map(|k| start_gps - 0.5 + k as f64 / 64.0)
            .collect();
        let dir = std::env::temp_dir().join(format!("tdpe-td-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("td.txt");
        let read = |times: &[f64]| {
            let text: String = times
                .iter()
                .enumerate()
                .map(|(k, t)| format!("{t:.9} {}\n", k as f64 * 1e-21))
                .collect();
            std::fs::write(&path, format!("# GPS strain\n{text}")).unwrap();
            read_time_series(&path, &grid, start_gps)
        };
        let data = read(&times).unwrap();
        assert_eq!(data.len(), grid.len);
        assert_eq!(data[0], 32e-21);
        let mut duplicated = times.clone();
        duplicated.insert(50, times[49]);
        let mut swapped = times.clone();
        swapped.swap(70, 71);
        let mut jittered = times.clone();
        jittered[90] += 0.3 / 64.0;
        // Line numbers count the comment line: row k is on line k + 2.
        for (bad, line) in [(duplicated, 52), (swapped, 72), (jittered, 92)] {
            let message = format!("{:#}", read(&bad).unwrap_err());
            assert!(
                message.contains(&format!("td.txt:{line}: time")),
                "{message}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
