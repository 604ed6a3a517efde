//! The strain crate on real HDF5 files in GWOSC's layout, written by h5py
//! (tools/make_gwosc_fixture.py): the small fixtures of tests/data and the worked example of
//! examples/gwosc. scipy's results on the same data are in tests/data/checks.json.

use std::path::PathBuf;

use serde_json::Value;
use tdpe_strain::data_quality::DEFAULT_REQUIRED_FLAGS;
use tdpe_strain::segment::{check_finite, check_flags, snap};
use tdpe_strain::{Decimator, GwoscFile, PsdSettings, Span, StrainError};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/gwosc")
        .join(name)
}

fn checks() -> Value {
    let text = std::fs::read_to_string(data("checks.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// Largest |a − b| / max|b| over the two arrays.
fn max_rel_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / scale)
        .fold(0.0, f64::max)
}

#[test]
fn metadata_and_masks_are_read() {
    let file = GwoscFile::open(data("valid.hdf5")).unwrap();
    assert_eq!(file.detector, "H1");
    assert_eq!(file.start, 1_000_000_000.0);
    assert_eq!(file.sampling_frequency, 512.0);
    assert_eq!(file.len, 16384);
    assert_eq!(file.end(), 1_000_000_032.0);
    let dq = file.data_quality.as_ref().unwrap();
    assert_eq!(
        dq.names,
        [
            "DATA",
            "CBC_CAT1",
            "CBC_CAT2",
            "CBC_CAT3",
            "BURST_CAT1",
            "BURST_CAT2",
            "BURST_CAT3"
        ]
    );
    assert_eq!((dq.start, dq.spacing, dq.values.len()), (1e9, 1.0, 32));
    assert!(dq.values.iter().all(|&v| v == 127));
    // The fixture has a CBC hardware injection in seconds 20 and 21.
    let inj = file.injections.as_ref().unwrap();
    assert_eq!(inj.names[0], "NO_CBC_HW_INJ");
    assert_eq!(
        inj.cleared_in(1e9 + 19.5, 1e9 + 20.5),
        vec!["NO_CBC_HW_INJ"]
    );
    assert!(inj.cleared_in(1e9, 1e9 + 20.0).is_empty());
    assert!(inj.cleared_in(1e9 + 22.0, 1e9 + 32.0).is_empty());
}

#[test]
fn read_returns_exactly_the_samples_h5py_wrote() {
    let checks = checks();
    let valid = &checks["valid"];
    let file = GwoscFile::open(data("valid.hdf5")).unwrap();
    let all = file.read(0..file.len).unwrap();
    assert_eq!(all.len(), valid["len"].as_u64().unwrap() as usize);
    let indices: Vec<usize> = valid["indices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let bits = valid["bits"].as_array().unwrap();
    for (&i, bits) in indices.iter().zip(bits) {
        // Bit for bit (the bits, not the decimal, which a JSON reader may round by an ulp).
        let expected = f64::from_bits(bits.as_u64().unwrap());
        assert_eq!(all[i].to_bits(), expected.to_bits(), "sample {i}");
        assert_eq!(
            file.read(i..i + 1).unwrap(),
            vec![expected],
            "sample {i} alone"
        );
    }
    // A slice across a chunk boundary (chunks of 16384 samples in the example; one here) and
    // an empty one.
    assert_eq!(file.read(5000..5462).unwrap(), all[5000..5462].to_vec());
    assert!(file.read(7..7).unwrap().is_empty());
    assert!(matches!(
        file.read(16000..16385),
        Err(StrainError::Inconsistent { .. })
    ));
    // The example crosses chunk boundaries: a read over one equals the whole file's slice.
    let h1 = GwoscFile::open(example("H1.hdf5")).unwrap();
    let whole = h1.read(0..h1.len).unwrap();
    assert_eq!(
        h1.read(16384 * 3 - 5..16384 * 3 + 5).unwrap(),
        whole[16384 * 3 - 5..16384 * 3 + 5].to_vec()
    );
}

#[test]
fn a_truncated_file_is_refused_with_a_clear_message() {
    for name in ["truncated.hdf5", "truncated_header.hdf5"] {
        let path = data(name);
        let result = std::panic::catch_unwind(|| GwoscFile::open(&path).map(|_| ()))
            .unwrap_or_else(|_| panic!("{name}: panicked"));
        let err = result.expect_err(name);
        let message = err.to_string();
        // The superblock's end-of-file address is past the file's end: refused on open,
        // before any object past the cut is looked for.
        assert!(matches!(err, StrainError::Open { .. }), "{name}: {err:?}");
        assert!(
            message.contains(name) && message.contains("truncated: the file has"),
            "{message}"
        );
    }
    // Not HDF5 at all.
    let err = GwoscFile::open(data("checks.json")).err().unwrap();
    assert!(
        matches!(err, StrainError::Open { .. }) && err.to_string().contains("not a readable HDF5"),
        "{err:?}"
    );
    let err = GwoscFile::open(data("no_such_file.hdf5")).err().unwrap();
    assert!(err.to_string().contains("no such file"), "{err}");
}

#[test]
fn a_file_without_strain_strain_names_the_dataset() {
    let err = GwoscFile::open(data("wrong_names.hdf5")).err().unwrap();
    match &err {
        StrainError::Layout { item, .. } => assert_eq!(item, "strain/Strain"),
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("strain/Strain"), "{err}");
}

#[test]
fn xstart_disagreeing_with_gpsstart_is_inconsistent() {
    let err = GwoscFile::open(data("xstart_mismatch.hdf5")).err().unwrap();
    assert!(matches!(err, StrainError::Inconsistent { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("Xstart = 1000000001") && message.contains("GPSstart = 1000000000"),
        "{message}"
    );
}

#[test]
fn a_trigger_outside_the_file_is_outside_file() {
    let file = GwoscFile::open(data("valid.hdf5")).unwrap();
    // Segment [1e9 + 30, 1e9 + 34): past the end at 1e9 + 32.
    let span = Span::analysis(1e9 + 32.0, 4.0, 2.0).unwrap();
    match snap(&file, span, "analysis segment").unwrap_err() {
        StrainError::OutsideFile {
            what,
            start,
            end,
            file_start,
            file_end,
            ..
        } => {
            assert_eq!(what, "analysis segment");
            assert_eq!((start, end), (1e9 + 30.0, 1e9 + 34.0));
            assert_eq!((file_start, file_end), (1e9, 1e9 + 32.0));
        }
        other => panic!("{other:?}"),
    }
    // Before the start, and the PSD span of a segment near the start.
    let early = Span::analysis(1e9 - 1.0, 4.0, 2.0).unwrap();
    assert!(matches!(
        snap(&file, early, "analysis segment"),
        Err(StrainError::OutsideFile { .. })
    ));
    let analysis = Span::analysis(1e9 + 10.0, 4.0, 2.0).unwrap();
    let psd = PsdSettings::default().span(&analysis).unwrap();
    let err = snap(&file, psd, "PSD data").unwrap_err();
    assert!(err.to_string().contains("the PSD data GPS"), "{err}");
    // The last segment that fits.
    let last = Span::analysis(1e9 + 30.0, 4.0, 2.0).unwrap();
    let samples = snap(&file, last, "analysis segment").unwrap();
    assert_eq!((samples.first, samples.len), (28 * 512, 2048));
}

#[test]
fn nan_inside_a_span_is_bad_data_naming_the_gps_stretch() {
    let checks = checks();
    let expected = &checks["nan_inside"];
    let file = GwoscFile::open(data("nan_inside.hdf5")).unwrap();
    let span = snap(
        &file,
        Span::analysis(1e9 + 10.0, 4.0, 2.0).unwrap(),
        "analysis",
    )
    .unwrap();
    let samples = file.read(span.first..span.first + span.len).unwrap();
    let err = check_finite(&file, "analysis segment", &span, span.first, &samples).unwrap_err();
    match &err {
        StrainError::BadData {
            what,
            start,
            end,
            problem,
            bad_start,
            bad_end,
            ..
        } => {
            assert_eq!(what, "analysis segment");
            assert_eq!((*start, *end), (1e9 + 8.0, 1e9 + 12.0));
            assert_eq!(*bad_start, expected["bad_start"].as_f64().unwrap());
            assert_eq!(*bad_end, expected["bad_end"].as_f64().unwrap());
            let n = expected["bad_samples"].as_u64().unwrap();
            assert_eq!(problem, &format!("{n} missing (NaN) samples"));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .contains("384 missing (NaN) samples in GPS [1000000009.5, 1000000010.25)"),
        "{err}"
    );
    // A span clear of the NaN passes.
    let clean = snap(
        &file,
        Span::analysis(1e9 + 6.0, 4.0, 2.0).unwrap(),
        "analysis",
    )
    .unwrap();
    let samples = file.read(clean.first..clean.first + clean.len).unwrap();
    assert!(check_finite(&file, "analysis", &clean, clean.first, &samples).is_ok());
}

#[test]
fn a_failing_data_quality_flag_is_bad_data_naming_the_flag() {
    let checks = checks();
    let expected = &checks["dq_failure"];
    let file = GwoscFile::open(data("dq_failure.hdf5")).unwrap();
    let span = snap(&file, Span::analysis(1e9 + 7.5, 4.0, 2.0).unwrap(), "PSD").unwrap();
    let err = check_flags(&file, "analysis segment", &span, &DEFAULT_REQUIRED_FLAGS).unwrap_err();
    match &err {
        StrainError::BadData {
            problem,
            bad_start,
            bad_end,
            ..
        } => {
            assert_eq!(
                problem,
                &format!(
                    "data failing the {} data-quality flag",
                    expected["flag"].as_str().unwrap()
                )
            );
            assert_eq!(*bad_start, expected["bad_start"].as_f64().unwrap());
            assert_eq!(*bad_end, expected["bad_end"].as_f64().unwrap());
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("CBC_CAT1"), "{err}");
    // DATA alone passes there; a flag the file lacks is a layout error naming it.
    assert!(check_flags(&file, "analysis segment", &span, &["DATA"]).is_ok());
    let err = check_flags(&file, "analysis segment", &span, &["CBC_CAT9"]).unwrap_err();
    assert!(
        matches!(err, StrainError::Layout { .. }) && err.to_string().contains("CBC_CAT9"),
        "{err}"
    );
    // Seconds 8.. pass.
    let after = snap(&file, Span::analysis(1e9 + 10.0, 4.0, 2.0).unwrap(), "a").unwrap();
    assert!(check_flags(&file, "a", &after, &DEFAULT_REQUIRED_FLAGS).is_ok());
}

#[test]
fn a_psd_span_overlapping_the_analysis_segment_is_refused() {
    let analysis = Span::analysis(1126259462.4, 4.0, 2.0).unwrap();
    let settings = PsdSettings {
        psd_length: 16,
        psd_start_time: Some(-62.0),
        ..PsdSettings::default()
    };
    let err = settings.span(&analysis).unwrap_err();
    assert!(
        matches!(
            err,
            StrainError::InvalidSetting {
                name: "psd-start-time",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("overlap the analysis segment GPS [1126259460.4, 1126259464.4)"),
        "{err}"
    );
}

#[test]
fn decimation_matches_scipy_decimate_fir_zero_phase() {
    let checks = checks();
    let file = GwoscFile::open(data("valid.hdf5")).unwrap();
    let x = file.read(0..file.len).unwrap();
    for q in [2usize, 4, 8] {
        let expected = &checks["decimate"][q.to_string()];
        let d = Decimator::scipy_fir(q).unwrap();
        // scipy's default FIR: 20q + 1 taps.
        assert_eq!(
            2 * d.half_len() + 1,
            expected["taps"].as_u64().unwrap() as usize
        );
        let len = expected["len"].as_u64().unwrap() as usize;
        assert_eq!(len, x.len().div_ceil(q));
        let y = d.apply(&x, 0, len);
        for stretch in expected["stretches"].as_array().unwrap() {
            let first = stretch["first"].as_u64().unwrap() as usize;
            let want = floats(&stretch["values"]);
            let got = &y[first..first + want.len()];
            let diff = max_rel_diff(got, &want);
            eprintln!("decimate q = {q}, outputs {first}..: max rel diff {diff:e}");
            assert!(diff < 1e-14, "q = {q}, outputs {first}..: {diff:e}");
        }
    }
    // The example's analysis segment to 2048 Hz with the file's data around it.
    let expected = &checks["decimate_example_h1"];
    let h1 = GwoscFile::open(example("H1.hdf5")).unwrap();
    let x = h1.read(0..h1.len).unwrap();
    let first = expected["segment_first"].as_u64().unwrap() as usize;
    let step = expected["value_step"].as_u64().unwrap() as usize;
    let y = Decimator::between(4096.0, 2048.0)
        .unwrap()
        .apply(&x, first, 8192);
    let got: Vec<f64> = y.iter().step_by(step).copied().collect();
    let diff = max_rel_diff(&got, &floats(&expected["values"]));
    eprintln!("decimate example H1 4096 -> 2048 Hz: max rel diff {diff:e}");
    assert!(diff < 1e-14, "example: {diff:e}");
}

#[test]
fn the_psd_estimate_matches_scipy_welch_median() {
    let checks = checks();
    // The whole valid file in 4 s segments.
    let expected = &checks["welch_valid"];
    let file = GwoscFile::open(data("valid.hdf5")).unwrap();
    let x = file.read(0..file.len).unwrap();
    let settings = PsdSettings::default();
    assert_eq!(
        settings.tukey_roll_off,
        expected["tukey_roll_off"].as_f64().unwrap()
    );
    let est = settings.estimate(&x, 512.0, 4.0).unwrap();
    assert_eq!(est.frequencies, floats(&expected["frequencies"]));
    let want = floats(&expected["psd"]);
    // DC: the constant detrend leaves only rounding there, so it is compared on the scale of
    // the whole PSD; the other bins one by one.
    let peak = want.iter().fold(0.0f64, |m, v| m.max(*v));
    let dc = (est.psd[0] - want[0]).abs() / peak;
    eprintln!("welch valid.hdf5: DC bin diff / max PSD {dc:e}");
    assert!(dc < 1e-12, "DC: {} vs {}", est.psd[0], want[0]);
    let worst = est.psd[1..]
        .iter()
        .zip(&want[1..])
        .map(|(a, b)| (a - b).abs() / b)
        .fold(0.0, f64::max);
    eprintln!("welch valid.hdf5: worst bin rel diff {worst:e}");
    assert!(worst < 1e-12, "valid: worst bin {worst:e}");

    // The example's PSD data as an analysis takes them: 16 × 4 s before the segment.
    let expected = &checks["welch_example_h1"];
    let h1 = GwoscFile::open(example("H1.hdf5")).unwrap();
    let analysis = Span::analysis(1126259462.4, 4.0, 2.0).unwrap();
    let settings = PsdSettings {
        psd_length: 16,
        ..PsdSettings::default()
    };
    let psd_span = snap(&h1, settings.span(&analysis).unwrap(), "PSD data").unwrap();
    assert_eq!(psd_span.first, expected["first"].as_u64().unwrap() as usize);
    assert_eq!(psd_span.len, expected["len"].as_u64().unwrap() as usize);
    let samples = h1
        .read(psd_span.first..psd_span.first + psd_span.len)
        .unwrap();
    check_finite(&h1, "PSD data", &psd_span, psd_span.first, &samples).unwrap();
    check_flags(&h1, "PSD data", &psd_span, &DEFAULT_REQUIRED_FLAGS).unwrap();
    let est = settings.estimate(&samples, 4096.0, 4.0).unwrap();
    let step = expected["bin_step"].as_u64().unwrap() as usize;
    let got: Vec<f64> = est.psd.iter().step_by(step).copied().collect();
    let freqs: Vec<f64> = est.frequencies.iter().step_by(step).copied().collect();
    assert_eq!(freqs, floats(&expected["frequencies"]));
    let want = floats(&expected["psd"]);
    let worst = got[1..]
        .iter()
        .zip(&want[1..])
        .map(|(a, b)| (a - b).abs() / b)
        .fold(0.0, f64::max);
    eprintln!("welch example H1 PSD data: worst bin rel diff {worst:e}");
    assert!(worst < 1e-12, "example: worst bin {worst:e}");
}

#[test]
fn the_worked_example_is_what_its_readme_says() {
    for det in ["H1", "L1"] {
        let file = GwoscFile::open(example(&format!("{det}.hdf5"))).unwrap();
        assert_eq!(file.detector, det);
        assert_eq!((file.start, file.end()), (1126259380.0, 1126259468.0));
        assert_eq!(file.sampling_frequency, 4096.0);
        let analysis = Span::analysis(1126259462.4, 4.0, 2.0).unwrap();
        let seg = snap(&file, analysis, "analysis segment").unwrap();
        // 1638.4 samples into its second: the crop starts on sample 1638.
        assert_eq!(seg.start, 1126259460.0 + 1638.0 / 4096.0);
        // GPS 1126259460.39990234375, exactly (43 significant bits).
        assert_eq!(seg.start - 1126259460.0, 0.39990234375);
        assert_eq!(seg.len, 16384);
        let samples = file.read(seg.first..seg.first + seg.len).unwrap();
        check_finite(&file, "analysis segment", &seg, seg.first, &samples).unwrap();
        check_flags(&file, "analysis segment", &seg, &DEFAULT_REQUIRED_FLAGS).unwrap();
        // The NaN gap at GPS [1126259383, 1126259385), where DATA is clear too.
        let early = snap(
            &file,
            Span {
                start: 1126259382.0,
                end: 1126259386.0,
            },
            "PSD data",
        )
        .unwrap();
        let samples = file.read(early.first..early.first + early.len).unwrap();
        let err = check_finite(&file, "PSD data", &early, early.first, &samples).unwrap_err();
        assert!(
            err.to_string()
                .contains("8192 missing (NaN) samples in GPS [1126259383, 1126259385)"),
            "{err}"
        );
        let err = check_flags(&file, "PSD data", &early, &DEFAULT_REQUIRED_FLAGS).unwrap_err();
        assert!(
            err.to_string().contains("the DATA data-quality flag"),
            "{err}"
        );
    }
}
