//! Evaluation of the relative-binning log-likelihood ratio and its adjoint from the summary
//! data (docs/likelihood.md §3.3, §3.4, §3.6).
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
//! The caller chains g with ∂c_b/∂θ (docs/likelihood.md §3.6). One pass over the tiles of G's
//! upper triangle, f64, no allocation (caller-owned [`RbWorkspace`]), no tape.

use super::error::{check_finite_complex, check_len, RbError};
use super::summary::SummaryData;
use num_complex::Complex64;
use std::ops::RangeInclusive;

/// Scratch for [`SummaryData::log_likelihood_ratio`] and [`SummaryData::adjoint`]; one per
/// thread, reusable across calls (and resized if used with summary data of another size).
#[derive(Debug, Clone, Default)]
pub struct RbWorkspace {
    /// s = (Re c, −Im c), zero-padded to G's tiles.
    s: Vec<f64>,
    /// t = G s.
    t: Vec<f64>,
    /// s and t of the quarter-turn partner −i c ([`SummaryData::quadrature_products_for_adjoint`]).
    s1: Vec<f64>,
    t1: Vec<f64>,
}

/// Checks c: length B + 1, finite.
pub(super) fn check_coefficients(c: &[Complex64], node_count: usize) -> Result<(), RbError> {
    check_len("node coefficients c", c.len(), node_count)?;
    check_finite_complex("node coefficients c", c)
}

/// cᵀa = Σ_b c_b a_b: ⟨d|h⟩ is its real part, and ⟨d|h₁⟩ of the quarter-turn partner −i c
/// ([`QuadratureProducts`]) its imaginary part.
pub(super) fn data_product(c: &[Complex64], a: &[Complex64]) -> Complex64 {
    c.iter().zip(a).map(|(x, y)| x * y).sum()
}

/// The kernels over G's tiles ([`Gram`]). G (0.2 MB per detector at B = 115) streams from L2
/// once per call, so where the CPU has AVX2 and FMA (checked at run time) they run 4-wide with
/// fused multiply-adds, one tile row per load; elsewhere as portable code.
mod kernels {
    use super::super::summary::{Gram, Tile, TILE};

    /// Σ_k x_k y_k over one tile row.
    #[inline]
    fn dot4(x: &[f64; TILE], y: &[f64]) -> f64 {
        (x[0] * y[0] + x[1] * y[1]) + (x[2] * y[2] + x[3] * y[3])
    }

    /// sᵀGs = Σ_I σ_Iᵀ (G_II σ_I + 2 Σ_{J>I} G_IJ s_J) over the block rows I, σ_I = s_I; `s` of
    /// length `gram.padded_dim()` (zero in the padding).
    pub(super) fn quadratic_form(gram: &Gram, s: &[f64]) -> f64 {
        assert_eq!(s.len(), gram.padded_dim());
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has AVX2 and FMA; `s` has the padded dimension.
            return unsafe { avx2::quadratic_form(gram, s) };
        }
        quadratic_form_portable(gram, s)
    }

    fn quadratic_form_portable(gram: &Gram, s: &[f64]) -> f64 {
        let mut h_h = 0.0;
        for block in 0..gram.blocks() {
            let (diagonal, right) = gram.block_row(block);
            let sigma = &s[block * TILE..(block + 1) * TILE];
            let mut u: [f64; TILE] = std::array::from_fn(|i| dot4(&diagonal.0[i], sigma));
            for (tile, s_j) in right.iter().zip(s[(block + 1) * TILE..].chunks_exact(TILE)) {
                for (u, row) in u.iter_mut().zip(&tile.0) {
                    *u += 2.0 * dot4(row, s_j);
                }
            }
            h_h += dot4(&u, sigma);
        }
        h_h
    }

    /// t = Gs, `s` and `t` of length `gram.padded_dim()`: block row I gives t_I its tiles'
    /// rows and adds G_IJᵀ σ_I to t_J (J > I).
    pub(super) fn symmetric_matvec(gram: &Gram, s: &[f64], t: &mut [f64]) {
        assert!(s.len() == gram.padded_dim() && t.len() == s.len());
        #[cfg(target_arch = "x86_64")]
        if avx2::available() {
            // SAFETY: the CPU has AVX2 and FMA; `s` and `t` have the padded dimension.
            return unsafe { avx2::symmetric_matvec(gram, s, t) };
        }
        symmetric_matvec_portable(gram, s, t)
    }

    fn symmetric_matvec_portable(gram: &Gram, s: &[f64], t: &mut [f64]) {
        t.iter_mut().for_each(|x| *x = 0.0);
        for block in 0..gram.blocks() {
            let (diagonal, right) = gram.block_row(block);
            let sigma = &s[block * TILE..(block + 1) * TILE];
            let (t_i, t_right) = t[block * TILE..].split_at_mut(TILE);
            for (t, row) in t_i.iter_mut().zip(&diagonal.0) {
                *t += dot4(row, sigma);
            }
            let s_right = s[(block + 1) * TILE..].chunks_exact(TILE);
            for ((tile, s_j), t_j) in right
                .iter()
                .zip(s_right)
                .zip(t_right.chunks_exact_mut(TILE))
            {
                for ((t, row), &sigma) in t_i.iter_mut().zip(&tile.0).zip(sigma) {
                    *t += dot4(row, s_j);
                    for (t_j, g) in t_j.iter_mut().zip(row) {
                        *t_j += g * sigma;
                    }
                }
            }
        }
    }

    /// Σ_k x_k y_k with four independent accumulators.
    pub(super) fn dot_product(x: &[f64], y: &[f64]) -> f64 {
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

    #[cfg(target_arch = "x86_64")]
    mod avx2 {
        //! One tile row is one aligned load; a tile of G meets s_J (and t_J) in four fused
        //! multiply-adds (eight in the matvec), and the tiles of a block row alternate
        //! between two sets of accumulators to hide the multiply-add's latency.
        use super::{Gram, Tile, TILE};
        use std::arch::x86_64::*;

        pub(super) fn available() -> bool {
            is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
        }

        #[inline(always)]
        unsafe fn horizontal_sum(v: __m256d) -> f64 {
            let pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
            _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)))
        }

        /// (Σ a₀, Σ a₁, Σ a₂, Σ a₃): the four horizontal sums at once.
        #[inline(always)]
        unsafe fn horizontal_sums(a: [__m256d; TILE]) -> __m256d {
            let (h01, h23) = (_mm256_hadd_pd(a[0], a[1]), _mm256_hadd_pd(a[2], a[3]));
            _mm256_add_pd(
                _mm256_permute2f128_pd(h01, h23, 0x20),
                _mm256_permute2f128_pd(h01, h23, 0x31),
            )
        }

        /// Row i of a tile (aligned).
        #[inline(always)]
        unsafe fn row(tile: &Tile, i: usize) -> __m256d {
            _mm256_load_pd(tile.0[i].as_ptr())
        }

        /// Σ_j σ_j·G_j over the rows G_j of a tile (for the symmetric diagonal tile, G σ).
        #[inline(always)]
        unsafe fn combine(tile: &Tile, sigma: &[__m256d; TILE]) -> __m256d {
            let mut v = _mm256_mul_pd(row(tile, 0), sigma[0]);
            for (j, &s) in sigma.iter().enumerate().skip(1) {
                v = _mm256_fmadd_pd(row(tile, j), s, v);
            }
            v
        }

        /// One tile G_IJ at column offset `offset` of s (and t): acc_j += G_IJ[j] ⊙ s_J and,
        /// with `t`, t_J += G_IJᵀ σ_I.
        #[inline(always)]
        unsafe fn tile(
            tile: &Tile,
            offset: usize,
            s: *const f64,
            sigma: &[__m256d; TILE],
            t: Option<*mut f64>,
            acc: &mut [__m256d; TILE],
        ) {
            let s_j = _mm256_loadu_pd(s.add(offset));
            for (j, acc) in acc.iter_mut().enumerate() {
                *acc = _mm256_fmadd_pd(row(tile, j), s_j, *acc);
            }
            if let Some(t) = t {
                let t_j = _mm256_loadu_pd(t.add(offset));
                _mm256_storeu_pd(t.add(offset), _mm256_add_pd(t_j, combine(tile, sigma)));
            }
        }

        /// The accumulators of block row `block`: acc_j = Σ_{J>I} G_IJ[j] ⊙ s_J (the rows'
        /// products with s, to be summed horizontally) and, with `t`, t_J += G_IJᵀ σ_I.
        /// Safety: AVX2 and FMA; `s` (and `t`) of `gram.padded_dim()`.
        #[inline(always)]
        unsafe fn block_row(
            gram: &Gram,
            block: usize,
            s: *const f64,
            sigma: &[__m256d; TILE],
            t: Option<*mut f64>,
        ) -> [__m256d; TILE] {
            let tiles = gram.block_row(block).1;
            let (mut even, mut odd) = ([_mm256_setzero_pd(); TILE], [_mm256_setzero_pd(); TILE]);
            let mut offset = (block + 1) * TILE;
            let pairs = tiles.chunks_exact(2);
            let last = pairs.remainder().first();
            for pair in pairs {
                self::tile(&pair[0], offset, s, sigma, t, &mut even);
                self::tile(&pair[1], offset + TILE, s, sigma, t, &mut odd);
                offset += 2 * TILE;
            }
            if let Some(last) = last {
                self::tile(last, offset, s, sigma, t, &mut even);
            }
            std::array::from_fn(|j| _mm256_add_pd(even[j], odd[j]))
        }

        /// [`super::quadratic_form`]. Safety: AVX2 and FMA; `s.len() == gram.padded_dim()`.
        #[target_feature(enable = "avx2,fma")]
        pub(super) unsafe fn quadratic_form(gram: &Gram, s: &[f64]) -> f64 {
            // Σ_I [σ_I ⊙ G_II σ_I + 2 Σ_j σ_j acc_j], summed horizontally once at the end.
            let mut h_h = _mm256_setzero_pd();
            let two = _mm256_set1_pd(2.0);
            for block in 0..gram.blocks() {
                let sigma_v = _mm256_loadu_pd(s.as_ptr().add(block * TILE));
                let sigma: [__m256d; TILE] =
                    std::array::from_fn(|j| _mm256_set1_pd(s[block * TILE + j]));
                let acc = block_row(gram, block, s.as_ptr(), &sigma, None);
                let diagonal = gram.block_row(block).0;
                let mut off = _mm256_mul_pd(acc[0], sigma[0]);
                for j in 1..TILE {
                    off = _mm256_fmadd_pd(acc[j], sigma[j], off);
                }
                h_h = _mm256_fmadd_pd(sigma_v, combine(diagonal, &sigma), h_h);
                h_h = _mm256_fmadd_pd(off, two, h_h);
            }
            horizontal_sum(h_h)
        }

        /// [`super::symmetric_matvec`]. Safety: AVX2 and FMA; `s` and `t` of length
        /// `gram.padded_dim()`.
        #[target_feature(enable = "avx2,fma")]
        pub(super) unsafe fn symmetric_matvec(gram: &Gram, s: &[f64], t: &mut [f64]) {
            t.iter_mut().for_each(|x| *x = 0.0);
            let tp = t.as_mut_ptr();
            for block in 0..gram.blocks() {
                let sigma: [__m256d; TILE] =
                    std::array::from_fn(|j| _mm256_set1_pd(s[block * TILE + j]));
                let acc = block_row(gram, block, s.as_ptr(), &sigma, Some(tp));
                let diagonal = gram.block_row(block).0;
                let t_i = tp.add(block * TILE);
                let sum = _mm256_add_pd(combine(diagonal, &sigma), horizontal_sums(acc));
                _mm256_storeu_pd(t_i, _mm256_add_pd(_mm256_loadu_pd(t_i), sum));
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Both kernels (the CPU's and the portable one) against the dense sums, at sizes that
        /// exercise whole and padded tiles.
        #[test]
        fn kernels_match_dense_sums() {
            for dim in [1, 2, 3, 5, 8, 13, 31, 64] {
                let full =
                    |a: usize, b: usize| ((a.min(b) * 31 + a.max(b) * 17) % 23) as f64 - 11.0;
                let gram = Gram::from_fn(dim, full);
                let n = gram.padded_dim();
                let s: Vec<f64> = (0..n)
                    .map(|a| if a < dim { (a as f64 * 0.7).sin() } else { 0.0 })
                    .collect();
                let t_dense: Vec<f64> = (0..n)
                    .map(|a| {
                        (0..dim)
                            .map(|b| if a < dim { full(a, b) * s[b] } else { 0.0 })
                            .sum()
                    })
                    .collect();
                let q_dense: f64 = s.iter().zip(&t_dense).map(|(x, y)| x * y).sum();
                let mut t = vec![f64::NAN; n];
                for (q, matvec) in [
                    (
                        quadratic_form(&gram, &s),
                        symmetric_matvec as fn(&Gram, &[f64], &mut [f64]),
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
        let dim = self.grams[0].padded_dim();
        RbWorkspace {
            s: vec![0.0; dim],
            t: vec![0.0; dim],
            s1: Vec::new(),
            t1: Vec::new(),
        }
    }

    /// Checks c, fills ws.s = (Re c, −Im c), returns cᵀa(shift).
    fn load(
        &self,
        c: &[Complex64],
        shift: isize,
        ws: &mut RbWorkspace,
    ) -> Result<Complex64, RbError> {
        let a = self.a_at(shift)?;
        let m = self.node_count();
        check_coefficients(c, m)?;
        // Within capacity: no allocation when one workspace serves detectors of several sizes.
        let dim = self.grams[0].padded_dim();
        ws.s.resize(dim, 0.0);
        ws.t.resize(dim, 0.0);
        let (re, rest) = ws.s.split_at_mut(m);
        let (im, padding) = rest.split_at_mut(m);
        padding.iter_mut().for_each(|x| *x = 0.0);
        for ((r, i), z) in re.iter_mut().zip(im.iter_mut()).zip(c) {
            *r = z.re;
            *i = -z.im;
        }
        Ok(data_product(c, a))
    }

    /// ⟨d|h⟩ = Re(cᵀa) and ⟨h|h⟩ = ½cᴴPc + ½Re(cᵀRc) = sᵀGs for node coefficients `c`
    /// (B + 1 complex, c_b = Q_k r_b): this detector's inner products (docs/likelihood.md §3.3).
    /// Reads only the upper triangle of G's tiles: about (2B+2)² / 2 multiply-adds. `shift` is
    /// the whole number of samples by which the trial arrives after the fiducial, the node
    /// coefficients being the trial's at the node times shifted by as many samples (0 for
    /// summary data without shifts; docs/likelihood.md §3.9).
    pub fn inner_products(
        &self,
        c: &[Complex64],
        shift: isize,
        ws: &mut RbWorkspace,
    ) -> Result<InnerProducts, RbError> {
        let d_h = self.load(c, shift, ws)?.re;
        let h_h = kernels::quadratic_form(self.gram_at_shift(shift), &ws.s);
        Ok(InnerProducts { d_h, h_h })
    }

    /// ln L = ⟨d|h⟩ − ½⟨h|h⟩ = Re(cᵀa) − ¼cᴴPc − ¼Re(cᵀRc): this detector's log-likelihood
    /// ratio against noise only.
    pub fn log_likelihood_ratio(
        &self,
        c: &[Complex64],
        shift: isize,
        ws: &mut RbWorkspace,
    ) -> Result<f64, RbError> {
        Ok(self.inner_products(c, shift, ws)?.log_likelihood_ratio())
    }

    /// cᵀa(m) of the node coefficients `c` at every whole-sample shift m in `shifts` (all
    /// within [`SummaryData::shifts`]), into `out`: the data terms ⟨d|h₀⟩ + i⟨d|h₁⟩ of the
    /// same trial moved by whole samples (h₁ the template of −i c, [`QuadratureProducts`]),
    /// which take one pass over the data projections and no waveform (docs/likelihood.md
    /// §3.10).
    pub fn data_terms(
        &self,
        c: &[Complex64],
        shifts: RangeInclusive<isize>,
        out: &mut Vec<Complex64>,
    ) -> Result<(), RbError> {
        check_coefficients(c, self.node_count())?;
        out.clear();
        for shift in shifts {
            out.push(data_product(c, self.a_at(shift)?));
        }
        Ok(())
    }

    /// Adds Σ_j w_j a(m_j) to `grad`, the shifts m_j running from `first` on, one per weight:
    /// the adjoint of Σ_j F_j(⟨d|h⟩(m_j)) with w_j = ∂F_j/∂⟨d|h⟩, for the data terms
    /// [`Self::data_terms`] of one set of node coefficients moved by whole samples.
    pub fn add_data_adjoint(
        &self,
        weights: &[f64],
        first: isize,
        grad: &mut [Complex64],
    ) -> Result<(), RbError> {
        check_len("gradient output", grad.len(), self.node_count())?;
        for (shift, &w) in (first..).zip(weights) {
            if w == 0.0 {
                continue;
            }
            for (g, a) in grad.iter_mut().zip(self.a_at(shift)?) {
                *g += w * a;
            }
        }
        Ok(())
    }

    /// The inner products as [`Self::inner_products`], leaving t = Gs in `ws` for
    /// [`Self::adjoint_of`]. Cost: one symmetric matvec.
    pub fn inner_products_for_adjoint(
        &self,
        c: &[Complex64],
        shift: isize,
        ws: &mut RbWorkspace,
    ) -> Result<InnerProducts, RbError> {
        let d_h = self.load(c, shift, ws)?.re;
        kernels::symmetric_matvec(self.gram_at_shift(shift), &ws.s, &mut ws.t);
        let h_h = kernels::dot_product(&ws.s, &ws.t);
        Ok(InnerProducts { d_h, h_h })
    }

    /// The adjoint of F(⟨d|h⟩, ⟨h|h⟩) with partial derivatives F_d = `d_dh` and F_h = `d_hh`,
    /// from `ws` as left by [`Self::inner_products_for_adjoint`]: writes
    /// g = F_d a + F_h (Rc + conj(Pc)), i.e. g_b = F_d a_b + 2F_h (t_b + i t_{B+1+b}), so that
    /// dF = Re Σ_b g_b dc_b (docs/likelihood.md §3.6). For F = ln L (F_d = 1, F_h = −½),
    /// g = a − ½Rc − ½conj(Pc).
    pub fn adjoint_of(
        &self,
        d_dh: f64,
        d_hh: f64,
        shift: isize,
        ws: &RbWorkspace,
        grad: &mut [Complex64],
    ) -> Result<(), RbError> {
        let m = self.node_count();
        check_len("gradient output", grad.len(), m)?;
        let (t_re, t_im) = ws.t.split_at(m);
        let w = 2.0 * d_hh;
        let a = self.a_at(shift)?;
        for (((g, a), tr), ti) in grad.iter_mut().zip(a).zip(t_re).zip(t_im) {
            *g = Complex64::new(d_dh * a.re + w * tr, d_dh * a.im + w * ti);
        }
        Ok(())
    }

    /// ln L and its adjoint: writes g = a − ½Rc − ½conj(Pc) into `grad` (B + 1 complex) so
    /// that d ln L = Re Σ_b g_b dc_b (docs/likelihood.md §3.6), and returns ln L as
    /// [`Self::log_likelihood_ratio`]. Cost: one symmetric matvec t = Gs.
    pub fn adjoint(
        &self,
        c: &[Complex64],
        shift: isize,
        grad: &mut [Complex64],
        ws: &mut RbWorkspace,
    ) -> Result<f64, RbError> {
        let products = self.inner_products_for_adjoint(c, shift, ws)?;
        self.adjoint_of(1.0, -0.5, shift, ws, grad)?;
        Ok(products.log_likelihood_ratio())
    }
    /// The inner products of the template h₀ of `c` and of its quarter-turn partner h₁, the
    /// template of −i c ([`QuadratureProducts`]), leaving t = Gs and t₁ = Gs₁ in `ws` for
    /// [`Self::quadrature_adjoint_of`]. Cost: two symmetric matvecs.
    pub fn quadrature_products_for_adjoint(
        &self,
        c: &[Complex64],
        shift: isize,
        ws: &mut RbWorkspace,
    ) -> Result<QuadratureProducts, RbError> {
        let data = self.load(c, shift, ws)?;
        let m = self.node_count();
        let dim = ws.s.len();
        ws.s1.resize(dim, 0.0);
        ws.t1.resize(dim, 0.0);
        // s = (Re c, −Im c) and −i c has s₁ = (Im c, Re c) = (−s[m..], s[..m]).
        let (re, im) = ws.s.split_at(m);
        let (re1, im1) = ws.s1.split_at_mut(m);
        re1.iter_mut().zip(&im[..m]).for_each(|(x, y)| *x = -y);
        im1[..m].copy_from_slice(re);
        im1[m..].iter_mut().for_each(|x| *x = 0.0);
        let gram = self.gram_at_shift(shift);
        kernels::symmetric_matvec(gram, &ws.s, &mut ws.t);
        kernels::symmetric_matvec(gram, &ws.s1, &mut ws.t1);
        Ok(QuadratureProducts {
            d_0: data.re,
            d_1: data.im,
            h_00: kernels::dot_product(&ws.s, &ws.t),
            h_01: kernels::dot_product(&ws.s1, &ws.t),
            h_11: kernels::dot_product(&ws.s1, &ws.t1),
        })
    }

    /// The adjoint of F(d₀, d₁, h₀₀, h₀₁, h₁₁) with the partial derivatives `partials` (in
    /// that order) from `ws` as left by [`Self::quadrature_products_for_adjoint`], so that
    /// dF = Re Σ_b g_b dc_b. With T = t_re + i t_im, T₁ likewise and ω = −i (c₁ = ωc):
    /// g = F_d₀ a + F_d₁ ω a + 2F_h₀₀ T + F_h₀₁ (T₁ + ω T) + 2F_h₁₁ ω T₁.
    pub fn quadrature_adjoint_of(
        &self,
        partials: &[f64; 5],
        shift: isize,
        ws: &RbWorkspace,
        grad: &mut [Complex64],
    ) -> Result<(), RbError> {
        let m = self.node_count();
        check_len("gradient output", grad.len(), m)?;
        let [f_d0, f_d1, f_h00, f_h01, f_h11] = *partials;
        let omega = Complex64::new(0.0, -1.0);
        let a = self.a_at(shift)?;
        for (b, (g, a)) in grad.iter_mut().zip(a).enumerate() {
            let t = Complex64::new(ws.t[b], ws.t[m + b]);
            let t1 = Complex64::new(ws.t1[b], ws.t1[m + b]);
            *g = (f_d0 + f_d1 * omega) * a
                + 2.0 * f_h00 * t
                + f_h01 * (t1 + omega * t)
                + 2.0 * f_h11 * omega * t1;
        }
        Ok(())
    }
}

/// The inner products of two templates in quadrature, h₀ and h₁ (for the (2,2) mode, the
/// template at the orbital phase φ and at φ + π/4), with the data: every template
/// h(ψ) = cos ψ h₀ + sin ψ h₁ (for the (2,2) mode the one at φ + ψ/2) then has
/// ⟨d|h(ψ)⟩ = d₀ cos ψ + d₁ sin ψ and ⟨h|h⟩ = h₀₀ cos²ψ + 2h₀₁ sin ψ cos ψ + h₁₁ sin²ψ, which
/// is what a likelihood marginalised over the phase needs (docs/sampling.md §5.5).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuadratureProducts {
    /// ⟨d|h₀⟩.
    pub d_0: f64,
    /// ⟨d|h₁⟩.
    pub d_1: f64,
    /// ⟨h₀|h₀⟩.
    pub h_00: f64,
    /// ⟨h₀|h₁⟩.
    pub h_01: f64,
    /// ⟨h₁|h₁⟩.
    pub h_11: f64,
}

impl QuadratureProducts {
    /// The inner products of h(ψ) = cos ψ h₀ + sin ψ h₁.
    pub fn at(&self, psi: f64) -> InnerProducts {
        let (sin, cos) = psi.sin_cos();
        InnerProducts {
            d_h: self.d_0 * cos + self.d_1 * sin,
            h_h: self.h_00 * cos * cos + 2.0 * self.h_01 * sin * cos + self.h_11 * sin * sin,
        }
    }
}

impl std::ops::AddAssign for QuadratureProducts {
    fn add_assign(&mut self, other: Self) {
        self.d_0 += other.d_0;
        self.d_1 += other.d_1;
        self.h_00 += other.h_00;
        self.h_01 += other.h_01;
        self.h_11 += other.h_11;
    }
}

/// The two inner products of a template h with the data d, under the noise covariance:
/// ln L = ⟨d|h⟩ − ½⟨h|h⟩, and with h ∝ 1/D_L each scales by a known power of the distance.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct InnerProducts {
    /// ⟨d|h⟩ = dᵀC⁻¹h.
    pub d_h: f64,
    /// ⟨h|h⟩ = hᵀC⁻¹h.
    pub h_h: f64,
}

impl InnerProducts {
    /// ⟨d|h⟩ − ½⟨h|h⟩.
    pub fn log_likelihood_ratio(&self) -> f64 {
        self.d_h - 0.5 * self.h_h
    }

    /// The optimal SNR √⟨h|h⟩.
    pub fn optimal_snr(&self) -> f64 {
        self.h_h.max(0.0).sqrt()
    }

    /// The matched-filter SNR ⟨d|h⟩/√⟨h|h⟩ (0 for a zero template).
    pub fn matched_filter_snr(&self) -> f64 {
        let optimal = self.optimal_snr();
        if optimal > 0.0 {
            self.d_h / optimal
        } else {
            0.0
        }
    }

    /// [ln L, ∂ ln L/∂⟨d|h⟩, ∂ ln L/∂⟨h|h⟩] = [⟨d|h⟩ − ½⟨h|h⟩, 1, −½]: ln L as the function of
    /// the inner products that `BbhRelativeBinning::function_and_gradient` takes.
    pub fn log_likelihood_ratio_with_partials(&self) -> [f64; 3] {
        [self.log_likelihood_ratio(), 1.0, -0.5]
    }
}

impl std::ops::AddAssign for InnerProducts {
    fn add_assign(&mut self, other: Self) {
        self.d_h += other.d_h;
        self.h_h += other.h_h;
    }
}
