//! From the exact likelihood of the data and the priors to the sampled posterior: the fiducial
//! point (the injection, or the maximum-likelihood point), the relative-binning likelihood
//! around it, the detector network's sensitivities, and the standardised posterior. The
//! command line, the `likelihood` service and the Python package all go this one way
//! (docs/sampling.md §8).

use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, PlacedNodes, RelativeBinningOptions,
};
use tdpe_signal::{BbhParameters, ParameterVector, SpinModel};

use crate::prior::PriorSet;
use crate::search::{maximize, Dimension, SearchOptions, SearchResult};
use crate::streams::Stream;
use crate::{CoordinateOptions, Network, Posterior, PosteriorError};

/// Prior draws that seed the maximum-likelihood search.
const SEARCH_PRIOR_DRAWS: usize = 2000;

/// The data's exact likelihood and the priors, resolved for its signal model
/// ([`PriorSet::resolve`], which also checks them against the waveform's range).
pub struct Analysis {
    exact: BbhExactLikelihood,
    priors: PriorSet,
}

/// The fiducial point of relative binning, and the search that found it (none when it was
/// given).
#[derive(Debug, Clone, PartialEq)]
pub struct Fiducial {
    /// The parameters (fixed ones at their DeltaFunction values).
    pub theta: ParameterVector,
    /// The maximum-likelihood search, if there was one.
    pub search: Option<SearchResult>,
}

impl Analysis {
    /// The analysis of `exact` with `priors` resolved for `exact.model()`; an error for
    /// priors of another spin model than the likelihood's ([`Self::check_spin_model`]).
    pub fn new(exact: BbhExactLikelihood, priors: PriorSet) -> Result<Self, PosteriorError> {
        Self::check_spin_model(priors.spin_model, exact.model().spin_model())?;
        Ok(Self { exact, priors })
    }

    /// Whether priors of `priors`' spin model suit a signal model with `model`'s spins: for
    /// callers that check them before they read any data.
    pub fn check_spin_model(priors: SpinModel, model: SpinModel) -> Result<(), PosteriorError> {
        if priors == model {
            Ok(())
        } else {
            Err(PosteriorError::SpinModelMismatch { priors, model })
        }
    }

    /// The exact likelihood.
    pub fn exact(&self) -> &BbhExactLikelihood {
        &self.exact
    }

    /// The priors.
    pub fn priors(&self) -> &PriorSet {
        &self.priors
    }

    /// The fiducial point: `known` (an injection), or the maximum-likelihood point of the exact
    /// likelihood over the prior box (`search`'s seed also draws its starting points); fixed
    /// parameters at their DeltaFunction values.
    pub fn fiducial(
        &self,
        known: Option<BbhParameters>,
        search: &SearchOptions,
    ) -> Result<Fiducial, PosteriorError> {
        let (mut theta, search) = match known {
            Some(p) => (p.to_array(), None),
            None => {
                let (theta, result) = self.search_maximum_likelihood(search)?;
                (theta, Some(result))
            }
        };
        for (parameter, prior) in self.priors.iter() {
            if prior.is_fixed() {
                theta[parameter] = prior.distribution.support().0;
            }
        }
        Ok(Fiducial { theta, search })
    }

    /// The maximum-likelihood point of the exact likelihood over the prior box.
    fn search_maximum_likelihood(
        &self,
        options: &SearchOptions,
    ) -> Result<(ParameterVector, SearchResult), PosteriorError> {
        let priors = &self.priors;
        let mut rng = Stream::SearchPriorDraws.rng(options.seed);
        let mut base = [0.0; tdpe_signal::NUM_PARAMETERS];
        let mut sampled = Vec::new();
        for (parameter, prior) in priors.iter() {
            if prior.is_fixed() {
                base[parameter] = prior.distribution.support().0;
            } else {
                sampled.push(parameter);
            }
        }
        let draws: Vec<ParameterVector> = (0..SEARCH_PRIOR_DRAWS)
            .map(|_| {
                let mut t = base;
                for &p in &sampled {
                    t[p] = priors.prior(p).distribution.sample(&mut rng);
                }
                t
            })
            .collect();
        let dims: Vec<Dimension> = sampled
            .iter()
            .map(|&p| {
                let prior = priors.prior(p);
                let (lo, hi) = prior.distribution.support();
                // Unbounded priors: the range of the draws.
                let (dlo, dhi) = draws
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), t| {
                        (a.min(t[p]), b.max(t[p]))
                    });
                Dimension {
                    lower: if lo.is_finite() { lo } else { dlo },
                    upper: if hi.is_finite() { hi } else { dhi },
                    periodic: prior.is_periodic(),
                }
            })
            .collect();
        let theta_of = |point: &[f64]| {
            let mut t = base;
            for (&p, &v) in sampled.iter().zip(point) {
                t[p] = v;
            }
            t
        };
        let objective = |point: &[f64]| {
            let t = theta_of(point);
            if !priors.constraints_hold(&t) {
                return f64::NEG_INFINITY;
            }
            self.exact
                .log_likelihood_ratio(&BbhParameters::from_array(t))
                .unwrap_or(f64::NEG_INFINITY)
        };
        let initial: Vec<Vec<f64>> = draws
            .iter()
            .filter(|t| priors.constraints_hold(t))
            .map(|t| sampled.iter().map(|&p| t[p]).collect())
            .collect();
        let result = maximize(objective, &dims, &initial, options);
        if !result.value.is_finite() {
            return Err(PosteriorError::SearchFailed);
        }
        Ok((theta_of(&result.point), result))
    }

    /// The relative-binning likelihood around `fiducial`.
    pub fn relative_binning(
        &self,
        fiducial: &ParameterVector,
        options: &RelativeBinningOptions,
    ) -> Result<BbhRelativeBinning, PosteriorError> {
        Ok(BbhRelativeBinning::new(
            &self.exact,
            BbhParameters::from_array(*fiducial),
            options,
        )?)
    }

    /// The nodes of a relative-binning likelihood around `fiducial` refined on `draws` (a
    /// pilot run's posterior draws, say) instead of a Fisher design set; its summary data
    /// follow with [`PlacedNodes::summarise`].
    pub fn place_nodes_on_draws(
        &self,
        fiducial: &ParameterVector,
        draws: &[ParameterVector],
        options: &RelativeBinningOptions,
    ) -> Result<PlacedNodes<'_>, PosteriorError> {
        let draws: Vec<BbhParameters> = draws
            .iter()
            .map(|t| BbhParameters::from_array(*t))
            .collect();
        Ok(BbhRelativeBinning::place_on_draws(
            &self.exact,
            BbhParameters::from_array(*fiducial),
            &draws,
            options,
        )?)
    }

    /// The network with each detector's sensitivity to the signal at `theta`, ⟨h|h⟩ per unit
    /// |Q|² of its projection factor (the weights of the inclination mirror), and its ⟨h|h⟩
    /// (which chooses the pairs of the sky frame and reflection).
    pub fn network(&self, theta: &ParameterVector) -> Result<Network, PosteriorError> {
        let p = BbhParameters::from_array(*theta);
        let terms = self.exact.detector_terms(&p)?;
        let model = self.exact.model();
        let sensitivities = terms
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let response = model.projection(k, &p).value.factor.norm_sqr();
                if response > 0.0 {
                    t.h_h / response
                } else {
                    0.0
                }
            })
            .collect();
        let optimal_snr_squared = terms.iter().map(|t| t.h_h).collect();
        Network::new(model.clone(), sensitivities, optimal_snr_squared)
    }

    /// The posterior with `likelihood` (relative binning around `fiducial`, say) in the
    /// coordinates of `options`, standardised by the Laplace approximation at the posterior
    /// mode near `fiducial` (see [`Posterior::standardize_at_mode`]); with the Newton steps
    /// that found the mode.
    pub fn posterior<L: crate::BbhLikelihood>(
        &self,
        likelihood: L,
        fiducial: &ParameterVector,
        options: &CoordinateOptions,
        seed: u64,
    ) -> Result<(Posterior<L>, usize), PosteriorError> {
        let network = self.network(fiducial)?;
        let mut posterior = Posterior::new(self.priors.clone(), likelihood, options, &network);
        let newton_steps = posterior.standardize_at_mode(fiducial, seed)?;
        Ok((posterior, newton_steps))
    }
}
