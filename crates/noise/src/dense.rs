//! Dense Cholesky factorisation of a Toeplitz covariance (faer): the O(N³) reference path for
//! tests and exact noise simulation at small N (N ≲ 8192: C alone takes 8N² bytes).

use crate::error::{check_len, NoiseError};
use faer::linalg::solvers::Solve;
use faer::{Mat, Side};

/// C = L Lᵀ for the symmetric Toeplitz matrix C_ij = ρ_|i−j|.
#[derive(Debug)]
pub struct DenseToeplitzCholesky {
    n: usize,
    llt: faer::linalg::solvers::Llt<f64>,
}

impl DenseToeplitzCholesky {
    /// Factorise the N×N matrix with first column `rho` (N = rho.len()).
    pub fn from_first_column(rho: &[f64]) -> Result<Self, NoiseError> {
        crate::error::check_finite("autocovariance", rho)?;
        let n = rho.len();
        if n == 0 {
            return Err(NoiseError::NotPositiveDefinite { order: 0, n });
        }
        let c = Mat::<f64>::from_fn(n, n, |i, j| rho[i.abs_diff(j)]);
        let llt = c
            .llt(Side::Lower)
            .map_err(|_| NoiseError::NotPositiveDefinite { order: n, n })?;
        Ok(Self { n, llt })
    }

    /// Matrix size N.
    pub fn len(&self) -> usize {
        self.n
    }
    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// C⁻¹ b.
    pub fn solve(&self, b: &[f64]) -> Result<Vec<f64>, NoiseError> {
        check_len("vector", b.len(), self.n)?;
        let mut rhs = Mat::<f64>::from_fn(self.n, 1, |i, _| b[i]);
        self.llt.solve_in_place(&mut rhs);
        Ok((0..self.n).map(|i| rhs[(i, 0)]).collect())
    }

    /// log det C = 2 Σ log L_ii.
    pub fn log_det(&self) -> f64 {
        let l = self.llt.L();
        2.0 * (0..self.n).map(|i| l[(i, i)].ln()).sum::<f64>()
    }

    /// L z: maps white unit-variance noise z to noise with covariance C.
    pub fn color(&self, z: &[f64]) -> Result<Vec<f64>, NoiseError> {
        check_len("white noise", z.len(), self.n)?;
        let l = self.llt.L();
        let mut out = vec![0.0; self.n];
        for (j, &zj) in z.iter().enumerate() {
            if zj == 0.0 {
                continue;
            }
            let col = l.col(j);
            for i in j..self.n {
                out[i] += col[i] * zj;
            }
        }
        Ok(out)
    }
}
