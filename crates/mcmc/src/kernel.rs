//! The transition-kernel interface and the statistics each transition reports.

use rand::Rng;
use serde::Serialize;

use crate::checkpoint::{Persist, Reader, Writer};
use crate::hamiltonian::{Hamiltonian, Point};
use crate::target::LogDensity;
use crate::McmcError;

/// Statistics of one transition (one draw), as Stan reports them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DrawStats {
    /// ln p at the returned point.
    pub log_density: f64,
    /// Hamiltonian at the returned point with its momentum (Stan's `energy__`, for E-BFMI).
    pub energy: f64,
    /// Mean Metropolis acceptance probability over the trajectory; the quantity that the step
    /// size adaptation drives to the kernel's target.
    pub accept_stat: f64,
    /// Whether the proposal was accepted (HMC, MALA); for NUTS, whether the draw moved.
    pub accepted: bool,
    /// The leapfrog step size used.
    pub step_size: f64,
    /// Leapfrog steps taken, equal to the gradient evaluations of this transition.
    pub n_steps: u32,
    /// NUTS tree depth (number of completed doublings); 0 for the other kernels.
    pub tree_depth: u32,
    /// Whether the trajectory diverged (energy error above
    /// [`MAX_ENERGY_ERROR`](crate::hamiltonian::MAX_ENERGY_ERROR), or a non-finite density).
    pub divergent: bool,
    /// Whether one of the target's mirror moves ([`Space::mirror`](crate::Space::mirror)) was
    /// accepted after the kernel's transition; `log_density` is then the image's.
    pub mirrored: bool,
    /// Whether one of the target's orbit moves ([`Space::orbit`](crate::Space::orbit)) was
    /// accepted after the kernel's transition and its mirror moves; `log_density` is then the
    /// new point's.
    pub orbit_moved: bool,
    /// Whether one of the target's independence proposals ([`Space::independence_draw`](crate::Space::independence_draw))
    /// was accepted after the kernel's transition and its other moves; `log_density` is then
    /// the new point's.
    pub independent: bool,
}

impl Persist for DrawStats {
    fn write(&self, w: &mut Writer) {
        for value in [
            self.log_density,
            self.energy,
            self.accept_stat,
            self.step_size,
        ] {
            w.put(&value);
        }
        w.put(&self.n_steps);
        w.put(&self.tree_depth);
        for flag in [
            self.accepted,
            self.divergent,
            self.mirrored,
            self.orbit_moved,
            self.independent,
        ] {
            w.put(&flag);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(Self {
            log_density: r.get()?,
            energy: r.get()?,
            accept_stat: r.get()?,
            step_size: r.get()?,
            n_steps: r.get()?,
            tree_depth: r.get()?,
            accepted: r.get()?,
            divergent: r.get()?,
            mirrored: r.get()?,
            orbit_moved: r.get()?,
            independent: r.get()?,
        })
    }
}

/// A Markov transition kernel that leaves the target invariant for a fixed step size and metric.
///
/// Kernels hold only their settings; the step size and metric come from the warm-up, which
/// adapts them outside the kernel.
pub trait Kernel: Clone + Send + Sync {
    /// Short name for reports (`"nuts"`, `"hmc"`, `"mala"`).
    fn name(&self) -> &'static str;

    /// Mean acceptance statistic that the dual-averaging warm-up aims for.
    fn target_accept(&self) -> f64;

    /// Moves `point` by one transition with leapfrog step `step_size`.
    fn transition<T: LogDensity + ?Sized, R: Rng + ?Sized>(
        &self,
        hamiltonian: &mut Hamiltonian<'_, T>,
        point: &mut Point,
        step_size: f64,
        rng: &mut R,
    ) -> DrawStats;
}
