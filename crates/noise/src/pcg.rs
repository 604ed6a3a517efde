//! x = C⁻¹e₀ for a long symmetric positive-definite Toeplitz C by preconditioned conjugate
//! gradients, O(N log N) per iteration (Chan & Ng, "Conjugate gradient methods for Toeplitz
//! systems", SIAM Review 38 (1996) 427):
//!
//! - **Matvec** Cv by embedding C in a circulant of length 2N with first column
//!   (ρ_0, …, ρ_{N−1}, 0, ρ_{N−1}, …, ρ_1) (§2 of the review): one real FFT pair of length 2N.
//! - **Preconditioner**, two choices:
//!   - [`first_column_pcg`], from the lags alone: T. Chan's optimal circulant (T. Chan, SIAM J.
//!     Sci. Stat. Comput. 9 (1988) 766), the circulant closest to C in the Frobenius norm, with
//!     first column c_k = ((N − k)ρ_k + kρ_{N−k})/N. Its eigenvalues are Rayleigh quotients of
//!     C at the Fourier vectors, so it is positive definite whenever C is. One real FFT pair of
//!     length N per application.
//!   - [`first_column_pcg_acf`], when the whole periodic ACF of [`Acf`] is known: C is then the
//!     leading N×N block of the M×M circulant K whose eigenvalues are λ_j = ½·fs·S_TD(f_j)
//!     (the PSD on the FFT grid, [`crate::acf`]), and the preconditioner is the same block of
//!     K⁻¹, the Toeplitz matrix of the inverse symbol, σ = IDFT(1/λ). It equals C⁻¹ away from
//!     a boundary layer (docs/likelihood.md §1.6) and is positive definite (a block of K⁻¹). One
//!     real FFT pair of length 2N per application, but several times fewer iterations than
//!     T. Chan's circulant (docs/likelihood.md §1.5 has the counts).
//!
//! The first column then feeds the Gohberg–Semencul formula of [`crate::toeplitz`] exactly as
//! Levinson's does. The recursively updated residual of CG drifts from the true one by
//! rounding, so convergence is declared only on the true residual ‖e₀ − Cx‖/‖e₀‖, and CG is
//! restarted from the current x (iterative refinement) while that gains. In f64 the true
//! residual floors at ~ε·‖C‖‖x‖ (≈ 3e-12 for the aLIGO covariance at 2048–4096 Hz); a solve that
//! stalls there, with backward error ‖e₀ − Cx‖/(ρ_0‖x‖) ≤ [`BACKWARD_ERROR_FLOOR`], is accepted
//! as converged "as tightly as f64 allows".

use crate::acf::Acf;
use crate::error::{check_finite, NoiseError};
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::num_complex::Complex64;
use std::sync::Arc;

/// Stopping rule of [`first_column_pcg`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PcgOptions {
    /// Stop when the true relative residual ‖e₀ − Cx‖₂ falls to this (‖e₀‖ = 1), or when it
    /// stalls at the f64 floor (module documentation). Default 1e-12.
    pub tolerance: f64,
    /// Fail after this many CG iterations in total (restarts included). Default 2000.
    pub max_iterations: usize,
}

impl Default for PcgOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-12,
            max_iterations: 2000,
        }
    }
}

/// Result of [`first_column_pcg`].
#[derive(Debug, Clone, PartialEq)]
pub struct PcgSolution {
    /// x = C⁻¹e₀.
    pub first_column: Vec<f64>,
    /// CG iterations taken (over all restarts).
    pub iterations: usize,
    /// True relative residual ‖e₀ − Cx‖₂ reached.
    pub relative_residual: f64,
    /// Normwise backward error ‖e₀ − Cx‖₂/(ρ_0‖x‖₂) (ρ_0 ≤ ‖C‖₂, so this bounds it from above).
    pub backward_error: f64,
}

/// A solve whose true residual stalls is accepted when its backward error is at most this
/// (~45 ε): the rounding level of the FFT matvec that measures it.
pub const BACKWARD_ERROR_FLOOR: f64 = 1e-14;

/// A real-symmetric circulant of length `len` given by its eigenvalues (real, `len/2 + 1` of
/// them, for rfft ordering), applied or inverted by one real FFT pair.
struct Circulant {
    len: usize,
    eigenvalues: Vec<f64>,
    r2c: Arc<dyn RealToComplex<f64>>,
    c2r: Arc<dyn ComplexToReal<f64>>,
    real: Vec<f64>,
    spec: Vec<Complex64>,
    scratch_fwd: Vec<Complex64>,
    scratch_inv: Vec<Complex64>,
}

impl Circulant {
    /// From the first column `c` (symmetric: c_k = c_{len−k}).
    fn from_column(c: Vec<f64>, planner: &mut RealFftPlanner<f64>) -> Self {
        let len = c.len();
        let r2c = planner.plan_fft_forward(len);
        let c2r = planner.plan_fft_inverse(len);
        let mut real = c;
        let mut spec = r2c.make_output_vec();
        r2c.process(&mut real, &mut spec)
            .expect("buffer lengths match the plan");
        // A symmetric column has a real spectrum; the imaginary parts are round-off.
        let eigenvalues = spec.iter().map(|z| z.re).collect();
        Self {
            len,
            eigenvalues,
            scratch_fwd: r2c.make_scratch_vec(),
            scratch_inv: c2r.make_scratch_vec(),
            real,
            spec,
            r2c,
            c2r,
        }
    }

    /// out = (first `out.len()` entries of) C·(x zero-padded to `len`) if `!inverse`, or
    /// C⁻¹x if `inverse` (then `x.len()` = `len`).
    fn apply(&mut self, x: &[f64], out: &mut [f64], inverse: bool) {
        self.real[..x.len()].copy_from_slice(x);
        self.real[x.len()..].iter_mut().for_each(|v| *v = 0.0);
        self.r2c
            .process_with_scratch(&mut self.real, &mut self.spec, &mut self.scratch_fwd)
            .expect("buffer lengths match the plan");
        let scale = 1.0 / self.len as f64;
        for (z, &e) in self.spec.iter_mut().zip(&self.eigenvalues) {
            *z *= if inverse { scale / e } else { scale * e };
        }
        // The product of two real spectra is a real spectrum; clear round-off at DC/Nyquist.
        self.spec[0].im = 0.0;
        if self.len & 1 == 0 {
            let last = self.spec.len() - 1;
            self.spec[last].im = 0.0;
        }
        self.c2r
            .process_with_scratch(&mut self.spec, &mut self.real, &mut self.scratch_inv)
            .expect("real-signal spectrum");
        out.copy_from_slice(&self.real[..out.len()]);
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The preconditioner M ≈ C⁻¹ of the iteration.
enum Preconditioner {
    /// A circulant approximation of C, inverted.
    Circulant(Circulant),
    /// A Toeplitz approximation of C⁻¹ (circulant embedding of length 2N), applied.
    InverseToeplitz(Circulant),
}

impl Preconditioner {
    fn apply(&mut self, r: &[f64], z: &mut [f64]) {
        match self {
            Self::Circulant(c) => c.apply(r, z, true),
            Self::InverseToeplitz(c) => c.apply(r, z, false),
        }
    }
}

/// Circulant embedding (length 2N) of the symmetric Toeplitz matrix with first column
/// `col`·`scale`.
fn embedding(col: &[f64], scale: f64, planner: &mut RealFftPlanner<f64>) -> Circulant {
    let n = col.len();
    let mut e = vec![0.0; 2 * n];
    for k in 0..n {
        e[k] = col[k] * scale;
        if k > 0 {
            e[2 * n - k] = col[k] * scale;
        }
    }
    Circulant::from_column(e, planner)
}

fn check_lags(rho: &[f64]) -> Result<(), NoiseError> {
    check_finite("autocovariance", rho)?;
    if rho.is_empty() || rho[0] <= 0.0 {
        return Err(NoiseError::NotPositiveDefinite {
            order: 0,
            n: rho.len(),
        });
    }
    Ok(())
}

/// T. Chan's circulant of C/ρ_0 (module documentation).
fn chan_preconditioner(
    rho: &[f64],
    planner: &mut RealFftPlanner<f64>,
) -> Result<Preconditioner, NoiseError> {
    let n = rho.len();
    let scale = 1.0 / (rho[0] * n as f64);
    let chan: Vec<f64> = (0..n)
        .map(|k| {
            let wrap = if k == 0 { 0.0 } else { rho[n - k] };
            ((n - k) as f64 * rho[k] + k as f64 * wrap) * scale
        })
        .collect();
    let c = Circulant::from_column(chan, planner);
    if let Some(j) = c.eigenvalues.iter().position(|&e| e.is_nan() || e <= 0.0) {
        // Rayleigh quotients of C: a non-positive one means C itself is indefinite.
        return Err(NoiseError::NotPositiveDefinite { order: j, n });
    }
    Ok(Preconditioner::Circulant(c))
}

/// Solves C x = e₀ for the symmetric positive-definite Toeplitz C with first column `rho`
/// (length N) by conjugate gradients preconditioned with T. Chan's circulant (module
/// documentation).
///
/// Errors: non-finite `rho` or ρ_0 ≤ 0, an indefinite C ([`NoiseError::NotPositiveDefinite`]),
/// or no convergence within `options.max_iterations` ([`NoiseError::NotConverged`]).
pub fn first_column_pcg(rho: &[f64], options: &PcgOptions) -> Result<PcgSolution, NoiseError> {
    check_lags(rho)?;
    let mut planner = RealFftPlanner::<f64>::new();
    let precond = chan_preconditioner(rho, &mut planner)?;
    solve(rho, precond, &mut planner, options)
}

/// As [`first_column_pcg`] for the first `n` lags of `acf`, preconditioned by the Toeplitz
/// matrix of the inverse symbol (module documentation), which needs `n` ≤ M/2. Falls back to
/// T. Chan's circulant if the ACF's spectrum is not positive on its grid (an ACF not made
/// from a PSD).
pub fn first_column_pcg_acf(
    acf: &Acf,
    n: usize,
    options: &PcgOptions,
) -> Result<PcgSolution, NoiseError> {
    let rho = acf.lags(n)?;
    check_lags(rho)?;
    check_finite("autocovariance", &acf.rho)?;
    let mut planner = RealFftPlanner::<f64>::new();
    // The periodic ACF (period M) and its spectrum λ_j = Σ_k ρ_k e^{−2πijk/M}, real.
    let m = 2 * (acf.rho.len() - 1);
    let mut periodic = vec![0.0; m];
    for (k, &r) in acf.rho.iter().enumerate() {
        periodic[k] = r;
        if k > 0 && k < m / 2 {
            periodic[m - k] = r;
        }
    }
    let r2c = planner.plan_fft_forward(m);
    let mut spec = r2c.make_output_vec();
    r2c.process(&mut periodic, &mut spec)
        .expect("buffer lengths match the plan");
    let precond = if spec.iter().all(|z| z.re > 0.0) {
        // σ = first column of K⁻¹ for K/ρ_0: the inverse real FFT of ρ_0/λ_j, scaled by 1/M.
        let mut inv: Vec<Complex64> = spec
            .iter()
            .map(|z| Complex64::new(rho[0] / (z.re * m as f64), 0.0))
            .collect();
        let c2r = planner.plan_fft_inverse(m);
        let mut sigma = vec![0.0; m];
        c2r.process(&mut inv, &mut sigma)
            .expect("real spectrum has zero imaginary parts");
        Preconditioner::InverseToeplitz(embedding(&sigma[..n], 1.0, &mut planner))
    } else {
        chan_preconditioner(rho, &mut planner)?
    };
    solve(rho, precond, &mut planner, options)
}

/// Preconditioned CG for (C/ρ_0) y = e₀ with restarts on the true residual; x = y/ρ_0.
fn solve(
    rho: &[f64],
    mut precond: Preconditioner,
    planner: &mut RealFftPlanner<f64>,
    options: &PcgOptions,
) -> Result<PcgSolution, NoiseError> {
    let n = rho.len();
    if !(options.tolerance > 0.0 && options.tolerance < 1.0) {
        return Err(NoiseError::InvalidParameter {
            name: "tolerance",
            value: options.tolerance,
            allowed: "a relative residual in (0, 1)".into(),
        });
    }
    // Unit diagonal: with ρ in strain² (~1e-40) x would be ~1e40.
    let scale = 1.0 / rho[0];
    let mut toeplitz = embedding(rho, scale, planner);
    let mut b = vec![0.0; n];
    b[0] = 1.0;
    let mut x = vec![0.0; n];
    precond.apply(&b, &mut x);
    let (mut r, mut z, mut p, mut q) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    // r = e₀ − Cx; returns ‖r‖.
    let true_residual = |x: &[f64], r: &mut [f64], q: &mut [f64], t: &mut Circulant| {
        t.apply(x, q, false);
        r.iter_mut().zip(q.iter()).for_each(|(ri, qi)| *ri = -qi);
        r[0] += 1.0;
        dot(r, r).sqrt()
    };
    let mut residual = true_residual(&x, &mut r, &mut q, &mut toeplitz);
    let mut iterations = 0;
    let mut previous = f64::INFINITY;
    let not_converged = |iterations, residual| NoiseError::NotConverged {
        iterations,
        residual,
        tolerance: options.tolerance,
    };
    while residual > options.tolerance {
        if residual > 0.5 * previous {
            // A restart gained nothing: accept only at the rounding floor.
            if residual <= BACKWARD_ERROR_FLOOR * dot(&x, &x).sqrt() {
                break;
            }
            return Err(not_converged(iterations, residual));
        }
        if iterations >= options.max_iterations {
            return Err(not_converged(iterations, residual));
        }
        previous = residual;
        precond.apply(&r, &mut z);
        p.copy_from_slice(&z);
        let mut rz = dot(&r, &z);
        loop {
            toeplitz.apply(&p, &mut q, false);
            let pq = dot(&p, &q);
            if pq.is_nan() || pq <= 0.0 {
                // pᵀCp ≤ 0 (or NaN): C is not positive definite.
                return Err(NoiseError::NotPositiveDefinite {
                    order: iterations,
                    n,
                });
            }
            let alpha = rz / pq;
            x.iter_mut().zip(&p).for_each(|(xi, pi)| *xi += alpha * pi);
            r.iter_mut().zip(&q).for_each(|(ri, qi)| *ri -= alpha * qi);
            iterations += 1;
            let recursive = dot(&r, &r).sqrt();
            if !recursive.is_finite() {
                return Err(not_converged(iterations, recursive));
            }
            if recursive <= options.tolerance || iterations >= options.max_iterations {
                break;
            }
            precond.apply(&r, &mut z);
            let rz_new = dot(&r, &z);
            let beta = rz_new / rz;
            rz = rz_new;
            p.iter_mut()
                .zip(&z)
                .for_each(|(pi, zi)| *pi = zi + beta * *pi);
        }
        residual = true_residual(&x, &mut r, &mut q, &mut toeplitz);
    }
    let backward_error = residual / dot(&x, &x).sqrt();
    x.iter_mut().for_each(|v| *v *= scale);
    Ok(PcgSolution {
        first_column: x,
        iterations,
        relative_residual: residual,
        backward_error,
    })
}
