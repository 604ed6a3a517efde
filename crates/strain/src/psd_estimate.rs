//! The PSD from off-source data as bilby_pipe estimates it by default: a median Welch average
//! (gwpy's `TimeSeries.psd(method='median')`, i.e. `scipy.signal.welch(average='median')`)
//! over `psd_duration = min(psd_length × duration, psd_maximum_duration)` s of data starting
//! at `psd_start_time` s relative to the analysis segment's start (default −psd_duration: the
//! data just before the segment), in segments of `duration` s overlapping by
//! `psd_fractional_overlap`, each under a Tukey window of α = 2·tukey_roll_off/duration.
//! The estimate itself is `tdpe_noise::welch`.

use tdpe_noise::{welch_median, WelchEstimate, WelchOptions, WelchWindow};

use crate::error::StrainError;
use crate::segment::Span;

/// bilby_pipe's PSD options (its names, its defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PsdSettings {
    /// PSD data length in analysis durations (bilby_pipe's `psd-length`, default 32).
    pub psd_length: u32,
    /// Overlap of the Welch segments as a fraction of their length (default 0.5).
    pub psd_fractional_overlap: f64,
    /// Cap on the PSD data's length in s (default 1024).
    pub psd_maximum_duration: f64,
    /// Start of the PSD data relative to the analysis segment's start in s (default
    /// −psd_duration).
    pub psd_start_time: Option<f64>,
    /// Roll-off of the Tukey window in s (default 0.4).
    pub tukey_roll_off: f64,
}

impl Default for PsdSettings {
    fn default() -> Self {
        Self {
            psd_length: 32,
            psd_fractional_overlap: 0.5,
            psd_maximum_duration: 1024.0,
            psd_start_time: None,
            tukey_roll_off: 0.4,
        }
    }
}

impl PsdSettings {
    /// Checks the ranges.
    pub fn validate(&self, duration: f64) -> Result<(), StrainError> {
        if self.psd_length == 0 {
            return Err(StrainError::InvalidSetting {
                name: "psd-length",
                value: 0.0,
                allowed: "must be at least 1 (duration)".into(),
            });
        }
        if !(0.0..1.0).contains(&self.psd_fractional_overlap) {
            return Err(StrainError::InvalidSetting {
                name: "psd-fractional-overlap",
                value: self.psd_fractional_overlap,
                allowed: "must be in [0, 1)".into(),
            });
        }
        if self.psd_maximum_duration.is_nan() || self.psd_maximum_duration < duration {
            return Err(StrainError::InvalidSetting {
                name: "psd-maximum-duration",
                value: self.psd_maximum_duration,
                allowed: format!("must be at least the duration {duration} s"),
            });
        }
        if !(0.0..=duration / 2.0).contains(&self.tukey_roll_off) {
            return Err(StrainError::InvalidSetting {
                name: "tukey-roll-off",
                value: self.tukey_roll_off,
                allowed: format!("must be in [0, duration/2 = {}] s", duration / 2.0),
            });
        }
        if let Some(t) = self.psd_start_time {
            if !t.is_finite() {
                return Err(StrainError::InvalidSetting {
                    name: "psd-start-time",
                    value: t,
                    allowed: "must be finite (s relative to the segment start)".into(),
                });
            }
        }
        Ok(())
    }

    /// bilby_pipe's psd_duration: psd_length × duration, capped at psd_maximum_duration.
    pub fn psd_duration(&self, duration: f64) -> f64 {
        (self.psd_length as f64 * duration).min(self.psd_maximum_duration)
    }

    /// The PSD data's span for an analysis segment; an error if the two overlap (the PSD
    /// would then contain the signal).
    pub fn span(&self, analysis: &Span) -> Result<Span, StrainError> {
        let duration = analysis.duration();
        self.validate(duration)?;
        let psd_duration = self.psd_duration(duration);
        let start = analysis.start + self.psd_start_time.unwrap_or(-psd_duration);
        let span = Span {
            start,
            end: start + psd_duration,
        };
        if span.overlaps(analysis) {
            return Err(StrainError::InvalidSetting {
                name: "psd-start-time",
                value: self.psd_start_time.unwrap_or(-psd_duration),
                allowed: format!(
                    "the PSD data GPS [{}, {}) overlap the analysis segment GPS [{}, {}): \
                     choose psd-start-time ≤ −{psd_duration} or ≥ {duration} s",
                    span.start, span.end, analysis.start, analysis.end
                ),
            });
        }
        Ok(span)
    }

    /// The Welch options for segments of `duration` s at `fs` Hz.
    pub fn welch_options(&self, fs: f64, duration: f64) -> WelchOptions {
        let segment_len = (duration * fs).round() as usize;
        WelchOptions {
            segment_len,
            overlap: (self.psd_fractional_overlap * segment_len as f64).round() as usize,
            window: WelchWindow::Tukey {
                alpha: 2.0 * self.tukey_roll_off / duration,
            },
        }
    }

    /// The median-Welch PSD of `samples` (at `fs` Hz) in segments of `duration` s.
    pub fn estimate(
        &self,
        samples: &[f64],
        fs: f64,
        duration: f64,
    ) -> Result<WelchEstimate, StrainError> {
        Ok(welch_median(
            samples,
            fs,
            &self.welch_options(fs, duration),
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_span_is_just_before_the_segment_and_overlaps_are_refused() {
        let settings = PsdSettings::default();
        let analysis = Span {
            start: 1000.0,
            end: 1004.0,
        };
        assert_eq!(
            settings.span(&analysis).unwrap(),
            Span {
                start: 872.0,
                end: 1000.0
            }
        );
        // 32 × 64 s = 2048 s, capped at 1024 s.
        assert_eq!(settings.psd_duration(64.0), 1024.0);
        let after = PsdSettings {
            psd_start_time: Some(4.0),
            ..settings
        };
        assert_eq!(after.span(&analysis).unwrap().start, 1004.0);
        let overlapping = PsdSettings {
            psd_start_time: Some(-100.0),
            ..settings
        };
        let message = overlapping.span(&analysis).unwrap_err().to_string();
        assert!(
            message.contains("overlap the analysis segment GPS [1000, 1004)"),
            "{message}"
        );
        assert!(PsdSettings {
            psd_fractional_overlap: 1.0,
            ..settings
        }
        .validate(4.0)
        .is_err());
        let opts = settings.welch_options(2048.0, 4.0);
        assert_eq!((opts.segment_len, opts.overlap), (8192, 4096));
        assert_eq!(opts.window, WelchWindow::Tukey { alpha: 0.2 });
    }
}
