//! Errors of the relative-binning likelihood.

use thiserror::Error;

/// Everything that can go wrong when placing nodes, building summary data or evaluating the
/// relative-binning likelihood.
#[derive(Debug, Error)]
pub enum RbError {
    /// A slice whose length does not match the segment, the node set or the design set.
    #[error("length mismatch: {what} has {got} entries, expected {expected}")]
    LengthMismatch {
        /// What was mismatched.
        what: String,
        /// Length received.
        got: usize,
        /// Length expected.
        expected: usize,
    },
    /// A NaN or infinity where a finite number is required.
    #[error("{what} contains a non-finite value at index {index}")]
    NonFinite {
        /// Which input.
        what: &'static str,
        /// First bad index (sample or node).
        index: usize,
    },
    /// The degree-five basis needs at least 6 nodes (5 bins), one stencil.
    #[error("the Lagrange basis needs at least 6 nodes (one stencil), got {got}")]
    TooFewNodes {
        /// Number of nodes received.
        got: usize,
    },
    /// Node sample indices must be strictly increasing and inside the segment.
    #[error("invalid nodes: {0}")]
    InvalidNodes(String),
    /// The fiducial vanishes at a node, so the ratio r_b = W/v_{n_b} is undefined there.
    #[error("the fiducial is zero at node {node} (sample {sample}); end the node range where the fiducial is still nonzero")]
    ZeroFiducialAtNode {
        /// Node number b.
        node: usize,
        /// Its sample index n_b.
        sample: usize,
    },
    /// A refinement option out of range.
    #[error("invalid refinement option {name} = {value}: {allowed}")]
    InvalidOption {
        /// Option name.
        name: &'static str,
        /// Value received.
        value: f64,
        /// What is allowed.
        allowed: &'static str,
    },
    /// Node refinement would exceed the node-count guard before reaching the target.
    #[error("node refinement needs more than max_nodes = {max_nodes} nodes: error {error:e} > target {target:e} with {nodes} nodes")]
    TooManyNodes {
        /// The guard.
        max_nodes: usize,
        /// Node count reached.
        nodes: usize,
        /// Σ_b E_b reached.
        error: f64,
        /// The target T.
        target: f64,
    },
    /// A trial's arrival time outside the whole-sample shifts the summary data were built for.
    #[error(
        "a shift of {shift} samples from the fiducial's arrival time is outside the summary \
         data's {first}..={last}"
    )]
    ShiftOutOfRange {
        /// The shift asked for.
        shift: isize,
        /// The first shift of the table.
        first: isize,
        /// The last shift of the table.
        last: isize,
    },
    /// An error from the noise model (C⁻¹ apply).
    #[error(transparent)]
    Noise(#[from] tdpe_noise::NoiseError),
}

/// `Err(NonFinite)` at the first non-finite entry of `x`.
pub(crate) fn check_finite(what: &'static str, x: &[f64]) -> Result<(), RbError> {
    match x.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(RbError::NonFinite { what, index }),
        None => Ok(()),
    }
}

/// `Err(NonFinite)` at the first complex entry of `x` with a non-finite part.
pub(crate) fn check_finite_complex(
    what: &'static str,
    x: &[num_complex::Complex64],
) -> Result<(), RbError> {
    match x.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(RbError::NonFinite { what, index }),
        None => Ok(()),
    }
}

/// `Err(LengthMismatch)` unless `got == expected`.
pub(crate) fn check_len(what: &str, got: usize, expected: usize) -> Result<(), RbError> {
    if got != expected {
        return Err(RbError::LengthMismatch {
            what: what.to_string(),
            got,
            expected,
        });
    }
    Ok(())
}
