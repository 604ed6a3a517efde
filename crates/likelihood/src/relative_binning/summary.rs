//! Summary data of one detector (docs/likelihood.md §3.3): a = Uᵀ C⁻¹ d and the Gram matrix of the
//! basis, from which P = Uᴴ C⁻¹ U and R = Uᵀ C⁻¹ U follow.
//!
//! **Storage.** With U_r = Re U, U_i = Im U and the 2(B+1) real columns V = [U_r, U_i], the
//! template h = Re[U c] = V s with s = (Re c, −Im c), so ⟨h|h⟩ = sᵀ G s with the real symmetric
//! G = Vᵀ C⁻¹ V. Its blocks A_xy = U_xᵀ C⁻¹ U_y give
//!
//! P = A_rr + A_ii + i(A_ri − A_ir),   R = A_rr − A_ii + i(A_ri + A_ir),
//!
//! so G holds exactly the information of the Hermitian P and the complex-symmetric R
//! (¼cᴴPc + ¼Re(cᵀRc) = ½sᵀGs), in about (B+1)(2B+3) doubles as an upper triangle of 4×4
//! tiles (0.24 MB at B = 120, see [`Gram`]), and one real symmetric matvec costs half the real
//! multiply-adds of the two complex ones Pc, Rc. G is symmetric by construction (the two
//! computed halves are averaged), which makes the adjoint of
//! [`SummaryData::adjoint`](super::SummaryData::adjoint) exact.
//!
//! **Cost.** Set-up is one Gohberg–Semencul apply for a and 2(B+1) for G, O(B·N log N), plus
//! O(B·N) for the projections; memory O(N + B²). The columns of V vanish after the support
//! [n_0, n_B], so G needs only the leading block of C⁻¹ up to n_B
//! ([`tdpe_noise::toeplitz::InverseBlock`]), whose FFTs are shorter: about half the length
//! for a 4 s segment with the merger 2 s before its end.

use super::basis::{column, project};
use super::error::{check_finite, check_len, RbError};
use super::nodes::NodeSet;
use std::ops::RangeInclusive;

use num_complex::Complex64;
use tdpe_noise::toeplitz::InverseBlock;
use tdpe_noise::ToeplitzInverse;

/// Summary data of one detector for the relative-binning likelihood
/// (docs/likelihood.md §3.3): node set, the fiducial at the nodes, a, and G (equivalently P
/// and R). Immutable, `Send + Sync`; evaluate with [`SummaryData::log_likelihood_ratio`] and
/// [`SummaryData::adjoint`].
#[derive(Debug, Clone)]
pub struct SummaryData {
    /// The node set of each basis, in the order of the coefficients (one for a single mode;
    /// one per mode for several, docs/likelihood.md §3.12).
    pub(super) bases: Vec<NodeSet>,
    /// Each basis's fiducial at its nodes, the bases one after the other.
    pub(super) fiducial_at_nodes: Vec<Complex64>,
    /// a_b(m) = Σ_i (C⁻¹d)_{i+m} u_b(i) for the whole-sample shifts m ∈ `shifts`, shift after
    /// shift (B + 1 each).
    pub(super) a: Vec<Complex64>,
    /// The shifts of `a`.
    pub(super) shifts: RangeInclusive<isize>,
    /// G = Vᵀ C⁻¹ V, dimension 2(B+1), at evenly spaced anchor shifts from 0 down to the
    /// first shift (the k-th at −round(k·|first|/(K − 1)) for K anchors).
    pub(super) grams: Vec<Gram>,
}

/// Side of the square tiles of [`Gram`].
pub(super) const TILE: usize = 4;

/// A 4×4 tile of G, row-major, 64-byte aligned: each of its rows is one aligned AVX2 load.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
pub(super) struct Tile(pub(super) [[f64; TILE]; TILE]);

/// A real symmetric matrix stored as the upper triangle of its 4×4 tiles, block row after
/// block row, each block row starting with its (whole, symmetric) diagonal tile; the
/// dimension is padded with zeros to a multiple of 4. This is the order in which the
/// evaluation kernels read G once per call: one sequential stream of aligned loads, where
/// the rows of a packed triangle would be several unaligned streams (the evaluation is bound
/// by reading G, 0.2 MB per detector, from L2).
#[derive(Debug, Clone)]
pub(super) struct Gram {
    dim: usize,
    /// Number of block rows (and columns).
    blocks: usize,
    tiles: Vec<Tile>,
}

impl Gram {
    /// The zero matrix of dimension `dim`.
    pub(super) fn zeros(dim: usize) -> Self {
        let blocks = dim.div_ceil(TILE);
        Self {
            dim,
            blocks,
            tiles: vec![Tile::default(); blocks * (blocks + 1) / 2],
        }
    }

    /// The dimension padded to whole tiles: the length of the vectors the kernels take.
    pub(super) fn padded_dim(&self) -> usize {
        self.blocks * TILE
    }

    /// Number of block rows.
    pub(super) fn blocks(&self) -> usize {
        self.blocks
    }

    /// Block row `block`: its diagonal tile, and the tiles of the block columns after it.
    pub(super) fn block_row(&self, block: usize) -> (&Tile, &[Tile]) {
        let start = self.row_start(block);
        (
            &self.tiles[start],
            &self.tiles[start + 1..start + self.blocks - block],
        )
    }

    /// Index of the diagonal tile of block row `block`.
    fn row_start(&self, block: usize) -> usize {
        block * self.blocks - block * block.saturating_sub(1) / 2
    }

    /// (tile, row in it, column in it) of G_rc, r ≤ c.
    fn position(&self, r: usize, c: usize) -> (usize, usize, usize) {
        let (br, bc) = (r / TILE, c / TILE);
        (self.row_start(br) + bc - br, r % TILE, c % TILE)
    }

    /// G_rc.
    pub(super) fn get(&self, r: usize, c: usize) -> f64 {
        assert!(r < self.dim && c < self.dim);
        let (tile, i, j) = self.position(r.min(c), r.max(c));
        self.tiles[tile].0[i][j]
    }

    /// The symmetric matrix with G_rc = `entry(r, c)` for r ≤ c.
    #[cfg(test)]
    pub(super) fn from_fn(dim: usize, entry: impl Fn(usize, usize) -> f64) -> Self {
        let mut gram = Self::zeros(dim);
        for r in 0..dim {
            for c in r..dim {
                gram.add(r, c, entry(r, c));
            }
        }
        gram
    }

    /// Adds `value` to G_rc and G_cr.
    fn add(&mut self, r: usize, c: usize, value: f64) {
        assert!(r < self.dim && c < self.dim);
        let (tile, i, j) = self.position(r.min(c), r.max(c));
        self.tiles[tile].0[i][j] += value;
        if r / TILE == c / TILE && i != j {
            self.tiles[tile].0[j][i] += value;
        }
    }
}

/// Checks the inputs shared by both evaluation paths and returns v at the nodes.
///
/// `fiducial` must be finite on the support and nonzero at every node; `data` finite; all of
/// length N = `noise.len()` = `nodes.n_samples()`.
pub(super) fn validate_inputs(
    fiducial: &[Complex64],
    data: &[f64],
    noise: &ToeplitzInverse,
    nodes: &NodeSet,
) -> Result<Vec<Complex64>, RbError> {
    let n = noise.len();
    check_len("node set's segment", nodes.n_samples(), n)?;
    check_len("fiducial", fiducial.len(), n)?;
    check_len("data", data.len(), n)?;
    let support = nodes.support();
    if let Some(k) = fiducial[support.clone()]
        .iter()
        .position(|v| !v.is_finite())
    {
        return Err(RbError::NonFinite {
            what: "fiducial",
            index: support.start() + k,
        });
    }
    check_finite("data", data)?;
    nodes
        .indices()
        .iter()
        .enumerate()
        .map(|(node, &sample)| {
            let v = fiducial[sample];
            if v == Complex64::new(0.0, 0.0) {
                Err(RbError::ZeroFiducialAtNode { node, sample })
            } else {
                Ok(v)
            }
        })
        .collect()
}

/// Gram matrices computed exactly over the shifts of [`SummaryData::with_shifts`], at most
/// this many (evenly spaced, the nearest one serving each shift): shifting the basis earlier
/// drops its first samples and moves it along C⁻¹'s boundary layer, which changes G by up to
/// ~6·10⁻⁶ of ⟨h|h⟩ over a shift of 0.24 s at the segment's start (docs/likelihood.md §3.9).
const GRAM_ANCHORS: usize = 17;

/// The number of anchor shifts for shifts back to −`earliest`.
fn anchor_count(earliest: usize) -> usize {
    GRAM_ANCHORS.min(earliest + 1)
}

/// The `k`-th anchor's shift back from 0 (of [`anchor_count`]), evenly spread to `earliest`.
fn anchor(k: usize, earliest: usize) -> usize {
    match anchor_count(earliest) {
        1 => 0,
        n => (k as f64 * earliest as f64 / (n - 1) as f64).round() as usize,
    }
}

/// G = V⁽ᵐ⁾ᵀ C⁻¹ V⁽ᵐ⁾ for the stacked bases moved by `shift` ≤ 0 samples (their part before
/// the segment's start dropped): 2(B+1) C⁻¹ applies on the leading `block`, B + 1 the nodes of
/// all bases. Column α < B + 1 is Re u of the α-th node of the stack, α ≥ B + 1 its Im u; each
/// C⁻¹-applied column is projected onto every basis, which fills the cross blocks
/// V_jᵀ C⁻¹ V_j' of different bases as well (docs/likelihood.md §3.12).
fn gram_at(bases: &[Basis<'_>], block: &InverseBlock, shift: isize) -> Result<Gram, RbError> {
    let m: usize = bases.iter().map(|b| b.nodes.node_count()).sum();
    let dim = 2 * m;
    let len = block.len();
    let back = shift.unsigned_abs();
    let mut gram = Gram::zeros(dim);
    let mut col = vec![0.0; len];
    let mut moved = vec![0.0; len];
    let mut kcol = vec![0.0; len + back];
    let mut ws = block.workspace();
    let mut p = vec![Complex64::new(0.0, 0.0); m];
    for alpha in 0..dim {
        let (basis, node) = locate(bases, alpha % m);
        column(
            basis.nodes.indices(),
            basis.fiducial,
            node,
            alpha >= m,
            &mut col,
        );
        // The column moved `back` samples earlier, its first `back` samples dropped.
        moved.iter_mut().for_each(|x| *x = 0.0);
        moved[..len - back].copy_from_slice(&col[back..]);
        block.apply_into(&moved, &mut kcol[back..], &mut ws)?;
        // p_b = u_b⁽ᵐ⁾ᵀ C⁻¹ V⁽ᵐ⁾_α: Re → G_{b,α}, Im → G_{m+b,α}; u⁽ᵐ⁾_b(i) = u_b(i + back).
        project_stacked(bases, &kcol, &mut p);
        for (b, pb) in p.iter().enumerate() {
            for (beta, val) in [(b, pb.re), (m + b, pb.im)] {
                let weight = if alpha == beta { 1.0 } else { 0.5 };
                gram.add(alpha, beta, weight * val);
            }
        }
    }
    Ok(gram)
}

/// The basis of the `node`-th node of the stack, and the node's index within it.
fn locate<'b, 'a>(bases: &'b [Basis<'a>], mut node: usize) -> (&'b Basis<'a>, usize) {
    for basis in bases {
        let count = basis.nodes.node_count();
        if node < count {
            return (basis, node);
        }
        node -= count;
    }
    unreachable!("node beyond the stacked bases")
}

/// [`project`] of `w` onto every basis, the results one basis after the other in `out`.
fn project_stacked(bases: &[Basis<'_>], w: &[f64], out: &mut [Complex64]) {
    let mut rest = out;
    for basis in bases {
        let (mine, others) = rest.split_at_mut(basis.nodes.node_count());
        project(basis.nodes.indices(), basis.fiducial, w, mine);
        rest = others;
    }
}

/// a_b(m) = Σ_i (C⁻¹d)_{i+m} v_i ψ_b(i) for every shift m ∈ `shifts` and every node b of the
/// stacked bases (docs/likelihood.md §3.3, §3.9), shift after shift: one C⁻¹ apply, then one
/// projection per shift ((C⁻¹d) read as zero outside the segment).
pub(super) fn data_projection(
    bases: &[Basis<'_>],
    data: &[f64],
    noise: &ToeplitzInverse,
    shifts: &RangeInclusive<isize>,
) -> Result<Vec<Complex64>, RbError> {
    let kd = noise.apply(data)?;
    let b: usize = bases.iter().map(|b| b.nodes.node_count()).sum();
    let pad = shifts
        .start()
        .unsigned_abs()
        .max(shifts.end().unsigned_abs());
    let mut padded = vec![0.0; kd.len() + 2 * pad];
    padded[pad..pad + kd.len()].copy_from_slice(&kd);
    let count = usize::try_from(shifts.end() - shifts.start() + 1).unwrap_or(0);
    let mut a = vec![Complex64::new(0.0, 0.0); count * b];
    for (row, shift) in a.chunks_exact_mut(b).zip(shifts.clone()) {
        let start = pad.checked_add_signed(shift).unwrap_or(0);
        project_stacked(bases, &padded[start..], row);
    }
    Ok(a)
}

/// One basis of [`SummaryData::stacked`]: a fiducial series (e.g. one mode's) and its nodes.
#[derive(Debug, Clone)]
pub struct Basis<'a> {
    /// v_i at every sample (length N): finite on the support, nonzero at the nodes.
    pub fiducial: &'a [Complex64],
    /// Its nodes.
    pub nodes: NodeSet,
}

impl SummaryData {
    /// Builds the summary data of one detector (docs/likelihood.md §3.3).
    ///
    /// - `fiducial`: v_i = W(t_i − t_c0 − τ_k0; λ0), the complex 22 mode of the fiducial at every
    ///   sample (before the extrinsic factor Q), length N; finite on the support and nonzero
    ///   at the nodes. Values outside the support are ignored.
    /// - `data`: d_i (strain), length N.
    /// - `noise`: C⁻¹ of this detector on the same N-sample grid.
    /// - `nodes`: e.g. from [`refine_nodes`](super::refine_nodes).
    ///
    /// Cost: 2(B+1) + 1 C⁻¹ applies (O(B·N log N); the 2(B+1) on the support only).
    pub fn new(
        fiducial: &[Complex64],
        data: &[f64],
        noise: &ToeplitzInverse,
        nodes: NodeSet,
    ) -> Result<Self, RbError> {
        Self::with_shifts(fiducial, data, noise, nodes, 0..=0)
    }

    /// As [`Self::new`], for trials whose arrival time is any whole number of samples m ∈
    /// `shifts` after the fiducial's (plus a fraction), the basis moved by m samples: the data
    /// projection a(m) of each shift, and the Gram matrix exactly at up to `GRAM_ANCHORS` (17)
    /// of them, the nearest serving the others (docs/likelihood.md §3.9). `shifts` must contain
    /// 0 and end there: the basis moved later would no longer reach the first samples of the
    /// segment.
    pub fn with_shifts(
        fiducial: &[Complex64],
        data: &[f64],
        noise: &ToeplitzInverse,
        nodes: NodeSet,
        shifts: RangeInclusive<isize>,
    ) -> Result<Self, RbError> {
        Self::stacked(vec![Basis { fiducial, nodes }], data, noise, shifts)
    }

    /// As [`Self::with_shifts`] for a template that is the sum of several bases' templates,
    /// h = Re[Σ_j Σ_b c_jb v_j ψ_jb] (one basis per mode, docs/likelihood.md §3.12): the node
    /// coefficients of all bases are one vector, the bases one after the other, and G holds
    /// every cross block. One basis is [`Self::with_shifts`].
    pub fn stacked(
        bases: Vec<Basis<'_>>,
        data: &[f64],
        noise: &ToeplitzInverse,
        shifts: RangeInclusive<isize>,
    ) -> Result<Self, RbError> {
        if !(*shifts.start() <= 0 && *shifts.end() == 0) {
            let offending = if *shifts.end() != 0 {
                *shifts.end()
            } else {
                *shifts.start()
            };
            return Err(RbError::InvalidOption {
                name: "shifts",
                value: offending as f64,
                allowed: "a range of whole-sample shifts from m ≤ 0 up to 0",
            });
        }
        if bases.is_empty() {
            return Err(RbError::InvalidOption {
                name: "bases",
                value: 0.0,
                allowed: "at least one basis",
            });
        }
        // Every column vanishes after its basis's support, so only that block of C⁻¹ is needed;
        // the moved bases must each keep samples.
        let len = bases.iter().map(|b| *b.nodes.support().end() + 1).max();
        let shortest = bases.iter().map(|b| *b.nodes.support().end() + 1).min();
        let (Some(len), Some(shortest)) = (len, shortest) else {
            unreachable!("bases is not empty")
        };
        let earliest = shifts.start().unsigned_abs();
        if earliest >= shortest {
            return Err(RbError::InvalidOption {
                name: "shifts",
                value: *shifts.start() as f64,
                allowed: "shifts shorter than the support: the moved basis must keep samples",
            });
        }
        let mut fiducial_at_nodes = Vec::new();
        for basis in &bases {
            fiducial_at_nodes.extend(validate_inputs(basis.fiducial, data, noise, &basis.nodes)?);
        }
        let a = data_projection(&bases, data, noise, &shifts)?;
        let block = noise.leading_block(len)?;
        let grams = (0..anchor_count(earliest))
            .map(|k| gram_at(&bases, &block, -(anchor(k, earliest) as isize)))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            bases: bases.into_iter().map(|b| b.nodes).collect(),
            fiducial_at_nodes,
            a,
            shifts,
            grams,
        })
    }

    /// The nodes (of the first basis, the only one of [`Self::new`] and [`Self::with_shifts`]).
    pub fn nodes(&self) -> &NodeSet {
        &self.bases[0]
    }
    /// The node set of each basis, in the order of the coefficients.
    pub fn bases(&self) -> &[NodeSet] {
        &self.bases
    }
    /// Number of nodes B + 1 (of all bases) = length of c and of the gradient.
    pub fn node_count(&self) -> usize {
        self.fiducial_at_nodes.len()
    }
    /// v_{n_b}: the fiducial at the nodes, to form the ratios r_b = W(t_{n_b} − t_c − τ)/v_{n_b}
    /// (the bases one after the other).
    pub fn fiducial_at_nodes(&self) -> &[Complex64] {
        &self.fiducial_at_nodes
    }
    /// a_b = Σ_i (C⁻¹d)_i u_b(i) (no shift).
    pub fn a(&self) -> &[Complex64] {
        &self.a[self.row_of(0).unwrap_or(0)..][..self.node_count()]
    }

    /// The whole-sample shifts of the trial's arrival time the summary data cover.
    pub fn shifts(&self) -> RangeInclusive<isize> {
        self.shifts.clone()
    }

    /// a(m) for the shift `shift` (B + 1).
    pub(super) fn a_at(&self, shift: isize) -> Result<&[Complex64], RbError> {
        let start = self.row_of(shift).ok_or(RbError::ShiftOutOfRange {
            shift,
            first: *self.shifts.start(),
            last: *self.shifts.end(),
        })?;
        Ok(&self.a[start..start + self.node_count()])
    }

    /// The Gram matrix at the anchor shift nearest `shift` (which [`Self::a_at`] has checked).
    pub(super) fn gram_at_shift(&self, shift: isize) -> &Gram {
        let (back, earliest) = (shift.unsigned_abs(), self.shifts.start().unsigned_abs());
        let last = self.grams.len() - 1;
        let k = if last == 0 {
            0
        } else {
            (back as f64 * last as f64 / earliest as f64).round() as usize
        };
        &self.grams[k.min(last)]
    }

    /// Where a(`shift`) starts in the table.
    fn row_of(&self, shift: isize) -> Option<usize> {
        self.shifts
            .contains(&shift)
            .then(|| (shift - self.shifts.start()) as usize * self.node_count())
    }

    /// G_{αβ} = V_αᵀ C⁻¹ V_β.
    fn gram_entry(&self, alpha: usize, beta: usize) -> f64 {
        self.grams[0].get(alpha, beta)
    }

    /// P_bc = u_bᴴ C⁻¹ u_c (Hermitian).
    pub fn p(&self, b: usize, c: usize) -> Complex64 {
        let m = self.node_count();
        Complex64::new(
            self.gram_entry(b, c) + self.gram_entry(m + b, m + c),
            self.gram_entry(b, m + c) - self.gram_entry(m + b, c),
        )
    }

    /// R_bc = u_bᵀ C⁻¹ u_c (complex symmetric).
    pub fn r(&self, b: usize, c: usize) -> Complex64 {
        let m = self.node_count();
        Complex64::new(
            self.gram_entry(b, c) - self.gram_entry(m + b, m + c),
            self.gram_entry(b, m + c) + self.gram_entry(m + b, c),
        )
    }
}
