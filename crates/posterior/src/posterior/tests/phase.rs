//! Phase marginalisation (docs/sampling.md §5.5) on a mock with the (2,2) mode's phase
//! dependence.

use super::*;

/// A mock of the (2,2) mode's phase dependence on top of [`Mock`] (taken at the phase's mean):
/// ⟨d|h⟩ = D cos(2φ − 2ψ) and ⟨h|h⟩ = H (1 + 0.01 cos(4φ + 0.2)), the quadrature form
/// h(φ) = cos 2φ h₀ + sin 2φ h₁ with a non-rotating part.
struct PhaseMock(Mock);

impl PhaseMock {
    fn parts(
        &self,
        p: &BbhParameters,
    ) -> Result<(InnerProducts, ParameterVector, ParameterVector), LikelihoodError> {
        let phase = Parameter::Phase.index();
        let psi = Parameter::Psi.index();
        let mut at_mean = *p;
        at_mean.phase = self.0.mu[phase];
        let (ip, mut d_dh, mut d_hh) = self.0.parts(&at_mean)?;
        let (sin, cos) = (2.0 * (p.phase - p.psi)).sin_cos();
        let (sin4, cos4) = (4.0 * p.phase + 0.2).sin_cos();
        let rotating = 1.0 + 0.01 * cos4;
        d_dh.iter_mut().for_each(|g| *g *= cos);
        d_hh.iter_mut().for_each(|g| *g *= rotating);
        d_dh[phase] = -2.0 * ip.d_h * sin;
        d_dh[psi] += 2.0 * ip.d_h * sin;
        d_hh[phase] = -0.04 * ip.h_h * sin4;
        let turned = InnerProducts {
            d_h: ip.d_h * cos,
            h_h: ip.h_h * rotating,
        };
        Ok((turned, d_dh, d_hh))
    }
}

impl BbhLikelihood for PhaseMock {
    fn is_22_only(&self) -> bool {
        true
    }

    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
        Ok(self.parts(p)?.0)
    }

    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        g: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        Ok(chained(self.parts(p)?, f, g))
    }
}

/// The likelihood marginalised over the phase (alone and with the distance) is the integral
/// of the full posterior over the phase coordinate, its gradient that of its value, psi is
/// sampled over a quarter turn, and the drawn phases lie in the prior's support.
#[test]
fn phase_marginalization_integrates_the_full_posterior() {
    let in_parameters = || Posterior::in_parameters(priors(GW150914_LIKE_PRIOR), PhaseMock(mock()));
    for with_distance in [false, true] {
        let mut marginal = in_parameters();
        let mut full = in_parameters();
        if with_distance {
            marginal.use_distance_marginalization().unwrap();
            full.use_distance_marginalization().unwrap();
        }
        let i_phase = full.coordinate_of(Parameter::Phase).unwrap();
        marginal.use_phase_marginalization().unwrap();
        assert!(marginal.use_phase_marginalization().is_err());
        assert!(marginal.marginalizes_phase());
        let dim = Space::dim(&full);
        assert_eq!(Space::dim(&marginal), dim - 1);
        let i_psi = marginal.coordinate_of(Parameter::Psi).unwrap();
        assert_eq!(
            marginal.coordinates[i_psi].transform,
            Transform::Periodic {
                lower: 0.0,
                upper: 0.5 * PI
            }
        );
        for theta in [
            THETA,
            SpinModel::Aligned
                .vector(&[31.0, 0.6, -0.2, 0.4, 700.0, 1.0, 1.2, 4.0, -0.03, 0.5, 0.3]),
        ] {
            let x_marginal = marginal.to_x(&theta);
            assert_gradient_matches(&marginal, &x_marginal);
            let mut g = vec![0.0; dim - 1];
            let value = marginal.log_density_and_gradient(&x_marginal, &mut g);
            // ln ∫ p(x, φ) dφ over the periodic phase coordinate by the trapezoidal rule.
            let mut x_full = full.to_x(&theta);
            let mut g_full = vec![0.0; dim];
            let n = 2000;
            let logs: Vec<f64> = (0..n)
                .map(|k| {
                    x_full[i_phase] = TAU * k as f64 / n as f64;
                    full.log_density_and_gradient(&x_full, &mut g_full)
                })
                .collect();
            let peak = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mean = logs.iter().map(|l| (l - peak).exp()).sum::<f64>() / n as f64;
            let integral = peak + (TAU * mean).ln();
            assert!(
                (value - integral).abs() < 1e-6,
                "{with_distance}: {value} vs {integral}"
            );
            let mut drawn = theta;
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            marginal.draw_marginalized(&mut drawn, &mut rng).unwrap();
            assert!((0.0..TAU).contains(&drawn[Parameter::Phase]));
            assert!((marginal.log_prior(&drawn) - full.log_prior(&drawn)).abs() < 1e-12);
            // The quarter-turn partner: ψ + π/2 with φ + π/2.
            let partner = marginal.equivalent_parameters(&drawn, 1);
            assert!((partner[Parameter::Psi] - drawn[Parameter::Psi] - 0.5 * PI).abs() < 1e-12);
            assert!(
                (partner[Parameter::Phase] - drawn[Parameter::Phase]).rem_euclid(TAU) - 0.5 * PI
                    < 1e-12
            );
        }
    }
}

/// Phase marginalisation needs a sampled phase with a uniform prior over a full turn.
#[test]
fn phase_marginalization_is_refused_without_a_uniform_turn() {
    let phase_line =
        "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi, boundary='periodic')";
    for (replacement, reason) in [
        ("phase = 1.3", "phase is not sampled"),
        (
            "phase = Uniform(name='phase', minimum=0, maximum=np.pi, boundary='periodic')",
            "phase's prior is not uniform and periodic over 2π",
        ),
        (
            "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi)",
            "phase's prior is not uniform and periodic over 2π",
        ),
    ] {
        assert!(GW150914_LIKE_PRIOR.contains(phase_line));
        let mut post = posterior(&GW150914_LIKE_PRIOR.replace(phase_line, replacement));
        assert_eq!(post.use_phase_marginalization(), Err(reason));
        assert!(!post.marginalizes_phase());
    }
}
