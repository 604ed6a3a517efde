//! Injection files as bilby_pipe writes and reads them (`bilby_pipe_create_injection_file`,
//! `injection-file =` in an ini): a table of parameter values, one row per injection, one
//! column per parameter (bilby's names), as
//!
//! - `.json`: `{"injections": {"__dataframe__": true, "content": {name: [values]}}}`, bilby's
//!   JSON encoding of a pandas DataFrame (a plain `{"injections": {name: [values]}}` is read
//!   too);
//! - `.dat`: a header line of names, then one line of values per injection, separated by
//!   spaces (pandas' `to_csv(sep=" ", index=False)`).

use std::path::Path;

use anyhow::{bail, Context};
use serde_json::Value;
use tdpe_signal::PARAMETER_NAMES;

use crate::config::Injection;
use crate::output::json::{parse_python_json, Json};

/// The two formats, by file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InjectionFormat {
    /// bilby's JSON of a DataFrame.
    Json,
    /// Space-separated text with a header.
    Dat,
}

impl InjectionFormat {
    /// The format a path's extension names.
    pub fn of_path(path: &Path) -> anyhow::Result<Self> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("json") => Ok(Self::Json),
            Some(e) if e.eq_ignore_ascii_case("dat") => Ok(Self::Dat),
            _ => bail!(
                "injection file {}: the name must end in .json or .dat (bilby_pipe's formats)",
                path.display()
            ),
        }
    }
}

/// A table of injections: `rows[i][j]` is injection i's value of `columns[j]`.
#[derive(Debug, Clone, PartialEq)]
pub struct InjectionTable {
    /// Parameter names, bilby's.
    pub columns: Vec<String>,
    /// One row per injection, every value finite.
    pub rows: Vec<Vec<f64>>,
}

impl InjectionTable {
    /// Reads `path` in the format its extension names.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let format = InjectionFormat::of_path(path)?;
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read injection file {}", path.display()))?;
        let source = path.display().to_string();
        match format {
            InjectionFormat::Json => Self::parse_json(&text, &source),
            InjectionFormat::Dat => Self::parse_dat(&text, &source),
        }
    }

    /// Parses bilby_pipe's JSON injection file; `source` names it in errors.
    pub fn parse_json(text: &str, source: &str) -> anyhow::Result<Self> {
        let document =
            parse_python_json(text).with_context(|| format!("{source}: not a JSON document"))?;
        let table = document
            .get("injections")
            .with_context(|| format!("{source}: no \"injections\" table"))?;
        let content = table.get("content").unwrap_or(table);
        let Value::Object(columns) = content else {
            bail!("{source}: \"injections\" must map parameter names to lists of values");
        };
        let mut names = Vec::with_capacity(columns.len());
        let mut values: Vec<Vec<f64>> = Vec::with_capacity(columns.len());
        for (name, column) in columns {
            let Value::Array(items) = column else {
                bail!("{source}: the column {name} is not a list of values");
            };
            let column = items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_f64().filter(|x| x.is_finite()).with_context(|| {
                        format!("{source}: injection {i}: {name} = {v} is no finite number")
                    })
                })
                .collect::<anyhow::Result<Vec<f64>>>()?;
            names.push(name.clone());
            values.push(column);
        }
        let count = values.first().map_or(0, Vec::len);
        if let Some((name, column)) = names.iter().zip(&values).find(|(_, c)| c.len() != count) {
            bail!(
                "{source}: the column {name} holds {} values where {} holds {count}",
                column.len(),
                names[0]
            );
        }
        let rows = (0..count)
            .map(|i| values.iter().map(|c| c[i]).collect())
            .collect();
        Self::checked(names, rows, source)
    }

    /// Parses a `.dat` injection file; `source` names it in errors.
    pub fn parse_dat(text: &str, source: &str) -> anyhow::Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let (_, header) = lines.next().with_context(|| {
            format!("{source}: empty: a header line of parameter names is needed")
        })?;
        let columns: Vec<String> = header.split_whitespace().map(String::from).collect();
        let rows = lines
            .map(|(index, line)| {
                let values = line
                    .split_whitespace()
                    .map(|v| v.parse::<f64>().ok().filter(|x| x.is_finite()))
                    .collect::<Option<Vec<f64>>>()
                    .with_context(|| {
                        format!("{source}:{}: a value is no finite number", index + 1)
                    })?;
                if values.len() != columns.len() {
                    bail!(
                        "{source}:{}: {} values for {} columns",
                        index + 1,
                        values.len(),
                        columns.len()
                    );
                }
                Ok(values)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        Self::checked(columns, rows, source)
    }

    /// The table, if it holds at least one injection and no column twice, its columns in
    /// the model's order of parameters (others after them, as read): JSON objects keep no
    /// order.
    fn checked(columns: Vec<String>, rows: Vec<Vec<f64>>, source: &str) -> anyhow::Result<Self> {
        if let Some((i, name)) = columns
            .iter()
            .enumerate()
            .find(|(i, name)| columns[..*i].contains(name))
        {
            bail!(
                "{source}: the column {name} appears twice (the second at position {})",
                i + 1
            );
        }
        if rows.is_empty() {
            bail!("{source}: no injections");
        }
        let rank = |name: &String| {
            PARAMETER_NAMES
                .iter()
                .position(|p| p == name)
                .unwrap_or(PARAMETER_NAMES.len())
        };
        let mut order: Vec<usize> = (0..columns.len()).collect();
        order.sort_by_key(|&j| rank(&columns[j]));
        Ok(Self {
            columns: order.iter().map(|&j| columns[j].clone()).collect(),
            rows: rows
                .iter()
                .map(|row| order.iter().map(|&j| row[j]).collect())
                .collect(),
        })
    }

    /// bilby_pipe's JSON injection file of the table.
    pub fn to_json(&self) -> String {
        let content = self
            .columns
            .iter()
            .enumerate()
            .map(|(j, name)| {
                let column: Vec<f64> = self.rows.iter().map(|r| r[j]).collect();
                (name.clone(), Json::floats(&column))
            })
            .collect::<Vec<_>>();
        Json::object([(
            "injections",
            Json::object([
                ("__dataframe__", Json::Bool(true)),
                ("content", Json::Object(content)),
            ]),
        )])
        .to_pretty_string()
    }

    /// The `.dat` injection file of the table (values to the last bit).
    pub fn to_dat(&self) -> String {
        let mut text = self.columns.join(" ");
        text.push('\n');
        for row in &self.rows {
            let values: Vec<String> = row.iter().map(|v| format!("{v:?}")).collect();
            text.push_str(&values.join(" "));
            text.push('\n');
        }
        text
    }

    /// The file of the table in `format`.
    pub fn to_format(&self, format: InjectionFormat) -> String {
        match format {
            InjectionFormat::Json => self.to_json(),
            InjectionFormat::Dat => self.to_dat(),
        }
    }

    /// Injection `index` as a config's `[injection]` table. Its noise seed is the column
    /// `noise_seed` where the file has one, else `noise_seed`: a campaign gives every
    /// injection its own. A column that names no parameter of the model is an error.
    pub fn injection(&self, index: usize, noise_seed: u64) -> anyhow::Result<Injection> {
        let row = self.rows.get(index).with_context(|| {
            format!("no injection {index} (the file holds {})", self.rows.len())
        })?;
        let mut table = serde_json::Map::new();
        for (name, &value) in self.columns.iter().zip(row) {
            let value = if name == "noise_seed" {
                if !(value >= 0.0 && value.fract() == 0.0 && value < u64::MAX as f64) {
                    bail!("injection {index}: noise_seed = {value} is no whole number ≥ 0");
                }
                Value::from(value as u64)
            } else {
                Value::from(value)
            };
            table.insert(name.clone(), value);
        }
        if !table.contains_key("noise_seed") {
            table.insert("noise_seed".into(), Value::from(noise_seed));
        }
        serde_json::from_value(Value::Object(table)).with_context(|| {
            format!(
                "injection {index}: its columns must be parameters of the model \
                 (bilby's names)"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> InjectionTable {
        InjectionTable {
            columns: vec![
                "chirp_mass".into(),
                "mass_ratio".into(),
                "luminosity_distance".into(),
            ],
            rows: vec![
                // A value that a parser without correct rounding reads one ulp off.
                vec![28.1, 0.43837733330621437, 1200.0],
                vec![0.1 + 0.2, 1.0 / 3.0, 4999.999999999999],
            ],
        }
    }

    /// Both formats give back the table bit for bit, in bilby_pipe's layout.
    #[test]
    fn both_formats_round_trip_exactly() {
        let t = table();
        let json = t.to_json();
        assert!(json.contains("\"__dataframe__\": true"), "{json}");
        assert_eq!(InjectionTable::parse_json(&json, "t.json").unwrap(), t);
        let dat = t.to_dat();
        assert!(dat.starts_with(
            "chirp_mass mass_ratio luminosity_distance\n28.1 0.43837733330621437 1200.0\n"
        ));
        assert_eq!(InjectionTable::parse_dat(&dat, "t.dat").unwrap(), t);
        // pandas' own spelling of a DataFrame without the encoder's wrapper, and a .dat with
        // integers and blank lines.
        let plain = "{\"injections\": {\"chirp_mass\": [30, 31.5], \"mass_ratio\": [0.5, 1]}}";
        let t = InjectionTable::parse_json(plain, "p.json").unwrap();
        assert_eq!(t.rows, vec![vec![30.0, 0.5], vec![31.5, 1.0]]);
        let t = InjectionTable::parse_dat("\nchirp_mass psi\n\n30 1\n", "p.dat").unwrap();
        assert_eq!(t.rows, vec![vec![30.0, 1.0]]);
    }

    /// Malformed files name the file, the line or injection, and what is wrong.
    #[test]
    fn malformed_files_are_clear_errors() {
        let err = |r: anyhow::Result<InjectionTable>| format!("{:#}", r.unwrap_err());
        assert!(err(InjectionTable::parse_dat("a b\n1 2\n3\n", "f.dat"))
            .contains("f.dat:3: 1 values for 2"));
        assert!(err(InjectionTable::parse_dat("a b\n1 nan\n", "f.dat"))
            .contains("f.dat:2: a value is no finite"));
        assert!(err(InjectionTable::parse_dat("a a\n1 2\n", "f.dat"))
            .contains("column a appears twice"));
        assert!(err(InjectionTable::parse_dat("a b\n", "f.dat")).contains("no injections"));
        assert!(err(InjectionTable::parse_dat("", "f.dat")).contains("header line"));
        assert!(err(InjectionTable::parse_json("{}", "f.json")).contains("no \"injections\""));
        assert!(err(InjectionTable::parse_json(
            "{\"injections\": {\"a\": [1, NaN]}}",
            "f.json"
        ))
        .contains("injection 1: a = null is no finite number"));
        assert!(err(InjectionTable::parse_json(
            "{\"injections\": {\"a\": [1], \"b\": [1, 2]}}",
            "f.json"
        ))
        .contains("column b holds 2 values where a holds 1"));
        assert!(InjectionFormat::of_path(Path::new("x.csv")).is_err());
        assert_eq!(
            InjectionFormat::of_path(Path::new("x.JSON")).unwrap(),
            InjectionFormat::Json
        );
    }

    /// A row becomes a config's injection with the campaign's noise seed unless the file
    /// gives one; a column outside the model is an error naming it.
    #[test]
    fn rows_become_injections() {
        let t = table();
        let injection = t.injection(1, 1001).unwrap();
        assert_eq!(injection.chirp_mass, Some(0.1 + 0.2));
        assert_eq!(injection.luminosity_distance, 4999.999999999999);
        assert_eq!(injection.noise_seed, 1001);
        let seeded =
            InjectionTable::parse_dat("luminosity_distance noise_seed\n400 7\n", "s.dat").unwrap();
        assert_eq!(seeded.injection(0, 1000).unwrap().noise_seed, 7);
        let bad = InjectionTable::parse_dat("luminosity_distance noise_seed\n400 7.5\n", "s.dat")
            .unwrap();
        assert!(format!("{:#}", bad.injection(0, 0).unwrap_err()).contains("noise_seed = 7.5"));
        // A precessing spin is a parameter of the injection; a name of none is an error.
        let precessing =
            InjectionTable::parse_dat("luminosity_distance a_1\n400 0.5\n", "p.dat").unwrap();
        assert_eq!(precessing.injection(0, 0).unwrap().a_1, 0.5);
        let unknown =
            InjectionTable::parse_dat("luminosity_distance chi_3\n400 0.5\n", "p.dat").unwrap();
        let e = format!("{:#}", unknown.injection(0, 0).unwrap_err());
        assert!(e.contains("injection 0") && e.contains("chi_3"), "{e}");
        assert!(t.injection(2, 0).is_err());
    }
}
