//! bilby_pipe's analysis segment, [trigger + post_trigger_duration − duration,
//! trigger + post_trigger_duration), and its samples in a file: a span starts on the last file
//! sample at or before its start time (gwpy's `TimeSeries.crop`, which bilby_pipe uses) and
//! has duration × f_s samples. A trigger at 1126259462.4 s on a 4096 Hz grid from an integer
//! GPS second thus starts at 1126259460.39990234375 s (sample 1638.4 → 1638 of its second).

use crate::error::StrainError;
use crate::gwosc::{GwoscFile, GRID_TOLERANCE};

/// A GPS interval [start, end) in s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    /// GPS start.
    pub start: f64,
    /// GPS end (excluded).
    pub end: f64,
}

impl Span {
    /// bilby_pipe's analysis segment around `trigger_time`.
    pub fn analysis(
        trigger_time: f64,
        duration: f64,
        post_trigger_duration: f64,
    ) -> Result<Self, StrainError> {
        if !(duration.is_finite() && duration > 0.0) {
            return Err(StrainError::InvalidSetting {
                name: "duration",
                value: duration,
                allowed: "must be > 0 s".into(),
            });
        }
        if !(0.0..duration).contains(&post_trigger_duration) {
            return Err(StrainError::InvalidSetting {
                name: "post-trigger-duration",
                value: post_trigger_duration,
                allowed: format!("must be in [0, duration = {duration}) s"),
            });
        }
        let end = trigger_time + post_trigger_duration;
        Ok(Self {
            start: end - duration,
            end,
        })
    }

    /// Length in s.
    pub fn duration(&self) -> f64 {
        self.end - self.start
    }

    /// Whether the two spans share any time.
    pub fn overlaps(&self, other: &Span) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// A span's samples in a file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleSpan {
    /// Index of the first sample in the file.
    pub first: usize,
    /// Number of samples.
    pub len: usize,
    /// GPS time of the first sample (on the file's grid, at or before the requested start).
    pub start: f64,
    /// The span asked for.
    pub requested: Span,
}

impl SampleSpan {
    /// GPS time just after the last sample.
    pub fn end(&self, sampling_frequency: f64) -> f64 {
        self.start + self.len as f64 / sampling_frequency
    }
}

/// The samples of `span` in `file` (`what` names the span in messages); an error if any of it
/// lies outside the file.
pub fn snap(file: &GwoscFile, span: Span, what: &str) -> Result<SampleSpan, StrainError> {
    let fs = file.sampling_frequency;
    let outside = || StrainError::OutsideFile {
        path: file.path().into(),
        what: what.into(),
        start: span.start,
        end: span.end,
        file_start: file.start,
        file_end: file.end(),
    };
    let samples = span.duration() * fs;
    let len = samples.round();
    if (samples - len).abs() > GRID_TOLERANCE || len < 1.0 {
        return Err(StrainError::InvalidSetting {
            name: "duration",
            value: span.duration(),
            allowed: format!("must be a whole number of samples at the file's {fs} Hz"),
        });
    }
    // f64 GPS times carry ~0.1 µs of rounding: a start within 10⁻³ sample of a grid point is
    // on it, not one sample earlier.
    let offset = ((span.start - file.start) * fs + GRID_TOLERANCE).floor();
    if offset < 0.0 || offset + len > file.len as f64 {
        return Err(outside());
    }
    let first = offset as usize;
    Ok(SampleSpan {
        first,
        len: len as usize,
        start: file.time_of(first),
        requested: span,
    })
}

/// Fails if `samples` (the file's samples from index `first`) hold NaN or ±∞, naming the GPS
/// stretch of the first run of them.
pub fn check_finite(
    file: &GwoscFile,
    what: &str,
    span: &SampleSpan,
    first: usize,
    samples: &[f64],
) -> Result<(), StrainError> {
    let Some(bad) = samples.iter().position(|v| !v.is_finite()) else {
        return Ok(());
    };
    let run_end = samples[bad..]
        .iter()
        .position(|v| v.is_finite())
        .map_or(samples.len(), |k| bad + k);
    Err(StrainError::BadData {
        path: file.path().into(),
        what: what.into(),
        start: span.start,
        end: span.end(file.sampling_frequency),
        problem: format!("{} missing (NaN) samples", run_end - bad),
        bad_start: file.time_of(first + bad),
        bad_end: file.time_of(first + run_end),
    })
}

/// Fails if a flag of `required` is not set somewhere in the span (when the file has a
/// data-quality mask), naming the flag and the GPS seconds.
pub fn check_flags(
    file: &GwoscFile,
    what: &str,
    span: &SampleSpan,
    required: &[&str],
) -> Result<(), StrainError> {
    let Some(mask) = &file.data_quality else {
        return Ok(());
    };
    let end = span.end(file.sampling_frequency);
    match mask.first_failure(required, span.start, end) {
        Ok(None) => Ok(()),
        Ok(Some(failure)) => Err(StrainError::BadData {
            path: file.path().into(),
            what: what.into(),
            start: span.start,
            end,
            problem: format!("data failing the {} data-quality flag", failure.flag),
            bad_start: failure.start,
            bad_end: failure.end,
        }),
        Err(flag) => Err(StrainError::Layout {
            path: file.path().into(),
            item: "quality/simple/DQShortnames".into(),
            message: format!(
                "has no flag {flag} (it has {:?}); name flags it has",
                mask.names
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_analysis_segment_is_bilby_pipes() {
        let span = Span::analysis(1126259462.4, 4.0, 2.0).unwrap();
        assert_eq!(span.end, 1126259464.4);
        assert!((span.start - 1126259460.4).abs() < 1e-6);
        assert!(Span::analysis(0.0, 4.0, 4.0).is_err());
        assert!(Span::analysis(0.0, -1.0, 0.0).is_err());
        let psd = Span {
            start: span.start - 128.0,
            end: span.start,
        };
        assert!(!psd.overlaps(&span));
        assert!(Span {
            end: span.start + 0.1,
            ..psd
        }
        .overlaps(&span));
    }
}
