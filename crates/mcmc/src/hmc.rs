//! Static-trajectory Hamiltonian Monte Carlo with a Metropolis correction (Neal 2011, "MCMC using
//! Hamiltonian dynamics"; Betancourt 2017, arXiv:1701.02434, §5.1).

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::hamiltonian::MAX_ENERGY_ERROR;
use crate::hamiltonian::{acceptance_probability, metropolis_accept, Hamiltonian, Point};
use crate::kernel::{DrawStats, Kernel};
use crate::target::LogDensity;

/// HMC with a fixed integration time T: each transition takes ⌈T u / ε⌉ leapfrog steps with
/// u ~ U(1 − jitter, 1 + jitter), which breaks the periodic resonances of a fixed step count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Hmc {
    /// Integration time T, in the units of x scaled by the metric (≈ posterior standard
    /// deviations once the metric is adapted).
    pub integration_time: f64,
    /// Relative jitter of the step count, in [0, 1).
    pub jitter: f64,
    /// Upper bound on leapfrog steps per transition.
    pub max_steps: u32,
    /// Target mean acceptance probability for the step-size adaptation.
    pub target_accept: f64,
}

impl Default for Hmc {
    /// T = 1.5 (a little under a quarter period π/2 of a unit Gaussian), 20 % jitter,
    /// at most 1024 steps, target acceptance 0.8.
    fn default() -> Self {
        Self {
            integration_time: 1.5,
            jitter: 0.2,
            max_steps: 1024,
            target_accept: 0.8,
        }
    }
}

impl Kernel for Hmc {
    fn name(&self) -> &'static str {
        "hmc"
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
        let u = 1.0 + self.jitter * (2.0 * rng.random::<f64>() - 1.0);
        let steps = (self.integration_time * u / step_size)
            .ceil()
            .clamp(1.0, f64::from(self.max_steps.max(1))) as u32;
        metropolised_trajectory(hamiltonian, point, step_size, steps, rng)
    }
}

/// Fresh momentum, `steps` leapfrog steps, and a Metropolis accept/reject of the end point: the
/// transition shared by HMC and MALA. A trajectory whose energy error exceeds
/// [`MAX_ENERGY_ERROR`] stops early and is rejected as divergent (its acceptance probability
/// would be below e⁻¹⁰⁰⁰).
pub(crate) fn metropolised_trajectory<T: LogDensity + ?Sized, R: Rng + ?Sized>(
    hamiltonian: &mut Hamiltonian<'_, T>,
    point: &mut Point,
    step_size: f64,
    steps: u32,
    rng: &mut R,
) -> DrawStats {
    let mut state = hamiltonian.start(point.clone(), rng);
    let h0 = hamiltonian.energy(&state);
    let mut h1 = h0;
    let mut n_steps = 0;
    let mut divergent = false;
    while n_steps < steps {
        hamiltonian.leapfrog(&mut state, step_size);
        n_steps += 1;
        h1 = hamiltonian.energy(&state);
        if h1 - h0 > MAX_ENERGY_ERROR {
            divergent = true;
            break;
        }
    }
    let accept_stat = if divergent {
        0.0
    } else {
        acceptance_probability(h0, h1)
    };
    let accepted = metropolis_accept(accept_stat, rng);
    let energy = if accepted {
        *point = state.point;
        h1
    } else {
        h0
    };
    DrawStats {
        log_density: point.log_density,
        energy,
        accept_stat,
        accepted,
        step_size,
        n_steps,
        tree_depth: 0,
        divergent,
        mirrored: false,
        orbit_moved: false,
        independent: false,
    }
}
