//! GWOSC strain files in the app (examples/gwosc.toml and its files, made by
//! tools/make_gwosc_fixture.py): the segment starts on the files' grid, the PSD estimated from
//! off-source data is the noise's and survives a round trip through its file, and every bad
//! input fails in the set-up with a message naming what is wrong.

use std::path::{Path, PathBuf};

use tdpe::config::Config;
use tdpe::gwosc_data::write_psd;
use tdpe::problem::Problem;
use tdpe_noise::Psd;

fn example() -> Config {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/gwosc.toml");
    Config::load(Some(&path)).unwrap()
}

/// The set-up's error for the example with `edit` applied.
fn set_up_error(edit: impl FnOnce(&mut Config)) -> String {
    let mut config = example();
    edit(&mut config);
    match Problem::set_up(config) {
        Ok(_) => panic!("the set-up accepted a bad input"),
        Err(e) => format!("{e:#}"),
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tdpe-gwosc-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_segment_starts_on_the_file_grid_and_the_estimated_psd_is_the_noises() {
    let problem = Problem::set_up(example()).unwrap();
    // Trigger at .4 s, 2 s after it, 4 s long: GPS 1126259460.4 is 0.4 samples after file
    // sample 1638 of its second at 4096 Hz, so the segment starts 0.4/4096 s early.
    let early = 0.4 / 4096.0;
    assert!(
        (problem.grid.start - (-2.0 - early)).abs() < 1e-6,
        "{}",
        problem.grid.start
    );
    assert_eq!(problem.estimated_psd, [true, true]);
    let first = 80 * 4096 + 1638;
    for source in &problem.data_sources {
        assert!(
            source.contains(&format!("file sample {first} at GPS 1126259460.399902")),
            "{source}"
        );
        assert!(source.contains("decimated by 2 to 2048 Hz"), "{source}");
        assert!(source.contains("31 segments of 4 s"), "{source}");
    }
    // The files' noise is coloured by the design curve; 31 median-averaged segments and 81
    // bins of 0.25 Hz leave ~2 % scatter in the band's mean ratio.
    let design = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    for psd in &problem.psds {
        let ratios: Vec<f64> = psd
            .frequencies()
            .iter()
            .zip(psd.values())
            .filter(|(f, _)| (90.0..=110.0).contains(*f))
            .map(|(&f, s)| s / design.value(f).unwrap())
            .collect();
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        assert_eq!(ratios.len(), 81);
        assert!(
            (mean - 1.0).abs() < 0.08,
            "{}: mean ratio {mean}",
            psd.name()
        );
    }
}

#[test]
fn a_written_psd_reads_back_as_the_same_psd() {
    let problem = Problem::set_up(example()).unwrap();
    let dir = scratch("psd");
    let path = dir.join("H1_psd.txt");
    write_psd(&problem.psds[0], "H1 test", &path).unwrap();
    let mut config = example();
    config
        .psd
        .insert("H1".into(), path.to_str().unwrap().to_string());
    let again = Problem::set_up(config).unwrap();
    assert_eq!(again.estimated_psd, [false, true]);
    assert_eq!(
        again.psds[0].frequencies(),
        problem.psds[0].frequencies(),
        "frequencies"
    );
    assert_eq!(again.psds[0].values(), problem.psds[0].values(), "values");
}

#[test]
fn bad_gwosc_input_fails_in_the_set_up_naming_what_is_wrong() {
    // A trigger whose segment runs past the file's end (GPS 1126259468).
    let e = set_up_error(|c| c.trigger_time = 1126259467.0);
    assert!(
        e.contains("analysis segment GPS [1126259465, 1126259469) is not inside the file"),
        "{e}"
    );
    // PSD data overlapping the analysis segment.
    let e = set_up_error(|c| c.psd_estimation.as_mut().unwrap().psd_start_time = Some(-10.0));
    assert!(e.contains("overlap the analysis segment"), "{e}");
    // PSD data reaching back into the files' gap of missing data (GPS 1126259383–1126259385):
    // the DATA flag is off there, and without flags the NaN samples themselves are found.
    let e = set_up_error(|c| c.psd_estimation.as_mut().unwrap().psd_length = 20);
    assert!(
        e.contains("PSD data GPS [1126259380.3999023, 1126259460.3999023) contains data failing the DATA data-quality flag in GPS [1126259383, 1126259385)"),
        "{e}"
    );
    let e = set_up_error(|c| {
        c.psd_estimation.as_mut().unwrap().psd_length = 20;
        c.strain.as_mut().unwrap().data_quality_flags = Some(Vec::new());
    });
    assert!(
        e.contains("contains 8192 missing (NaN) samples in GPS [1126259383, 1126259385)"),
        "{e}"
    );
    // A flag the files do not have.
    let e = set_up_error(|c| {
        c.strain.as_mut().unwrap().data_quality_flags = Some(vec!["CBC_CAT9".into()]);
    });
    assert!(e.contains("has no flag CBC_CAT9"), "{e}");
    // One detector's file given for another.
    let e = set_up_error(|c| {
        let files = &mut c.strain.as_mut().unwrap().files;
        files.insert("L1".into(), "gwosc/H1.hdf5".into());
    });
    assert!(e.contains("meta/Detector is 'H1', not L1"), "{e}");
    // An analysis rate the file's is no whole multiple of.
    let e = set_up_error(|c| c.sampling_frequency = 1500.0);
    assert!(e.contains("whole multiple"), "{e}");
    let e = set_up_error(|c| {
        let files = &mut c.strain.as_mut().unwrap().files;
        files.insert("H1".into(), "gwosc/missing.hdf5".into());
    });
    assert!(e.contains("missing.hdf5': no such file"), "{e}");
}

#[test]
fn gwosc_only_settings_are_refused_elsewhere() {
    let mut config = Config::load(None).unwrap();
    config.psd_estimation = Some(Default::default());
    let e = format!("{:#}", config.validate().unwrap_err());
    assert!(
        e.contains("[psd_estimation] applies to GWOSC strain files"),
        "{e}"
    );
}
