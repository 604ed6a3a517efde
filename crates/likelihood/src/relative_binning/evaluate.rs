//! Evaluation of the relative-binning log-likelihood ratio and its adjoint from the summary
//! data (likelihood.md §2.2, §4).
//!
//! With node coefficients c_b = Q_k r_b (complex, B + 1),
//!
//! ln L = Re(cᵀa) − ¼cᴴPc − ¼Re(cᵀRc) = Re(cᵀa) − ½sᵀGs,   s = (Re c, −Im c),
//!
//! the log-likelihood ratio ⟨d|h⟩ − ½⟨h|h⟩ of this detector for h = Re[Σ_b c_b u_b]. Its
//! adjoint is g = a − ½Rc − ½conj(Pc), i.e. g_b = a_b − t_b − i t_{B+1+b} with t = Gs, so that
//!
//! d ln L = Re Σ_b g_b dc_b.
//!
//! The caller chains g with ∂c_b/∂θ (§4). One pass over the packed triangle of G, f64, no
//! allocation (caller-owned [`RbWorkspace`]), no tape.

use super::error::{check_finite_complex, check_len, RbError};
use super::summary::SummaryData;
use num_complex::Complex64;

/// Scratch for [`SummaryData::log_likelihood_ratio`] and [`SummaryData::adjoint`]; one per
/// thread, reusable across calls (and resized if used with summary data of another size).
#[derive(Debug, Clone, Default)]
pub struct RbWorkspace {
    /// s = (Re c, −Im c).
    s: Vec<f64>,
    /// t = G s.
    t: Vec<f64>,
}

/// Checks c: length B + 1, finite.
pub(super) fn check_coefficients(c: &[Complex64], node_count: usize) -> Result<(), RbError> {
    check_len("node coefficients c", c.len(), node_count)?;
    check_finite_complex("node coefficients c", c)
}

/// ⟨d|h⟩ = Re Σ_b c_b a_b.
pub(super) fn data_term(c: &[Complex64], a: &[Complex64]) -> f64 {
    c.iter().zip(a).map(|(x, y)| (x * y).re).sum()
}

/// The packed-triangle kernels. G (0.2 MB per detector at B = 115) streams from L2 once per
/// call, so where the CPU has AVX2 and FMA (checked at run time) they run 4-wide with fused
/// multiply-adds and masked tails; elsewhere as portable code.
mod kernels {
    /// Σ_k x_k y_k with four independent accumulators (x no longer than y).
    #[inline]
    fn dot(x: &[f64], y: &[f64]) -> f64 {
        let mut acc = [0.0f64; 4];
        let (cx, cy) = (x.chunks_exact(4), y[..x.len()].chunks_exact(4));
        let tail: f64 = cx
            .remainder()
            .iter()
            .zip(cy.remainder())
            .map(|(a, b)| a * b)
            .sum();
        for (a, b) in cx.zip(cy) {
            for l in 0..4 {
                acc[l] += a[l] * b[l];
            }
        }
        acc.iter().sum::<f64>() + tail
    }

    /// Returns Σ_k g_k s_k and adds g_k·σ to t_k: one pass over a row g of G.
    #[inline]
    fn dot_axpy(g: &[f64], s: &[f64], sigma: f64, t: &mut [f64]) -> f64 {
        let split = g.len() - g.len() % 4;
        let mut acc = [0.0f64; 4];
        let body = g[..split].chunks_exact(4).zip(s[..split].chunks_exact(4));
        for ((gc, sc), tc) in body.zip(t[..split].chunks_exact_mut(4)) {
            for l in 0..4 {
                acc[l] += gc[l] * sc[l];
                tc[l] += gc[l] * sigma;
            }
        }
        let mut sum: f64 = acc.iter().sum();
        for ((gk, sk), tk) in g[split..].iter().zip(&s[split..]).zip(&mut t[split..]) {
            sum += gk * sk;
            *tk += gk * sigma;
        }
        sum
    }

    /// sᵀGs = Σ_α s_α (G_αα s_α + 2 Σ_{β>α} G_αβ s_β), for G a packed upper triangle of
    /// dimension `s.len()`.
    pub(super) fn quadratic_form(gram: &[f64], s: &[f64]) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has AVX2 and FMA.
            return unsafe { avx2::quadratic_form(gram, s) };
        }
        quadratic_form_portable(gram, s)
    }

    fn quadratic_form_portable(gram: &[f64], s: &[f64]) -> f64 {
        let mut rows = gram;
        let mut h_h = 0.0;
        for alpha in 0..s.len() {
            let (row, rest) = rows.split_at(s.len() - alpha);
            rows = rest;
            h_h += s[alpha] * (row[0] * s[alpha] + 2.0 * dot(&row[1..], &s[alpha + 1..]));
        }
        h_h
    }

    /// t = Gs for G a packed upper triangle of dimension `s.len()` = `t.len()`: row α gives
    /// t_α its upper part and adds G_αβ s_α to t_β (β > α).
    pub(super) fn symmetric_matvec(gram: &[f64], s: &[f64], t: &mut [f64]) {
        assert_eq!(s.len(), t.len());
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has AVX2 and FMA.
            return unsafe { avx2::symmetric_matvec(gram, s, t) };
        }
        symmetric_matvec_portable(gram, s, t)
    }

    fn symmetric_matvec_portable(gram: &[f64], s: &[f64], t: &mut [f64]) {
        t.iter_mut().for_each(|x| *x = 0.0);
        let mut rows = gram;
        for alpha in 0..s.len() {
            let (row, rest) = rows.split_at(s.len() - alpha);
            rows = rest;
            let (head, tail) = t[alpha..].split_at_mut(1);
            head[0] += row[0] * s[alpha] + dot_axpy(&row[1..], &s[alpha + 1..], s[alpha], tail);
        }
    }

    /// Σ_k x_k y_k.
    pub(super) fn dot_product(x: &[f64], y: &[f64]) -> f64 {
        dot(x, y)
    }

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        //! Rows of G are taken four at a time: each load of s (and of t) then serves four
        //! rows, so the loop streams G with one load per fused multiply-add.
        use std::arch::x86_64::*;

        pub(super) fn available() -> bool {
            is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
        }

        /// Mask of the first `n` < 4 lanes.
        #[inline(always)]
        unsafe fn first_lanes(n: usize) -> __m256i {
            const MASKS: [i64; 7] = [-1, -1, -1, 0, 0, 0, 0];
            _mm256_loadu_si256(MASKS.as_ptr().add(3 - n) as *const __m256i)
        }

        #[inline(always)]
        unsafe fn horizontal_sum(v: __m256d) -> f64 {
            let pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
            _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)))
        }

        /// Start of row r of a packed upper triangle of dimension `dim`.
        #[inline(always)]
        fn row_start(dim: usize, r: usize) -> usize {
            r * dim - r * r.saturating_sub(1) / 2
        }

        /// Loads four lanes, or with `MASKED` those of `mask`.
        #[inline(always)]
        unsafe fn load<const MASKED: bool>(p: *const f64, mask: __m256i) -> __m256d {
            if MASKED {
                _mm256_maskload_pd(p, mask)
            } else {
                _mm256_loadu_pd(p)
            }
        }

        /// Columns k … k+3 of [`row_block`]: accumulates G_rc s_c into `acc` and, with `t`,
        /// adds Σ_r G_rc σ_r to t_c.
        #[inline(always)]
        unsafe fn columns<const R: usize, const MASKED: bool>(
            rows: &[*const f64; R],
            k: usize,
            s: *const f64,
            sigma: &[__m256d; R],
            t: Option<*mut f64>,
            mask: __m256i,
            acc: &mut [__m256d; R],
        ) {
            let s_k = load::<MASKED>(s.add(k), mask);
            match t {
                Some(t) => {
                    let mut t_k = load::<MASKED>(t.add(k), mask);
                    for j in 0..R {
                        let g = load::<MASKED>(rows[j].add(k), mask);
                        acc[j] = _mm256_fmadd_pd(g, s_k, acc[j]);
                        t_k = _mm256_fmadd_pd(g, sigma[j], t_k);
                    }
                    if MASKED {
                        _mm256_maskstore_pd(t.add(k), mask, t_k);
                    } else {
                        _mm256_storeu_pd(t.add(k), t_k);
                    }
                }
                None => {
                    for j in 0..R {
                        let g = load::<MASKED>(rows[j].add(k), mask);
                        acc[j] = _mm256_fmadd_pd(g, s_k, acc[j]);
                    }
                }
            }
        }

        /// For the rows r0 … r0+R−1 of the packed triangle at `gram` (dimension `dim`) and
        /// the columns c ≥ r0 + R: returns the dots Σ_c G_rc s_c and, with `t`, adds
        /// Σ_r G_rc σ_r to t_c. Safety: AVX2 and FMA; `gram` the whole triangle, `s` (and
        /// `t`) of length `dim`.
        #[inline(always)]
        unsafe fn row_block<const R: usize>(
            gram: *const f64,
            dim: usize,
            r0: usize,
            s: *const f64,
            sigma: [f64; R],
            t: Option<*mut f64>,
        ) -> [f64; R] {
            let c0 = r0 + R;
            // G_{r, c0 + k} for each row r, and s, t from column c0.
            let rows: [*const f64; R] =
                std::array::from_fn(|j| gram.add(row_start(dim, r0 + j) + c0 - (r0 + j)));
            let (s, t) = (s.add(c0), t.map(|t| t.add(c0)));
            let sv: [__m256d; R] = std::array::from_fn(|j| _mm256_set1_pd(sigma[j]));
            // Two accumulators per row hide the fused multiply-add's latency.
            let (mut even, mut odd) = ([_mm256_setzero_pd(); R], [_mm256_setzero_pd(); R]);
            let n = dim - c0;
            let mut k = 0;
            let all = _mm256_set1_epi64x(-1);
            while k + 8 <= n {
                columns::<R, false>(&rows, k, s, &sv, t, all, &mut even);
                columns::<R, false>(&rows, k + 4, s, &sv, t, all, &mut odd);
                k += 8;
            }
            if k + 4 <= n {
                columns::<R, false>(&rows, k, s, &sv, t, all, &mut even);
                k += 4;
            }
            if k < n {
                columns::<R, true>(&rows, k, s, &sv, t, first_lanes(n - k), &mut odd);
            }
            std::array::from_fn(|j| horizontal_sum(_mm256_add_pd(even[j], odd[j])))
        }

        /// The entries of rows r0 … r0+R−1 in columns r0 … r0+R−1 (their own triangle).
        #[inline(always)]
        unsafe fn diagonal_block<const R: usize>(
            gram: &[f64],
            dim: usize,
            r0: usize,
        ) -> [[f64; R]; R] {
            let mut d = [[0.0; R]; R];
            for i in 0..R {
                for j in i..R {
                    let v = gram[row_start(dim, r0 + i) + j - i];
                    (d[i][j], d[j][i]) = (v, v);
                }
            }
            d
        }

        /// [`super::quadratic_form`]. Safety: AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        pub(super) unsafe fn quadratic_form(gram: &[f64], s: &[f64]) -> f64 {
            let dim = s.len();
            assert!(gram.len() >= dim * (dim + 1) / 2);
            let mut h_h = 0.0;
            let mut r0 = 0;
            while r0 + 4 <= dim {
                let sigma = [s[r0], s[r0 + 1], s[r0 + 2], s[r0 + 3]];
                let dots = row_block::<4>(gram.as_ptr(), dim, r0, s.as_ptr(), sigma, None);
                let d = diagonal_block::<4>(gram, dim, r0);
                for i in 0..4 {
                    let inner: f64 = (0..4).map(|j| d[i][j] * sigma[j]).sum();
                    h_h += sigma[i] * (inner + 2.0 * dots[i]);
                }
                r0 += 4;
            }
            while r0 < dim {
                let dots = row_block::<1>(gram.as_ptr(), dim, r0, s.as_ptr(), [s[r0]], None);
                h_h += s[r0] * (gram[row_start(dim, r0)] * s[r0] + 2.0 * dots[0]);
                r0 += 1;
            }
            h_h
        }

        /// [`super::symmetric_matvec`]. Safety: AVX2 and FMA.
        #[target_feature(enable = "avx2,fma")]
        pub(super) unsafe fn symmetric_matvec(gram: &[f64], s: &[f64], t: &mut [f64]) {
            let dim = s.len();
            assert!(gram.len() >= dim * (dim + 1) / 2 && t.len() == dim);
            t.iter_mut().for_each(|x| *x = 0.0);
            let tp = t.as_mut_ptr();
            let mut r0 = 0;
            while r0 + 4 <= dim {
                let sigma = [s[r0], s[r0 + 1], s[r0 + 2], s[r0 + 3]];
                let dots = row_block::<4>(gram.as_ptr(), dim, r0, s.as_ptr(), sigma, Some(tp));
                let d = diagonal_block::<4>(gram, dim, r0);
                for i in 0..4 {
                    let inner: f64 = (0..4).map(|j| d[i][j] * sigma[j]).sum();
                    *tp.add(r0 + i) += inner + dots[i];
                }
                r0 += 4;
            }
            while r0 < dim {
                let dots = row_block::<1>(gram.as_ptr(), dim, r0, s.as_ptr(), [s[r0]], Some(tp));
                *tp.add(r0) += gram[row_start(dim, r0)] * s[r0] + dots[0];
                r0 += 1;
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Both kernels (the CPU's and the portable one) against the dense sums, at sizes that
        /// exercise the four-row blocks, the single rows and every masked tail.
        #[test]
        fn kernels_match_dense_sums() {
            for dim in [1, 2, 3, 5, 8, 13, 31, 64] {
                let full =
                    |a: usize, b: usize| ((a.min(b) * 31 + a.max(b) * 17) % 23) as f64 - 11.0;
                let gram: Vec<f64> = (0..dim)
                    .flat_map(|a| (a..dim).map(move |b| full(a, b)))
                    .collect();
                let s: Vec<f64> = (0..dim).map(|a| (a as f64 * 0.7).sin()).collect();
                let t_dense: Vec<f64> = (0..dim)
                    .map(|a| (0..dim).map(|b| full(a, b) * s[b]).sum())
                    .collect();
                let q_dense: f64 = s.iter().zip(&t_dense).map(|(x, y)| x * y).sum();
                let mut t = vec![f64::NAN; dim];
                for (q, matvec) in [
                    (
                        quadratic_form(&gram, &s),
                        symmetric_matvec as fn(&[f64], &[f64], &mut [f64]),
                    ),
                    (
                        quadratic_form_portable(&gram, &s),
                        symmetric_matvec_portable,
                    ),
                ] {
                    assert!(
                        (q - q_dense).abs() <= 1e-12 * q_dense.abs().max(1.0),
                        "{dim}"
                    );
                    matvec(&gram, &s, &mut t);
                    for (x, y) in t.iter().zip(&t_dense) {
                        assert!((x - y).abs() <= 1e-12 * y.abs().max(1.0), "{dim}");
                    }
                }
            }
        }
    }
}

impl SummaryData {
    /// Scratch buffers for the evaluation methods.
    pub fn workspace(&self) -> RbWorkspace {
        let dim = 2 * self.node_count();
        RbWorkspace {
            s: vec![0.0; dim],
            t: vec![0.0; dim],
        }
    }

    /// Checks c, fills ws.s = (Re c, −Im c), returns Re(cᵀa).
    fn load(&self, c: &[Complex64], ws: &mut RbWorkspace) -> Result<f64, RbError> {
        let m = self.node_count();
        check_coefficients(c, m)?;
        // Within capacity: no allocation when one workspace serves detectors of several sizes.
        ws.s.resize(2 * m, 0.0);
        ws.t.resize(2 * m, 0.0);
        let (re, im) = ws.s.split_at_mut(m);
        for ((r, i), z) in re.iter_mut().zip(im.iter_mut()).zip(c) {
            *r = z.re;
            *i = -z.im;
        }
        Ok(data_term(c, &self.a))
    }

    /// ln L = Re(cᵀa) − ¼cᴴPc − ¼Re(cᵀRc) for node coefficients `c` (B + 1 complex,
    /// c_b = Q_k r_b): this detector's log-likelihood ratio against noise only (§2.2).
    /// Reads only the upper triangle: (2B+2)² / 2 multiply-adds.
    pub fn log_likelihood_ratio(
        &self,
        c: &[Complex64],
        ws: &mut RbWorkspace,
    ) -> Result<f64, RbError> {
        let d_h = self.load(c, ws)?;
        let h_h = kernels::quadratic_form(&self.gram, &ws.s);
        Ok(d_h - 0.5 * h_h)
    }

    /// ln L and its adjoint: writes g = a − ½Rc − ½conj(Pc) into `grad` (B + 1 complex) so
    /// that d ln L = Re Σ_b g_b dc_b (§4), and returns ln L as
    /// [`Self::log_likelihood_ratio`]. Cost: one symmetric matvec t = Gs.
    pub fn adjoint(
        &self,
        c: &[Complex64],
        grad: &mut [Complex64],
        ws: &mut RbWorkspace,
    ) -> Result<f64, RbError> {
        let m = self.node_count();
        check_len("gradient output", grad.len(), m)?;
        let d_h = self.load(c, ws)?;
        let (s, t) = (&ws.s, &mut ws.t);
        kernels::symmetric_matvec(&self.gram, s, t);
        let h_h = kernels::dot_product(s, t);
        let (t_re, t_im) = t.split_at(m);
        for (((g, a), tr), ti) in grad.iter_mut().zip(&self.a).zip(t_re).zip(t_im) {
            *g = Complex64::new(a.re - tr, a.im - ti);
        }
        Ok(d_h - 0.5 * h_h)
    }
}
