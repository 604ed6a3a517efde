//! A campaign end to end: injections drawn from a prior, one run per injection side by side,
//! the PP test of their results; each run the same as `tdpe run` of its injection alone; a
//! campaign started again runs only what is missing; bad injections stop it before any run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn tdpe(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the tdpe binary runs")
}

/// `tdpe campaign` of the short config on `injection_file` into `camp`, two runs at a time.
fn campaign(dir: &Path, injection_file: &str) -> Output {
    tdpe(
        &[
            "campaign",
            "short.toml",
            "--injection-file",
            injection_file,
            "--outdir",
            "camp",
            "--jobs",
            "2",
        ],
        dir,
    )
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch folder with a short-run config whose prior keeps the binaries near (100–400 Mpc,
/// so loud: no pilot), two chains of 40 + 40 transitions.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tdpe-campaign-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let prior = include_str!("../../posterior/prior_files/gw150914_like.prior")
        .replace("minimum=100, maximum=5000", "minimum=100, maximum=400");
    std::fs::write(dir.join("near.prior"), prior).unwrap();
    let config = text(&tdpe(&["config"], &dir).stdout)
        .replace("prior_file = \"default\"", "prior_file = \"near.prior\"")
        .replace("num_chains = 4", "num_chains = 2")
        .replace("num_warmup = 700", "num_warmup = 40")
        .replace("num_draws = 1500", "num_draws = 40")
        .replace("target_ess = 1000", "target_ess = 0");
    assert!(config.contains("near.prior") && config.contains("num_draws = 40"));
    std::fs::write(dir.join("short.toml"), config).unwrap();
    dir
}

/// A result file as serde reads it: bilby's `NaN` (log_evidence without tempering) as null.
fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace(": NaN", ": null");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_campaign_runs_every_injection_and_tests_them() {
    let dir = scratch("runs");
    let out = tdpe(
        &[
            "injections",
            "short.toml",
            "-n",
            "3",
            "-s",
            "5",
            "-f",
            "inj.dat",
        ],
        &dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dat = std::fs::read_to_string(dir.join("inj.dat")).unwrap();
    let lines: Vec<&str> = dat.lines().collect();
    assert_eq!(lines.len(), 4, "{dat}");
    assert!(lines[0].starts_with("chirp_mass mass_ratio chi_1 chi_2 luminosity_distance"));

    let out = campaign(&dir, "inj.dat");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("3 done, 0 failed, 0 running, 0 waiting"),
        "{stderr}"
    );
    let camp = dir.join("camp");
    let pp = json(&camp.join("pp.json"));
    assert_eq!(pp["runs"].as_array().unwrap().len(), 3);
    assert_eq!(pp["parameters"].as_array().unwrap().len(), 11);
    let p = pp["combined_pvalue"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p), "{p}");
    assert!(std::fs::metadata(camp.join("pp.png")).unwrap().len() > 10_000);
    assert!(std::fs::read_to_string(camp.join("pp.md"))
        .unwrap()
        .contains("| chirp_mass |"));

    // Each run holds its own injection and noise seed, and its credible levels are those of
    // its posterior.
    for (i, line) in lines[1..].iter().enumerate() {
        let run = camp.join(format!("injection_000{i}"));
        let result = json(&run.join("result.json"));
        let chirp_mass: f64 = line.split(' ').next().unwrap().parse().unwrap();
        let injected = result["injection_parameters"]["chirp_mass"]
            .as_f64()
            .unwrap();
        assert!(
            (injected / chirp_mass - 1.0).abs() < 1e-12,
            "{injected} {chirp_mass}"
        );
        let config = result["meta_data"]["config"].as_str().unwrap();
        assert!(
            config.contains(&format!("noise_seed = {}", 150914 + i)),
            "{config}"
        );
        let draws = result["posterior"]["content"]["chirp_mass"]
            .as_array()
            .unwrap();
        let below = draws
            .iter()
            .filter(|d| d.as_f64().unwrap() < injected)
            .count();
        let level = pp["runs"][i]["credible_levels"]["chirp_mass"]
            .as_f64()
            .unwrap();
        assert_eq!(level, below as f64 / draws.len() as f64);
    }

    // A campaign's run is `tdpe run` of its injection, on any number of threads.
    let out = tdpe(
        &[
            "run",
            "short.toml",
            "--injection-file",
            "inj.dat",
            "--injection-number",
            "1",
        ],
        &dir,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let alone = std::fs::read(dir.join("tdpe-out/samples.csv")).unwrap();
    let in_campaign = std::fs::read(camp.join("injection_0001/samples.csv")).unwrap();
    assert!(alone == in_campaign, "the run alone drew other samples");

    // Started again, only the missing run runs, and it draws the same.
    let before = std::fs::read(camp.join("injection_0002/samples.csv")).unwrap();
    std::fs::remove_file(camp.join("injection_0002/result.json")).unwrap();
    let out = campaign(&dir, "inj.dat");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("3 injections, 2 finished before"),
        "{stderr}"
    );
    assert!(stderr.contains("injection_0002 finished"), "{stderr}");
    assert!(!stderr.contains("injection_0000 finished"), "{stderr}");
    assert!(std::fs::read(camp.join("injection_0002/samples.csv")).unwrap() == before);

    // The folder belongs to these injections.
    std::fs::write(
        dir.join("other.dat"),
        format!("{}\n{}\n", lines[0], lines[1]),
    )
    .unwrap();
    let out = campaign(&dir, "other.dat");
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("holds another campaign's injections.json"),
        "{}",
        text(&out.stderr)
    );

    // A folder without a result is a failed run in the PP test's report.
    std::fs::create_dir_all(camp.join("injection_0003")).unwrap();
    let out = tdpe(&["pp", "camp"], &dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("3 runs (1 failed"),
        "{}",
        text(&out.stdout)
    );
    assert!(std::fs::read_to_string(camp.join("pp.md"))
        .unwrap()
        .contains("- injection_0003: no result.json"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Injections outside the prior, unknown columns or a malformed file stop a campaign before
/// anything runs or is created.
#[test]
fn bad_injections_stop_a_campaign_before_any_run() {
    let dir = scratch("bad");
    let header = "chirp_mass mass_ratio chi_1 chi_2 luminosity_distance theta_jn psi phase \
                  geocent_time ra dec";
    let good = "30 0.8 0.1 0.2 300 1 1 1 1126259462.41 1 0.5";
    let far = "30 0.8 0.1 0.2 3000 1 1 1 1126259462.41 1 0.5";
    std::fs::write(dir.join("bad.dat"), format!("{header}\n{good}\n{far}\n")).unwrap();
    let out = campaign(&dir, "bad.dat");
    let stderr = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("1 of 2 injections cannot be run, nothing was started"),
        "{stderr}"
    );
    assert!(
        stderr.contains("injection 1: injection: luminosity_distance = 3000"),
        "{stderr}"
    );
    assert!(!dir.join("camp").exists());

    std::fs::write(dir.join("spins.dat"), format!("{header} a_1\n{good} 0.5\n")).unwrap();
    let out = campaign(&dir, "spins.dat");
    assert!(text(&out.stderr).contains("a_1"), "{}", text(&out.stderr));
    assert!(!dir.join("camp").exists());

    let out = tdpe(
        &[
            "run",
            "short.toml",
            "--injection-file",
            "bad.dat",
            "--injection-number",
            "2",
        ],
        &dir,
    );
    assert!(
        text(&out.stderr).contains("no injection 2 (the file holds 2)"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// bilby_pipe's precessing prior resolves and its draws make an injection file of bilby's
/// fifteen parameters, but with an aligned-spin waveform every command that would need its
/// likelihood stops at once with one line.
#[test]
fn precessing_priors_with_an_aligned_model_stop_every_command_with_one_line() {
    let dir = scratch("precessing");
    let prior = include_str!("../../posterior/tests/data/bilby_pipe_4s.prior");
    std::fs::write(dir.join("precessing.prior"), prior).unwrap();
    let config = std::fs::read_to_string(dir.join("short.toml"))
        .unwrap()
        .replace(
            "prior_file = \"near.prior\"",
            "prior_file = \"precessing.prior\"",
        );
    std::fs::write(dir.join("precessing.toml"), &config).unwrap();
    let expected = "the priors are for precessing spins (a_1, a_2, tilt_1, tilt_2, phi_12, \
                    phi_jl) but the waveform model's are aligned: IMRPhenomTPHM takes precessing \
                    spins";
    std::fs::write(dir.join("points.csv"), "chirp_mass\n30\n").unwrap();
    for args in [
        &["run", "precessing.toml", "--outdir", "out"][..],
        &["injections", "precessing.toml", "-n", "2", "-f", "inj.json"],
        &[
            "likelihood",
            "precessing.toml",
            "--points",
            "points.csv",
            "--output",
            "-",
        ],
    ] {
        let out = tdpe(args, &dir);
        let stderr = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    assert!(!dir.join("out").exists() && !dir.join("inj.json").exists());

    let config = tdpe::config::Config::load(Some(&dir.join("precessing.toml"))).unwrap();
    let table = tdpe::commands::injections::draw(&config, 50, 3).unwrap();
    let names: Vec<&str> = table.columns.iter().map(String::as_str).collect();
    assert_eq!(names, tdpe_signal::SpinModel::Precessing.names());
    let tilt = names.iter().position(|n| *n == "tilt_1").unwrap();
    assert!(table
        .rows
        .iter()
        .all(|row| (0.0..=std::f64::consts::PI).contains(&row[tilt])));
}
