//! Which basis relative binning should use for a precessing binary (issue 28; docs/precession.md
//! §12.3): the co-precessing terms c_{k,lm′}(t)·h^P_lm′ or the L0-frame (inertial) modes.
//!
//!     cargo run --release -p tdpe-likelihood --example rb_precession -- [points]
//!
//! The injection: 36 + 29 M☉, a_1 = 0.7, a_2 = 0.5, tilt_1 = 1.2, tilt_2 = 2.1, φ_12 = 0.8,
//! φ_jl = 0.3, θ_jn = 1, the rest of `BbhParameters::gw150914_like`, distance set for network
//! SNR 25; H1 + L1, design PSD, 4 s at 2048 Hz with the peak 2 s before the end, f_ref = f_low =
//! 20 Hz; noise-free data (d = h(truth)), so the fiducial is the truth and ln L_max = ρ²/2.
//!
//! Both bases use the generic relative binning unchanged (`refine_nodes`, `SummaryData::stacked`):
//! each basis j of a detector is one complex term T_j(t) with h_k = Re Σ_j T_j, the fiducial's
//! term is v_j and a trial's node coefficients are T_j(t_b)/v_j(t_b). A term's time-dependent
//! factor (the frame's c_{k,lm′}(t)) or constant one (K·₋₂Y_lm/D) is folded into T_j: with a
//! constant factor this is the same template as a constant Q on the bare mode.
//! - co-precessing: T_j = c_{k,j}(t)·h^P_j(t), j over the five modes of `Mode::ALL`;
//! - inertial: T_lm = K·₋₂Y_lm(ι, π/2 − φ − ψ′)/D · Σ_m′ D^l_{mm′}(F(t)) e^(im′ψ′) h^P_lm′(t)
//!   (with the −m′ partners), 2 ≤ l ≤ 5, |m| ≤ l: the L0 modes of the viewed source.
//!
//! Nodes: per term, `refine_nodes` with the BBH default target 1e-7 on the ratios of 48 design
//! points drawn from a Gaussian with twice the (regularised) Fisher covariance in all 15
//! parameters and kept within an exact ln L deficit of 25 (as the BBH design set's screen), with
//! the fiducial term's own SNR² density as weights. Accuracy against the exact ln L
//! (`SignalModel::precessing_strain` + `ExactLikelihood`) at `points` (default 50) draws from the
//! Fisher Gaussian (deficit ≤ 30) and `points` draws from three times it (deficit ≤ 300).

use std::sync::Arc;
use std::time::Instant;

use faer::{Mat, Side};
use num_complex::Complex64;
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::time::GMST_RATE_RAD_PER_S;
use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_likelihood::relative_binning::{
    refine_nodes, snr_weights, Basis, RbWorkspace, RefineOptions, SummaryData,
};
use tdpe_likelihood::{DetectorInput, ExactLikelihood, SampleGrid};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};
use tdpe_phenomt::precession::rotation::Harmonics;
use tdpe_phenomt::{Mode, Settings, SmoothSteps, EVERY_MODE};
use tdpe_signal::{
    chirp_mass_and_ratio, lal_spins, BbhParameters, PrecessingSource, PrecessingSpins, SignalModel,
    SpinModel,
};

/// The parameters, in the order of `SpinModel::Precessing`.
const DIM: usize = 15;
const FS: f64 = 2048.0;
const DURATION: f64 = 4.0;
const F_REF: f64 = 20.0;
const TARGET_SNR: f64 = 25.0;
/// Central-difference steps of the Fisher matrix.
const STEPS: [f64; DIM] = [
    1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1.0, 1e-4, 1e-4, 1e-4, 1e-6, 1e-5, 1e-5,
];
/// Broad Gaussian priors that regularise the Fisher matrix where the data do not constrain
/// it (the in-plane spin angles, distance–inclination, the sky ring of two detectors); they
/// set the draws' widths along those directions.
const PRIOR_SIGMA: [f64; DIM] = [
    2.0, 0.3, 0.3, 0.3, 0.5, 0.5, 1.0, 1.0, 300.0, 0.5, 0.5, 1.0, 0.01, 0.3, 0.3,
];
/// The BBH relative binning's default target, design size, scale and screen.
const TARGET: f64 = 1e-7;
const DESIGN_POINTS: usize = 48;
const DESIGN_SCALE: f64 = 2.0;
const DESIGN_DEPTH: f64 = 25.0;
/// The basis ends where its fiducial term falls below this fraction of its peak (as the BBH
/// relative binning's `SUPPORT_FLOOR`).
const SUPPORT_FLOOR: f64 = 1e-10;
/// Inertial modes are dropped, weakest first, while the dropped terms' norms Σ‖T_lm‖ in every
/// detector stay below this: their omission then moves ln L by ≲ ‖d − h‖·1e-5 ≈ 5e-5 at a
/// deficit of 10.
const DROPPED_NORM: f64 = 1e-5;

type Point = [f64; DIM];

fn split(v: &Point) -> (BbhParameters, PrecessingSpins<f64>) {
    let p = BbhParameters::from_array(SpinModel::Precessing.vector(v));
    (p, p.precessing_spins())
}

fn physical(v: &Point) -> bool {
    let pi = std::f64::consts::PI;
    v[0] > 0.0
        && v[1] > 0.05
        && v[1] <= 1.0
        && (0.0..=0.99).contains(&v[2])
        && (0.0..=0.99).contains(&v[3])
        && (0.0..=pi).contains(&v[4])
        && (0.0..=pi).contains(&v[5])
        && v[8] > 0.0
        && (0.0..=pi).contains(&v[9])
        && v[14].abs() <= pi / 2.0
}

/// The two bases compared.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Coprecessing,
    Inertial,
}

/// The (l, m) of the inertial terms, in their order.
fn inertial_modes() -> Vec<(u32, i32)> {
    (2..=5u32)
        .flat_map(|l| (-(l as i32)..=l as i32).map(move |m| (l, m)))
        .collect()
}

/// One parameter point as the detectors see it: the source, and per detector K = F₊ + iF× and
/// the arrival time of the peak.
struct View {
    source: PrecessingSource<f64>,
    antenna: Vec<Complex64>,
    arrival: Vec<f64>,
    /// e^(im′ψ′) of each co-precessing mode.
    turns: [Complex64; 5],
    /// K·₋₂Y_lm(ι, π/2 − φ − ψ′)/D per detector and inertial mode.
    inertial_factors: Vec<Vec<Complex64>>,
}

struct Study {
    detectors: Vec<Detector>,
    gmst0: f64,
    grid: SampleGrid,
    settings: Settings,
    model: SignalModel,
    exact: ExactLikelihood,
}

impl Study {
    /// The study on noise-free `data` (or zeros, to find the distance).
    fn new(data: Option<Vec<Vec<f64>>>) -> Self {
        let epoch = GpsTime::new(1126259462, 0);
        let detectors = Detector::network(&["H1", "L1"]).unwrap();
        let model = SignalModel::new(detectors.clone(), epoch, F_REF, 1.0 / FS).unwrap();
        let start = BbhParameters::gw150914_like().geocent_time + 2.0 - DURATION;
        let grid = SampleGrid::new(start, FS, DURATION).unwrap();
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let band = AnalysisBand {
            f_low: F_REF,
            ..AnalysisBand::default()
        };
        let spectrum = GriddedSpectrum::from_psd(&psd, &band, FS, grid.len).unwrap();
        let noise = Arc::new(ToeplitzInverse::from_acf(&spectrum.acf(), grid.len).unwrap());
        let data = data.unwrap_or_else(|| vec![vec![0.0; grid.len]; detectors.len()]);
        let inputs = detectors
            .iter()
            .zip(data)
            .map(|(d, data)| DetectorInput {
                name: d.name.to_string(),
                data,
                noise: noise.clone(),
            })
            .collect();
        Self {
            gmst0: greenwich_mean_sidereal_time(epoch).unwrap(),
            detectors,
            grid,
            settings: *model.waveform_settings(),
            model,
            exact: ExactLikelihood::new(grid, inputs).unwrap(),
        }
    }

    fn templates(&self, v: &Point) -> Option<Vec<Vec<f64>>> {
        let (p, _) = split(v);
        let g = &self.grid;
        self.model.precessing_strain(&p, g.start, g.dt, g.len).ok()
    }

    /// The exact ln L, `None` outside the model's range.
    fn exact_ln_l(&self, v: &Point) -> Option<f64> {
        let h = self.templates(v)?;
        let refs: Vec<&[f64]> = h.iter().map(Vec::as_slice).collect();
        self.exact.log_likelihood_ratio(&refs).ok()
    }

    fn view(&self, v: &Point) -> View {
        let (p, spins) = split(v);
        let (m1, m2) = p.component_masses();
        // The same set-up as `SignalModel::precessing_strain`, so that both agree to rounding.
        let t_start = self.grid.start - p.geocent_time - 0.03;
        let (chi_1, chi_2) = spins.standard_orientation();
        let steps =
            SmoothSteps::for_binary(m1, m2, chi_1[2], chi_2[2], &self.settings, t_start).unwrap();
        let source = PrecessingSource::new(
            m1,
            m2,
            &spins,
            p.theta_jn,
            p.phase,
            p.luminosity_distance,
            &self.settings,
            t_start,
            steps,
        )
        .unwrap();
        let lal = lal_spins(&spins, p.theta_jn, m1, m2, F_REF, p.phase).unwrap();
        let harmonics = Harmonics::new(lal.inclination, p.phase + lal.turn);
        let gmst = self.gmst0 + GMST_RATE_RAD_PER_S * p.geocent_time;
        let (mut antenna, mut arrival) = (Vec::new(), Vec::new());
        for d in &self.detectors {
            let f = d.antenna_pattern(p.ra, p.dec, p.psi, gmst);
            antenna.push(Complex64::new(f.plus, f.cross));
            arrival.push(p.geocent_time + d.time_delay_from_geocenter(p.ra, p.dec, gmst));
        }
        let inertial_factors = antenna
            .iter()
            .map(|&k| {
                inertial_modes()
                    .into_iter()
                    .map(|(l, m)| {
                        let (re, im) = harmonics.get(l, m);
                        k * Complex64::new(re, im) / p.luminosity_distance
                    })
                    .collect()
            })
            .collect();
        View {
            source,
            antenna,
            arrival,
            turns: Mode::ALL
                .map(|mode| Complex64::from_polar(1.0, f64::from(mode.lm().1) * lal.turn)),
            inertial_factors,
        }
    }
}

impl View {
    /// The terms T_j of basis `kind` in detector `k` at sample time `time` (s after the epoch).
    fn terms(&self, kind: Kind, k: usize, time: f64, out: &mut Vec<Complex64>) {
        let t = time - self.arrival[k];
        let model = self.source.model();
        let hp: Vec<Complex64> = model
            .coprecessing()
            .modes_at(t)
            .into_iter()
            .map(|(re, im)| Complex64::new(re, im))
            .collect();
        out.clear();
        match kind {
            Kind::Coprecessing => {
                let a = self.antenna[k];
                let c = self.source.coefficients(a, t, &EVERY_MODE);
                out.extend(c.iter().zip(&hp).map(|(c, h)| Complex64::new(c.0, c.1) * h));
            }
            Kind::Inertial => {
                let d = model.frame_at(t).wigner();
                let entry = |l, m, mp| {
                    let (re, im) = d.get(l, m, mp);
                    Complex64::new(re, im)
                };
                for ((l, m), factor) in inertial_modes().into_iter().zip(&self.inertial_factors[k])
                {
                    let mut sum = Complex64::new(0.0, 0.0);
                    for ((mode, h), turn) in Mode::ALL.iter().zip(&hp).zip(&self.turns) {
                        let (lj, mp) = mode.lm();
                        if lj != l {
                            continue;
                        }
                        let mp = mp as i32;
                        let g = turn * h;
                        // h^P_{l,−m′} = (−1)^l conj(h^P_lm′), turned by e^(−im′ψ′).
                        let partner = if l % 2 == 0 { g.conj() } else { -g.conj() };
                        sum += entry(l, m, mp) * g + entry(l, m, -mp) * partner;
                    }
                    out.push(factor * sum);
                }
            }
        }
    }
}

/// One detector's relative binning in one basis.
struct DetectorRb {
    summary: SummaryData,
    /// Which term each basis is (indices into the terms of `View::terms`).
    kept: Vec<usize>,
    /// The distinct node samples of all bases, and for each coefficient its place among them.
    union: Vec<usize>,
    place: Vec<usize>,
    node_counts: Vec<usize>,
}

struct Rb {
    kind: Kind,
    detectors: Vec<DetectorRb>,
    setup_s: f64,
}

impl Rb {
    fn new(study: &Study, kind: Kind, fiducial: &View, design: &[View]) -> Self {
        let clock = Instant::now();
        let grid = &study.grid;
        // The detectors on separate cores.
        let ks: Vec<usize> = (0..study.detectors.len()).collect();
        let detectors = parallel_map(&ks, |&k| {
            let noise = study.exact.noise(k);
            let mut buf = Vec::new();
            let mut columns: Vec<Vec<Complex64>> = Vec::new();
            for i in 0..grid.len {
                fiducial.terms(kind, k, grid.time(i), &mut buf);
                columns.resize(buf.len(), vec![Complex64::new(0.0, 0.0); grid.len]);
                for (col, &x) in columns.iter_mut().zip(&buf) {
                    col[i] = x;
                }
            }
            let weights: Vec<Vec<f64>> = columns
                .iter()
                .map(|v| snr_weights(v, Complex64::new(1.0, 0.0), noise).unwrap())
                .collect();
            // Drop the weakest terms while their norms sum below DROPPED_NORM.
            let norms: Vec<f64> = weights
                .iter()
                .map(|w| w.iter().sum::<f64>().sqrt())
                .collect();
            let mut order: Vec<usize> = (0..columns.len()).collect();
            order.sort_by(|&a, &b| norms[a].total_cmp(&norms[b]));
            let mut dropped = 0.0;
            let mut kept: Vec<usize> = Vec::new();
            for j in order {
                if dropped + norms[j] <= DROPPED_NORM {
                    dropped += norms[j];
                } else {
                    kept.push(j);
                }
            }
            kept.sort_unstable();
            let supports: Vec<usize> = kept
                .iter()
                .map(|&j| {
                    let v = &columns[j];
                    let peak = v.iter().fold(0.0_f64, |m, x| m.max(x.norm()));
                    v.iter()
                        .rposition(|x| x.norm() >= SUPPORT_FLOOR * peak)
                        .unwrap()
                })
                .collect();
            let last = *supports.iter().max().unwrap();
            // Design ratios of every kept term at every sample up to the last support.
            let mut ratios =
                vec![vec![vec![Complex64::new(0.0, 0.0); grid.len]; design.len()]; kept.len()];
            for (d, view) in design.iter().enumerate() {
                for i in 0..=last {
                    view.terms(kind, k, grid.time(i), &mut buf);
                    for (r, &j) in ratios.iter_mut().zip(&kept) {
                        let v = columns[j][i];
                        if v != Complex64::new(0.0, 0.0) {
                            r[d][i] = buf[j] / v;
                        }
                    }
                }
            }
            let mut node_sets = Vec::new();
            for ((r, &j), &end) in ratios.iter().zip(&kept).zip(&supports) {
                let options = RefineOptions {
                    target: TARGET,
                    support: Some(0..=end),
                    max_nodes: 4096,
                    ..RefineOptions::default()
                };
                node_sets.push(refine_nodes(r, &weights[j], &options).unwrap().nodes);
            }
            drop(ratios);
            let node_counts = node_sets.iter().map(|n| n.node_count()).collect();
            let mut union: Vec<usize> = node_sets
                .iter()
                .flat_map(|n| n.indices().to_vec())
                .collect();
            union.sort_unstable();
            union.dedup();
            let place = node_sets
                .iter()
                .flat_map(|n| n.indices().iter().map(|i| union.binary_search(i).unwrap()))
                .collect();
            let bases = kept
                .iter()
                .zip(node_sets)
                .map(|(&j, nodes)| Basis {
                    fiducial: &columns[j],
                    nodes,
                })
                .collect();
            let summary = SummaryData::stacked(bases, study.exact.data(k), noise, 0..=0).unwrap();
            DetectorRb {
                summary,
                kept,
                union,
                place,
                node_counts,
            }
        });
        Self {
            kind,
            detectors,
            setup_s: clock.elapsed().as_secs_f64(),
        }
    }

    /// ln L of the trial `view`.
    fn ln_l(&self, study: &Study, view: &View, ws: &mut RbWorkspace) -> f64 {
        let mut buf = Vec::new();
        let mut total = 0.0;
        for (k, det) in self.detectors.iter().enumerate() {
            let at_nodes: Vec<Vec<Complex64>> = det
                .union
                .iter()
                .map(|&i| {
                    view.terms(self.kind, k, study.grid.time(i), &mut buf);
                    det.kept.iter().map(|&j| buf[j]).collect()
                })
                .collect();
            let mut c = Vec::with_capacity(det.place.len());
            let mut b = 0;
            for (basis, &count) in det.node_counts.iter().enumerate() {
                for _ in 0..count {
                    c.push(at_nodes[det.place[b]][basis] / det.summary.fiducial_at_nodes()[b]);
                    b += 1;
                }
            }
            total += det.summary.log_likelihood_ratio(&c, 0, ws).unwrap();
        }
        total
    }
}

/// `f` over `items` on every core.
fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// The network Fisher matrix in the 15 parameters at `v`, by central differences.
#[allow(clippy::needless_range_loop)] // matrix indices read as the algebra
fn fisher(study: &Study, v: &Point) -> [[f64; DIM]; DIM] {
    let columns: Vec<Vec<Vec<f64>>> = parallel_map(&(0..DIM).collect::<Vec<_>>(), |&i| {
        let at = |s: f64| {
            let mut x = *v;
            x[i] += s * STEPS[i];
            study.templates(&x).unwrap()
        };
        let (plus, minus) = (at(1.0), at(-1.0));
        plus.iter()
            .zip(&minus)
            .map(|(a, b)| {
                a.iter()
                    .zip(b)
                    .map(|(a, b)| (a - b) / (2.0 * STEPS[i]))
                    .collect()
            })
            .collect()
    });
    let mut f = [[0.0; DIM]; DIM];
    for k in 0..study.detectors.len() {
        for i in 0..DIM {
            let kd = study.exact.noise(k).apply(&columns[i][k]).unwrap();
            for j in 0..DIM {
                f[i][j] += kd
                    .iter()
                    .zip(&columns[j][k])
                    .map(|(a, b)| a * b)
                    .sum::<f64>();
            }
        }
    }
    for i in 0..DIM {
        for j in 0..i {
            let m = 0.5 * (f[i][j] + f[j][i]);
            f[i][j] = m;
            f[j][i] = m;
        }
    }
    f
}

/// Draws from N(truth, (F + priors)⁻¹), F = the Fisher matrix.
struct Gaussian {
    truth: Point,
    /// Lower Cholesky factor of F + priors.
    l: Mat<f64>,
}

impl Gaussian {
    fn new(truth: Point, f: &[[f64; DIM]; DIM]) -> Self {
        let mut m = Mat::<f64>::from_fn(DIM, DIM, |i, j| f[i][j]);
        for (j, s) in PRIOR_SIGMA.iter().enumerate() {
            m[(j, j)] += 1.0 / (s * s);
        }
        let l = m
            .llt(Side::Lower)
            .expect("positive definite")
            .L()
            .to_owned();
        Self { truth, l }
    }

    /// 1σ widths √Σ_ii.
    fn widths(&self) -> Point {
        std::array::from_fn(|i| {
            // Σ = L⁻ᵀL⁻¹, so Σ_ii = ‖y‖² with L y = e_i.
            let mut y = [0.0; DIM];
            for r in i..DIM {
                let s: f64 = (i..r).map(|c| self.l[(r, c)] * y[c]).sum();
                y[r] = (f64::from(u8::from(r == i)) - s) / self.l[(r, r)];
            }
            y.iter().map(|v| v * v).sum::<f64>().sqrt()
        })
    }

    /// x with Lᵀx = z.
    fn solve_upper(&self, z: &Point) -> Point {
        let mut x = [0.0; DIM];
        for i in (0..DIM).rev() {
            let tail: f64 = (i + 1..DIM).map(|r| self.l[(r, i)] * x[r]).sum();
            x[i] = (z[i] - tail) / self.l[(i, i)];
        }
        x
    }

    /// `count` physical draws at `width` σ with an exact ln L deficit ≤ `depth` below
    /// `ln_l_max`, with their ln L, and how many were drawn.
    fn draw(
        &self,
        study: &Study,
        width: f64,
        depth: f64,
        ln_l_max: f64,
        count: usize,
        seed: u64,
    ) -> (Vec<(Point, f64)>, usize) {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut kept, mut drawn) = (Vec::new(), 0);
        while kept.len() < count {
            let batch: Vec<Point> = (0..2 * (count - kept.len()))
                .map(|_| {
                    let z: Point = std::array::from_fn(|_| {
                        let n: f64 = StandardNormal.sample(&mut rng);
                        width * n
                    });
                    let x = self.solve_upper(&z);
                    std::array::from_fn(|i| self.truth[i] + x[i])
                })
                .collect();
            drawn += batch.len();
            let lnl = parallel_map(&batch, |v| {
                physical(v).then(|| study.exact_ln_l(v)).flatten()
            });
            for (v, l) in batch.into_iter().zip(lnl) {
                if let Some(l) = l {
                    if l > ln_l_max - depth && kept.len() < count {
                        kept.push((v, l));
                    }
                }
            }
        }
        (kept, drawn)
    }
}

fn median_max(mut x: Vec<f64>) -> (f64, f64) {
    x.sort_by(f64::total_cmp);
    (x[x.len() / 2], x[x.len() - 1])
}

fn main() {
    let points: usize = std::env::args()
        .nth(1)
        .map_or(50, |s| s.parse().expect("points: a count"));
    let (chirp_mass, mass_ratio) = chirp_mass_and_ratio(36.0, 29.0);
    let base = BbhParameters::gw150914_like();
    let mut truth: Point = [
        chirp_mass,
        mass_ratio,
        0.7,
        0.5,
        1.2,
        2.1,
        0.8,
        0.3,
        1000.0,
        1.0,
        base.psi,
        base.phase,
        base.geocent_time,
        base.ra,
        base.dec,
    ];
    // The distance for network SNR 25.
    let probe = Study::new(None);
    let h = probe.templates(&truth).unwrap();
    let rho: f64 = (0..h.len())
        .map(|k| probe.exact.inner_product(k, &h[k], &h[k]).unwrap())
        .sum::<f64>()
        .sqrt();
    truth[8] *= rho / TARGET_SNR;
    let study = Study::new(probe.templates(&truth));
    let ln_l_max = study.exact_ln_l(&truth).unwrap();
    println!(
        "distance {:.1} Mpc, network SNR {:.2}, ln L(truth) = {ln_l_max:.3} (noise-free)",
        truth[8],
        (2.0 * ln_l_max).sqrt()
    );

    // The exact time of one ln L, serially.
    let clock = Instant::now();
    let reps = 5;
    for _ in 0..reps {
        study.exact_ln_l(&truth).unwrap();
    }
    let exact_s = clock.elapsed().as_secs_f64() / reps as f64;

    let clock = Instant::now();
    let gaussian = Gaussian::new(truth, &fisher(&study, &truth));
    println!("Fisher matrix: {:.1} s", clock.elapsed().as_secs_f64());
    let widths = gaussian.widths();
    println!("1σ widths (regularised Fisher):");
    for (name, w) in SpinModel::Precessing.names().iter().zip(widths) {
        println!("  {name:>20} {w:.3e}");
    }

    let clock = Instant::now();
    let (design, drawn) = gaussian.draw(
        &study,
        DESIGN_SCALE,
        DESIGN_DEPTH,
        ln_l_max,
        DESIGN_POINTS,
        1,
    );
    println!(
        "design: {} kept of {drawn} drawn ({:.1} s)",
        design.len(),
        clock.elapsed().as_secs_f64()
    );
    let fiducial = study.view(&truth);
    let design_views: Vec<View> = design.iter().map(|(v, _)| study.view(v)).collect();

    // The terms of each basis sum to the exact strain.
    let exact_h = study.templates(&truth).unwrap();
    for kind in [Kind::Coprecessing, Kind::Inertial] {
        let mut buf = Vec::new();
        let mut worst = 0.0_f64;
        let peak = exact_h[0].iter().fold(0.0_f64, |m, x| m.max(x.abs()));
        for (i, &h) in exact_h[0].iter().enumerate().step_by(7) {
            fiducial.terms(kind, 0, study.grid.time(i), &mut buf);
            let sum: f64 = buf.iter().map(|z| z.re).sum();
            worst = worst.max((sum - h).abs());
        }
        println!(
            "{kind:?} terms against the exact H1 strain: {:.1e} of its peak",
            worst / peak
        );
    }

    let sets: Vec<(&str, f64, f64, u64)> =
        vec![("posterior", 1.0, 30.0, 2), ("wide", 3.0, 300.0, 3)];
    let sets: Vec<(&str, Vec<(Point, f64)>)> = sets
        .into_iter()
        .map(|(label, width, depth, seed)| {
            let (p, drawn) = gaussian.draw(&study, width, depth, ln_l_max, points, seed);
            let deficits = median_max(p.iter().map(|(_, l)| ln_l_max - l).collect());
            println!(
                "{label}: {} kept of {drawn} drawn at {width}σ, ln L deficit median {:.1}, max {:.1}",
                p.len(),
                deficits.0,
                deficits.1
            );
            (label, p)
        })
        .collect();

    for kind in [Kind::Coprecessing, Kind::Inertial] {
        let rb = Rb::new(&study, kind, &fiducial, &design_views);
        println!("\n== {kind:?}: set-up {:.1} s", rb.setup_s);
        for (det, d) in study.detectors.iter().zip(&rb.detectors) {
            println!(
                "  {}: {} nodes in {} bases ({} distinct times), per basis {:?}",
                det.name,
                d.summary.node_count(),
                d.kept.len(),
                d.union.len(),
                d.node_counts
            );
            if kind == Kind::Inertial {
                let modes = inertial_modes();
                let kept: Vec<_> = d.kept.iter().map(|&j| modes[j]).collect();
                println!("     kept (l, m): {kept:?}");
            }
        }
        let mut ws = RbWorkspace::default();
        let at_truth = rb.ln_l(&study, &fiducial, &mut ws);
        println!(
            "  at the fiducial: |Δ ln L| {:.1e}",
            (at_truth - ln_l_max).abs()
        );
        for (label, p) in &sets {
            let errors = parallel_map(p, |(v, l)| {
                let mut ws = RbWorkspace::default();
                (rb.ln_l(&study, &study.view(v), &mut ws) - l).abs()
            });
            let (median, max) = median_max(errors);
            println!("  {label}: |Δ ln L| median {median:.1e}, max {max:.1e}");
        }
        // Serial cost of one value: the source's set-up, the terms at the nodes, the sums.
        let trial = &sets[0].1[0].0;
        let clock = Instant::now();
        for _ in 0..reps {
            rb.ln_l(&study, &study.view(trial), &mut ws);
        }
        let rb_s = clock.elapsed().as_secs_f64() / reps as f64;
        let clock = Instant::now();
        for _ in 0..reps {
            study.view(trial);
        }
        let view_s = clock.elapsed().as_secs_f64() / reps as f64;
        println!(
            "  one ln L: {:.2} ms (of which the source's set-up {:.2} ms) against exact {:.1} ms: RB/exact {:.3}",
            rb_s * 1e3,
            view_s * 1e3,
            exact_s * 1e3,
            rb_s / exact_s
        );
    }
}
