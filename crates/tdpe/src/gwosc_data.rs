//! Strain and PSDs from GWOSC HDF5 files, prepared as bilby_pipe prepares them
//! (docs/strain_data.md): the analysis segment cut on the file's sample grid, decimated to the
//! analysis rate with scipy's anti-alias filter, checked for missing or flagged data; for a
//! detector without a PSD in the config, the median-Welch PSD of the off-source data before the
//! segment. Everything here runs before the likelihood is built, so a bad file fails first.

use std::fmt::Write;
use std::path::Path;

use anyhow::{bail, Context};
use tdpe_noise::Psd;
use tdpe_strain::gwosc::GRID_TOLERANCE;
use tdpe_strain::{segment, Decimator, GwoscFile, SampleSpan, Span};

use crate::config::{Config, StrainFiles};

/// Two detectors' first samples closer than this (s) are on one grid (f64 GPS rounding).
const SAME_GRID_TOLERANCE: f64 = 1e-6;

/// The data of every detector, in network order.
pub struct GwoscData {
    /// GPS time of the first analysis sample, on the files' grid (at or before the segment
    /// start bilby_pipe's settings ask for).
    pub start: f64,
    /// Per detector.
    pub detectors: Vec<GwoscDetector>,
}

impl GwoscData {
    /// Per detector in network order: the samples, the estimated PSD (if any), the
    /// description.
    pub fn into_parts(self) -> (Vec<Vec<f64>>, Vec<Option<Psd>>, Vec<String>) {
        let mut parts = (Vec::new(), Vec::new(), Vec::new());
        for d in self.detectors {
            parts.0.push(d.samples);
            parts.1.push(d.estimated_psd);
            parts.2.push(d.description);
        }
        parts
    }
}

/// One detector's analysis data and, if it was estimated here, its PSD.
pub struct GwoscDetector {
    /// duration × sampling_frequency samples at the analysis rate.
    pub samples: Vec<f64>,
    /// The median-Welch PSD of the off-source data, when the config gives none.
    pub estimated_psd: Option<Psd>,
    /// Where the data came from, for the summary: file, rates, first sample, PSD data.
    pub description: String,
}

/// Reads every detector's file of `strain`.
pub fn read(config: &Config, strain: &StrainFiles) -> anyhow::Result<GwoscData> {
    let analysis = Span::analysis(
        config.trigger_time,
        config.duration,
        config.post_trigger_duration,
    )?;
    let flags = strain.required_flags();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let mut start: Option<(String, f64)> = None;
    let mut detectors = Vec::with_capacity(config.detectors.len());
    for name in &config.detectors {
        let path = config.resolve(&strain.files[name]);
        let (detector, first) = read_detector(config, name, &path, analysis, &flags)
            .with_context(|| format!("strain of {name}"))?;
        match &start {
            Some((other, t)) if (first - t).abs() > SAME_GRID_TOLERANCE => bail!(
                "the analysis segment starts at GPS {first} in {name}'s file but at GPS {t} in \
                 {other}'s: the files' sample grids differ, and the detectors must share one"
            ),
            Some(_) => {}
            None => start = Some((name.clone(), first)),
        }
        detectors.push(detector);
    }
    let start = start.map(|(_, t)| t).context("no detectors")?;
    Ok(GwoscData { start, detectors })
}

/// One detector: its data, and the GPS time of its first sample.
fn read_detector(
    config: &Config,
    name: &str,
    path: &Path,
    analysis: Span,
    flags: &[&str],
) -> anyhow::Result<(GwoscDetector, f64)> {
    let file = GwoscFile::open(path)?;
    if !file.detector.eq_ignore_ascii_case(name) {
        bail!(
            "{}: meta/Detector is '{}', not {name}: is it the file of another detector?",
            file.path(),
            file.detector
        );
    }
    let fs = config.sampling_frequency;
    let decimator = Decimator::between(file.sampling_frequency, fs)?;
    let what = "analysis segment";
    let span = segment::snap(&file, analysis, what)?;
    segment::check_flags(&file, what, &span, flags)?;
    let samples = read_decimated(&file, &span, &decimator, what)?;

    let mut description = String::new();
    let _ = write!(
        description,
        "{name}: {}, {} Hz",
        file.path(),
        file.sampling_frequency
    );
    if decimator.factor() > 1 {
        let _ = write!(
            description,
            " decimated by {} to {fs} Hz (scipy's FIR anti-alias filter)",
            decimator.factor()
        );
    }
    let lag = (analysis.start - span.start) * file.sampling_frequency;
    let _ = write!(
        description,
        "; the segment starts on file sample {} at GPS {}",
        span.first, span.start
    );
    if lag > GRID_TOLERANCE {
        let _ = write!(
            description,
            " ({lag:.3} samples before the requested GPS {})",
            analysis.start
        );
    }

    let estimated_psd = if config.psd.contains_key(name) {
        None
    } else {
        let settings = config.psd_estimation.clone().unwrap_or_default().settings();
        let what = "PSD data";
        let psd_span = segment::snap(&file, settings.span(&analysis)?, what)?;
        segment::check_flags(&file, what, &psd_span, flags)?;
        let data = read_decimated(&file, &psd_span, &decimator, what)?;
        let estimate = settings.estimate(&data, fs, config.duration)?;
        let psd_end = psd_span.end(file.sampling_frequency);
        let _ = write!(
            description,
            "; PSD: median Welch of GPS [{}, {psd_end}) in {} segments of {} s",
            psd_span.start, estimate.n_segments, config.duration
        );
        Some(estimate.to_psd(&format!("{name}_psd.txt (estimated)"))?)
    };
    let detector = GwoscDetector {
        samples,
        estimated_psd,
        description,
    };
    Ok((detector, span.start))
}

/// The span's samples decimated to the analysis rate, with the filter's half length of real
/// data each side where the file has it; NaN anywhere the filter reaches is an error naming
/// the span.
fn read_decimated(
    file: &GwoscFile,
    span: &SampleSpan,
    decimator: &Decimator,
    what: &str,
) -> anyhow::Result<Vec<f64>> {
    let q = decimator.factor();
    if !span.len.is_multiple_of(q) {
        bail!(
            "the {what} has {} samples at {} Hz, not a whole number of samples at the analysis \
             rate",
            span.len,
            file.sampling_frequency
        );
    }
    let lo = span.first.saturating_sub(decimator.half_len());
    let hi = (span.first + span.len + decimator.half_len()).min(file.len);
    let raw = file.read(lo..hi)?;
    segment::check_finite(file, what, span, lo, &raw)?;
    Ok(decimator.apply(&raw, span.first - lo, span.len / q))
}

/// Writes `psd` as a two-column text file (frequency in Hz, PSD in 1/Hz), as bilby reads them.
pub fn write_psd(psd: &Psd, header: &str, path: &Path) -> anyhow::Result<()> {
    let mut text = format!("# {header}\n# frequency (Hz)  PSD (1/Hz)\n");
    for (f, s) in psd.frequencies().iter().zip(psd.values()) {
        let _ = writeln!(text, "{f} {s:e}");
    }
    crate::output::atomic::write_bytes(path, text.as_bytes())
}
