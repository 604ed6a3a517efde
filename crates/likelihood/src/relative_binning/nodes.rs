//! Nodes of the relative-binning basis and their SNR-weighted adaptive placement
//! (docs/likelihood.md §3.5).
//!
//! Nodes are sample indices, i.e. fixed physical detector times t_{n_b}
//! (docs/likelihood.md §2.2): a trial time shift changes only the argument of the trial
//! waveform at these times, never the nodes.

use super::error::{check_finite, check_finite_complex, check_len, RbError};
use super::interpolation::{bin_count, bin_samples, for_each_sample, stencil_start, STENCIL};
use num_complex::Complex64;
use std::collections::HashMap;
use std::ops::RangeInclusive;
use tdpe_noise::ToeplitzInverse;

/// Strictly increasing node sample indices n_0 < … < n_B (B ≥ 5) in a segment of N samples.
///
/// The basis functions ψ_b vanish outside [n_0, n_B] (the *support*): samples outside it carry
/// no template. End the support where the fiducial and every trial are negligible (e.g. 0.1 s
/// after the fiducial peak, docs/likelihood.md §3.5) but the fiducial is still nonzero.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSet {
    indices: Vec<usize>,
    n_samples: usize,
}

impl NodeSet {
    /// Validates ≥ [`STENCIL`] strictly increasing indices, all < `n_samples`.
    pub fn new(indices: Vec<usize>, n_samples: usize) -> Result<Self, RbError> {
        if indices.len() < STENCIL {
            return Err(RbError::TooFewNodes { got: indices.len() });
        }
        if let Some(k) = indices.windows(2).position(|w| w[1] <= w[0]) {
            return Err(RbError::InvalidNodes(format!(
                "node indices must be strictly increasing: n_{k} = {} then n_{} = {}",
                indices[k],
                k + 1,
                indices[k + 1]
            )));
        }
        let last = indices[indices.len() - 1];
        if last >= n_samples {
            return Err(RbError::InvalidNodes(format!(
                "last node {last} is outside the segment of {n_samples} samples"
            )));
        }
        Ok(Self { indices, n_samples })
    }

    /// `bins` equal bins over `support` (node k at round(first + k·len/bins)).
    pub fn uniform(
        support: RangeInclusive<usize>,
        bins: usize,
        n_samples: usize,
    ) -> Result<Self, RbError> {
        let (first, last) = (*support.start(), *support.end());
        if last < first || last - first < bins {
            return Err(RbError::InvalidNodes(format!(
                "support {first}..={last} is too short for {bins} bins"
            )));
        }
        let span = (last - first) as f64;
        let indices = (0..=bins)
            .map(|k| first + (span * k as f64 / bins as f64).round() as usize)
            .collect();
        Self::new(indices, n_samples)
    }

    /// Node sample indices n_0..n_B.
    pub fn indices(&self) -> &[usize] {
        &self.indices
    }
    /// Number of nodes B + 1 (the length of the coefficient vector c).
    pub fn node_count(&self) -> usize {
        self.indices.len()
    }
    /// Number of bins B.
    pub fn bins(&self) -> usize {
        bin_count(&self.indices)
    }
    /// Segment length N.
    pub fn n_samples(&self) -> usize {
        self.n_samples
    }
    /// The support [n_0, n_B].
    pub fn support(&self) -> RangeInclusive<usize> {
        self.indices[0]..=self.indices[self.indices.len() - 1]
    }
}

/// Options of [`refine_nodes`].
#[derive(Debug, Clone, PartialEq)]
pub struct RefineOptions {
    /// Error target T, the single accuracy knob: T ≈ (wanted |Δ ln L|)²
    /// (docs/likelihood.md §3.5). Default 1e-7.
    pub target: f64,
    /// Number of uniform bins to start from (≥ 5). Default 8.
    pub initial_bins: usize,
    /// Guard: fail rather than exceed this many nodes (or, with `best_effort`, stop there).
    /// Default 512.
    pub max_nodes: usize,
    /// Support [n_0, n_B]; `None` for the whole segment.
    pub support: Option<RangeInclusive<usize>>,
    /// Stop at `max_nodes`, the bins of largest error split first, and report the error
    /// reached instead of failing. Default false.
    pub best_effort: bool,
}

impl Default for RefineOptions {
    fn default() -> Self {
        Self {
            target: 1e-7,
            initial_bins: 8,
            max_nodes: 512,
            support: None,
            best_effort: false,
        }
    }
}

/// Result of [`refine_nodes`].
#[derive(Debug, Clone, PartialEq)]
pub struct Refinement {
    /// The nodes.
    pub nodes: NodeSet,
    /// Σ_b E_b reached (≤ target, unless a best-effort refinement stopped at its cap).
    pub error: f64,
    /// Number of refinement passes.
    pub iterations: usize,
}

/// Fiducial SNR² density s_i = ½|Re[conj(q_i)(C⁻¹q)_i]|, q = Q0·v (docs/likelihood.md §3.5),
/// the weights of [`refine_nodes`]. Without the absolute value it sums to ½qᴴC⁻¹q, which is
/// the fiducial's ⟨h0|h0⟩ up to the small ½Re(qᵀC⁻¹q) term (docs/likelihood.md §3.3). Two
/// C⁻¹ applies.
pub fn snr_weights(
    fiducial: &[Complex64],
    q0: Complex64,
    noise: &ToeplitzInverse,
) -> Result<Vec<f64>, RbError> {
    check_len("fiducial", fiducial.len(), noise.len())?;
    check_finite_complex("fiducial", fiducial)?;
    let q: Vec<Complex64> = fiducial.iter().map(|v| q0 * v).collect();
    let re: Vec<f64> = q.iter().map(|z| z.re).collect();
    let im: Vec<f64> = q.iter().map(|z| z.im).collect();
    let k_re = noise.apply(&re)?;
    let k_im = noise.apply(&im)?;
    Ok((0..q.len())
        .map(|i| 0.5 * (re[i] * k_re[i] + im[i] * k_im[i]).abs())
        .collect())
}

/// SNR-weighted adaptive node refinement (docs/likelihood.md §3.5).
///
/// `design_ratios[j][i]` = r_j(t_i): the full-resolution complex ratio of design waveform j to
/// the fiducial at every sample (only the support is read). `weights` = s_i from
/// [`snr_weights`]. Starting from `initial_bins` uniform bins, every bin with
///
/// E_b = max_j Σ_{i∈b} s_i |r_j(i) − r̂_j(i)|² > ½T/B
///
/// is split at its midpoint, where r̂_j is the Lagrange interpolant of r_j through the
/// nodes, until Σ_b E_b ≤ T. Cost O(J·N) per pass.
pub fn refine_nodes<R: AsRef<[Complex64]>>(
    design_ratios: &[R],
    weights: &[f64],
    options: &RefineOptions,
) -> Result<Refinement, RbError> {
    let n = weights.len();
    let RefineOptions {
        target,
        initial_bins,
        max_nodes,
        best_effort,
        ..
    } = *options;
    if !(target.is_finite() && target > 0.0) {
        return Err(RbError::InvalidOption {
            name: "target",
            value: target,
            allowed: "a finite value > 0",
        });
    }
    if initial_bins + 1 < STENCIL {
        return Err(RbError::InvalidOption {
            name: "initial_bins",
            value: initial_bins as f64,
            allowed: ">= 5 (one stencil of 6 nodes)",
        });
    }
    if max_nodes <= initial_bins {
        return Err(RbError::InvalidOption {
            name: "max_nodes",
            value: max_nodes as f64,
            allowed: "> initial_bins",
        });
    }
    if design_ratios.is_empty() {
        return Err(RbError::LengthMismatch {
            what: "design set".into(),
            got: 0,
            expected: 1,
        });
    }
    let support = options.support.clone().unwrap_or(0..=n.saturating_sub(1));
    let mut nodes = NodeSet::uniform(support.clone(), initial_bins, n)?.indices;
    check_finite("SNR weights", &weights[support.clone()])?;
    let ratios: Vec<&[Complex64]> = design_ratios.iter().map(AsRef::as_ref).collect();
    for r in &ratios {
        check_len("design ratio", r.len(), n)?;
        check_finite_complex("design ratio", &r[support.clone()])?;
    }

    let mut per_design = vec![0.0; ratios.len()];
    let mut errors = Vec::new();
    // E_b depends only on the bin's samples and its stencil's nodes, so a bin a pass leaves
    // untouched keeps its error (bit for bit): later passes compute only the changed bins.
    let mut known: HashMap<BinKey, f64> = HashMap::new();
    for iterations in 1.. {
        errors.clear();
        let mut next = HashMap::with_capacity(nodes.len());
        for b in 0..bin_count(&nodes) {
            let key = bin_key(&nodes, b);
            let e = match known.get(&key) {
                Some(&e) => e,
                None => bin_error(&nodes, b, &ratios, weights, &mut per_design),
            };
            next.insert(key, e);
            errors.push(e);
        }
        known = next;
        let error: f64 = errors.iter().sum();
        if error <= target {
            return Ok(Refinement {
                nodes: NodeSet::new(nodes, n)?,
                error,
                iterations,
            });
        }
        let threshold = 0.5 * target / errors.len() as f64;
        let mut split: Vec<usize> = (0..errors.len())
            .filter(|&b| errors[b] > threshold && nodes[b + 1] - nodes[b] >= 2)
            .collect();
        let room = max_nodes.saturating_sub(nodes.len());
        if split.len() > room {
            if !best_effort {
                return Err(RbError::TooManyNodes {
                    max_nodes,
                    nodes: nodes.len() + split.len(),
                    error,
                    target,
                });
            }
            // The bins of largest error first, then back in order.
            split.sort_by(|&a, &b| errors[b].total_cmp(&errors[a]));
            split.truncate(room);
            split.sort_unstable();
        }
        // A bin one sample wide has zero error, so a pass with Σ E_b > T always has a bin to
        // split unless the cap is reached.
        if split.is_empty() {
            if best_effort && nodes.len() >= max_nodes {
                return Ok(Refinement {
                    nodes: NodeSet::new(nodes, n)?,
                    error,
                    iterations,
                });
            }
            return Err(RbError::TooManyNodes {
                max_nodes,
                nodes: nodes.len(),
                error,
                target,
            });
        }
        let mut refined = Vec::with_capacity(nodes.len() + split.len());
        let mut next_split = split.iter().peekable();
        for b in 0..errors.len() {
            refined.push(nodes[b]);
            if next_split.next_if_eq(&&b).is_some() {
                refined.push((nodes[b] + nodes[b + 1]) / 2);
            }
        }
        refined.push(nodes[nodes.len() - 1]);
        nodes = refined;
    }
    unreachable!("the refinement loop only exits by returning")
}

/// What E_b depends on: the bin's samples [start, end) and its stencil's node samples.
type BinKey = (usize, usize, [usize; STENCIL]);

fn bin_key(nodes: &[usize], bin: usize) -> BinKey {
    let samples = bin_samples(nodes, bin);
    let j0 = stencil_start(bin_count(nodes), bin);
    (
        samples.start,
        samples.end,
        std::array::from_fn(|k| nodes[j0 + k]),
    )
}

/// E_b = max_j Σ_{i∈b} s_i |r_j(i) − r̂_j(i)|² for bin `bin`; `acc` is scratch of length J.
fn bin_error(
    nodes: &[usize],
    bin: usize,
    ratios: &[&[Complex64]],
    weights: &[f64],
    acc: &mut [f64],
) -> f64 {
    acc.iter_mut().for_each(|a| *a = 0.0);
    for_each_sample(nodes, bin..bin + 1, |i, j0, w| {
        for (a, r) in acc.iter_mut().zip(ratios) {
            let interp: Complex64 = (0..STENCIL).map(|k| r[nodes[j0 + k]] * w[k]).sum();
            *a += weights[i] * (r[i] - interp).norm_sqr();
        }
    });
    acc.iter().copied().fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_set_validation() {
        assert!(matches!(
            NodeSet::new(vec![0, 1, 2, 3, 4], 10),
            Err(RbError::TooFewNodes { got: 5 })
        ));
        assert!(matches!(
            NodeSet::new(vec![0, 2, 2, 5, 6, 7], 10),
            Err(RbError::InvalidNodes(_))
        ));
        assert!(matches!(
            NodeSet::new(vec![0, 2, 3, 4, 5, 10], 10),
            Err(RbError::InvalidNodes(_))
        ));
        let u = NodeSet::uniform(2..=98, 8, 100).unwrap();
        assert_eq!(u.node_count(), 9);
        assert_eq!(u.support(), 2..=98);
    }

    #[test]
    fn refinement_resolves_a_localised_feature() {
        // A ratio that is smooth except for a sharp wiggle around sample 700.
        let n = 1000;
        let ratio: Vec<Complex64> = (0..n)
            .map(|i| {
                let x = (i as f64 - 700.0) / 6.0;
                Complex64::from_polar(1.0 + 0.1 * (-x * x).exp(), 0.3 * (-x * x).exp())
            })
            .collect();
        let weights = vec![1.0; n];
        let opts = RefineOptions {
            target: 1e-8,
            ..RefineOptions::default()
        };
        let r = refine_nodes(std::slice::from_ref(&ratio), &weights, &opts).unwrap();
        assert!(r.error <= 1e-8);
        let idx = r.nodes.indices();
        let near = idx.iter().filter(|&&k| k.abs_diff(700) < 30).count();
        let far = idx.iter().filter(|&&k| k < 500).count();
        assert!(near > far, "nodes concentrate on the feature: {idx:?}");
        // The guard fires when the budget is too small.
        let tight = RefineOptions {
            target: 1e-14,
            max_nodes: 20,
            ..RefineOptions::default()
        };
        assert!(matches!(
            refine_nodes(std::slice::from_ref(&ratio), &weights, &tight),
            Err(RbError::TooManyNodes { .. })
        ));
        // A best-effort refinement stops at the budget, spent on the feature, and says how far
        // from the target it stayed.
        let capped = RefineOptions {
            best_effort: true,
            ..tight
        };
        let r = refine_nodes(&[ratio], &weights, &capped).unwrap();
        assert_eq!(r.nodes.node_count(), 20);
        assert!(r.error > 1e-14, "{}", r.error);
        let idx = r.nodes.indices();
        let near = idx.iter().filter(|&&k| k.abs_diff(700) < 150).count();
        assert!(near > idx.len() / 2, "{idx:?}");
    }
}
