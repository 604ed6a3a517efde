//! Preconditioned Metropolis-adjusted Langevin algorithm (Roberts & Tweedie 1996; Girolami &
//! Calderhead 2011 for the preconditioned form).
//!
//! The MALA proposal x' = x + (ε²/2) M⁻¹∇ln p(x) + ε M^{-1/2} ξ, ξ ~ N(0, I), with its
//! Metropolis–Hastings correction, is exactly one leapfrog step of HMC from a fresh momentum
//! p ~ N(0, M) followed by the HMC Metropolis test: the Langevin proposal-density ratio equals
//! exp(−ΔK) of the leapfrog step (Neal 2011, "MCMC using Hamiltonian dynamics", §5.2). So MALA
//! shares HMC's integrator and correction, with one step.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::hamiltonian::{Hamiltonian, Point};
use crate::hmc::metropolised_trajectory;
use crate::kernel::{DrawStats, Kernel};
use crate::target::LogDensity;

/// Preconditioned MALA; the preconditioner is the adapted metric M⁻¹.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mala {
    /// Target mean acceptance probability for the step-size adaptation.
    pub target_accept: f64,
}

impl Default for Mala {
    /// Target acceptance 0.574, optimal for MALA in high dimension (Roberts & Rosenthal 1998).
    fn default() -> Self {
        Self {
            target_accept: 0.574,
        }
    }
}

impl Kernel for Mala {
    fn name(&self) -> &'static str {
        "mala"
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
        metropolised_trajectory(hamiltonian, point, step_size, 1, rng)
    }
}
