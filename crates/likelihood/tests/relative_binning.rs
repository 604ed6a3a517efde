//! Relative binning against the exact Gohberg–Semencul likelihood (docs/likelihood.md §3.2–§3.7),
//! on a synthetic, waveform-agnostic chirp in aLIGO design noise (20 Hz cut-off), 4 s at
//! 2048 Hz.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::{Arc, OnceLock};
use tdpe_likelihood::relative_binning::{
    refine_nodes, snr_weights, Basis, Complex64, NodeSet, RbError, ReconstructedLikelihood,
    RefineOptions, SummaryData,
};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};

const FS: f64 = 2048.0;
const N: usize = 8192;
/// Fiducial peak time (s from the segment start).
const T_C: f64 = 2.0;
/// G·Mc/c³ (s) of a 28 M☉ chirp mass: 14.6 Hz at the segment start.
const M_S: f64 = 28.0 * 4.925_490_947e-6;
/// Support: up to 0.1 s after the fiducial peak (docs/likelihood.md §3.5).
const SUPPORT_END: usize = ((T_C + 0.1) * FS) as usize;
/// Design and trial ranges: time shift ±3 ms, fractional chirp-mass change ±1e-3.
const DT_MAX: f64 = 3e-3;
const DM_MAX: f64 = 1e-3;
const SNR: f64 = 25.0;

/// Smooth complex chirp W(t) = A e^{−iΦ}: Newtonian Φ = −2(τ/5M)^{5/8}, A ∝ τ^{−1/4}, with
/// the time to coalescence τ smoothly floored at 2 ms and the amplitude switched off after the
/// peak with a 2 ms logistic; a closed form of time, so shifts are exact.
#[derive(Debug, Clone, Copy)]
struct Chirp {
    t_c: f64,
    m_s: f64,
    amp: f64,
}

impl Chirp {
    fn w(&self, t: f64) -> Complex64 {
        const EPS: f64 = 2e-3;
        let s = t - self.t_c;
        let x = -s / EPS;
        let softplus = if x > 30.0 { x } else { x.exp().ln_1p() };
        let tau = EPS * softplus + 2e-3;
        let phase = -2.0 * (tau / (5.0 * self.m_s)).powf(0.625);
        let amp = self.amp * tau.powf(-0.25) / (1.0 + (s / EPS).exp());
        Complex64::from_polar(amp, -phase)
    }
    fn series(&self) -> Vec<Complex64> {
        (0..N).map(|i| self.w(i as f64 / FS)).collect()
    }
    /// Time shift `dt` (s) and fractional chirp-mass change `dm`.
    fn perturbed(&self, dt: f64, dm: f64) -> Self {
        Self {
            t_c: self.t_c + dt,
            m_s: self.m_s * (1.0 + dm),
            amp: self.amp,
        }
    }
}

struct Fixture {
    noise: Arc<ToeplitzInverse>,
    chirp: Chirp,
    q0: Complex64,
    v: Vec<Complex64>,
    data: Vec<f64>,
    kd: Vec<f64>,
    nodes: NodeSet,
    summary: SummaryData,
    reconstructed: ReconstructedLikelihood,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), FS, N).unwrap();
        let noise = Arc::new(ToeplitzInverse::from_acf(&spec.acf(), N).unwrap());
        let q0 = Complex64::from_polar(1.0, 0.7);
        let unit = Chirp {
            t_c: T_C,
            m_s: M_S,
            amp: 1.0,
        };
        let hh = inner(&noise, &real_part(q0, &unit.series()));
        let chirp = Chirp {
            amp: SNR / hh.sqrt(),
            ..unit
        };
        let v = chirp.series();
        // Injection slightly off the fiducial, plus Gaussian noise of the same covariance.
        let inj = chirp.perturbed(0.7e-3, 3e-4);
        let q_inj = q0 * Complex64::from_polar(1.05, 0.1);
        let noise_series = simulate_frequency_domain_seeded(&spec, N, 7).unwrap();
        let data: Vec<f64> = real_part(q_inj, &inj.series())
            .iter()
            .zip(&noise_series)
            .map(|(h, n)| h + n)
            .collect();
        let kd = noise.apply(&data).unwrap();
        // Design set: J = 32 uniform draws of (time shift, chirp mass).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let ratios: Vec<Vec<Complex64>> = (0..32)
            .map(|_| {
                let p = chirp.perturbed(
                    rng.random_range(-DT_MAX..DT_MAX),
                    rng.random_range(-DM_MAX..DM_MAX),
                );
                (0..N)
                    .map(|i| {
                        if i <= SUPPORT_END {
                            p.w(i as f64 / FS) / v[i]
                        } else {
                            Complex64::new(0.0, 0.0)
                        }
                    })
                    .collect()
            })
            .collect();
        let weights = snr_weights(&v, q0, &noise).unwrap();
        let refined = refine_nodes(
            &ratios,
            &weights,
            &RefineOptions {
                support: Some(0..=SUPPORT_END),
                ..RefineOptions::default()
            },
        )
        .unwrap();
        eprintln!(
            "refinement: {} nodes, error {:.2e} after {} passes",
            refined.nodes.node_count(),
            refined.error,
            refined.iterations
        );
        let nodes = refined.nodes;
        let summary = SummaryData::new(&v, &data, &noise, nodes.clone()).unwrap();
        let reconstructed =
            ReconstructedLikelihood::new(&v, &data, noise.clone(), nodes.clone()).unwrap();
        Fixture {
            noise,
            chirp,
            q0,
            v,
            data,
            kd,
            nodes,
            summary,
            reconstructed,
        }
    })
}

fn real_part(q: Complex64, w: &[Complex64]) -> Vec<f64> {
    w.iter().map(|z| (q * z).re).collect()
}

fn inner(noise: &ToeplitzInverse, h: &[f64]) -> f64 {
    h.iter()
        .zip(noise.apply(h).unwrap())
        .map(|(a, b)| a * b)
        .sum()
}

/// Exact ⟨d|h⟩ − ½⟨h|h⟩ by Gohberg–Semencul.
fn exact_ln_l(f: &Fixture, h: &[f64]) -> f64 {
    let d_h: f64 = h.iter().zip(&f.kd).map(|(a, b)| a * b).sum();
    d_h - 0.5 * inner(&f.noise, h)
}

/// Node coefficients c_b = Q·W(t_{n_b})/v_{n_b} of a trial.
fn coefficients(f: &Fixture, q: Complex64, w: &Chirp) -> Vec<Complex64> {
    f.nodes
        .indices()
        .iter()
        .zip(f.summary.fiducial_at_nodes())
        .map(|(&i, v)| q * w.w(i as f64 / FS) / v)
        .collect()
}

fn random_coefficients(rng: &mut Xoshiro256PlusPlus, q0: Complex64, m: usize) -> Vec<Complex64> {
    (0..m)
        .map(|_| {
            q0 * Complex64::new(
                1.0 + rng.random_range(-0.3..0.3),
                rng.random_range(-0.3..0.3),
            )
        })
        .collect()
}

#[test]
fn node_at_every_sample_is_exact() {
    // Every sample of a 512-sample window around the peak is a node: the basis is exact there
    // and h = Re[c_i v_i] on the window, 0 elsewhere, for arbitrary c.
    let f = fixture();
    let lo = SUPPORT_END - 511;
    let nodes = NodeSet::new((lo..=SUPPORT_END).collect(), N).unwrap();
    let summary = SummaryData::new(&f.v, &f.data, &f.noise, nodes.clone()).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut ws = summary.workspace();
    let mut worst: f64 = 0.0;
    for _ in 0..3 {
        let c = random_coefficients(&mut rng, f.q0, nodes.node_count());
        let mut h = vec![0.0; N];
        for (k, i) in (lo..=SUPPORT_END).enumerate() {
            h[i] = (c[k] * f.v[i]).re;
        }
        let exact = exact_ln_l(f, &h);
        let rb = summary.log_likelihood_ratio(&c, 0, &mut ws).unwrap();
        worst = worst.max((rb - exact).abs());
    }
    eprintln!("node at every sample (B = 511): max |ΔlnL| = {worst:.2e}");
    assert!(worst <= 1e-8, "{worst}");
}

#[test]
fn stacked_bases_give_the_likelihood_of_the_summed_template() {
    // Two bases with a node at every sample of their windows (so each is exact there): the
    // chirp, and a weaker harmonic at twice its phase on a shorter window, as a (2,2) mode and
    // a higher mode. The stack's ln L is that of h = Re[Σ c₁v₁ + Σ c₂v₂], cross terms included.
    let f = fixture();
    let harmonic: Vec<Complex64> = f.v.iter().map(|z| 0.3 * z * z / z.norm()).collect();
    let windows = [
        SUPPORT_END - 383..=SUPPORT_END,
        SUPPORT_END - 300..=SUPPORT_END - 60,
    ];
    let fiducials = [&f.v, &harmonic];
    let bases = windows
        .iter()
        .zip(fiducials)
        .map(|(window, fiducial)| Basis {
            fiducial,
            nodes: NodeSet::new(window.clone().collect(), N).unwrap(),
        })
        .collect();
    let summary = SummaryData::stacked(bases, &f.data, &f.noise, 0..=0).unwrap();
    assert_eq!(summary.bases().len(), 2);
    assert_eq!(summary.node_count(), 384 + 241);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut ws = summary.workspace();
    let mut worst: f64 = 0.0;
    for _ in 0..3 {
        let c = random_coefficients(&mut rng, f.q0, summary.node_count());
        let mut h = vec![0.0; N];
        let mut k = 0;
        for (window, fiducial) in windows.iter().zip(fiducials) {
            for i in window.clone() {
                h[i] += (c[k] * fiducial[i]).re;
                k += 1;
            }
        }
        let exact = exact_ln_l(f, &h);
        let rb = summary.log_likelihood_ratio(&c, 0, &mut ws).unwrap();
        worst = worst.max((rb - exact).abs());
    }
    eprintln!("two stacked bases (B = 624): max |ΔlnL| = {worst:.2e}");
    assert!(worst <= 1e-8, "{worst}");
    let empty = SummaryData::stacked(Vec::new(), &f.data, &f.noise, 0..=0).unwrap_err();
    assert!(empty.to_string().contains("at least one basis"), "{empty}");
}

#[test]
fn refined_nodes_match_exact_at_fiducial_and_trials() {
    let f = fixture();
    let mut ws = f.summary.workspace();
    let b = f.nodes.bins();
    // Fiducial: c_b = Q0 (r = 1), reproduced exactly by the partition of unity.
    let c0 = vec![f.q0; f.nodes.node_count()];
    let rb0 = f.summary.log_likelihood_ratio(&c0, 0, &mut ws).unwrap();
    let ex0 = exact_ln_l(f, &real_part(f.q0, &f.v));
    eprintln!(
        "fiducial: lnL = {ex0:.6}, |ΔlnL| = {:.2e}",
        (rb0 - ex0).abs()
    );
    assert!((rb0 - ex0).abs() <= 1e-8, "{rb0} vs {ex0}");
    // Trials inside the design range.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mut errs = Vec::new();
    let mut rel_ln_l = Vec::new();
    for _ in 0..40 {
        let w = f.chirp.perturbed(
            rng.random_range(-DT_MAX..DT_MAX),
            rng.random_range(-DM_MAX..DM_MAX),
        );
        // Phase near the best fit to the data (argmax of Re[Q Σ_i (C⁻¹d)_i W_i]), amplitude ±10%.
        let series = w.series();
        let z: Complex64 = series.iter().zip(&f.kd).map(|(x, k)| x * k).sum();
        let q = Complex64::from_polar(
            f.q0.norm() * (1.0 + rng.random_range(-0.1..0.1)),
            -z.arg() + rng.random_range(-0.2..0.2),
        );
        let exact = exact_ln_l(f, &real_part(q, &series));
        let rb = f
            .summary
            .log_likelihood_ratio(&coefficients(f, q, &w), 0, &mut ws)
            .unwrap();
        errs.push((rb - exact).abs());
        rel_ln_l.push(exact - ex0);
    }
    errs.sort_by(f64::total_cmp);
    rel_ln_l.sort_by(f64::total_cmp);
    eprintln!(
        "B = {b}: trials |ΔlnL| median {:.2e} max {:.2e}; lnL − lnL_fid in [{:.1}, {:.1}]",
        errs[errs.len() / 2],
        errs[errs.len() - 1],
        rel_ln_l[0],
        rel_ln_l[rel_ln_l.len() - 1]
    );
    assert!(b <= 150, "B = {b}");
    assert!(errs[errs.len() - 1] <= 1e-3);
}

#[test]
fn dense_form_equals_reconstruct_and_apply() {
    let f = fixture();
    let m = f.nodes.node_count();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let (mut ws, mut wr) = (f.summary.workspace(), f.reconstructed.workspace());
    let (mut g_dense, mut g_rec) = (vec![Complex64::default(); m], vec![Complex64::default(); m]);
    for _ in 0..3 {
        let c = random_coefficients(&mut rng, f.q0, m);
        let l_dense = f.summary.adjoint(&c, 0, &mut g_dense, &mut ws).unwrap();
        let l_value = f.summary.log_likelihood_ratio(&c, 0, &mut ws).unwrap();
        let l_rec = f.reconstructed.adjoint(&c, &mut g_rec, &mut wr).unwrap();
        let scale = l_rec.abs().max(1.0);
        assert!(
            (l_dense - l_rec).abs() <= 1e-9 * scale,
            "{l_dense} vs {l_rec}"
        );
        assert!(
            (l_value - l_rec).abs() <= 1e-9 * scale,
            "{l_value} vs {l_rec}"
        );
        let g_scale = g_rec.iter().map(|z| z.norm()).fold(0.0, f64::max);
        let g_err = g_dense
            .iter()
            .zip(&g_rec)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max);
        assert!(g_err <= 1e-9 * g_scale, "{g_err} vs {g_scale}");
    }
}

#[test]
fn adjoint_matches_finite_differences() {
    let f = fixture();
    let m = f.nodes.node_count();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
    let mut ws = f.summary.workspace();
    let c = random_coefficients(&mut rng, f.q0, m);
    let mut g = vec![Complex64::default(); m];
    f.summary.adjoint(&c, 0, &mut g, &mut ws).unwrap();
    let g_scale = g.iter().map(|z| z.norm()).fold(0.0, f64::max);
    // ln L is quadratic in c, so central differences have no truncation error.
    let h = 1e-3 * f.q0.norm();
    let mut worst: f64 = 0.0;
    for b in (0..m).step_by(7).chain([m - 1]) {
        for dir in [Complex64::new(h, 0.0), Complex64::new(0.0, h)] {
            let mut cp = c.clone();
            cp[b] += dir;
            let lp = f.summary.log_likelihood_ratio(&cp, 0, &mut ws).unwrap();
            cp[b] = c[b] - dir;
            let lm = f.summary.log_likelihood_ratio(&cp, 0, &mut ws).unwrap();
            let fd = (lp - lm) / (2.0 * h);
            let analytic = (g[b] * dir).re / h;
            worst = worst.max((fd - analytic).abs() / g_scale);
        }
    }
    eprintln!("adjoint vs central differences: max error / max|g| = {worst:.2e}");
    assert!(worst <= 1e-7, "{worst}");
}

#[test]
fn p_and_r_give_the_documented_forms() {
    let f = fixture();
    let m = f.nodes.node_count();
    let s = &f.summary;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    let c = random_coefficients(&mut rng, f.q0, m);
    let mut pc = vec![Complex64::default(); m];
    let mut rc = vec![Complex64::default(); m];
    let mut max_p: f64 = 0.0;
    for b in 0..m {
        for (k, ck) in c.iter().enumerate() {
            let (p, r) = (s.p(b, k), s.r(b, k));
            assert_eq!(p, s.p(k, b).conj());
            assert_eq!(r, s.r(k, b));
            pc[b] += p * ck;
            rc[b] += r * ck;
            max_p = max_p.max(p.norm());
        }
    }
    let a = s.a();
    let cpc: Complex64 = c.iter().zip(&pc).map(|(x, y)| x.conj() * y).sum();
    let crc: Complex64 = c.iter().zip(&rc).map(|(x, y)| x * y).sum();
    let cta: Complex64 = c.iter().zip(a).map(|(x, y)| x * y).sum();
    let formula = cta.re - 0.25 * cpc.re - 0.25 * crc.re;
    let mut g = vec![Complex64::default(); m];
    let mut ws = s.workspace();
    let ln_l = s.adjoint(&c, 0, &mut g, &mut ws).unwrap();
    assert!((ln_l - formula).abs() <= 1e-9 * formula.abs().max(1.0));
    assert!(cpc.im.abs() <= 1e-12 * cpc.re.abs());
    let g_formula: Vec<Complex64> = (0..m)
        .map(|b| a[b] - 0.5 * rc[b] - 0.5 * pc[b].conj())
        .collect();
    let g_scale = g.iter().map(|z| z.norm()).fold(0.0, f64::max);
    for (x, y) in g.iter().zip(&g_formula) {
        assert!((x - y).norm() <= 1e-9 * g_scale);
    }
    // The R ("2Φ") term is small but not negligible (docs/likelihood.md §3.3).
    eprintln!(
        "¼cᴴPc = {:.3}, ¼Re(cᵀRc) = {:.3e}, max|P| = {max_p:.3e}",
        0.25 * cpc.re,
        0.25 * crc.re
    );
}

#[test]
fn bad_input_is_rejected() {
    let f = fixture();
    let noise = &f.noise;
    let nodes = NodeSet::uniform(0..=SUPPORT_END, 20, N).unwrap();
    // Length mismatches.
    let err = SummaryData::new(&f.v[..N - 1], &f.data, noise, nodes.clone()).unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    let err = SummaryData::new(&f.v, &f.data[..10], noise, nodes.clone()).unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    let short = NodeSet::uniform(0..=100, 5, 200).unwrap();
    let err = SummaryData::new(&f.v, &f.data, noise, short).unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    // NaN in data and in the fiducial on the support (but not beyond it).
    let mut d = f.data.clone();
    d[123] = f64::NAN;
    let err = SummaryData::new(&f.v, &d, noise, nodes.clone()).unwrap_err();
    assert!(
        matches!(err, RbError::NonFinite { index: 123, .. }),
        "{err}"
    );
    let mut v = f.v.clone();
    v[N - 1] = Complex64::new(f64::NAN, 0.0);
    assert!(SummaryData::new(&v, &f.data, noise, nodes.clone()).is_ok());
    v[77] = Complex64::new(0.0, f64::INFINITY);
    let err = SummaryData::new(&v, &f.data, noise, nodes.clone()).unwrap_err();
    assert!(matches!(err, RbError::NonFinite { index: 77, .. }), "{err}");
    // Fewer nodes than one stencil.
    assert!(matches!(
        NodeSet::new(vec![0, 10, 20, 30, 40], N),
        Err(RbError::TooFewNodes { got: 5 })
    ));
    // Zero fiducial at a node: the fiducial vanishes long after the peak.
    let late = NodeSet::uniform(0..=N - 1, 20, N).unwrap();
    let err = SummaryData::new(&f.v, &f.data, noise, late.clone()).unwrap_err();
    assert!(
        matches!(err, RbError::ZeroFiducialAtNode { node, sample }
            if late.indices()[node] == sample && f.v[sample] == Complex64::new(0.0, 0.0)),
        "{err}"
    );
    let err = ReconstructedLikelihood::new(&f.v, &f.data, noise.clone(), late).unwrap_err();
    assert!(matches!(err, RbError::ZeroFiducialAtNode { .. }), "{err}");
    // Bad coefficients and output lengths.
    let mut ws = f.summary.workspace();
    let m = f.nodes.node_count();
    let err = f
        .summary
        .log_likelihood_ratio(&vec![f.q0; m - 1], 0, &mut ws)
        .unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    let mut c = vec![f.q0; m];
    c[5].re = f64::NAN;
    let err = f.summary.log_likelihood_ratio(&c, 0, &mut ws).unwrap_err();
    assert!(matches!(err, RbError::NonFinite { index: 5, .. }), "{err}");
    let err = f
        .summary
        .adjoint(
            &vec![f.q0; m],
            0,
            &mut vec![Complex64::default(); m + 1],
            &mut ws,
        )
        .unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    // Summary data without shifts have none to give.
    let err = f
        .summary
        .log_likelihood_ratio(&vec![f.q0; m], 1, &mut ws)
        .unwrap_err();
    assert!(
        matches!(err, RbError::ShiftOutOfRange { shift: 1, .. }),
        "{err}"
    );
    // Shift tables end at the fiducial's own position and reach back from it.
    for shifts in [0..=1, std::ops::RangeInclusive::new(1, 0), -3..=-1] {
        let err = SummaryData::with_shifts(&f.v, &f.data, noise, nodes.clone(), shifts.clone())
            .unwrap_err();
        assert!(
            matches!(err, RbError::InvalidOption { name: "shifts", .. }),
            "{shifts:?}: {err}"
        );
    }
    // Refinement options and design set.
    let w = vec![1.0; N];
    let r = vec![Complex64::new(1.0, 0.0); N];
    for opts in [
        RefineOptions {
            target: f64::NAN,
            ..RefineOptions::default()
        },
        RefineOptions {
            initial_bins: 4,
            ..RefineOptions::default()
        },
    ] {
        let err = refine_nodes(std::slice::from_ref(&r), &w, &opts).unwrap_err();
        assert!(matches!(err, RbError::InvalidOption { .. }), "{err}");
    }
    let err = refine_nodes(&[r[..N - 1].to_vec()], &w, &RefineOptions::default()).unwrap_err();
    assert!(matches!(err, RbError::LengthMismatch { .. }), "{err}");
    let mut bad = r.clone();
    bad[9] = Complex64::new(f64::NAN, 0.0);
    let err = refine_nodes(&[bad], &w, &RefineOptions::default()).unwrap_err();
    assert!(matches!(err, RbError::NonFinite { index: 9, .. }), "{err}");
}
