//! The times of a block, sorted by region and moved eight at a time onto [`Lanes`] and back: for
//! the batch evaluation and the batch adjoint (docs/imrphenomt.md §7.4, §9.4).

use crate::scalar::Lanes;

/// Times evaluated together by [`IMRPhenomT::mode22_traced_many`] and
/// [`IMRPhenomT::h22_many`].
pub(super) const STAGE: usize = 8;
/// Times per block of [`IMRPhenomT::h22_many`]: their intermediate results stay on the stack.
pub(super) const BLOCK: usize = 64;

/// The indices of `t` in each region, and their numbers: 0 before `end` (the inspiral), 2
/// after the peak (the ringdown), 1 between. (No closures on the vectorised path: they would
/// not inherit its target features.)
#[inline(always)]
pub(super) fn regions(t: &[f64], end: f64) -> ([[usize; BLOCK]; 3], [usize; 3]) {
    let mut idx = [[0usize; BLOCK]; 3];
    // Counts in registers rather than an array indexed by region: no chain of stores and
    // loads through memory.
    let (mut inspiral, mut merger, mut ringdown) = (0, 0, 0);
    for (i, &t) in t.iter().enumerate() {
        if t < end {
            idx[0][inspiral] = i;
            inspiral += 1;
        } else if t > 0.0 {
            idx[2][ringdown] = i;
            ringdown += 1;
        } else {
            idx[1][merger] = i;
            merger += 1;
        }
    }
    (idx, [inspiral, merger, ringdown])
}

/// The first of `idx` if they are [`STAGE`] consecutive indices (as [`regions`] gives them
/// for ascending times), which move to and from lanes with one load or store.
#[inline(always)]
fn run_start(idx: &[usize]) -> Option<usize> {
    // `regions` lists indices in increasing order, so equal spans mean consecutive ones.
    (idx.len() == STAGE && idx[STAGE - 1] - idx[0] == STAGE - 1).then_some(idx[0])
}

/// `x` at `idx` (1 to [`STAGE`] indices) on lanes, the last repeated into the spare lanes
/// (so that they stay in the same region).
#[inline(always)]
pub(super) fn gather(x: &[f64; BLOCK], idx: &[usize]) -> Lanes<STAGE> {
    if let Some(i) = run_start(idx) {
        return Lanes(std::array::from_fn(|k| x[i + k]));
    }
    let last = idx.len() - 1;
    Lanes(std::array::from_fn(|i| x[idx[i.min(last)]]))
}

/// `x` at `idx` (1 to [`STAGE`] indices) on lanes, zero in the spare lanes: weights, so that
/// the spare lanes (which repeat a time) add nothing.
#[inline(always)]
pub(super) fn gather_weights(x: &[f64], idx: &[usize]) -> Lanes<STAGE> {
    if let Some(i) = run_start(idx) {
        return Lanes(std::array::from_fn(|k| x[i + k]));
    }
    Lanes(std::array::from_fn(|i| idx.get(i).map_or(0.0, |&j| x[j])))
}

/// The lanes of `v` to `x` at `idx`.
#[inline(always)]
pub(super) fn scatter(idx: &[usize], v: Lanes<STAGE>, x: &mut [f64; BLOCK]) {
    if let Some(i) = run_start(idx) {
        x[i..i + STAGE].copy_from_slice(&v.0);
        return;
    }
    for (i, &j) in idx.iter().enumerate() {
        x[j] = v.0[i];
    }
}
