//! LAL's sample grid t_k = t_min + k·Δt (in M), its length and its epoch, and the mode and the
//! polarisations on it, as `SimInspiralChooseTDWaveform(IMRPhenomT)` returns them
//! (docs/imrphenomt.md §2.3, §7.5).

use super::{IMRPhenomT, Mode22, Polarizations};
use crate::harmonics::Projection;
use crate::roots::T_END;

impl IMRPhenomT<f64> {
    /// Number of samples of LAL's grid: ⌊(500 − t_min)/Δt_M⌋.
    pub fn grid_length(&self) -> usize {
        ((T_END - self.t_min()) / self.dt_m()).floor() as usize
    }

    /// The sampling interval in s.
    pub fn delta_t(&self) -> f64 {
        self.delta_t
    }

    /// The sampling interval in units of the total mass.
    pub(crate) fn dt_m(&self) -> f64 {
        self.delta_t / self.total_mass_s
    }

    /// LAL's epoch: t_min·M rounded to the nearest nanosecond (`XLALGPSAdd`).
    pub fn epoch_ns(&self) -> i64 {
        let t = self.t_min() * self.total_mass_s;
        let seconds = t.floor();
        let nanos = ((t - seconds) * 1e9).round_ties_even();
        seconds as i64 * 1_000_000_000 + nanos as i64
    }

    /// LAL's grid t_k = t_min + k·Δt_M, in M.
    pub(crate) fn grid_times(&self) -> impl Iterator<Item = f64> {
        let (t_min, dt_m) = (self.t_min(), self.dt_m());
        (0..self.grid_length()).map(move |k| t_min + k as f64 * dt_m)
    }

    /// The (2,2) mode on LAL's grid t_k = t_min + k·Δt_M (in M), for a source at 1 Mpc.
    pub fn mode22_on_grid(&self) -> Vec<Mode22<f64>> {
        self.grid_times()
            .map(|t| self.mode22_geometric(t))
            .collect()
    }

    /// h₊ and h× on LAL's grid, as `SimInspiralChooseTDWaveform(IMRPhenomT)` returns them.
    pub fn polarizations_on_grid(
        &self,
        distance_mpc: f64,
        inclination: f64,
        phi_ref: f64,
    ) -> Polarizations {
        let projection = Projection::new(inclination, phi_ref);
        let inv_distance = 1.0 / distance_mpc;
        let (hp, hc) = self
            .grid_times()
            .map(|t| {
                let m = self.mode22_geometric(t);
                projection.apply(m.amplitude * inv_distance, m.phase)
            })
            .unzip();
        self.on_grid(hp, hc)
    }

    /// `hp` and `hc` sampled on LAL's grid, with its epoch and interval.
    pub(crate) fn on_grid(&self, hp: Vec<f64>, hc: Vec<f64>) -> Polarizations {
        Polarizations {
            epoch_ns: self.epoch_ns(),
            delta_t: self.delta_t,
            hp,
            hc,
        }
    }
}
