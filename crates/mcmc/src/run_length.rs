//! How long a run samples: the planned draws, then more until the chains meet a convergence
//! target (for [`crate::sample_until_converged`]; docs/sampling.md §10).

use crate::McmcError;

/// Extends a run until every monitored quantity has R̂ below `max_rhat` and a bulk ESS of at
/// least `min_ess_bulk`, but never beyond `max_draws` draws per chain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConvergenceTarget {
    /// R̂ every monitored quantity must stay below (Vehtari et al. 2021 recommend 1.01).
    pub max_rhat: f64,
    /// Bulk ESS every monitored quantity must reach, over all chains together.
    pub min_ess_bulk: f64,
    /// The most draws per chain the run may make.
    pub max_draws: usize,
}

/// Safety factor on the draws the ESS predicts: ESS estimates scatter by ~10 % at these lengths.
const PREDICTION_MARGIN: f64 = 1.1;

/// The smallest extension, as a fraction of the draws so far: where R̂ and not the ESS is short,
/// the run goes on by a quarter at a time.
const SMALLEST_EXTENSION: f64 = 0.25;

impl ConvergenceTarget {
    /// Checks 1 < `max_rhat`, `min_ess_bulk` ≥ 0 and `max_draws` ≥ the planned `num_draws`.
    pub fn validate(&self, num_draws: usize) -> Result<(), McmcError> {
        let invalid = |name, value: String, allowed| {
            Err(McmcError::InvalidSetting {
                name,
                value,
                allowed,
            })
        };
        if !(self.max_rhat > 1.0 && self.max_rhat.is_finite()) {
            return invalid("max_rhat", self.max_rhat.to_string(), "finite and > 1");
        }
        if !(self.min_ess_bulk >= 0.0 && self.min_ess_bulk.is_finite()) {
            return invalid(
                "min_ess_bulk",
                self.min_ess_bulk.to_string(),
                "finite and ≥ 0",
            );
        }
        if self.max_draws < num_draws {
            return invalid(
                "max_draws",
                format!("{} (num_draws = {num_draws})", self.max_draws),
                "at least num_draws",
            );
        }
        Ok(())
    }

    /// Whether every `(R̂, bulk ESS)` pair meets the target (a NaN does not).
    pub fn is_met(&self, diagnostics: &[(f64, f64)]) -> bool {
        diagnostics
            .iter()
            .all(|&(rhat, ess)| rhat < self.max_rhat && ess >= self.min_ess_bulk)
    }

    /// The draws per chain to go on to from `draws` per chain, given the monitored quantities'
    /// `(R̂, bulk ESS)`: `None` when the target is met or `max_draws` reached. Otherwise the
    /// length at which the smallest ESS, growing in proportion to the draws as it does for
    /// mixing chains, would reach the target (with a margin), at least a quarter more than now,
    /// and at most `max_draws`.
    pub fn next_length(&self, draws: usize, diagnostics: &[(f64, f64)]) -> Option<usize> {
        if self.is_met(diagnostics) || draws >= self.max_draws {
            return None;
        }
        let smallest_ess = diagnostics
            .iter()
            .map(|&(_, ess)| ess)
            .fold(
                f64::INFINITY,
                |a, b| if b < a || b.is_nan() { b } else { a },
            );
        let predicted = if smallest_ess > 0.0 {
            draws as f64 * PREDICTION_MARGIN * self.min_ess_bulk / smallest_ess
        } else {
            // No ESS to extrapolate from (zero or NaN): as far as allowed.
            f64::INFINITY
        };
        let smallest = draws as f64 * (1.0 + SMALLEST_EXTENSION);
        let next = predicted.max(smallest).ceil().min(self.max_draws as f64);
        Some((next as usize).max(draws + 1).min(self.max_draws))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TARGET: ConvergenceTarget = ConvergenceTarget {
        max_rhat: 1.01,
        min_ess_bulk: 1000.0,
        max_draws: 6000,
    };

    #[test]
    fn a_met_target_ends_the_run() {
        assert_eq!(
            TARGET.next_length(1500, &[(1.002, 1638.0), (1.009, 1000.0)]),
            None
        );
        assert!(TARGET.is_met(&[]));
    }

    #[test]
    fn a_short_ess_predicts_the_length_with_a_margin() {
        // 1500 · 1.1 · 1000/500 = 3300, rounded up.
        let predicted = (1500.0 * PREDICTION_MARGIN * 2.0).ceil() as usize;
        assert!((3300..=3301).contains(&predicted));
        assert_eq!(
            TARGET.next_length(1500, &[(1.001, 500.0), (1.0, 2000.0)]),
            Some(predicted)
        );
    }

    #[test]
    fn a_high_rhat_alone_extends_by_a_quarter() {
        assert_eq!(TARGET.next_length(1500, &[(1.02, 5000.0)]), Some(1875));
    }

    #[test]
    fn the_length_never_passes_max_draws() {
        assert_eq!(TARGET.next_length(1500, &[(1.3, 29.0)]), Some(6000));
        assert_eq!(TARGET.next_length(5000, &[(1.0, 999.0)]), Some(6000));
        assert_eq!(TARGET.next_length(6000, &[(1.3, 29.0)]), None);
    }

    #[test]
    fn nan_diagnostics_are_not_converged_and_go_to_the_end() {
        assert!(!TARGET.is_met(&[(f64::NAN, 2000.0)]));
        assert_eq!(
            TARGET.next_length(1500, &[(1.0, f64::NAN), (1.0, 900.0)]),
            Some(6000)
        );
        assert_eq!(TARGET.next_length(1500, &[(1.0, 0.0)]), Some(6000));
    }

    #[test]
    fn invalid_targets_are_refused() {
        let bad = |t: ConvergenceTarget| t.validate(1500).is_err();
        assert!(bad(ConvergenceTarget {
            max_rhat: 1.0,
            ..TARGET
        }));
        assert!(bad(ConvergenceTarget {
            max_rhat: f64::NAN,
            ..TARGET
        }));
        assert!(bad(ConvergenceTarget {
            min_ess_bulk: -1.0,
            ..TARGET
        }));
        assert!(bad(ConvergenceTarget {
            max_draws: 1499,
            ..TARGET
        }));
        assert!(TARGET.validate(1500).is_ok());
    }
}
