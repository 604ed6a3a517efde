//! Dense metric: M⁻¹ = Σ stored with its lower Cholesky factor L (Σ = L Lᵀ).

use serde::Serialize;

use super::dot;
use crate::McmcError;

/// A dense symmetric positive-definite inverse mass matrix Σ = M⁻¹ (row-major) and its Cholesky
/// factor.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DenseMetric {
    dim: usize,
    covariance: Vec<f64>,
    #[serde(skip)]
    cholesky: Vec<f64>,
}

impl DenseMetric {
    /// Builds the metric from a row-major `dim`×`dim` covariance.
    pub fn new(dim: usize, covariance: Vec<f64>) -> Result<Self, McmcError> {
        if covariance.len() != dim * dim {
            return Err(McmcError::DimensionMismatch {
                what: "dense metric (dim × dim entries)",
                expected: dim * dim,
                got: covariance.len(),
            });
        }
        let cholesky = cholesky(dim, &covariance)?;
        Ok(Self {
            dim,
            covariance,
            cholesky,
        })
    }

    /// Dimension n.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The covariance Σ = M⁻¹, row-major.
    pub fn covariance(&self) -> &[f64] {
        &self.covariance
    }

    /// v = Σ p.
    pub(crate) fn multiply(&self, p: &[f64], v: &mut [f64]) {
        for (row, vi) in self.covariance.chunks_exact(self.dim).zip(v.iter_mut()) {
            *vi = dot(row, p);
        }
    }

    /// Replaces z by L⁻ᵀ z, so that z ~ N(0, I) becomes p ~ N(0, Σ⁻¹) = N(0, M).
    pub(crate) fn solve_upper_in_place(&self, z: &mut [f64]) {
        let n = self.dim;
        for i in (0..n).rev() {
            let s: f64 = (i + 1..n).map(|k| self.cholesky[k * n + i] * z[k]).sum();
            z[i] = (z[i] - s) / self.cholesky[i * n + i];
        }
    }
}

/// Lower Cholesky factor of a symmetric positive-definite row-major matrix (Cholesky–Banachiewicz).
fn cholesky(n: usize, a: &[f64]) -> Result<Vec<f64>, McmcError> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            let value = 0.5 * (a[i * n + j] + a[j * n + i]) - s;
            if i == j {
                if !(value > 0.0 && value.is_finite()) {
                    return Err(McmcError::NotPositiveDefinite {
                        what: "dense inverse metric",
                        pivot: i,
                        value,
                    });
                }
                l[i * n + i] = value.sqrt();
            } else {
                l[i * n + j] = value / l[j * n + j];
            }
        }
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_reproduces_matrix() {
        let a = [4.0, 2.0, 0.4, 2.0, 5.0, 1.0, 0.4, 1.0, 3.0];
        let l = cholesky(3, &a).unwrap();
        for i in 0..3 {
            for j in 0..3 {
                let s: f64 = (0..3).map(|k| l[i * 3 + k] * l[j * 3 + k]).sum();
                assert!((s - a[i * 3 + j]).abs() < 1e-14);
            }
        }
    }
}
