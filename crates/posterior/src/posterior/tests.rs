//! The posterior against a smooth mock likelihood: round trips, gradients against finite
//! differences, the prior measure of each coordinate map, and the jumps' determinants.

use num_complex::Complex64;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{InnerProducts, TimeLattice};
use tdpe_signal::{SignalModel, SpinModel};

use super::*;
use crate::coordinates::sky_frame::DetectorFrameSky;
use crate::jumps::sky_ring::sky_separation;
use crate::prior::{PriorFile, GW150914_LIKE_PRIOR};

mod precessing;

mod moves;
mod phase;

/// A smooth mock with a template ∝ 1/D_L: with u = μ_D/D_L and
/// b(θ) = −½ Σ_{k≠D} w_k (θ_k − μ_k)² + 0.3 sin φ cos ψ, ⟨d|h⟩ = u (ρ² + b) and
/// ⟨h|h⟩ = u² ρ² (ρ² = [`MOCK_SNR2`]), so ln L = u(ρ² + b) − ½u²ρ²; failing for chi_1 > 0.9.
struct Mock {
    mu: ParameterVector,
    w: ParameterVector,
    /// Whether the mock stands for a model with higher modes (its density tells (φ, ψ) from
    /// the other three with the same φ ± ψ modulo π either way).
    higher_modes: bool,
}

const MOCK_SNR2: f64 = 100.0;

impl Mock {
    /// The inner products and their θ-gradients.
    fn parts(
        &self,
        p: &BbhParameters,
    ) -> Result<(InnerProducts, ParameterVector, ParameterVector), LikelihoodError> {
        let t = p.to_array();
        if t[Parameter::Chi1] > 0.9 {
            return Err(LikelihoodError::InvalidInput("chi_1 too large".into()));
        }
        let (phase, psi) = (t[Parameter::Phase], t[Parameter::Psi]);
        let mut b = 0.3 * phase.sin() * psi.cos();
        let mut db = [0.0; tdpe_signal::NUM_PARAMETERS];
        for &k in SpinModel::Aligned.parameters() {
            if k != Parameter::LuminosityDistance {
                b -= 0.5 * self.w[k] * (t[k] - self.mu[k]).powi(2);
                db[k] = -self.w[k] * (t[k] - self.mu[k]);
            }
        }
        db[Parameter::Phase] += 0.3 * phase.cos() * psi.cos();
        db[Parameter::Psi] -= 0.3 * phase.sin() * psi.sin();
        let distance = t[Parameter::LuminosityDistance];
        let u = self.mu[Parameter::LuminosityDistance] / distance;
        let ip = InnerProducts {
            d_h: u * (MOCK_SNR2 + b),
            h_h: u * u * MOCK_SNR2,
        };
        let mut d_dh = db.map(|g| u * g);
        d_dh[Parameter::LuminosityDistance] = -ip.d_h / distance;
        let mut d_hh = [0.0; tdpe_signal::NUM_PARAMETERS];
        d_hh[Parameter::LuminosityDistance] = -2.0 * ip.h_h / distance;
        Ok((ip, d_dh, d_hh))
    }
}

/// F of the inner products `parts` and its gradient by the chain rule through theirs.
fn chained(
    (ip, d_dh, d_hh): (InnerProducts, ParameterVector, ParameterVector),
    f: &dyn Fn(InnerProducts) -> [f64; 3],
    g: &mut ParameterVector,
) -> f64 {
    let [value, f_d, f_h] = f(ip);
    for k in 0..tdpe_signal::NUM_PARAMETERS {
        g[k] = f_d * d_dh[k] + f_h * d_hh[k];
    }
    value
}

impl BbhLikelihood for Mock {
    fn is_22_only(&self) -> bool {
        !self.higher_modes
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

/// The priors of a prior file's text, for a model at the default run's epoch.
fn priors(prior_text: &str) -> PriorSet {
    let file = PriorFile::parse(prior_text, "test").unwrap();
    let epoch = GpsTime::from_f64(1126259462.4).unwrap();
    let model = SignalModel::new(vec![], epoch, 20.0, 1.0 / 2048.0).unwrap();
    PriorSet::resolve(file, &model, 1126259462.4).unwrap()
}

fn mock() -> Mock {
    let mu =
        SpinModel::Aligned.vector(&[30.0, 0.8, 0.1, -0.1, 1000.0, 2.0, 0.5, 1.0, 0.01, 2.0, -1.0]);
    let w = SpinModel::Aligned.vector(&[0.5, 10.0, 4.0, 4.0, 1e-5, 1.0, 1.0, 1.0, 1e4, 1.0, 1.0]);
    Mock {
        mu,
        w,
        higher_modes: false,
    }
}

/// The posterior of a prior file's text in bilby's parameters.
fn posterior(prior_text: &str) -> Posterior<Mock> {
    Posterior::in_parameters(priors(prior_text), mock())
}

/// With the default priors every requested coordinate and jump applies; where the priors or
/// the network do not allow one, it is reported and the others still apply.
#[test]
fn options_report_what_does_not_apply() {
    let options = CoordinateOptions::default();
    let h1l1 = network(&["H1", "L1"]);
    let post = Posterior::new(priors(GW150914_LIKE_PRIOR), mock(), &options, &h1l1);
    assert_eq!(post.not_applied(), &[]);
    assert_eq!(Space::dim(&post), 10);
    assert_eq!(Space::mirror_count(&post), 1 + options::SKY_RING_PLANES);
    assert_gradient_matches(&post, &post.to_x(&THETA));

    let refused = |post: &Posterior<Mock>| -> Vec<&str> {
        post.not_applied().iter().map(|n| n.option).collect()
    };
    // One detector: no pair frame, no sky ring.
    let post = Posterior::new(
        priors(GW150914_LIKE_PRIOR),
        mock(),
        &options,
        &network(&["H1"]),
    );
    assert_eq!(refused(&post), ["reference_frame", "sky_ring_reflection"]);
    assert_eq!(Space::mirror_count(&post), 1);
    // Three detectors: the frame of the longest baseline (equal SNRs), one reflection through
    // the plane of the three sites; with K1 too, the sites are in no plane.
    let hlv = network(&["H1", "L1", "V1"]);
    let post = Posterior::new(priors(GW150914_LIKE_PRIOR), mock(), &options, &hlv);
    assert_eq!(post.not_applied(), &[]);
    assert_eq!(Space::mirror_count(&post), 2);
    assert_gradient_matches(&post, &post.to_x(&THETA));
    let choices = post.sky_choices();
    assert_eq!(
        (
            choices.reference_frame.as_str(),
            choices.time_reference.as_str()
        ),
        ("H1V1", "H1")
    );
    assert!(choices
        .sky_reflection
        .unwrap()
        .contains("H1 and L1 signals"));
    let hlvk = network(&["H1", "L1", "V1", "K1"]);
    let post = Posterior::new(priors(GW150914_LIKE_PRIOR), mock(), &options, &hlvk);
    assert_eq!(refused(&post), ["sky_ring_reflection"]);
    assert_eq!(Space::mirror_count(&post), 1);
    assert_eq!(post.sky_choices().sky_reflection, None);
    let h1l1_choices = Posterior::new(priors(GW150914_LIKE_PRIOR), mock(), &options, &h1l1);
    assert_eq!(
        h1l1_choices.sky_choices().sky_reflection.as_deref(),
        Some("through 3 planes about the H1-L1 baseline")
    );
    // A fixed spin: no effective spin (the symmetric mass ratio still applies).
    let chi_2 = "chi_2 = Uniform(name='chi_2', minimum=-0.99, maximum=0.99)";
    assert!(
        GW150914_LIKE_PRIOR.contains(chi_2),
        "the default prior's chi_2 line changed"
    );
    let fixed_spin = GW150914_LIKE_PRIOR.replace(chi_2, "chi_2 = 0.1");
    let post = Posterior::new(priors(&fixed_spin), mock(), &options, &h1l1);
    assert_eq!(refused(&post), ["intrinsic_coordinates (effective spin)"]);
    assert!(post
        .coordinates
        .iter()
        .any(|c| matches!(c.transform, Transform::SymmetricMassRatio { .. })));
    // A fixed mass ratio; ra periodic over [−π, π), which the detector frame cannot give.
    let q = "mass_ratio = bilby.gw.prior.UniformInComponentsMassRatio(name='mass_ratio', minimum=0.25, maximum=1)";
    let ra = "ra = Uniform(name='ra', minimum=0, maximum=2 * np.pi, boundary='periodic')";
    assert!(GW150914_LIKE_PRIOR.contains(q) && GW150914_LIKE_PRIOR.contains(ra));
    let text = GW150914_LIKE_PRIOR.replace(q, "mass_ratio = 0.8").replace(
        ra,
        &ra.replace(
            "minimum=0, maximum=2 * np.pi",
            "minimum=-np.pi, maximum=np.pi",
        ),
    );
    let post = Posterior::new(priors(&text), mock(), &options, &h1l1);
    let reasons: Vec<(&str, &str)> = post
        .not_applied()
        .iter()
        .map(|n| (n.option, n.reason))
        .collect();
    assert_eq!(
        reasons,
        [
            (
                "intrinsic_coordinates (symmetric mass ratio)",
                "mass_ratio is not sampled"
            ),
            (
                "constrained_chirp_mass",
                "chirp_mass and mass_ratio are not both sampled"
            ),
            (
                "reference_frame",
                "ra's prior is periodic but not over [0, 2π)"
            ),
        ]
    );
    // Options not asked for are not reported.
    let none = CoordinateOptions {
        distance_marginalization: false,
        phase_marginalization: false,
        intrinsic_coordinates: IntrinsicCoordinates::Components,
        constrained_chirp_mass: false,
        reference_frame: ReferenceFrame::Sky,
        phase_coordinate: PhaseCoordinate::Reference,
        circular_phases: false,
        inclination_mirror: false,
        sky_ring_reflection: false,
        time_orbit: false,
        time_steps: 0,
        independence_proposals: 0,
    };
    let post = Posterior::new(priors(&fixed_spin), mock(), &none, &network(&["H1"]));
    assert_eq!(post.not_applied(), &[]);
    assert_eq!(Space::dim(&post), 10);
    assert_eq!(Space::mirror_count(&post), 0);
}

#[test]
fn gradient_matches_finite_differences() {
    let mut post = posterior(GW150914_LIKE_PRIOR);
    assert_eq!(Space::dim(&post), 11);
    let theta = THETA;
    // A full (non-symmetric) A with a known inverse: A = D(I + εN), N strictly lower.
    let scales = [0.1, 0.2, 0.3, 0.3, 0.1, 0.2, 0.5, 0.5, 0.01, 0.3, 0.2];
    let mut affine = Affine::diagonal(post.to_y(&theta), &scales);
    affine.matrix[3 * 11 + 2] = 0.05;
    affine.inverse[3 * 11 + 2] = -0.05 / (0.3 * 0.3);
    post.standardize(affine);
    let x0 = post.to_x(&theta);
    assert!(x0.iter().all(|v| v.abs() < 1e-9), "{x0:?}");
    let back = post.parameters(&x0);
    for k in 0..tdpe_signal::NUM_PARAMETERS {
        assert!(
            (back[k] - theta[k]).abs() < 1e-9 * (1.0 + theta[k].abs()),
            "{k}"
        );
    }
    for x in [
        x0.clone(),
        vec![0.3, -0.5, 0.2, 0.1, -0.7, 0.4, 9.0, -8.0, 0.5, 12.0, 0.3],
    ] {
        assert_gradient_matches(&post, &x);
    }
}

/// ∇ ln p against central differences at `x`.
fn assert_gradient_matches<L: BbhLikelihood>(post: &Posterior<L>, x: &[f64]) {
    let n = x.len();
    let mut g = vec![0.0; n];
    let f = post.log_density_and_gradient(x, &mut g);
    assert!(f.is_finite());
    // The density alone, as independence proposals see it, and as tempering splits it.
    let alone = LogDensity::log_density(post, x);
    assert!((alone - f).abs() < 1e-9 * (1.0 + f.abs()), "{alone} vs {f}");
    let split = PriorLikelihood::log_prior(post, x) + PriorLikelihood::log_likelihood(post, x);
    assert!((split - f).abs() < 1e-9 * (1.0 + f.abs()), "{split} vs {f}");
    for i in 0..n {
        let h = 1e-6;
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[i] += h;
        xm[i] -= h;
        let mut scratch = vec![0.0; n];
        let fd = (post.log_density_and_gradient(&xp, &mut scratch)
            - post.log_density_and_gradient(&xm, &mut scratch))
            / (2.0 * h);
        assert!(
            (fd - g[i]).abs() < 1e-5 * (1.0 + g[i].abs()),
            "coordinate {i}: fd {fd} vs {}",
            g[i]
        );
    }
}

/// A parameter vector inside the default priors.
const THETA: ParameterVector = SpinModel::Aligned.vector(&[
    28.0, 0.7, 0.2, -0.3, 1200.0, 2.6, 0.6, 1.3, 0.02, 1.95, -1.27,
]);

/// θ → x → θ at [`THETA`], and the gradient there and at a far point.
fn assert_round_trip_and_gradients(post: &Posterior<Mock>) {
    let x0 = post.to_x(&THETA);
    let back = post.parameters(&x0);
    for k in 0..tdpe_signal::NUM_PARAMETERS {
        assert!(
            (back[k] - THETA[k]).abs() < 1e-9 * (1.0 + THETA[k].abs()),
            "{k}"
        );
    }
    assert_gradient_matches(post, &x0);
    assert_gradient_matches(
        post,
        &[0.3, -0.5, 0.2, 0.1, -0.7, 0.4, 9.0, -8.0, 0.5, 1.2, 3.3],
    );
}

/// In the H1–L1 frame: θ → x → θ round trip, the gradient, and the prior measure (the
/// isotropic ra/dec prior becomes sin(zenith) × uniform azimuth, so ln π + ln|det| in s
/// equals ln sin(zenith) up to a constant).
#[test]
fn detector_frame_sky() {
    let mut post = posterior(GW150914_LIKE_PRIOR);
    let h1 = Detector::from_name("H1").unwrap();
    let l1 = Detector::from_name("L1").unwrap();
    let h1l1 = network(&["H1", "L1"]);
    post.use_detector_frame(&h1l1).unwrap();
    assert_round_trip_and_gradients(&post);
    let sky = DetectorFrameSky::new(&h1, &l1, h1l1.gmst).unwrap();
    let mut offsets = Vec::new();
    for (zenith, azimuth) in [(0.3, 0.2), (1.0, 2.0), (2.2, 4.0), (2.9, 5.9)] {
        let mut s = THETA;
        (
            s[Parameter::GeocentTime],
            s[Parameter::Ra],
            s[Parameter::Dec],
        ) = (0.01, zenith, azimuth);
        let (t, jacobian) = sky.theta(&s);
        let ln_prior: f64 = [Parameter::Ra, Parameter::Dec]
            .iter()
            .map(|&p| post.priors.prior(p).distribution.ln_pdf(t[p]))
            .sum();
        offsets.push(ln_prior + jacobian.log_det - f64::ln(zenith.sin()));
    }
    assert!(
        offsets.iter().all(|o| (o - offsets[0]).abs() < 1e-12),
        "{offsets:?}"
    );
}

/// The posterior of a prior file sampled in η, (χ_eff, u) and the H1–L1 frame.
fn posterior_in_effective_coordinates(prior_text: &str) -> Posterior<Mock> {
    let mut post = posterior(prior_text);
    post.use_effective_spin().unwrap();
    post.use_symmetric_mass_ratio().unwrap();
    post.use_detector_frame(&network(&["H1", "L1"])).unwrap();
    post
}

/// With η, (χ_eff, u) and the H1–L1 frame together: round trip and gradient.
#[test]
fn effective_spin_coordinates() {
    assert_round_trip_and_gradients(&posterior_in_effective_coordinates(GW150914_LIKE_PRIOR));
}

/// The chirp mass within the constraints' range, with and without the η transform: round
/// trip and gradient (also near the m₁ = 80 wall), and every point of x, however far out along
/// the chirp-mass coordinate, inside the constraints with a finite density.
#[test]
fn constrained_chirp_mass_coordinates() {
    for effective in [false, true] {
        let mut post = posterior(GW150914_LIKE_PRIOR);
        if effective {
            post.use_symmetric_mass_ratio().unwrap();
        }
        post.use_constrained_chirp_mass().unwrap();
        post.use_effective_spin().unwrap();
        assert_round_trip_and_gradients(&post);
        // M_c = 36.8 at q = 0.3: m₁ ≈ 79.9, 0.1 M☉ from the wall.
        let mut near_wall = THETA;
        (
            near_wall[Parameter::ChirpMass],
            near_wall[Parameter::MassRatio],
        ) = (36.8, 0.3);
        assert!(post.log_prior(&near_wall).is_finite());
        assert_gradient_matches(&post, &post.to_x(&near_wall));
        let mc = post.coordinate_of(Parameter::ChirpMass).unwrap();
        for far in [-30.0, 30.0] {
            let mut x = post.to_x(&near_wall);
            x[mc] = far;
            let theta = post.parameters(&x);
            assert!(post.priors.constraints_hold(&theta), "{theta:?}");
            let mut g = vec![0.0; x.len()];
            assert!(post.log_density_and_gradient(&x, &mut g).is_finite());
        }
    }
    // Without constraints there is nothing to map.
    let text = GW150914_LIKE_PRIOR
        .lines()
        .filter(|l| !l.contains("Constraint"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut post = posterior(&text);
    post.use_constrained_chirp_mass().unwrap();
    assert!(post.maps.theta(&THETA).1.is_empty());
}

/// (phase + psi, phase − psi): round trip, gradient, the density's normalisation, and when
/// the map is not offered.
#[test]
fn circular_phase_coordinates() {
    let plain = posterior_in_effective_coordinates(GW150914_LIKE_PRIOR);
    let mut post = posterior_in_effective_coordinates(GW150914_LIKE_PRIOR);
    post.use_circular_phases().unwrap();
    assert_round_trip_and_gradients(&post);
    // Uniform (φ, ψ) over [0, 2π) × [0, π) becomes the uniform density 1/π² on the torus
    // [0, π)² of (α, δ).
    let mut g = vec![0.0; 11];
    let with = PriorLikelihood::log_prior_and_gradient(&post, &post.to_x(&THETA), &mut g);
    let without = PriorLikelihood::log_prior_and_gradient(&plain, &plain.to_x(&THETA), &mut g);
    let uniform_phase_psi = -(2.0 * std::f64::consts::PI.powi(2)).ln();
    let torus = with - (without - uniform_phase_psi);
    assert!(
        (torus + 2.0 * std::f64::consts::PI.ln()).abs() < 1e-12,
        "{torus}"
    );
    // Each of the four equivalent parameter vectors has the same x.
    let x = post.to_x(&THETA);
    for k in 1..4 {
        let other = post.equivalent_parameters(&THETA, k);
        assert!((other[Parameter::Phase] - THETA[Parameter::Phase]).abs() > 0.1);
        let x_other = post.to_x(&other);
        assert!(x.iter().zip(&x_other).all(|(a, b)| (a - b).abs() < 1e-9));
    }
    for (from, to) in [
        (
            "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi, boundary='periodic')",
            "phase = TruncatedGaussian(name='phase', mu=3, sigma=1, minimum=0, maximum=2 * np.pi, boundary='periodic')",
        ),
        (
            "psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')",
            "psi = Uniform(name='psi', minimum=0, maximum=2 * np.pi, boundary='periodic')",
        ),
        ("psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')", "psi = 0.6"),
    ] {
        let text = GW150914_LIKE_PRIOR.replace(from, to);
        assert_ne!(text, GW150914_LIKE_PRIOR, "the default prior's line changed: {from}");
        let mut post = posterior(&text);
        assert!(post.use_circular_phases().is_err(), "{to}");
        assert_eq!(post.equivalent_parameters(&THETA, 1), THETA);
    }
}

/// With higher modes the circular phases run over 4π each: the torus covers (φ, ψ)'s four
/// times, its four points over one (φ, ψ) have that density, the three other (φ, ψ) with the
/// same φ ± ψ modulo π are points of their own, and the jump that holds only up to them is
/// refused.
#[test]
fn unfolded_circular_phases_cover_every_phase_and_psi() {
    let higher_modes = || Mock {
        higher_modes: true,
        ..mock()
    };
    let in_effective_coordinates = |mut post: Posterior<Mock>| {
        post.use_effective_spin().unwrap();
        post.use_symmetric_mass_ratio().unwrap();
        post.use_detector_frame(&network(&["H1", "L1"])).unwrap();
        post
    };
    let in_parameters = || Posterior::in_parameters(priors(GW150914_LIKE_PRIOR), higher_modes());
    let plain = in_effective_coordinates(in_parameters());
    let mut post = in_effective_coordinates(in_parameters());
    post.use_circular_phases().unwrap();
    assert_eq!(
        post.maps.circular_phases().unwrap().copies(),
        Copies::Unfolded
    );
    assert_round_trip_and_gradients(&post);
    // Uniform (φ, ψ) over [0, 2π) × [0, π) becomes the uniform density 1/(16π²) on the torus
    // [0, 4π)² of (α, δ).
    let mut g = vec![0.0; 11];
    let x = post.to_x(&THETA);
    let with = PriorLikelihood::log_prior_and_gradient(&post, &x, &mut g);
    let without = PriorLikelihood::log_prior_and_gradient(&plain, &plain.to_x(&THETA), &mut g);
    let uniform_phase_psi = -(2.0 * PI.powi(2)).ln();
    let torus = with - (without - uniform_phase_psi);
    assert!((torus + (16.0 * PI.powi(2)).ln()).abs() < 1e-12, "{torus}");
    // The four points of the cover over THETA: the same parameters and density.
    let density = |x: &[f64]| LogDensity::log_density_and_gradient(&post, x, &mut [0.0; 11]);
    let y = post.affine.y(&x);
    for shift in post.cover_shifts() {
        let moved: Vec<f64> = y.iter().zip(&shift).map(|(a, b)| a + b).collect();
        let x_moved = post.affine.x(&moved);
        let theta = post.parameters(&x_moved);
        assert!(THETA.iter().zip(&theta).all(|(a, b)| (a - b).abs() < 1e-9));
        assert!((density(&x_moved) - density(&x)).abs() < 1e-9);
    }
    assert_eq!(post.cover_shifts().len(), 4);
    // The (φ, ψ) that folding would merge with THETA: other points, other densities.
    for k in 1..4 {
        assert_eq!(post.equivalent_parameters(&THETA, k), THETA);
        let shift = k as f64 * 0.5 * PI;
        let mut other = THETA;
        other[Parameter::Phase] = wrap(THETA[Parameter::Phase] + shift, 0.0, TAU);
        other[Parameter::Psi] = wrap(THETA[Parameter::Psi] + shift, 0.0, PI);
        let x_other = post.to_x(&other);
        assert!(x.iter().zip(&x_other).any(|(a, b)| (a - b).abs() > 0.1));
        assert!((density(&x_other) - density(&x)).abs() > 1e-3);
    }
    // In a run: applied, with the sky ring refused for the symmetry it needs (and the time
    // orbit for its lattice of the (2,2) mode).
    let options = CoordinateOptions::default();
    let post = Posterior::new(
        priors(GW150914_LIKE_PRIOR),
        higher_modes(),
        &options,
        &network(&["H1", "L1"]),
    );
    let refused: Vec<_> = post.not_applied().iter().map(|n| n.option).collect();
    assert_eq!(refused, ["sky_ring_reflection", "time_orbit"]);
    assert!(post.not_applied()[0].reason.contains("higher modes"));
    assert_eq!(Space::mirror_count(&post), 1);
}

/// The distance-marginalised log density at x equals the full posterior's integrated over
/// the distance coordinate, and its gradient matches finite differences.
#[test]
fn distance_marginalization_integrates_the_full_posterior() {
    let full = posterior(GW150914_LIKE_PRIOR);
    let mut marginal = posterior(GW150914_LIKE_PRIOR);
    marginal.use_distance_marginalization().unwrap();
    assert!(marginal.use_distance_marginalization().is_err());
    assert_eq!(Space::dim(&marginal), 10);
    assert!(!marginal.sampled_names().contains(&"luminosity_distance"));
    let i_distance = full.coordinate_of(Parameter::LuminosityDistance).unwrap();
    for theta in [
        THETA,
        SpinModel::Aligned.vector(&[31.0, 0.6, -0.2, 0.4, 700.0, 1.0, 2.0, 4.0, -0.03, 0.5, 0.3]),
    ] {
        let x_marginal = marginal.to_x(&theta);
        assert_gradient_matches(&marginal, &x_marginal);
        let mut g = vec![0.0; 10];
        let value = marginal.log_density_and_gradient(&x_marginal, &mut g);
        // ln ∫ p(x, x_D) dx_D over the distance coordinate (a logit of the bounded D) by
        // the trapezoid rule.
        let mut x_full = full.to_x(&theta);
        let mut g_full = vec![0.0; 11];
        let (n, half_width) = (40_000, 40.0);
        let step = 2.0 * half_width / n as f64;
        let logs: Vec<f64> = (0..=n)
            .map(|k| {
                x_full[i_distance] = -half_width + step * k as f64;
                full.log_density_and_gradient(&x_full, &mut g_full)
            })
            .collect();
        let peak = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let integral = peak + (step * logs.iter().map(|l| (l - peak).exp()).sum::<f64>()).ln();
        assert!((value - integral).abs() < 1e-6, "{value} vs {integral}");
        // The reported prior includes the distance's; a draw lies in its support.
        let mut drawn = theta;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        marginal.draw_marginalized(&mut drawn, &mut rng).unwrap();
        assert!((100.0..=5000.0).contains(&drawn[Parameter::LuminosityDistance]));
        assert!((marginal.log_prior(&drawn) - full.log_prior(&drawn)).abs() < 1e-12);
    }
}

#[test]
fn fixed_parameters_constraints_and_failures() {
    let text = GW150914_LIKE_PRIOR.replace(
        "chi_2 = Uniform(name='chi_2', minimum=-0.99, maximum=0.99)",
        "chi_2 = -0.2",
    );
    let post = posterior(&text);
    assert_eq!(Space::dim(&post), 10);
    assert!(!post.sampled_names().contains(&"chi_2"));
    let x = vec![0.0; 10];
    assert_eq!(post.parameters(&x)[Parameter::Chi2], -0.2);
    // chi_1 = 0.99·tanh(y/2) → above 0.9 the mock fails: −∞, not a panic.
    let mut x = vec![0.0; 10];
    x[2] = 5.0;
    let mut g = vec![0.0; 10];
    assert_eq!(post.log_density_and_gradient(&x, &mut g), f64::NEG_INFINITY);
    // M_c = 34 M☉: m1 ≈ 73.8 at q = 0.3 but ≈ 80.8 > 80 at q = 0.255 (rejected).
    let theta =
        SpinModel::Aligned.vector(&[34.0, 0.3, 0.0, -0.2, 1000.0, 2.0, 0.5, 1.0, 0.0, 2.0, -1.0]);
    assert!(post.log_prior(&theta).is_finite());
    let theta = SpinModel::Aligned.vector(&[
        34.0, 0.255, 0.0, -0.2, 1000.0, 2.0, 0.5, 1.0, 0.0, 2.0, -1.0,
    ]);
    assert_eq!(post.log_prior(&theta), f64::NEG_INFINITY);
}

#[test]
fn peak_phase_coordinate() {
    let mut post = posterior_in_effective_coordinates(GW150914_LIKE_PRIOR);
    let epoch = tdpe_detector::GpsTime::from_f64(1126259462.4).unwrap();
    let detectors = ["H1", "L1"].map(|name| Detector::from_name(name).unwrap());
    let model = SignalModel::new(detectors.to_vec(), epoch, 20.0, 1.0 / 2048.0).unwrap();
    post.use_peak_phase(&model).unwrap();
    // The mock's ln L depends on the phase, so the gradient test covers ∂θ_phase/∂λ.
    assert_round_trip_and_gradients(&post);
    // A phase prior over less than a turn keeps bilby's phase.
    let half_turn = GW150914_LIKE_PRIOR.replace(
        "phase = Uniform(name='phase', minimum=0, maximum=2 * np.pi, boundary='periodic')",
        "phase = Uniform(name='phase', minimum=0, maximum=np.pi, boundary='periodic')",
    );
    assert_ne!(
        half_turn, GW150914_LIKE_PRIOR,
        "the default prior's phase line changed"
    );
    let mut post = posterior(&half_turn);
    let model = SignalModel::new(vec![], epoch, 20.0, 1.0 / 2048.0).unwrap();
    assert!(post.use_peak_phase(&model).is_err());
}

#[test]
fn periodic_coordinates_wrap() {
    let post = posterior(GW150914_LIKE_PRIOR);
    let names = post.sampled_names();
    let phase = names.iter().position(|n| *n == "phase").unwrap();
    assert!(post.priors.prior(Parameter::Phase).is_periodic());
    let mut x = vec![0.0; 11];
    x[phase] = 1.0 + 4.0 * std::f64::consts::PI;
    let theta = post.parameters(&x);
    assert!((theta[Parameter::Phase] - 1.0).abs() < 1e-12);
    let mut g1 = vec![0.0; 11];
    let mut g2 = vec![0.0; 11];
    let a = post.log_density_and_gradient(&x, &mut g1);
    x[phase] = 1.0;
    let b = post.log_density_and_gradient(&x, &mut g2);
    assert!((a - b).abs() < 1e-9);
    assert!((g1[phase] - g2[phase]).abs() < 1e-9);
    // Canonicalised: the copy within half a period of the centre (0 here), same θ.
    x[phase] = 1.0 + 4.0 * std::f64::consts::PI;
    Space::canonicalize(&post, &mut x);
    assert!((x[phase] - 1.0).abs() < 1e-12, "{}", x[phase]);
    x[phase] = -2.0 * std::f64::consts::PI - 3.5;
    let before = post.parameters(&x);
    Space::canonicalize(&post, &mut x);
    assert!(x[phase].abs() <= std::f64::consts::PI, "{}", x[phase]);
    assert!((post.parameters(&x)[Parameter::Phase] - before[Parameter::Phase]).abs() < 1e-12);
}

/// ln|det M| of a square row-major matrix (Gaussian elimination, partial pivoting).
fn log_abs_det(mut m: Vec<f64>, n: usize) -> f64 {
    let mut log_det = 0.0;
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a * n + col].abs().total_cmp(&m[b * n + col].abs()))
            .unwrap();
        for k in 0..n {
            m.swap(col * n + k, pivot * n + k);
        }
        let d = m[col * n + col];
        log_det += d.abs().ln();
        for row in col + 1..n {
            let f = m[row * n + col] / d;
            for k in col..n {
                m[row * n + k] -= f * m[col * n + k];
            }
        }
    }
    log_det
}

/// The inclination mirror in the sampler's coordinates (η, (χ_eff, u), the H1–L1 frame, a
/// standardisation): an involution whose ln|det ∂x'/∂x| matches finite differences; not
/// offered when ψ's prior does not have period π.
#[test]
fn inclination_mirror_in_sampler_coordinates() {
    // θ_jn's bounds not symmetric about π/2, so that its logit's Jacobian changes.
    let asymmetric = GW150914_LIKE_PRIOR.replace(
        "theta_jn = Sine(name='theta_jn')",
        "theta_jn = Sine(name='theta_jn', minimum=0.05, maximum=3)",
    );
    assert_ne!(
        asymmetric, GW150914_LIKE_PRIOR,
        "the default prior's theta_jn line changed"
    );
    for circular in [false, true] {
        let mut post = posterior_in_effective_coordinates(&asymmetric);
        if circular {
            post.use_circular_phases().unwrap();
        }
        let center = post.to_y(&THETA);
        let scales = [0.1, 0.2, 0.3, 0.3, 0.1, 0.2, 0.5, 0.5, 0.01, 0.3, 0.2];
        post.standardize(Affine::diagonal(center, &scales));
        post.use_inclination_mirror(&network(&["H1"])).unwrap();
        assert_mirror_is_an_involution_with_its_determinant(
            &post,
            0,
            &THETA,
            false,
            |theta, image| {
                (image[Parameter::ThetaJn] - (std::f64::consts::PI - theta[Parameter::ThetaJn]))
                    .abs()
                    < 1e-12
            },
        );
    }

    let psi_two_pi = GW150914_LIKE_PRIOR.replace(
        "psi = Uniform(name='psi', minimum=0, maximum=np.pi, boundary='periodic')",
        "psi = Uniform(name='psi', minimum=0, maximum=2 * np.pi, boundary='periodic')",
    );
    assert_ne!(
        psi_two_pi, GW150914_LIKE_PRIOR,
        "the default prior's psi line changed"
    );
    let mut post = posterior(&psi_two_pi);
    assert!(post.use_inclination_mirror(&network(&["H1"])).is_err());
    let x = vec![0.1; 11];
    assert_eq!(Space::mirror(&post, 0, &x, &mut [0.0; 11]), None);
}

/// The sky-ring reflection in the sampler's coordinates (as the mirror's test, with the
/// circular phases), with the distance sampled and marginalised: an involution whose
/// ln|det ∂x'/∂x| matches finite differences; offered only with the circular phases.
#[test]
fn sky_ring_reflection_in_sampler_coordinates() {
    let h1l1 = network(&["H1", "L1"]);
    for marginalised in [false, true] {
        let mut post = posterior_in_effective_coordinates(GW150914_LIKE_PRIOR);
        if marginalised {
            post.use_distance_marginalization().unwrap();
        }
        assert_eq!(
            post.use_sky_ring_reflection(&h1l1),
            Err("it needs the circular phases or the marginalised phase")
        );
        post.use_circular_phases().unwrap();
        let center = post.to_y(&THETA);
        let scales = vec![0.2; center.len()];
        post.standardize(Affine::diagonal(center, &scales));
        post.use_sky_ring_reflection(&h1l1).unwrap();
        assert_eq!(Space::mirror_count(&post), options::SKY_RING_PLANES);
        for plane in 0..options::SKY_RING_PLANES {
            assert_mirror_is_an_involution_with_its_determinant(
                &post,
                plane,
                &THETA,
                false,
                |theta, image| sky_separation(theta, image) > 0.05,
            );
        }
    }
    // Three detectors, in their sky frame: the one reflection through their sites' plane.
    let hlv = network(&["H1", "L1", "V1"]);
    let mut post = posterior(GW150914_LIKE_PRIOR);
    post.use_symmetric_mass_ratio().unwrap();
    post.use_effective_spin().unwrap();
    post.use_detector_frame(&hlv).unwrap();
    post.use_circular_phases().unwrap();
    let center = post.to_y(&THETA);
    let scales = vec![0.2; center.len()];
    post.standardize(Affine::diagonal(center, &scales));
    post.use_sky_ring_reflection(&hlv).unwrap();
    assert_eq!(Space::mirror_count(&post), 1);
    assert_mirror_is_an_involution_with_its_determinant(&post, 0, &THETA, false, |theta, image| {
        sky_separation(theta, image) > 0.05
    });
}

/// Jump `which` of `post` near `center` satisfies `moved(θ, θ')`, maps its image back, and
/// its ln|det ∂x'/∂x| matches central differences, and is 0 exactly when `keeps_volume`.
fn assert_mirror_is_an_involution_with_its_determinant(
    post: &Posterior<Mock>,
    which: usize,
    center: &ParameterVector,
    keeps_volume: bool,
    moved: impl Fn(&ParameterVector, &ParameterVector) -> bool,
) {
    let n = Space::dim(post);
    // Off the center by 0.3 in every coordinate but the time, in seconds in the detector frame.
    let time = post.coordinate_of(Parameter::GeocentTime);
    let x: Vec<f64> = post
        .to_x(center)
        .iter()
        .enumerate()
        .map(|(i, v)| v + if Some(i) == time { 0.003 } else { 0.3 })
        .collect();
    let mut image = vec![0.0; n];
    let log_det = Space::mirror(post, which, &x, &mut image).unwrap();
    let theta = post.parameters(&x);
    let mirrored = post.parameters(&image);
    assert!(moved(&theta, &mirrored), "{theta:?} -> {mirrored:?}");
    let mut back = vec![0.0; n];
    let log_det_back = Space::mirror(post, which, &image, &mut back).unwrap();
    for (a, b) in back.iter().zip(&x) {
        assert!((a - b).abs() < 1e-9, "{back:?} vs {x:?}");
    }
    assert!(
        (log_det + log_det_back).abs() < 1e-12 * log_det.abs().max(1.0),
        "{log_det} + {log_det_back}"
    );
    // ∂x'/∂x by central differences.
    let h = 1e-6;
    let mut jacobian = vec![0.0; n * n];
    for j in 0..n {
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[j] += h;
        minus[j] -= h;
        let (mut image_plus, mut image_minus) = (vec![0.0; n], vec![0.0; n]);
        Space::mirror(post, which, &plus, &mut image_plus).unwrap();
        Space::mirror(post, which, &minus, &mut image_minus).unwrap();
        for i in 0..n {
            jacobian[i * n + j] = (image_plus[i] - image_minus[i]) / (2.0 * h);
        }
    }
    let numeric = log_abs_det(jacobian, n);
    assert!((numeric - log_det).abs() < 1e-6, "{numeric} vs {log_det}");
    assert_eq!(
        log_det.abs() < 1e-12,
        keeps_volume,
        "ln|det ∂x'/∂x| = {log_det}"
    );
}

/// The network of `names`, each detector with sensitivity 1, at the sidereal time 0.8 rad at
/// which the tolerances of the jumps' determinant tests were set.
fn network(names: &[&str]) -> Network {
    let detectors = names
        .iter()
        .map(|n| Detector::from_name(n).unwrap())
        .collect();
    let epoch = GpsTime::from_f64(1126259462.4).unwrap();
    let model = SignalModel::new(detectors, epoch, 20.0, 1.0 / 2048.0).unwrap();
    Network {
        gmst: 0.8,
        ..Network::new(model, vec![1.0; names.len()], vec![1.0; names.len()]).unwrap()
    }
}
