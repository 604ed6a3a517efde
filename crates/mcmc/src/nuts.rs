//! The No-U-Turn Sampler with multinomial trajectory sampling and the generalised no-U-turn
//! criterion, as in Stan's `base_nuts` (Hoffman & Gelman 2014, JMLR 15:1593; Betancourt 2017,
//! arXiv:1701.02434, §A.4).
//!
//! Each transition draws a momentum and doubles a trajectory forwards or backwards in time until
//! (a) the generalised criterion p♯₋·ρ ≤ 0 or p♯₊·ρ ≤ 0 holds across the whole trajectory or
//! inside any sub-tree, checked also across the two halves of every merge with one extra state
//! from the neighbouring half (Stan ≥ 2.26), (b) a step's energy error exceeds
//! [`MAX_ENERGY_ERROR`] (a divergence), or (c) the maximum depth is reached. The draw is taken
//! with weights e^{−H}: uniformly (multinomially) within each new sub-tree, and biased towards
//! the newer half at the top level.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::hamiltonian::{Hamiltonian, Point, State, MAX_ENERGY_ERROR};
use crate::kernel::{DrawStats, Kernel};
use crate::mass_matrix::dot;
use crate::target::LogDensity;

/// NUTS settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Nuts {
    /// Maximum number of trajectory doublings (at most 2^max_depth − 1 leapfrog steps).
    pub max_depth: u32,
    /// Target mean acceptance statistic for the step-size adaptation.
    pub target_accept: f64,
}

impl Default for Nuts {
    /// Stan's defaults: depth 10, target 0.8.
    fn default() -> Self {
        Self {
            max_depth: 10,
            target_accept: 0.8,
        }
    }
}

/// A trajectory segment: its two end states (in time order), the sum ρ of its momenta, the log
/// of its total weight Σ e^{H₀−H}, and its current multinomial draw.
struct Tree {
    left: State,
    right: State,
    rho: Vec<f64>,
    log_weight: f64,
    proposal: Point,
    proposal_energy: f64,
    proposal_is_start: bool,
}

impl Tree {
    fn leaf(state: State, energy: f64, log_weight: f64, is_start: bool) -> Self {
        Self {
            left: state.clone(),
            right: state.clone(),
            rho: state.p.clone(),
            log_weight,
            proposal: state.point,
            proposal_energy: energy,
            proposal_is_start: is_start,
        }
    }

    /// The end to extend from when growing in `direction`.
    fn edge(&self, forward: bool) -> &State {
        if forward {
            &self.right
        } else {
            &self.left
        }
    }

    /// Appends `next` (grown from this tree's edge in direction `forward`) and returns whether the
    /// merged trajectory makes a U-turn. The draw moves to `next`'s with probability
    /// w_next / (w_self + w_next) (`biased = false`) or min(1, w_next / w_self) (`biased = true`,
    /// Stan's top-level rule that favours the newer half).
    fn merge<R: Rng + ?Sized>(
        &mut self,
        next: Tree,
        forward: bool,
        biased: bool,
        rng: &mut R,
    ) -> bool {
        let log_total = log_sum_exp(self.log_weight, next.log_weight);
        let log_accept = next.log_weight - if biased { self.log_weight } else { log_total };
        let take_next = log_accept >= 0.0 || rng.random::<f64>() < log_accept.exp();
        self.log_weight = log_total;
        let (early, late) = if forward {
            (&*self, &next)
        } else {
            (&next, &*self)
        };
        let rho: Vec<f64> = early
            .rho
            .iter()
            .zip(&late.rho)
            .map(|(a, b)| a + b)
            .collect();
        let turning = is_turning(&early.left.v, &late.right.v, &rho)
            || is_turning(&early.left.v, &late.left.v, &sum(&early.rho, &late.left.p))
            || is_turning(
                &early.right.v,
                &late.right.v,
                &sum(&late.rho, &early.right.p),
            );
        self.rho = rho;
        if forward {
            self.right = next.right;
        } else {
            self.left = next.left;
        }
        if take_next {
            self.proposal = next.proposal;
            self.proposal_energy = next.proposal_energy;
            self.proposal_is_start = false;
        }
        turning
    }
}

/// The generalised no-U-turn criterion (Betancourt 2017, eq. 25 with p♯ = M⁻¹p): the segment
/// with end velocities `v_minus`, `v_plus` and momentum sum `rho` is turning unless both ends
/// still move along ρ.
fn is_turning(v_minus: &[f64], v_plus: &[f64], rho: &[f64]) -> bool {
    dot(v_minus, rho) <= 0.0 || dot(v_plus, rho) <= 0.0
}

fn sum(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

fn log_sum_exp(a: f64, b: f64) -> f64 {
    let m = a.max(b);
    if m == f64::NEG_INFINITY {
        m
    } else {
        m + ((a - m).exp() + (b - m).exp()).ln()
    }
}

/// Mutable context of one NUTS transition.
struct Builder<'h, 'a, T: ?Sized, R: ?Sized> {
    hamiltonian: &'h mut Hamiltonian<'a, T>,
    rng: &'h mut R,
    step_size: f64,
    initial_energy: f64,
    n_steps: u32,
    sum_accept: f64,
    divergent: bool,
}

impl<T: LogDensity + ?Sized, R: Rng + ?Sized> Builder<'_, '_, T, R> {
    /// Builds a tree of 2^depth leapfrog steps from `start`; `None` if it diverged or contains a
    /// U-turn, in which case none of its states may be drawn.
    fn build(&mut self, start: &State, depth: u32, forward: bool) -> Option<Tree> {
        if depth == 0 {
            let mut state = start.clone();
            let eps = if forward {
                self.step_size
            } else {
                -self.step_size
            };
            self.hamiltonian.leapfrog(&mut state, eps);
            self.n_steps += 1;
            let energy = self.hamiltonian.energy(&state);
            let log_weight = self.initial_energy - energy;
            self.sum_accept += log_weight.exp().min(1.0);
            if -log_weight > MAX_ENERGY_ERROR {
                self.divergent = true;
                return None;
            }
            return Some(Tree::leaf(state, energy, log_weight, false));
        }
        let mut tree = self.build(start, depth - 1, forward)?;
        let next = self.build(tree.edge(forward), depth - 1, forward)?;
        if tree.merge(next, forward, false, self.rng) {
            return None;
        }
        Some(tree)
    }
}

impl Kernel for Nuts {
    fn name(&self) -> &'static str {
        "nuts"
    }

    fn target_accept(&self) -> f64 {
        self.target_accept
    }

    fn transition<T: LogDensity + ?Sized, R: Rng + ?Sized>(
        &self,
        hamiltonian: &mut Hamiltonian<'_, T>,
        point: &mut Point,
        step_size: f64,
        rng: &mut R,
    ) -> DrawStats {
        let start = hamiltonian.start(point.clone(), rng);
        let initial_energy = hamiltonian.energy(&start);
        let mut tree = Tree::leaf(start, initial_energy, 0.0, true);
        let mut builder = Builder {
            hamiltonian,
            rng,
            step_size,
            initial_energy,
            n_steps: 0,
            sum_accept: 0.0,
            divergent: false,
        };
        let mut depth = 0;
        while depth < self.max_depth {
            let forward = builder.rng.random::<bool>();
            let Some(next) = builder.build(tree.edge(forward), depth, forward) else {
                break;
            };
            depth += 1;
            if tree.merge(next, forward, true, builder.rng) {
                break;
            }
        }
        let accept_stat = if builder.n_steps == 0 {
            0.0
        } else {
            builder.sum_accept / f64::from(builder.n_steps)
        };
        let stats = DrawStats {
            log_density: tree.proposal.log_density,
            energy: tree.proposal_energy,
            accept_stat,
            accepted: !tree.proposal_is_start,
            step_size,
            n_steps: builder.n_steps,
            tree_depth: depth,
            divergent: builder.divergent,
            mirrored: false,
            orbit_moved: false,
            independent: false,
        };
        *point = tree.proposal;
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_detects_reversal() {
        assert!(!is_turning(&[1.0, 0.0], &[1.0, 0.1], &[2.0, 0.0]));
        assert!(is_turning(&[1.0, 0.0], &[-1.0, 0.1], &[0.5, 0.0]));
        assert_eq!(
            log_sum_exp(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert!((log_sum_exp(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
    }
}
