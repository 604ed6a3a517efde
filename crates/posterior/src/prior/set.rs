//! Resolving a prior file for the model: one prior per parameter, the default geocent_time
//! prior, the constraints, and the check against the waveform's domain.

use tdpe_signal::{component_masses, Parameter, ParameterVector, SignalModel, PARAMETER_NAMES};

use super::{Constraint, DerivedMass, Distribution, Entry, Prior, PriorError, PriorFile};

/// Half-width (s) of the default geocent_time prior around the trigger (bilby_pipe's
/// `deltaT = 0.2`).
pub const DEFAULT_TIME_HALF_WIDTH: f64 = 0.1;

/// The priors of the parameters (one per [`Parameter`], geocent_time relative to the model's
/// epoch) and the constraints, checked against the waveform's domain.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorSet {
    /// One prior per parameter, in the order of [`Parameter::ALL`]; `geocent_time` in s
    /// relative to the epoch.
    pub parameters: Vec<Prior>,
    /// Constraints on mass_1 / mass_2.
    pub constraints: Vec<Constraint>,
    /// The entries as written (absolute geocent_time; the default one appended when the file
    /// had none), for output.
    pub entries: Vec<Entry>,
}

impl PriorSet {
    /// Resolves `file` for `model`, whose times are relative to its epoch: every parameter
    /// needs a prior except geocent_time, which defaults to Uniform(trigger − 0.1,
    /// trigger + 0.1) with `trigger_gps` (s); every corner of the prior box in (chirp_mass,
    /// mass_ratio, chi_1, chi_2) must give a waveform (e.g. f_ref must be reached by the
    /// heaviest binary).
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
        let mut parameters = Vec::with_capacity(Parameter::ALL.len());
        for parameter in Parameter::ALL {
            let name = parameter.name();
            let prior = entries.iter().find_map(|e| match e {
                Entry::Parameter(p) if p.name == *name => Some(p.clone()),
                _ => None,
            });
            let mut prior = prior.ok_or_else(|| PriorError::Missing {
                source_name: file.source_name.clone(),
                name: name.to_string(),
                names: PARAMETER_NAMES.join(", "),
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
            parameters,
            constraints,
            entries,
        };
        set.check_waveform_corners(&file.source_name, model)?;
        Ok(set)
    }

    /// Checks that every corner of the box in (chirp_mass, mass_ratio, chi_1, chi_2) gives a
    /// waveform of `model`.
    fn check_waveform_corners(
        &self,
        source_name: &str,
        model: &SignalModel,
    ) -> Result<(), PriorError> {
        let ends = |p: Parameter| {
            let (lo, hi) = self.prior(p).distribution.support();
            [lo, hi]
        };
        for chirp_mass in ends(Parameter::ChirpMass) {
            for mass_ratio in ends(Parameter::MassRatio) {
                for chi_1 in ends(Parameter::Chi1) {
                    for chi_2 in ends(Parameter::Chi2) {
                        if let Err(source) = model.waveform(chirp_mass, mass_ratio, chi_1, chi_2) {
                            return Err(PriorError::CornerOutsideModel {
                                source_name: source_name.to_string(),
                                corner: [chirp_mass, mass_ratio, chi_1, chi_2],
                                source,
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that `theta` (named `what` in the message) lies strictly inside the support of
    /// every parameter's prior that is not fixed.
    pub fn check_contains(
        &self,
        theta: &ParameterVector,
        what: &'static str,
    ) -> Result<(), PriorError> {
        for (parameter, prior) in Parameter::ALL.into_iter().zip(&self.parameters) {
            let value = theta[parameter];
            let (lower, upper) = prior.distribution.support();
            if !(prior.is_fixed() || (value > lower && value < upper)) {
                return Err(PriorError::OutsidePrior {
                    what,
                    name: parameter.name(),
                    value,
                    lower,
                    upper,
                });
            }
        }
        Ok(())
    }

    /// The prior of `parameter`.
    pub fn prior(&self, parameter: Parameter) -> &Prior {
        &self.parameters[parameter.index()]
    }

    /// Whether θ satisfies every constraint (bounds included, as bilby's).
    pub fn constraints_hold(&self, theta: &ParameterVector) -> bool {
        if self.constraints.is_empty() {
            return true;
        }
        let (m1, m2) = component_masses(theta[Parameter::ChirpMass], theta[Parameter::MassRatio]);
        self.constraints.iter().all(|c| {
            c.allows(match c.parameter {
                DerivedMass::Mass1 => m1,
                DerivedMass::Mass2 => m2,
            })
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
}
