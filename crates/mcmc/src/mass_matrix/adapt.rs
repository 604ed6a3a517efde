//! Stan-style windowed estimation of the metric during warm-up.
//!
//! Warm-up is split into a fast initial buffer (step size only), a series of slow windows that
//! double in length and each end with a new metric estimated from the draws of that window alone,
//! and a fast terminal buffer (Stan Reference Manual, "HMC algorithm parameters: automatic
//! parameter tuning"; defaults 75 / 25 / 50). Estimates are shrunk towards 10⁻³·I as Stan does:
//! Σ̂ ← n/(n+5) Σ̂ + 10⁻³ · 5/(n+5) · I.

use serde::{Deserialize, Serialize};

use super::Metric;
use crate::checkpoint::{damaged, Persist, Reader, Writer};
use crate::McmcError;

/// Which metric the warm-up learns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum MetricAdaptation {
    /// Keep the initial metric (identity unless given).
    Fixed,
    /// Learn the posterior variances (Stan's `diag_e`).
    #[default]
    Diagonal,
    /// Learn the full posterior covariance (Stan's `dense_e`); O(n²) per gradient.
    Dense,
}

/// Lengths of the warm-up phases, in iterations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowSchedule {
    /// Initial fast buffer (step size only).
    pub init_buffer: usize,
    /// Length of the first slow window; later ones double.
    pub base_window: usize,
    /// Terminal fast buffer (step size only, with the final metric).
    pub term_buffer: usize,
}

impl Default for WindowSchedule {
    /// Stan's defaults: 75 / 25 / 50.
    fn default() -> Self {
        Self {
            init_buffer: 75,
            base_window: 25,
            term_buffer: 50,
        }
    }
}

/// Stan does no metric estimation with fewer warm-up iterations than this.
const MIN_WARMUP_FOR_METRIC: usize = 20;

/// Running estimate of the metric inside one slow window (Welford's algorithm).
#[derive(Debug, Clone)]
enum Estimator {
    Diagonal { mean: Vec<f64>, m2: Vec<f64> },
    Dense { mean: Vec<f64>, m2: Vec<f64> },
}

/// Per-chain metric adaptation state: the resolved window schedule and the current estimator.
#[derive(Debug, Clone)]
pub(crate) struct MetricAdapter {
    estimator: Option<Estimator>,
    count: usize,
    num_warmup: usize,
    init_buffer: usize,
    term_buffer: usize,
    counter: usize,
    window_size: usize,
    next_window_end: usize,
}

impl MetricAdapter {
    /// Resolves the schedule for `num_warmup` iterations as Stan's `windowed_adaptation` does:
    /// with too few iterations for 75/25/50 the buffers become 15 % / 75 % / 10 % of warm-up.
    pub(crate) fn new(
        kind: MetricAdaptation,
        schedule: WindowSchedule,
        num_warmup: usize,
        dim: usize,
    ) -> Self {
        let estimator = match kind {
            _ if num_warmup < MIN_WARMUP_FOR_METRIC => None,
            MetricAdaptation::Fixed => None,
            MetricAdaptation::Diagonal => Some(Estimator::Diagonal {
                mean: vec![0.0; dim],
                m2: vec![0.0; dim],
            }),
            MetricAdaptation::Dense => Some(Estimator::Dense {
                mean: vec![0.0; dim],
                m2: vec![0.0; dim * dim],
            }),
        };
        let WindowSchedule {
            mut init_buffer,
            mut base_window,
            mut term_buffer,
        } = schedule;
        if init_buffer + base_window + term_buffer > num_warmup {
            init_buffer = (0.15 * num_warmup as f64) as usize;
            term_buffer = (0.1 * num_warmup as f64) as usize;
            base_window = num_warmup - (init_buffer + term_buffer);
        }
        Self {
            estimator,
            count: 0,
            num_warmup,
            init_buffer,
            term_buffer,
            counter: 0,
            window_size: base_window,
            next_window_end: (init_buffer + base_window).saturating_sub(1),
        }
    }

    /// Records the draw of one warm-up iteration; at the end of a slow window returns the new
    /// metric (regularised) and restarts the estimator.
    pub(crate) fn observe(&mut self, x: &[f64]) -> Option<Metric> {
        let estimator = self.estimator.as_mut()?;
        let in_window = self.counter >= self.init_buffer
            && self.counter + self.term_buffer < self.num_warmup
            && self.counter != self.num_warmup;
        if in_window {
            self.count += 1;
            let n = self.count as f64;
            match estimator {
                Estimator::Diagonal { mean, m2 } => {
                    for ((m, s), xi) in mean.iter_mut().zip(m2.iter_mut()).zip(x) {
                        let delta = xi - *m;
                        *m += delta / n;
                        *s += delta * (xi - *m);
                    }
                }
                Estimator::Dense { mean, m2 } => {
                    let dim = x.len();
                    let delta: Vec<f64> = x.iter().zip(mean.iter()).map(|(a, b)| a - b).collect();
                    for (m, d) in mean.iter_mut().zip(&delta) {
                        *m += d / n;
                    }
                    for i in 0..dim {
                        let after_i = x[i] - mean[i];
                        for j in 0..dim {
                            m2[i * dim + j] += after_i * delta[j];
                        }
                    }
                }
            }
        }
        let window_ends = self.counter == self.next_window_end && self.counter != self.num_warmup;
        if window_ends {
            self.compute_next_window();
        }
        self.counter += 1;
        if !window_ends {
            return None;
        }
        let estimator = self.estimator.as_mut()?;
        let n = self.count as f64;
        let weight = n / (n + 5.0);
        let shrink = 1e-3 * 5.0 / (n + 5.0);
        let metric = match estimator {
            Estimator::Diagonal { mean, m2 } => {
                let var = m2.iter().map(|s| weight * s / (n - 1.0) + shrink).collect();
                mean.fill(0.0);
                m2.fill(0.0);
                Metric::diagonal(var)
            }
            Estimator::Dense { mean, m2 } => {
                let dim = mean.len();
                let mut cov: Vec<f64> = m2.iter().map(|s| weight * s / (n - 1.0)).collect();
                for i in 0..dim {
                    cov[i * dim + i] += shrink;
                }
                mean.fill(0.0);
                m2.fill(0.0);
                Metric::dense(dim, cov)
            }
        };
        self.count = 0;
        // A window whose draws did not move (every proposal rejected) gives no usable estimate;
        // keep the current metric then.
        metric.ok()
    }

    /// Stan's `compute_next_window`: double the window, and stretch the last one to the start
    /// of the terminal buffer when the following one would not fit.
    fn compute_next_window(&mut self) {
        let last_end = self.num_warmup - self.term_buffer - 1;
        if self.next_window_end == last_end {
            return;
        }
        self.window_size *= 2;
        self.next_window_end = self.counter + self.window_size;
        if self.next_window_end != last_end {
            let next_boundary = self.next_window_end + 2 * self.window_size;
            if next_boundary >= self.num_warmup - self.term_buffer {
                self.next_window_end = last_end;
            }
        }
    }
}

impl Persist for MetricAdapter {
    fn write(&self, w: &mut Writer) {
        match &self.estimator {
            None => w.put(&0u64),
            Some(Estimator::Diagonal { mean, m2 }) => {
                w.put(&1u64);
                w.put(mean);
                w.put(m2);
            }
            Some(Estimator::Dense { mean, m2 }) => {
                w.put(&2u64);
                w.put(mean);
                w.put(m2);
            }
        }
        for count in [
            self.count,
            self.num_warmup,
            self.init_buffer,
            self.term_buffer,
            self.counter,
            self.window_size,
            self.next_window_end,
        ] {
            w.put(&count);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        let estimator = match r.get::<u64>()? {
            0 => None,
            1 => Some(Estimator::Diagonal {
                mean: r.get()?,
                m2: r.get()?,
            }),
            2 => Some(Estimator::Dense {
                mean: r.get()?,
                m2: r.get()?,
            }),
            _ => return Err(damaged("an unknown metric estimator")),
        };
        Ok(Self {
            estimator,
            count: r.get()?,
            num_warmup: r.get()?,
            init_buffer: r.get()?,
            term_buffer: r.get()?,
            counter: r.get()?,
            window_size: r.get()?,
            next_window_end: r.get()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Window ends for 1000 warm-up iterations are Stan's: 99, 149, 249, 449, 949.
    #[test]
    fn stan_window_schedule() {
        let mut adapter = MetricAdapter::new(
            MetricAdaptation::Diagonal,
            WindowSchedule::default(),
            1000,
            1,
        );
        let ends: Vec<usize> = (0..1000)
            .filter(|&i| adapter.observe(&[(i % 7) as f64]).is_some())
            .collect();
        assert_eq!(ends, vec![99, 149, 249, 449, 949]);
    }

    /// The estimate is the regularised sample covariance of the window's draws.
    #[test]
    fn dense_estimate_is_regularised_sample_covariance() {
        let draws: Vec<[f64; 2]> = (0..25)
            .map(|i| {
                let t = i as f64;
                [t.sin(), 0.5 * t.sin() + 0.1 * t.cos()]
            })
            .collect();
        let mut adapter =
            MetricAdapter::new(MetricAdaptation::Dense, WindowSchedule::default(), 150, 2);
        let mut result = None;
        for i in 0..100 {
            let x = if i >= 75 { draws[i - 75] } else { [9.0, 9.0] };
            if let Some(m) = adapter.observe(&x) {
                result = Some((i, m));
                break;
            }
        }
        let (i, metric) = result.unwrap();
        assert_eq!(i, 99);
        let Metric::Dense(dense) = metric else {
            panic!("expected a dense metric")
        };
        let n = 25.0;
        let mean: Vec<f64> = (0..2)
            .map(|k| draws.iter().map(|d| d[k]).sum::<f64>() / n)
            .collect();
        for a in 0..2 {
            for b in 0..2 {
                let s: f64 = draws
                    .iter()
                    .map(|d| (d[a] - mean[a]) * (d[b] - mean[b]))
                    .sum::<f64>()
                    / (n - 1.0);
                let expected =
                    n / (n + 5.0) * s + if a == b { 1e-3 * 5.0 / (n + 5.0) } else { 0.0 };
                assert!((dense.covariance()[a * 2 + b] - expected).abs() < 1e-14);
            }
        }
    }
}
