//! The posterior of bilby's precessing priors.

use super::moves::{assert_draws_come_from_the_prior_half_the_time, draws_around};
use super::*;

/// bilby's precessing priors (GW150914-like masses, sky and time).
fn precessing_prior() -> String {
    GW150914_LIKE_PRIOR.replace(
        "chi_1 = Uniform(name='chi_1', minimum=-0.99, maximum=0.99)\n\
         chi_2 = Uniform(name='chi_2', minimum=-0.99, maximum=0.99)",
        "a_1 = Uniform(name='a_1', minimum=0, maximum=0.99)\n\
         a_2 = Uniform(name='a_2', minimum=0, maximum=0.99)\n\
         tilt_1 = Sine(name='tilt_1')\n\
         tilt_2 = Sine(name='tilt_2')\n\
         phi_12 = Uniform(name='phi_12', minimum=0, maximum=2 * np.pi, boundary='periodic')\n\
         phi_jl = Uniform(name='phi_jl', minimum=0, maximum=2 * np.pi, boundary='periodic')",
    )
}

/// A parameter vector inside [`precessing_prior`].
const PRECESSING_THETA: ParameterVector = SpinModel::Precessing.vector(&[
    28.0, 0.7, 0.3, 0.5, 1.0, 2.0, 1.0, 4.0, 1200.0, 2.6, 0.6, 1.3, 0.02, 1.95, -1.27,
]);

/// With precessing spins the sky-ring reflection is reported as not applied; the spins
/// are sampled as spin vectors with the inclination and the phase at the peak of the
/// co-precessing (2,2) mode, or, with bilby's coordinates, as the fifteen parameters (less the
/// marginalised distance), the tilts through their Sine priors and the azimuths periodically.
/// Either way θ makes the round trip through x, the gradient is that of the density, and the
/// inclination mirror, which also turns φ_jl by π, is an involution with its determinant.
#[test]
fn precessing_priors_switch_off_what_holds_for_aligned_spins() {
    let text = precessing_prior();
    let bilby_coordinates = CoordinateOptions {
        intrinsic_coordinates: IntrinsicCoordinates::Components,
        phase_coordinate: PhaseCoordinate::Reference,
        ..CoordinateOptions::default()
    };
    for (options, vectors) in [
        (CoordinateOptions::default(), true),
        (bilby_coordinates, false),
    ] {
        let post = Posterior::new(priors(&text), mock(), &options, &network(&["H1", "L1"]));
        let refused: Vec<&str> = post.not_applied().iter().map(|n| n.option).collect();
        assert_eq!(refused, ["sky_ring_reflection"]);
        assert_eq!(Space::dim(&post), 14);
        assert_eq!(Space::mirror_count(&post), 1);
        assert!(!post.sampled_names().contains(&"chi_1"));
        for name in ["tilt_1", "phi_jl"] {
            assert!(post.sampled_names().contains(&name));
        }
        let coordinate = |p: Parameter| post.coordinates[post.coordinate_of(p).unwrap()].transform;
        let (tilt, azimuth) = if vectors {
            (Transform::Identity, Transform::Identity)
        } else {
            (
                Transform::Logit {
                    lower: 0.0,
                    upper: PI,
                },
                Transform::Periodic {
                    lower: 0.0,
                    upper: TAU,
                },
            )
        };
        assert_eq!(coordinate(Parameter::Tilt2), tilt);
        assert_eq!(coordinate(Parameter::Phi12), azimuth);
        let theta = PRECESSING_THETA;
        let x = post.to_x(&theta);
        let back = post.parameters(&x);
        let phases = [Parameter::Phase, Parameter::Psi];
        for (parameter, _) in post.priors().iter() {
            if parameter != Parameter::LuminosityDistance && !phases.contains(&parameter) {
                assert!(
                    (back[parameter] - theta[parameter]).abs() < 1e-9,
                    "{parameter:?}: {} against {}",
                    back[parameter],
                    theta[parameter]
                );
            }
        }
        // (φ, ψ) come back as one of the four copies the (2,±2) mock cannot tell apart:
        // (φ + π/2, ψ + π/2) and φ + π.
        let [d_phase, d_psi] = phases.map(|p| back[p] - theta[p]);
        let off_lattice = |angle: f64| {
            let r = angle.rem_euclid(PI / 2.0);
            r.min(PI / 2.0 - r)
        };
        assert!(off_lattice(d_psi) < 1e-9);
        assert!(
            (d_phase - d_psi)
                .rem_euclid(PI)
                .min(PI - (d_phase - d_psi).rem_euclid(PI))
                < 1e-9
        );
        assert_gradient_matches(&post, &x);
        // Both coordinate systems are symmetric under the mirror: it keeps volume.
        let turned = |theta: &ParameterVector, image: &ParameterVector| {
            let turn = (image[Parameter::PhiJl] - theta[Parameter::PhiJl]).rem_euclid(TAU);
            (image[Parameter::ThetaJn] - (PI - theta[Parameter::ThetaJn])).abs() < 1e-9
                && (turn - PI).abs() < 1e-9
        };
        assert_mirror_is_an_involution_with_its_determinant(&post, 0, &theta, true, turned);
        // Prior draws give finite coordinates (the independence proposals' and the widths').
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        assert!(post
            .prior_widths(200, &mut rng)
            .iter()
            .all(|w| w.is_finite() && *w > 0.0));
    }
    // The mirror turns φ_jl by π: a φ_jl prior that is not periodic keeps it off.
    let bounded = text.replace(
        "phi_jl = Uniform(name='phi_jl', minimum=0, maximum=2 * np.pi, boundary='periodic')",
        "phi_jl = Uniform(name='phi_jl', minimum=0, maximum=2 * np.pi)",
    );
    assert_ne!(bounded, text);
    let options = CoordinateOptions::default();
    let post = Posterior::new(priors(&bounded), mock(), &options, &network(&["H1", "L1"]));
    let mirror = post
        .not_applied()
        .iter()
        .find(|n| n.option == "inclination_mirror");
    assert_eq!(
        mirror.map(|n| n.reason),
        Some("phi_jl is not sampled with a prior periodic over 2π")
    );
}

/// The image chart (docs/sampling.md §4.5) replaces the mirror's jump: x's last coordinate is
/// the label, the jump flips its sign, and the image chart reads T(θ(x)), with the density and
/// gradient of the posterior there. Its independence draws, the label drawn with them, have
/// the density they are given.
#[test]
fn the_image_chart_reads_x_through_the_mirror() {
    let options = CoordinateOptions {
        independence_proposals: 1,
        ..CoordinateOptions::default()
    };
    // Without the mass constraints every prior draw is a proposal.
    let unconstrained: Vec<String> = precessing_prior()
        .lines()
        .filter(|l| !l.contains("Constraint"))
        .map(String::from)
        .collect();
    let mut post = Posterior::new(
        priors(&unconstrained.join("\n")),
        mock(),
        &options,
        &network(&["H1", "L1"]),
    );
    let theta = PRECESSING_THETA;
    let center = post.to_y(&theta);
    let scales: Vec<f64> = (0..center.len()).map(|i| 0.2 + 0.01 * i as f64).collect();
    post.standardize(Affine::diagonal(center, &scales));
    post.use_image_chart();
    assert_eq!(Space::dim(&post), 15);
    assert!(post.jumps.is_empty());
    assert_eq!(Space::mirror_count(&post), 1);

    let mut x = post.to_x(&theta);
    assert_eq!(x[14], LABEL_MODE);
    x.iter_mut().take(14).for_each(|v| *v += 0.2);
    let mut flipped = x.clone();
    flipped[14] = -x[14];
    let (read, image) = (post.parameters(&x), post.parameters(&flipped));
    let expected = post.image_chart.as_ref().unwrap().image(&read);
    for (a, b) in image.iter().zip(&expected) {
        assert!((a - b).abs() < 1e-12, "{image:?} against {expected:?}");
    }
    assert!((image[Parameter::ThetaJn] - (PI - read[Parameter::ThetaJn])).abs() < 1e-12);
    // The priors are symmetric under T; the likelihood is read at T(θ).
    let prior = |x: &[f64]| PriorLikelihood::log_prior(&post, x);
    assert!((prior(&x) - prior(&flipped)).abs() < 1e-12);
    let likelihood = PriorLikelihood::log_likelihood(&post, &flipped);
    assert_eq!(likelihood, post.likelihood_value(&expected));
    assert_ne!(likelihood, PriorLikelihood::log_likelihood(&post, &x));
    assert_gradient_matches(&post, &flipped);
    assert_gradient_matches(&post, &x);
    // x of a parameter vector in the image chart.
    let back = post.to_x_in_chart(&image, Some(flipped[14]));
    for (a, b) in back.iter().zip(&flipped) {
        assert!((a - b).abs() < 1e-9, "{back:?} against {flipped:?}");
    }
    let turned = |theta: &ParameterVector, image: &ParameterVector| {
        (image[Parameter::ThetaJn] - (PI - theta[Parameter::ThetaJn])).abs() < 1e-9
    };
    assert_mirror_is_an_involution_with_its_determinant(&post, 0, &theta, true, turned);

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let widths = [
        (Parameter::ChirpMass, 0.5),
        (Parameter::MassRatio, 0.02),
        (Parameter::A1, 0.05),
        (Parameter::A2, 0.05),
        (Parameter::Tilt1, 0.1),
        (Parameter::Tilt2, 0.1),
        (Parameter::Phi12, 0.3),
        (Parameter::PhiJl, 0.3),
        (Parameter::ThetaJn, 0.1),
        (Parameter::Ra, 0.1),
        (Parameter::Dec, 0.1),
        (Parameter::GeocentTime, 1e-3),
        (Parameter::Psi, 1.0),
        (Parameter::Phase, 2.0),
    ];
    let draws = draws_around(&theta, &widths, &mut rng);
    assert!(post.use_draws_proposal(&draws, 0.5));
    let copies = (post.equivalent_count() * post.cover_shifts().len()) as f64;
    let labels = assert_draws_come_from_the_prior_half_the_time(&post, copies, &mut rng);
    let negative = labels.iter().filter(|u| **u < 0.0).count() as f64 / labels.len() as f64;
    assert!((negative - 0.5).abs() < 0.05, "{negative}");
}
