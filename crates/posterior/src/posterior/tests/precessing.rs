//! The posterior of bilby's precessing priors.

use super::*;

/// With precessing spins the sky-ring reflection is reported as not applied; the spins
/// are sampled as spin vectors with the inclination and the phase at the peak of the
/// co-precessing (2,2) mode, or, with bilby's coordinates, as the fifteen parameters (less the
/// marginalised distance), the tilts through their Sine priors and the azimuths periodically.
/// Either way θ makes the round trip through x, the gradient is that of the density, and the
/// inclination mirror, which also turns φ_jl by π, is an involution with its determinant.
#[test]
fn precessing_priors_switch_off_what_holds_for_aligned_spins() {
    let text = GW150914_LIKE_PRIOR.replace(
        "chi_1 = Uniform(name='chi_1', minimum=-0.99, maximum=0.99)\n\
         chi_2 = Uniform(name='chi_2', minimum=-0.99, maximum=0.99)",
        "a_1 = Uniform(name='a_1', minimum=0, maximum=0.99)\n\
         a_2 = Uniform(name='a_2', minimum=0, maximum=0.99)\n\
         tilt_1 = Sine(name='tilt_1')\n\
         tilt_2 = Sine(name='tilt_2')\n\
         phi_12 = Uniform(name='phi_12', minimum=0, maximum=2 * np.pi, boundary='periodic')\n\
         phi_jl = Uniform(name='phi_jl', minimum=0, maximum=2 * np.pi, boundary='periodic')",
    );
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
        let theta = SpinModel::Precessing.vector(&[
            28.0, 0.7, 0.3, 0.5, 1.0, 2.0, 1.0, 4.0, 1200.0, 2.6, 0.6, 1.3, 0.02, 1.95, -1.27,
        ]);
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
