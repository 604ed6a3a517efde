//! The moves that do not follow a trajectory (docs/sampling.md §4.3–4.4, §5.6) on a mock with
//! a time lattice: the orbit through time, the time steps' summed density, and the independence
//! proposals.

use super::*;

/// [`Mock`] with a time lattice of spacing [`LATTICE_DT`]: the inner products at each of
/// ±[`LATTICE_STEPS`] whole steps of geocent_time, evaluated there.
struct LatticeMock(Mock);

const LATTICE_DT: f64 = 1.0 / 2048.0;
const LATTICE_STEPS: isize = 50;

/// The posterior of `prior_text` on [`LatticeMock`] with `options`, in the H1–L1 network.
fn lattice_posterior(prior_text: &str, options: &CoordinateOptions) -> Posterior<LatticeMock> {
    Posterior::new(
        priors(prior_text),
        LatticeMock(mock()),
        options,
        &network(&["H1", "L1"]),
    )
}

impl BbhLikelihood for LatticeMock {
    fn is_22_only(&self) -> bool {
        true
    }

    fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
        self.0.inner_products(p)
    }

    fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: &dyn Fn(InnerProducts) -> [f64; 3],
        g: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        self.0.function_and_gradient(p, f, g)
    }

    fn lattice_spacing(&self) -> Option<f64> {
        Some(LATTICE_DT)
    }

    fn time_lattice(&self, p: &BbhParameters) -> Result<Option<TimeLattice>, LikelihoodError> {
        let at = |j: isize| {
            let mut moved = *p;
            moved.geocent_time += j as f64 * LATTICE_DT;
            self.0.quadrature_products(&moved)
        };
        let data_terms = (-LATTICE_STEPS..=LATTICE_STEPS)
            .map(|j| {
                let q = at(j)?;
                Ok(Complex64::new(q.d_0, q.d_1))
            })
            .collect::<Result<_, LikelihoodError>>()?;
        let q = at(0)?;
        Ok(Some(TimeLattice {
            dt: LATTICE_DT,
            first: -LATTICE_STEPS,
            data_terms,
            template_terms: [q.h_00, q.h_01, q.h_11],
        }))
    }
}

/// The time orbit in the sampler's coordinates: offered only with a likelihood that has a time
/// lattice; its weights differ from member to member as ln p(x_j) + ln|det ∂x_j/∂x| does (for
/// the members at the same phase, where the mock's lattice is exact), and a member a quarter
/// turn away has the phase π/2 later at its time step.
#[test]
fn time_orbit_weights_follow_the_density_of_its_members() {
    let options = CoordinateOptions::default();
    let h1l1 = network(&["H1", "L1"]);
    let plain = Posterior::new(priors(GW150914_LIKE_PRIOR), mock(), &options, &h1l1);
    assert_eq!(Space::orbit_count(&plain), 0);
    let mut post = lattice_posterior(GW150914_LIKE_PRIOR, &options);
    assert_eq!(post.not_applied(), &[]);
    assert_eq!(Space::orbit_count(&post), 1);
    let center = post.to_y(&THETA);
    let scales = vec![0.3; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    let x = post.to_x(&THETA);
    let mut weights = Vec::new();
    let current = Space::orbit(&post, 0, &x, &mut weights).unwrap();
    // Two quarter turns with the circular phases.
    assert_eq!(weights.len(), 2 * (2 * LATTICE_STEPS as usize + 1));
    assert_eq!(current, 2 * LATTICE_STEPS as usize);
    let weight = |i: usize| weights[i][0] + weights[i][1];
    let mut g = vec![0.0; x.len()];
    let log_p = post.log_density_and_gradient(&x, &mut g);
    let theta = post.parameters(&x);
    for offset in [-100isize, -37 * 2, -2, 2, 13 * 2, 100] {
        let mut image = vec![0.0; x.len()];
        let log_det = Space::orbit_image(&post, 0, &x, offset, &mut image).unwrap();
        let log_p_image = post.log_density_and_gradient(&image, &mut g);
        let expected = weight(current.checked_add_signed(offset).unwrap()) - weight(current);
        let got = log_p_image + log_det - log_p;
        assert!(
            (got - expected).abs() < 1e-8,
            "{offset}: {got} vs {expected}"
        );
        let moved = post.parameters(&image);
        let dt = (offset / 2) as f64 * LATTICE_DT;
        assert!((moved[Parameter::GeocentTime] - theta[Parameter::GeocentTime] - dt).abs() < 1e-9);
    }
    assert!(
        (weight(current + 60) - weight(current)).abs() > 1.0,
        "a flat orbit tests nothing"
    );
    let mut image = vec![0.0; x.len()];
    Space::orbit_image(&post, 0, &x, 2 * 5 + 1, &mut image).unwrap();
    let turned = post.parameters(&image);
    let phase_sum = |t: &ParameterVector| t[Parameter::Phase] + t[Parameter::Psi];
    let quarter = (phase_sum(&turned) - phase_sum(&theta)).rem_euclid(std::f64::consts::PI);
    assert!(
        (quarter - std::f64::consts::FRAC_PI_2).abs() < 1e-9,
        "{quarter}"
    );
    let dt = turned[Parameter::GeocentTime] - theta[Parameter::GeocentTime];
    assert!((dt - 5.0 * LATTICE_DT).abs() < 1e-9);
}

/// Summed over a window of time steps (docs/sampling.md §5.6): the density at θ is the plain
/// posterior's summed over the steps θ_j with their shares κ_j, in bilby's parameters (prior
/// and likelihood apart, as tempering splits them), inside the time prior and near its edges,
/// and its gradient matches finite differences there.
#[test]
fn time_steps_sum_the_posterior_over_the_window() {
    let steps = 8;
    let options = CoordinateOptions {
        time_steps: steps,
        ..CoordinateOptions::default()
    };
    let plain = lattice_posterior(GW150914_LIKE_PRIOR, &CoordinateOptions::default());
    let mut post = lattice_posterior(GW150914_LIKE_PRIOR, &options);
    assert_eq!(post.not_applied(), &[]);
    let window = post.time_steps().unwrap();
    assert_eq!(window.steps, steps);
    let mut g = [0.0; tdpe_signal::NUM_PARAMETERS];
    // The time prior is ±0.1 s about the epoch.
    let times = [0.0105, -0.0985, 0.0975];
    for time in times {
        let mut theta = THETA;
        theta[Parameter::GeocentTime] = time;
        // The reported prior is the physical one; the sampled one that of the window's start.
        assert_eq!(post.log_prior(&theta), plain.log_prior(&theta));
        let summed = post.sampled_log_prior(&theta) + post.likelihood_at(&theta, &mut g);
        let members: Vec<f64> = (0..steps)
            .map(|j| {
                let mut member = theta;
                member[Parameter::GeocentTime] += j as f64 * LATTICE_DT;
                let share = window.log_share(j, member[Parameter::GeocentTime]).0;
                share + plain.log_prior(&member) + plain.likelihood_at(&member, &mut g)
            })
            .collect();
        let expected = tdpe_likelihood::log_sum_exp::log_sum_exp(&members);
        assert!(
            (summed - expected).abs() < 1e-9,
            "{time}: {summed} vs {expected}"
        );
    }
    let center = post.to_y(&THETA);
    let scales = vec![0.3; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    for time in times {
        let mut theta = THETA;
        theta[Parameter::GeocentTime] = time;
        assert_gradient_matches(&post, &post.to_x(&theta));
    }
}

/// Summed over time steps, the orbit's members are the windows' starts within the lattice, one
/// polarity each, and their weights differ as the density of the members does.
#[test]
fn time_orbit_weights_follow_the_summed_density() {
    let steps = 8;
    let options = CoordinateOptions {
        time_steps: steps,
        ..CoordinateOptions::default()
    };
    let mut post = lattice_posterior(GW150914_LIKE_PRIOR, &options);
    let center = post.to_y(&THETA);
    let scales = vec![0.3; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    // Near the time prior's lower edge, where the steps' shares ramp.
    let mut theta = THETA;
    theta[Parameter::GeocentTime] = -0.085;
    let x = post.to_x(&theta);
    let mut weights = Vec::new();
    let current = Space::orbit(&post, 0, &x, &mut weights).unwrap();
    assert_eq!(weights.len(), 2 * LATTICE_STEPS as usize + 1 - (steps - 1));
    assert_eq!(current, LATTICE_STEPS as usize);
    let weight = |i: usize| weights[i][0] + weights[i][1];
    let mut g = vec![0.0; x.len()];
    let log_p = post.log_density_and_gradient(&x, &mut g);
    for offset in [-25isize, -12, -1, 1, 17, 43] {
        let mut image = vec![0.0; x.len()];
        let log_det = Space::orbit_image(&post, 0, &x, offset, &mut image).unwrap();
        let got = post.log_density_and_gradient(&image, &mut g) + log_det - log_p;
        let expected = weight(current.checked_add_signed(offset).unwrap()) - weight(current);
        assert!(
            (got - expected).abs() < 1e-8,
            "{offset}: {got} vs {expected}"
        );
    }
    // The time prior's lower edge is at −0.1 s: members that start below it have no weight,
    // and the windows just above it share their steps with the ramps (less weight).
    assert_eq!(weight(0), f64::NEG_INFINITY);
    assert!(weight(current - 29) < weight(current) - 0.5);
}

/// The default prior without its mass constraints (every prior draw is a draw).
fn unconstrained_prior() -> String {
    GW150914_LIKE_PRIOR
        .lines()
        .filter(|l| !l.contains("Constraint"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// 200 draws of `theta` moved by U(−w/2, w/2) in each `(parameter, w)` of `widths`: the
/// kernels of a draws proposal.
pub(super) fn draws_around(
    theta: &ParameterVector,
    widths: &[(Parameter, f64)],
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<ParameterVector> {
    (0..200)
        .map(|_| {
            let mut t = *theta;
            for &(parameter, width) in widths {
                t[parameter] += width * (rng.random::<f64>() - 0.5);
            }
            t
        })
        .collect()
}

/// Draws `post`'s independence proposals (a mixture of the prior and a kernel density estimate
/// with equal shares) and checks that their density is theirs: a draw comes from the prior with
/// probability ½ π_x(x)/q(x), π_x `copies` times the prior term (the copies of (phase, psi)),
/// whose mean over draws must then be ½. Returns the draws' last coordinates.
pub(super) fn assert_draws_come_from_the_prior_half_the_time<L: BbhLikelihood>(
    post: &Posterior<L>,
    copies: f64,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<f64> {
    let n = 4000;
    let mut from_prior = 0.0;
    let mut x = vec![0.0; Space::dim(post)];
    let mut g = vec![0.0; x.len()];
    let mut last = Vec::with_capacity(n);
    for _ in 0..n {
        let log_q = Space::independence_draw(post, rng, &mut x).unwrap();
        assert!((log_q - Space::independence_log_density(post, &x)).abs() < 1e-9);
        let log_prior = post.prior_term(&post.forward(&x), &mut g) + copies.ln();
        from_prior += 0.5 * (log_prior - log_q).exp();
        last.push(x[x.len() - 1]);
    }
    let mean = from_prior / n as f64;
    assert!((mean - 0.5).abs() < 0.03, "{mean}");
    last
}

/// The independence proposal's density is that of its draws: drawn from the mixture of the
/// prior and a kernel density estimate with equal shares, a draw comes from the prior with
/// probability ½ π_x(x)/q(x), whose mean over draws is then ½; with the prior's density off by
/// the four copies of (phase, psi) the circular phases fold together, it would be 4/5.
#[test]
fn independence_proposals_have_the_density_of_their_draws() {
    let unconstrained = unconstrained_prior();
    let options = CoordinateOptions {
        time_steps: 8,
        independence_proposals: 1,
        ..CoordinateOptions::default()
    };
    let mut post = lattice_posterior(&unconstrained, &options);
    assert_eq!(post.equivalent_count(), 4);
    let center = post.to_y(&THETA);
    let scales = vec![0.3; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    // Draws around THETA for the kernels.
    let widths = [
        (Parameter::ChirpMass, 0.5),
        (Parameter::MassRatio, 0.02),
        (Parameter::Chi1, 0.05),
        (Parameter::Chi2, 0.05),
        (Parameter::ThetaJn, 0.1),
        (Parameter::Ra, 0.1),
        (Parameter::Dec, 0.1),
        (Parameter::GeocentTime, 1e-3),
        (Parameter::Psi, 1.0),
        (Parameter::Phase, 2.0),
    ];
    let draws = draws_around(&THETA, &widths, &mut rng);
    assert!(post.use_draws_proposal(&draws, 0.5));
    assert_draws_come_from_the_prior_half_the_time(&post, 4.0, &mut rng);
}

/// As [`independence_proposals_have_the_density_of_their_draws`] with the unfolded circular
/// phases of a model with higher modes: the draws land on one of the four points over their
/// parameters, and the density, summed over the four, is that of the draws on the parameters
/// (without the sum the mean would be 2).
#[test]
fn independence_proposals_on_the_cover_have_the_density_of_their_draws() {
    let unconstrained = unconstrained_prior();
    let options = CoordinateOptions {
        independence_proposals: 1,
        ..CoordinateOptions::default()
    };
    let higher_modes = Mock {
        higher_modes: true,
        ..mock()
    };
    let mut post = Posterior::new(
        priors(&unconstrained),
        higher_modes,
        &options,
        &network(&["H1", "L1"]),
    );
    assert_eq!(post.cover_shifts().len(), 4);
    let center = post.to_y(&THETA);
    let scales = vec![0.3; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let widths = [
        (Parameter::ChirpMass, 0.5),
        (Parameter::MassRatio, 0.02),
        (Parameter::ThetaJn, 0.1),
        (Parameter::Psi, 1.0),
        (Parameter::Phase, 2.0),
        (Parameter::GeocentTime, 1e-3),
    ];
    let draws = draws_around(&THETA, &widths, &mut rng);
    assert!(post.use_draws_proposal(&draws, 0.5));
    assert_draws_come_from_the_prior_half_the_time(&post, 4.0, &mut rng);
}
