//! Issue 4 acceptance: relative binning against the exact likelihood on the GW150914-like
//! injection (4 s at 2048 Hz, H1+L1, design PSD, Gaussian noise), at the fiducial, over
//! posterior-like and twice-as-wide points, and its gradient.

mod gw150914_like;

use gw150914_like::{
    aligned, assert_reproduces, draw_points, noisy_injection, quantiles, ALIGNED, SIGMA,
};
use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, InnerProducts, QuadratureProducts,
    RelativeBinningOptions,
};
use tdpe_signal::{BbhParameters, NUM_PARAMETERS};

fn truth() -> BbhParameters {
    BbhParameters::gw150914_like()
}

fn exact() -> BbhExactLikelihood {
    noisy_injection(2048.0, 4.0)
}

#[test]
fn relative_binning_reproduces_the_exact_likelihood() {
    let exact = exact();
    let rb = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    let nodes = rb.node_counts();
    println!("nodes per detector: {nodes:?}");
    assert!(nodes.iter().all(|&b| b <= 160), "{nodes:?}");

    let at_fiducial = exact.log_likelihood_ratio(&truth()).unwrap();
    let rb_fiducial = rb.log_likelihood_ratio(&truth()).unwrap();
    println!("at the fiducial: exact {at_fiducial}, RB {rb_fiducial}");
    assert!((rb_fiducial - at_fiducial).abs() <= 1e-6);

    for (label, width, depth, tolerance, seed) in [
        ("posterior", 1.0, 10.0, 5e-4, 11),
        ("wide", 2.0, 40.0, 2e-3, 12),
    ] {
        // 200 points each were measured for the report (tdpe-likelihood example
        // `rb_accuracy`); CI checks 40 of each to stay fast.
        let points = draw_points(&exact, at_fiducial, width, depth, 40, seed);
        assert_reproduces(&rb, &points, label, tolerance);
    }
}

/// Each detector's ⟨d|h⟩ and ⟨h|h⟩ (the posterior's per-detector SNR columns) follow the exact
/// likelihood's, and sum to the network's.
#[test]
fn per_detector_inner_products_match_the_exact_likelihood() {
    let exact = exact();
    let rb = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    let at_fiducial = exact.log_likelihood_ratio(&truth()).unwrap();
    for (p, _) in draw_points(&exact, at_fiducial, 1.0, 10.0, 10, 13) {
        let per_detector = rb.detector_inner_products(&p).unwrap();
        let reference = exact.detector_terms(&p).unwrap();
        assert_eq!(per_detector.len(), 2);
        for (rb_terms, exact_terms) in per_detector.iter().zip(&reference) {
            // Each product is a little less accurate than ln L, where their errors cancel in
            // part (~1e-3 of ~500 here, against ~1e-4): the SNRs to a few parts in 10⁶.
            let optimal = rb_terms.optimal_snr();
            let matched_filter = rb_terms.matched_filter_snr();
            assert!(
                (optimal / exact_terms.optimal_snr - 1.0).abs() <= 1e-5,
                "{rb_terms:?} {exact_terms:?}"
            );
            assert!(
                (matched_filter - exact_terms.matched_filter_snr).abs() <= 1e-4,
                "{rb_terms:?} {exact_terms:?}"
            );
        }
        let total = rb.inner_products(&p).unwrap();
        let summed: f64 = per_detector.iter().map(|t| t.d_h).sum();
        assert!((summed - total.d_h).abs() <= 1e-9 * total.d_h.abs());
    }
}

/// Nodes refined on a set of posterior-like draws (a pilot run's, in `tdpe run`) reproduce the
/// exact likelihood at other draws from the same region, with no more nodes than the Fisher
/// design set needs.
#[test]
fn relative_binning_from_draws_reproduces_the_exact_likelihood() {
    let exact = exact();
    let ln_l_max = exact.log_likelihood_ratio(&truth()).unwrap();
    let design: Vec<BbhParameters> = draw_points(&exact, ln_l_max, 1.0, 10.0, 64, 31)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let options = RelativeBinningOptions::default();
    let rb = BbhRelativeBinning::from_draws(&exact, truth(), &design, &options).unwrap();
    let fisher = BbhRelativeBinning::new(&exact, truth(), &options).unwrap();
    let nodes = rb.node_counts();
    println!(
        "nodes on draws {nodes:?}, on the Fisher design {:?}",
        fisher.node_counts()
    );
    assert!(nodes.iter().all(|&b| b <= 160), "{nodes:?}");
    assert!(rb.refinement_errors().iter().all(|&e| e <= options.target));
    let errors: Vec<f64> = draw_points(&exact, ln_l_max, 1.0, 10.0, 40, 32)
        .iter()
        .map(|(p, l)| (rb.log_likelihood_ratio(p).unwrap() - l).abs())
        .collect();
    let (median, p99, max) = quantiles(errors);
    println!("from draws: |ΔlnL| median {median:.2e}, p99 {p99:.2e}, max {max:.2e}");
    assert!(max <= 5e-4, "max |ΔlnL| {max:e}");
}

/// With whole-sample shifts of the summary data (an arrival window), trials arriving far from
/// the fiducial, where the nodes alone cannot follow them, keep the exact likelihood's value.
#[test]
fn shifted_summary_data_follow_trials_far_in_time() {
    let exact = exact();
    let options = RelativeBinningOptions {
        arrival_window: 0.12,
        ..RelativeBinningOptions::default()
    };
    let rb = BbhRelativeBinning::new(&exact, truth(), &options).unwrap();
    let plain =
        BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    let mut worst: f64 = 0.0;
    let mut worst_plain: f64 = 0.0;
    let dt = 1.0 / 2048.0;
    for delay in [
        -0.119,
        -0.05,
        -0.0123,
        -dt,
        dt,
        2.0 * dt,
        0.00071,
        0.0077,
        0.031,
        0.119,
    ] {
        for chirp_mass_offset in [0.0, 0.05] {
            let mut p = truth();
            p.geocent_time += delay;
            p.chirp_mass += chirp_mass_offset;
            let l = exact.log_likelihood_ratio(&p).unwrap();
            worst = worst.max((rb.log_likelihood_ratio(&p).unwrap() - l).abs());
            worst_plain = worst_plain.max((plain.log_likelihood_ratio(&p).unwrap() - l).abs());
        }
    }
    println!("far in time: |ΔlnL| ≤ {worst:.2e} with shifts, {worst_plain:.2e} without");
    assert!(worst <= 5e-4, "{worst:e}");
    assert!(
        worst_plain > 1.0,
        "the test needs trials the plain nodes cannot follow"
    );
}

/// The time lattice gives the inner products of the trial moved by whole samples, as the
/// likelihood evaluated there does, over the whole arrival window; and a phase π/2 later flips
/// ⟨d|h⟩'s sign and keeps ⟨h|h⟩ (the (2,2) mode), which the posterior's orbit move relies on.
#[test]
fn time_lattice_matches_the_likelihood_at_whole_sample_shifts() {
    let exact = exact();
    let plain =
        BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    assert_eq!(plain.lattice_spacing(), None);
    assert_eq!(plain.time_lattice(&truth()).unwrap(), None);
    let options = RelativeBinningOptions {
        arrival_window: 0.05,
        ..RelativeBinningOptions::default()
    };
    let rb = BbhRelativeBinning::new(&exact, truth(), &options).unwrap();
    let dt = 1.0 / 2048.0;
    assert_eq!(rb.lattice_spacing(), Some(dt));
    let mut p = truth();
    p.geocent_time += 0.0123;
    p.chirp_mass += 0.03;
    let lattice = rb.time_lattice(&p).unwrap().unwrap();
    let steps = lattice.first..lattice.first + lattice.data_terms.len() as isize;
    // The window is ±0.05 s about the fiducial in each detector, less the delays' spread.
    assert!(
        steps.start < -120 && steps.end > 60,
        "{steps:?} do not cover the window"
    );
    let at = rb.inner_products(&p).unwrap();
    let quadrature = rb.quadrature_products(&p).unwrap();
    assert_eq!(
        lattice.template_terms,
        [quadrature.h_00, quadrature.h_01, quadrature.h_11]
    );
    assert_eq!(lattice.products(-lattice.first as usize), quadrature);
    let (mut worst_data, mut worst_template): (f64, f64) = (0.0, 0.0);
    for j in [steps.start, -77, -1, 0, 1, 40, steps.end - 1] {
        let mut moved = p;
        moved.geocent_time += j as f64 * dt;
        let exact_there = rb.quadrature_products(&moved).unwrap();
        let there = lattice.products((j - lattice.first) as usize);
        for (a, b) in [(there.d_0, exact_there.d_0), (there.d_1, exact_there.d_1)] {
            worst_data = worst_data.max((a - b).abs());
        }
        for (a, b) in [
            (there.h_00, exact_there.h_00),
            (there.h_01, exact_there.h_01),
            (there.h_11, exact_there.h_11),
        ] {
            worst_template = worst_template.max((a - b).abs());
        }
    }
    println!("lattice against the likelihood: data {worst_data:e}, template {worst_template:e}");
    // The likelihood at a moved geocent_time also sees the delays turn with the Earth (up to
    // 1.2·10⁻⁶ of ⟨h|h⟩ in the data terms over ±60 ms here); the template terms are the
    // trial's at every step, and the Gram matrices of other shifts differ by ~10⁻⁶ of them.
    assert!(
        worst_data < 2e-6 * at.h_h,
        "{worst_data:e} of ⟨h|h⟩ = {}",
        at.h_h
    );
    assert!(
        worst_template < 2e-6 * at.h_h,
        "{worst_template:e} of ⟨h|h⟩ = {}",
        at.h_h
    );
    let turned = BbhParameters {
        phase: p.phase + std::f64::consts::FRAC_PI_2,
        ..p
    };
    let ip = rb.inner_products(&turned).unwrap();
    assert!(
        (ip.d_h + at.d_h).abs() < 1e-9 * at.h_h,
        "{} vs {}",
        ip.d_h,
        at.d_h
    );
    assert!((ip.h_h - at.h_h).abs() < 1e-9 * at.h_h);
    // A trial arriving outside the window has no lattice.
    let mut far = p;
    far.geocent_time += 0.2;
    assert_eq!(rb.time_lattice(&far).unwrap(), None);
}

#[test]
fn relative_binning_gradient_matches_finite_differences() {
    let exact = exact();
    let rb = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    let ln_l_max = exact.log_likelihood_ratio(&truth()).unwrap();
    for (p, _) in draw_points(&exact, ln_l_max, 1.0, 10.0, 3, 21) {
        let mut grad = [0.0; NUM_PARAMETERS];
        let value = rb.log_likelihood_ratio_and_gradient(&p, &mut grad).unwrap();
        let grad = aligned(&grad);
        assert!((value - rb.log_likelihood_ratio(&p).unwrap()).abs() < 1e-9);
        // Five-point finite differences with steps of `step`·σ, in the σ-scaled metric.
        let fd_with = |f: &dyn Fn(&BbhParameters) -> f64, step: f64| -> [f64; 11] {
            std::array::from_fn(|j| {
                let h = step * SIGMA[j];
                let at = |s: f64| {
                    let mut v = p.to_array();
                    v[ALIGNED[j]] += s * h;
                    f(&BbhParameters::from_array(v))
                };
                (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * h)
            })
        };
        let fd = |f: &dyn Fn(&BbhParameters) -> f64| fd_with(f, 0.05);
        let fd_rb = fd(&|q| rb.log_likelihood_ratio(q).unwrap());
        let fd_exact = fd(&|q| exact.log_likelihood_ratio(q).unwrap());
        let metric_error = |grad: &[f64; 11], reference: &[f64; 11]| {
            let diff: f64 = (0..11)
                .map(|j| ((grad[j] - reference[j]) * SIGMA[j]).powi(2))
                .sum();
            let norm: f64 = (0..11).map(|j| (reference[j] * SIGMA[j]).powi(2)).sum();
            (diff / norm.max(1.0)).sqrt()
        };
        let (e_rb, e_exact) = (metric_error(&grad, &fd_rb), metric_error(&grad, &fd_exact));
        println!("gradient relative error: vs RB differences {e_rb:.2e}, vs exact {e_exact:.2e}");
        for j in 0..11 {
            println!(
                "  {:20} dual {:12.5e} fd(RB) {:12.5e} fd(exact) {:12.5e}",
                ALIGNED[j].name(),
                grad[j],
                fd_rb[j],
                fd_exact[j]
            );
        }
        assert!(e_rb <= 1e-3, "{e_rb:e}");
        assert!(e_exact <= 1e-3, "{e_exact:e}");

        // A function of both inner products through the same reverse pass: ln L maximised
        // over the distance, ⟨d|h⟩²/(2⟨h|h⟩), whose distance derivative vanishes.
        let maximised = |ip: InnerProducts| {
            let ratio = ip.d_h / ip.h_h;
            [0.5 * ip.d_h * ratio, ratio, -0.5 * ratio * ratio]
        };
        let mut grad_max = [0.0; NUM_PARAMETERS];
        let value_max = rb
            .function_and_gradient(&p, maximised, &mut grad_max)
            .unwrap();
        let grad_max = aligned(&grad_max);
        let ip = rb.inner_products(&p).unwrap();
        assert!((ip.log_likelihood_ratio() - value).abs() < 1e-9);
        assert!((maximised(ip)[0] - value_max).abs() < 1e-9);
        // Its spin derivatives need steps of 0.01σ: at 0.05σ the differences' truncation
        // error reaches 7e-4 in chi_2.
        let fd_max = fd_with(&|q| maximised(rb.inner_products(q).unwrap())[0], 0.01);
        let e_max = metric_error(&grad_max, &fd_max);
        println!("maximised over distance: gradient relative error vs RB differences {e_max:.2e}");
        assert!(e_max <= 1e-4, "{e_max:e}");
        assert!(grad_max[4].abs() * SIGMA[4] < 1e-6, "{}", grad_max[4]);
        // The adjoint is linear in (∂F/∂⟨d|h⟩, ∂F/∂⟨h|h⟩): the chain rule through the
        // gradients of ⟨d|h⟩ and ⟨h|h⟩ alone gives the same numbers.
        let (mut grad_dh, mut grad_hh) = ([0.0; NUM_PARAMETERS], [0.0; NUM_PARAMETERS]);
        rb.function_and_gradient(&p, |ip| [ip.d_h, 1.0, 0.0], &mut grad_dh)
            .unwrap();
        rb.function_and_gradient(&p, |ip| [ip.h_h, 0.0, 1.0], &mut grad_hh)
            .unwrap();
        let (grad_dh, grad_hh) = (aligned(&grad_dh), aligned(&grad_hh));
        let [_, f_d, f_h] = maximised(ip);
        for j in 0..11 {
            let chained = f_d * grad_dh[j] + f_h * grad_hh[j];
            assert!(
                (chained - grad_max[j]).abs() <= 1e-9 * (1.0 + grad_max[j].abs()),
                "{}: {chained} vs {}",
                ALIGNED[j].name(),
                grad_max[j]
            );
        }
    }
}

/// The quadrature products equal the inner products at phase and phase + π/4 (and, through
/// the cross term, at every phase), and their gradient chains as the plain ones do.
#[test]
fn quadrature_products_follow_the_phase_and_have_exact_gradients() {
    use std::f64::consts::PI;
    let exact = exact();
    let rb = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    let ln_l_max = exact.log_likelihood_ratio(&truth()).unwrap();
    for (p, _) in draw_points(&exact, ln_l_max, 1.0, 10.0, 2, 31) {
        let q = rb.quadrature_products(&p).unwrap();
        for psi in [0.0, 0.5 * PI, 0.3, 2.0, 4.4] {
            let mut rotated = p;
            rotated.phase += 0.5 * psi;
            let ip = rb.inner_products(&rotated).unwrap();
            let at = q.at(psi);
            assert!(
                (at.d_h - ip.d_h).abs() <= 1e-9 * ip.h_h,
                "{psi}: {at:?} {ip:?}"
            );
            assert!(
                (at.h_h - ip.h_h).abs() <= 1e-9 * ip.h_h,
                "{psi}: {at:?} {ip:?}"
            );
        }
        // The adjoint is linear in the five partials, so one combination of all five with
        // distinct weights checks each: ln L at ψ = 0.7 plus 3h₀₁ + h₁₁.
        let f = |q: QuadratureProducts| -> [f64; 6] {
            let (s, c) = 0.7f64.sin_cos();
            let value = q.at(0.7).log_likelihood_ratio() + 3.0 * q.h_01 + q.h_11;
            [value, c, s, -0.5 * c * c, -s * c + 3.0, 1.0 - 0.5 * s * s]
        };
        let mut grad = [0.0; NUM_PARAMETERS];
        let value = rb
            .quadrature_function_and_gradient(&p, f, &mut grad)
            .unwrap();
        let grad = aligned(&grad);
        assert!((value - f(q)[0]).abs() < 1e-9);
        // Five-point differences with steps of 0.05σ, compared in the σ-scaled metric (the
        // relative binning's own roughness in q and the spins limits smaller steps).
        let fd: [f64; 11] = std::array::from_fn(|j| {
            let h = 0.05 * SIGMA[j];
            let at = |s: f64| {
                let mut v = p.to_array();
                v[ALIGNED[j]] += s * h;
                f(rb.quadrature_products(&BbhParameters::from_array(v))
                    .unwrap())[0]
            };
            (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * h)
        });
        let diff: f64 = (0..11)
            .map(|j| ((grad[j] - fd[j]) * SIGMA[j]).powi(2))
            .sum();
        let norm: f64 = (0..11).map(|j| (fd[j] * SIGMA[j]).powi(2)).sum();
        let error = (diff / norm.max(1.0)).sqrt();
        println!("quadrature gradient relative error vs RB differences {error:.2e}");
        assert!(error <= 1e-3, "{error:e}: {grad:?} vs {fd:?}");
    }
}

/// The sum over a window of whole-sample time steps from the time lattice (one waveform
/// evaluation) equals the sum of the likelihood evaluated at each step, and so does its
/// gradient, to the lattice's accuracy (the Gram matrix of θ's own shift at every step, and
/// the antenna patterns of θ's time, which turn with the Earth by ~10⁻⁶ over the window).
#[test]
fn window_over_time_steps_matches_the_likelihood_at_each_step() {
    let exact = exact();
    let options = RelativeBinningOptions {
        arrival_window: 0.05,
        ..RelativeBinningOptions::default()
    };
    let rb = BbhRelativeBinning::new(&exact, truth(), &options).unwrap();
    let dt = 1.0 / 2048.0;
    let mut p = truth();
    p.geocent_time -= 0.0031;
    p.chirp_mass += 0.02;
    let steps = 12;
    // A weight per step, as the posterior's time prior gives them.
    let log_weight = |j: usize| -0.01 * j as f64;
    let f = |j: usize, ip: InnerProducts| {
        let [value, d_dh, d_hh] = ip.log_likelihood_ratio_with_partials();
        [value + log_weight(j), d_dh, d_hh]
    };
    let mut gradient = [0.0; NUM_PARAMETERS];
    let mut weights = Vec::new();
    let value = rb
        .window_function_and_gradient(&p, steps, f, &mut gradient, &mut weights)
        .unwrap();
    let mut expected_gradient = [0.0; NUM_PARAMETERS];
    let mut values = Vec::new();
    let mut gradients = Vec::new();
    for j in 0..steps {
        let mut moved = p;
        moved.geocent_time += j as f64 * dt;
        let mut g = [0.0; NUM_PARAMETERS];
        let v = rb
            .function_and_gradient(&moved, |ip| f(j, ip), &mut g)
            .unwrap();
        values.push(v);
        gradients.push(g);
    }
    let peak = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = values.iter().map(|v| (v - peak).exp()).sum();
    let expected = peak + total.ln();
    for (v, g) in values.iter().zip(&gradients) {
        let w = (v - peak).exp() / total;
        expected_gradient
            .iter_mut()
            .zip(g)
            .for_each(|(e, d)| *e += w * d);
    }
    let h_h = rb.inner_products(&p).unwrap().h_h;
    assert!(
        (value - expected).abs() < 2e-6 * h_h,
        "{value} vs {expected}"
    );
    assert!(
        (weights.iter().sum::<f64>() - 1.0).abs() < 1e-12,
        "{weights:?}"
    );
    for (k, (g, e)) in aligned(&gradient)
        .iter()
        .zip(&aligned(&expected_gradient))
        .enumerate()
    {
        let scale = 1.0 / SIGMA[k];
        assert!(
            (g - e).abs() < 1e-4 * scale + 2e-5 * e.abs(),
            "{}: {g} vs {e}",
            ALIGNED[k].name()
        );
    }
    // Without the gradient, the same value; no window without a step.
    let alone = rb.window_function(&p, steps, |j, ip| f(j, ip)[0]).unwrap();
    assert!((alone - value).abs() < 1e-10 * h_h, "{alone} vs {value}");
    assert!(rb.window_function(&p, 0, |j, ip| f(j, ip)[0]).is_err());
    // A window whose last steps leave the summary data's shifts (±0.05 s) is refused, and
    // says so beforehand.
    assert!(rb.follows_window(&p, steps));
    let mut late = truth();
    late.geocent_time += 0.05 - 4.0 * dt;
    assert!(rb.follows_window(&late, 2));
    assert!(!rb.follows_window(&late, steps));
    assert!(rb
        .window_function_and_gradient(&late, steps, f, &mut gradient, &mut weights)
        .is_err());
}

/// A bank bins each trial against the centre of the cell its (2,2) peak frequency falls in:
/// its ln L and gradient are that cell's own; bounds that do not fit the cells are errors.
#[test]
fn a_bank_bins_each_trial_against_the_centre_of_its_cell() {
    let exact = exact();
    let options = RelativeBinningOptions::default();
    // A lighter centre has the higher peak frequency.
    let heavy = truth();
    let light = BbhParameters {
        chirp_mass: heavy.chirp_mass - 0.4,
        ..heavy
    };
    let peak = |p: &BbhParameters| {
        let (m1, m2) = tdpe_signal::component_masses(p.chirp_mass, p.mass_ratio);
        tdpe_phenomt::IMRPhenomT::peak_frequency(m1, m2, p.chi_1, p.chi_2)
    };
    let bound = 0.5 * (peak(&heavy) + peak(&light));
    assert!(peak(&heavy) < bound && bound < peak(&light));
    let single = |p| BbhRelativeBinning::new(&exact, p, &options).unwrap();
    let bank = BbhRelativeBinning::bank(vec![single(heavy), single(light)], vec![bound]).unwrap();
    assert_eq!(bank.cell_node_counts().len(), 2);
    assert_eq!(bank.bounds(), [bound]);
    for (centre, offset) in [(heavy, 0.02), (light, -0.02)] {
        let trial = BbhParameters {
            chirp_mass: centre.chirp_mass + offset,
            ..centre
        };
        let alone = single(centre);
        let (mut g_bank, mut g_alone) = ([0.0; NUM_PARAMETERS], [0.0; NUM_PARAMETERS]);
        assert_eq!(
            bank.log_likelihood_ratio_and_gradient(&trial, &mut g_bank)
                .unwrap(),
            alone
                .log_likelihood_ratio_and_gradient(&trial, &mut g_alone)
                .unwrap()
        );
        assert_eq!(g_bank, g_alone);
    }
    // Trials of the two cells differ in ln L from the other cell's centre's relative binning.
    let heavy_rb = single(heavy);
    let far = BbhParameters {
        chirp_mass: light.chirp_mass - 0.02,
        ..light
    };
    assert_ne!(
        bank.log_likelihood_ratio(&far).unwrap(),
        heavy_rb.log_likelihood_ratio(&far).unwrap()
    );
    for bounds in [vec![], vec![bound, bound + 1.0], vec![f64::NAN]] {
        assert!(
            BbhRelativeBinning::bank(vec![single(heavy), single(light)], bounds.clone()).is_err(),
            "{bounds:?}"
        );
    }
}
