//! Maximisation over a box, for the fiducial point of relative binning on real data
//! (docs/sampling.md §8.2–8.3):
//! differential evolution over the prior box (Storn & Price, J. Global Optim. 11, 341 (1997),
//! DE/rand/1/bin with dithered F), then a Nelder–Mead polish (Nelder & Mead, Comput. J. 7, 308
//! (1965); Gao & Han's adaptive coefficients, Comput. Optim. Appl. 51, 259 (2012)).
//!
//! The search works on the unit cube u ∈ [0, 1]^d of the sampled parameters' boxes; periodic
//! parameters wrap, the others are reflected back into the box. Deterministic for a seed;
//! generations are evaluated in parallel (the result does not depend on the thread count).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The box of one coordinate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dimension {
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
    /// Wraps around (else reflected at the walls).
    pub periodic: bool,
}

impl Dimension {
    fn value(&self, u: f64) -> f64 {
        self.lower + u * (self.upper - self.lower)
    }
}

/// Search settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchOptions {
    /// DE population.
    pub population: usize,
    /// DE generations.
    pub generations: usize,
    /// Objective evaluations of the polish.
    pub polish_evaluations: usize,
    /// Seed.
    pub seed: u64,
    /// Worker threads (≥ 1).
    pub threads: usize,
}

/// Result of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// Best point (in the boxes' units).
    pub point: Vec<f64>,
    /// Objective there.
    pub value: f64,
    /// Objective evaluations.
    pub evaluations: usize,
}

/// Folds u into [0, 1]: wrap for periodic coordinates, reflection otherwise.
fn fold(u: f64, periodic: bool) -> f64 {
    if periodic {
        u.rem_euclid(1.0)
    } else {
        let r = u.rem_euclid(2.0);
        if r > 1.0 {
            2.0 - r
        } else {
            r
        }
    }
}

/// Maximises `objective` (non-finite = infeasible) over `dims`, starting from `initial`
/// (points in the boxes' units, e.g. prior draws; at most `population` are used, the rest of
/// the population is uniform in the box).
pub fn maximize<F>(
    objective: F,
    dims: &[Dimension],
    initial: &[Vec<f64>],
    options: &SearchOptions,
) -> SearchResult
where
    F: Fn(&[f64]) -> f64 + Sync,
{
    let d = dims.len();
    let to_point =
        |u: &[f64]| -> Vec<f64> { dims.iter().zip(u).map(|(dm, &v)| dm.value(v)).collect() };
    let evaluate_all = |us: &[Vec<f64>]| -> Vec<f64> {
        let threads = options.threads.max(1).min(us.len().max(1));
        let chunk = us.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            let handles: Vec<_> = us
                .chunks(chunk)
                .map(|part| {
                    s.spawn(|| {
                        part.iter()
                            .map(|u| {
                                let v = objective(&to_point(u));
                                if v.is_finite() {
                                    v
                                } else {
                                    f64::NEG_INFINITY
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    };

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed);
    let np = options.population.max(5);
    let mut pop: Vec<Vec<f64>> = initial
        .iter()
        .take(np)
        .map(|p| {
            dims.iter()
                .zip(p)
                .map(|(dm, &v)| fold((v - dm.lower) / (dm.upper - dm.lower), dm.periodic))
                .collect()
        })
        .collect();
    while pop.len() < np {
        pop.push((0..d).map(|_| rng.random::<f64>()).collect());
    }
    let mut fit = evaluate_all(&pop);
    let mut evaluations = np;
    for _ in 0..options.generations {
        let trials: Vec<Vec<f64>> = (0..np)
            .map(|i| {
                let pick = |rng: &mut Xoshiro256PlusPlus, not: &[usize]| loop {
                    let k = rng.random_range(0..np);
                    if !not.contains(&k) {
                        return k;
                    }
                };
                let a = pick(&mut rng, &[i]);
                let b = pick(&mut rng, &[i, a]);
                let c = pick(&mut rng, &[i, a, b]);
                let f = 0.5 + 0.5 * rng.random::<f64>();
                let forced = rng.random_range(0..d);
                (0..d)
                    .map(|j| {
                        if j == forced || rng.random::<f64>() < 0.9 {
                            fold(pop[a][j] + f * (pop[b][j] - pop[c][j]), dims[j].periodic)
                        } else {
                            pop[i][j]
                        }
                    })
                    .collect()
            })
            .collect();
        let trial_fit = evaluate_all(&trials);
        evaluations += np;
        for (i, (t, v)) in trials.into_iter().zip(trial_fit).enumerate() {
            if v >= fit[i] {
                pop[i] = t;
                fit[i] = v;
            }
        }
    }
    let best = (0..np)
        .max_by(|&a, &b| fit[a].total_cmp(&fit[b]))
        .unwrap_or(0);
    let (u, value, polish_evals) = nelder_mead(
        |u: &[f64]| {
            let folded: Vec<f64> = u
                .iter()
                .zip(dims)
                .map(|(&v, dm)| fold(v, dm.periodic))
                .collect();
            let v = objective(&to_point(&folded));
            if v.is_finite() {
                v
            } else {
                f64::NEG_INFINITY
            }
        },
        &pop[best],
        fit[best],
        0.01,
        options.polish_evaluations,
    );
    let u: Vec<f64> = u
        .iter()
        .zip(dims)
        .map(|(&v, dm)| fold(v, dm.periodic))
        .collect();
    SearchResult {
        point: to_point(&u),
        value,
        evaluations: evaluations + polish_evals,
    }
}

/// Nelder–Mead maximisation from `start` (value `start_value`) with an initial simplex of edge
/// `step`, for at most `budget` evaluations; returns (best point, value, evaluations).
fn nelder_mead<F: Fn(&[f64]) -> f64>(
    f: F,
    start: &[f64],
    start_value: f64,
    step: f64,
    budget: usize,
) -> (Vec<f64>, f64, usize) {
    let n = start.len();
    let nf = n as f64;
    // Gao & Han (2012) coefficients for dimension n.
    let (alpha, gamma, rho, sigma) = (1.0, 1.0 + 2.0 / nf, 0.75 - 1.0 / (2.0 * nf), 1.0 - 1.0 / nf);
    let mut simplex: Vec<(Vec<f64>, f64)> = vec![(start.to_vec(), start_value)];
    let mut evals = 0;
    for i in 0..n {
        let mut p = start.to_vec();
        p[i] += if p[i] + step <= 1.0 { step } else { -step };
        let v = f(&p);
        evals += 1;
        simplex.push((p, v));
    }
    while evals < budget {
        simplex.sort_by(|a, b| b.1.total_cmp(&a.1));
        let spread = simplex[0].1 - simplex[n].1;
        if spread.is_finite() && spread.abs() < 1e-8 {
            break;
        }
        let centroid: Vec<f64> = (0..n)
            .map(|j| simplex[..n].iter().map(|(p, _)| p[j]).sum::<f64>() / nf)
            .collect();
        let along = |t: f64| -> Vec<f64> {
            centroid
                .iter()
                .zip(&simplex[n].0)
                .map(|(c, w)| c + t * (c - w))
                .collect()
        };
        let xr = along(alpha);
        let fr = f(&xr);
        evals += 1;
        if fr > simplex[0].1 {
            let xe = along(alpha * gamma);
            let fe = f(&xe);
            evals += 1;
            simplex[n] = if fe > fr { (xe, fe) } else { (xr, fr) };
        } else if fr > simplex[n - 1].1 {
            simplex[n] = (xr, fr);
        } else {
            // Outside contraction when the reflection beat the worst point (kept if it is at
            // least as good as the reflection), inside contraction otherwise (kept if it beats
            // the worst point).
            let outside = fr > simplex[n].1;
            let (xc, fc) = if outside {
                let x = along(alpha * rho);
                let v = f(&x);
                (x, v)
            } else {
                let x = along(-rho);
                let v = f(&x);
                (x, v)
            };
            evals += 1;
            let accepted = if outside { fc >= fr } else { fc > simplex[n].1 };
            if accepted {
                simplex[n] = (xc, fc);
            } else {
                let best = simplex[0].0.clone();
                for (p, v) in simplex.iter_mut().skip(1) {
                    for (pj, bj) in p.iter_mut().zip(&best) {
                        *pj = bj + sigma * (*pj - bj);
                    }
                    *v = f(p);
                    evals += 1;
                }
            }
        }
    }
    simplex.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (p, v) = simplex.swap_remove(0);
    (p, v, evals)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A multimodal 4-d objective: the global maximum is found and polished.
    #[test]
    fn finds_the_global_maximum() {
        let dims = [
            Dimension {
                lower: -5.0,
                upper: 5.0,
                periodic: false,
            },
            Dimension {
                lower: 0.0,
                upper: std::f64::consts::TAU,
                periodic: true,
            },
            Dimension {
                lower: 0.0,
                upper: 10.0,
                periodic: false,
            },
            Dimension {
                lower: -1.0,
                upper: 1.0,
                periodic: false,
            },
        ];
        let f = |x: &[f64]| {
            -(x[0] - 1.3).powi(2) + 2.0 * (x[1] - 0.2).cos() + (3.0 * x[0]).cos() * 0.3
                - (x[2] - 7.0).powi(2) / 4.0
                - 10.0 * (x[3] - 0.5).powi(2)
        };
        let r = maximize(
            f,
            &dims,
            &[],
            &SearchOptions {
                population: 30,
                generations: 100,
                polish_evaluations: 2000,
                seed: 3,
                threads: 2,
            },
        );
        assert!((r.point[1] - 0.2).abs() < 1e-3, "{:?}", r.point);
        assert!(
            (r.point[2] - 7.0).abs() < 1e-3 && (r.point[3] - 0.5).abs() < 1e-3,
            "{:?}",
            r.point
        );
        assert!(r.evaluations > 3000);
    }
}
