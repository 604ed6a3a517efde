//! Leapfrog step size: the initial heuristic and its dual-averaging adaptation.

mod dual_avg;

use rand::Rng;

pub(crate) use dual_avg::DualAverage;
pub use dual_avg::DualAveraging;

use crate::hamiltonian::{acceptance_probability, Hamiltonian, Point};
use crate::target::LogDensity;

/// Largest step size the heuristic may reach before declaring the target improper (Stan: 1e7).
const MAX_STEP_SIZE: f64 = 1e7;

/// Stan's `init_stepsize` (Hoffman & Gelman 2014, Algorithm 4): from `step_size`, double or
/// halve ε until the acceptance probability of a single leapfrog step from `point` with a fresh
/// momentum crosses 0.8. Returns the step size, or `Err(ε)` when ε runs away to 0 or above 10⁷.
pub(crate) fn find_initial_step_size<T: LogDensity + ?Sized, R: Rng + ?Sized>(
    hamiltonian: &mut Hamiltonian<'_, T>,
    point: &Point,
    mut step_size: f64,
    rng: &mut R,
) -> Result<f64, f64> {
    let one_step_accept = |hamiltonian: &mut Hamiltonian<'_, T>, rng: &mut R, eps: f64| {
        let mut state = hamiltonian.start(point.clone(), rng);
        let h0 = hamiltonian.energy(&state);
        hamiltonian.leapfrog(&mut state, eps);
        acceptance_probability(h0, hamiltonian.energy(&state))
    };
    let grow = one_step_accept(hamiltonian, rng, step_size) > 0.8;
    loop {
        let accept = one_step_accept(hamiltonian, rng, step_size);
        if grow != (accept > 0.8) {
            return Ok(step_size);
        }
        step_size *= if grow { 2.0 } else { 0.5 };
        if !(step_size > 0.0 && step_size <= MAX_STEP_SIZE) {
            return Err(step_size);
        }
    }
}
