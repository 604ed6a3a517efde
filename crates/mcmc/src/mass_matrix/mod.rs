//! The metric (inverse mass matrix) of Hamiltonian Monte Carlo and its warm-up adaptation.
//!
//! With mass matrix M the kinetic energy is K(p) = ½ pᵀ M⁻¹ p and momenta are drawn from
//! N(0, M) (Betancourt 2017, arXiv:1701.02434, §4.2). The best M⁻¹ is the posterior covariance,
//! which the warm-up estimates ([`adapt`]); a diagonal metric fixes different scales, a dense one
//! also fixes correlations at O(n²) cost per gradient.

pub mod adapt;
mod dense;

use rand::Rng;
use rand_distr::StandardNormal;
use serde::Serialize;

use crate::checkpoint::{damaged, Persist, Reader, Writer};
use crate::McmcError;
pub use dense::DenseMetric;

/// The inverse mass matrix M⁻¹ used by the leapfrog integrator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Metric {
    /// M⁻¹ = diag(`inv_mass`).
    Diagonal {
        /// Diagonal of M⁻¹ (posterior variances, in the units of x²).
        inv_mass: Vec<f64>,
    },
    /// A dense symmetric positive-definite M⁻¹.
    Dense(DenseMetric),
}

impl Persist for Metric {
    fn write(&self, w: &mut Writer) {
        match self {
            Metric::Diagonal { inv_mass } => {
                w.put(&0u64);
                w.put(inv_mass);
            }
            Metric::Dense(dense) => {
                w.put(&1u64);
                w.put(&dense.dim());
                w.put(&dense.covariance().to_vec());
            }
        }
    }
    /// The dense metric's factor is computed again from its covariance, as it was at first.
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        match r.get::<u64>()? {
            0 => Ok(Metric::Diagonal { inv_mass: r.get()? }),
            1 => {
                let dim = r.get()?;
                Ok(Metric::Dense(DenseMetric::new(dim, r.get()?)?))
            }
            _ => Err(damaged("an unknown metric")),
        }
    }
}

/// Dot product with eight independent partial sums, so that the compiler can vectorise it.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let (a8, b8) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = a8
        .remainder()
        .iter()
        .zip(b8.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut acc = [0.0; 8];
    for (x, y) in a8.zip(b8) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f64>() + tail
}

impl Metric {
    /// The identity metric in `dim` dimensions.
    pub fn unit(dim: usize) -> Self {
        Metric::Diagonal {
            inv_mass: vec![1.0; dim],
        }
    }

    /// A diagonal metric; every entry must be finite and positive.
    pub fn diagonal(inv_mass: Vec<f64>) -> Result<Self, McmcError> {
        if let Some(pivot) = inv_mass.iter().position(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(McmcError::NotPositiveDefinite {
                what: "diagonal inverse metric",
                pivot,
            });
        }
        Ok(Metric::Diagonal { inv_mass })
    }

    /// A dense metric from a row-major `dim`×`dim` covariance M⁻¹.
    pub fn dense(dim: usize, covariance: Vec<f64>) -> Result<Self, McmcError> {
        DenseMetric::new(dim, covariance).map(Metric::Dense)
    }

    /// Dimension n.
    pub fn dim(&self) -> usize {
        match self {
            Metric::Diagonal { inv_mass } => inv_mass.len(),
            Metric::Dense(dense) => dense.dim(),
        }
    }

    /// Writes the velocity v = M⁻¹ p.
    pub(crate) fn velocity(&self, p: &[f64], v: &mut [f64]) {
        match self {
            Metric::Diagonal { inv_mass } => {
                for ((vi, pi), mi) in v.iter_mut().zip(p).zip(inv_mass) {
                    *vi = mi * pi;
                }
            }
            Metric::Dense(dense) => dense.multiply(p, v),
        }
    }

    /// Draws a momentum p ~ N(0, M) into `p`.
    pub(crate) fn sample_momentum<R: Rng + ?Sized>(&self, rng: &mut R, p: &mut [f64]) {
        for pi in p.iter_mut() {
            *pi = rng.sample(StandardNormal);
        }
        match self {
            Metric::Diagonal { inv_mass } => {
                for (pi, mi) in p.iter_mut().zip(inv_mass) {
                    *pi /= mi.sqrt();
                }
            }
            Metric::Dense(dense) => dense.solve_upper_in_place(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Momenta drawn from the metric have covariance M = (M⁻¹)⁻¹, so v = M⁻¹p has covariance M⁻¹.
    #[test]
    fn dense_momentum_has_covariance_mass_matrix() {
        let cov = vec![2.0, 0.9, 0.9, 0.5];
        let metric = Metric::dense(2, cov.clone()).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let n = 200_000;
        let mut acc = [0.0; 4];
        let (mut p, mut v) = ([0.0; 2], [0.0; 2]);
        for _ in 0..n {
            metric.sample_momentum(&mut rng, &mut p);
            metric.velocity(&p, &mut v);
            acc[0] += v[0] * v[0];
            acc[1] += v[0] * v[1];
            acc[3] += v[1] * v[1];
        }
        for (k, c) in [(0, 2.0), (1, 0.9), (3, 0.5)] {
            assert!(
                (acc[k] / n as f64 - c).abs() < 0.02 * 2.0,
                "{k}: {}",
                acc[k] / n as f64
            );
        }
    }

    #[test]
    fn invalid_metrics_are_errors() {
        assert!(Metric::diagonal(vec![1.0, 0.0]).is_err());
        assert!(Metric::dense(2, vec![1.0, 2.0, 2.0, 1.0]).is_err());
        assert!(matches!(
            Metric::dense(2, vec![1.0; 3]),
            Err(McmcError::DimensionMismatch { .. })
        ));
    }
}
