//! The likelihood marginalised over the luminosity distance, and draws of the distance from
//! its conditional posterior (docs/sampling.md §5; bilby's `distance_marginalization`; Singer &
//! Price, PRD 93, 024013 (2016), §II; Thrane & Talbot, PASA 36, e010 (2019), §9 "marginalized
//! likelihoods").
//!
//! The template scales as 1/D_L, so with the inner products A = ⟨d|h⟩ and B = ⟨h|h⟩ taken at a
//! reference distance D₀ and u = D₀/D_L,
//!
//! ln L(D_L) = u A − ½ u² B,    L_D(A, B) = ∫ π(D₀/u) (D₀/u²) e^(uA − ½u²B) du,
//!
//! over the prior's support. The integrand is a Gaussian in u (mean A/B, width 1/√B) times the
//! slowly varying prior weight. It is integrated by Gauss–Legendre quadrature on the window
//! where the Gaussian lies within `MARGIN` (plus the prior weight's whole range in logs) of
//! its largest value on the support, so that outside it the integrand is below e^(−MARGIN) of
//! its peak; the window's ends move with (A, B) only where the integrand is that small, so the
//! result and its derivatives ∂ ln L_D/∂A = E\[u\] and ∂ ln L_D/∂B = −½E\[u²\] (expectations
//! under the conditional posterior of u) are smooth to that level. The sampler then explores the
//! other parameters without the distance–inclination degeneracy, and each draw's distance is
//! drawn afterwards from p(D_L | θ, d) ∝ π(D_L) L(D_L).

use rand::Rng;
use tdpe_likelihood::{InnerProducts, QuadratureProducts};

use crate::phase_marginal::{self, PhaseIntegral, PhaseSeries};

use crate::prior::Distribution;
use crate::quadrature::gauss_legendre;

/// Gauss–Legendre nodes of the marginalisation (exact for polynomials of degree 95; within
/// 1e-8 of brute force for power-law priors, tests below).
const QUADRATURE_NODES: usize = 48;
/// The integrand left outside the window is below e^(−MARGIN) of its peak.
const MARGIN: f64 = 40.0;
/// Grid of the inverse-CDF draw of u on the window.
const DRAW_GRID: usize = 512;

/// ln of the distance-marginalised likelihood ratio, for one distance prior.
#[derive(Debug, Clone, PartialEq)]
pub struct DistanceMarginal {
    prior: Distribution,
    /// D₀ (Mpc): the distance at which the inner products are taken.
    reference: f64,
    /// The support in u = D₀/D_L.
    u_range: (f64, f64),
    /// max − min of ln(π(D₀/u) D₀/u²) over the support.
    log_weight_span: f64,
    /// For power-law priors (uniform, in volume, log-uniform...), ln w(u) = c + k ln u on the
    /// support: (c, k), which spares the prior's general log density in the quadrature.
    power_law: Option<(f64, f64)>,
    /// Gauss–Legendre abscissae and ln of the weights on [−1, 1].
    quadrature: Vec<(f64, f64)>,
}

impl DistanceMarginal {
    /// For a distance prior with a bounded, positive support; None otherwise. D₀ is the
    /// geometric mean of the bounds.
    pub fn new(prior: &Distribution) -> Option<Self> {
        let (lower, upper) = prior.support();
        if !(lower > 0.0 && upper > lower && upper.is_finite()) {
            return None;
        }
        let reference = (lower * upper).sqrt();
        let alpha = match *prior {
            Distribution::Uniform { .. } => Some(0.0),
            Distribution::LogUniform { .. } => Some(-1.0),
            Distribution::PowerLaw { alpha, .. } => Some(alpha),
            _ => None,
        };
        let mut marginal = Self {
            prior: prior.clone(),
            reference,
            u_range: (reference / upper, reference / lower),
            log_weight_span: 0.0,
            // π(D₀/u) ∝ u^(−α), times D₀/u².
            power_law: alpha.map(|a| (prior.ln_pdf(reference) + reference.ln(), -(a + 2.0))),
            quadrature: gauss_legendre(QUADRATURE_NODES)
                .into_iter()
                .map(|(x, w)| (x, w.ln()))
                .collect(),
        };
        let (u0, u1) = marginal.u_range;
        let weights: Vec<f64> = (0..=1000)
            .map(|i| marginal.log_weight(u0 + (u1 - u0) * i as f64 / 1000.0))
            .filter(|w| w.is_finite())
            .collect();
        let (min, max) = weights
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &w| {
                (a.min(w), b.max(w))
            });
        // No finite weight at all: the fold leaves max < min.
        if max < min {
            return None;
        }
        marginal.log_weight_span = max - min;
        Some(marginal)
    }

    /// D₀ (Mpc): where the likelihood's inner products are to be taken.
    pub fn reference_distance(&self) -> f64 {
        self.reference
    }

    /// ln of the prior density in u: ln π(D₀/u) + ln D₀ − 2 ln u (u within the support).
    fn log_weight(&self, u: f64) -> f64 {
        match self.power_law {
            Some((c, k)) => c + k * u.ln(),
            None => self.prior.ln_pdf(self.reference / u) + self.reference.ln() - 2.0 * u.ln(),
        }
    }

    /// `offset` + ln of the integrand at u: ln w(u) + uA − ½u²B (the offset first, so that a
    /// quadrature weight's log adds in the same order wherever it is used).
    fn log_integrand(&self, offset: f64, u: f64, ip: &InnerProducts) -> f64 {
        offset + self.log_weight(u) + u * ip.d_h - 0.5 * u * u * ip.h_h
    }

    /// The window [lo, hi] of u outside which the integrand is negligible (module docs).
    fn window(&self, ip: &InnerProducts) -> Option<(f64, f64)> {
        let InnerProducts { d_h: a, h_h: b } = *ip;
        if !(b > 0.0 && a.is_finite() && b.is_finite()) {
            return None;
        }
        let (u0, u1) = self.u_range;
        let peak = a / b;
        let nearest = peak.clamp(u0, u1);
        let radius = ((nearest - peak).powi(2) + 2.0 * (MARGIN + self.log_weight_span) / b).sqrt();
        Some(((peak - radius).max(u0), (peak + radius).min(u1)))
    }

    /// [ln L_D, ∂ ln L_D/∂A, ∂ ln L_D/∂B] at the inner products `ip` taken at D₀; NaN if
    /// they are not finite with B > 0.
    pub fn log_marginal(&self, ip: InnerProducts) -> [f64; 3] {
        let Some((lo, hi)) = self.window(&ip) else {
            return [f64::NAN; 3];
        };
        let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        let log_half = half.ln();
        let mut terms = [(0.0, 0.0); QUADRATURE_NODES];
        let mut peak = f64::NEG_INFINITY;
        for (term, &(x, log_w)) in terms.iter_mut().zip(&self.quadrature) {
            let u = mid + half * x;
            let log = self.log_integrand(log_w + log_half, u, &ip);
            *term = (u, log);
            peak = peak.max(log);
        }
        let (mut sum, mut sum_u, mut sum_u2) = (0.0, 0.0, 0.0);
        for &(u, log) in &terms {
            let p = (log - peak).exp();
            sum += p;
            sum_u += p * u;
            sum_u2 += p * u * u;
        }
        [peak + sum.ln(), sum_u / sum, -0.5 * sum_u2 / sum]
    }

    /// ln of the integrand over u with the phase integrated out (docs/sampling.md §5.5), and
    /// the phase integral's means, for the quadrature products `q` whose non-rotating part
    /// has the norm `rotating_norm` = |(B, C)|, with the phase series `series` of `q`.
    fn log_integrand_over_phase(
        &self,
        u: f64,
        q: &QuadratureProducts,
        rotating_norm: f64,
        series: &PhaseSeries,
    ) -> (f64, PhaseIntegral) {
        let (a, _) = phase_marginal::split(q);
        let kappa = u * q.d_0.hypot(q.d_1);
        let integral = series.integral(kappa, 0.5 * u * u * rotating_norm);
        (
            self.log_weight(u) - 0.5 * u * u * a + integral.log,
            integral,
        )
    }

    /// The phase series of `q` up to u = `u_max` and |(B, C)|.
    fn phase_series(q: &QuadratureProducts, u_max: f64) -> Option<(PhaseSeries, f64)> {
        let (_, [b, c]) = phase_marginal::split(q);
        let norm = b.hypot(c);
        // (b, c) = −½u²(B, C): the angle of (−B, −C).
        let series = PhaseSeries::new(
            q.d_1.atan2(q.d_0),
            (-c).atan2(-b),
            0.5 * u_max * u_max * norm,
        )?;
        Some((series, norm))
    }

    /// The window of u for the likelihood marginalised over the phase too: that of the
    /// Gaussian in u with ⟨d|h⟩ = |d₀ + i d₁| and ⟨h|h⟩ = A, since the phase integral lies
    /// within a few units of e^(u|d|) in logs.
    fn window_over_phase(&self, q: &QuadratureProducts) -> Option<(f64, f64)> {
        let (a, _) = phase_marginal::split(q);
        self.window(&InnerProducts {
            d_h: q.d_0.hypot(q.d_1),
            h_h: a,
        })
    }

    /// ln of the likelihood marginalised over the distance and a uniform phase from the
    /// quadrature products at D₀ (docs/sampling.md §5.5): [F, ∂F/∂d₀, ∂F/∂d₁, ∂F/∂h₀₀,
    /// ∂F/∂h₀₁, ∂F/∂h₁₁]; NaN where they are not finite with A > 0.
    pub fn log_marginal_over_phase(&self, q: &QuadratureProducts) -> [f64; 6] {
        let Some((lo, hi)) = self.window_over_phase(q) else {
            return [f64::NAN; 6];
        };
        let Some((series, norm)) = Self::phase_series(q, hi) else {
            return [f64::NAN; 6];
        };
        let (mid, half) = (0.5 * (lo + hi), 0.5 * (hi - lo));
        let log_half = half.ln();
        let mut terms = [(0.0, 0.0, [0.0; 4]); QUADRATURE_NODES];
        let mut peak = f64::NEG_INFINITY;
        for (term, &(x, log_w)) in terms.iter_mut().zip(&self.quadrature) {
            let u = mid + half * x;
            let (log, integral) = self.log_integrand_over_phase(u, q, norm, &series);
            let log = log_w + log_half + log;
            *term = (u, log, integral.means);
            peak = peak.max(log);
        }
        let (mut sum, mut means) = (0.0, [0.0; 5]);
        for &(u, log, [cos, sin, cos2, sin2]) in &terms {
            let p = (log - peak).exp();
            sum += p;
            let u2 = u * u;
            for (mean, v) in means
                .iter_mut()
                .zip([u * cos, u * sin, u2, u2 * cos2, u2 * sin2])
            {
                *mean += p * v;
            }
        }
        phase_marginal::partials(peak + sum.ln(), means.map(|m| m / sum))
    }

    /// A draw of D_L (Mpc) from its conditional posterior with the phase integrated out, given
    /// the quadrature products at D₀ (as [`Self::draw`]).
    pub fn draw_over_phase<R: Rng + ?Sized>(
        &self,
        q: &QuadratureProducts,
        rng: &mut R,
    ) -> Option<f64> {
        let (lo, hi) = self.window_over_phase(q)?;
        let (series, norm) = Self::phase_series(q, hi)?;
        let log_density = |u: f64| self.log_integrand_over_phase(u, q, norm, &series).0;
        let u = draw_on_grid(lo, hi, DRAW_GRID, log_density, rng)?;
        Some(self.reference / u)
    }

    /// A draw of D_L (Mpc) from its conditional posterior given the inner products at D₀, by
    /// the inverse of the CDF on a grid over the window; None if they are not finite with B > 0.
    pub fn draw<R: Rng + ?Sized>(&self, ip: InnerProducts, rng: &mut R) -> Option<f64> {
        let (lo, hi) = self.window(&ip)?;
        let u = draw_on_grid(lo, hi, DRAW_GRID, |u| self.log_integrand(0.0, u, &ip), rng)?;
        Some(self.reference / u)
    }
}

/// A draw from the density ∝ exp(`log_density`) on [lo, hi] by the inverse of its CDF on a
/// grid of `cells` cells, the density taken as linear within a cell; None where it is nowhere
/// finite.
pub(crate) fn draw_on_grid<R: Rng + ?Sized>(
    lo: f64,
    hi: f64,
    cells: usize,
    log_density: impl Fn(f64) -> f64,
    rng: &mut R,
) -> Option<f64> {
    let step = (hi - lo) / cells as f64;
    let logs: Vec<f64> = (0..=cells)
        .map(|i| log_density(lo + step * i as f64))
        .collect();
    let peak = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !peak.is_finite() {
        return None;
    }
    let density: Vec<f64> = logs.iter().map(|l| (l - peak).exp()).collect();
    // Cumulative trapezoids.
    let mut cdf = Vec::with_capacity(cells + 1);
    cdf.push(0.0);
    for pair in density.windows(2) {
        cdf.push(cdf.last().unwrap() + 0.5 * (pair[0] + pair[1]));
    }
    let target = rng.random::<f64>() * cdf[cells];
    let cell = cdf.partition_point(|&c| c <= target).clamp(1, cells) - 1;
    let (p0, p1) = (density[cell], density[cell + 1]);
    let mass = target - cdf[cell];
    // Solve p0 s + ½(p1 − p0) s² = mass for the fraction s of the cell.
    let slope = p1 - p0;
    let s = if slope.abs() < 1e-12 * p0.max(p1) {
        mass / p0.max(f64::MIN_POSITIVE)
    } else {
        ((p0 * p0 + 2.0 * slope * mass).max(0.0).sqrt() - p0) / slope
    };
    Some(lo + step * (cell as f64 + s.clamp(0.0, 1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cosmology::Cosmology;
    use crate::prior::cosmological::{CosmologicalDistance, Weighting};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn default_prior() -> Distribution {
        Distribution::PowerLaw {
            alpha: 2.0,
            minimum: 100.0,
            maximum: 5000.0,
        }
    }

    /// ln ∫ π(D) L(D) dD by Simpson's rule on 2²² intervals in u = D₀/D (fine enough for the
    /// steepest integrand below, which falls by e over 1e-4 in u at the prior's edge).
    fn brute_force(prior: &Distribution, reference: f64, ip: InnerProducts) -> f64 {
        let (lower, upper) = prior.support();
        let (u0, u1) = (reference / upper, reference / lower);
        let n = 1 << 22;
        let step = (u1 - u0) / n as f64;
        let log = |i: usize| {
            let u = u0 + step * i as f64;
            prior.ln_pdf(reference / u) + (reference / (u * u)).ln() + u * ip.d_h
                - 0.5 * u * u * ip.h_h
        };
        let peak = (0..=n).map(log).fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = (0..=n)
            .map(|i| {
                let weight = if i == 0 || i == n {
                    1.0
                } else {
                    [2.0, 4.0][i % 2]
                };
                weight * (log(i) - peak).exp()
            })
            .sum();
        peak + (sum * step / 3.0).ln()
    }

    /// Noise-free inner products at D₀ of a signal at `distance` whose SNR at D₀ would be
    /// `snr_at_reference`: B = ρ², A = u B with u = D₀/`distance`.
    fn signal(marginal: &DistanceMarginal, distance: f64, snr_at_reference: f64) -> InnerProducts {
        let b = snr_at_reference * snr_at_reference;
        let u_true = marginal.reference_distance() / distance;
        InnerProducts {
            d_h: u_true * b,
            h_h: b,
        }
    }

    /// Against brute force, for signals inside, at the edges of and beyond the prior, at high
    /// and low SNR, and the derivatives against finite differences.
    #[test]
    fn marginal_matches_brute_force_and_its_derivatives() {
        // The power law takes the closed-form weight, the truncated Gaussian and bilby's
        // default UniformSourceFrame the general one.
        let truncated = Distribution::TruncatedGaussian {
            mu: 1000.0,
            sigma: 600.0,
            minimum: 100.0,
            maximum: 5000.0,
        };
        let source_frame = Distribution::Cosmological(
            CosmologicalDistance::new(Weighting::SourceFrame, Cosmology::planck15(), 100.0, 5000.0)
                .unwrap(),
        );
        for prior in [default_prior(), truncated, source_frame] {
            assert_marginal_matches_brute_force(&prior);
        }
    }

    fn assert_marginal_matches_brute_force(prior: &Distribution) {
        let marginal = DistanceMarginal::new(prior).unwrap();
        for (distance, snr) in [
            (1200.0, 8.0),
            (1200.0, 60.0),
            (440.0, 27.0),
            (110.0, 30.0),
            (4900.0, 15.0),
            (20.0, 20.0),
            (20000.0, 3.0),
            (1000.0, 0.5),
        ] {
            let ip = signal(&marginal, distance, snr);
            let [value, d_a, d_b] = marginal.log_marginal(ip);
            let reference = brute_force(prior, marginal.reference_distance(), ip);
            // 1e-8 for the power law; the general weight reaches 5e-7 at SNR 0.5, where the
            // window is the whole support and the Gaussian prior a narrow bump on it.
            assert!(
                (value - reference).abs() < 1e-6 * (1.0 + reference.abs()),
                "D {distance}, SNR {snr}: {value} vs {reference}"
            );
            for (k, analytic) in [(0, d_a), (1, d_b)] {
                let h = 1e-5 * (1.0 + if k == 0 { ip.d_h } else { ip.h_h }.abs());
                let shifted = |sign: f64| {
                    let mut p = ip;
                    if k == 0 {
                        p.d_h += sign * h;
                    } else {
                        p.h_h += sign * h;
                    }
                    marginal.log_marginal(p)[0]
                };
                let fd = (shifted(1.0) - shifted(-1.0)) / (2.0 * h);
                assert!(
                    (fd - analytic).abs() < 1e-6 * (1.0 + analytic.abs()),
                    "D {distance}, SNR {snr}, ∂{k}: {fd} vs {analytic}"
                );
            }
        }
        let bad = InnerProducts { d_h: 1.0, h_h: 0.0 };
        assert!(marginal.log_marginal(bad)[0].is_nan());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        assert!(marginal.draw(bad, &mut rng).is_none());
        assert!(DistanceMarginal::new(&Distribution::Gaussian {
            mu: 1.0,
            sigma: 1.0
        })
        .is_none());
    }

    /// Draws of D_L follow the conditional posterior: their mean and spread against quadrature.
    #[test]
    fn draws_follow_the_conditional_posterior() {
        let prior = default_prior();
        let marginal = DistanceMarginal::new(&prior).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        for (distance, snr) in [(1200.0, 12.0), (150.0, 30.0), (4000.0, 6.0)] {
            let ip = signal(&marginal, distance, snr);
            let n = 40_000;
            let draws: Vec<f64> = (0..n)
                .map(|_| marginal.draw(ip, &mut rng).unwrap())
                .collect();
            let (lower, upper) = prior.support();
            assert!(draws.iter().all(|d| (lower..=upper).contains(d)));
            let mean = draws.iter().sum::<f64>() / n as f64;
            let sd = (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
            // E[D] and E[D²] by quadrature on a fine grid in D.
            let moments: [f64; 3] = {
                let m = 200_000;
                let mut acc = [0.0; 3];
                for i in 0..=m {
                    let d = lower + (upper - lower) * i as f64 / m as f64;
                    let u = marginal.reference_distance() / d;
                    let p = (prior.ln_pdf(d) + u * ip.d_h
                        - 0.5 * u * u * ip.h_h
                        - 0.5 * ip.d_h * ip.d_h / ip.h_h)
                        .exp();
                    acc[0] += p;
                    acc[1] += p * d;
                    acc[2] += p * d * d;
                }
                acc
            };
            let exact_mean = moments[1] / moments[0];
            let exact_sd = (moments[2] / moments[0] - exact_mean * exact_mean).sqrt();
            assert!(
                (mean - exact_mean).abs() < 4.0 * exact_sd / (n as f64).sqrt(),
                "D {distance}: mean {mean} vs {exact_mean} (sd {exact_sd})"
            );
            assert!(
                (sd / exact_sd - 1.0).abs() < 0.03,
                "D {distance}: sd {sd} vs {exact_sd}"
            );
        }
    }

    /// Marginalised over the phase too: against the distance marginal integrated over the
    /// phase by the trapezoidal rule (an independent path), with its derivatives, and the
    /// distance draws' mean against the same integral.
    #[test]
    fn marginal_over_phase_matches_the_phase_integral_of_the_distance_marginal() {
        let marginal = DistanceMarginal::new(&default_prior()).unwrap();
        for (distance, snr) in [(400.0, 12.0), (1500.0, 30.0), (3000.0, 3.0)] {
            let ip = signal(&marginal, distance, snr);
            // A signal at phase angle 0.9 with a non-rotating part of 10⁻³ of ⟨h|h⟩.
            let q = QuadratureProducts {
                d_0: ip.d_h * 0.9f64.cos(),
                d_1: ip.d_h * 0.9f64.sin(),
                h_00: ip.h_h * (1.0 + 1e-3),
                h_01: ip.h_h * 4e-4,
                h_11: ip.h_h * (1.0 - 1e-3),
            };
            let n = 4000;
            let logs: Vec<f64> = (0..n)
                .map(|i| {
                    marginal.log_marginal(q.at(std::f64::consts::TAU * i as f64 / n as f64))[0]
                })
                .collect();
            let peak = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let brute = peak + (logs.iter().map(|l| (l - peak).exp()).sum::<f64>() / n as f64).ln();
            let got = marginal.log_marginal_over_phase(&q);
            assert!(
                (got[0] - brute).abs() < 1e-8,
                "{distance}: {} vs {brute}",
                got[0]
            );
            let base = [q.d_0, q.d_1, q.h_00, q.h_01, q.h_11];
            for i in 0..5 {
                let at = |s: f64| {
                    let mut v = base;
                    v[i] += s;
                    let moved = QuadratureProducts {
                        d_0: v[0],
                        d_1: v[1],
                        h_00: v[2],
                        h_01: v[3],
                        h_11: v[4],
                    };
                    marginal.log_marginal_over_phase(&moved)[0]
                };
                let h = 1e-5 * (1.0 + base[i].abs());
                let fd = (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h);
                assert!(
                    (got[1 + i] - fd).abs() < 1e-6 * (1.0 + fd.abs()),
                    "{distance} {i}: {} vs {fd}",
                    got[1 + i]
                );
            }
            assert!(marginal.log_marginal_over_phase(&QuadratureProducts::default())[0].is_nan());
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
            let draws: Vec<f64> = (0..4000)
                .map(|_| marginal.draw_over_phase(&q, &mut rng).unwrap())
                .collect();
            let mean = draws.iter().sum::<f64>() / draws.len() as f64;
            // E[u] = ∂F/∂|d| for the signal's direction: compare E[D] with the quadrature of
            // D over the grid the phase integral gives, via the conditional at fixed phase.
            let weights: Vec<f64> = logs.iter().map(|l| (l - peak).exp()).collect();
            let total: f64 = weights.iter().sum();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
            let reference: f64 = (0..4000)
                .map(|k| {
                    // A phase from the marginal of ψ (inverse CDF on the trapezoid grid), then D.
                    let target = (k as f64 + 0.5) / 4000.0 * total;
                    let mut acc = 0.0;
                    let i = weights
                        .iter()
                        .position(|w| {
                            acc += w;
                            acc >= target
                        })
                        .unwrap_or(n - 1);
                    let psi = std::f64::consts::TAU * i as f64 / n as f64;
                    marginal.draw(q.at(psi), &mut rng).unwrap()
                })
                .sum::<f64>()
                / 4000.0;
            let sd = (draws.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / 4000.0).sqrt();
            assert!(
                (mean - reference).abs() < 6.0 * sd / (4000f64).sqrt(),
                "{distance}: {mean} vs {reference} (sd {sd})"
            );
        }
    }
}
