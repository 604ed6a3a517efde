//! The run's outputs (`output::write_all`) on synthetic run results: every product is written,
//! atomically, in bilby's layout where it matters, and the plots survive degenerate data.
//!
//! The synthetic run's products stay in `$CARGO_TARGET_TMPDIR/output-synthetic` for
//! `tools/check_bilby_result.py` and for looking at the plots.

use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe::output;
use tdpe::run_result::{
    Column, DetectorInfo, NamedValue, ParamDiagnostics, PilotReport, PosteriorTable, PriorEntry,
    RelativeBinningReport, RunResult, SamplerSettings, TemperingReport, WaveformReconstruction,
};
use tdpe_mcmc::ChainSummary;
use tdpe_posterior::{NotApplied, SkyChoices};
use tdpe_signal::SpinModel;

const TRIGGER: f64 = 1126259462.4;

/// The parameters of the aligned-spin analysis, the order of [`TRUTH`] and [`WIDTH`].
fn names() -> Vec<&'static str> {
    SpinModel::Aligned.names()
}
/// Injected values; `psi` is fixed by a DeltaFunction prior.
const TRUTH: [f64; 11] = [
    28.1, 0.8, 0.3, -0.2, 1200.0, 2.6, 0.6, 1.3, TRIGGER, 1.95, -1.27,
];
/// Posterior widths of the synthetic Gaussian posterior.
const WIDTH: [f64; 11] = [0.6, 0.1, 0.15, 0.3, 250.0, 0.3, 0.0, 1.5, 0.002, 0.05, 0.05];

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn gaussian(rng: &mut Xoshiro256PlusPlus) -> f64 {
    StandardNormal.sample(rng)
}

/// A chirp-like whitened signal peaking at t = 0.
fn chirp(t: f64, amplitude: f64, shift: f64) -> f64 {
    let tau = shift - t;
    if tau > 0.0 {
        let f = 30.0 * (tau / 0.2 + 0.02).powf(-3.0 / 8.0);
        amplitude * (1.0 / (1.0 + tau * 8.0)) * (2.0 * std::f64::consts::PI * f * t).cos()
    } else {
        amplitude * (tau / 0.01).exp() * (2.0 * std::f64::consts::PI * 250.0 * t).cos()
    }
}

/// A posterior of `chains` × `draws` Gaussian draws around the injection (chirp mass and mass
/// ratio correlated), with diagnostics, chains, detectors and a waveform reconstruction.
fn synthetic(outdir: PathBuf, chains: usize, draws: usize) -> RunResult {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let n = chains * draws;
    let mut columns: Vec<Vec<f64>> = (0..11).map(|_| Vec::with_capacity(n)).collect();
    for _ in 0..n {
        let z0 = gaussian(&mut rng);
        for (k, column) in columns.iter_mut().enumerate() {
            let z = if k == 1 {
                0.8 * z0 + 0.6 * gaussian(&mut rng)
            } else if k == 0 {
                z0
            } else {
                gaussian(&mut rng)
            };
            let mut v = TRUTH[k] + 0.3 * WIDTH[k] + WIDTH[k] * z;
            if names()[k] == "phase" {
                v = v.rem_euclid(2.0 * std::f64::consts::PI);
            }
            column.push(v);
        }
    }
    let derived = |m: usize| -> Vec<f64> {
        (0..n)
            .map(|r| {
                let (mc, q) = (columns[0][r], columns[1][r]);
                let total = mc * (1.0 + q).powf(1.2) / q.powf(0.6);
                let m1 = total / (1.0 + q);
                let m2 = m1 * q;
                match m {
                    0 => m1,
                    1 => m2,
                    _ => (m1 * columns[2][r] + m2 * columns[3][r]) / (m1 + m2),
                }
            })
            .collect()
    };
    let derived: Vec<Vec<f64>> = (0..3).map(derived).collect();
    // The last chain sits 3 ms late: the chains disagree on geocent_time (R̂ 1.05 below).
    for t in &mut columns[8][(chains - 1) * draws..] {
        *t += 0.003;
    }
    let mut table: Vec<Column> = names()
        .iter()
        .zip(columns)
        .map(|(name, values)| Column {
            name: name.to_string(),
            values,
        })
        .collect();
    for (name, values) in ["mass_1", "mass_2", "chi_eff"].into_iter().zip(derived) {
        table.push(Column {
            name: name.into(),
            values,
        });
    }
    table.push(Column {
        name: "log_likelihood".into(),
        values: (0..n)
            .map(|_| 300.0 - 5.5 + 2.3 * gaussian(&mut rng))
            .collect(),
    });
    table.push(Column {
        name: "log_prior".into(),
        values: (0..n).map(|_| -20.0 + 0.1 * gaussian(&mut rng)).collect(),
    });
    let chain: Vec<usize> = (0..n).map(|r| r / draws).collect();
    let search: Vec<String> = names()
        .iter()
        .filter(|&&n| n != "psi")
        .map(|s| s.to_string())
        .collect();
    // Warm-up: each chain's first draws, pulled away from the posterior at first.
    let warm = draws.min(200);
    let warmup_rows: Vec<usize> = (0..n).filter(|r| r % draws < warm).collect();
    let warmup = PosteriorTable {
        columns: table
            .iter()
            .filter(|c| search.contains(&c.name))
            .map(|c| Column {
                name: c.name.clone(),
                values: warmup_rows
                    .iter()
                    .map(|&r| {
                        let pull = 1.0 + 0.5 * (-((r % draws) as f64) / 40.0).exp();
                        c.values[r] * pull
                    })
                    .collect(),
            })
            .collect(),
        divergent: warmup_rows.iter().map(|r| r % draws < 3).collect(),
        chain: warmup_rows.iter().map(|r| r / draws).collect(),
    };
    let mut injection: Vec<NamedValue> = names()
        .iter()
        .zip(TRUTH)
        .map(|(n, v)| NamedValue {
            name: n.to_string(),
            value: v,
        })
        .collect();
    injection.push(NamedValue {
        name: "mass_1".into(),
        value: 35.8,
    });
    injection.push(NamedValue {
        name: "mass_2".into(),
        value: 28.6,
    });
    let priors = vec![
        PriorEntry { name: "chirp_mass".into(), repr: "Uniform(minimum=20.0, maximum=40.0, name='chirp_mass', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "mass_ratio".into(), repr: "Uniform(minimum=0.125, maximum=1.0, name='mass_ratio', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "luminosity_distance".into(), repr: "PowerLaw(alpha=2.0, minimum=100.0, maximum=5000.0, name='luminosity_distance', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "theta_jn".into(), repr: "Sine(minimum=0.0, maximum=3.141592653589793, name='theta_jn', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "psi".into(), repr: "DeltaFunction(peak=0.6, name='psi', latex_label=None, unit=None)".into(), fixed: true },
        PriorEntry { name: "phase".into(), repr: "Uniform(minimum=0.0, maximum=6.283185307179586, name='phase', latex_label=None, unit=None, boundary='periodic')".into(), fixed: false },
        PriorEntry { name: "dec".into(), repr: "Cosine(minimum=-1.5707963267948966, maximum=1.5707963267948966, name='dec', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "geocent_time".into(), repr: "Uniform(minimum=1126259462.3, maximum=1126259462.5, name='geocent_time', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "chi_1".into(), repr: "TruncatedGaussian(mu=0.0, sigma=0.5, minimum=-0.99, maximum=0.99, name='chi_1', latex_label=None, unit=None, boundary=None)".into(), fixed: false },
        PriorEntry { name: "mass_1".into(), repr: "Constraint(minimum=5.0, maximum=100.0, name='mass_1', latex_label=None, unit=None)".into(), fixed: false },
    ];
    let mut diagnostics: Vec<(String, ParamDiagnostics)> = search
        .iter()
        .chain(&[
            "mass_1".to_string(),
            "mass_2".to_string(),
            "chi_eff".to_string(),
        ])
        .enumerate()
        .map(|(k, name)| {
            (
                name.clone(),
                ParamDiagnostics {
                    rhat: 1.001 + 0.0005 * k as f64,
                    ess_bulk: 1500.0 + 10.0 * k as f64,
                    ess_tail: 1300.0,
                },
            )
        })
        .collect();
    diagnostics[7].1.rhat = 1.05; // one parameter whose chains disagree
    let chain_summaries = (0..chains)
        .map(|c| ChainSummary {
            chain: c,
            num_draws: draws,
            mean_accept_stat: 0.82 + 0.01 * c as f64,
            divergences: c % 2,
            mirrored: 40 * c,
            orbit_moves: 7 * c,
            independent_moves: 3 * c,
            mean_tree_depth: 3.4,
            max_tree_depth: 5,
            mean_steps: 11.0,
            warmup_grad_evals: 12_000,
            grad_evals: 11 * draws as u64,
            density_evals: 0,
            step_size: 0.21,
            e_bfmi: 0.95,
        })
        .collect();
    let fs = 1024.0;
    let times: Vec<f64> = (0..(4.0 * fs) as usize)
        .map(|k| -3.0 + k as f64 / fs)
        .collect();
    let reconstruction = ["H1", "L1"]
        .iter()
        .map(|&ifo| {
            let injection: Vec<f64> = times.iter().map(|&t| chirp(t, 4.0, 0.0)).collect();
            let whitened_data = injection.iter().map(|h| h + gaussian(&mut rng)).collect();
            let whitened_waveforms = (0..50)
                .map(|_| {
                    let (a, dt) = (
                        4.0 * (1.0 + 0.1 * gaussian(&mut rng)),
                        0.0005 * gaussian(&mut rng),
                    );
                    times.iter().map(|&t| chirp(t, a, dt)).collect()
                })
                .collect();
            WaveformReconstruction {
                detector: ifo.into(),
                pass_band: (20.0, 350.0),
                times: times.clone(),
                whitened_data,
                whitened_waveforms,
                whitened_injection: Some(injection),
            }
        })
        .collect();
    RunResult {
        label: "synthetic".into(),
        outdir,
        sampler: "tdpe-nuts".into(),
        parameter_names: names().iter().map(|s| s.to_string()).collect(),
        search_parameter_keys: search,
        posterior: PosteriorTable {
            columns: table,
            divergent: (0..chain.len()).map(|i| i % 97 == 5).collect(),
            chain,
        },
        warmup,
        injection_parameters: Some(injection.clone()),
        fiducial_parameters: injection,
        fiducial_log_likelihood: 301.2,
        priors,
        sampler_kwargs: SamplerSettings {
            kernel: "nuts".into(),
            num_chains: chains,
            num_warmup: 1000,
            num_draws: draws,
            target_ess: 1000.0,
            max_draws: Some(4 * draws),
            seed: 1234,
            threads: 0,
            target_accept: 0.8,
            relative_binning_target: 0.01,
            num_temperatures: 1,
            beta_min: 0.01,
            distance_marginalization: true,
            phase_marginalization: false,
        },
        not_applied: vec![NotApplied {
            option: "sky_ring_reflection",
            reason: "the detectors' sites are not in one plane",
        }],
        sky_choices: SkyChoices {
            reference_frame: "H1L1".into(),
            time_reference: "H1".into(),
            sky_reflection: None,
        },
        tempering: None,
        relative_binning: RelativeBinningReport {
            target: 1e-7,
            refinement_errors: vec![8e-8, 2e-7],
            pilot: Some(PilotReport {
                fisher_nodes: vec![150, 150],
                gradient_evaluations: 98_765,
                density_evaluations: 54_321,
                design_draws: 300,
                cell_nodes: vec![vec![120, 131], vec![98, 102]],
                cell_bounds: vec![151.5],
                held_out_spread: 2.1e-4,
                held_out_draws: 100,
                time_steps: 24,
                independence_proposals: 60,
                max_tree_depth: 6,
            }),
            check_points: 100,
            max_abs_error: 3.2e-4,
            median_abs_error: 4.1e-5,
            spread: 6.3e-5,
        },
        log_noise_evidence: -4123.5,
        log_noise_evidence_normalised: 799_597.25,
        data_sources: Vec::new(),
        detectors: vec![
            DetectorInfo {
                name: "H1".into(),
                optimal_snr: 20.1,
                matched_filter_snr: 19.7,
                minimum_frequency: 20.0,
                maximum_frequency: 1024.0,
                psd: "aLIGO design".into(),
                relative_binning_nodes: 64,
            },
            DetectorInfo {
                name: "L1".into(),
                optimal_snr: 16.3,
                matched_filter_snr: 16.9,
                minimum_frequency: 20.0,
                maximum_frequency: 1024.0,
                psd: "aLIGO design".into(),
                relative_binning_nodes: 61,
            },
        ],
        trigger_time: TRIGGER,
        start_time: TRIGGER - 3.0,
        duration: 4.0,
        sampling_frequency: 2048.0,
        minimum_frequency: 20.0,
        maximum_frequency: 1024.0,
        reference_frequency: 20.0,
        approximant: "IMRPhenomT".into(),
        modes: "(2,±2)".into(),
        mode_array: vec![[2, 2], [2, -2]],
        injection_model: None,
        setup_time_s: 2.9,
        sampling_time_s: 41.7,
        total_time_s: 45.2,
        gradient_evaluations: 123_456,
        density_evaluations: 0,
        diagnostics,
        chains: chain_summaries,
        interrupted: false,
        reconstruction,
        spectra: Vec::new(),
        config_toml: "[sampler]\nkernel = \"nuts\"\n".into(),
        version: "0.1.0".into(),
    }
}

/// The document with Python's non-finite literals replaced by `null`, parsed strictly.
fn read_json(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    let strict = text
        .replace("-Infinity", "null")
        .replace("Infinity", "null")
        .replace("NaN", "null");
    serde_json::from_str(&strict).unwrap()
}

/// Width and height from a PNG's IHDR chunk, after checking the signature.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        path.display()
    );
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn writes_every_product_of_a_synthetic_run() {
    let dir = scratch("output-synthetic").join("nested"); // created by the writer
    let result = synthetic(dir.clone(), 4, 500);
    output::write_all(&result).unwrap();
    let mut expected: Vec<String> = output::PRODUCTS.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(file_names(&dir), expected, "no temporary file may remain");
    for png in ["corner.png", "trace.png", "waveform.png"] {
        let (w, h) = png_size(&dir.join(png));
        assert!(w >= 400 && h >= 300, "{png}: {w}×{h}");
        assert!(
            std::fs::metadata(dir.join(png)).unwrap().len() > 10_000,
            "{png} looks empty"
        );
    }
    // 10 sampled parameters at 250 px each.
    let (w, h) = png_size(&dir.join("corner.png"));
    assert!(w > 2500 && w == h, "{w}×{h}");
    // Writing again replaces the products in place.
    output::write_all(&result).unwrap();
    assert_eq!(file_names(&dir), expected);
}

/// An output directory that cannot hold the products is an error before anything is written,
/// and a failed write never leaves one run's results beside another's.
#[test]
fn unusable_outdirs_are_errors_and_runs_do_not_mix() {
    let dir = scratch("output-unusable");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("file");
    std::fs::write(&file, b"").unwrap();
    let dangling = dir.join("dangling");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("missing"), &dangling).unwrap();
    for bad in [&file, &dangling] {
        let message = format!("{:#}", output::check_outdir(bad).unwrap_err());
        assert!(
            message.contains("cannot write into output directory"),
            "{message}"
        );
    }
    let outdir = dir.join("run");
    let earlier = synthetic(outdir.clone(), 2, 50);
    output::write_all(&earlier).unwrap();
    let before = std::fs::read(outdir.join("result.json")).unwrap();
    std::fs::remove_file(outdir.join("trace.png")).unwrap();
    std::fs::create_dir(outdir.join("trace.png")).unwrap();
    let later = synthetic(outdir.clone(), 4, 60);
    let message = format!("{:#}", output::write_all(&later).unwrap_err());
    assert!(
        message.contains("trace.png: it is a directory"),
        "{message}"
    );
    assert_eq!(std::fs::read(outdir.join("result.json")).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tempered run fills bilby's evidence keys from thermodynamic integration and reports the
/// ladder in meta_data and summary.md.
#[test]
fn tempered_run_reports_evidence_and_swaps() {
    let dir = scratch("output-tempered");
    let mut result = synthetic(dir.clone(), 2, 50);
    result.sampler_kwargs.num_temperatures = 3;
    result.tempering = Some(TemperingReport {
        ladders: vec![vec![1.0, 0.3, 0.01]; 2],
        swap_acceptance: vec![0.41, 0.37],
        round_trips: vec![12, 9],
        ln_bayes_factor: Some((250.25, 0.5)),
    });
    output::write_all(&result).unwrap();
    let doc = read_json(&dir.join("result.json"));
    assert_eq!(doc["log_bayes_factor"], 250.25);
    assert_eq!(doc["log_evidence"], 250.25 - 4123.5);
    assert_eq!(doc["log_evidence_err"], 0.5);
    assert_eq!(doc["meta_data"]["tempering"]["round_trips"][1], 9);
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("## Parallel tempering"), "{summary}");
    assert!(summary.contains("0.41, 0.37"), "{summary}");
    assert!(summary.contains("250.25 ± 0.50"), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn result_json_has_bilby_keys_and_round_trips() {
    let dir = scratch("output-json");
    let result = synthetic(dir.clone(), 2, 50);
    output::write_all(&result).unwrap();
    let text = std::fs::read_to_string(dir.join("result.json")).unwrap();
    assert!(
        text.contains("\"log_evidence\": NaN"),
        "bilby writes NaN evidences as NaN"
    );
    let doc = read_json(&dir.join("result.json"));
    for key in [
        "label",
        "outdir",
        "sampler",
        "log_evidence",
        "log_evidence_err",
        "log_noise_evidence",
        "log_bayes_factor",
        "priors",
        "posterior",
        "injection_parameters",
        "meta_data",
        "search_parameter_keys",
        "fixed_parameter_keys",
        "constraint_parameter_keys",
        "sampling_time",
        "sampler_kwargs",
        "parameter_labels",
        "parameter_labels_with_unit",
        "version",
    ] {
        assert!(doc.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(doc["label"], "synthetic");
    assert_eq!(doc["sampler"], "tdpe-nuts");
    assert_eq!(doc["log_noise_evidence"], -4123.5);
    assert_eq!(doc["posterior"]["__dataframe__"], true);
    let content = doc["posterior"]["content"].as_object().unwrap();
    let mut names: Vec<&str> = content.keys().map(String::as_str).collect();
    let mut expected: Vec<&str> = result
        .posterior
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    names.sort();
    expected.sort();
    assert_eq!(
        names, expected,
        "every column, log_likelihood and log_prior included"
    );
    for column in &result.posterior.columns {
        // serde_json's float parser is not correctly rounded (Python's is; exactness is checked
        // in `output::json`'s unit tests), hence the tolerance of one part in 1e15.
        let values = content[&column.name].as_array().unwrap();
        assert_eq!(values.len(), column.values.len());
        for (v, &expected) in values.iter().zip(&column.values) {
            let v = v.as_f64().unwrap();
            assert!(
                (v - expected).abs() <= 1e-15 * expected.abs(),
                "{}: {v} vs {expected}",
                column.name
            );
        }
    }
    assert_eq!(doc["priors"]["__prior_dict__"], true);
    assert_eq!(doc["priors"]["phase"], result.priors[5].repr);
    assert_eq!(doc["fixed_parameter_keys"], serde_json::json!(["psi"]));
    assert_eq!(
        doc["constraint_parameter_keys"],
        serde_json::json!(["mass_1"])
    );
    assert_eq!(doc["injection_parameters"]["geocent_time"], TRIGGER);
    assert_eq!(doc["sampling_time"]["__total_seconds__"], 41.7);
    assert_eq!(doc["sampler_kwargs"]["num_chains"], 2);
    let meta = &doc["meta_data"];
    assert_eq!(
        meta["likelihood"]["interferometers"]["H1"]["optimal_SNR"],
        20.1
    );
    assert_eq!(
        meta["likelihood"]["interferometers"]["L1"]["optimal_SNR"],
        16.3
    );
    assert_eq!(meta["sampling_time"], 41.7);
    assert_eq!(meta["versions"]["tdpe"], "0.1.0");
    for (stat, pick) in [("rhat", 0), ("ess_bulk", 1), ("ess_tail", 2)] {
        let map = meta["diagnostics"][stat].as_object().unwrap();
        assert_eq!(map.len(), result.diagnostics.len());
        for (name, d) in &result.diagnostics {
            assert_eq!(
                map[name].as_f64().unwrap(),
                [d.rhat, d.ess_bulk, d.ess_tail][pick]
            );
        }
    }
    // One list per statistic, in chain order (bilby's HDF5 writer stores no lists of objects).
    assert_eq!(meta["chains"]["chain"], serde_json::json!([0, 1]));
    assert_eq!(meta["chains"]["num_draws"].as_array().unwrap().len(), 2);
    let rb = &meta["likelihood"]["relative_binning"];
    assert_eq!(rb["check_points"], 100, "{rb}");
    assert_eq!(rb["pilot"]["design_draws"], 300, "{rb}");
    assert_eq!(
        rb["pilot"]["cell_bounds"],
        serde_json::json!([151.5]),
        "{rb}"
    );
    assert_eq!(
        meta["chains"]["independent_moves"],
        serde_json::json!([0, 3])
    );
    assert!(
        meta["not_applied"]["sky_ring_reflection"].is_string(),
        "{}",
        meta["not_applied"]
    );
    assert_eq!(meta["likelihood"]["reference_frame"], "H1L1");
    assert_eq!(meta["likelihood"]["time_reference"], "H1");
    assert_eq!(
        meta["likelihood"]["waveform_arguments"]["mode_array"],
        serde_json::json!([[2, 2], [2, -2]])
    );
    assert!(meta["sky_reflection"].is_null());
    assert_eq!(doc["priors"]["__name__"], "BBHPriorDict");
    assert_eq!(doc["log_noise_evidence"], -4123.5);
    assert_eq!(meta["log_noise_evidence_normalised"], 799_597.25);
    assert_eq!(meta["versions"]["tdpe"], "0.1.0");
    assert_eq!(
        meta["likelihood"]["frequency_domain_source_model"]["__name__"],
        "lal_binary_black_hole"
    );
    assert_eq!(doc["parameter_labels"][0], r"$\mathcal{M}$");
    assert_eq!(doc["version"], "bilby=2.8.2");
}

#[test]
fn samples_csv_holds_every_draw() {
    let dir = scratch("output-csv");
    let result = synthetic(dir.clone(), 3, 20);
    output::write_all(&result).unwrap();
    let text = std::fs::read_to_string(dir.join("samples.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), result.posterior.columns.len() + 1);
    assert_eq!(header[..3], ["chirp_mass", "mass_ratio", "chi_1"]);
    assert_eq!(
        header[header.len() - 3..],
        ["log_likelihood", "log_prior", "chain"]
    );
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 60);
    for (r, row) in rows.iter().enumerate() {
        for (c, column) in result.posterior.columns.iter().enumerate() {
            assert_eq!(row[c], column.values[r]);
        }
        assert_eq!(row[header.len() - 1], (r / 20) as f64);
    }
}

#[test]
fn summary_reports_intervals_diagnostics_and_cost() {
    let dir = scratch("output-summary");
    let result = synthetic(dir.clone(), 4, 250);
    output::write_all(&result).unwrap();
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    for needle in [
        "| parameter | median | 90 % interval | injected | in 90 % | R̂ | ESS bulk | ESS tail |",
        "| psi | 0.600000 | fixed |",
        "chains disagree",
        "phase",
        "| H1 | 20.10 | 19.70 | 20–1024 | 64 | aLIGO design |",
        "| 0 | 250 | 0.820 | 0 | 0 | 0 | 0 | 0.210 | 3.40 | 5 | 12000 + 2750 | 0.95 |",
        "| 1 | 250 | 0.830 | 1 | 40 | 7 | 3 | 0.210 |",
        "Network optimal SNR: 25.88",
        "123456",
        "41.70 s",
        "divergent transitions",
        "refined on 300 draws of a pilot run (98765 gradient and 54321 density evaluations) on \
         relative binning \
         capped at 150/150 nodes, in 2 cells of the (2,2) peak frequency (nodes 120/131, 98/102; \
         bounds 151.5 Hz), with a spread of ln L_RB − ln L_exact of 2.1e-4 at 100 held-out draws. \
         The likelihood was summed over 24 whole-sample time steps, and every transition was \
         followed by 60 independence proposals",
        "stopped at its cap with errors 8.0e-8, 2.0e-7 on its design set, above the target 1e-7",
        "at 100 posterior draws: |Δ ln L| ≤ 3.2e-4 (median 4.1e-5), standard deviation of \
         Δ ln L 6.3e-5",
        "zenith and azimuth about the H1–L1 baseline and the arrival time at H1 (bilby's \
         reference_frame \"H1L1\", time_reference \"H1\"",
        "No sky reflection.",
        "Not applied: sampler.sky_ring_reflection (the detectors' sites are not in one plane).",
    ] {
        assert!(md.contains(needle), "summary.md lacks {needle:?}:\n{md}");
    }
}

/// A relative binning far from the exact likelihood at the posterior draws is a warning.
#[test]
fn inaccurate_relative_binning_is_a_warning() {
    let dir = scratch("output-inaccurate");
    let mut result = synthetic(dir.clone(), 2, 50);
    let summary = |result: &RunResult| {
        output::write_all(result).unwrap();
        std::fs::read_to_string(dir.join("summary.md")).unwrap()
    };
    let warning = "**Warning: relative binning is inaccurate here**: |Δ ln L| up to 0.050";
    assert!(!summary(&result).contains("relative binning is inaccurate"));
    result.relative_binning.max_abs_error = 0.05;
    assert!(summary(&result).contains(warning), "{}", summary(&result));
}

#[test]
fn degenerate_data_still_plots() {
    // One chain of one draw, a constant sampled parameter, NaN in another, no injection, no
    // reconstruction.
    let dir = scratch("output-degenerate");
    let mut result = synthetic(dir.clone(), 1, 1);
    result.injection_parameters = None;
    result.reconstruction.clear();
    result.posterior.columns[10].values.fill(-1.27);
    result.posterior.columns[9].values[0] = f64::NAN;
    output::write_all(&result).unwrap();
    for png in ["corner.png", "trace.png", "waveform.png"] {
        let (w, h) = png_size(&dir.join(png));
        assert!(w > 0 && h > 0);
    }
    // And with no draws and no sampled parameters at all.
    let dir = scratch("output-empty");
    let mut result = synthetic(dir.clone(), 2, 5);
    result.search_parameter_keys.clear();
    for column in &mut result.posterior.columns {
        column.values.clear();
    }
    result.posterior.chain.clear();
    result.diagnostics.clear();
    output::write_all(&result).unwrap();
    assert_eq!(file_names(&dir).len(), output::PRODUCTS.len());
}

#[test]
fn a_parameter_with_zero_spread_gets_a_finite_axis() {
    let dir = scratch("output-constant");
    let mut result = synthetic(dir.clone(), 2, 100);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    result.posterior.columns[0].values.fill(28.1);
    let _: f64 = rng.random();
    output::write_all(&result).unwrap();
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        md.contains("| chirp_mass | 28.1000 | [28.1000, 28.1000] |"),
        "{md}"
    );
}
