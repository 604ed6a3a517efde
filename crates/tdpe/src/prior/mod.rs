//! Priors in bilby's prior-file syntax (the common subset), for the 11 aligned-spin BBH
//! parameters and constraints on the component masses.
//!
//! A prior file has one `name = Class(arguments)` per line, or `name = number` (bilby's
//! shorthand for a DeltaFunction), with `#` comments. Classes: Uniform, LogUniform, PowerLaw,
//! Sine, Cosine, Gaussian, TruncatedGaussian, DeltaFunction, Constraint,
//! UniformInComponentsChirpMass and UniformInComponentsMassRatio, optionally with a dotted path
//! (`bilby.core.prior.Uniform`, `bilby.gw.prior.UniformInComponentsChirpMass`). Keywords:
//! name, minimum, maximum, alpha, mu, sigma, peak, boundary (`'periodic'` wraps the parameter;
//! `'reflective'` and `None` are accepted and treated as hard walls), latex_label, unit;
//! positional arguments follow bilby's signatures. Numbers may be expressions such as
//! `2 * np.pi`. Constraints are allowed on `mass_1` and `mass_2` (from chirp_mass and
//! mass_ratio, m1 ≥ m2).
//!
//! `geocent_time` is written in absolute GPS seconds; [`PriorSet::resolve`] shifts it to the
//! reference epoch of the signal model and supplies bilby_pipe's default,
//! Uniform(trigger − 0.1 s, trigger + 0.1 s), when the file has none.

pub mod distribution;
mod parse;

use std::path::Path;

pub use distribution::Distribution;
use parse::{parse_line, Argument, RightHandSide, Value};
use tdpe_signal::PARAMETER_NAMES;

/// Names a Constraint may apply to: the component masses (M☉), derived from chirp_mass and
/// mass_ratio.
pub const CONSTRAINT_NAMES: [&str; 2] = ["mass_1", "mass_2"];

/// Index of `geocent_time` in [`PARAMETER_NAMES`].
pub const GEOCENT_TIME: usize = 8;

/// Half-width (s) of the default geocent_time prior around the trigger (bilby_pipe's
/// `deltaT = 0.2`).
pub const DEFAULT_TIME_HALF_WIDTH: f64 = 0.1;

/// Why a prior file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum PriorError {
    /// The file could not be read.
    #[error("cannot read prior file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A line is malformed or names something unknown.
    #[error("{source_name}:{line}: {message}: `{text}`")]
    Line {
        source_name: String,
        line: usize,
        text: String,
        message: String,
    },
    /// A parameter of the model has no prior.
    #[error("{source_name}: no prior for '{name}' (every one of {names} needs one)")]
    Missing {
        source_name: String,
        name: String,
        names: String,
    },
    /// A prior allows values the waveform model cannot take.
    #[error("{source_name}: the prior on {name} allows [{low}, {high}], outside the waveform's range {allowed}")]
    OutsideModel {
        source_name: String,
        name: String,
        low: f64,
        high: f64,
        allowed: &'static str,
    },
}

/// How a parameter behaves at its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// The parameter lives on a circle of period maximum − minimum.
    Periodic,
    /// bilby's reflective boundary (sampler hint; here a hard wall as without a boundary).
    Reflective,
}

/// A prior on one parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Prior {
    /// Parameter name.
    pub name: String,
    /// The distribution.
    pub distribution: Distribution,
    /// Boundary behaviour, if given.
    pub boundary: Option<Boundary>,
    /// LaTeX label, kept for output.
    pub latex_label: Option<String>,
    /// Unit, kept for output.
    pub unit: Option<String>,
}

/// A Constraint: the derived parameter `name` must lie in [minimum, maximum].
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// `mass_1` or `mass_2`.
    pub name: String,
    /// Lower bound (M☉).
    pub minimum: f64,
    /// Upper bound (M☉).
    pub maximum: f64,
    /// LaTeX label, kept for output.
    pub latex_label: Option<String>,
    /// Unit, kept for output.
    pub unit: Option<String>,
}

impl Constraint {
    /// True if `value` satisfies the constraint (bounds included, like bilby's).
    pub fn allows(&self, value: f64) -> bool {
        value >= self.minimum && value <= self.maximum
    }

    /// bilby's repr.
    pub fn repr(&self) -> String {
        format!(
            "Constraint(minimum={:?}, maximum={:?}, name='{}', latex_label={}, unit={})",
            self.minimum,
            self.maximum,
            self.name,
            py_str(&self.latex_label),
            py_str(&self.unit)
        )
    }
}

fn py_str(s: &Option<String>) -> String {
    match s {
        Some(s) => format!("'{s}'"),
        None => "None".into(),
    }
}

impl Prior {
    /// bilby's repr (gw classes with their module path so that bilby can resolve them).
    pub fn repr(&self) -> String {
        let class = match self.distribution {
            Distribution::UniformInComponentsChirpMass { .. }
            | Distribution::UniformInComponentsMassRatio { .. } => {
                format!("bilby.gw.prior.{}", self.distribution.class_name())
            }
            _ => self.distribution.class_name().to_string(),
        };
        let boundary = match self.boundary {
            Some(Boundary::Periodic) => "'periodic'",
            Some(Boundary::Reflective) => "'reflective'",
            None => "None",
        };
        let tail = if matches!(self.distribution, Distribution::DeltaFunction { .. }) {
            String::new()
        } else {
            format!(", boundary={boundary}")
        };
        format!(
            "{class}({}, name='{}', latex_label={}, unit={}{tail})",
            self.distribution.repr_arguments(),
            self.name,
            py_str(&self.latex_label),
            py_str(&self.unit)
        )
    }

    /// True for a DeltaFunction.
    pub fn is_fixed(&self) -> bool {
        matches!(self.distribution, Distribution::DeltaFunction { .. })
    }

    /// True if the parameter wraps around.
    pub fn is_periodic(&self) -> bool {
        self.boundary == Some(Boundary::Periodic)
    }
}

/// One entry of a prior file.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// A prior on a parameter.
    Parameter(Prior),
    /// A constraint on a derived parameter.
    Constraint(Constraint),
}

impl Entry {
    /// The name left of `=`.
    pub fn name(&self) -> &str {
        match self {
            Entry::Parameter(p) => &p.name,
            Entry::Constraint(c) => &c.name,
        }
    }

    /// bilby's repr.
    pub fn repr(&self) -> String {
        match self {
            Entry::Parameter(p) => p.repr(),
            Entry::Constraint(c) => c.repr(),
        }
    }
}

/// The entries of a prior file, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorFile {
    /// Where the text came from (a path, or `default` for the embedded file).
    pub source_name: String,
    /// Entries in file order.
    pub entries: Vec<Entry>,
}

/// The signatures of the supported classes: positional keyword order.
fn signature(class: &str) -> Option<&'static [&'static str]> {
    Some(match class {
        "Uniform"
        | "LogUniform"
        | "Sine"
        | "Cosine"
        | "UniformInComponentsChirpMass"
        | "UniformInComponentsMassRatio" => &[
            "minimum",
            "maximum",
            "name",
            "latex_label",
            "unit",
            "boundary",
        ],
        "PowerLaw" => &[
            "alpha",
            "minimum",
            "maximum",
            "name",
            "latex_label",
            "unit",
            "boundary",
        ],
        "Gaussian" => &["mu", "sigma", "name", "latex_label", "unit", "boundary"],
        "TruncatedGaussian" => &[
            "mu",
            "sigma",
            "minimum",
            "maximum",
            "name",
            "latex_label",
            "unit",
            "boundary",
        ],
        "DeltaFunction" => &["peak", "name", "latex_label", "unit"],
        "Constraint" => &["minimum", "maximum", "name", "latex_label", "unit"],
        _ => return None,
    })
}

const CLASSES: &str = "Uniform, LogUniform, PowerLaw, Sine, Cosine, Gaussian, \
                       TruncatedGaussian, DeltaFunction, Constraint, \
                       UniformInComponentsChirpMass, UniformInComponentsMassRatio";

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
            Some(Value::Number(x)) => Err(format!("{name} must be a string, not {x}")),
        }
    }
}

fn allowed_names() -> String {
    PARAMETER_NAMES
        .iter()
        .chain(CONSTRAINT_NAMES.iter())
        .copied()
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builds the entry of one line.
fn entry(name: &str, rhs: RightHandSide) -> Result<Entry, String> {
    let is_parameter = PARAMETER_NAMES.contains(&name);
    let is_derived = CONSTRAINT_NAMES.contains(&name);
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
        RightHandSide::Call { class, arguments } => (class, arguments),
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
        if !is_derived {
            return Err(format!(
                "Constraint is supported on {} only, not on '{name}'",
                CONSTRAINT_NAMES.join(", ")
            ));
        }
        let (minimum, maximum) = (args.number("minimum", None)?, args.number("maximum", None)?);
        if !(minimum.is_finite() && maximum.is_finite() && minimum < maximum) {
            return Err(format!(
                "Constraint needs finite minimum < maximum, got [{minimum}, {maximum}]"
            ));
        }
        return Ok(Entry::Constraint(Constraint {
            name: name.to_string(),
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
            let (minimum, maximum) = bounds()?;
            Distribution::uniform_in_components_mass_ratio(minimum, maximum)
        }
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

/// The priors of the 11 parameters (in [`PARAMETER_NAMES`] order, geocent_time relative to the
/// model's epoch) and the constraints, checked against the waveform's domain.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorSet {
    /// One prior per parameter, in [`PARAMETER_NAMES`] order; `geocent_time` in s relative to
    /// the epoch.
    pub parameters: Vec<Prior>,
    /// Constraints on mass_1 / mass_2.
    pub constraints: Vec<Constraint>,
    /// The entries as written (absolute geocent_time; the default one appended when the file
    /// had none), for output.
    pub entries: Vec<Entry>,
}

impl PriorSet {
    /// Resolves `file` for a model whose times are relative to `epoch_gps` (s): every
    /// parameter needs a prior except geocent_time, which defaults to
    /// Uniform(trigger − 0.1, trigger + 0.1) with `trigger_gps` (s).
    pub fn resolve(file: PriorFile, epoch_gps: f64, trigger_gps: f64) -> Result<Self, PriorError> {
        let mut entries = file.entries;
        if !entries.iter().any(|e| e.name() == "geocent_time") {
            entries.push(Entry::Parameter(Prior {
                name: "geocent_time".into(),
                distribution: Distribution::Uniform {
                    minimum: trigger_gps - DEFAULT_TIME_HALF_WIDTH,
                    maximum: trigger_gps + DEFAULT_TIME_HALF_WIDTH,
                },
                boundary: None,
                latex_label: Some("$t_c$".into()),
                unit: Some("$s$".into()),
            }));
        }
        let mut parameters = Vec::with_capacity(PARAMETER_NAMES.len());
        for (k, name) in PARAMETER_NAMES.iter().enumerate() {
            let prior = entries.iter().find_map(|e| match e {
                Entry::Parameter(p) if p.name == *name => Some(p.clone()),
                _ => None,
            });
            let mut prior = prior.ok_or_else(|| PriorError::Missing {
                source_name: file.source_name.clone(),
                name: name.to_string(),
                names: PARAMETER_NAMES.join(", "),
            })?;
            if k == GEOCENT_TIME {
                prior.distribution =
                    prior
                        .distribution
                        .shifted(epoch_gps)
                        .ok_or_else(|| PriorError::Line {
                            source_name: file.source_name.clone(),
                            line: 0,
                            text: prior.repr(),
                            message: "geocent_time supports Uniform, Gaussian, TruncatedGaussian \
                                  or DeltaFunction priors"
                                .into(),
                        })?;
            }
            check_model_range(&file.source_name, &prior)?;
            parameters.push(prior);
        }
        let constraints = entries
            .iter()
            .filter_map(|e| match e {
                Entry::Constraint(c) => Some(c.clone()),
                Entry::Parameter(_) => None,
            })
            .collect();
        Ok(Self {
            parameters,
            constraints,
            entries,
        })
    }
}

/// Checks that the prior's support lies in the waveform model's domain.
fn check_model_range(source_name: &str, prior: &Prior) -> Result<(), PriorError> {
    let (low, high) = prior.distribution.support();
    let (ok, allowed) = match prior.name.as_str() {
        "chirp_mass" => (low > 0.0 && high.is_finite(), "(0, ∞) M☉ (finite)"),
        // IMRPhenomT accepts m1/m2 ≤ 200.
        "mass_ratio" => (low >= 1.0 / 200.0 && high <= 1.0, "[0.005, 1] (m2/m1)"),
        "chi_1" | "chi_2" => (low >= -1.0 && high <= 1.0, "[-1, 1]"),
        "luminosity_distance" => (low > 0.0 && high.is_finite(), "(0, ∞) Mpc (finite)"),
        _ => (true, ""),
    };
    if ok {
        Ok(())
    } else {
        Err(PriorError::OutsideModel {
            source_name: source_name.to_string(),
            name: prior.name.clone(),
            low,
            high,
            allowed,
        })
    }
}

/// The embedded prior of the default run (examples/gw150914_like.prior).
pub const DEFAULT_PRIOR: &str = include_str!("../../../../examples/gw150914_like.prior");

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        PriorFile::parse(text, "test.prior")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn default_prior_resolves() {
        let file = PriorFile::parse(DEFAULT_PRIOR, "default").unwrap();
        let set = PriorSet::resolve(file, 1126259462.4, 1126259462.4).unwrap();
        assert_eq!(set.parameters.len(), 11);
        assert_eq!(set.constraints.len(), 2);
        let (lo, hi) = set.parameters[GEOCENT_TIME].distribution.support();
        assert!(
            (lo + 0.1).abs() < 1e-6 && (hi - 0.1).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert!(set.parameters[7].is_periodic());
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

    #[test]
    fn missing_and_out_of_model_priors() {
        let text = DEFAULT_PRIOR.replace("ra = ", "# ra = ");
        let f = PriorFile::parse(&text, "p").unwrap();
        let e = PriorSet::resolve(f, 0.0, 0.0).unwrap_err().to_string();
        assert!(e.contains("no prior for 'ra'"), "{e}");
        let text = format!("{DEFAULT_PRIOR}\n").replace(
            "chi_1 = Uniform(name='chi_1', minimum=-0.99, maximum=0.99",
            "chi_1 = Uniform(name='chi_1', minimum=-1.5, maximum=0.99",
        );
        let f = PriorFile::parse(&text, "p").unwrap();
        let e = PriorSet::resolve(f, 0.0, 0.0).unwrap_err().to_string();
        assert!(e.contains("prior on chi_1 allows [-1.5, 0.99]"), "{e}");
    }
}
