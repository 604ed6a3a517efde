//! Exact inverse of a symmetric positive-definite Toeplitz covariance in O(N log N) per apply.
//!
//! 1. **Levinson–Durbin** (Durbin 1960; Golub & Van Loan, *Matrix Computations* 4th ed.,
//!    Alg. 4.7.1) gives the prediction-error filter a (a₀ = 1) with C a = E e₀, hence the first
//!    column x = C⁻¹e₀ = a/E_{N−1}, in ~2N² flops, together with
//!    log det C = Σ_k log E_k (det C_{k+1} = E_k det C_k).
//! 2. **Gohberg–Semencul** (Gohberg & Semencul 1972; Heinig & Rost 1984): for symmetric C with
//!    x₀ ≠ 0,
//!
//!    C⁻¹ = (1/x₀) [ L(x) L(x)ᵀ − L(ZJx) L(ZJx)ᵀ ],
//!
//!    where L(v) is the lower-triangular Toeplitz matrix with first column v, J the reversal and
//!    Z the down-shift (ZJx = (0, x_{N−1}, …, x₁)). Each triangular Toeplitz product is a
//!    truncated linear convolution; with Lᵀ = J L J (every Toeplitz matrix is persymmetric) an
//!    apply costs 3 forward + 3 inverse real FFTs of length P = 2N (likelihood.md §1.3, §6).

use crate::acf::Acf;
use crate::error::{check_finite, NoiseError};
use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::num_complex::Complex64;
use std::sync::Arc;

/// Result of the Levinson–Durbin recursion.
#[derive(Debug, Clone, PartialEq)]
pub struct Levinson {
    /// x = C⁻¹e₀, the first column of C⁻¹.
    pub first_column: Vec<f64>,
    /// log det C.
    pub log_det: f64,
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    // Eight independent accumulators so that the loop vectorises.
    let mut acc = [0.0f64; 8];
    let ca = a.chunks_exact(8);
    let cb = b.chunks_exact(8);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    let mut s: f64 = acc.iter().sum();
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}

/// Levinson–Durbin for the symmetric Toeplitz matrix with first column `rho` (length N).
/// Returns C⁻¹e₀ and log det C; an error if C is not numerically positive definite.
pub fn levinson_durbin(rho: &[f64]) -> Result<Levinson, NoiseError> {
    let n = rho.len();
    crate::error::check_finite("autocovariance", rho)?;
    if n == 0 || rho[0] <= 0.0 {
        return Err(NoiseError::NotPositiveDefinite { order: 0, n });
    }
    // rr[j] = rho[n−1−j], so Σ_{i<k} a_i ρ_{k−i} is a forward dot product with rr[n−1−k..n−1].
    let rr: Vec<f64> = rho.iter().rev().copied().collect();
    let mut a = vec![0.0; n];
    a[0] = 1.0;
    let mut e = rho[0];
    let mut log_det = e.ln();
    for k in 1..n {
        let gamma = dot(&a[..k], &rr[n - 1 - k..n - 1]);
        let kappa = -gamma / e;
        // a_i ← a_i + κ a_{k−i}, i = 0..=k (a_k was 0), done pairwise in place.
        let h = k.div_ceil(2);
        {
            let (lo, rest) = a[..=k].split_at_mut(h);
            let hi_start = rest.len() - h;
            let hi = &mut rest[hi_start..];
            for (p, q) in lo.iter_mut().zip(hi.iter_mut().rev()) {
                let (ap, aq) = (*p, *q);
                *p = ap + kappa * aq;
                *q = aq + kappa * ap;
            }
        }
        if k % 2 == 0 {
            a[k / 2] *= 1.0 + kappa;
        }
        e *= 1.0 - kappa * kappa;
        if !(e > 0.0 && e.is_finite()) {
            return Err(NoiseError::NotPositiveDefinite { order: k, n });
        }
        log_det += e.ln();
    }
    let inv_e = 1.0 / e;
    a.iter_mut().for_each(|v| *v *= inv_e);
    Ok(Levinson {
        first_column: a,
        log_det,
    })
}

/// C⁻¹ of an N×N symmetric positive-definite Toeplitz covariance, applied exactly in
/// O(N log N) by the Gohberg–Semencul formula. Immutable and `Send + Sync`; scratch memory
/// lives in a [`GsWorkspace`] owned by the caller (one per thread).
#[derive(Clone)]
pub struct ToeplitzInverse {
    n: usize,
    fft_len: usize,
    x0: f64,
    log_det: f64,
    first_column: Vec<f64>,
    /// rfft of x zero-padded to P.
    spec_x: Vec<Complex64>,
    /// rfft of ZJx zero-padded to P.
    spec_y: Vec<Complex64>,
    r2c: Arc<dyn RealToComplex<f64>>,
    c2r: Arc<dyn ComplexToReal<f64>>,
}

impl std::fmt::Debug for ToeplitzInverse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToeplitzInverse")
            .field("n", &self.n)
            .field("fft_len", &self.fft_len)
            .field("log_det", &self.log_det)
            .finish()
    }
}

/// Scratch buffers for [`ToeplitzInverse::apply_into`]; make one with
/// [`ToeplitzInverse::workspace`] and reuse it.
#[derive(Debug, Clone)]
pub struct GsWorkspace {
    real: Vec<f64>,
    u1: Vec<f64>,
    u2: Vec<f64>,
    spec_b: Vec<Complex64>,
    spec_1: Vec<Complex64>,
    spec_2: Vec<Complex64>,
    scratch_fwd: Vec<Complex64>,
    scratch_inv: Vec<Complex64>,
}

impl ToeplitzInverse {
    /// From the first column ρ_0..ρ_{N−1} of C (runs Levinson–Durbin once, O(N²)).
    pub fn from_first_column(rho: &[f64]) -> Result<Self, NoiseError> {
        let lev = levinson_durbin(rho)?;
        Self::from_levinson(lev)
    }

    /// For the first `n` lags of an autocovariance.
    pub fn from_acf(acf: &Acf, n: usize) -> Result<Self, NoiseError> {
        Self::from_first_column(acf.lags(n)?)
    }

    /// From an already computed x = C⁻¹e₀ and log det C (e.g. from a faster solver).
    pub fn from_levinson(lev: Levinson) -> Result<Self, NoiseError> {
        let n = lev.first_column.len();
        let x = &lev.first_column;
        if n == 0 || x[0].is_nan() || x[0] <= 0.0 {
            return Err(NoiseError::NotPositiveDefinite { order: 0, n });
        }
        crate::error::check_finite("first column of the inverse", x)?;
        let p = 2 * n;
        let mut planner = RealFftPlanner::<f64>::new();
        let r2c = planner.plan_fft_forward(p);
        let c2r = planner.plan_fft_inverse(p);
        let mut buf = vec![0.0; p];
        buf[..n].copy_from_slice(x);
        let mut spec_x = r2c.make_output_vec();
        r2c.process(&mut buf, &mut spec_x)
            .expect("buffer lengths match the plan");
        // ZJx = (0, x_{N−1}, …, x₁).
        buf.iter_mut().for_each(|v| *v = 0.0);
        for i in 1..n {
            buf[i] = x[n - i];
        }
        let mut spec_y = r2c.make_output_vec();
        r2c.process(&mut buf, &mut spec_y)
            .expect("buffer lengths match the plan");
        Ok(Self {
            n,
            fft_len: p,
            x0: x[0],
            log_det: lev.log_det,
            first_column: lev.first_column,
            spec_x,
            spec_y,
            r2c,
            c2r,
        })
    }

    /// Matrix size N.
    pub fn len(&self) -> usize {
        self.n
    }
    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// log det C (natural log; C in strain²).
    pub fn log_det(&self) -> f64 {
        self.log_det
    }
    /// x = C⁻¹e₀.
    pub fn first_column(&self) -> &[f64] {
        &self.first_column
    }

    /// Scratch buffers sized for this operator.
    pub fn workspace(&self) -> GsWorkspace {
        let c = self.fft_len / 2 + 1;
        GsWorkspace {
            real: vec![0.0; self.fft_len],
            u1: vec![0.0; self.fft_len],
            u2: vec![0.0; self.fft_len],
            spec_b: vec![Complex64::new(0.0, 0.0); c],
            spec_1: vec![Complex64::new(0.0, 0.0); c],
            spec_2: vec![Complex64::new(0.0, 0.0); c],
            scratch_fwd: self.r2c.make_scratch_vec(),
            scratch_inv: self.c2r.make_scratch_vec(),
        }
    }

    fn check_len(&self, what: &str, len: usize) -> Result<(), NoiseError> {
        if len != self.n {
            return Err(NoiseError::LengthMismatch {
                what: what.to_string(),
                got: len,
                expected: self.n,
            });
        }
        Ok(())
    }

    /// out = C⁻¹ b.
    pub fn apply_into(
        &self,
        b: &[f64],
        out: &mut [f64],
        ws: &mut GsWorkspace,
    ) -> Result<(), NoiseError> {
        self.check_len("vector", b.len())?;
        self.check_len("output", out.len())?;
        // A NaN would reach the inverse real FFT as a spectrum it refuses.
        check_finite("vector", b)?;
        if ws.real.len() != self.fft_len {
            *ws = self.workspace();
        }
        let n = self.n;
        let fwd = |buf: &mut Vec<f64>, spec: &mut Vec<Complex64>, scratch: &mut Vec<Complex64>| {
            self.r2c
                .process_with_scratch(buf, spec, scratch)
                .expect("buffer lengths match the plan");
        };
        // B = F[J b].
        let real = &mut ws.real;
        real[..n]
            .iter_mut()
            .zip(b.iter().rev())
            .for_each(|(r, v)| *r = *v);
        real[n..].iter_mut().for_each(|r| *r = 0.0);
        fwd(real, &mut ws.spec_b, &mut ws.scratch_fwd);
        // u1 = L(x) J b, u2 = L(ZJx) J b (first n samples of the linear convolutions; unscaled).
        for (dst, spec_g) in [(&mut ws.u1, &self.spec_x), (&mut ws.u2, &self.spec_y)] {
            ws.spec_1
                .iter_mut()
                .zip(&ws.spec_b)
                .zip(spec_g)
                .for_each(|((o, bb), g)| *o = bb * g);
            self.c2r
                .process_with_scratch(&mut ws.spec_1, dst, &mut ws.scratch_inv)
                .expect("real-signal spectrum");
        }
        // L(v)ᵀ b = J L(v) J b, so L(x)·L(x)ᵀb = L(x)·(J u1): transform J u1 and J u2.
        for (src, spec) in [(&ws.u1, &mut ws.spec_1), (&ws.u2, &mut ws.spec_2)] {
            real[..n]
                .iter_mut()
                .zip(src[..n].iter().rev())
                .for_each(|(r, v)| *r = *v);
            real[n..].iter_mut().for_each(|r| *r = 0.0);
            fwd(real, spec, &mut ws.scratch_fwd);
        }
        // R = X·W1 − Y·W2, then one inverse transform.
        ws.spec_b
            .iter_mut()
            .zip(ws.spec_1.iter().zip(&self.spec_x))
            .zip(ws.spec_2.iter().zip(&self.spec_y))
            .for_each(|((r, (w1, x)), (w2, y))| *r = w1 * x - w2 * y);
        // Imaginary parts of DC and Nyquist are round-off; zero them for the c2r transform.
        let last = ws.spec_b.len() - 1;
        ws.spec_b[0].im = 0.0;
        ws.spec_b[last].im = 0.0;
        self.c2r
            .process_with_scratch(&mut ws.spec_b, real, &mut ws.scratch_inv)
            .expect("real-signal spectrum");
        // Each unnormalised inverse FFT contributes a factor P.
        let p = self.fft_len as f64;
        let scale = 1.0 / (p * p * self.x0);
        out.iter_mut()
            .zip(&real[..n])
            .for_each(|(o, r)| *o = r * scale);
        Ok(())
    }

    /// C⁻¹ b as a new vector (allocates a workspace; use [`ToeplitzInverse::apply_into`] in
    /// loops).
    pub fn apply(&self, b: &[f64]) -> Result<Vec<f64>, NoiseError> {
        let mut out = vec![0.0; self.n];
        let mut ws = self.workspace();
        self.apply_into(b, &mut out, &mut ws)?;
        Ok(out)
    }

    /// aᵀ C⁻¹ b.
    pub fn inner_product(
        &self,
        a: &[f64],
        b: &[f64],
        ws: &mut GsWorkspace,
    ) -> Result<f64, NoiseError> {
        self.check_len("a", a.len())?;
        let mut kb = vec![0.0; self.n];
        self.apply_into(b, &mut kb, ws)?;
        Ok(a.iter().zip(&kb).map(|(x, y)| x * y).sum())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kms(n: usize, r: f64) -> Vec<f64> {
        // Kac–Murdock–Szegő matrix ρ_k = r^k: inverse is tridiagonal, det = (1 − r²)^{n−1}.
        (0..n).map(|k| r.powi(k as i32)).collect()
    }

    #[test]
    fn levinson_on_kms_matrix() {
        let n = 50;
        let r: f64 = 0.7;
        let lev = levinson_durbin(&kms(n, r)).unwrap();
        let c = 1.0 / (1.0 - r * r);
        assert!((lev.first_column[0] - c).abs() < 1e-12);
        assert!((lev.first_column[1] + r * c).abs() < 1e-12);
        assert!(lev.first_column[2..].iter().all(|v| v.abs() < 1e-12));
        let expect = (n - 1) as f64 * (1.0 - r * r).ln();
        assert!((lev.log_det - expect).abs() < 1e-11);
    }

    #[test]
    fn gs_matches_dense_product_on_small_matrices() {
        for &n in &[1usize, 2, 3, 9, 64, 129] {
            let rho: Vec<f64> = (0..n)
                .map(|k| {
                    (-(k as f64) / 7.0).exp() * (0.9 * k as f64).cos()
                        + if k == 0 { 0.5 } else { 0.0 }
                })
                .collect();
            let inv = ToeplitzInverse::from_first_column(&rho).unwrap();
            let b: Vec<f64> = (0..n)
                .map(|i| ((i * 7919) % 101) as f64 / 50.0 - 1.0)
                .collect();
            let y = inv.apply(&b).unwrap();
            // Check C y = b.
            let mut max_err = 0.0f64;
            for i in 0..n {
                let ci: f64 = (0..n).map(|j| rho[i.abs_diff(j)] * y[j]).sum();
                max_err = max_err.max((ci - b[i]).abs());
            }
            assert!(max_err < 1e-12, "n = {n}: residual {max_err}");
        }
    }

    #[test]
    fn non_finite_vector_is_an_error() {
        let inv = ToeplitzInverse::from_first_column(&kms(64, 0.5)).unwrap();
        let mut b = vec![1.0; 64];
        b[17] = f64::NAN;
        let err = inv.apply(&b).unwrap_err();
        assert!(
            matches!(err, NoiseError::NonFiniteData { index: 17, .. }),
            "{err}"
        );
    }

    #[test]
    fn not_positive_definite_is_an_error() {
        assert!(matches!(
            levinson_durbin(&[1.0, 2.0, 0.0]),
            Err(NoiseError::NotPositiveDefinite { .. })
        ));
        assert!(levinson_durbin(&[1.0, f64::NAN]).is_err());
        let inv = ToeplitzInverse::from_first_column(&[2.0, 0.5, 0.1]).unwrap();
        assert!(inv.apply(&[1.0, 2.0]).is_err());
    }
}
