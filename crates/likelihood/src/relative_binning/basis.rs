//! The relative-binning basis u_b = v·ψ_b (docs/likelihood.md §3.2): synthesis of a template from
//! node coefficients and its transpose, the projection onto the basis.
//!
//! With node coefficients c_b (complex, B + 1) the template is
//!
//! h_i = Re[Σ_b c_b u_b(i)] = Re[v_i Σ_b c_b ψ_b(i)],
//!
//! zero outside the support [n_0, n_B]. Both operations cost O(support) and never allocate.

use super::interpolation::{bin_count, for_each_sample, support_bins, STENCIL};
use num_complex::Complex64;

/// `out_i = Re[v_i Σ_b c_b ψ_b(i)]` on the support, 0 elsewhere. Lengths: `v`, `out` N; `c` B+1.
pub(crate) fn synthesize(nodes: &[usize], v: &[Complex64], c: &[Complex64], out: &mut [f64]) {
    out.iter_mut().for_each(|o| *o = 0.0);
    for_each_sample(nodes, 0..bin_count(nodes), |i, j0, w| {
        let z: Complex64 = (0..STENCIL).map(|k| c[j0 + k] * w[k]).sum();
        out[i] = (v[i] * z).re;
    });
}

/// `out_b = u_bᵀ w = Σ_i w_i v_i ψ_b(i)` for a real N-vector `w` (the transpose of
/// [`synthesize`] up to the real part). Lengths: `v`, `w` N; `out` B+1.
pub(crate) fn project(nodes: &[usize], v: &[Complex64], w: &[f64], out: &mut [Complex64]) {
    out.iter_mut().for_each(|o| *o = Complex64::new(0.0, 0.0));
    for_each_sample(nodes, 0..bin_count(nodes), |i, j0, psi| {
        let t = v[i] * w[i];
        for k in 0..STENCIL {
            out[j0 + k] += t * psi[k];
        }
    });
}

/// Writes the real column Re u_node (`imaginary = false`) or Im u_node into `out` (length N),
/// zero outside the support of ψ_node.
pub(crate) fn column(
    nodes: &[usize],
    v: &[Complex64],
    node: usize,
    imaginary: bool,
    out: &mut [f64],
) {
    out.iter_mut().for_each(|o| *o = 0.0);
    for_each_sample(nodes, support_bins(nodes.len(), node), |i, j0, w| {
        let part = if imaginary { v[i].im } else { v[i].re };
        out[i] = part * w[node - j0];
    });
}
