//! A JSON value and writer that spell non-finite numbers as Python's `json` module does
//! (`NaN`, `Infinity`, `-Infinity`): bilby writes `"log_evidence": NaN` and reads it back as a
//! float NaN, which strict JSON (and `serde_json`) cannot express; and a reader of such
//! documents ([`parse_python_json`]).

use std::fmt::Write;

/// A JSON value; objects keep their insertion order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null` (Python `None`).
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A float; non-finite values are written as Python writes them.
    Float(f64),
    /// An integer (counts, indices).
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, in insertion order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// An object from `(key, value)` pairs.
    pub fn object<K: Into<String>>(entries: impl IntoIterator<Item = (K, Json)>) -> Self {
        Json::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// An array of floats.
    pub fn floats(values: &[f64]) -> Self {
        Json::Array(values.iter().map(|&v| Json::Float(v)).collect())
    }

    /// A string value.
    pub fn str(s: impl Into<String>) -> Self {
        Json::Str(s.into())
    }

    /// An integer value from a count (saturating at `i64::MAX`).
    pub fn count(n: impl TryInto<i64>) -> Self {
        Json::Int(n.try_into().unwrap_or(i64::MAX))
    }

    /// Converts a `serde_json` value (from a `Serialize` type); its numbers are finite.
    pub fn from_serde(value: serde_json::Value) -> Self {
        use serde_json::Value;
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Json::Int(i),
                None => Json::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Json::Str(s),
            Value::Array(items) => Json::Array(items.into_iter().map(Json::from_serde).collect()),
            Value::Object(map) => Json::Object(
                map.into_iter()
                    .map(|(k, v)| (k, Json::from_serde(v)))
                    .collect(),
            ),
        }
    }

    /// The document, indented by two spaces per level (as bilby's `json.dump(..., indent=2)`),
    /// except that arrays of scalars stay on one line.
    pub fn to_pretty_string(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn is_scalar(&self) -> bool {
        !matches!(self, Json::Array(_) | Json::Object(_))
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Float(v) => write_float(out, *v),
            Json::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Json::Str(s) => write_string(out, s),
            Json::Array(items) if items.iter().all(Json::is_scalar) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    item.write(out, depth + 1);
                }
                out.push(']');
            }
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i > 0 { ",\n" } else { "\n" });
                    indent(out, depth + 1);
                    item.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push(']');
            }
            Json::Object(entries) if entries.is_empty() => out.push_str("{}"),
            Json::Object(entries) => {
                out.push('{');
                for (i, (key, value)) in entries.iter().enumerate() {
                    out.push_str(if i > 0 { ",\n" } else { "\n" });
                    indent(out, depth + 1);
                    write_string(out, key);
                    out.push_str(": ");
                    value.write(out, depth + 1);
                }
                out.push('\n');
                indent(out, depth);
                out.push('}');
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    out.extend(std::iter::repeat_n("  ", depth));
}

/// Shortest round-trip decimal (Rust's `{:?}`, which uses an exponent only for very large or
/// small magnitudes, e.g. `1e-7`, valid JSON); Python's spellings for non-finite values.
fn write_float(out: &mut String, v: f64) {
    if v.is_nan() {
        out.push_str("NaN");
    } else if v.is_infinite() {
        out.push_str(if v > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        let _ = write!(out, "{v:?}");
    }
}

fn write_string(out: &mut String, s: &str) {
    // serde_json's string escaping cannot fail for a &str.
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| String::from("\"\"")));
}

/// Parses a JSON document in which numbers may be spelled as Python writes non-finite ones
/// (bilby's result files): `NaN`, `Infinity` and `-Infinity` outside strings read as `null`.
pub fn parse_python_json(text: &str) -> serde_json::Result<serde_json::Value> {
    const SPELLINGS: [&str; 3] = ["-Infinity", "Infinity", "NaN"];
    let mut strict = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if !in_string {
            if let Some(word) = SPELLINGS.iter().find(|w| rest.starts_with(**w)) {
                strict.push_str("null");
                rest = &rest[word.len()..];
                continue;
            }
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        }
        strict.push(c);
        rest = &rest[c.len_utf8()..];
    }
    serde_json::from_str(&strict)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_python_flavoured_json() {
        let doc = Json::object([
            ("a", Json::Float(f64::NAN)),
            (
                "b",
                Json::floats(&[1.0, -f64::INFINITY, 1e-7, 1126259462.4]),
            ),
            (
                "c",
                Json::object([("q\"uote", Json::Null), ("n", Json::Int(3))]),
            ),
            ("d", Json::object(Vec::<(String, Json)>::new())),
        ]);
        let text = doc.to_pretty_string();
        assert_eq!(
            text,
            "{\n  \"a\": NaN,\n  \"b\": [1.0, -Infinity, 1e-7, 1126259462.4],\n  \"c\": {\n    \
             \"q\\\"uote\": null,\n    \"n\": 3\n  },\n  \"d\": {}\n}\n"
        );
    }

    #[test]
    fn floats_round_trip_exactly() {
        let values = [
            0.1,
            1.0 / 3.0,
            1126259462.4012346,
            2.5e-300,
            -1.7976931348623157e308,
            5e-324,
        ];
        let mut text = String::new();
        Json::floats(&values).write(&mut text, 0);
        let parsed: Vec<f64> = text
            .trim_matches(|c| c == '[' || c == ']')
            .split(", ")
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(parsed, values);
    }

    /// Python's spellings read as null outside strings and stay as written inside them,
    /// escaped quotes included.
    #[test]
    fn python_flavoured_documents_are_read() {
        let doc = Json::object([
            ("a", Json::Float(f64::NAN)),
            ("b", Json::floats(&[-f64::INFINITY, 2.5, f64::INFINITY])),
            ("NaN \"Infinity\" ü", Json::str("-Infinity, NaN \\")),
        ]);
        let value = parse_python_json(&doc.to_pretty_string()).unwrap();
        assert_eq!(value["a"], serde_json::Value::Null);
        assert_eq!(value["b"][0], serde_json::Value::Null);
        assert_eq!(value["b"][1].as_f64(), Some(2.5));
        assert_eq!(value["b"][2], serde_json::Value::Null);
        assert_eq!(
            value["NaN \"Infinity\" ü"].as_str(),
            Some("-Infinity, NaN \\")
        );
        assert!(parse_python_json("{\"a\": Nan}").is_err());
    }

    #[test]
    fn finite_documents_parse_as_strict_json() {
        let doc = Json::object([
            ("x", Json::floats(&[0.1, 2.5e300, -3.0])),
            (
                "y",
                Json::Array(vec![Json::object([("z", Json::Bool(true))])]),
            ),
        ]);
        let parsed: serde_json::Value = serde_json::from_str(&doc.to_pretty_string()).unwrap();
        assert_eq!(parsed["x"][1].as_f64(), Some(2.5e300));
        assert_eq!(parsed["y"][0]["z"], serde_json::Value::Bool(true));
    }
}
