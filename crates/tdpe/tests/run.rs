//! End-to-end tests of `tdpe run` and `tdpe config`: a reduced run writes every product with the
//! truth inside the posterior's range, and bad input fails with one line, a non-zero exit code
//! and no output directory.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tdpe(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .args(args)
        .output()
        .expect("the tdpe binary runs")
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tdpe-run-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The default config with `replace` applied (pairs of old, new text).
fn config_with(dir: &Path, replace: &[(&str, &str)]) -> PathBuf {
    let out = tdpe(&["config"]);
    assert!(out.status.success());
    let mut text = String::from_utf8(out.stdout).unwrap();
    for (old, new) in replace {
        assert!(text.contains(old), "the default config has no `{old}`");
        text = text.replace(old, new);
    }
    let path = dir.join("run.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn reduced_zero_noise_run_writes_every_product_around_the_truth() {
    let dir = scratch("reduced");
    let outdir = dir.join("out");
    let out = tdpe(&[
        "run",
        "--zero-noise",
        "--sampler",
        "mala",
        "--n-chains",
        "2",
        "--n-warmup",
        "150",
        "--n-draws",
        "150",
        "--no-progress",
        "--outdir",
        path_str(&outdir),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for product in [
        "result.json",
        "samples.csv",
        "summary.md",
        "corner.png",
        "trace.png",
        "waveform.png",
    ] {
        let meta =
            std::fs::metadata(outdir.join(product)).unwrap_or_else(|_| panic!("{product} missing"));
        assert!(meta.len() > 0, "{product} is empty");
    }
    // The truth lies within each sampled parameter's posterior range.
    let csv = std::fs::read_to_string(outdir.join("samples.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 300);
    let (m1, m2) = (36.0_f64, 29.0_f64);
    let chirp_mass = (m1 * m2).powf(0.6) / (m1 + m2).powf(0.2);
    let truth = [
        ("chirp_mass", chirp_mass),
        ("mass_ratio", m2 / m1),
        ("luminosity_distance", 1200.0),
        ("theta_jn", 2.6),
        ("psi", 0.6),
        ("phase", 1.3),
        ("geocent_time", 1126259462.4),
        ("ra", 1.95),
        ("dec", -1.27),
        ("chi_1", 0.3),
        ("chi_2", -0.2),
    ];
    let mut misses = Vec::new();
    for (name, value) in truth {
        let col = header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"));
        let (lo, hi) = rows
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), r| {
                (a.min(r[col]), b.max(r[col]))
            });
        if !(lo <= value && value <= hi) {
            misses.push(format!("{name}: {value} not in [{lo}, {hi}]"));
        }
    }
    // A short MALA run starting at the truth: allow one near miss in the tails.
    assert!(misses.len() <= 1, "{misses:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `tdpe run` on bad input: one line on stderr starting with `error:` that contains
/// `expected`, a failing exit code, and no output directory.
fn fails_cleanly(dir: &Path, args: &[&str], expected: &str) {
    let outdir = dir.join("out");
    let mut all = vec!["run", "--no-progress", "--outdir", path_str(&outdir)];
    all.extend_from_slice(args);
    let out = tdpe(&all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "not one line: {stderr}"
    );
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains(expected), "{stderr} lacks `{expected}`");
    assert!(!outdir.exists(), "{args:?} left {}", outdir.display());
}

#[test]
fn bad_input_fails_with_one_line_and_writes_nothing() {
    let dir = scratch("bad");
    fails_cleanly(
        &dir,
        &[path_str(&dir.join("missing.toml"))],
        "cannot read config file",
    );

    let prior = dir.join("bad.prior");
    std::fs::write(&prior, "chirp_mass = Uniform(minimum=20, maximum=40\n").unwrap();
    fails_cleanly(
        &dir,
        &["--prior-file", path_str(&prior)],
        "bad.prior:1: missing closing ')'",
    );

    let prior_text = default_prior().replace(
        "chi_1 = Uniform(name='chi_1', minimum=-0.99",
        "chi_1 = Uniform(name='chi_1', minimum=-1.5",
    );
    std::fs::write(&prior, prior_text).unwrap();
    fails_cleanly(
        &dir,
        &["--prior-file", path_str(&prior)],
        "the prior on chi_1 allows [-1.5, 0.99], outside the waveform's range [-1, 1]",
    );

    fails_cleanly(
        &dir,
        &["--prior-file", path_str(&dir.join("nope.prior"))],
        "cannot read prior file",
    );

    let config = config_with(
        &dir,
        &[(
            "detectors = [\"H1\", \"L1\"]",
            "detectors = [\"H1\", \"X1\"]",
        )],
    );
    fails_cleanly(&dir, &[path_str(&config)], "X1");

    let config = config_with(&dir, &[("duration = 4.0", "durations = 4.0")]);
    fails_cleanly(&dir, &[path_str(&config)], "unknown field `durations`");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The shipped default prior file (examples/gw150914_like.prior).
fn default_prior() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/gw150914_like.prior"),
    )
    .unwrap()
}
