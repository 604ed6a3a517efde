//! One-sided power spectral densities: reading, validation, log-log interpolation, built-in
//! design curves.

use crate::error::NoiseError;
use std::path::Path;

/// What the second column of a PSD file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PsdColumn {
    /// One-sided PSD S(f), 1/Hz.
    Psd,
    /// Amplitude spectral density √S(f), 1/√Hz (squared on reading).
    Asd,
}

/// Names of the built-in curves (LALSimulation 6.2.1 noise models, tabulated 5 Hz – 4096 Hz as
/// ASDs in `crates/noise/data/`).
pub const BUILTIN_PSDS: [&str; 4] = [
    "aLIGOZeroDetHighPower",
    "aLIGODesignSensitivityT1800044",
    "AdVDesignSensitivityP1200087",
    "KAGRADesignSensitivityT1600593",
];

const BUILTIN_TEXT: [&str; 4] = [
    include_str!("../data/aLIGOZeroDetHighPower_asd.txt"),
    include_str!("../data/aLIGODesignSensitivityT1800044_asd.txt"),
    include_str!("../data/AdVDesignSensitivityP1200087_asd.txt"),
    include_str!("../data/KAGRADesignSensitivityT1600593_asd.txt"),
];

/// A one-sided PSD tabulated at strictly increasing positive frequencies, interpolated
/// linearly in (log f, log S). Outside the tabulated band it is undefined (an error).
#[derive(Debug, Clone, PartialEq)]
pub struct Psd {
    name: String,
    freqs: Vec<f64>,
    values: Vec<f64>,
    log_f: Vec<f64>,
    log_s: Vec<f64>,
}

impl Psd {
    /// From arrays of frequencies (Hz, strictly increasing, > 0) and PSD values (1/Hz, > 0).
    pub fn from_samples(name: &str, freqs: Vec<f64>, values: Vec<f64>) -> Result<Self, NoiseError> {
        let bad = |message: String| NoiseError::InvalidPsd {
            name: name.to_string(),
            message,
        };
        if freqs.len() != values.len() {
            return Err(bad(format!(
                "{} frequencies but {} values",
                freqs.len(),
                values.len()
            )));
        }
        if freqs.len() < 2 {
            return Err(bad(format!("needs at least 2 points, got {}", freqs.len())));
        }
        for (i, (&f, &s)) in freqs.iter().zip(&values).enumerate() {
            if let Some(message) = row_problem(f, s, if i > 0 { Some(freqs[i - 1]) } else { None })
            {
                return Err(bad(format!("point {i}: {message}")));
            }
        }
        Ok(Self::build(name, freqs, values))
    }

    fn build(name: &str, freqs: Vec<f64>, values: Vec<f64>) -> Self {
        let log_f = freqs.iter().map(|f| f.ln()).collect();
        let log_s = values.iter().map(|s| s.ln()).collect();
        Self {
            name: name.to_string(),
            freqs,
            values,
            log_f,
            log_s,
        }
    }

    /// Parse two-column text (frequency, PSD or ASD), whitespace- or comma-separated; blank
    /// lines and everything after '#' are ignored. `source_name` names the text in errors.
    pub fn parse(text: &str, source_name: &str, column: PsdColumn) -> Result<Self, NoiseError> {
        let mut freqs = Vec::new();
        let mut values = Vec::new();
        let mut first_line = 0;
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |message: String| NoiseError::Parse {
                source_name: source_name.to_string(),
                line: line_no,
                message,
            };
            let fields: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|s| !s.is_empty())
                .collect();
            if fields.len() != 2 {
                return Err(err(format!(
                    "expected 2 columns (frequency, {}), found {}",
                    if column == PsdColumn::Asd {
                        "ASD"
                    } else {
                        "PSD"
                    },
                    fields.len()
                )));
            }
            let parse = |s: &str, what: &str| {
                s.parse::<f64>()
                    .map_err(|_| err(format!("cannot parse {what} '{s}' as a number")))
            };
            let f = parse(fields[0], "frequency")?;
            let mut v = parse(fields[1], "value")?;
            if let Some(message) = row_problem(f, v, freqs.last().copied()) {
                return Err(err(message));
            }
            if column == PsdColumn::Asd {
                v *= v;
            }
            if freqs.is_empty() {
                first_line = line_no;
            }
            freqs.push(f);
            values.push(v);
        }
        if freqs.len() < 2 {
            return Err(NoiseError::Parse {
                source_name: source_name.to_string(),
                line: first_line,
                message: format!("needs at least 2 data rows, found {}", freqs.len()),
            });
        }
        Ok(Self::build(source_name, freqs, values))
    }

    /// Read a two-column file (see [`Psd::parse`]).
    pub fn from_file(path: impl AsRef<Path>, column: PsdColumn) -> Result<Self, NoiseError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| NoiseError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string(), column)
    }

    /// A built-in curve by name (see [`BUILTIN_PSDS`]; case-insensitive).
    pub fn builtin(name: &str) -> Result<Self, NoiseError> {
        let idx = BUILTIN_PSDS
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| NoiseError::UnknownPsd {
                name: name.to_string(),
                known: BUILTIN_PSDS.join(", "),
            })?;
        Self::parse(BUILTIN_TEXT[idx], BUILTIN_PSDS[idx], PsdColumn::Asd)
    }

    /// The default design curve of a detector: aLIGOZeroDetHighPower for H1 and L1,
    /// AdVDesignSensitivityP1200087 for V1, KAGRADesignSensitivityT1600593 for K1.
    pub fn default_for_detector(detector: &str) -> Result<Self, NoiseError> {
        match detector {
            "H1" | "L1" => Self::builtin("aLIGOZeroDetHighPower"),
            "V1" => Self::builtin("AdVDesignSensitivityP1200087"),
            "K1" => Self::builtin("KAGRADesignSensitivityT1600593"),
            _ => Err(NoiseError::UnknownPsd {
                name: format!("default PSD for detector '{detector}'"),
                known: "defaults exist for H1, L1, V1, K1".to_string(),
            }),
        }
    }

    /// Name (the file path or built-in name).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Tabulated frequencies (Hz).
    pub fn frequencies(&self) -> &[f64] {
        &self.freqs
    }
    /// Tabulated PSD values (1/Hz).
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    /// Lowest tabulated frequency (Hz).
    pub fn f_min(&self) -> f64 {
        self.freqs[0]
    }
    /// Highest tabulated frequency (Hz).
    pub fn f_max(&self) -> f64 {
        self.freqs[self.freqs.len() - 1]
    }

    /// Error unless the PSD is tabulated on all of [lo, hi] (Hz).
    pub fn check_covers(&self, lo: f64, hi: f64) -> Result<(), NoiseError> {
        if lo < self.f_min() || hi > self.f_max() {
            return Err(NoiseError::BandNotCovered {
                name: self.name.clone(),
                f_min: self.f_min(),
                f_max: self.f_max(),
                lo,
                hi,
            });
        }
        Ok(())
    }

    /// S(f) (1/Hz) by log-log interpolation; an error outside the tabulated band.
    pub fn value(&self, f: f64) -> Result<f64, NoiseError> {
        if f.is_nan() {
            return Err(NoiseError::InvalidParameter {
                name: "frequency",
                value: f,
                allowed: "a finite frequency in Hz".to_string(),
            });
        }
        self.check_covers(f, f)?;
        Ok(self.interp(f))
    }

    /// S at each of `freqs` (Hz), all of which must lie in the tabulated band.
    pub fn sample(&self, freqs: &[f64]) -> Result<Vec<f64>, NoiseError> {
        freqs.iter().map(|&f| self.value(f)).collect()
    }

    fn interp(&self, f: f64) -> f64 {
        let n = self.freqs.len();
        // Index of the first node > f, clamped so that [k-1, k] is a valid interval.
        let k = self.freqs.partition_point(|&x| x <= f).clamp(1, n - 1);
        let (x0, x1) = (self.log_f[k - 1], self.log_f[k]);
        let (y0, y1) = (self.log_s[k - 1], self.log_s[k]);
        let t = (f.ln() - x0) / (x1 - x0);
        (y0 + t * (y1 - y0)).exp()
    }
}

/// Why a (frequency, value) row is invalid, if it is.
fn row_problem(f: f64, v: f64, previous: Option<f64>) -> Option<String> {
    if !f.is_finite() {
        return Some(format!("frequency {f} is not finite"));
    }
    if f < 0.0 {
        return Some(format!(
            "negative frequency {f} Hz (frequencies must be > 0)"
        ));
    }
    if f == 0.0 {
        return Some(
            "frequency 0 Hz cannot be interpolated in log-log (frequencies must be > 0)"
                .to_string(),
        );
    }
    if !v.is_finite() {
        return Some(format!("value {v} at {f} Hz is not finite"));
    }
    if v <= 0.0 {
        return Some(format!("value {v} at {f} Hz must be > 0"));
    }
    if let Some(p) = previous {
        if f <= p {
            return Some(format!(
                "frequencies must increase strictly, but {f} Hz follows {p} Hz"
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_load_and_interpolate() {
        for name in BUILTIN_PSDS {
            let p = Psd::builtin(name).unwrap();
            assert_eq!(p.f_min(), 5.0);
            assert!(p.f_max() >= 4095.0);
            // Interpolation hits the nodes exactly.
            let (f, s) = (p.frequencies()[100], p.values()[100]);
            assert!((p.value(f).unwrap() / s - 1.0).abs() < 1e-12);
        }
        let p = Psd::default_for_detector("H1").unwrap();
        // aLIGO ZDHP at 100 Hz: ASD ≈ 4e-24.
        let asd = p.value(100.0).unwrap().sqrt();
        assert!(asd > 3e-24 && asd < 6e-24, "{asd}");
        assert!(Psd::builtin("nope").is_err());
        assert!(Psd::default_for_detector("X1").is_err());
    }

    #[test]
    fn log_log_interpolation_is_exact_for_power_laws() {
        let f: Vec<f64> = vec![10.0, 20.0, 40.0, 80.0];
        let s: Vec<f64> = f.iter().map(|x| 3.0 * x.powf(-4.5)).collect();
        let p = Psd::from_samples("pl", f, s).unwrap();
        for &x in &[10.0, 13.3, 27.0, 79.9, 80.0] {
            assert!((p.value(x).unwrap() / (3.0 * x.powf(-4.5)) - 1.0).abs() < 1e-12);
        }
        assert!(matches!(
            p.value(9.99),
            Err(NoiseError::BandNotCovered { .. })
        ));
        assert!(matches!(
            p.value(80.01),
            Err(NoiseError::BandNotCovered { .. })
        ));
    }

    #[test]
    fn bad_rows_are_reported_with_line_numbers() {
        let cases = [
            ("# c\n10 1e-46\n-5 1e-46\n", 3, "negative frequency"),
            ("10 1e-46\n20 nan\n", 2, "not finite"),
            ("10 1e-46\n20 -1e-46\n", 2, "must be > 0"),
            ("10 1e-46\n\n20 1e-46\n15 1e-46\n", 4, "increase strictly"),
            ("10 1e-46 3\n", 1, "expected 2 columns"),
            ("10 abc\n", 1, "cannot parse"),
            ("0 1e-46\n10 1e-46\n", 1, "0 Hz"),
        ];
        for (text, line, what) in cases {
            let err = Psd::parse(text, "test.txt", PsdColumn::Psd).unwrap_err();
            let msg = err.to_string();
            assert!(msg.starts_with(&format!("test.txt:{line}:")), "{msg}");
            assert!(msg.contains(what), "{msg}");
        }
        let err = Psd::from_file("/nonexistent/psd.txt", PsdColumn::Asd).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/psd.txt"));
    }

    #[test]
    fn asd_option_squares() {
        let p = Psd::parse("10, 2e-23 # ASD\n20, 1e-23\n", "x", PsdColumn::Asd).unwrap();
        assert!((p.values()[0] - 4e-46).abs() < 1e-58);
    }
}
