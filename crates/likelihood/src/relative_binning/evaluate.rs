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
use super::summary::{packed_row, SummaryData};
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

/// Σ_k x_k y_k with four independent accumulators (vectorises).
#[inline]
fn dot(x: &[f64], y: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (cx, cy) = (x.chunks_exact(4), y.chunks_exact(4));
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

/// Fused symmetric-matvec row: returns Σ_k g_k s_k and adds g_k·σ to t_k (one pass over g).
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
        if ws.s.len() != 2 * m || ws.t.len() != 2 * m {
            *ws = self.workspace();
        }
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
        let s = &ws.s;
        let dim = s.len();
        // sᵀGs = Σ_α s_α (G_αα s_α + 2 Σ_{β>α} G_αβ s_β).
        let mut h_h = 0.0;
        for alpha in 0..dim {
            let row = &self.gram[packed_row(dim, alpha)..packed_row(dim, alpha + 1)];
            h_h += s[alpha] * (row[0] * s[alpha] + 2.0 * dot(&row[1..], &s[alpha + 1..]));
        }
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
        let dim = s.len();
        t.iter_mut().for_each(|x| *x = 0.0);
        for alpha in 0..dim {
            let row = &self.gram[packed_row(dim, alpha)..packed_row(dim, alpha + 1)];
            let (head, rest) = t[alpha..].split_at_mut(1);
            head[0] += row[0] * s[alpha] + dot_axpy(&row[1..], &s[alpha + 1..], s[alpha], rest);
        }
        let h_h = dot(s, t);
        let (t_re, t_im) = t.split_at(m);
        for (((g, a), tr), ti) in grad.iter_mut().zip(&self.a).zip(t_re).zip(t_im) {
            *g = Complex64::new(a.re - tr, a.im - ti);
        }
        Ok(d_h - 0.5 * h_h)
    }
}
