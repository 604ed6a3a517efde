//! A run saved to checkpoints goes on from any of them to the draws of a run never stopped,
//! bit for bit: in warm-up, in sampling, after a stop and across a lengthening of the run.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use common::DiagGaussian;
use tdpe_mcmc::{
    sample_until_converged, sample_with_checkpoints, Checkpoints, MetricAdaptation, Nuts,
    SamplerCheckpoint, SamplerConfig, Samples,
};

fn config(threads: usize) -> SamplerConfig {
    let mut config = SamplerConfig {
        num_chains: 3,
        num_warmup: 120,
        num_draws: 80,
        seed: 11,
        threads,
        progress: false,
        ..Default::default()
    };
    config.adaptation.metric = MetricAdaptation::Dense;
    config
}

/// Lengthens the run once, to 130 draws per chain.
fn lengthen(samples: &Samples) -> Option<usize> {
    (samples.chains[0].num_draws() < 130).then_some(130)
}

/// The run with a checkpoint after every segment of transitions; its checkpoints (as bytes) and
/// its samples. `stop_at`: raise the stop flag when saving that checkpoint.
fn checkpointed_run(
    target: &DiagGaussian,
    threads: usize,
    resume: Option<SamplerCheckpoint>,
    stop_at: Option<usize>,
) -> (Vec<Vec<u8>>, Samples) {
    let stop = AtomicBool::new(false);
    let saved = Mutex::new(Vec::new());
    let save = |checkpoint: &SamplerCheckpoint| {
        let mut saved = saved.lock().unwrap();
        saved.push(checkpoint.to_bytes());
        if Some(saved.len()) == stop_at {
            stop.store(true, Ordering::SeqCst);
        }
        Ok(())
    };
    let checkpoints = Checkpoints {
        resume,
        interval: Duration::ZERO,
        save: &save,
    };
    let samples = sample_with_checkpoints(
        target,
        &Nuts::default(),
        &config(threads),
        &stop,
        lengthen,
        Some(&checkpoints),
    )
    .unwrap();
    (saved.into_inner().unwrap(), samples)
}

#[test]
fn runs_resume_from_any_checkpoint_to_the_same_draws() {
    let target = DiagGaussian::log_spaced(4, 0.1, 3.0);
    let plain = sample_until_converged(
        &target,
        &Nuts::default(),
        &config(2),
        &AtomicBool::new(false),
        lengthen,
    )
    .unwrap();
    assert_eq!(plain.chains[0].num_draws(), 130);
    let (saved, samples) = checkpointed_run(&target, 2, None, None);
    assert!(samples == plain, "checkpoints changed the draws");
    assert!(saved.len() > 20, "{} checkpoints", saved.len());
    // From the first (chains not all started), in warm-up, in sampling, before the lengthening
    // and after it, on another number of threads.
    for k in [0, 5, saved.len() / 2, saved.len() - 2, saved.len() - 1] {
        let resume = SamplerCheckpoint::from_bytes(&saved[k]).unwrap();
        let (_, resumed) = checkpointed_run(&target, 1 + k % 2, Some(resume), None);
        assert!(
            resumed == plain,
            "resumed from checkpoint {k} of {}",
            saved.len()
        );
    }
}

#[test]
fn a_stop_saves_the_chains_and_the_run_goes_on_from_there() {
    let target = DiagGaussian::log_spaced(3, 0.5, 2.0);
    let (_, plain) = checkpointed_run(&target, 2, None, None);
    let (saved, stopped) = checkpointed_run(&target, 2, None, Some(12));
    assert!(stopped.interrupted);
    // Saved again once every chain has stopped: the last checkpoint.
    assert!(saved.len() > 12, "{}", saved.len());
    let resume = SamplerCheckpoint::from_bytes(saved.last().unwrap()).unwrap();
    let (_, resumed) = checkpointed_run(&target, 2, Some(resume), None);
    assert!(!resumed.interrupted);
    assert!(resumed == plain);
    // Stopped after the lengthening (past num_draws, short of 130): still interrupted. One
    // thread, so that the checkpoints (one per segment of transitions) come in a fixed order:
    // nine tenths of them lie past the lengthening at 80 draws (600 of 750 transitions).
    let (all, _) = checkpointed_run(&target, 1, None, None);
    let (saved, stopped) = checkpointed_run(&target, 1, None, Some(all.len() * 9 / 10));
    assert!(stopped.interrupted);
    let draws = stopped.chains.iter().map(|c| c.num_draws()).min().unwrap();
    assert!(draws > 80 && draws < 130, "{draws}");
    let resume = SamplerCheckpoint::from_bytes(saved.last().unwrap()).unwrap();
    let (_, resumed) = checkpointed_run(&target, 1, Some(resume), None);
    assert!(resumed == plain);
}

#[test]
fn a_checkpoint_of_another_run_is_refused() {
    let target = DiagGaussian::log_spaced(3, 0.5, 2.0);
    let (saved, _) = checkpointed_run(&target, 2, None, None);
    let other = DiagGaussian::standard(5);
    let resume = SamplerCheckpoint::from_bytes(&saved[8]).unwrap();
    let error = sample_with_checkpoints(
        &other,
        &Nuts::default(),
        &config(2),
        &AtomicBool::new(false),
        lengthen,
        Some(&Checkpoints {
            resume: Some(resume),
            interval: Duration::ZERO,
            save: &|_| Ok(()),
        }),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("dimension is 3, the target's 5"), "{error}");
}
