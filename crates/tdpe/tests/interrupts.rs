//! A run stopped by SIGINT, SIGTERM or SIGHUP writes every product of the draws so far and
//! exits with status 130 and a message saying it was interrupted.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Starts a long run into `outdir`, sends `signal` once the sampler has started, and returns
/// the exit status and standard error; a run that does not stop within a minute is killed and
/// fails the test (rather than hanging it).
fn interrupted_run(outdir: &Path, signal: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .args(["run", "--zero-noise", "--n-chains", "2", "--n-warmup", "30"])
        .args(["--n-draws", "1000000", "--no-progress", "--outdir"])
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
    std::thread::sleep(Duration::from_secs(3));
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
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
fn every_interrupting_signal_keeps_the_draws_and_exits_130() {
    for signal in ["INT", "TERM", "HUP"] {
        let outdir =
            std::env::temp_dir().join(format!("tdpe-interrupt-{}-{signal}", std::process::id()));
        let _ = std::fs::remove_dir_all(&outdir);
        let (code, stderr) = interrupted_run(&outdir, signal);
        assert_eq!(code, Some(130), "SIG{signal}: {stderr}");
        assert!(
            stderr.contains("error: interrupted: "),
            "SIG{signal}: {stderr}"
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
