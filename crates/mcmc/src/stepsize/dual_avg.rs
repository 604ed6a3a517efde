//! Nesterov dual averaging of the log step size (Hoffman & Gelman 2014, JMLR 15:1593, §3.2.1,
//! Algorithm 5; Stan's `stepsize_adaptation`).

use serde::{Deserialize, Serialize};

use crate::checkpoint::{Persist, Reader, Writer};
use crate::McmcError;

/// Settings of the dual-averaging step-size adaptation (Stan's defaults).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct DualAveraging {
    /// Regularisation scale γ (0.05).
    pub gamma: f64,
    /// Iteration offset t₀ that damps early iterations (10).
    pub t0: f64,
    /// Decay exponent κ of the averaging weights (0.75).
    pub kappa: f64,
}

impl Default for DualAveraging {
    fn default() -> Self {
        Self {
            gamma: 0.05,
            t0: 10.0,
            kappa: 0.75,
        }
    }
}

/// State of the dual-averaging iteration for one chain.
#[derive(Debug, Clone)]
pub(crate) struct DualAverage {
    settings: DualAveraging,
    target: f64,
    mu: f64,
    counter: f64,
    s_bar: f64,
    x_bar: f64,
}

impl DualAverage {
    /// Starts the iteration towards mean acceptance `target`, shrinking towards μ = ln(10 ε₀).
    pub(crate) fn new(settings: DualAveraging, target: f64, initial_step_size: f64) -> Self {
        let mut adapter = Self {
            settings,
            target,
            mu: 0.0,
            counter: 0.0,
            s_bar: 0.0,
            x_bar: 0.0,
        };
        adapter.restart(initial_step_size);
        adapter
    }

    /// Restarts after a metric update, around the new initial step size.
    pub(crate) fn restart(&mut self, initial_step_size: f64) {
        self.mu = (10.0 * initial_step_size).ln();
        self.counter = 0.0;
        self.s_bar = 0.0;
        self.x_bar = 0.0;
    }

    /// Feeds one transition's acceptance statistic; returns the step size to use next.
    pub(crate) fn update(&mut self, accept_stat: f64) -> f64 {
        let DualAveraging { gamma, t0, kappa } = self.settings;
        self.counter += 1.0;
        let accept_stat = if accept_stat.is_nan() {
            0.0
        } else {
            accept_stat.min(1.0)
        };
        let eta = 1.0 / (self.counter + t0);
        self.s_bar = (1.0 - eta) * self.s_bar + eta * (self.target - accept_stat);
        let x = self.mu - self.s_bar * self.counter.sqrt() / gamma;
        let weight = self.counter.powf(-kappa);
        self.x_bar = (1.0 - weight) * self.x_bar + weight * x;
        x.exp()
    }

    /// The averaged step size exp(x̄) used after warm-up.
    pub(crate) fn final_step_size(&self) -> f64 {
        self.x_bar.exp()
    }
}

impl Persist for DualAverage {
    fn write(&self, w: &mut Writer) {
        let DualAveraging { gamma, t0, kappa } = self.settings;
        for value in [
            gamma,
            t0,
            kappa,
            self.target,
            self.mu,
            self.counter,
            self.s_bar,
            self.x_bar,
        ] {
            w.put(&value);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(Self {
            settings: DualAveraging {
                gamma: r.get()?,
                t0: r.get()?,
                kappa: r.get()?,
            },
            target: r.get()?,
            mu: r.get()?,
            counter: r.get()?,
            s_bar: r.get()?,
            x_bar: r.get()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With acceptance a(ε) = exp(−ε), the iteration converges to a(ε) = target.
    #[test]
    fn converges_to_target_acceptance() {
        let mut adapter = DualAverage::new(DualAveraging::default(), 0.8, 1.0);
        let mut eps = 1.0;
        for _ in 0..2000 {
            eps = adapter.update(f64::exp(-eps));
        }
        let expected = -(0.8f64).ln();
        assert!((adapter.final_step_size() - expected).abs() < 0.03 * expected);
        assert!((eps - expected).abs() < 0.05 * expected);
    }
}
