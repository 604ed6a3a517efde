//! Issue 3 acceptance on a GW150914-like IMRPhenomT injection (docs/likelihood.md §4.2):
//! optimal SNR per detector against the LAL-waveform reference and the frequency-domain inner
//! product, time-translation invariance, and ln L = 0 exactly at the truth without noise.

use realfft::RealFftPlanner;
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{ExactLikelihood, SampleGrid};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, Psd};
use tdpe_signal::{BbhParameters, SignalModel};

const FS: f64 = 2048.0;
const DURATION: f64 = 4.0;

fn model() -> SignalModel {
    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    SignalModel::new(detectors, GpsTime::new(1126259462, 0), 20.0, 1.0 / FS).unwrap()
}

/// 4 s with the merger 2 s after the segment start.
fn grid(shift: f64) -> SampleGrid {
    SampleGrid::new(
        BbhParameters::gw150914_like().geocent_time - 2.0 + shift,
        FS,
        DURATION,
    )
    .unwrap()
}

/// The zero-noise injection on the default grid: (model, signal, exact likelihood).
fn zero_noise_injection() -> (SignalModel, Vec<Vec<f64>>, ExactLikelihood) {
    let (model, grid) = (model(), grid(0.0));
    let signal = model
        .strain(
            &BbhParameters::gw150914_like(),
            grid.start,
            grid.dt,
            grid.len,
        )
        .unwrap();
    let like = likelihood(grid, signal.clone());
    (model, signal, like)
}

fn likelihood(grid: SampleGrid, data: Vec<Vec<f64>>) -> ExactLikelihood {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let band = AnalysisBand::default();
    let inputs = ["H1", "L1"]
        .iter()
        .zip(data)
        .map(|(name, d)| (name.to_string(), d, &psd, &band))
        .collect();
    ExactLikelihood::from_psds(grid, inputs).unwrap()
}

/// 4 Re Σ |h̃(f)|²/S(f) Δf over 20 Hz ≤ f < fs/2 (no window), h̃ = Δt·FFT(h).
fn fd_snr(h: &[f64], psd: &Psd) -> f64 {
    let n = h.len();
    let mut spectrum = RealFftPlanner::<f64>::new()
        .plan_fft_forward(n)
        .make_output_vec();
    let mut input = h.to_vec();
    RealFftPlanner::<f64>::new()
        .plan_fft_forward(n)
        .process(&mut input, &mut spectrum)
        .unwrap();
    let (dt, df) = (1.0 / FS, FS / n as f64);
    let sum: f64 = spectrum
        .iter()
        .enumerate()
        .filter(|(j, _)| (*j as f64) * df >= 20.0 && *j < n / 2)
        .map(|(j, c)| c.norm_sqr() * dt * dt / psd.value(j as f64 * df).unwrap())
        .sum();
    (4.0 * sum * df).sqrt()
}

#[test]
fn optimal_snr_of_gw150914_like_injection() {
    let (_, signal, like) = zero_noise_injection();
    let terms = like.detector_terms(&[&signal[0], &signal[1]]).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    // docs/likelihood.md §4.2: TD 21.37 (H1), 16.49 (L1) with LAL's IMRPhenomT in an independent
    // numpy implementation of the same likelihood.
    for (t, (reference, h)) in terms.iter().zip([21.37, 16.49].iter().zip(&signal)) {
        let fd = fd_snr(h, &psd);
        println!(
            "{}: optimal SNR TD {:.3} (reference {reference}), FD above 20 Hz {:.3}",
            t.name, t.optimal_snr, fd
        );
        assert!((t.optimal_snr / reference - 1.0).abs() < 0.01);
        assert!((t.optimal_snr / fd - 1.0).abs() < 0.02);
    }
}

#[test]
fn common_sub_sample_shift_of_data_and_template_leaves_ln_l_unchanged() {
    // Times are relative to the model's epoch. Moving the epoch back by δ (whole nanoseconds,
    // a fraction of a sample) while the grid start and every t_c move forward by δ describes
    // the same physical data and signal, but every waveform is evaluated at times shifted by δ.
    // With the same noise samples, ln L must not change: a phase tied to a grid index or to
    // the first sample would change it by ~ρ²·ω·δ ≈ 1.
    let spectrum = GriddedSpectrum::from_psd(
        &Psd::builtin("aLIGOZeroDetHighPower").unwrap(),
        &AnalysisBand::default(),
        FS,
        grid(0.0).len,
    )
    .unwrap();
    let noise: Vec<Vec<f64>> = (0..2)
        .map(|k| simulate_frequency_domain_seeded(&spectrum, grid(0.0).len, 7 + k).unwrap())
        .collect();
    let mut template = BbhParameters::gw150914_like();
    template.chirp_mass *= 1.0005;
    template.phase += 0.2;
    let ln_l = |shift_ns: i64| {
        let shift = shift_ns as f64 * 1e-9;
        let detectors = Detector::network(&["H1", "L1"]).unwrap();
        let epoch = GpsTime::new(1126259462, -shift_ns);
        let model = SignalModel::new(detectors, epoch, 20.0, 1.0 / FS).unwrap();
        let g = grid(shift);
        let mut injected = BbhParameters::gw150914_like();
        injected.geocent_time += shift;
        let mut data = model.strain(&injected, g.start, g.dt, g.len).unwrap();
        for (d, n) in data.iter_mut().zip(&noise) {
            d.iter_mut().zip(n).for_each(|(d, n)| *d += n);
        }
        let mut t = template;
        t.geocent_time += shift;
        let h = model.strain(&t, g.start, g.dt, g.len).unwrap();
        likelihood(g, data)
            .log_likelihood_ratio(&[&h[0], &h[1]])
            .unwrap()
    };
    let reference = ln_l(0);
    // 0.3, −0.77 and 12.5 samples at 2048 Hz, and 0.37 s.
    for shift_ns in [146_484, -375_977, 6_103_516, 370_000_000] {
        let shifted = ln_l(shift_ns);
        println!("shift {shift_ns} ns: ln L {shifted} vs {reference}");
        assert!((shifted - reference).abs() <= 1e-8 * reference.abs());
    }
}

#[test]
fn zero_noise_injection_at_truth_has_ln_l_zero() {
    let (model, _, like) = zero_noise_injection();
    // The template evaluated anew, as a sampler would.
    let g = like.grid();
    let h = model
        .strain(&BbhParameters::gw150914_like(), g.start, g.dt, g.len)
        .unwrap();
    let terms = like.detector_terms(&[&h[0], &h[1]]).unwrap();
    for t in &terms {
        // ln L(d|θ) − ln L(d|noise) = ⟨d|h⟩ − ½⟨h|h⟩ = ½⟨d|d⟩, i.e. −½⟨d−h|d−h⟩ = 0.
        assert_eq!(t.d_h, t.h_h, "{}", t.name);
        assert_eq!(t.log_likelihood_ratio, 0.5 * t.h_h, "{}", t.name);
    }
}
