//! GWOSC's bit masks: one integer per second (`quality/simple/DQmask`,
//! `quality/injections/Injmask`), bit k meaning the k-th short name (`DQShortnames`,
//! `InjShortnames`). A set bit means the second passes that flag: `DATA` (data exist),
//! `CBC_CAT1` (no category-1 veto for compact-binary searches), ... For the injection mask a
//! set bit means *no* hardware injection of that kind (`NO_CBC_HW_INJ`, ...).

/// The flags bilby_pipe-style analyses need by default: the data exist and pass the
/// compact-binary category-1 vetoes (GWOSC's own minimum for astrophysical analyses).
pub const DEFAULT_REQUIRED_FLAGS: [&str; 2] = ["DATA", "CBC_CAT1"];

/// A bit mask sampled at `spacing` s from GPS `start`.
#[derive(Debug, Clone, PartialEq)]
pub struct BitMask {
    /// GPS time of the first value.
    pub start: f64,
    /// Seconds per value (1 in GWOSC files).
    pub spacing: f64,
    /// Name of bit k.
    pub names: Vec<String>,
    /// One value per `spacing` seconds.
    pub values: Vec<i64>,
}

/// A stretch of seconds where a flag is not set.
#[derive(Debug, Clone, PartialEq)]
pub struct FlagFailure {
    /// The flag's short name.
    pub flag: String,
    /// GPS start of the first failing stretch inside the span.
    pub start: f64,
    /// GPS end of that stretch.
    pub end: f64,
}

impl BitMask {
    /// The bit of the flag called `name`.
    pub fn bit(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// The value indices whose seconds overlap GPS [t0, t1), clamped to the mask.
    fn indices(&self, t0: f64, t1: f64) -> std::ops::Range<usize> {
        let first = ((t0 - self.start) / self.spacing).floor().max(0.0) as usize;
        let last = ((t1 - self.start) / self.spacing).ceil().max(0.0) as usize;
        first.min(self.values.len())..last.min(self.values.len())
    }

    /// The first flag of `flags` that fails somewhere in GPS [t0, t1), with its first failing
    /// stretch; `Err(name)` for a flag the mask does not have. Seconds outside the mask fail
    /// every flag.
    pub fn first_failure(
        &self,
        flags: &[&str],
        t0: f64,
        t1: f64,
    ) -> Result<Option<FlagFailure>, String> {
        let range = self.indices(t0, t1);
        let covered = (self.start + range.start as f64 * self.spacing) <= t0
            && (self.start + range.end as f64 * self.spacing) >= t1;
        for &flag in flags {
            let bit = self.bit(flag).ok_or_else(|| flag.to_string())?;
            if !covered {
                return Ok(Some(FlagFailure {
                    flag: flag.into(),
                    start: t0,
                    end: t1,
                }));
            }
            let passes = |i: usize| (self.values[i] >> bit) & 1 == 1;
            if let Some(first) = range.clone().find(|&i| !passes(i)) {
                let last = (first..range.end).find(|&i| passes(i)).unwrap_or(range.end);
                return Ok(Some(FlagFailure {
                    flag: flag.into(),
                    start: self.start + first as f64 * self.spacing,
                    end: self.start + last as f64 * self.spacing,
                }));
            }
        }
        Ok(None)
    }

    /// The names of the bits that are clear somewhere in GPS [t0, t1) (for the injection
    /// mask: the kinds of hardware injection there).
    pub fn cleared_in(&self, t0: f64, t1: f64) -> Vec<String> {
        let range = self.indices(t0, t1);
        self.names
            .iter()
            .enumerate()
            .filter(|(bit, _)| range.clone().any(|i| (self.values[i] >> bit) & 1 == 0))
            .map(|(_, name)| name.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_failing_stretch_of_the_first_failing_flag_is_found() {
        let mask = BitMask {
            start: 100.0,
            spacing: 1.0,
            names: vec!["DATA".into(), "CBC_CAT1".into()],
            // Seconds 100..110: CAT1 fails at 104 and 105, DATA everywhere.
            values: vec![3, 3, 3, 3, 1, 1, 3, 3, 3, 3],
        };
        assert_eq!(
            mask.first_failure(&["DATA", "CBC_CAT1"], 100.5, 103.9),
            Ok(None)
        );
        let failure = mask
            .first_failure(&["DATA", "CBC_CAT1"], 102.5, 108.0)
            .unwrap()
            .unwrap();
        assert_eq!(
            (failure.flag.as_str(), failure.start, failure.end),
            ("CBC_CAT1", 104.0, 106.0)
        );
        assert_eq!(
            mask.first_failure(&["CBC_CAT2"], 100.0, 101.0),
            Err("CBC_CAT2".into())
        );
        // Past the mask's end: not covered, so it fails.
        assert!(mask
            .first_failure(&["DATA"], 109.0, 111.0)
            .unwrap()
            .is_some());
        assert_eq!(mask.cleared_in(100.0, 110.0), vec!["CBC_CAT1".to_string()]);
        assert!(mask.cleared_in(100.0, 103.0).is_empty());
    }
}
