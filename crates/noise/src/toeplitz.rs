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
//!    apply costs 3 forward + 3 inverse real FFTs of length P = 2N (docs/likelihood.md §1.4).
//!
//! **Long segments.** Levinson's 2N² flops take minutes at N = 2¹⁹ (128 s at 4096 Hz). Above
//! [`ToeplitzOptions::levinson_max_len`] the first column comes from preconditioned conjugate
//! gradients instead ([`crate::pcg`], O(N log N) per iteration), and log det C, which CG does
//! not give, from a *truncated* Levinson recursion with a rigorous bracket
//! ([`log_det_bracketed`]): the prediction errors E_k are non-increasing
//! (E_k = E_{k−1}(1 − κ_k²)) and E_{N−1} = 1/x₀ (Cramer's rule, C_{N−1} being both the leading and
//! the trailing block of C), so after order K every remaining term of
//! log det C = Σ_{k<N} log E_k lies in [log E_{N−1}, log E_K]. For the aLIGO covariance
//! log E_k converges to 1e-12 within ~4 s of lags, so K stays ~2·10⁴ at 4096 Hz whatever N.

use crate::acf::Acf;
use crate::error::{check_finite, check_len, NoiseError};
use crate::pcg::{first_column_pcg, first_column_pcg_acf, PcgOptions, PcgSolution};
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
    let run = levinson_recursion(rho, |_, _| false)?;
    let inv_e = 1.0 / run.prediction_error;
    let mut a = run.filter;
    a.iter_mut().for_each(|v| *v *= inv_e);
    Ok(Levinson {
        first_column: a,
        log_det: run.log_det,
    })
}

/// State of the Levinson recursion after order `order` (C_{order+1} factored).
struct LevinsonRun {
    /// Prediction-error filter a of order `order` (a₀ = 1), zero-padded to N.
    filter: Vec<f64>,
    /// E_order.
    prediction_error: f64,
    /// Σ_{k ≤ order} log E_k = log det C_{order+1}.
    log_det: f64,
    order: usize,
}

/// The Levinson–Durbin recursion (module documentation), stopping early after order k when
/// `stop(k, E_k)` returns true.
fn levinson_recursion(
    rho: &[f64],
    mut stop: impl FnMut(usize, f64) -> bool,
) -> Result<LevinsonRun, NoiseError> {
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
    let mut order = 0;
    if stop(0, e) {
        return Ok(LevinsonRun {
            filter: a,
            prediction_error: e,
            log_det,
            order,
        });
    }
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
        order = k;
        if stop(k, e) {
            break;
        }
    }
    Ok(LevinsonRun {
        filter: a,
        prediction_error: e,
        log_det,
        order,
    })
}

/// log det C with a bound on its error, from [`log_det_bracketed`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LogDet {
    /// Estimate of log det C (natural log).
    pub value: f64,
    /// |log det C − value| ≤ this, in exact arithmetic given E_{N−1} (module documentation);
    /// 0 for a full Levinson recursion.
    pub error_bound: f64,
    /// Order K at which the Levinson recursion stopped (N − 1 for a full recursion).
    pub levinson_order: usize,
}

/// log det C for the Toeplitz C with first column `rho` (length N), given x₀ = (C⁻¹)₀₀ (e.g.
/// from conjugate gradients), by a Levinson recursion truncated at the first order K where
/// the bracket of the module documentation is narrower than `tolerance`:
///
/// log det C ∈ Σ_{k≤K} log E_k + (N − 1 − K)·[log E_{N−1}, log E_K],  E_{N−1} = 1/x₀.
///
/// Returns the midpoint and half the width. Cost O(K²); if the bracket never closes the
/// recursion runs to order N − 1 (exact, O(N²)). A relative error δ in x₀ adds up to
/// (N − 1 − K)·δ to the error, beyond the bound.
pub fn log_det_bracketed(rho: &[f64], x0: f64, tolerance: f64) -> Result<LogDet, NoiseError> {
    let n = rho.len();
    if !(x0.is_finite() && x0 > 0.0) {
        return Err(NoiseError::InvalidParameter {
            name: "x0",
            value: x0,
            allowed: "(C⁻¹)₀₀, finite and > 0".into(),
        });
    }
    if tolerance.is_nan() || tolerance < 0.0 {
        return Err(NoiseError::InvalidParameter {
            name: "log_det_tolerance",
            value: tolerance,
            allowed: ">= 0".into(),
        });
    }
    let log_e_last = -x0.ln();
    // Half the bracket width after order k; rounding can put log E_k a hair below log E_{N−1}.
    let half_width = |k: usize, e: f64| 0.5 * (n - 1 - k) as f64 * (e.ln() - log_e_last).abs();
    let run = levinson_recursion(rho, |k, e| k + 1 < n && half_width(k, e) <= tolerance)?;
    let (k, log_e_k) = (run.order, run.prediction_error.ln());
    let remaining = (n - 1 - k) as f64;
    Ok(LogDet {
        value: run.log_det + remaining * 0.5 * (log_e_k + log_e_last),
        error_bound: half_width(k, run.prediction_error),
        levinson_order: k,
    })
}

/// How [`ToeplitzInverse`] obtains x = C⁻¹e₀ and log det C.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ToeplitzOptions {
    /// Levinson–Durbin (exact log det, 2N² flops) up to this N, conjugate gradients with a
    /// bracketed log det above. Default 16384 (4 s at 4096 Hz): up to there Levinson, exact, is
    /// also the faster (docs/likelihood.md §1.5 has the timings). `usize::MAX` forces Levinson,
    /// 0 conjugate gradients.
    pub levinson_max_len: usize,
    /// Conjugate-gradient stopping rule.
    pub pcg: PcgOptions,
    /// Wanted bound on |Δ log det C| of the CG path (natural log). Default 1e-6.
    pub log_det_tolerance: f64,
}

impl Default for ToeplitzOptions {
    fn default() -> Self {
        Self {
            levinson_max_len: 16384,
            pcg: PcgOptions::default(),
            log_det_tolerance: 1e-6,
        }
    }
}

/// How a [`ToeplitzInverse`] was set up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Setup {
    /// Full Levinson–Durbin recursion (or a first column given by the caller).
    Levinson,
    /// Preconditioned conjugate gradients, log det from a truncated Levinson recursion.
    ConjugateGradients {
        /// CG iterations.
        iterations: usize,
        /// True relative residual ‖e₀ − Cx‖₂ reached.
        relative_residual: f64,
        /// Order at which the log-det recursion stopped.
        levinson_order: usize,
    },
}

/// The Gohberg–Semencul product (1/x₀)[L(x)L(x)ᵀ − L(y)L(y)ᵀ]·b for generators x, y of
/// length n, with FFTs of length `fft_len` ≥ 2n.
#[derive(Clone)]
struct GsOperator {
    n: usize,
    fft_len: usize,
    x0: f64,
    /// rfft of x zero-padded to P.
    spec_x: Vec<Complex64>,
    /// rfft of y zero-padded to P.
    spec_y: Vec<Complex64>,
    r2c: Arc<dyn RealToComplex<f64>>,
    c2r: Arc<dyn ComplexToReal<f64>>,
}

impl GsOperator {
    /// Generators x and y = ZJx cut to their first `n` entries, for the first column `x` of
    /// C⁻¹ (x₀ > 0, finite).
    fn new(x: &[f64], n: usize, fft_len: usize) -> Self {
        let big_n = x.len();
        let mut planner = RealFftPlanner::<f64>::new();
        let r2c = planner.plan_fft_forward(fft_len);
        let c2r = planner.plan_fft_inverse(fft_len);
        let mut buf = vec![0.0; fft_len];
        buf[..n].copy_from_slice(&x[..n]);
        let mut spec_x = r2c.make_output_vec();
        r2c.process(&mut buf, &mut spec_x)
            .expect("buffer lengths match the plan");
        // y = ZJx = (0, x_{N−1}, …, x₁), its first n entries.
        buf.iter_mut().for_each(|v| *v = 0.0);
        for i in 1..n {
            buf[i] = x[big_n - i];
        }
        let mut spec_y = r2c.make_output_vec();
        r2c.process(&mut buf, &mut spec_y)
            .expect("buffer lengths match the plan");
        Self {
            n,
            fft_len,
            x0: x[0],
            spec_x,
            spec_y,
            r2c,
            c2r,
        }
    }

    fn workspace(&self) -> GsWorkspace {
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

    /// out = C⁻¹ b.
    fn apply_into(
        &self,
        b: &[f64],
        out: &mut [f64],
        ws: &mut GsWorkspace,
    ) -> Result<(), NoiseError> {
        check_len("vector", b.len(), self.n)?;
        check_len("output", out.len(), self.n)?;
        // A NaN would reach the inverse real FFT as a spectrum it refuses.
        check_finite("vector", b)?;
        if ws.real.len() != self.fft_len || ws.scratch_fwd.len() != self.r2c.get_scratch_len() {
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
}

/// C⁻¹ of an N×N symmetric positive-definite Toeplitz covariance, applied exactly in
/// O(N log N) by the Gohberg–Semencul formula. Immutable and `Send + Sync`; scratch memory
/// lives in a [`GsWorkspace`] owned by the caller (one per thread).
#[derive(Clone)]
pub struct ToeplitzInverse {
    op: GsOperator,
    log_det: f64,
    log_det_error: f64,
    setup: Setup,
    first_column: Vec<f64>,
}

impl std::fmt::Debug for ToeplitzInverse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToeplitzInverse")
            .field("n", &self.op.n)
            .field("fft_len", &self.op.fft_len)
            .field("log_det", &self.log_det)
            .field("setup", &self.setup)
            .finish()
    }
}

/// Scratch buffers for [`ToeplitzInverse::apply_into`] and [`InverseBlock::apply_into`]; make
/// one with their `workspace` and reuse it (it is resized if used with another operator).
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

/// The leading n×n block (C⁻¹)_{[0,n)×[0,n)} of the inverse of an N×N Toeplitz covariance,
/// from [`ToeplitzInverse::leading_block`]: what a quadratic form needs when its vectors
/// vanish from sample n on (e.g. relative-binning bases that end just after the merger).
///
/// Exact: (L(x)L(x)ᵀ)_ij = Σ_{k ≤ min(i,j)} x_{i−k}x_{j−k} involves only x_0..x_{n−1} for
/// i, j < n, and likewise for y, so the block is the Gohberg–Semencul product with both
/// generators cut to n entries; its FFTs need length ≥ 2n instead of 2N.
#[derive(Clone)]
pub struct InverseBlock {
    op: GsOperator,
}

impl std::fmt::Debug for InverseBlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InverseBlock")
            .field("n", &self.op.n)
            .field("fft_len", &self.op.fft_len)
            .finish()
    }
}

impl InverseBlock {
    /// Block size n.
    pub fn len(&self) -> usize {
        self.op.n
    }
    /// Always false (n ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.op.n == 0
    }
    /// FFT length used by an apply.
    pub fn fft_len(&self) -> usize {
        self.op.fft_len
    }
    /// Scratch buffers sized for this block.
    pub fn workspace(&self) -> GsWorkspace {
        self.op.workspace()
    }
    /// out = (C⁻¹)_{[0,n)²} b, for `b` and `out` of length n.
    pub fn apply_into(
        &self,
        b: &[f64],
        out: &mut [f64],
        ws: &mut GsWorkspace,
    ) -> Result<(), NoiseError> {
        self.op.apply_into(b, out, ws)
    }
}

/// Smallest even 2^a·3^b ≥ `min` (FFT lengths that rustfft handles at full speed).
fn smooth_fft_len(min: usize) -> usize {
    let mut best = min.max(2).next_power_of_two();
    let mut three = 1usize;
    while three < best {
        let mut len = three;
        while len < min || len % 2 == 1 {
            len *= 2;
        }
        best = best.min(len);
        three *= 3;
    }
    best
}

impl ToeplitzInverse {
    /// From the first column ρ_0..ρ_{N−1} of C, with the default [`ToeplitzOptions`]
    /// (Levinson–Durbin up to N = 16384, conjugate gradients with T. Chan's circulant above).
    pub fn from_first_column(rho: &[f64]) -> Result<Self, NoiseError> {
        Self::from_first_column_with(rho, &ToeplitzOptions::default())
    }

    /// As [`ToeplitzInverse::from_first_column`] with explicit options.
    pub fn from_first_column_with(
        rho: &[f64],
        options: &ToeplitzOptions,
    ) -> Result<Self, NoiseError> {
        if rho.len() <= options.levinson_max_len {
            return Self::from_levinson(levinson_durbin(rho)?);
        }
        let solution = first_column_pcg(rho, &options.pcg)?;
        Self::from_pcg(rho, solution, options)
    }

    /// For the first `n` lags of an autocovariance, with the default [`ToeplitzOptions`].
    pub fn from_acf(acf: &Acf, n: usize) -> Result<Self, NoiseError> {
        Self::from_acf_with(acf, n, &ToeplitzOptions::default())
    }

    /// As [`ToeplitzInverse::from_acf`] with explicit options. Above the Levinson size the
    /// conjugate gradients are preconditioned by the inverse symbol of the whole periodic ACF
    /// ([`crate::pcg::first_column_pcg_acf`]).
    pub fn from_acf_with(
        acf: &Acf,
        n: usize,
        options: &ToeplitzOptions,
    ) -> Result<Self, NoiseError> {
        let rho = acf.lags(n)?;
        if n <= options.levinson_max_len {
            return Self::from_levinson(levinson_durbin(rho)?);
        }
        let solution = first_column_pcg_acf(acf, n, &options.pcg)?;
        Self::from_pcg(rho, solution, options)
    }

    fn from_pcg(
        rho: &[f64],
        solution: PcgSolution,
        options: &ToeplitzOptions,
    ) -> Result<Self, NoiseError> {
        let x0 = solution.first_column[0];
        let log_det = log_det_bracketed(rho, x0, options.log_det_tolerance)?;
        let mut inverse = Self::from_levinson(Levinson {
            first_column: solution.first_column,
            log_det: log_det.value,
        })?;
        inverse.log_det_error = log_det.error_bound;
        inverse.setup = Setup::ConjugateGradients {
            iterations: solution.iterations,
            relative_residual: solution.relative_residual,
            levinson_order: log_det.levinson_order,
        };
        Ok(inverse)
    }

    /// From an already computed x = C⁻¹e₀ and log det C (e.g. from a faster solver).
    pub fn from_levinson(lev: Levinson) -> Result<Self, NoiseError> {
        let n = lev.first_column.len();
        let x = &lev.first_column;
        if n == 0 || x[0].is_nan() || x[0] <= 0.0 {
            return Err(NoiseError::NotPositiveDefinite { order: 0, n });
        }
        crate::error::check_finite("first column of the inverse", x)?;
        Ok(Self {
            op: GsOperator::new(x, n, 2 * n),
            log_det: lev.log_det,
            log_det_error: 0.0,
            setup: Setup::Levinson,
            first_column: lev.first_column,
        })
    }

    /// The leading `len`×`len` block of C⁻¹ (see [`InverseBlock`]), 1 ≤ `len` ≤ N.
    pub fn leading_block(&self, len: usize) -> Result<InverseBlock, NoiseError> {
        if len == 0 || len > self.op.n {
            return Err(NoiseError::InvalidParameter {
                name: "block length",
                value: len as f64,
                allowed: format!("1..={}", self.op.n),
            });
        }
        Ok(InverseBlock {
            op: GsOperator::new(&self.first_column, len, smooth_fft_len(2 * len)),
        })
    }

    /// Matrix size N.
    pub fn len(&self) -> usize {
        self.op.n
    }
    /// Always false (N ≥ 1).
    pub fn is_empty(&self) -> bool {
        self.op.n == 0
    }
    /// log det C (natural log; C in strain²): exact from Levinson, or within
    /// [`ToeplitzInverse::log_det_error_bound`] from the conjugate-gradient set-up.
    pub fn log_det(&self) -> f64 {
        self.log_det
    }
    /// Bound on the error of [`ToeplitzInverse::log_det`] beyond rounding (0 from Levinson).
    pub fn log_det_error_bound(&self) -> f64 {
        self.log_det_error
    }
    /// How x = C⁻¹e₀ was obtained.
    pub fn setup(&self) -> Setup {
        self.setup
    }
    /// x = C⁻¹e₀.
    pub fn first_column(&self) -> &[f64] {
        &self.first_column
    }

    /// Scratch buffers sized for this operator.
    pub fn workspace(&self) -> GsWorkspace {
        self.op.workspace()
    }

    /// out = C⁻¹ b.
    pub fn apply_into(
        &self,
        b: &[f64],
        out: &mut [f64],
        ws: &mut GsWorkspace,
    ) -> Result<(), NoiseError> {
        self.op.apply_into(b, out, ws)
    }

    /// C⁻¹ b as a new vector (allocates a workspace; use [`ToeplitzInverse::apply_into`] in
    /// loops).
    pub fn apply(&self, b: &[f64]) -> Result<Vec<f64>, NoiseError> {
        let mut out = vec![0.0; self.op.n];
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
        check_len("a", a.len(), self.op.n)?;
        let mut kb = vec![0.0; self.op.n];
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
    fn leading_block_is_the_block_of_the_full_inverse() {
        let n = 300;
        let rho: Vec<f64> = (0..n)
            .map(|k| (-(k as f64) / 11.0).exp() * (0.7 * k as f64).cos() + f64::from(k == 0))
            .collect();
        let inv = ToeplitzInverse::from_first_column(&rho).unwrap();
        for len in [1usize, 7, 100, 299, 300] {
            let block = inv.leading_block(len).unwrap();
            assert!(block.fft_len() >= 2 * len && block.fft_len() & 1 == 0);
            let b: Vec<f64> = (0..len).map(|i| ((i * 37) % 19) as f64 - 9.0).collect();
            let mut padded = b.clone();
            padded.resize(n, 0.0);
            let full = inv.apply(&padded).unwrap();
            let mut out = vec![0.0; len];
            block
                .apply_into(&b, &mut out, &mut block.workspace())
                .unwrap();
            let scale = full.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            let err = out
                .iter()
                .zip(&full)
                .fold(0.0f64, |m, (a, c)| m.max((a - c).abs()));
            assert!(err <= 1e-13 * scale, "len {len}: {err:e}");
        }
        assert!(inv.leading_block(0).is_err() && inv.leading_block(n + 1).is_err());
        let block = inv.leading_block(10).unwrap();
        assert!(block
            .apply_into(&[0.0; 9], &mut [0.0; 10], &mut block.workspace())
            .is_err());
    }

    #[test]
    fn smooth_fft_lengths() {
        assert_eq!(smooth_fft_len(2), 2);
        assert_eq!(smooth_fft_len(3), 4);
        assert_eq!(smooth_fft_len(16384), 16384);
        assert_eq!(smooth_fft_len(17204), 17496); // 2³·3⁷
        assert_eq!(smooth_fft_len(1_033_012), 1_048_576);
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
