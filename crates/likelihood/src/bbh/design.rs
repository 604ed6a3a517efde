//! The design set of relative binning for a BBH (docs/likelihood.md §3.5): trial waveforms that
//! span the region a sampler will visit, from which the nodes are refined.
//!
//! The ratio r = W(t − t_c − τ_k; λ)/W(t − t_c0 − τ_k0; λ0) depends only on the intrinsic
//! parameters λ = (M_c, q, χ1, χ2) and each detector's arrival-time shift Δ_k; distance,
//! inclination, phase, polarisation and the antenna patterns only scale it by the constant Q_k.
//! Design points are therefore drawn in (λ, Δ_1 … Δ_K) from a Gaussian whose covariance is
//! `scale²` times the inverse Fisher matrix of the network at the fiducial.

use faer::{Mat, Side};
use num_complex::Complex64;
use rand::SeedableRng;
use rand_distr::{Distribution, StandardNormal};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_noise::ToeplitzInverse;
use tdpe_phenomt::{sin_cos_f64, Dual, IMRPhenomT, Mode, ModeSelection};
use tdpe_signal::{BbhParameters, ParameterVector, SignalModel, SpinModel};

use super::exact::BbhExactLikelihood;
use super::frame::PrecessingFrame;
use crate::error::LikelihoodError;
use crate::grid::SampleGrid;

/// Number of intrinsic parameters: chirp mass, mass ratio, χ1, χ2.
const INTRINSIC: usize = 4;

/// Broad Gaussian priors that regularise the Fisher matrix along directions the data do not
/// constrain (σ of M_c relative, q, χ1, χ2, and of each time shift in s).
const PRIOR_SIGMA: [f64; 5] = [0.1, 0.3, 0.5, 0.5, 0.01];

/// A design point: its parameters and one arrival-time shift per detector (s) from the
/// fiducial's. An aligned-spin ratio depends on the intrinsic parameters and the shifts alone;
/// a precessing one on all of them (its terms follow the view and the antenna patterns).
#[derive(Clone, Debug, PartialEq)]
pub struct DesignPoint {
    pub parameters: BbhParameters,
    pub shifts: Vec<f64>,
}

/// The complex (2,2) mode at 1 Mpc with its derivatives with respect to (M_c, q, χ1, χ2, s).
pub(crate) fn mode_with_derivatives(
    waveform: &IMRPhenomT<Dual<5>>,
    s: f64,
) -> (Complex64, [Complex64; 5]) {
    let m = waveform.mode22(Dual::variable(s, 4));
    let e = Complex64::from_polar(1.0, -m.phase.re);
    let w = e * m.amplitude.re;
    // ∂(A e^(−iΦ)) = (∂A − i A ∂Φ) e^(−iΦ)
    let d = std::array::from_fn(|j| {
        Complex64::new(m.amplitude.eps[j], -m.amplitude.re * m.phase.eps[j]) * e
    });
    (w, d)
}

/// The dual-number waveform at the fiducial's intrinsic parameters.
pub(crate) fn dual_waveform(
    model: &SignalModel,
    p: &BbhParameters,
) -> Result<IMRPhenomT<Dual<5>>, LikelihoodError> {
    Ok(model.waveform(
        Dual::variable(p.chirp_mass, 0),
        Dual::variable(p.mass_ratio, 1),
        Dual::variable(p.chi_1, 2),
        Dual::variable(p.chi_2, 3),
    )?)
}

/// Draws `count` design points around `fiducial`, with covariance `scale²·F⁻¹` (F the network
/// Fisher matrix in (λ, Δ_k), regularised by broad priors), from the seeded generator.
pub fn draw_design_points(
    model: &SignalModel,
    grid: &SampleGrid,
    noises: &[&ToeplitzInverse],
    fiducial: &BbhParameters,
    count: usize,
    scale: f64,
    seed: u64,
) -> Result<Vec<DesignPoint>, LikelihoodError> {
    let k_det = noises.len();
    let dim = INTRINSIC + k_det;
    let waveform = dual_waveform(model, fiducial)?;
    let mut fisher = Mat::<f64>::zeros(dim, dim);
    for (k, noise) in noises.iter().enumerate() {
        let proj = model.projection(k, fiducial).value;
        // Columns ∂h_k/∂(λ, Δ_k) at every sample; ∂/∂Δ = −∂/∂s.
        let mut columns = vec![vec![0.0; grid.len]; INTRINSIC + 1];
        for i in 0..grid.len {
            let s = grid.time(i) - fiducial.geocent_time - proj.delay;
            let (_, d) = mode_with_derivatives(&waveform, s);
            for (j, col) in columns.iter_mut().enumerate() {
                let sign = if j == INTRINSIC { -1.0 } else { 1.0 };
                col[i] = sign * (proj.factor * d[j]).re;
            }
        }
        let index = |j: usize| if j < INTRINSIC { j } else { INTRINSIC + k };
        for a in 0..=INTRINSIC {
            let ka = noise.apply(&columns[a])?;
            for b in 0..=INTRINSIC {
                let f: f64 = ka.iter().zip(&columns[b]).map(|(x, y)| x * y).sum();
                fisher[(index(a), index(b))] += f;
            }
        }
    }
    for j in 0..dim {
        let sigma = match j {
            0 => PRIOR_SIGMA[0] * fiducial.chirp_mass,
            1..=3 => PRIOR_SIGMA[j],
            _ => PRIOR_SIGMA[INTRINSIC],
        };
        fisher[(j, j)] += 1.0 / (sigma * sigma);
    }
    let llt = fisher.llt(Side::Lower).map_err(|_| {
        LikelihoodError::InvalidInput("the Fisher matrix is not positive definite".into())
    })?;
    // x = scale·L⁻ᵀz has covariance scale²·(L Lᵀ)⁻¹ = scale²·F⁻¹.
    let l = llt.L();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    Ok((0..count)
        .map(|_| {
            let z: Vec<f64> = (0..dim).map(|_| StandardNormal.sample(&mut rng)).collect();
            let mut x = vec![0.0; dim];
            for i in (0..dim).rev() {
                let tail: f64 = (i + 1..dim).map(|r| l[(r, i)] * x[r]).sum();
                x[i] = (scale * z[i] - tail) / l[(i, i)];
            }
            DesignPoint {
                parameters: BbhParameters {
                    chirp_mass: fiducial.chirp_mass + x[0],
                    mass_ratio: (fiducial.mass_ratio + x[1]).clamp(0.05, 1.0),
                    chi_1: (fiducial.chi_1 + x[2]).clamp(-0.99, 0.99),
                    chi_2: (fiducial.chi_2 + x[3]).clamp(-0.99, 0.99),
                    ..*fiducial
                },
                shifts: x[INTRINSIC..].to_vec(),
            }
        })
        .collect())
}

/// A precessing parameter's first step for its conditional width, its largest width (where
/// the data barely constrain it) and its range, in the order of `SpinModel::Precessing`; a
/// relative step or width is a fraction of the fiducial's value.
struct PrecessingScale {
    step: f64,
    widest: f64,
    relative: bool,
    range: (f64, f64),
}

const fn scale_of(step: f64, widest: f64, relative: bool, range: (f64, f64)) -> PrecessingScale {
    PrecessingScale {
        step,
        widest,
        relative,
        range,
    }
}

const PI: f64 = std::f64::consts::PI;
/// The range of a parameter without bounds (an angle, a time).
const UNBOUNDED: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);
const PRECESSING_SCALES: [PrecessingScale; 15] = [
    scale_of(1e-3, 0.1, true, (0.0, f64::INFINITY)),
    scale_of(1e-3, 0.2, false, (0.05, 1.0)),
    scale_of(1e-3, 0.3, false, (0.0, 0.99)),
    scale_of(1e-3, 0.3, false, (0.0, 0.99)),
    scale_of(1e-3, 0.5, false, (0.0, PI)),
    scale_of(1e-3, 0.5, false, (0.0, PI)),
    scale_of(1e-2, 1.0, false, UNBOUNDED),
    scale_of(1e-2, 1.0, false, UNBOUNDED),
    scale_of(1e-3, 0.3, true, (0.0, f64::INFINITY)),
    scale_of(1e-3, 0.5, false, (0.0, PI)),
    scale_of(1e-3, 1.0, false, UNBOUNDED),
    scale_of(1e-3, 1.0, false, UNBOUNDED),
    scale_of(1e-5, 0.01, false, UNBOUNDED),
    scale_of(1e-3, 1.0, false, UNBOUNDED),
    scale_of(1e-3, 0.5, false, (-PI / 2.0, PI / 2.0)),
];

/// Design draws of a precessing binary around `fiducial` (its 15 parameters): Gaussian
/// perturbations of each parameter by `scale` times its conditional width, kept where the
/// exact ln L is within `depth` of the fiducial's, until `count` are kept or `max_candidates`
/// drawn; with the number drawn.
///
/// The Fisher Gaussian in all 15 parameters describes this posterior poorly (docs/precession.md
/// §12.3): the conditional widths, from symmetric second differences of the exact ln L, are
/// its narrowest directions, and the draws then span every direction at the depth a sampler
/// reaches; a pilot's draws refine the nodes further.
pub fn draw_precessing_design(
    exact: &BbhExactLikelihood,
    fiducial: &BbhParameters,
    count: usize,
    scale: f64,
    depth: f64,
    seed: u64,
    max_candidates: usize,
) -> Result<(Vec<BbhParameters>, usize), LikelihoodError> {
    let parameters = SpinModel::Precessing.parameters();
    let at = |v: ParameterVector| exact.log_likelihood_ratio(&BbhParameters::from_array(v));
    let centre = fiducial.to_array();
    let ln_l = at(centre)?;
    let mut widths = [0.0; 15];
    for ((width, &parameter), s) in widths.iter_mut().zip(parameters).zip(&PRECESSING_SCALES) {
        let unit = if s.relative {
            centre[parameter].abs()
        } else {
            1.0
        };
        let mut step = s.step * unit;
        *width = s.widest * unit;
        // Smaller steps until ln L falls by less than about one: the quadratic regime. Near a
        // bound (a spin of zero, equal masses) the stencil moves inside the range.
        for _ in 0..6 {
            let (lower, upper) = s.range;
            if upper - lower <= 2.0 * step {
                break;
            }
            let middle = centre[parameter].clamp(lower + step, upper - step);
            let moved = |c: f64| {
                let mut v = centre;
                v[parameter] = middle + c * step;
                if c == 0.0 && middle == centre[parameter] {
                    return Ok(ln_l);
                }
                at(v)
            };
            // A stencil outside the waveform's range leaves the broad width.
            let deficit = match (moved(-1.0), moved(0.0), moved(1.0)) {
                (Ok(a), Ok(b), Ok(c)) => b - 0.5 * (a + c),
                (Err(LikelihoodError::Signal(_)), ..)
                | (_, Err(LikelihoodError::Signal(_)), _)
                | (.., Err(LikelihoodError::Signal(_))) => break,
                (Err(e), ..) | (_, Err(e), _) | (.., Err(e)) => return Err(e),
            };
            if deficit > 0.0 {
                *width = width.min(step / (2.0 * deficit).sqrt());
            }
            if deficit < 1.0 {
                break;
            }
            step /= 4.0;
        }
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut kept, mut drawn) = (Vec::with_capacity(count), 0);
    while kept.len() < count && drawn < max_candidates {
        drawn += 1;
        let mut v = centre;
        for ((&parameter, s), width) in parameters.iter().zip(&PRECESSING_SCALES).zip(widths) {
            let z: f64 = StandardNormal.sample(&mut rng);
            v[parameter] = (v[parameter] + scale * width * z).clamp(s.range.0, s.range.1);
        }
        let p = BbhParameters::from_array(v);
        match exact.log_likelihood_ratio(&p) {
            Ok(l) if l >= ln_l - depth => kept.push(p),
            Ok(_) | Err(LikelihoodError::Signal(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok((kept, drawn))
}

/// One mode of one detector's fiducial, against which design waveforms are compared: the
/// series v_i = W_lm(t_i − t_c0 − τ_k0; λ0), the support of the basis and the SNR² density s_i.
pub struct DetectorFiducial<'a> {
    pub model: &'a SignalModel,
    pub grid: &'a SampleGrid,
    /// The fiducial parameters.
    pub params: &'a BbhParameters,
    /// Detector index.
    pub k: usize,
    /// Index of the mode in the model's modes.
    pub mode: usize,
    pub series: &'a [Complex64],
    pub support: std::ops::RangeInclusive<usize>,
    pub weights: &'a [f64],
    /// For a precessing binary, its frame: the series is then the `mode`-th co-precessing
    /// term z_lm′ of the detector's signal.
    pub(crate) frame: Option<PrecessingFrame>,
}

impl DetectorFiducial<'_> {
    /// The ratio W_lm(t_i − t_c0 − τ_k0 − Δ_k; λ)/v_i of one design point at the samples
    /// `indices`.
    fn ratio_at(
        &self,
        point: &DesignPoint,
        indices: impl Iterator<Item = usize>,
    ) -> Result<Vec<(usize, Complex64)>, LikelihoodError> {
        let delay = self.model.projection(self.k, self.params).value.delay;
        let time =
            |i: usize| self.grid.time(i) - self.params.geocent_time - delay - point.shifts[self.k];
        let p = &point.parameters;
        if let Some(frame) = &self.frame {
            // The design's own source and antenna patterns, at the time its shift gives.
            let source = frame.source(self.model, p)?;
            let antenna = self.model.antenna(self.k, p).antenna;
            let mut wanted = ModeSelection::default();
            wanted[self.mode] = true;
            return Ok(indices
                .map(|i| {
                    let (re, im) = source.components(antenna, time(i), &wanted)[self.mode];
                    (i, Complex64::new(re, im) / self.series[i])
                })
                .collect());
        }
        let (mc, q, chi_1, chi_2) = (p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2);
        if self.model.modes()[self.mode] != Mode::L2M2 {
            let waveform = self.model.mode_waveform(mc, q, chi_1, chi_2)?;
            return Ok(indices
                .map(|i| {
                    let (re, im) = waveform.mode_at(self.mode, time(i));
                    (i, Complex64::new(re, im) / self.series[i])
                })
                .collect());
        }
        // In batches through the waveform's lane-parallel evaluator: the design ratios are
        // most of a long segment's node placement.
        const BATCH: usize = 256;
        let waveform = self.model.waveform(mc, q, chi_1, chi_2)?;
        let indices: Vec<usize> = indices.collect();
        let mut ratios = Vec::with_capacity(indices.len());
        let mut times = Vec::with_capacity(BATCH);
        let mut modes = vec![Default::default(); BATCH];
        for batch in indices.chunks(BATCH) {
            times.clear();
            times.extend(batch.iter().map(|&i| time(i)));
            let modes = &mut modes[..batch.len()];
            waveform.mode22_traced_many(&times, modes);
            ratios.extend(batch.iter().zip(modes.iter()).map(|(&i, (m, _))| {
                let (sin, cos) = sin_cos_f64(m.phase);
                let w = Complex64::new(m.amplitude * cos, -m.amplitude * sin);
                (i, w / self.series[i])
            }));
        }
        Ok(ratios)
    }

    /// Full-resolution ratios r_j(t_i) of every design point (zero outside the support).
    pub fn design_ratios(
        &self,
        design: &[DesignPoint],
    ) -> Result<Vec<Vec<Complex64>>, LikelihoodError> {
        design
            .iter()
            .map(|point| {
                let mut ratio = vec![Complex64::new(0.0, 0.0); self.grid.len];
                for (i, r) in self.ratio_at(point, self.support.clone())? {
                    ratio[i] = r;
                }
                Ok(ratio)
            })
            .collect()
    }

    /// How different a design waveform is from the fiducial, up to a constant complex factor
    /// (which relative binning represents exactly): min_c Σ_i s_i |r_i − c|², ≈ ⟨δh|δh⟩ after
    /// maximising over amplitude and phase, i.e. about twice the design point's (noise-free)
    /// ln L deficit. Evaluated on every `stride`-th sample.
    pub fn ratio_residual(
        &self,
        point: &DesignPoint,
        stride: usize,
    ) -> Result<f64, LikelihoodError> {
        let samples = self.ratio_at(point, self.support.clone().step_by(stride))?;
        let (mut sw, mut swr, mut swr2) = (0.0, Complex64::new(0.0, 0.0), 0.0);
        for (i, r) in samples {
            let w = self.weights[i] * stride as f64;
            sw += w;
            swr += r * w;
            swr2 += w * r.norm_sqr();
        }
        Ok(swr2 - swr.norm_sqr() / sw)
    }
}
