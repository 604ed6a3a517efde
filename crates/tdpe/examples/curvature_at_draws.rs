//! What limits a run's step size (docs/precession.md §12.12): the curvature of ln p in the
//! sampler's coordinates at the run's own draws, in the units of the metric a warm-up learns.
//!
//!     cargo run --release -p tdpe --example curvature_at_draws -- CONFIG OUTDIR/samples.csv [N]
//!
//! The posterior is set up as `tdpe run CONFIG` sets it up (the loud path: relative binning at
//! the fiducial point, the Laplace map at the mode). Up to N draws (default 100), evenly spread
//! over the file, are read in x; with an image chart (precessing spins), those of the
//! inclination mirror's second mode (θ_jn > π/2, which the chains read in the image chart) are
//! left out. With Σ = LLᵀ the covariance of the rest in x, as a dense
//! metric adapts to, a leapfrog step ε is stable at a draw only if ε < 2/√λ for the largest
//! eigenvalue λ of −LᵀHL there (H the Hessian of ln p, from central differences of the
//! gradient). One line per draw: λ, that bound, and the parameters the stiff direction moves
//! most, each in units of its spread over the draws; then the quantiles of the bound.

use std::f64::consts::FRAC_PI_2;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context};
use tdpe::commands::likelihood::parse_points;
use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::relative_binning_at_fiducial;
use tdpe_mcmc::{LogDensity, Space};
use tdpe_signal::{Parameter, ParameterVector};

/// The largest eigenvalue of the symmetric `m` and its unit eigenvector (power iteration on
/// m + shift·I, with the shift making every eigenvalue positive).
fn largest_eigenpair(m: &[Vec<f64>]) -> (f64, Vec<f64>) {
    let n = m.len();
    let shift: f64 = (0..n)
        .map(|i| m[i].iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let mut v = vec![1.0 / (n as f64).sqrt(); n];
    let mut value = 0.0;
    for _ in 0..5000 {
        let w: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| m[i][j] * v[j]).sum::<f64>() + shift * v[i])
            .collect();
        value = w.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>() - shift;
        let norm = w.iter().map(|a| a * a).sum::<f64>().sqrt();
        v = w.iter().map(|a| a / norm).collect();
    }
    (value, v)
}

/// The lower Cholesky factor of the symmetric positive-definite `a`.
fn cholesky(a: &[Vec<f64>]) -> anyhow::Result<Vec<Vec<f64>>> {
    let n = a.len();
    let mut l = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let d = a[i][i] - sum;
                if d <= 0.0 {
                    bail!("the draws' covariance is not positive definite");
                }
                l[i][i] = d.sqrt();
            } else {
                l[i][j] = (a[i][j] - sum) / l[j][j];
            }
        }
    }
    Ok(l)
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: curvature_at_draws CONFIG SAMPLES_CSV [N]";
    let config_path = std::path::PathBuf::from(args.next().context(usage)?);
    let samples_path = args.next().context(usage)?;
    let wanted: usize = args.next().map_or(Ok(100), |s| s.parse()).context(usage)?;

    let problem = Problem::set_up(Config::load(Some(&config_path))?)?;
    let spin_model = problem.priors().spin_model;
    let text = std::fs::read_to_string(&samples_path)
        .with_context(|| format!("cannot read {samples_path}"))?;
    let draws = parse_points(&text, &samples_path, spin_model)?;
    let (fiducial, rb, _) = relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false))?;
    let section = problem.config.sampler.for_loud_posterior();
    let (posterior, _) = problem.analysis.posterior(
        rb,
        &fiducial.theta,
        &section.coordinate_options(),
        section.seed,
    )?;
    let dim = posterior.dim();
    // The image chart's label, where there is one, is x's last coordinate and stays fixed.
    let n = if posterior.has_image_chart() {
        dim - 1
    } else {
        dim
    };

    let stride = (draws.len() / wanted.max(1)).max(1);
    let mut chosen: Vec<(ParameterVector, Vec<f64>)> = Vec::new();
    for absolute in draws.iter().step_by(stride).take(wanted) {
        let mut theta = *absolute;
        theta[Parameter::GeocentTime] -= problem.epoch.as_f64();
        let x = posterior.to_x(&theta);
        let in_first_chart = !posterior.has_image_chart() || theta[Parameter::ThetaJn] < FRAC_PI_2;
        if x.iter().all(|v| v.is_finite()) && in_first_chart {
            chosen.push((theta, x));
        }
    }
    if chosen.len() < 2 * n {
        bail!("{} draws to read: too few", chosen.len());
    }
    let mut radii: Vec<f64> = chosen
        .iter()
        .map(|(_, x)| x[..n].iter().map(|v| v * v).sum::<f64>().sqrt())
        .collect();
    radii.sort_by(f64::total_cmp);
    println!(
        "|x| of the draws: smallest {:.1}, median {:.1}, largest {:.1}",
        radii[0],
        radii[radii.len() / 2],
        radii[radii.len() - 1]
    );
    let count = chosen.len() as f64;
    let mean: Vec<f64> = (0..n)
        .map(|i| chosen.iter().map(|(_, x)| x[i]).sum::<f64>() / count)
        .collect();
    let covariance: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    chosen
                        .iter()
                        .map(|(_, x)| (x[i] - mean[i]) * (x[j] - mean[j]))
                        .sum::<f64>()
                        / (count - 1.0)
                })
                .collect()
        })
        .collect();
    let l = cholesky(&covariance)?;
    let parameters = spin_model.parameters();
    let spread: Vec<f64> = parameters
        .iter()
        .map(|&p| {
            let values: Vec<f64> = chosen.iter().map(|(t, _)| t[p]).collect();
            let m = values.iter().sum::<f64>() / count;
            (values.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (count - 1.0)).sqrt()
        })
        .collect();
    println!(
        "{} of {} draws read in the first chart; x has {n} sampled coordinates",
        chosen.len(),
        draws.len()
    );
    println!("lambda  eps_bound  stiff direction (parameter: change per unit step, in spreads)");

    let gradient_at = |x: &[f64]| {
        let mut g = vec![0.0; dim];
        posterior.log_density_and_gradient(x, &mut g);
        g
    };
    let mut bounds = Vec::new();
    for (_, x) in &chosen {
        // −H along the metric's axes: columns from central differences of the gradient along
        // each column of L, then LᵀHL, symmetrised.
        let h = 1e-4;
        let columns: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                let moved = |sign: f64| {
                    let y: Vec<f64> = (0..dim)
                        .map(|i| x[i] + if i < n { sign * h * l[i][j] } else { 0.0 })
                        .collect();
                    gradient_at(&y)
                };
                let (up, down) = (moved(1.0), moved(-1.0));
                (0..n).map(|i| -(up[i] - down[i]) / (2.0 * h)).collect()
            })
            .collect();
        let s: Vec<Vec<f64>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let ab: f64 = (0..n).map(|i| l[i][a] * columns[b][i]).sum();
                        let ba: f64 = (0..n).map(|i| l[i][b] * columns[a][i]).sum();
                        0.5 * (ab + ba)
                    })
                    .collect()
            })
            .collect();
        let (lambda, v) = largest_eigenpair(&s);
        // The stiff direction in x, then in θ by differences of θ(x).
        let direction: Vec<f64> = (0..n)
            .map(|i| (0..n).map(|j| l[i][j] * v[j]).sum())
            .collect();
        let delta = 1e-4;
        let theta_at = |sign: f64| {
            let y: Vec<f64> = (0..dim)
                .map(|i| {
                    x[i] + if i < n {
                        sign * delta * direction[i]
                    } else {
                        0.0
                    }
                })
                .collect();
            posterior.parameters(&y)
        };
        let (up, down) = (theta_at(1.0), theta_at(-1.0));
        let mut moves: Vec<(f64, &str)> = parameters
            .iter()
            .zip(&spread)
            .map(|(&p, s)| ((up[p] - down[p]) / (2.0 * delta) / s, p.name()))
            .collect();
        moves.sort_by(|a, b| b.0.abs().total_cmp(&a.0.abs()));
        let bound = 2.0 / lambda.max(f64::MIN_POSITIVE).sqrt();
        bounds.push(bound);
        let top: Vec<String> = moves
            .iter()
            .take(4)
            .map(|(m, name)| format!("{name} {m:+.2}"))
            .collect();
        println!("{lambda:8.1}  {bound:.4}  {}", top.join(", "));
    }
    bounds.sort_by(f64::total_cmp);
    let quantile = |q: f64| bounds[((bounds.len() - 1) as f64 * q).round() as usize];
    println!(
        "step-size bound 2/sqrt(lambda): smallest {:.4}, 10 % {:.4}, median {:.4}, 90 % {:.4}",
        quantile(0.0),
        quantile(0.1),
        quantile(0.5),
        quantile(0.9)
    );
    Ok(())
}
