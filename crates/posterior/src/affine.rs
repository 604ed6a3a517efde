//! The affine map y = c + A x between the sampler's x and the unconstrained coordinates y
//! (docs/sampling.md §2.4; the Laplace map that sets c and A, §6).

/// The affine map y = c + A x (A and A⁻¹ dense, row-major).
#[derive(Debug, Clone, PartialEq)]
pub struct Affine {
    /// c: y at x = 0.
    pub center: Vec<f64>,
    /// A (n × n, row-major).
    pub matrix: Vec<f64>,
    /// A⁻¹ (n × n, row-major).
    pub inverse: Vec<f64>,
    /// ln|det A|.
    pub log_det: f64,
}

impl Affine {
    /// y = c + diag(scales) x.
    pub fn diagonal(center: Vec<f64>, scales: &[f64]) -> Self {
        let n = scales.len();
        let mut matrix = vec![0.0; n * n];
        let mut inverse = vec![0.0; n * n];
        for (i, &s) in scales.iter().enumerate() {
            matrix[i * n + i] = s;
            inverse[i * n + i] = 1.0 / s;
        }
        Self {
            center,
            matrix,
            inverse,
            log_det: scales.iter().map(|s| s.abs().ln()).sum(),
        }
    }

    /// The dimension n.
    pub fn dim(&self) -> usize {
        self.center.len()
    }

    /// y = c + A x.
    pub fn y(&self, x: &[f64]) -> Vec<f64> {
        let n = self.dim();
        (0..n)
            .map(|i| self.center[i] + (0..n).map(|j| self.matrix[i * n + j] * x[j]).sum::<f64>())
            .collect()
    }

    /// x = A⁻¹ (y − c).
    pub fn x(&self, y: &[f64]) -> Vec<f64> {
        let n = self.dim();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| self.inverse[i * n + j] * (y[j] - self.center[j]))
                    .sum::<f64>()
            })
            .collect()
    }

    /// A^T v into `out`.
    pub fn pull_back(&self, v: &[f64], out: &mut [f64]) {
        let n = self.dim();
        for (j, o) in out.iter_mut().enumerate() {
            *o = (0..n).map(|i| self.matrix[i * n + j] * v[i]).sum();
        }
    }
}
