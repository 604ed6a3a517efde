//! Coloured stationary Gaussian noise with a given seed.
//!
//! **Frequency-domain method (any N).** Draw independent complex Gaussians X_j with
//! E|X_j|² = M·λ_j, λ_j = ½·fs·S(f_j) the eigenvalues of the circulant covariance whose first
//! row is ρ = ½·fs·irfft(S) (real X₀ and X_{M/2}), and take x = irfft(X) (unnormalised, /M).
//! Then Cov(x_k, x_l) = ρ_{(k−l) mod M} exactly, so the first N ≤ M/2 + 1 samples have exactly
//! the Toeplitz covariance C built from the same ACF (circulant embedding; Davies & Harte 1987,
//! Wood & Chan 1994). With the default grid (M ≥ 2N) this method is exact, not approximate.
//!
//! **Exact from Cholesky (small N).** x = L z with C = L Lᵀ and z ~ N(0, I).

use crate::acf::GriddedSpectrum;
use crate::dense::DenseToeplitzCholesky;
use crate::error::NoiseError;
use rand::{Rng, SeedableRng};
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;
use realfft::RealFftPlanner;
use rustfft::num_complex::Complex64;

/// The generator used for seeded simulations (xoshiro256++).
pub fn rng_from_seed(seed: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// `n` samples of Gaussian noise whose one-sided PSD is `spectrum` (frequency-domain method;
/// exact covariance for n ≤ M/2 + 1, see the module documentation).
pub fn simulate_frequency_domain<R: Rng + ?Sized>(
    spectrum: &GriddedSpectrum,
    n: usize,
    rng: &mut R,
) -> Result<Vec<f64>, NoiseError> {
    let m = spectrum.grid_len;
    if n == 0 || n > m / 2 + 1 {
        return Err(NoiseError::InvalidParameter {
            name: "n_samples",
            value: n as f64,
            allowed: format!(
                "1..={} (half the spectrum's grid of {m} samples)",
                m / 2 + 1
            ),
        });
    }
    let half = 0.5 * spectrum.sampling_frequency;
    let mut spec: Vec<Complex64> = Vec::with_capacity(m / 2 + 1);
    for (j, &s) in spectrum.values.iter().enumerate() {
        let lambda = half * s;
        let z = if j == 0 || j == m / 2 {
            let g: f64 = rng.sample(StandardNormal);
            Complex64::new((lambda * m as f64).sqrt() * g, 0.0)
        } else {
            let a = (lambda * m as f64 / 2.0).sqrt();
            let g1: f64 = rng.sample(StandardNormal);
            let g2: f64 = rng.sample(StandardNormal);
            Complex64::new(a * g1, a * g2)
        };
        spec.push(z);
    }
    let mut planner = RealFftPlanner::<f64>::new();
    let c2r = planner.plan_fft_inverse(m);
    let mut out = vec![0.0; m];
    c2r.process(&mut spec, &mut out)
        .expect("DC and Nyquist bins are real");
    let inv_m = 1.0 / m as f64;
    out.truncate(n);
    out.iter_mut().for_each(|v| *v *= inv_m);
    Ok(out)
}

/// As [`simulate_frequency_domain`] with a xoshiro256++ generator seeded by `seed`.
pub fn simulate_frequency_domain_seeded(
    spectrum: &GriddedSpectrum,
    n: usize,
    seed: u64,
) -> Result<Vec<f64>, NoiseError> {
    simulate_frequency_domain(spectrum, n, &mut rng_from_seed(seed))
}

/// Exact Gaussian noise x = L z with covariance C = L Lᵀ.
pub fn simulate_exact<R: Rng + ?Sized>(cholesky: &DenseToeplitzCholesky, rng: &mut R) -> Vec<f64> {
    let z: Vec<f64> = (0..cholesky.len())
        .map(|_| rng.sample::<f64, _>(StandardNormal))
        .collect();
    cholesky.color(&z).expect("length matches by construction")
}

/// As [`simulate_exact`] with a xoshiro256++ generator seeded by `seed`.
pub fn simulate_exact_seeded(cholesky: &DenseToeplitzCholesky, seed: u64) -> Vec<f64> {
    simulate_exact(cholesky, &mut rng_from_seed(seed))
}
