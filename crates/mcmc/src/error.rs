//! Errors of the sampler: bad configuration or a target that cannot be started.

/// What can go wrong before or while sampling.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum McmcError {
    /// A vector or matrix has the wrong length for the target's dimension.
    #[error("{what} has length {got}, but the target has dimension {expected}")]
    DimensionMismatch {
        /// Which input was wrong.
        what: &'static str,
        /// The target's dimension (or the required length).
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// A setting is outside its allowed range.
    #[error("invalid setting {name} = {value}: {allowed}")]
    InvalidSetting {
        /// Name of the setting.
        name: &'static str,
        /// Its value, formatted.
        value: String,
        /// The allowed range.
        allowed: &'static str,
    },
    /// No jittered initial point had a finite log density and gradient.
    #[error(
        "chain {chain}: no finite log density and gradient at {attempts} jittered initial points \
         (radius {radius} around the centre); check the target's support or the initial point"
    )]
    NonFiniteInitialPoint {
        /// Chain index.
        chain: usize,
        /// How many points were tried.
        attempts: usize,
        /// Half-width of the uniform jitter.
        radius: f64,
    },
    /// The step-size search ran away (Stan's heuristic: the density looks improper or flat).
    #[error(
        "chain {chain}: the initial step-size search reached {step_size:e}; the target looks \
         improper (flat) or degenerate at the current point"
    )]
    StepSizeSearch {
        /// Chain index.
        chain: usize,
        /// The step size at which the search gave up.
        step_size: f64,
    },
    /// A matrix meant to be a covariance is not symmetric positive definite.
    #[error(
        "{what} is not symmetric positive definite (pivot {pivot} is not positive and finite)"
    )]
    NotPositiveDefinite {
        /// Which matrix.
        what: &'static str,
        /// Index of the failing pivot.
        pivot: usize,
    },
    /// A checkpoint that cannot be read or does not fit the run.
    #[error("{0}")]
    Checkpoint(String),
}
