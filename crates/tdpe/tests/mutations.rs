//! Mutation tests of every parser of user input: valid files (the default prior and config, a
//! PSD, strain, a points CSV) mutated by generated edits — characters and tokens inserted,
//! replaced and deleted, lines repeated, dropped and swapped — must each give a clean error or
//! a valid result, never a panic (docs/reliability.md). Thousands of inputs per parser, in
//! well under a minute.

use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use tdpe::commands::likelihood::parse_points;
use tdpe::config::{Config, DEFAULT_CONFIG};
use tdpe::data::read_time_series;
use tdpe_detector::GpsTime;
use tdpe_likelihood::SampleGrid;
use tdpe_noise::{Psd, PsdColumn};
use tdpe_posterior::prior::{PriorFile, PriorSet, GW150914_LIKE_PRIOR};
use tdpe_signal::SignalModel;

/// What the edits insert: the characters and words of the formats, and numbers at the edges of
/// f64 (overflowing, underflowing, not a number).
const TOKENS: [&str; 34] = [
    "0",
    "-",
    "1",
    ".",
    "e",
    "1e400",
    "1e-1000",
    "nan",
    "inf",
    "-inf",
    "(",
    ")",
    ",",
    "=",
    "'",
    "\"",
    "\n",
    " ",
    "\t",
    "#",
    "\u{feff}",
    "é",
    "[",
    "]",
    "{",
    "np.pi",
    "minimum",
    "maximum",
    "Uniform",
    "boundary='periodic'",
    "9999999999999",
    "-1",
    "[sampler]",
    "\r\n",
];

/// One edit of a text: what it does, where (a fraction of the text), which token.
#[derive(Debug, Clone)]
enum Edit {
    Insert(f64, usize),
    Replace(f64, usize),
    Delete(f64),
    RepeatLine(f64),
    DropLine(f64),
    SwapLines(f64, f64),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = 0.0..1.0f64;
    let token = 0..TOKENS.len();
    prop_oneof![
        (at.clone(), token.clone()).prop_map(|(a, t)| Edit::Insert(a, t)),
        (at.clone(), token).prop_map(|(a, t)| Edit::Replace(a, t)),
        at.clone().prop_map(Edit::Delete),
        at.clone().prop_map(Edit::RepeatLine),
        at.clone().prop_map(Edit::DropLine),
        (at.clone(), at).prop_map(|(a, b)| Edit::SwapLines(a, b)),
    ]
}

/// `text` with `edits` applied in turn.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        let chars: Vec<char> = text.chars().collect();
        let char_at = |a: f64| ((a * chars.len() as f64) as usize).min(chars.len());
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let line_at = |a: f64, n: usize| ((a * n as f64) as usize).min(n.saturating_sub(1));
        text = match *edit {
            Edit::Insert(a, t) => {
                let k = char_at(a);
                let (head, tail) = chars.split_at(k);
                format!(
                    "{}{}{}",
                    head.iter().collect::<String>(),
                    TOKENS[t],
                    tail.iter().collect::<String>()
                )
            }
            Edit::Replace(a, t) => {
                let k = char_at(a);
                let tail_start = (k + 1).min(chars.len());
                format!(
                    "{}{}{}",
                    chars[..k].iter().collect::<String>(),
                    TOKENS[t],
                    chars[tail_start..].iter().collect::<String>()
                )
            }
            Edit::Delete(a) => {
                let k = char_at(a);
                let mut chars = chars;
                if k < chars.len() {
                    chars.remove(k);
                }
                chars.into_iter().collect()
            }
            Edit::RepeatLine(a) if !lines.is_empty() => {
                let k = line_at(a, lines.len());
                lines.insert(k, lines[k].clone());
                lines.join("\n")
            }
            Edit::DropLine(a) if !lines.is_empty() => {
                lines.remove(line_at(a, lines.len()));
                lines.join("\n")
            }
            Edit::SwapLines(a, b) if !lines.is_empty() => {
                let n = lines.len();
                lines.swap(line_at(a, n), line_at(b, n));
                lines.join("\n")
            }
            _ => text,
        };
    }
    text
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec(edit(), 1..8)
}

fn cases(n: u32) -> ProptestConfig {
    ProptestConfig {
        cases: n,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A model without detectors at the default run's epoch, 2048 Hz, f_ref 20 Hz.
fn model() -> SignalModel {
    let epoch = GpsTime::from_f64(1126259462.4).unwrap();
    SignalModel::new(vec![], epoch, 20.0, 1.0 / 2048.0).unwrap()
}

/// A PSD file of 400 rows from 10 to 1024 Hz, PSD-like values.
fn psd_text() -> String {
    (0..400)
        .map(|k| {
            let f = 10.0 + k as f64 * 2.54;
            format!("{f:.6e} {:.6e}\n", 1e-46 * (1.0 + (50.0 / f).powi(4)))
        })
        .collect()
}

/// A points CSV: the header and three rows.
fn points_text() -> String {
    let header = tdpe_signal::SpinModel::Aligned.names().join(",");
    let row = "30.1,0.8,0.3,-0.2,1200,0.4,2.6,1.3,1126259462.4,1.375,-1.21";
    format!("{header}\n{row}\n{row}\n{row}\n")
}

/// 4 s of strain at 64 Hz around GPS 1e9, two columns.
fn strain_text() -> String {
    (0..300)
        .map(|k| {
            format!(
                "{:.9} {:e}\n",
                1e9 - 2.0 + k as f64 / 64.0,
                1e-21 * (k as f64).sin()
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(cases(3000))]

    #[test]
    fn mutated_prior_files_never_panic(edits in edits()) {
        let text = mutate(GW150914_LIKE_PRIOR, &edits);
        if let Ok(file) = PriorFile::parse(&text, "mutated.prior") {
            let _ = PriorSet::resolve(file, &model(), 1126259462.4);
        }
    }

    #[test]
    fn mutated_configs_never_panic(edits in edits()) {
        let text = mutate(DEFAULT_CONFIG, &edits);
        if let Ok(config) = Config::parse(&text, "mutated.toml", Path::new(".")) {
            let _ = config.validate();
        }
    }

    #[test]
    fn mutated_psd_files_never_panic(edits in edits()) {
        let text = mutate(&psd_text(), &edits);
        for column in [PsdColumn::Psd, PsdColumn::Asd] {
            if let Ok(psd) = Psd::parse(&text, "mutated.txt", column) {
                let _ = psd.check_covers(20.0, 1024.0);
            }
        }
    }

    #[test]
    fn mutated_points_never_panic(edits in edits()) {
        let _ = parse_points(
            &mutate(&points_text(), &edits),
            "mutated.csv",
            tdpe_signal::SpinModel::Aligned,
        );
    }
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn mutated_strain_never_panics(edits in edits()) {
        let dir = std::env::temp_dir().join(format!("tdpe-mutations-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("strain.txt");
        std::fs::write(&path, mutate(&strain_text(), &edits)).unwrap();
        let grid = SampleGrid::new(-1.0, 64.0, 2.0).unwrap();
        let _ = read_time_series(&path, &grid, 1e9 + grid.start);
    }
}
