//! Reading a prior file: each line's right-hand side bound to its class's signature.

use std::path::Path;

use tdpe_signal::PARAMETER_NAMES;

use super::aligned_spin::AlignedSpin;
use super::cosmological::{CosmologicalDistance, Weighting};
use super::parse::{parse_line, Argument, Call, RightHandSide, Value};
use super::{Boundary, Constraint, DerivedMass, Distribution, Entry, Prior, PriorError};
use crate::cosmology::{Cosmology, COSMOLOGY_NAMES};

/// The entries of a prior file, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorFile {
    /// Where the text came from (a path, or `default` for the embedded file).
    pub source_name: String,
    /// Entries in file order.
    pub entries: Vec<Entry>,
}

/// The arguments every class takes after its own (bilby's `Prior.__init__`).
const LABELS: [&str; 3] = ["name", "latex_label", "unit"];

/// The signature of a supported class in positional order: its own arguments, then
/// [`LABELS`], then `boundary` where the class has one, then any that bilby's signature puts
/// after it.
fn signature(class: &str) -> Option<Vec<&'static str>> {
    let (own, has_boundary, after): (&[&'static str], bool, &[&'static str]) = match class {
        "Uniform" | "LogUniform" | "Sine" | "Cosine" | "UniformInComponentsChirpMass" => {
            (&["minimum", "maximum"], true, &[])
        }
        "UniformInComponentsMassRatio" => (&["minimum", "maximum"], true, &["equal_mass"]),
        "PowerLaw" => (&["alpha", "minimum", "maximum"], true, &[]),
        "Gaussian" => (&["mu", "sigma"], true, &[]),
        "TruncatedGaussian" => (&["mu", "sigma", "minimum", "maximum"], true, &[]),
        "DeltaFunction" => (&["peak"], false, &[]),
        "Constraint" => (&["minimum", "maximum"], false, &[]),
        "UniformComovingVolume" | "UniformSourceFrame" => {
            (&["minimum", "maximum", "cosmology"], true, &[])
        }
        "AlignedSpin" => (
            &["a_prior", "z_prior"],
            true,
            &["minimum", "maximum", "num_interp"],
        ),
        _ => return None,
    };
    let boundary: &[&'static str] = if has_boundary { &["boundary"] } else { &[] };
    Some([own, &LABELS, boundary, after].concat())
}

const CLASSES: &str = "Uniform, LogUniform, PowerLaw, Sine, Cosine, Gaussian, \
                       TruncatedGaussian, DeltaFunction, Constraint, \
                       UniformInComponentsChirpMass, UniformInComponentsMassRatio, \
                       UniformComovingVolume, UniformSourceFrame, AlignedSpin";

/// Keyword arguments of one call, after matching positional ones to the signature.
struct Arguments {
    class: String,
    values: Vec<(&'static str, Value)>,
}

impl Arguments {
    fn bind(class: &str, arguments: Vec<Argument>) -> Result<Self, String> {
        let names = signature(class)
            .ok_or_else(|| format!("unknown prior class '{class}' (supported: {CLASSES})"))?;
        let mut values: Vec<(&'static str, Value)> = Vec::new();
        let mut positional_done = false;
        for (i, argument) in arguments.into_iter().enumerate() {
            let name = match argument.keyword {
                Some(k) => {
                    positional_done = true;
                    *names.iter().find(|n| **n == k).ok_or_else(|| {
                        format!(
                            "{class} has no argument '{k}' (it takes {})",
                            names.join(", ")
                        )
                    })?
                }
                None if positional_done => {
                    return Err("positional argument after a keyword argument".into())
                }
                None => *names
                    .get(i)
                    .ok_or_else(|| format!("too many arguments for {class}"))?,
            };
            if values.iter().any(|(n, _)| *n == name) {
                return Err(format!("argument '{name}' given twice"));
            }
            values.push((name, argument.value));
        }
        Ok(Self {
            class: class.to_string(),
            values,
        })
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// A numeric argument, or `default` if absent.
    fn number(&self, name: &str, default: Option<f64>) -> Result<f64, String> {
        match (self.get(name), default) {
            (Some(Value::Number(x)), _) => Ok(*x),
            (Some(other), _) => Err(format!("{name} must be a number, not {other}")),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(format!("{} needs '{name}'", self.class)),
        }
    }

    /// A string argument (`None` allowed).
    fn text(&self, name: &str) -> Result<Option<String>, String> {
        match self.get(name) {
            Some(Value::Text(s)) => Ok(Some(s.clone())),
            Some(Value::None) | None => Ok(None),
            Some(other) => Err(format!("{name} must be a string, not {other}")),
        }
    }

    /// A `True`/`False` argument, or `default` if absent.
    fn flag(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.get(name) {
            Some(Value::Bool(b)) => Ok(*b),
            None => Ok(default),
            Some(other) => Err(format!("{name} must be True or False, not {other}")),
        }
    }

    /// The bounds of a nested `Uniform` prior (AlignedSpin's a_prior and z_prior), or
    /// `default` if absent.
    fn uniform(&self, name: &str, default: (f64, f64)) -> Result<(f64, f64), String> {
        match self.get(name) {
            None | Some(Value::None) => Ok(default),
            Some(Value::Call(Call { class, arguments })) if class == "Uniform" => {
                let inner =
                    Self::bind(class, arguments.clone()).map_err(|e| format!("{e}, in {name}"))?;
                let bounds = (inner.number("minimum", None), inner.number("maximum", None));
                match bounds {
                    (Ok(lo), Ok(hi)) => Ok((lo, hi)),
                    (Err(e), _) | (_, Err(e)) => Err(format!("{e}, in {name}")),
                }
            }
            Some(other) => Err(format!(
                "{} supports {name}=Uniform(minimum=…, maximum=…) only, not {other}",
                self.class
            )),
        }
    }
}

/// The cosmology a `cosmology=` argument names (bilby's default, Planck15, for None).
fn cosmology(name: Option<&str>) -> Result<Cosmology, String> {
    let name = name.unwrap_or("Planck15");
    Cosmology::from_name(name).ok_or_else(|| {
        format!(
            "unknown cosmology '{name}' (supported: {})",
            COSMOLOGY_NAMES.join(", ")
        )
    })
}

/// bilby's AlignedSpin from its bound arguments: the nested priors, and `minimum`/`maximum`
/// only if they are the natural support (bilby writes them so in its repr; narrower ones
/// would truncate the density, which tdpe does not do). `num_interp` sets bilby's
/// interpolation grid: the density here is exact, so it is read and ignored.
fn aligned_spin(args: &Arguments) -> Result<AlignedSpin, String> {
    let (a_minimum, a_maximum) = args.uniform("a_prior", (0.0, 1.0))?;
    let (z_minimum, z_maximum) = args.uniform("z_prior", (-1.0, 1.0))?;
    let spin = AlignedSpin {
        a_minimum,
        a_maximum,
        z_minimum,
        z_maximum,
    };
    spin.validate()?;
    let (low, high) = spin.support();
    for (name, natural) in [("minimum", low), ("maximum", high)] {
        if let Some(Value::Number(x)) = args.get(name) {
            if (x - natural).abs() > 1e-12 {
                return Err(format!(
                    "AlignedSpin with {name} = {x} truncates the support [{low}, {high}] of its \
                     a_prior and z_prior, which tdpe does not support"
                ));
            }
        } else if let Some(other @ (Value::Text(_) | Value::Call(_))) = args.get(name) {
            return Err(format!("{name} must be a number, not {other}"));
        }
    }
    if let Some(other @ (Value::Text(_) | Value::Call(_))) = args.get("num_interp") {
        return Err(format!("num_interp must be a number, not {other}"));
    }
    Ok(spin)
}

fn allowed_names() -> String {
    let derived = DerivedMass::ALL.map(DerivedMass::name);
    PARAMETER_NAMES
        .iter()
        .chain(derived.iter())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builds the entry of one line.
fn entry(name: &str, rhs: RightHandSide) -> Result<Entry, String> {
    let is_parameter = PARAMETER_NAMES.contains(&name);
    let derived = DerivedMass::from_name(name);
    let is_derived = derived.is_some();
    if !is_parameter && !is_derived {
        return Err(format!(
            "unknown parameter '{name}' (known: {})",
            allowed_names()
        ));
    }
    let (class, arguments) = match rhs {
        RightHandSide::Number(peak) => (
            "DeltaFunction".to_string(),
            vec![Argument {
                keyword: Some("peak".into()),
                value: Value::Number(peak),
            }],
        ),
        RightHandSide::Call(Call { class, arguments }) => (class, arguments),
    };
    let args = Arguments::bind(&class, arguments)?;
    if let Some(given) = args.text("name")? {
        if given != name {
            return Err(format!(
                "name='{given}' differs from the parameter '{name}'"
            ));
        }
    }
    let latex_label = args.text("latex_label")?;
    let unit = args.text("unit")?;
    if class == "Constraint" {
        let Some(parameter) = derived else {
            return Err(format!(
                "Constraint is supported on {} only, not on '{name}'",
                DerivedMass::ALL.map(DerivedMass::name).join(", ")
            ));
        };
        let (minimum, maximum) = (args.number("minimum", None)?, args.number("maximum", None)?);
        if !(minimum.is_finite() && maximum.is_finite() && minimum < maximum) {
            return Err(format!(
                "Constraint needs finite minimum < maximum, got [{minimum}, {maximum}]"
            ));
        }
        return Ok(Entry::Constraint(Constraint {
            parameter,
            minimum,
            maximum,
            latex_label,
            unit,
        }));
    }
    if is_derived {
        return Err(format!(
            "'{name}' is derived from chirp_mass and mass_ratio: only a Constraint may apply to it"
        ));
    }
    let bounds = || -> Result<(f64, f64), String> {
        Ok((args.number("minimum", None)?, args.number("maximum", None)?))
    };
    use std::f64::consts::{FRAC_PI_2, PI};
    let distribution = match class.as_str() {
        "Uniform" => {
            let (minimum, maximum) = bounds()?;
            Distribution::Uniform { minimum, maximum }
        }
        "LogUniform" => {
            let (minimum, maximum) = bounds()?;
            Distribution::LogUniform { minimum, maximum }
        }
        "PowerLaw" => {
            let (minimum, maximum) = bounds()?;
            Distribution::PowerLaw {
                alpha: args.number("alpha", None)?,
                minimum,
                maximum,
            }
        }
        "Sine" => Distribution::Sine {
            minimum: args.number("minimum", Some(0.0))?,
            maximum: args.number("maximum", Some(PI))?,
        },
        "Cosine" => Distribution::Cosine {
            minimum: args.number("minimum", Some(-FRAC_PI_2))?,
            maximum: args.number("maximum", Some(FRAC_PI_2))?,
        },
        "Gaussian" => Distribution::Gaussian {
            mu: args.number("mu", None)?,
            sigma: args.number("sigma", None)?,
        },
        "TruncatedGaussian" => {
            let (minimum, maximum) = bounds()?;
            Distribution::TruncatedGaussian {
                mu: args.number("mu", None)?,
                sigma: args.number("sigma", None)?,
                minimum,
                maximum,
            }
        }
        "DeltaFunction" => Distribution::DeltaFunction {
            peak: args.number("peak", None)?,
        },
        "UniformInComponentsChirpMass" => {
            let (minimum, maximum) = bounds()?;
            Distribution::UniformInComponentsChirpMass { minimum, maximum }
        }
        "UniformInComponentsMassRatio" => {
            // bilby's repr writes equal_mass=False; True (the density of a ratio of two
            // exchangeable masses, beyond q = 1) is not tdpe's.
            if args.flag("equal_mass", false)? {
                return Err(
                    "equal_mass=True is not supported (tdpe's mass_ratio is at most 1)".into(),
                );
            }
            let (minimum, maximum) = bounds()?;
            Distribution::uniform_in_components_mass_ratio(minimum, maximum)
        }
        "UniformComovingVolume" | "UniformSourceFrame" => {
            if name != "luminosity_distance" {
                return Err(format!(
                    "{class} is supported on luminosity_distance only (tdpe samples no redshift \
                     or comoving distance), not on '{name}'"
                ));
            }
            if let Some(unit) = unit.as_deref().filter(|u| *u != "Mpc") {
                return Err(format!("unit='{unit}' must be 'Mpc' (or None) for {class}"));
            }
            let weighting = if class == "UniformSourceFrame" {
                Weighting::SourceFrame
            } else {
                Weighting::ComovingVolume
            };
            let (minimum, maximum) = bounds()?;
            let cosmology = cosmology(args.text("cosmology")?.as_deref())?;
            Distribution::Cosmological(CosmologicalDistance::new(
                weighting, cosmology, minimum, maximum,
            )?)
        }
        "AlignedSpin" => Distribution::AlignedSpin(aligned_spin(&args)?),
        other => unreachable!("signature() accepted the unknown class {other}"),
    };
    distribution.validate()?;
    let boundary = match args.text("boundary")?.as_deref() {
        None => None,
        Some("periodic") => Some(Boundary::Periodic),
        Some("reflective") => Some(Boundary::Reflective),
        Some(other) => {
            return Err(format!(
                "boundary='{other}' is not supported (use 'periodic', 'reflective' or None)"
            ))
        }
    };
    if boundary == Some(Boundary::Periodic) && !distribution.support().1.is_finite() {
        return Err("boundary='periodic' needs finite minimum and maximum".into());
    }
    Ok(Entry::Parameter(Prior {
        name: name.to_string(),
        distribution,
        boundary,
        latex_label,
        unit,
    }))
}

impl PriorFile {
    /// Parses the text of a prior file; `source_name` (a path) prefixes error messages.
    pub fn parse(text: &str, source_name: &str) -> Result<Self, PriorError> {
        let mut entries: Vec<Entry> = Vec::new();
        // Editors on Windows may start a UTF-8 file with a byte-order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (index, raw) in text.lines().enumerate() {
            let fail = |message: String| PriorError::Line {
                source_name: source_name.to_string(),
                line: index + 1,
                text: raw.trim().to_string(),
                message,
            };
            let Some(line) = parse_line(raw).map_err(fail)? else {
                continue;
            };
            if entries.iter().any(|e| e.name() == line.name) {
                return Err(fail(format!("'{}' is defined twice", line.name)));
            }
            entries.push(entry(&line.name, line.rhs).map_err(fail)?);
        }
        Ok(Self {
            source_name: source_name.to_string(),
            entries,
        })
    }

    /// Reads and parses a prior file.
    pub fn read(path: &Path) -> Result<Self, PriorError> {
        let text = std::fs::read_to_string(path).map_err(|source| PriorError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, &path.display().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        PriorFile::parse(text, "test.prior")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn bad_lines_quote_file_line_and_text() {
        let e = err("chirp_mass = Uniform(minimum=20, maximum=40)\nfoo = Uniform(0, 1)\n");
        assert!(
            e.starts_with("test.prior:2: unknown parameter 'foo'"),
            "{e}"
        );
        assert!(e.ends_with("`foo = Uniform(0, 1)`"), "{e}");
        assert!(err("psi = Normal(0, 1)").contains("unknown prior class 'Normal'"));
        assert!(err("psi = Uniform(0 1)").contains("test.prior:1:"));
        assert!(err("psi = Uniform(minimum=1, maximum=0)").contains("below maximum"));
        assert!(err("psi = Uniform(minimum=0)").contains("needs 'maximum'"));
        assert!(err("psi = Uniform(0, 1, foo=2)").contains("no argument 'foo'"));
        assert!(err("chi_1 = Constraint(0, 1)").contains("Constraint is supported"));
        assert!(err("psi = 1\npsi = 2").contains("defined twice"));
        assert!(err("psi = Uniform(0, 1, boundary='sticky')").contains("boundary"));
        // A call where a number belongs (a function, or a prior inside a plain prior).
        assert!(err("psi = Uniform(0, sqrt(2))").contains("maximum must be a number, not sqrt(…)"));
    }

    #[test]
    fn shorthand_positional_and_repr() {
        let f = PriorFile::parse(
            "chi_1 = 0.3\ndec = Cosine()\nluminosity_distance = PowerLaw(2, 100, 5000)",
            "x",
        )
        .unwrap();
        assert_eq!(
            f.entries[0].repr(),
            "DeltaFunction(peak=0.3, name='chi_1', latex_label=None, unit=None)"
        );
        assert_eq!(
            f.entries[2].repr(),
            "PowerLaw(alpha=2.0, minimum=100.0, maximum=5000.0, name='luminosity_distance', \
             latex_label=None, unit=None, boundary=None)"
        );
        assert!(matches!(
            &f.entries[1],
            Entry::Parameter(Prior {
                distribution: Distribution::Cosine { .. },
                ..
            })
        ));
    }
}
