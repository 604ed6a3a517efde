//! `tdpe waveform` end to end: the binary against LALSuite's IMRPhenomT, IMRPhenomTHM and
//! IMRPhenomTPHM reference output, and its handling of bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The T02 reference case of crates/phenomt/tests/data (LALSuite's
/// `SimInspiralChooseTDWaveform(IMRPhenomT)`), as command-line arguments.
const T02: [&str; 20] = [
    "--approximant",
    "IMRPhenomT",
    "--mass-1",
    "36",
    "--mass-2",
    "29",
    "--chi-1",
    "0.3",
    "--chi-2",
    "-0.2",
    "--luminosity-distance",
    "410",
    "--inclination",
    "0.4",
    "--phase",
    "0.3",
    "--sampling-frequency",
    "4096",
    "--minimum-frequency",
    "20",
];

fn tdpe_waveform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tdpe"))
        .arg("waveform")
        .args(args)
        .output()
        .expect("the tdpe binary runs")
}

/// An empty directory for one test's output.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The columns of a CSV with the header `t,hp,hc`.
fn parse_csv(text: &str) -> [Vec<f64>; 3] {
    let (header, columns) = parse_table(text);
    assert_eq!(header, "t,hp,hc");
    columns.try_into().unwrap()
}

/// The header and the columns of a CSV.
fn parse_table(text: &str) -> (String, Vec<Vec<f64>>) {
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_string();
    let mut cols = vec![Vec::new(); header.split(',').count()];
    for line in lines {
        let values: Vec<f64> = line.split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), cols.len(), "{line}");
        for (c, v) in cols.iter_mut().zip(values) {
            c.push(v);
        }
    }
    (header, cols)
}

/// The THM02 reference case (LALSuite's IMRPhenomTHM, every mode) as command-line arguments.
const THM02: [&str; 20] = [
    "--approximant",
    "IMRPhenomTHM",
    "--mass-1",
    "80",
    "--mass-2",
    "10",
    "--chi-1",
    "0.5",
    "--chi-2",
    "-0.4",
    "--luminosity-distance",
    "800",
    "--inclination",
    "2.2",
    "--phase",
    "1.3",
    "--sampling-frequency",
    "4096",
    "--minimum-frequency",
    "20",
];

/// The columns of a reference file of crates/phenomt/tests/data.
fn reference(name: &str) -> (String, Vec<Vec<f64>>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../phenomt/tests/data")
        .join(name);
    parse_table(&std::fs::read_to_string(path).unwrap())
}

/// Each column after the time within `tolerance` of the reference's largest value.
fn assert_columns_close(ours: &[Vec<f64>], theirs: &[Vec<f64>], tolerance: f64) {
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours[0].iter().zip(&theirs[0]) {
        assert!((a - b).abs() <= 1e-12, "t = {a} vs {b}");
    }
    for (column, reference) in ours[1..].iter().zip(&theirs[1..]) {
        assert_eq!(column.len(), reference.len());
        let peak = reference.iter().fold(0.0_f64, |m, h| m.max(h.abs()));
        for (a, b) in column.iter().zip(reference) {
            assert!((a - b).abs() <= tolerance * peak, "{a} vs {b}");
        }
    }
}

#[test]
fn writes_lals_higher_mode_waveform_and_its_modes() {
    let mut args = THM02.to_vec();
    args.extend(["--output", "-"]);
    let out = tdpe_waveform(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (header, ours) = parse_table(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(header, "t,hp,hc");
    assert_columns_close(&ours, &reference("THM02_q8_M90.csv").1, 1e-10);

    args.push("--modes");
    let out = tdpe_waveform(&args);
    assert!(out.status.success());
    let (header, ours) = parse_table(&String::from_utf8(out.stdout).unwrap());
    let (reference_header, theirs) = reference("THM02_q8_M90_modes.csv");
    assert_eq!(header, reference_header);
    assert_columns_close(&ours, &theirs, 1e-10);

    // A mode array picks modes (in LAL's order whatever the list's), in bilby's syntax.
    args.extend(["--mode-array", "[[3,3],[2,2],[3,-3],[2,-2]]"]);
    let out = tdpe_waveform(&args);
    assert!(out.status.success());
    let (header, ours) = parse_table(&String::from_utf8(out.stdout).unwrap());
    assert_eq!(header, "t,h22_re,h22_im,h33_re,h33_im");
    let picked: Vec<Vec<f64>> = [0, 1, 2, 5, 6].map(|k| theirs[k].clone()).to_vec();
    assert_columns_close(&ours, &picked, 1e-10);
}

#[test]
fn writes_the_lal_reference_waveform() {
    let dir = scratch_dir("waveform_t02");
    let path = dir.join("wf.csv");
    let mut args = T02.to_vec();
    args.extend(["--output", path.to_str().unwrap()]);
    let out = tdpe_waveform(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let text = std::fs::read_to_string(&path).unwrap();
    let [t, hp, hc] = parse_csv(&text);
    let reference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../phenomt/tests/data/T02_gw150914_like.csv");
    let [t_ref, hp_ref, hc_ref] = parse_csv(&std::fs::read_to_string(reference).unwrap());
    assert_eq!(t.len(), t_ref.len());
    for (a, b) in t.iter().zip(&t_ref) {
        assert!((a - b).abs() <= 1e-12, "t = {a} vs {b}");
    }
    let peak = hp_ref
        .iter()
        .chain(&hc_ref)
        .fold(0.0_f64, |m, h| m.max(h.abs()));
    for (a, b) in hp.iter().zip(&hp_ref).chain(hc.iter().zip(&hc_ref)) {
        assert!((a - b).abs() <= 1e-11 * peak, "{a} vs {b}");
    }
    // 17 significant digits, so that every value reads back to the bits written.
    for value in text.lines().nth(1).unwrap().split(',') {
        let mantissa = value.split('e').next().unwrap();
        let digits = mantissa.chars().filter(char::is_ascii_digit).count();
        assert_eq!(digits, 17, "{value}");
    }

    // The same waveform on standard output, with the reference frequency given explicitly
    // (it defaults to the minimum frequency).
    let mut args = T02.to_vec();
    args.extend(["--reference-frequency", "20", "--output", "-"]);
    let out = tdpe_waveform(&args);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);

    // No temporary file is left beside the output.
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1);
}

#[test]
fn a_different_reference_frequency_changes_only_the_phase() {
    let mut args = T02.to_vec();
    args.extend(["--reference-frequency", "30", "--output", "-"]);
    let out = tdpe_waveform(&args);
    assert!(out.status.success());
    let [t, hp, hc] = parse_csv(&String::from_utf8(out.stdout).unwrap());
    let reference =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../phenomt/tests/data/T02_gw150914_like.csv");
    let [t_ref, hp_ref, hc_ref] = parse_csv(&std::fs::read_to_string(reference).unwrap());
    assert_eq!(t, t_ref);
    // Face-on-ish (ι = 0.4): |h₊|² + |h×|² barely depends on the phase; the samples do.
    let power = |p: &[f64], c: &[f64]| p.iter().zip(c).map(|(a, b)| a * a + b * b).sum::<f64>();
    let (p, p_ref) = (power(&hp, &hc), power(&hp_ref, &hc_ref));
    assert!((p - p_ref).abs() < 0.05 * p_ref);
    assert!(hp
        .iter()
        .zip(&hp_ref)
        .any(|(a, b)| (a - b).abs() > 1e-3 * b.abs()));
}

/// Runs `tdpe waveform` with `args` and an output file in a fresh directory; asserts that it
/// fails, says something containing each of `mentions` on one line, and leaves no file.
fn assert_fails(test: &str, args: &[&str], mentions: &[&str]) {
    let dir = scratch_dir(test);
    let path = dir.join("wf.csv");
    let mut args = args.to_vec();
    args.extend(["--output", path.to_str().unwrap()]);
    let out = tdpe_waveform(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{test}: succeeded");
    assert!(out.stdout.is_empty());
    let first_line = stderr.lines().next().unwrap_or_default();
    for m in mentions {
        assert!(first_line.contains(m), "{test}: {stderr:?} lacks {m:?}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "{test}: left {left:?}");
}

/// T02 with `name` set to `value`.
fn t02_with(name: &'static str, value: &'static str) -> Vec<&'static str> {
    let mut args = T02.to_vec();
    let k = args.iter().position(|a| *a == name).unwrap();
    args[k + 1] = value;
    args
}

#[test]
fn bad_parameters_fail_with_the_parameter_and_its_range() {
    assert_fails(
        "bad_mass_ratio",
        &t02_with("--mass-1", "6000"),
        &["error:", "mass_ratio", "[1, 200]"],
    );
    assert_fails(
        "bad_minimum_frequency",
        &t02_with("--minimum-frequency", "2000"),
        &["minimum_frequency = 2000 Hz", "allowed range", "282.43) Hz"],
    );
    assert_fails(
        "bad_reference_frequency",
        &[T02.as_slice(), &["--reference-frequency", "-1"]].concat(),
        &["reference_frequency = -1", "[0, ∞) Hz"],
    );
    assert_fails(
        "bad_spin",
        &t02_with("--chi-1", "1.2"),
        &["chi_1 = 1.2", "[-1, 1]"],
    );
    assert_fails(
        "bad_mass",
        &t02_with("--mass-2", "nan"),
        &["mass_2 = NaN", "M☉"],
    );
    assert_fails(
        "bad_distance",
        &t02_with("--luminosity-distance", "0"),
        &["luminosity_distance = 0", "(0, ∞) Mpc"],
    );
    assert_fails(
        "bad_sampling_frequency",
        &t02_with("--sampling-frequency", "-4096"),
        &["sampling_frequency = -4096", "(0, ∞) Hz"],
    );
    assert_fails(
        "nyquist_below_minimum_frequency",
        &t02_with("--sampling-frequency", "1"),
        &["sampling_frequency = 1 Hz", "Nyquist frequency 0.5 Hz"],
    );
    assert_fails(
        "too_many_samples",
        &t02_with("--sampling-frequency", "1e12"),
        &["samples", "sampling_frequency"],
    );
    assert_fails(
        "unknown_approximant",
        &t02_with("--approximant", "IMRPhenomXAS"),
        &[
            "unknown approximant 'IMRPhenomXAS'",
            "supported: IMRPhenomT, IMRPhenomTHM, IMRPhenomTPHM",
        ],
    );
}

#[test]
fn bad_mode_arrays_fail_with_what_is_wrong() {
    let with_modes =
        |base: &[&'static str], modes: &'static str| [base, &["--mode-array", modes]].concat();
    assert_fails(
        "mode_not_in_the_model",
        &with_modes(&T02, "[[2,2],[2,-2],[3,3],[3,-3]]"),
        &["(3,3) is not a mode of IMRPhenomT", "(2,±2)"],
    );
    assert_fails(
        "mode_not_in_thm",
        &with_modes(&THM02, "[[3,2],[3,-2]]"),
        &["(3,2) is not a mode of IMRPhenomTHM", "(5,±5)"],
    );
    assert_fails(
        "mode_without_partner",
        &with_modes(&THM02, "[[2,2],[2,-2],[2,1]]"),
        &["(2,1) without (2,-1)", "list both"],
    );
    assert_fails(
        "mode_array_not_pairs",
        &with_modes(&THM02, "[2,2]"),
        &["mode_array '[2,2]'", "[l, m] pairs"],
    );
    assert_fails(
        "mode_array_empty",
        &with_modes(&THM02, "[]"),
        &["mode_array is empty"],
    );
}

#[test]
fn an_unwritable_output_fails_without_leftovers() {
    let dir = scratch_dir("unwritable");
    let path = dir.join("missing_dir/wf.csv");
    let mut args = T02.to_vec();
    args.extend(["--output", path.to_str().unwrap()]);
    let out = tdpe_waveform(&args);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// The P01 reference case (LALSuite's IMRPhenomTPHM, PrecVersion 300, in-plane spins in the
/// L0 frame) as command-line arguments.
const P01: [&str; 28] = [
    "--approximant",
    "IMRPhenomTPHM",
    "--mass-1",
    "36",
    "--mass-2",
    "29",
    "--spin-1x",
    "0.12",
    "--spin-1y",
    "0.05",
    "--spin-1z",
    "0.3",
    "--spin-2x",
    "-0.08",
    "--spin-2y",
    "0.1",
    "--spin-2z",
    "-0.2",
    "--luminosity-distance",
    "410",
    "--inclination",
    "2.7",
    "--phase",
    "0.3",
    "--sampling-frequency",
    "2048",
    "--minimum-frequency",
    "20",
];

/// The P02 reference case (equal masses, strong precession), whose L0 modes LAL wrote.
const P02: [&str; 28] = [
    "--approximant",
    "IMRPhenomTPHM",
    "--mass-1",
    "40",
    "--mass-2",
    "40",
    "--spin-1x",
    "0.7",
    "--spin-1y",
    "0.2",
    "--spin-1z",
    "0.1",
    "--spin-2x",
    "-0.3",
    "--spin-2y",
    "0.65",
    "--spin-2z",
    "-0.1",
    "--luminosity-distance",
    "500",
    "--inclination",
    "0.9",
    "--phase",
    "0.7",
    "--sampling-frequency",
    "2048",
    "--minimum-frequency",
    "20",
];

/// The largest |ours − theirs| of the columns after the time, relative to `peak`; the times
/// agree to 1e-12 s.
fn largest_difference(ours: &[Vec<f64>], theirs: &[Vec<f64>], peak: f64) -> f64 {
    assert_eq!(ours[0].len(), theirs[0].len());
    for (a, b) in ours[0].iter().zip(&theirs[0]) {
        assert!((a - b).abs() <= 1e-12, "t = {a} vs {b}");
    }
    ours[1..]
        .iter()
        .zip(&theirs[1..])
        .flat_map(|(a, b)| a.iter().zip(b).map(|(x, y)| (x - y).abs() / peak))
        .fold(0.0, f64::max)
}

/// The largest |value| of `columns`.
fn peak_of(columns: &[Vec<f64>]) -> f64 {
    columns
        .iter()
        .flatten()
        .fold(0.0_f64, |m, h| m.max(h.abs()))
}

#[test]
fn writes_lals_precessing_waveform() {
    let mut args = P01.to_vec();
    args.extend(["--output", "-"]);
    let out = tdpe_waveform(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (header, ours) = parse_table(&text);
    assert_eq!(header, "t,hp,hc");
    let (_, theirs) = reference("P01_gw150914_like.csv");
    let difference = largest_difference(&ours, &theirs, peak_of(&theirs[1..]));
    // Measured: 6.8e-13 of the peak (the library's test: P01–P10 within 7.2e-12).
    assert!(difference < 3e-12, "{difference:e}");

    // --chi-1/--chi-2 are the aligned components, as --spin-1z/--spin-2z; PrecVersion 300 is
    // the default.
    let mut aliased = args.clone();
    for (spin, chi) in [("--spin-1z", "--chi-1"), ("--spin-2z", "--chi-2")] {
        let k = aliased.iter().position(|a| *a == spin).unwrap();
        aliased[k] = chi;
    }
    aliased.extend(["--prec-version", "300"]);
    let again = tdpe_waveform(&aliased);
    assert!(again.status.success());
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn a_mode_array_selects_the_coprecessing_modes_as_lal() {
    let mut args = P02.to_vec();
    args.extend([
        "--mode-array",
        "[[3,-3],[2,2],[2,-2],[3,3]]",
        "--output",
        "-",
    ]);
    let out = tdpe_waveform(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, ours) = parse_table(&String::from_utf8(out.stdout).unwrap());
    let (_, theirs) = reference("P02_q1_strongprec_MA2233.csv");
    let difference = largest_difference(&ours, &theirs, peak_of(&theirs[1..]));
    // Measured: 2.4e-12 of the peak (the library's test).
    assert!(difference < 1e-11, "{difference:e}");
}

#[test]
fn writes_every_l0_mode_of_the_precessing_waveform() {
    let mut args = P02.to_vec();
    args.extend(["--modes", "--output", "-"]);
    let out = tdpe_waveform(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (header, ours) = parse_table(&String::from_utf8(out.stdout).unwrap());
    // LAL's order: l ascending, then m = l, −l, l−1, −(l−1), …, 0; l = 5 after LAL's file's
    // l ≤ 4.
    let (reference_header, theirs) = reference("P02_q1_strongprec_modes.csv");
    assert!(
        header.starts_with(&format!("{reference_header},")),
        "{header}"
    );
    assert!(
        header.ends_with(
            "h55_re,h55_im,h5m5_re,h5m5_im,h54_re,h54_im,h5m4_re,h5m4_im,h53_re,h53_im,\
             h5m3_re,h5m3_im,h52_re,h52_im,h5m2_re,h5m2_im,h51_re,h51_im,h5m1_re,h5m1_im,\
             h50_re,h50_im"
        ),
        "{header}"
    );
    assert_eq!(ours.len(), 1 + 2 * 32);
    let h22_peak = theirs[1]
        .iter()
        .zip(&theirs[2])
        .fold(0.0_f64, |m, (re, im)| m.max(re.hypot(*im)));
    let difference = largest_difference(&ours[..theirs.len()], &theirs, h22_peak);
    // Measured: 2.07e-12 of the peak of |h22| (as the library's test of the same modes).
    assert!(difference < 5e-12, "{difference:e}");
}

#[test]
fn bad_precessing_options_fail_with_what_is_wrong() {
    let with = |base: &[&'static str], extra: &[&'static str]| [base, extra].concat();
    assert_fails(
        "unsupported_prec_version",
        &with(&P01, &["--prec-version", "310"]),
        &["PrecVersion 310 is not supported", "IMRPhenomTPHM has 300"],
    );
    assert_fails(
        "in_plane_spin_with_aligned_model",
        &with(&T02, &["--spin-1x", "0.2"]),
        &[
            "spin_1x = 0.2",
            "IMRPhenomT is aligned-spin",
            "IMRPhenomTPHM",
        ],
    );
    assert_fails(
        "in_plane_spin_with_thm",
        &with(&THM02, &["--spin-2y", "-0.1"]),
        &["spin_2y = -0.1", "IMRPhenomTHM is aligned-spin"],
    );
    assert_fails(
        "prec_version_with_aligned_model",
        &with(&T02, &["--prec-version", "300"]),
        &["prec_version applies to IMRPhenomTPHM only"],
    );
    assert_fails(
        "chi_and_spin_z",
        &with(&P01, &["--chi-1", "0.3"]),
        &["chi_1 and spin_1z both give", "give one of them"],
    );
    assert_fails(
        "spin_above_one",
        &p01_with("--spin-1x", "0.99"),
        &["has magnitude", "|spin_1| is [0, 1]"],
    );
    assert_fails(
        "mode_array_not_of_tphm",
        &with(&P01, &["--mode-array", "[[3,2],[3,-2]]"]),
        &["(3,2) is not a mode of IMRPhenomTPHM"],
    );
    assert_fails(
        "too_many_precessing_samples",
        &p01_with("--sampling-frequency", "1e9"),
        &["samples", "sampling_frequency"],
    );
}

/// P01 with `name` set to `value`.
fn p01_with(name: &'static str, value: &'static str) -> Vec<&'static str> {
    let mut args = P01.to_vec();
    let k = args.iter().position(|a| *a == name).unwrap();
    args[k + 1] = value;
    args
}
