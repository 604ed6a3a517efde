//! Resolving a prior file for the model: the spin model the spin priors choose, one prior per
//! parameter of it, the default geocent_time prior, the constraints, and the check against the
//! waveform's domain.

use rand::Rng;
use tdpe_signal::{Parameter, ParameterVector, SignalModel, SpinModel};

use super::{Constraint, Distribution, Entry, Prior, PriorError, PriorFile};

/// Half-width (s) of the default geocent_time prior around the trigger (bilby_pipe's
/// `deltaT = 0.2`).
pub const DEFAULT_TIME_HALF_WIDTH: f64 = 0.1;

/// The priors of the analysis's parameters (one per parameter of its [`SpinModel`],
/// geocent_time relative to the model's epoch) and the constraints, checked against the
/// waveform's domain. The parameters of the other spin model are held at 0.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorSet {
    /// The spins of the analysis, as the prior file chose them (aligned: chi_1 and chi_2;
    /// precessing: a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl).
    pub spin_model: SpinModel,
    /// One prior per parameter of the spin model, in the order of
    /// [`SpinModel::parameters`]; `geocent_time` in s relative to the epoch.
    pub parameters: Vec<Prior>,
    /// Constraints on mass_1 / mass_2.
    pub constraints: Vec<Constraint>,
    /// The entries as written (absolute geocent_time; the default one appended when the file
    /// had none), for output.
    pub entries: Vec<Entry>,
}

impl PriorSet {
    /// Resolves `file` for `model`, whose times are relative to its epoch: the spin priors
    /// choose the [`SpinModel`] (all of one model's and none of the other's); every parameter
    /// of it needs a prior except geocent_time, which defaults to Uniform(trigger − 0.1,
    /// trigger + 0.1) with `trigger_gps` (s); every one of [`Self::waveform_corners`] must
    /// give a waveform (e.g. f_ref must be reached by the heaviest binary).
    pub fn resolve(
        file: PriorFile,
        model: &SignalModel,
        trigger_gps: f64,
    ) -> Result<Self, PriorError> {
        let epoch_gps = model.epoch().as_f64();
        let mut entries = file.entries;
        if !entries
            .iter()
            .any(|e| e.name() == Parameter::GeocentTime.name())
        {
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
        let spin_model = spin_model(&file.source_name, &entries)?;
        let mut parameters = Vec::with_capacity(spin_model.parameters().len());
        for &parameter in spin_model.parameters() {
            let name = parameter.name();
            let prior = entries.iter().find_map(|e| match e {
                Entry::Parameter(p) if p.name == *name => Some(p.clone()),
                _ => None,
            });
            let mut prior = prior.ok_or_else(|| PriorError::Missing {
                source_name: file.source_name.clone(),
                name: name.to_string(),
                names: spin_model.names().join(", "),
            })?;
            if parameter == Parameter::GeocentTime {
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
        let set = Self {
            spin_model,
            parameters,
            constraints,
            entries,
        };
        set.check_waveform_corners(&file.source_name, model)?;
        Ok(set)
    }

    /// The corners of the prior box in (chirp_mass, mass_ratio, chi_1, chi_2), the aligned
    /// spins' extremes: with precessing spins, those of the aligned components
    /// a_i cos(tilt_i), which the co-precessing modes depend on (docs/precession.md §7.4).
    pub fn waveform_corners(&self) -> Vec<[f64; 4]> {
        let ends = |p: Parameter| {
            let (lo, hi) = self.prior(p).distribution.support();
            [lo, hi]
        };
        let aligned_ends = |chi: Parameter, a: Parameter, tilt: Parameter| match self.spin_model {
            SpinModel::Aligned => ends(chi),
            // a cos(tilt) over the box [a] × [tilt] ⊂ [0, 1] × [0, π] is bilinear in (a,
            // cos tilt), so its extremes are at the box's corners.
            SpinModel::Precessing => {
                let products = ends(a).map(|a| ends(tilt).map(|tilt| a * tilt.cos()));
                let all = products.as_flattened();
                [
                    all.iter().copied().fold(f64::INFINITY, f64::min),
                    all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ]
            }
        };
        let mut corners = Vec::with_capacity(16);
        for chirp_mass in ends(Parameter::ChirpMass) {
            for mass_ratio in ends(Parameter::MassRatio) {
                for chi_1 in aligned_ends(Parameter::Chi1, Parameter::A1, Parameter::Tilt1) {
                    for chi_2 in aligned_ends(Parameter::Chi2, Parameter::A2, Parameter::Tilt2) {
                        corners.push([chirp_mass, mass_ratio, chi_1, chi_2]);
                    }
                }
            }
        }
        corners
    }

    /// Checks that every one of [`Self::waveform_corners`] gives a waveform of `model`.
    fn check_waveform_corners(
        &self,
        source_name: &str,
        model: &SignalModel,
    ) -> Result<(), PriorError> {
        for [chirp_mass, mass_ratio, chi_1, chi_2] in self.waveform_corners() {
            if let Err(source) = model.waveform(chirp_mass, mass_ratio, chi_1, chi_2) {
                return Err(PriorError::CornerOutsideModel {
                    source_name: source_name.to_string(),
                    corner: [chirp_mass, mass_ratio, chi_1, chi_2],
                    source,
                });
            }
        }
        Ok(())
    }

    /// The analysis's parameters with their priors, in the order of
    /// [`SpinModel::parameters`].
    pub fn iter(&self) -> impl Iterator<Item = (Parameter, &Prior)> {
        self.spin_model
            .parameters()
            .iter()
            .copied()
            .zip(&self.parameters)
    }

    /// `theta` (named `what` in the message) with its periodic parameters wrapped into their
    /// priors' supports, or the error naming the first other parameter outside its prior's
    /// closed support [lower, upper] (bilby's priors include their bounds). Fixed parameters
    /// are not checked: the analysis takes their fixed values.
    pub fn admit(
        &self,
        theta: &ParameterVector,
        what: &'static str,
    ) -> Result<ParameterVector, PriorError> {
        let mut admitted = *theta;
        for (parameter, prior) in self.iter() {
            let value = theta[parameter];
            let (lower, upper) = prior.distribution.support();
            if prior.is_fixed() {
                continue;
            }
            if prior.is_periodic() && value.is_finite() {
                admitted[parameter] = lower + (value - lower).rem_euclid(upper - lower);
            } else if !(value >= lower && value <= upper) {
                return Err(PriorError::OutsidePrior {
                    what,
                    name: parameter.name(),
                    value,
                    lower,
                    upper,
                });
            }
        }
        Ok(admitted)
    }

    /// `theta` with every sampled, non-periodic parameter within 10⁻⁴ of its
    /// prior's width from a bound moved that far inside, and likewise each constrained
    /// component mass (by scaling the chirp mass, which scales both at fixed q): a point where
    /// the sampler's coordinates are finite (they map the bounds and the constraints' walls to
    /// infinity) and where densities that vanish on a bound (theta_jn's sine at 0) do not, nor
    /// diverge (AlignedSpin's at χ = 0, moved up by that margin), to start the search for the
    /// mode from.
    pub fn interior(&self, theta: &ParameterVector) -> ParameterVector {
        let mut inside = *theta;
        let clamp = |parameter: Parameter, value: f64| {
            let prior = self.prior(parameter);
            let (lower, upper) = prior.distribution.support();
            if prior.is_fixed() || prior.is_periodic() || !(upper - lower).is_finite() {
                return value;
            }
            let margin = INTERIOR_MARGIN * (upper - lower);
            let inside = value.clamp(lower + margin, upper - margin);
            // Off an integrable singularity too (AlignedSpin's at χ = 0), where ln p = +∞.
            if prior.distribution.ln_pdf(inside) == f64::INFINITY {
                inside + margin
            } else {
                inside
            }
        };
        for &parameter in self.spin_model.parameters() {
            inside[parameter] = clamp(parameter, theta[parameter]);
        }
        if self.prior(Parameter::ChirpMass).is_fixed() {
            return inside;
        }
        for c in &self.constraints {
            let mass = c
                .parameter
                .value(inside[Parameter::ChirpMass], inside[Parameter::MassRatio]);
            let margin = INTERIOR_MARGIN * (c.maximum - c.minimum);
            let target = mass.clamp(c.minimum + margin, c.maximum - margin);
            inside[Parameter::ChirpMass] *= target / mass;
        }
        inside[Parameter::ChirpMass] = clamp(Parameter::ChirpMass, inside[Parameter::ChirpMass]);
        inside
    }

    /// The prior of `parameter`.
    ///
    /// # Panics
    /// If `parameter` is not one of the spin model's (a caller's error: the other model's
    /// parameters have no prior).
    pub fn prior(&self, parameter: Parameter) -> &Prior {
        self.iter()
            .find_map(|(p, prior)| (p == parameter).then_some(prior))
            .unwrap_or_else(|| {
                panic!(
                    "{} is no parameter of the {:?} spin model",
                    parameter.name(),
                    self.spin_model
                )
            })
    }

    /// A draw from the priors (each parameter's own, the other spin model's 0; geocent_time
    /// relative to the epoch), drawn again until the constraints hold, as bilby's
    /// `PriorDict.sample` does; an error if they hold for none of [`MAX_CONSTRAINED_TRIES`]
    /// draws.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<ParameterVector, PriorError> {
        for _ in 0..MAX_CONSTRAINED_TRIES {
            let mut theta = ParameterVector::default();
            for (parameter, prior) in self.iter() {
                theta[parameter] = prior.distribution.sample(rng);
            }
            if self.constraints_hold(&theta) {
                return Ok(theta);
            }
        }
        Err(PriorError::ConstraintsNeverHold {
            tries: MAX_CONSTRAINED_TRIES,
        })
    }

    /// Whether θ satisfies every constraint (bounds included, as bilby's).
    pub fn constraints_hold(&self, theta: &ParameterVector) -> bool {
        if self.constraints.is_empty() {
            return true;
        }
        let (mc, q) = (theta[Parameter::ChirpMass], theta[Parameter::MassRatio]);
        self.constraints
            .iter()
            .all(|c| c.allows(c.parameter.value(mc, q)))
    }
}

/// The spin model whose spin parameters `entries` give priors to: every one of its own and
/// none of the other's.
fn spin_model(source_name: &str, entries: &[Entry]) -> Result<SpinModel, PriorError> {
    let models = [SpinModel::Aligned, SpinModel::Precessing];
    let has_prior = |p: &Parameter| {
        entries
            .iter()
            .any(|e| matches!(e, Entry::Parameter(prior) if prior.name == p.name()))
    };
    let given: Vec<Parameter> = models
        .into_iter()
        .flat_map(SpinModel::spin_parameters)
        .filter(has_prior)
        .collect();
    let names = |parameters: &mut dyn Iterator<Item = Parameter>| {
        parameters
            .map(Parameter::name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    models
        .into_iter()
        .find(|model| model.spin_parameters().eq(given.iter().copied()))
        .ok_or_else(|| PriorError::SpinModel {
            source_name: source_name.to_string(),
            given: if given.is_empty() {
                "none".into()
            } else {
                names(&mut given.iter().copied())
            },
            aligned: names(&mut SpinModel::Aligned.spin_parameters()),
            precessing: names(&mut SpinModel::Precessing.spin_parameters()),
        })
}

/// Draws [`PriorSet::draw`] makes before it gives up on the constraints.
pub const MAX_CONSTRAINED_TRIES: usize = 100_000;

/// The fraction of a prior's width that [`PriorSet::interior`] keeps from its bounds.
const INTERIOR_MARGIN: f64 = 1e-4;

/// Checks that the prior's support lies in the waveform model's domain.
fn check_model_range(source_name: &str, prior: &Prior) -> Result<(), PriorError> {
    use std::f64::consts::{FRAC_PI_2, PI, TAU};
    let is_angle = Parameter::from_name(&prior.name).is_some_and(|p| p.period().is_some());
    if prior.is_periodic() && !is_angle {
        return Err(PriorError::NotPeriodic {
            source_name: source_name.to_string(),
            name: prior.name.clone(),
        });
    }
    let (low, high) = prior.distribution.support();
    // Angles' ranges up to the rounding of a written-out π.
    let within = |lower: f64, upper: f64| low >= lower - 1e-12 && high <= upper + 1e-12;
    let (ok, allowed) = match prior.name.as_str() {
        "chirp_mass" => (low > 0.0 && high.is_finite(), "(0, ∞) M☉ (finite)"),
        // IMRPhenomT accepts m1/m2 ≤ 200.
        "mass_ratio" => (low >= 1.0 / 200.0 && high <= 1.0, "[0.005, 1] (m2/m1)"),
        "chi_1" | "chi_2" => (low >= -1.0 && high <= 1.0, "[-1, 1]"),
        "a_1" | "a_2" => (low >= 0.0 && high <= 1.0, "[0, 1]"),
        "tilt_1" | "tilt_2" => (within(0.0, PI), "[0, π] rad"),
        "luminosity_distance" => (low > 0.0 && high.is_finite(), "(0, ∞) Mpc (finite)"),
        // [0, 2π) as bilby's default, or another turn such as [−π, π).
        "ra" | "phi_12" | "phi_jl" => (
            within(-TAU, TAU) && high - low <= TAU + 1e-12,
            "of at most one turn (2π rad) within [-2π, 2π]",
        ),
        "dec" => (within(-FRAC_PI_2, FRAC_PI_2), "[-π/2, π/2] rad"),
        "theta_jn" => (within(0.0, PI), "[0, π] rad"),
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

/// The priors of tdpe's default run, a GW150914-like binary with aligned spins: bilby's
/// default BBH priors narrowed in chirp mass (`prior_files/gw150914_like.prior`; bilby ships
/// its default prior files in the library in the same way).
pub const GW150914_LIKE_PRIOR: &str = include_str!("../../prior_files/gw150914_like.prior");

#[cfg(test)]
mod tests {
    use super::*;
    use tdpe_detector::GpsTime;

    /// A model without detectors at the default run's epoch, 2048 Hz, f_ref 20 Hz.
    fn model() -> SignalModel {
        let epoch = GpsTime::from_f64(1126259462.4).unwrap();
        SignalModel::new(vec![], epoch, 20.0, 1.0 / 2048.0).unwrap()
    }

    #[test]
    fn default_prior_resolves() {
        let file = PriorFile::parse(GW150914_LIKE_PRIOR, "default").unwrap();
        let set = PriorSet::resolve(file, &model(), 1126259462.4).unwrap();
        assert_eq!(set.parameters.len(), 11);
        assert_eq!(set.constraints.len(), 2);
        let (lo, hi) = set.prior(Parameter::GeocentTime).distribution.support();
        assert!(
            (lo + 0.1).abs() < 1e-6 && (hi - 0.1).abs() < 1e-6,
            "{lo} {hi}"
        );
        assert!(set.prior(Parameter::Phase).is_periodic());
    }

    /// Draws keep to every prior's support and the constraints, follow a prior's law (the
    /// distance's D² density: its median is the root of the CDF at ½), depend on the seed
    /// alone, and an empty constrained region is an error, not a hang.
    #[test]
    fn draws_keep_the_supports_and_constraints_and_follow_the_seed() {
        use rand::SeedableRng;
        use rand_xoshiro::Xoshiro256PlusPlus;
        let file = PriorFile::parse(GW150914_LIKE_PRIOR, "default").unwrap();
        let set = PriorSet::resolve(file, &model(), 1126259462.4).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let draws: Vec<ParameterVector> = (0..4000).map(|_| set.draw(&mut rng).unwrap()).collect();
        for theta in &draws {
            assert!(set.constraints_hold(theta));
            assert_eq!(set.admit(theta, "draw").unwrap(), *theta);
        }
        let mut distances: Vec<f64> = draws
            .iter()
            .map(|t| t[Parameter::LuminosityDistance])
            .collect();
        distances.sort_by(f64::total_cmp);
        let median = distances[distances.len() / 2];
        let expected = ((100f64.powi(3) + 5000f64.powi(3)) / 2.0).cbrt();
        assert!(
            (median / expected - 1.0).abs() < 0.02,
            "{median} {expected}"
        );
        let again = set.draw(&mut Xoshiro256PlusPlus::seed_from_u64(7)).unwrap();
        assert_eq!(again, draws[0]);

        let text = GW150914_LIKE_PRIOR.replace(
            "mass_2 = Constraint(name='mass_2', minimum=10, maximum=80)",
            "mass_2 = Constraint(name='mass_2', minimum=79, maximum=80)",
        );
        let file = PriorFile::parse(&text, "p").unwrap();
        let set = PriorSet::resolve(file, &model(), 1126259462.4).unwrap();
        let e = set.draw(&mut rng).unwrap_err().to_string();
        assert!(e.contains("constraints held for none"), "{e}");
    }

    #[test]
    fn missing_and_out_of_model_priors() {
        let text = GW150914_LIKE_PRIOR.replace("ra = ", "# ra = ");
        let f = PriorFile::parse(&text, "p").unwrap();
        let e = PriorSet::resolve(f, &model(), 1126259462.4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no prior for 'ra'"), "{e}");
        let text = format!("{GW150914_LIKE_PRIOR}\n").replace(
            "chi_1 = Uniform(name='chi_1', minimum=-0.99, maximum=0.99",
            "chi_1 = Uniform(name='chi_1', minimum=-1.5, maximum=0.99",
        );
        let f = PriorFile::parse(&text, "p").unwrap();
        let e = PriorSet::resolve(f, &model(), 1126259462.4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("prior on chi_1 allows [-1.5, 0.99]"), "{e}");
    }

    fn resolve_error(replace: (&str, &str)) -> String {
        let text = GW150914_LIKE_PRIOR.replace(replace.0, replace.1);
        assert_ne!(
            text, GW150914_LIKE_PRIOR,
            "`{}` is not in the prior",
            replace.0
        );
        let f = PriorFile::parse(&text, "p").unwrap();
        PriorSet::resolve(f, &model(), 1126259462.4)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn angles_outside_their_circle_and_periodic_non_angles_are_errors() {
        let e = resolve_error((
            "ra = Uniform(name='ra', minimum=0, maximum=2 * np.pi",
            "ra = Uniform(name='ra', minimum=0, maximum=100",
        ));
        assert!(
            e.contains("prior on ra allows [0, 100], outside its range of at most one turn"),
            "{e}"
        );
        let e = resolve_error((
            "minimum=20, maximum=40, unit",
            "minimum=20, maximum=40, boundary='periodic', unit",
        ));
        assert!(e.contains("chirp_mass has boundary='periodic'"), "{e}");
        // A byte-order mark at the top of the file is no part of the first name.
        let f = PriorFile::parse(&format!("\u{feff}{GW150914_LIKE_PRIOR}"), "p").unwrap();
        assert!(PriorSet::resolve(f, &model(), 1126259462.4).is_ok());
    }

    /// An injection at χ = 0 under AlignedSpin (ln p = +∞ there) starts the mode search just
    /// above it.
    #[test]
    fn the_interior_leaves_an_aligned_spin_singularity() {
        let text = GW150914_LIKE_PRIOR.replace(
            "chi_1 = Uniform(name='chi_1', minimum=-0.99, maximum=0.99)",
            "chi_1 = AlignedSpin(name='chi_1', a_prior=Uniform(minimum=0, maximum=0.99))",
        );
        let f = PriorFile::parse(&text, "p").unwrap();
        let set = PriorSet::resolve(f, &model(), 1126259462.4).unwrap();
        let prior = &set.prior(Parameter::Chi1).distribution;
        assert_eq!(prior.ln_pdf(0.0), f64::INFINITY);
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        theta[Parameter::ChirpMass] = 30.0;
        theta[Parameter::MassRatio] = 0.8;
        theta[Parameter::LuminosityDistance] = 1000.0;
        theta[Parameter::ThetaJn] = 1.0;
        let inside = set.interior(&theta);
        assert!(
            (inside[Parameter::Chi1] - 1.98e-4).abs() < 1e-15,
            "{inside:?}"
        );
        assert!(prior.ln_pdf(inside[Parameter::Chi1]).is_finite());
        // A uniform prior's χ = 0 stays.
        assert_eq!(inside[Parameter::Chi2], 0.0);
    }

    #[test]
    fn injections_on_closed_bounds_are_admitted_and_periodic_ones_wrap() {
        let f = PriorFile::parse(GW150914_LIKE_PRIOR, "p").unwrap();
        let set = PriorSet::resolve(f, &model(), 1126259462.4).unwrap();
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        theta[Parameter::ChirpMass] = 20.0;
        theta[Parameter::MassRatio] = 1.0;
        theta[Parameter::Chi1] = 0.99;
        theta[Parameter::LuminosityDistance] = set
            .prior(Parameter::LuminosityDistance)
            .distribution
            .support()
            .0;
        theta[Parameter::ThetaJn] = 0.0;
        theta[Parameter::Phase] = 2.0 * std::f64::consts::TAU + 1.0;
        theta[Parameter::Ra] = -1.0;
        let admitted = set.admit(&theta, "injection").unwrap();
        assert!((admitted[Parameter::Phase] - 1.0).abs() < 1e-12);
        assert!((admitted[Parameter::Ra] - (std::f64::consts::TAU - 1.0)).abs() < 1e-12);
        assert_eq!(admitted[Parameter::MassRatio], 1.0);
        // The start of the mode search moves off the bounds, by 1e-4 of the prior's width.
        let inside = set.interior(&admitted);
        assert!(inside[Parameter::MassRatio] < 1.0 && inside[Parameter::MassRatio] > 0.9999);
        assert!(inside[Parameter::ThetaJn] > 0.0);
        assert_eq!(inside[Parameter::Phase], admitted[Parameter::Phase]);
        // And off a constraint's wall: m₁ = 80 exactly becomes 80 − 7e-3 (1e-4 of [10, 80]).
        let mut on_wall = admitted;
        on_wall[Parameter::MassRatio] = 0.3;
        on_wall[Parameter::ChirpMass] = 80.0 * 0.3f64.powf(0.6) / 1.3f64.powf(0.2);
        let inside = set.interior(&on_wall);
        let (m1, _) = tdpe_signal::component_masses(inside[Parameter::ChirpMass], 0.3);
        assert!((m1 - (80.0 - 7e-3)).abs() < 1e-9, "{m1}");
        theta[Parameter::MassRatio] = 1.0 + 1e-9;
        let e = set.admit(&theta, "injection").unwrap_err().to_string();
        assert!(
            e.contains("mass_ratio = 1.000000001 is outside its prior [0.25, 1]"),
            "{e}"
        );
        assert!(!e.contains("trigger"), "{e}");
    }
}
