//! Local Lagrange interpolation weights ψ_b of degree five (docs/likelihood.md §3.2).
//!
//! Nodes are sample indices n_0 < n_1 < … < n_B, B ≥ 5. Bin b holds the samples
//! [n_b, n_{b+1}) (the last bin also holds n_B). A sample i in bin b is interpolated through the
//! six nodes j0..j0+5 with j0 = clamp(b − 2, 0, B − 5), so that an interior bin is the middle
//! interval of its stencil:
//!
//! ψ_{j0+k}(i) = Π_{m≠k} (i − n_{j0+m}) / (n_{j0+k} − n_{j0+m}),  k = 0..5,
//!
//! and ψ_b(i) = 0 for every other node. The weights form a partition of unity, reproduce
//! polynomials of degree five in i exactly, equal δ_bc at node c, and vanish outside
//! [n_0, n_B]. The stencil always brackets the sample (n_{j0} ≤ i ≤ n_{j0+5}), so nothing is
//! extrapolated.
//!
//! Why degree five rather than three (the cubic of earlier builds): the ratio of a trial to the
//! fiducial is smooth on the scale of a bin, so the interpolation error falls as h⁶ instead of
//! h⁴ in the node spacing h, and the same error target is met with ~25 % fewer nodes (117 → 88
//! at 2048 Hz, 4 s; docs/relative_binning.md §3.8). A call's cost grows with B (waveform at the
//! nodes) and B² (the quadratic forms); the wider stencil costs only at set-up.

use std::ops::Range;

/// Nodes per interpolation stencil (the polynomial degree plus one).
pub const STENCIL: usize = 6;

/// Number of bins B of B + 1 nodes.
pub fn bin_count(nodes: &[usize]) -> usize {
    nodes.len().saturating_sub(1)
}

/// Samples of bin `bin`: [n_b, n_{b+1}), and [n_{B−1}, n_B] for the last bin.
pub fn bin_samples(nodes: &[usize], bin: usize) -> Range<usize> {
    let end = nodes[bin + 1] + usize::from(bin + 2 == nodes.len());
    nodes[bin]..end
}

/// First stencil node j0 = clamp(b − 2, 0, B − 5) of bin `bin` (needs B ≥ 5).
pub fn stencil_start(bins: usize, bin: usize) -> usize {
    bin.saturating_sub((STENCIL - 2) / 2)
        .min(bins + 1 - STENCIL)
}

/// The bins whose stencil contains node `node`, i.e. the support of ψ_node as a bin range
/// (contiguous because j0 is non-decreasing in b). `node_count` = B + 1 ≥ [`STENCIL`].
pub fn support_bins(node_count: usize, node: usize) -> Range<usize> {
    let bins = node_count - 1;
    let lo = (0..bins)
        .find(|&b| stencil_start(bins, b) + STENCIL > node)
        .unwrap_or(bins);
    let hi = (0..bins)
        .rev()
        .find(|&b| stencil_start(bins, b) <= node)
        .map_or(0, |b| b + 1);
    lo..hi
}

/// The six-node Lagrange stencil of one bin.
#[derive(Debug, Clone, Copy)]
pub struct Stencil {
    /// First node j0 of the stencil.
    pub first: usize,
    /// n_{j0}.
    origin: usize,
    /// n_{j0+k} − n_{j0}: integers, so the products below are exact or rounded once.
    offsets: [f64; STENCIL],
    /// 1 / Π_{m≠k} (n_{j0+k} − n_{j0+m}).
    inv_den: [f64; STENCIL],
}

impl Stencil {
    /// The stencil of bin `bin` of `nodes` (B + 1 ≥ [`STENCIL`] strictly increasing sample
    /// indices).
    pub fn new(nodes: &[usize], bin: usize) -> Self {
        let first = stencil_start(bin_count(nodes), bin);
        let origin = nodes[first];
        let offsets: [f64; STENCIL] = std::array::from_fn(|k| (nodes[first + k] - origin) as f64);
        let inv_den = std::array::from_fn(|k| {
            let den: f64 = (0..STENCIL)
                .filter(|&m| m != k)
                .map(|m| offsets[k] - offsets[m])
                .product();
            1.0 / den
        });
        Self {
            first,
            origin,
            offsets,
            inv_den,
        }
    }

    /// ψ_{j0+k}(i), k = 0..5, for a sample `i` of the bin.
    #[inline]
    pub fn weights(&self, i: usize) -> [f64; STENCIL] {
        let t = i as f64 - self.origin as f64;
        let d = self.offsets.map(|x| t - x);
        std::array::from_fn(|k| {
            let others: f64 = (0..STENCIL).filter(|&m| m != k).map(|m| d[m]).product();
            others * self.inv_den[k]
        })
    }
}

/// Calls `f(i, j0, ψ_{j0..j0+6}(i))` for every sample i of the bins in `bins`, in order.
#[inline]
pub fn for_each_sample(
    nodes: &[usize],
    bins: Range<usize>,
    mut f: impl FnMut(usize, usize, [f64; STENCIL]),
) {
    for bin in bins {
        let st = Stencil::new(nodes, bin);
        for i in bin_samples(nodes, bin) {
            f(i, st.first, st.weights(i));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODES: [usize; 10] = [3, 5, 9, 10, 17, 30, 31, 40, 44, 60];

    #[test]
    fn partition_of_unity_and_polynomial_reproduction() {
        // Degree five, and of order one over the nodes' range.
        let quintic = |i: f64| {
            let x = (i - 30.0) / 30.0;
            0.3 - 1.2 * x + 0.5 * x.powi(2) - 0.2 * x.powi(3) + 0.7 * x.powi(4) - 0.4 * x.powi(5)
        };
        let mut seen = 0;
        for_each_sample(&NODES, 0..bin_count(&NODES), |i, j0, w| {
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-14, "sample {i}");
            let interp: f64 = (0..STENCIL)
                .map(|k| w[k] * quintic(NODES[j0 + k] as f64))
                .sum();
            assert!((interp - quintic(i as f64)).abs() < 1e-13, "sample {i}");
            let bracketed = NODES[j0] <= i && i <= NODES[j0 + STENCIL - 1];
            assert!(bracketed, "sample {i} outside its stencil");
            assert_eq!(i, NODES[0] + seen);
            seen += 1;
        });
        assert_eq!(seen, NODES[NODES.len() - 1] - NODES[0] + 1);
    }

    #[test]
    fn kronecker_at_nodes() {
        for_each_sample(&NODES, 0..bin_count(&NODES), |i, j0, w| {
            if let Some(b) = NODES.iter().position(|&n| n == i) {
                for (k, wk) in w.iter().enumerate() {
                    let expect = if j0 + k == b { 1.0 } else { 0.0 };
                    assert!((wk - expect).abs() < 1e-15, "node {b}, k {k}: {wk}");
                }
            }
        });
    }

    #[test]
    fn support_matches_stencils() {
        let bins = bin_count(&NODES);
        for node in 0..NODES.len() {
            let expect: Vec<usize> = (0..bins)
                .filter(|&b| {
                    let j0 = stencil_start(bins, b);
                    j0 <= node && node < j0 + STENCIL
                })
                .collect();
            let got: Vec<usize> = support_bins(NODES.len(), node).collect();
            assert_eq!(got, expect, "node {node}");
        }
    }
}
