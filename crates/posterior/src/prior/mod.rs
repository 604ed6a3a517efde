//! Priors in bilby's prior-file syntax (the common subset), for the BBH parameters of either
//! spin model (aligned: chi_1, chi_2; precessing: a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl;
//! docs/precession.md §7.4) and constraints on the component masses (docs/sampling.md §2.1).
//!
//! A prior file has one `name = Class(arguments)` per line, or `name = number` (bilby's
//! shorthand for a DeltaFunction), with `#` comments. Classes: Uniform, LogUniform, PowerLaw,
//! Sine, Cosine, Gaussian, TruncatedGaussian, DeltaFunction, Constraint,
//! UniformInComponentsChirpMass, UniformInComponentsMassRatio, UniformComovingVolume,
//! UniformSourceFrame (keyword `cosmology`: None or 'Planck15') and AlignedSpin (keywords
//! `a_prior`, `z_prior`: nested Uniform priors), optionally with a dotted path
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
//!
//! [`PriorFile`] reads the file ([`mod@file`]), [`PriorSet`] resolves it for the model ([`set`]).

pub mod aligned_spin;
pub mod cosmological;
pub mod distribution;
pub mod file;
mod parse;
pub mod set;

pub use distribution::Distribution;
pub use file::PriorFile;
pub use set::{PriorSet, GW150914_LIKE_PRIOR};

/// Why a prior file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum PriorError {
    /// The file could not be read.
    #[error("cannot read prior file {path}")]
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
    /// A corner of the prior box in (chirp_mass, mass_ratio, chi_1, chi_2) gives no waveform.
    #[error(
        "{source_name}: the prior allows chirp_mass = {}, mass_ratio = {}, chi_1 = {}, \
         chi_2 = {}, outside the waveform's range",
        corner[0], corner[1], corner[2], corner[3]
    )]
    CornerOutsideModel {
        source_name: String,
        corner: [f64; 4],
        source: tdpe_signal::SignalError,
    },
    /// A given parameter vector (an injection, say) lies outside a prior's support.
    #[error(
        "{what}: {name} = {value} is outside its prior [{lower}, {upper}]{}",
        if *name == "geocent_time" { " (relative to the trigger)" } else { "" }
    )]
    OutsidePrior {
        what: &'static str,
        name: &'static str,
        value: f64,
        lower: f64,
        upper: f64,
    },
    /// The spin priors are those of neither spin model, or of both.
    #[error(
        "{source_name}: spin priors given: {given}; aligned spins need priors on {aligned}, \
         precessing spins on {precessing}, and a file gives those of one model only"
    )]
    SpinModel {
        source_name: String,
        given: String,
        aligned: String,
        precessing: String,
    },
    /// A periodic boundary on a parameter that is no angle around a circle.
    #[error(
        "{source_name}: {name} has boundary='periodic', but only ra, phase, psi, phi_12 and \
         phi_jl wrap around"
    )]
    NotPeriodic { source_name: String, name: String },
    /// A prior allows values the waveform model cannot take.
    #[error(
        "{source_name}: the prior on {name} allows [{low}, {high}], outside its range {allowed}"
    )]
    OutsideModel {
        source_name: String,
        name: String,
        low: f64,
        high: f64,
        allowed: &'static str,
    },
    /// The constraints held for none of many draws from the priors.
    #[error(
        "the mass constraints held for none of {tries} draws from the priors: they leave \
         (almost) nothing of the chirp_mass-mass_ratio prior"
    )]
    ConstraintsNeverHold { tries: usize },
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

/// A derived parameter that a Constraint may apply to: a component mass (M☉), from
/// chirp_mass and mass_ratio (m1 ≥ m2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DerivedMass {
    /// The heavier body's mass.
    Mass1,
    /// The lighter body's mass.
    Mass2,
}

impl DerivedMass {
    /// Every one, in bilby's order.
    pub const ALL: [DerivedMass; 2] = [Self::Mass1, Self::Mass2];

    /// bilby's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Mass1 => "mass_1",
            Self::Mass2 => "mass_2",
        }
    }

    /// Its value at `chirp_mass` and `mass_ratio`.
    pub fn value(self, chirp_mass: f64, mass_ratio: f64) -> f64 {
        let (m1, m2) = tdpe_signal::component_masses(chirp_mass, mass_ratio);
        match self {
            Self::Mass1 => m1,
            Self::Mass2 => m2,
        }
    }

    /// The derived parameter named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A Constraint: the derived parameter must lie in [minimum, maximum].
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// What is constrained.
    pub parameter: DerivedMass,
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
            self.parameter.name(),
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
            | Distribution::UniformInComponentsMassRatio { .. }
            | Distribution::Cosmological(_)
            | Distribution::AlignedSpin(_) => {
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

    /// True if the parameter wraps around with exactly `period`: its support spans one period.
    pub fn is_periodic_over(&self, period: f64) -> bool {
        self.is_periodic() && crate::transform::spans_period(self.distribution.support(), period)
    }

    /// True for a uniform prior that wraps around with exactly `period`.
    pub fn is_uniform_over(&self, period: f64) -> bool {
        matches!(self.distribution, Distribution::Uniform { .. }) && self.is_periodic_over(period)
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
            Entry::Constraint(c) => c.parameter.name(),
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
