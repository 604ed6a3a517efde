//! Terminal progress: one indicatif bar per chain with phase, acceptance, divergences and ETA.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::kernel::DrawStats;

/// Iterations between message refreshes (the bar position itself is rate-limited by indicatif).
const REFRESH_EVERY: usize = 16;

/// The bars of a run; hidden when disabled, and drawn by indicatif only on a terminal.
pub(crate) struct Progress {
    _multi: MultiProgress,
    bars: Vec<ProgressBar>,
}

impl Progress {
    pub(crate) fn new(enabled: bool, num_chains: usize, iterations_per_chain: usize) -> Self {
        let target = if enabled {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let style = ProgressStyle::with_template(
            "{prefix:>8} {bar:30.cyan/blue} {pos:>6}/{len:6} {msg} [{elapsed_precise} < {eta_precise}]",
        )
        .expect("static template is valid")
        .progress_chars("=> ");
        let bars = (0..num_chains)
            .map(|chain| {
                let bar = multi.add(ProgressBar::new(iterations_per_chain as u64));
                bar.set_style(style.clone());
                bar.set_prefix(format!("chain {chain}"));
                bar
            })
            .collect();
        Self {
            _multi: multi,
            bars,
        }
    }

    /// Reporter for one chain.
    pub(crate) fn chain(&self, chain: usize) -> ChainProgress<'_> {
        ChainProgress {
            bar: &self.bars[chain],
            accept_sum: 0.0,
            divergences: 0,
            count: 0,
        }
    }
}

/// Running totals of one chain's current phase, shown on its bar.
pub(crate) struct ChainProgress<'a> {
    bar: &'a ProgressBar,
    accept_sum: f64,
    divergences: usize,
    count: usize,
}

impl ChainProgress<'_> {
    /// Starts a new phase ("warmup" or "sampling"): the totals restart.
    pub(crate) fn phase(&mut self) {
        self.accept_sum = 0.0;
        self.divergences = 0;
        self.count = 0;
    }

    /// Records one transition.
    pub(crate) fn record(&mut self, phase: &str, stats: &DrawStats) {
        self.accept_sum += stats.accept_stat;
        self.divergences += usize::from(stats.divergent);
        self.count += 1;
        self.bar.inc(1);
        if self.count % REFRESH_EVERY == 1 {
            self.bar.set_message(format!(
                "{phase:>8} acc {:.2} div {:>4} steps {:>4}",
                self.accept_sum / self.count as f64,
                self.divergences,
                stats.n_steps
            ));
        }
    }

    /// Shows a restored chain's `transitions` so far, in sampling if `sampling`.
    pub(crate) fn resume(&mut self, transitions: usize, sampling: bool) {
        self.bar.inc(transitions as u64);
        if sampling {
            self.phase();
        }
    }

    /// Lengthens the bar by `iterations` more transitions.
    pub(crate) fn extend(&self, iterations: usize) {
        self.bar.inc_length(iterations as u64);
    }

    /// Marks the chain finished (or stopped).
    pub(crate) fn finish(&self) {
        self.bar.finish();
    }
}
