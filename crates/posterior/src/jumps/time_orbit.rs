//! The orbit move through time and polarity (docs/sampling.md §4.3): the images of θ with
//! geocent_time moved by whole samples j·dt and, for the (2,2) mode, the phase by k·π/2, among
//! which the sampler draws one by the likelihood's cheap values there
//! ([`tdpe_mcmc::Space::orbit`]).
//!
//! A weak signal's likelihood is a comb in time, one tooth per cycle of the waveform across the
//! whole prior, with barriers a gradient kernel does not cross; the phase π/2 later flips the
//! (2,2) strain's sign, so with it the teeth half a cycle away are in the orbit too. Moving
//! geocent_time at fixed sky moves every detector's arrival by the same whole number of samples,
//! which relative binning with shifted summary data evaluates from the same node coefficients
//! ([`tdpe_likelihood::BbhRelativeBinning::time_lattice`]).

use std::f64::consts::FRAC_PI_2;

use tdpe_likelihood::{QuadratureProducts, TimeLattice};
use tdpe_signal::{Parameter, ParameterVector};

use crate::prior::Distribution;
use crate::time_steps::TimeSteps;

/// The orbit of θ under the whole-sample time shifts and the quarter turns of the phase.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeOrbit {
    /// The sample spacing (s).
    dt: f64,
    /// Quarter turns of the phase in the orbit: 4 over a full turn, 2 where the sampler does
    /// not tell φ from φ + π (the circular phases), 1 without the phase.
    polarities: usize,
    /// The phase prior's support, over which a turned phase is wrapped.
    phase_support: (f64, f64),
}

impl TimeOrbit {
    /// The orbit for lattice spacing `dt`, with `polarities` quarter turns (1, 2 or 4) of a phase
    /// sampled over `phase_support`.
    pub fn new(dt: f64, polarities: usize, phase_support: (f64, f64)) -> Self {
        Self {
            dt,
            polarities,
            phase_support,
        }
    }

    /// The weights [ln π(t_j), ln L(θ_jk)] of the orbit's members in the order (j, k), j the
    /// time step from `lattice.first` on and k the quarter turn, into `weights`, and the index
    /// of θ itself (j = 0, k = 0), ln L a function of the members' quadrature products (its
    /// value at phase angle 0 where the phase is sampled). The time prior is the only factor
    /// of π that changes along the orbit (a uniform phase prior); an odd quarter turn flips the
    /// data terms' sign. With the likelihood summed over a window of time steps
    /// (docs/sampling.md §5.6), the members are the windows' starts within the lattice, each
    /// weighted by the prior of its start and the window's likelihood. `None` where the
    /// lattice does not hold θ's own window.
    pub fn weights(
        &self,
        theta: &ParameterVector,
        lattice: &TimeLattice,
        time_prior: &Distribution,
        steps: Option<TimeSteps>,
        log_likelihood: impl Fn(&QuadratureProducts) -> f64,
        weights: &mut Vec<[f64; 2]>,
    ) -> Option<usize> {
        weights.clear();
        let time = |j: isize| theta[Parameter::GeocentTime] + j as f64 * self.dt;
        let steps_per_member = steps.map_or(1, |s| s.steps);
        let members = lattice.data_terms.len().checked_sub(steps_per_member)? + 1;
        if lattice.first > 0 || lattice.first.unsigned_abs() >= members {
            return None;
        }
        // ln π(t_j) + ln L(θ_jk) at every step of the lattice, polarity after polarity.
        let mut terms = vec![Vec::with_capacity(lattice.data_terms.len()); self.polarities];
        for (index, j) in (lattice.first..).take(lattice.data_terms.len()).enumerate() {
            let log_prior = time_prior.ln_pdf(time(j));
            let products = lattice.products(index);
            for (k, terms) in terms.iter_mut().enumerate() {
                let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
                let turned = QuadratureProducts {
                    d_0: sign * products.d_0,
                    d_1: sign * products.d_1,
                    ..products
                };
                terms.push([log_prior, log_likelihood(&turned)]);
            }
        }
        match steps {
            None => {
                for index in 0..members {
                    weights.extend(terms.iter().map(|t| t[index]));
                }
            }
            Some(steps) => {
                // p̃(s) = (1/n) Σ_j π(t_j) L(θ_j) = π_s(s) L̃(s): the window's sum, split into
                // the prior of its start and the likelihood that tempering scales.
                let first = time(lattice.first);
                let windows: Vec<Vec<[f64; 2]>> = terms
                    .iter()
                    .map(|t| {
                        let values: Vec<f64> = t.iter().map(|[a, b]| a + b).collect();
                        steps.windows(time_prior, first, &values)
                    })
                    .collect();
                for index in 0..members {
                    weights.extend(windows.iter().map(|w| {
                        let [log_prior, log_window] = w[index];
                        if log_prior.is_finite() {
                            [log_prior, log_window - log_prior]
                        } else {
                            // A start outside the time prior: no member.
                            [f64::NEG_INFINITY, 0.0]
                        }
                    }));
                }
            }
        }
        Some(lattice.first.unsigned_abs() * self.polarities)
    }

    /// An offset in the order of [`Self::weights`] as (time steps, quarter turns in
    /// [0, polarities)).
    fn step_and_turn(&self, offset: isize) -> (isize, isize) {
        let polarities = self.polarities as isize;
        (offset.div_euclid(polarities), offset.rem_euclid(polarities))
    }

    /// The member `offset` places after θ in the order of [`Self::weights`].
    pub fn image(&self, theta: &ParameterVector, offset: isize) -> ParameterVector {
        let (step, turn) = self.step_and_turn(offset);
        let mut image = *theta;
        image[Parameter::GeocentTime] += step as f64 * self.dt;
        if turn != 0 {
            let (lower, upper) = self.phase_support;
            let turned = theta[Parameter::Phase] + turn as f64 * FRAC_PI_2;
            image[Parameter::Phase] = lower + (turned - lower).rem_euclid(upper - lower);
        }
        image
    }

    /// The offset from the member `offset` places after θ back to θ: the inverse step and the
    /// inverse turn (the turns are a cyclic group, not the integers).
    pub fn inverse(&self, offset: isize) -> isize {
        let polarities = self.polarities as isize;
        let (step, turn) = self.step_and_turn(offset);
        -step * polarities + (polarities - turn) % polarities
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_and_images_share_one_order() {
        let orbit = TimeOrbit::new(0.5, 2, (0.0, std::f64::consts::TAU));
        let lattice = TimeLattice {
            dt: 0.5,
            first: -2,
            data_terms: [1.0, 2.0, 3.0, 4.0]
                .map(|d| num_complex::Complex64::new(d, 0.5))
                .to_vec(),
            template_terms: [2.0, 0.1, 2.1],
        };
        let prior = Distribution::Uniform {
            minimum: -0.7,
            maximum: 1.0,
        };
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        theta[Parameter::Phase] = 6.0;
        let mut weights = Vec::new();
        let current = orbit
            .weights(&theta, &lattice, &prior, None, |q| q.d_0, &mut weights)
            .unwrap();
        // Steps −2..=1, each with the phase and the phase π/2 later.
        assert_eq!(current, 4);
        let outside = f64::NEG_INFINITY;
        let inside = -(1.7f64.ln());
        let expected = [
            [outside, 1.0],
            [outside, -1.0],
            [inside, 2.0],
            [inside, -2.0],
            [inside, 3.0],
            [inside, -3.0],
            [inside, 4.0],
            [inside, -4.0],
        ];
        for (w, e) in weights.iter().zip(&expected) {
            assert_eq!(w[0].is_finite(), e[0].is_finite());
            if e[0].is_finite() {
                assert!((w[0] - e[0]).abs() < 1e-12, "{w:?} vs {e:?}");
            }
            assert_eq!(w[1], e[1]);
        }
        let image = orbit.image(&theta, -1);
        assert_eq!(image[Parameter::GeocentTime], -0.5);
        let wrapped = 6.0 + FRAC_PI_2 - std::f64::consts::TAU;
        assert!((image[Parameter::Phase] - wrapped).abs() < 1e-12);
        let image = orbit.image(&theta, 2);
        assert_eq!(image[Parameter::GeocentTime], 0.5);
        assert_eq!(image[Parameter::Phase], 6.0);
    }

    #[test]
    fn the_inverse_offset_leads_back() {
        use std::f64::consts::TAU;
        // Two quarter turns are the circular phases' identity: φ and φ + π are one point.
        for (polarities, period) in [(1, TAU), (2, TAU / 2.0), (4, TAU)] {
            let orbit = TimeOrbit::new(0.25, polarities, (0.0, TAU));
            let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
            theta[Parameter::Phase] = 1.0;
            theta[Parameter::GeocentTime] = 3.0;
            for offset in -9..=9 {
                let there = orbit.image(&theta, offset);
                let back = orbit.image(&there, orbit.inverse(offset));
                let time_error = back[Parameter::GeocentTime] - theta[Parameter::GeocentTime];
                let turns = (back[Parameter::Phase] - theta[Parameter::Phase]) / period;
                assert!(
                    time_error.abs() < 1e-12 && (turns - turns.round()).abs() < 1e-12,
                    "{polarities} quarter turns, offset {offset}: {back:?}"
                );
            }
        }
    }
}
