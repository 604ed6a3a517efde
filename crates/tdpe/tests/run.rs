//! End-to-end tests of `tdpe run` and `tdpe config`: a reduced run writes every product with the
//! truth inside the posterior's range, distance marginalisation is recorded and can be switched
//! off, and bad input fails with one line, a non-zero exit code and no output directory.

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

/// `tdpe run` with NUTS on the zero-noise default, 2 chains of `iterations` warm-up iterations
/// and exactly as many draws, and the flags `extra`, into `outdir`; fails the test if the run
/// fails, and returns what it wrote to standard error.
fn reduced_run(outdir: &Path, iterations: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "--n-warmup",
        iterations,
        "--n-draws",
        iterations,
        "--target-ess",
        "0",
    ];
    args.extend_from_slice(extra);
    two_chain_run(outdir, &args)
}

/// `tdpe run` with NUTS on the zero-noise default, 2 chains, and the flags `extra`, into
/// `outdir`; fails the test if the run fails, and returns what it wrote to standard error.
fn two_chain_run(outdir: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "run",
        "--zero-noise",
        "--sampler",
        "nuts",
        "--n-chains",
        "2",
        "--no-progress",
        "--outdir",
        path_str(outdir),
    ];
    args.extend_from_slice(extra);
    let out = tdpe(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
}

/// result.json of a run in `outdir`, with Python's non-finite numbers read as null.
fn result_json(outdir: &Path) -> serde_json::Value {
    // bilby writes NaN evidences without tempering; strict JSON has no non-finite numbers.
    let text = std::fs::read_to_string(outdir.join("result.json"))
        .unwrap()
        .replace("-Infinity", "null")
        .replace("Infinity", "null")
        .replace("NaN", "null");
    serde_json::from_str(&text).unwrap()
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
    reduced_run(&outdir, "100", &[]);
    for product in tdpe::output::PRODUCTS {
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
    assert_eq!(rows.len(), 200);
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
    // A short run whose chains have not mixed: allow two near misses in the tails.
    assert!(misses.len() <= 2, "{misses:?}");

    // `tdpe likelihood` on the same problem: relative binning agrees with the exact likelihood
    // at the posterior draws. (Its values differ from the run's log_likelihood column by up to
    // ~1e-2, because samples.csv holds absolute GPS times, whose f64 resolution is 2.4e-7 s.)
    let config = config_with(&dir, &[("zero_noise = false", "zero_noise = true")]);
    let lnl = dir.join("lnl.csv");
    let out = tdpe(&[
        "likelihood",
        path_str(&config),
        "--points",
        path_str(&outdir.join("samples.csv")),
        "--output",
        path_str(&lnl),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&lnl).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("lnl_exact,lnl_rb,gradient_norm_rb"));
    let column = header.iter().position(|h| *h == "log_likelihood").unwrap();
    let mut worst = 0.0_f64;
    for line in lines {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        worst = worst.max((v[0] - v[1]).abs());
    }
    assert!(worst < 2e-3, "relative binning off by {worst}");

    // Zero noise: the truth is the likelihood's maximum, and the chains reach it.
    let truth_csv = dir.join("truth.csv");
    let names: Vec<&str> = truth.iter().map(|(n, _)| *n).collect();
    let values: Vec<String> = truth.iter().map(|(_, v)| v.to_string()).collect();
    std::fs::write(
        &truth_csv,
        format!("{}\n{}\n", names.join(","), values.join(",")),
    )
    .unwrap();
    let out = tdpe(&[
        "likelihood",
        path_str(&config),
        "--points",
        path_str(&truth_csv),
        "--output",
        "-",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let at_truth: f64 = stdout
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // ½(ρ_H1² + ρ_L1²) with the optimal SNRs 21.23 and 16.38 of the summary.
    assert!((at_truth - 359.5).abs() < 0.2, "{at_truth}");
    let best = rows
        .iter()
        .map(|r| r[column])
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        best <= at_truth + 2e-3 && best > at_truth - 3.0,
        "best draw {best}, truth {at_truth}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Distance marginalisation (the default) is recorded in result.json, gives every draw its own
/// distance and keeps luminosity_distance out of the sampled keys but in the diagnostics;
/// switched off, the distance is sampled again.
#[test]
fn distance_marginalization_is_recorded_and_can_be_switched_off() {
    let dir = scratch("distance");
    for (flag, marginalised) in [("true", true), ("false", false)] {
        let outdir = dir.join(flag);
        reduced_run(&outdir, "30", &["--distance-marginalization", flag]);
        let result = result_json(&outdir);
        let flag_written = &result["meta_data"]["likelihood"]["distance_marginalization"];
        assert_eq!(flag_written.as_bool(), Some(marginalised));
        let keys = result["search_parameter_keys"].as_array().unwrap();
        let sampled = keys.iter().any(|k| k == "luminosity_distance");
        assert_eq!(sampled, !marginalised);
        let ess = &result["meta_data"]["diagnostics"]["ess_bulk"];
        assert!(ess.get("luminosity_distance").is_some());
        let distances: Vec<f64> = result["posterior"]["content"]["luminosity_distance"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_f64().unwrap())
            .collect();
        assert_eq!(distances.len(), 60);
        assert!(distances.iter().all(|d| (100.0..=5000.0).contains(d)));
        assert!(distances.iter().any(|&d| d != distances[0]));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Phase marginalisation is recorded in result.json, keeps phase out of the sampled keys but
/// in the diagnostics, and gives every draw its own phase within the prior's turn; psi is
/// reported over its whole period (the sampler's quarter turn and its partner).
#[test]
fn phase_marginalization_is_recorded_and_draws_the_phase() {
    let dir = scratch("phase");
    reduced_run(&dir, "30", &["--phase-marginalization", "true"]);
    let result = result_json(&dir);
    let likelihood = &result["meta_data"]["likelihood"];
    assert_eq!(likelihood["phase_marginalization"].as_bool(), Some(true));
    let keys = result["search_parameter_keys"].as_array().unwrap();
    assert!(!keys.iter().any(|k| k == "phase"));
    assert!(result["meta_data"]["diagnostics"]["ess_bulk"]
        .get("phase")
        .is_some());
    let column = |name: &str| -> Vec<f64> {
        result["posterior"]["content"][name]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_f64().unwrap())
            .collect()
    };
    let phases = column("phase");
    assert_eq!(phases.len(), 60);
    assert!(phases
        .iter()
        .all(|p| (0.0..std::f64::consts::TAU).contains(p)));
    assert!(phases.iter().any(|&p| p != phases[0]));
    let psis = column("psi");
    assert!(psis.iter().all(|p| (0.0..std::f64::consts::PI).contains(p)));
    assert!(psis.iter().any(|&p| p > std::f64::consts::FRAC_PI_2));
    assert!(psis.iter().any(|&p| p < std::f64::consts::FRAC_PI_2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With a target ESS the short chains go on past their planned draws, up to `max_draws`, and
/// the run records and says so; the draws of the planned length come first, unchanged.
#[test]
fn chains_go_on_for_the_target_ess() {
    let dir = scratch("target_ess");
    let planned = dir.join("planned");
    two_chain_run(
        &planned,
        &["--n-warmup", "30", "--n-draws", "90", "--target-ess", "0"],
    );
    let extended = dir.join("extended");
    let stderr = two_chain_run(
        &extended,
        &[
            "--n-warmup",
            "30",
            "--n-draws",
            "30",
            "--target-ess",
            "1000",
            "--max-draws",
            "90",
        ],
    );
    assert!(stderr.contains("going on to 90"), "{stderr}");
    let result = result_json(&extended);
    let kwargs = &result["sampler_kwargs"];
    assert_eq!(kwargs["num_draws"], 30, "{kwargs}");
    assert_eq!(kwargs["max_draws"], 90, "{kwargs}");
    assert_eq!(kwargs["target_ess"], 1000.0, "{kwargs}");
    let chains = &result["meta_data"]["chains"];
    assert_eq!(chains["num_draws"], serde_json::json!([90, 90]), "{chains}");
    let summary = std::fs::read_to_string(extended.join("summary.md")).unwrap();
    assert!(summary.contains("2 chains × 90 draws"), "{summary}");
    assert!(
        summary.contains("went on past the planned 30 draws"),
        "{summary}"
    );
    // Planned at 90 from the start: the same chains, draw for draw.
    assert_eq!(
        result["posterior"]["content"]["chirp_mass"],
        result_json(&planned)["posterior"]["content"]["chirp_mass"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A weaker signal, whose Fisher design set needs more nodes than the budget, gets its nodes
/// from a pilot run's draws, and the run reports the pilot and the check against the exact
/// likelihood; its relative binning follows whole-sample time shifts, so the chains move by
/// the time orbit too (the loud default run has no such moves).
#[test]
fn a_wide_posterior_places_its_nodes_with_a_pilot_run() {
    let dir = scratch("pilot");
    let config = config_with(
        &dir,
        &[(
            "luminosity_distance = 1200.0",
            "luminosity_distance = 3000.0",
        )],
    );
    let outdir = dir.join("out");
    let stderr = reduced_run(&outdir, "30", &[path_str(&config)]);
    assert!(
        stderr.contains("a pilot run draws the design set"),
        "{stderr}"
    );
    // The cells kept, with the spread at the held-out pilot draws.
    assert!(
        stderr.contains("cells of the (2,2) peak frequency") && stderr.contains("held-out draws: "),
        "{stderr}"
    );
    let result = result_json(&outdir);
    let rb = &result["meta_data"]["likelihood"]["relative_binning"];
    // Three of every four of the pilot's draws (2 chains × 100 in a reduced run).
    assert_eq!(rb["pilot"]["design_draws"], 150, "{rb}");
    let pilot = &rb["pilot"];
    assert!(pilot["time_steps"].as_u64().unwrap() > 1, "{rb}");
    assert_eq!(pilot["independence_proposals"], 60, "{rb}");
    // Its matched-filter SNR (~11) is above the one below which the trees are short.
    assert_eq!(pilot["max_tree_depth"], 10, "{rb}");
    let cells = pilot["cell_nodes"].as_array().unwrap();
    assert_eq!(
        cells.len(),
        pilot["cell_bounds"].as_array().unwrap().len() + 1,
        "{rb}"
    );
    assert!(
        rb["pilot"]["gradient_evaluations"].as_u64().unwrap() > 0,
        "{rb}"
    );
    // The independence proposals (up to 60 after every transition: a prior draw that breaks a
    // mass constraint is none) are densities without gradients, in the pilot (2 chains × 300
    // transitions) and in the run (2 × 60).
    let densities = |value: &serde_json::Value, transitions: u64| {
        let n = value.as_u64().unwrap();
        n > transitions * 30 && n <= transitions * 60
    };
    assert!(densities(&pilot["density_evaluations"], 600), "{rb}");
    assert!(
        densities(&result["meta_data"]["density_evaluations"], 120),
        "{}",
        result["meta_data"]
    );
    assert_eq!(rb["check_points"], 60, "{rb}");
    let max_error = rb["max_abs_error"].as_f64().unwrap();
    assert!(max_error < 0.01, "{rb}");
    let time_moves = &result["meta_data"]["chains"]["orbit_moves"];
    let total: u64 = time_moves
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert!(total > 0, "{time_moves}");
    let jumps = &result["meta_data"]["chains"]["independent_moves"];
    assert!(
        jumps
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_u64().unwrap() > 0),
        "{jumps}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A requested coordinate or jump that the prior does not allow is reported, on standard error
/// and in result.json, and the run goes on without it: with ψ over 2π, neither the circular
/// phases nor the inclination mirror apply, and the sky-ring reflection needs the former.
/// An injection on the prior's bounds (equal masses at mass_ratio's maximum, face-on at
/// theta_jn = 0, phase at 2π) runs: closed bounds, wrapped phases, finite gradients at q = 1.
#[test]
fn an_injection_on_the_prior_bounds_runs() {
    let dir = scratch("bounds");
    let config = config_with(
        &dir,
        &[
            ("mass_2 = 29.0", "mass_2 = 36.0"),
            ("theta_jn = 2.6", "theta_jn = 0.0"),
        ],
    );
    let outdir = dir.join("out");
    reduced_run(&outdir, "30", &[path_str(&config)]);
    let result = result_json(&outdir);
    assert_eq!(result["injection_parameters"]["mass_ratio"], 1.0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// H1, L1 and V1 (Virgo at its design curve, as a missing PSD): the sky frame of one pair
/// and the reflection through the three sites' plane, recorded in result.json and summary.md;
/// with K1 too the reflection does not apply, which is said, and the run still goes.
#[test]
fn networks_of_three_and_four_detectors_run() {
    let dir = scratch("networks");
    let default_detectors = r#"detectors = ["H1", "L1"]"#;
    for (detectors, reflection) in [
        (r#"detectors = ["H1", "L1", "V1"]"#, true),
        (r#"detectors = ["H1", "L1", "V1", "K1"]"#, false),
    ] {
        let config = config_with(&dir, &[(default_detectors, detectors)]);
        let outdir = dir.join("out");
        let stderr = reduced_run(&outdir, "20", &[path_str(&config)]);
        let result = result_json(&outdir);
        let meta = &result["meta_data"];
        let frame = meta["likelihood"]["reference_frame"].as_str().unwrap();
        let time = meta["likelihood"]["time_reference"].as_str().unwrap();
        assert!(
            frame.len() == 4 && frame.starts_with(time),
            "{frame} {time}"
        );
        let summary = std::fs::read_to_string(outdir.join("summary.md")).unwrap();
        assert!(
            summary.contains(&format!("reference_frame \"{frame}\"")),
            "{summary}"
        );
        let refused = "warning: sampler.sky_ring_reflection does not apply: the detectors' \
                       sites are not in one plane";
        assert_eq!(stderr.contains(refused), !reflection, "{stderr}");
        assert_eq!(meta["sky_reflection"].is_string(), reflection, "{meta}");
        assert_eq!(
            summary.contains("Sky reflection through the plane of the detectors' sites"),
            reflection,
            "{summary}"
        );
        assert_eq!(
            result["meta_data"]["likelihood"]["interferometers"]
                .as_object()
                .unwrap()
                .len(),
            if reflection { 3 } else { 4 }
        );
        std::fs::remove_dir_all(&outdir).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn coordinates_the_prior_does_not_allow_are_reported() {
    let dir = scratch("not-applied");
    let prior = dir.join("psi.prior");
    let psi = "psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')";
    assert!(
        default_prior().contains(psi),
        "the default prior's psi line changed"
    );
    let text = default_prior().replace(psi, &psi.replace("np.pi", "2 * np.pi"));
    std::fs::write(&prior, text).unwrap();
    let outdir = dir.join("out");
    let stderr = reduced_run(&outdir, "30", &["--prior-file", path_str(&prior)]);
    let refused = [
        "inclination_mirror",
        "circular_phases",
        "sky_ring_reflection",
    ];
    for option in refused {
        assert!(
            stderr.contains(&format!("warning: sampler.{option} does not apply: ")),
            "{stderr}"
        );
    }
    let result = result_json(&outdir);
    let mut written: Vec<&str> = result["meta_data"]["not_applied"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    written.sort_unstable();
    let mut refused = refused.to_vec();
    refused.sort_unstable();
    assert_eq!(written, refused);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_precessing_model_with_aligned_priors_is_refused_before_any_work() {
    let dir = scratch("precessing");
    let config = config_with(
        &dir,
        &[(
            "waveform_approximant = \"IMRPhenomT\"",
            "waveform_approximant = \"IMRPhenomTPHM\"",
        )],
    );
    fails_cleanly(
        &dir,
        &[path_str(&config)],
        "the priors are for aligned spins (chi_1, chi_2) but the waveform model's are precessing",
    );
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
    // A relative --prior-file is the shell's: relative to the current directory, not to the
    // config's folder.
    let config_dir = dir.join("configs");
    std::fs::create_dir_all(&config_dir).unwrap();
    let config = config_with(&config_dir, &[]);
    let out = Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .current_dir(&dir)
        .args(["run", "--no-progress", "--prior-file", "bad.prior"])
        .arg(&config)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.prior:1: missing closing ')'"),
        "{stderr}"
    );

    let prior_text = default_prior().replace(
        "chi_1 = Uniform(name='chi_1', minimum=-0.99",
        "chi_1 = Uniform(name='chi_1', minimum=-1.5",
    );
    std::fs::write(&prior, prior_text).unwrap();
    fails_cleanly(
        &dir,
        &["--prior-file", path_str(&prior)],
        "the prior on chi_1 allows [-1.5, 0.99], outside its range [-1, 1]",
    );

    fails_cleanly(
        &dir,
        &["--prior-file", path_str(&dir.join("nope.prior"))],
        "cannot read prior file",
    );
    // The cause once, not repeated by the error's source.
    let out = tdpe(&["run", "--prior-file", path_str(&dir.join("nope.prior"))]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("os error").count(), 1, "{stderr}");

    let file = dir.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let out = tdpe(&[
        "run",
        "--no-progress",
        "--outdir",
        path_str(&file.join("out")),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("a-file is not a directory"),
        "{stderr}"
    );

    let config = config_with(
        &dir,
        &[(
            "detectors = [\"H1\", \"L1\"]",
            "detectors = [\"H1\", \"X1\"]",
        )],
    );
    fails_cleanly(&dir, &[path_str(&config)], "X1");

    let psd = dir.join("nan_psd.txt");
    let rows: String = (0..300)
        .map(|k| {
            format!(
                "{} {}\n",
                10.0 + 5.0 * k as f64,
                if k == 57 { f64::NAN } else { 1e-46 }
            )
        })
        .collect();
    std::fs::write(&psd, format!("0 inf\n{rows}")).unwrap();
    let line = format!("H1 = \"{}\"", path_str(&psd));
    let config = config_with(&dir, &[("H1 = \"aLIGOZeroDetHighPower\"", &line)]);
    fails_cleanly(&dir, &[path_str(&config)], "nan_psd.txt:59");
    // A value no covariance can have: the failed factorisation names the detector and file.
    std::fs::write(&psd, format!("0 inf\n{}", rows.replace("NaN", "1e300"))).unwrap();
    fails_cleanly(
        &dir,
        &[path_str(&config)],
        "noise covariance of H1 from the PSD",
    );

    let config = config_with(
        &dir,
        &[("minimum_frequency = 20.0", "minimum_frequency = 600.0")],
    );
    fails_cleanly(
        &dir,
        &[path_str(&config)],
        "above the injected binary's ringdown",
    );

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
