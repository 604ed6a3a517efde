//! Dense metric: M⁻¹ = Σ stored with its lower Cholesky factor L (Σ = L Lᵀ, faer's).

use faer::linalg::solvers::Llt;
use faer::linalg::triangular_solve::solve_upper_triangular_in_place;
use faer::{Mat, MatMut, Par, Side};
use serde::Serialize;

use super::dot;
use crate::McmcError;

/// A dense symmetric positive-definite inverse mass matrix Σ = M⁻¹ (row-major) and its Cholesky
/// factor.
#[derive(Debug, Clone, Serialize)]
pub struct DenseMetric {
    dim: usize,
    covariance: Vec<f64>,
    #[serde(skip)]
    cholesky: Llt<f64>,
}

impl PartialEq for DenseMetric {
    /// Equal covariances (the factor follows from it).
    fn eq(&self, other: &Self) -> bool {
        self.dim == other.dim && self.covariance == other.covariance
    }
}

impl DenseMetric {
    /// Builds the metric from a row-major `dim`×`dim` covariance (symmetrised as ½(Σ + Σᵀ)).
    pub fn new(dim: usize, covariance: Vec<f64>) -> Result<Self, McmcError> {
        if covariance.len() != dim * dim {
            return Err(McmcError::DimensionMismatch {
                what: "dense metric (dim × dim entries)",
                expected: dim * dim,
                got: covariance.len(),
            });
        }
        let not_positive_definite = |pivot| McmcError::NotPositiveDefinite {
            what: "dense inverse metric",
            pivot,
        };
        if let Some(k) = covariance.iter().position(|v| !v.is_finite()) {
            return Err(not_positive_definite(k / dim));
        }
        let symmetric = Mat::<f64>::from_fn(dim, dim, |i, j| {
            0.5 * (covariance[i * dim + j] + covariance[j * dim + i])
        });
        let cholesky = symmetric.llt(Side::Lower).map_err(|e| match e {
            faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index } => {
                not_positive_definite(index)
            }
        })?;
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
        let rhs = MatMut::from_column_major_slice_mut(z, self.dim, 1);
        solve_upper_triangular_in_place(self.cholesky.L().transpose(), rhs, Par::Seq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// L Lᵀ reproduces Σ, and L⁻ᵀ z solves Lᵀ x = z.
    #[test]
    fn factor_reproduces_the_covariance() {
        let a = vec![4.0, 2.0, 0.4, 2.0, 5.0, 1.0, 0.4, 1.0, 3.0];
        let metric = DenseMetric::new(3, a.clone()).unwrap();
        let l = metric.cholesky.L();
        for i in 0..3 {
            for j in 0..3 {
                let s: f64 = (0..3).map(|k| l[(i, k)] * l[(j, k)]).sum();
                assert!((s - a[i * 3 + j]).abs() < 1e-14);
            }
        }
        let z = [0.3, -1.2, 0.7];
        let mut x = z;
        metric.solve_upper_in_place(&mut x);
        for i in 0..3 {
            let back: f64 = (0..3).map(|k| l[(k, i)] * x[k]).sum();
            assert!((back - z[i]).abs() < 1e-14, "{back} vs {}", z[i]);
        }
        let indefinite = vec![1.0, 2.0, 2.0, 1.0];
        assert!(matches!(
            DenseMetric::new(2, indefinite),
            Err(McmcError::NotPositiveDefinite { pivot: 1, .. })
        ));
        assert!(DenseMetric::new(2, vec![1.0, f64::NAN, f64::NAN, 1.0]).is_err());
    }
}
