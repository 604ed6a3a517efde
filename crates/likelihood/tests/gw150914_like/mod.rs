//! The GW150914-like injection in simulated noise (likelihood.md §3), shared by the
//! relative-binning test and the `rb_accuracy` example.
#![allow(dead_code)]

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{BbhExactLikelihood, ExactLikelihood, SampleGrid};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{LowFrequencyCutoff, Psd};
use tdpe_signal::{BbhParameters, SignalModel};

/// Rough 1σ widths of the GW150914-like posterior at SNR 27, in the order of
/// `tdpe_signal::PARAMETER_NAMES`.
pub const SIGMA: [f64; 11] = [0.1, 0.05, 0.1, 0.15, 120.0, 0.1, 0.1, 0.1, 2e-4, 0.02, 0.02];

/// The injection into H1 and L1 (design PSD, Gaussian noise with fixed seeds), `duration` s at
/// `fs` Hz with the merger 2 s before the end, and its exact likelihood.
pub fn noisy_injection(fs: f64, duration: f64) -> BbhExactLikelihood {
    let truth = BbhParameters::gw150914_like();
    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    let model = SignalModel::new(detectors, GpsTime::new(1126259462, 0), 20.0, 1.0 / fs).unwrap();
    let grid = SampleGrid::new(truth.geocent_time + 2.0 - duration, fs, duration).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let cutoff = LowFrequencyCutoff::default();
    let spectrum = GriddedSpectrum::from_psd(&psd, &cutoff, fs, grid.len).unwrap();
    let signal = model.strain(&truth, grid.start, grid.dt, grid.len).unwrap();
    let inputs = ["H1", "L1"]
        .iter()
        .zip(signal)
        .enumerate()
        .map(|(k, (name, mut d))| {
            let noise =
                simulate_frequency_domain_seeded(&spectrum, grid.len, 100 + k as u64).unwrap();
            d.iter_mut().zip(noise).for_each(|(d, n)| *d += n);
            (name.to_string(), d, &psd)
        })
        .collect();
    let likelihood = ExactLikelihood::from_psds(grid, inputs, &cutoff).unwrap();
    BbhExactLikelihood::new(model, likelihood).unwrap()
}

/// `count` points whose exact ln L lies within `depth` of `ln_l_max`, drawn by perturbing the
/// truth with `width`·σ Gaussians (rejection), with their exact ln L.
pub fn draw_points(
    exact: &BbhExactLikelihood,
    ln_l_max: f64,
    width: f64,
    depth: f64,
    count: usize,
    seed: u64,
) -> Vec<(BbhParameters, f64)> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut points = Vec::new();
    while points.len() < count {
        let mut v = BbhParameters::gw150914_like().to_array();
        for (x, s) in v.iter_mut().zip(SIGMA) {
            let z: f64 = rng.sample(rand_distr::StandardNormal);
            *x += width * s * z;
        }
        v[1] = v[1].min(1.0);
        let p = BbhParameters::from_array(v);
        if let Ok(l) = exact.log_likelihood_ratio(&p) {
            if l > ln_l_max - depth {
                points.push((p, l));
            }
        }
    }
    points
}

/// Median, 99th percentile and maximum.
pub fn quantiles(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), values[values.len() - 1])
}
