//! The GW150914-like injection in simulated noise (docs/likelihood.md §4.2), shared by the
//! relative-binning test, the benches and the `rb_accuracy` example; [`Injection`] also
//! describes other sources (the example's 128 s binary neutron star).
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, DetectorInput, ExactLikelihood, SampleGrid,
};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};
use tdpe_phenomt::Mode;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SignalModel, SpinModel};

/// The aligned-spin analysis's parameters: the order of [`SIGMA`], of the Fisher matrix and of
/// [`aligned`].
pub const ALIGNED: &[Parameter] = SpinModel::Aligned.parameters();

/// `v`'s values of the [`ALIGNED`] parameters.
pub fn aligned(v: &ParameterVector) -> [f64; 11] {
    std::array::from_fn(|j| v[ALIGNED[j]])
}

/// Rough 1σ widths of the GW150914-like posterior at SNR 27, in the order of [`ALIGNED`].
pub const SIGMA: [f64; 11] = [0.1, 0.05, 0.1, 0.15, 120.0, 0.1, 0.1, 0.1, 2e-4, 0.02, 0.02];

/// An injection into H1 and L1 (aLIGO design PSD, Gaussian noise with fixed seeds).
#[derive(Clone, Copy, Debug)]
pub struct Injection {
    pub truth: BbhParameters,
    /// Sampling frequency (Hz).
    pub fs: f64,
    /// Segment length (s).
    pub duration: f64,
    /// Low-frequency cut-off f_low of the covariance (Hz; ramp from f_low − 4 Hz), also the
    /// waveform's reference frequency.
    pub f_low: f64,
    /// The segment ends this long after the geocentre peak (s).
    pub after_merger: f64,
    /// The injected modes (and those of the likelihood's model).
    pub modes: &'static [Mode],
}

impl Injection {
    /// The GW150914-like binary with the merger 2 s before the end, cut-off 20 Hz.
    pub fn gw150914_like(fs: f64, duration: f64) -> Self {
        Self {
            truth: BbhParameters::gw150914_like(),
            fs,
            duration,
            f_low: 20.0,
            after_merger: 2.0,
            modes: &[Mode::L2M2],
        }
    }

    /// An unequal-mass binary seen at θ_jn = 1 (m1 = 30, m2 = 8 M☉, χ = 0.3, network SNR ≈ 22)
    /// with IMRPhenomTHM's five modes, where the higher modes matter (issue 22's benchmark).
    pub fn asymmetric_with_higher_modes(fs: f64, duration: f64) -> Self {
        let (chirp_mass, mass_ratio) = tdpe_signal::chirp_mass_and_ratio(30.0, 8.0);
        Self {
            truth: BbhParameters {
                chirp_mass,
                mass_ratio,
                chi_1: 0.3,
                chi_2: 0.3,
                luminosity_distance: 700.0,
                theta_jn: 1.0,
                ..BbhParameters::gw150914_like()
            },
            modes: &Mode::ALL,
            ..Self::gw150914_like(fs, duration)
        }
    }
}

/// Wall-clock time (s) of the stages of [`noisy_injection_timed`].
#[derive(Clone, Copy, Debug, Default)]
pub struct SetupTimes {
    /// S_TD on the fine grid and the ACF (once: both detectors share the PSD).
    pub acf: f64,
    /// C⁻¹ (x = C⁻¹e₀, log det C and the GS spectra), once, shared by both detectors.
    pub noise_inverse: f64,
    /// The exact likelihood from data and C⁻¹ (C⁻¹d and ⟨d|d⟩ per detector).
    pub likelihood: f64,
    /// Signal and noise simulation (not part of a real analysis's set-up).
    pub simulation: f64,
}

/// The injection's data, C⁻¹ and exact likelihood, with the time of each stage.
pub fn noisy_injection_timed(inj: &Injection) -> (BbhExactLikelihood, SetupTimes) {
    let mut times = SetupTimes::default();
    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    let model = SignalModel::new(
        detectors,
        GpsTime::new(1126259462, 0),
        inj.f_low,
        1.0 / inj.fs,
    )
    .unwrap()
    .with_modes(inj.modes)
    .unwrap();
    let start = inj.truth.geocent_time + inj.after_merger - inj.duration;
    let grid = SampleGrid::new(start, inj.fs, inj.duration).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let cutoff = AnalysisBand {
        f_low: inj.f_low,
        ..AnalysisBand::default()
    };
    let clock = Instant::now();
    let spectrum = GriddedSpectrum::from_psd(&psd, &cutoff, inj.fs, grid.len).unwrap();
    let acf = spectrum.acf();
    times.acf = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let noise = Arc::new(ToeplitzInverse::from_acf(&acf, grid.len).unwrap());
    times.noise_inverse = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let signal = model
        .strain(&inj.truth, grid.start, grid.dt, grid.len)
        .unwrap();
    let inputs: Vec<DetectorInput> = ["H1", "L1"]
        .iter()
        .zip(signal)
        .enumerate()
        .map(|(k, (name, mut d))| {
            let n = simulate_frequency_domain_seeded(&spectrum, grid.len, 100 + k as u64).unwrap();
            d.iter_mut().zip(n).for_each(|(d, n)| *d += n);
            DetectorInput {
                name: name.to_string(),
                data: d,
                noise: noise.clone(),
            }
        })
        .collect();
    times.simulation = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let likelihood = ExactLikelihood::new(grid, inputs).unwrap();
    times.likelihood = clock.elapsed().as_secs_f64();
    (BbhExactLikelihood::new(model, likelihood).unwrap(), times)
}

/// The GW150914-like injection, `duration` s at `fs` Hz with the merger 2 s before the end,
/// and its exact likelihood.
pub fn noisy_injection(fs: f64, duration: f64) -> BbhExactLikelihood {
    noisy_injection_timed(&Injection::gw150914_like(fs, duration)).0
}

/// The exact likelihood of noise-free data d = h(`truth`) of a precessing binary in H1 and L1
/// (design PSD), 4 s at 2048 Hz with `truth`'s peak 2 s before the end, f_low = f_ref = 20 Hz.
pub fn noise_free_precessing(truth: &BbhParameters) -> BbhExactLikelihood {
    let (fs, duration, f_low) = (2048.0, 4.0, 20.0);
    let detectors = ["H1", "L1"];
    let model = SignalModel::new(
        Detector::network(&detectors).unwrap(),
        GpsTime::new(1126259462, 0),
        f_low,
        1.0 / fs,
    )
    .unwrap()
    .precessing();
    let grid = SampleGrid::new(truth.geocent_time + 2.0 - duration, fs, duration).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let band = AnalysisBand {
        f_low,
        ..AnalysisBand::default()
    };
    let spectrum = GriddedSpectrum::from_psd(&psd, &band, fs, grid.len).unwrap();
    let noise = Arc::new(ToeplitzInverse::from_acf(&spectrum.acf(), grid.len).unwrap());
    let signal = model.strain(truth, grid.start, grid.dt, grid.len).unwrap();
    let inputs = detectors
        .iter()
        .zip(signal)
        .map(|(name, data)| DetectorInput {
            name: name.to_string(),
            data,
            noise: noise.clone(),
        })
        .collect();
    BbhExactLikelihood::new(model, ExactLikelihood::new(grid, inputs).unwrap()).unwrap()
}

/// `count` points whose exact ln L lies within `depth` of `ln_l_max`, drawn by perturbing the
/// GW150914-like truth with `width`·[`SIGMA`] Gaussians (rejection), with their exact ln L.
pub fn draw_points(
    exact: &BbhExactLikelihood,
    ln_l_max: f64,
    width: f64,
    depth: f64,
    count: usize,
    seed: u64,
) -> Vec<(BbhParameters, f64)> {
    let truth = BbhParameters::gw150914_like();
    draw_points_around(exact, &truth, &SIGMA, ln_l_max, width, depth, count, seed)
}

/// As [`draw_points`] around `truth` with widths `sigma`.
#[allow(clippy::too_many_arguments)]
pub fn draw_points_around(
    exact: &BbhExactLikelihood,
    truth: &BbhParameters,
    sigma: &[f64; 11],
    ln_l_max: f64,
    width: f64,
    depth: f64,
    count: usize,
    seed: u64,
) -> Vec<(BbhParameters, f64)> {
    let draws = Draws {
        parameters: ALIGNED,
        sigma,
        width,
        depth,
    };
    draws.around(exact, truth, ln_l_max, count, seed)
}

/// Gaussian perturbations of `parameters` by `width`·`sigma`, kept within an exact ln L
/// deficit `depth`.
pub struct Draws<'a> {
    pub parameters: &'a [Parameter],
    pub sigma: &'a [f64],
    pub width: f64,
    pub depth: f64,
}

impl Draws<'_> {
    /// `count` points around `truth` whose exact ln L lies within the depth of `ln_l_max`
    /// (rejection), with their exact ln L.
    pub fn around(
        &self,
        exact: &BbhExactLikelihood,
        truth: &BbhParameters,
        ln_l_max: f64,
        count: usize,
        seed: u64,
    ) -> Vec<(BbhParameters, f64)> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut points = Vec::new();
        while points.len() < count {
            let mut v = truth.to_array();
            for (&parameter, s) in self.parameters.iter().zip(self.sigma) {
                let z: f64 = rng.sample(rand_distr::StandardNormal);
                v[parameter] += self.width * s * z;
            }
            v[Parameter::MassRatio] = v[Parameter::MassRatio].min(1.0);
            let p = BbhParameters::from_array(v);
            if let Ok(l) = exact.log_likelihood_ratio(&p) {
                if l > ln_l_max - self.depth {
                    points.push((p, l));
                }
            }
        }
        points
    }
}

/// The network Fisher matrix F_ij = Σ_k⟨∂_i h_k|∂_j h_k⟩ at `p`, by central differences of
/// the templates with steps `steps` (11 C⁻¹ applies per detector).
#[allow(clippy::needless_range_loop)] // matrix indices read as the algebra
pub fn fisher_matrix(
    exact: &BbhExactLikelihood,
    p: &BbhParameters,
    steps: &[f64; 11],
) -> [[f64; 11]; 11] {
    let like = exact.likelihood();
    // derivatives[i][k]: ∂h_k/∂θ_i.
    let derivatives: Vec<Vec<Vec<f64>>> = (0..11)
        .map(|i| {
            let at = |s: f64| {
                let mut v = p.to_array();
                v[ALIGNED[i]] += s * steps[i];
                exact.templates(&BbhParameters::from_array(v)).unwrap()
            };
            let (plus, minus) = (at(1.0), at(-1.0));
            plus.iter()
                .zip(&minus)
                .map(|(a, b)| {
                    a.iter()
                        .zip(b)
                        .map(|(a, b)| (a - b) / (2.0 * steps[i]))
                        .collect()
                })
                .collect()
        })
        .collect();
    let mut fisher = [[0.0; 11]; 11];
    for k in 0..derivatives[0].len() {
        for i in 0..11 {
            let kd = like.noise(k).apply(&derivatives[i][k]).unwrap();
            for j in 0..11 {
                fisher[i][j] += kd
                    .iter()
                    .zip(&derivatives[j][k])
                    .map(|(a, b)| a * b)
                    .sum::<f64>();
            }
        }
    }
    // Symmetrise the round-off.
    for i in 0..11 {
        for j in 0..i {
            let m = 0.5 * (fisher[i][j] + fisher[j][i]);
            fisher[i][j] = m;
            fisher[j][i] = m;
        }
    }
    fisher
}

/// Conditional 1σ widths 1/√F_ii of the [`fisher_matrix`].
pub fn conditional_sigmas(
    exact: &BbhExactLikelihood,
    p: &BbhParameters,
    steps: &[f64; 11],
) -> [f64; 11] {
    let f = fisher_matrix(exact, p, steps);
    std::array::from_fn(|i| 1.0 / f[i][i].sqrt())
}

/// Asserts that `rb` reproduces the exact ln L of `points` to `tolerance`, printing the median,
/// 99th percentile and largest |Δ ln L| under `label`.
pub fn assert_reproduces(
    rb: &BbhRelativeBinning,
    points: &[(BbhParameters, f64)],
    label: &str,
    tolerance: f64,
) {
    let errors: Vec<f64> = points
        .iter()
        .map(|(p, l)| (rb.log_likelihood_ratio(p).unwrap() - l).abs())
        .collect();
    let (median, p99, max) = quantiles(errors);
    println!("{label}: |ΔlnL| median {median:.2e}, p99 {p99:.2e}, max {max:.2e}");
    assert!(max <= tolerance, "{label}: max |ΔlnL| {max:e}");
}

/// Median, 99th percentile and maximum.
pub fn quantiles(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), values[values.len() - 1])
}
