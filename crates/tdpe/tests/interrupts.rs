//! A run stopped by SIGINT, SIGTERM or SIGHUP writes every product of the draws so far and a
//! checkpoint, and exits with status 77 (bilby_pipe's "checkpointed"); without checkpoints, with
//! 130 and a message saying it was interrupted. Started again, a stopped or killed run goes on
//! from its last checkpoint to the samples of a run never stopped, byte for byte.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A long run: the sampler never ends on its own.
const LONG: [&str; 8] = [
    "--zero-noise",
    "--n-chains",
    "2",
    "--n-warmup",
    "30",
    "--n-draws",
    "1000000",
    "--no-progress",
];

/// A run of a few seconds, whose draws the resumed runs must reproduce.
const SHORT: [&str; 9] = [
    "--n-chains",
    "2",
    "--n-warmup",
    "150",
    "--n-draws",
    "600",
    "--target-ess",
    "0",
    "--no-progress",
];

/// When the signal is sent, counted from the start of the sampler.
#[derive(Clone, Copy)]
enum When {
    /// After a fixed delay: for runs that never end on their own.
    After(Duration),
    /// As soon as the first checkpoint is on disk: a run of a few seconds would otherwise end
    /// before a fixed delay on a fast machine, and a slow one would not have checkpointed yet.
    AtFirstCheckpoint,
}

/// Starts a run with `args` into `outdir`, sends `signal` at `when`, and returns the exit
/// status and standard error; a run that does not stop within a minute is killed and fails the
/// test (rather than hanging it).
fn interrupted_run(
    outdir: &Path,
    args: &[&str],
    signal: &str,
    when: When,
) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .arg("run")
        .args(args)
        .arg("--outdir")
        .arg(outdir)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("the tdpe binary runs");
    let (lines, received) = mpsc::channel();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let mut text = String::new();
    // The set-up reports the sampler's coordinates just before the chains start.
    while !text.contains("sampler coordinates") {
        match received.recv_timeout(Duration::from_secs(120)) {
            Ok(line) => text.push_str(&format!("{line}\n")),
            Err(_) => break,
        }
    }
    match when {
        When::After(delay) => std::thread::sleep(delay),
        When::AtFirstCheckpoint => {
            let checkpoint = outdir.join("checkpoint.bin");
            let deadline = Instant::now() + Duration::from_secs(60);
            while !checkpoint.is_file() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
    // "TERM2": SIGTERM twice in quick succession, as a scheduler and a batch script that passes
    // it on deliver it.
    let (signal, times) = match signal.strip_suffix('2') {
        Some(once) => (once, 2),
        None => (signal, 1),
    };
    for _ in 0..times {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        std::thread::sleep(Duration::from_millis(100));
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("SIG{signal} did not stop the run within a minute: {text}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    while let Ok(line) = received.recv_timeout(Duration::from_secs(5)) {
        text.push_str(&format!("{line}\n"));
    }
    (status.code(), text)
}

#[test]
fn every_interrupting_signal_keeps_the_draws_and_a_checkpoint() {
    // TERM2: a signal repeated within a moment is the same stop, not an abort.
    for (signal, checkpoints) in [("INT", true), ("TERM2", true), ("HUP", false)] {
        let outdir =
            std::env::temp_dir().join(format!("tdpe-interrupt-{}-{signal}", std::process::id()));
        let _ = std::fs::remove_dir_all(&outdir);
        let mut args = LONG.to_vec();
        if !checkpoints {
            args.extend(["--checkpoint-interval", "0"]);
        }
        let (code, stderr) =
            interrupted_run(&outdir, &args, signal, When::After(Duration::from_secs(3)));
        let (expected, message) = if checkpoints {
            (77, "error: checkpointed: ")
        } else {
            (130, "error: interrupted: ")
        };
        assert_eq!(code, Some(expected), "SIG{signal}: {stderr}");
        assert!(stderr.contains(message), "SIG{signal}: {stderr}");
        assert_eq!(
            outdir.join("checkpoint.bin").is_file(),
            checkpoints,
            "SIG{signal}"
        );
        for product in tdpe::output::PRODUCTS {
            assert!(
                outdir.join(product).is_file(),
                "SIG{signal}: no {product}: {stderr}"
            );
        }
        let result = std::fs::read_to_string(outdir.join("result.json")).unwrap();
        assert!(result.contains("\"interrupted\": true"), "SIG{signal}");
        std::fs::remove_dir_all(&outdir).unwrap();
    }
}

/// Runs `args` into `outdir` to its end; its standard error.
fn complete_run(outdir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .arg("run")
        .args(args)
        .arg("--outdir")
        .arg(outdir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

#[test]
fn a_stopped_or_killed_run_resumes_to_the_samples_of_a_run_never_stopped() {
    let dir = std::env::temp_dir().join(format!("tdpe-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    complete_run(&dir.join("whole"), &SHORT);
    let whole = std::fs::read(dir.join("whole/samples.csv")).unwrap();
    assert!(!dir.join("whole/checkpoint.bin").exists());

    // Stopped in warm-up or sampling by SIGTERM: checkpointed (77), then resumed. Sent at the
    // first checkpoint (a tenth of a second in), well before the run's end on any machine.
    let stopped = dir.join("stopped");
    let mut args = SHORT.to_vec();
    args.extend(["--checkpoint-interval", "0.1"]);
    let (code, stderr) = interrupted_run(&stopped, &args, "TERM", When::AtFirstCheckpoint);
    assert_eq!(code, Some(77), "{stderr}");
    let stderr = complete_run(&stopped, &args);
    assert!(stderr.contains("resuming the 2 chains"), "{stderr}");
    assert!(std::fs::read(stopped.join("samples.csv")).unwrap() == whole);
    assert!(!stopped.join("checkpoint.bin").exists());

    // Killed between checkpoints: resumed from the last whole one.
    let killed = dir.join("killed");
    let (code, stderr) = interrupted_run(&killed, &args, "KILL", When::AtFirstCheckpoint);
    assert_eq!(code, None, "{stderr}");
    assert!(killed.join("checkpoint.bin").is_file(), "{stderr}");
    assert!(!killed.join("samples.csv").exists());
    let stderr = complete_run(&killed, &args);
    assert!(stderr.contains("resuming the 2 chains"), "{stderr}");
    assert!(std::fs::read(killed.join("samples.csv")).unwrap() == whole);

    // A checkpoint of another configuration is an error before any work, and stays.
    let (code, _) = interrupted_run(&killed, &args, "TERM", When::AtFirstCheckpoint);
    assert_eq!(code, Some(77));
    let out = Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .args(["run", "--seed", "2"])
        .args(SHORT)
        .arg("--outdir")
        .arg(&killed)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not the checkpoint of this run's configuration"),
        "{stderr}"
    );
    assert!(killed.join("checkpoint.bin").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
