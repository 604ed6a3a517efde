//! The likelihood marginalised over the orbital phase of a (2,2)-mode signal, and draws of the
//! phase from its conditional posterior (docs/sampling.md §5.5; bilby's `phase_marginalization`;
//! Thrane & Talbot, PASA 36, e010 (2019), §9).
//!
//! With the (2,2) mode only, the template at phase φ + ψ/2 is h(ψ) = cos ψ h₀ + sin ψ h₁
//! ([`QuadratureProducts`]), so at u = D₀/D_L
//!
//! ln L(ψ) = u(d₀ cos ψ + d₁ sin ψ) − ½u²(A + B cos 2ψ + C sin 2ψ),
//!
//! A = (h₀₀ + h₁₁)/2, B = (h₀₀ − h₁₁)/2, C = h₀₁. B and C, the part of ⟨h|h⟩ that does not
//! turn with the phase, are ~10⁻⁴ of A in the time domain (not zero as in a frequency-domain
//! analysis, which drops the negative frequencies), so the integral over a uniform phase is not
//! the textbook I₀(u|d|): with x = u(d₀, d₁) = κ(cos α, sin α) and
//! (b, c) = −½u²(B, C) = y(cos β, sin β), δ = 2α − β, the Fourier series of both exponentials
//! (Abramowitz & Stegun 9.6.34) give
//!
//! (1/2π)∫ e^(κ cos(ψ−α) + y cos(2ψ−β)) dψ = Σ_n I_|n|(y) I_|2n|(κ) e^(inδ)
//!   = I₀(κ) I₀(y) [1 + 2 Σ_{n≥1} ρ_n(y) ρ_2n(κ) cos nδ],   ρ_m(z) = I_m(z)/I₀(z),
//!
//! exact, and summed to rounding: ρ_n(y) falls like (y/2)ⁿ/n! and y ≲ 0.1 at SNR 30 (for
//! y of order κ the terms would cancel, see [`MAX_TERMS`]). The
//! derivatives of the log with respect to (x₀, x₁, b, c) are the conditional means of cos ψ,
//! sin ψ, cos 2ψ and sin 2ψ, which the same series give: E[e^(ikψ)] =
//! e^(ikα) Σ_n I_|n|(y) I_|2n+k|(κ) e^(inδ) / (the integral).

use num_complex::Complex64;
use rand::Rng;
use tdpe_likelihood::QuadratureProducts;

/// Most terms of the series in y. The series' terms reach I₀(y) while their sum may be as
/// small as ~e^(−y) of it, so the relative rounding error of the integral grows like e^(2y)
/// ε: beyond y ≈ 7 (30 terms; a non-rotating part ~10⁻⁴ of ⟨h|h⟩ reaches it at SNR ~ 450) the
/// integral is not computed.
const MAX_TERMS: usize = 30;
/// Terms below this fraction of the leading one are dropped.
const TOLERANCE: f64 = 1e-16;
/// From this argument on, ln I₀ and the ratios ρ_m come from the asymptotic series (with the
/// forward recurrence for the ratios), below from the power series and Miller's recurrence.
const ASYMPTOTIC_FROM: f64 = 50.0;
/// Grid of the inverse-CDF draw of ψ.
pub(crate) const DRAW_GRID: usize = 2048;
/// The draw's grid covers the phases where the exponent is within this of its peak.
const DRAW_MARGIN: f64 = 40.0;

/// ln (1/2π)∫ exp(x₀ cos ψ + x₁ sin ψ + b cos 2ψ + c sin 2ψ) dψ and its gradient in
/// (x₀, x₁, b, c): the conditional means of cos ψ, sin ψ, cos 2ψ and sin 2ψ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PhaseIntegral {
    pub log: f64,
    pub means: [f64; 4],
}

/// The integral of [`PhaseIntegral`] (module docs); `None` for non-finite input or y beyond
/// [`MAX_TERMS`].
pub(crate) fn phase_integral(x0: f64, x1: f64, b: f64, c: f64) -> Option<PhaseIntegral> {
    if ![x0, x1, b, c].iter().all(|v| v.is_finite()) {
        return None;
    }
    let y = b.hypot(c);
    let series = PhaseSeries::new(x1.atan2(x0), c.atan2(b), y)?;
    Some(series.integral(x0.hypot(x1), y))
}

/// What the series of the module docs share along a line of (κ, y) with fixed angles α and β
/// (as over the distance, where x scales by u and (b, c) by u²): e^(inδ), e^(iα), e^(2iα), and
/// the number of terms that suffices up to the largest y.
pub(crate) struct PhaseSeries {
    terms: usize,
    /// e^(inδ), n = 0, …, terms.
    turns: [Complex64; MAX_TERMS + 1],
    first: Complex64,
    second: Complex64,
}

impl PhaseSeries {
    /// For the angles α of x and β of (b, c), and y up to `largest_y`; `None` if that needs
    /// more than [`MAX_TERMS`] terms.
    pub(crate) fn new(alpha: f64, beta: f64, largest_y: f64) -> Option<Self> {
        // ρ_n(y) ≤ (y/2)ⁿ/n!, the power series' leading term.
        let (mut bound, mut terms) = (1.0, 0);
        while bound >= TOLERANCE {
            terms += 1;
            if terms > MAX_TERMS || !largest_y.is_finite() {
                return None;
            }
            bound *= 0.5 * largest_y / terms as f64;
        }
        let step = Complex64::from_polar(1.0, 2.0 * alpha - beta);
        let mut turns = [Complex64::new(1.0, 0.0); MAX_TERMS + 1];
        for n in 1..=terms {
            turns[n] = turns[n - 1] * step;
        }
        Some(Self {
            terms,
            turns,
            first: Complex64::from_polar(1.0, alpha),
            second: Complex64::from_polar(1.0, 2.0 * alpha),
        })
    }

    /// The integral at κ = |x| and y = |(b, c)| (y at most the largest given to [`Self::new`]).
    pub(crate) fn integral(&self, kappa: f64, y: f64) -> PhaseIntegral {
        let terms = self.terms;
        let mut rho_y = [0.0; MAX_TERMS + 1];
        let (exponent_y, factor_y) = bessel_ratios(y, &mut rho_y[..=terms]);
        let mut rho_kappa = [0.0; 2 * MAX_TERMS + 3];
        let (exponent_kappa, factor_kappa) = bessel_ratios(kappa, &mut rho_kappa[..2 * terms + 3]);
        // Σ_n ρ_|n|(y) e^(inδ) ρ_|2n+k|(κ) for k = 0, 1, 2, pairing n with −n (k = 0), with
        // −n − 1 (k = 1) and −n − 2 (k = 2), whose orders |2n + k| are equal.
        let mut integral = rho_y[0];
        let mut first = Complex64::new(rho_y[0] * rho_kappa[1], 0.0);
        let mut second = Complex64::new(rho_y[0] * rho_kappa[2], 0.0);
        for n in 1..=terms {
            let (w, w_conj) = (rho_y[n] * self.turns[n], rho_y[n] * self.turns[n].conj());
            integral += 2.0 * w.re * rho_kappa[2 * n];
            first += w * rho_kappa[2 * n + 1] + w_conj * rho_kappa[2 * n - 1];
            second += w * rho_kappa[2 * n + 2] + w_conj * rho_kappa[2 * n - 2];
        }
        let first = self.first * first / integral;
        let second = self.second * second / integral;
        PhaseIntegral {
            log: exponent_kappa + exponent_y + (factor_kappa * factor_y * integral).ln(),
            means: [first.re, first.im, second.re, second.im],
        }
    }
}

/// ln L marginalised over a uniform phase, with the likelihood's distance fixed:
/// [F, ∂F/∂d₀, ∂F/∂d₁, ∂F/∂h₀₀, ∂F/∂h₀₁, ∂F/∂h₁₁]; NaN where the integral is not computed.
pub(crate) fn log_phase_marginal(q: &QuadratureProducts) -> [f64; 6] {
    let (a, rotating) = split(q);
    match phase_integral(q.d_0, q.d_1, -0.5 * rotating[0], -0.5 * rotating[1]) {
        Some(integral) => {
            let [cos, sin, cos2, sin2] = integral.means;
            partials(-0.5 * a + integral.log, [cos, sin, 1.0, cos2, sin2])
        }
        None => [f64::NAN; 6],
    }
}

/// A = (h₀₀ + h₁₁)/2 and (B, C) = ((h₀₀ − h₁₁)/2, h₀₁) of the module docs.
pub(crate) fn split(q: &QuadratureProducts) -> (f64, [f64; 2]) {
    (0.5 * (q.h_00 + q.h_11), [0.5 * (q.h_00 - q.h_11), q.h_01])
}

/// [F, ∂F/∂d₀, ∂F/∂d₁, ∂F/∂h₀₀, ∂F/∂h₀₁, ∂F/∂h₁₁] from F and the posterior means of
/// (u cos ψ, u sin ψ, u², u² cos 2ψ, u² sin 2ψ): ∂F/∂(d₀, d₁) are the first two, and
/// ∂F/∂(A, B, C) = −½ the last three.
pub(crate) fn partials(value: f64, means: [f64; 5]) -> [f64; 6] {
    let [d0, d1, u2, u2_cos2, u2_sin2] = means;
    let (f_a, f_b, f_c) = (-0.5 * u2, -0.5 * u2_cos2, -0.5 * u2_sin2);
    [value, d0, d1, 0.5 * (f_a + f_b), f_c, 0.5 * (f_a - f_b)]
}

/// A draw of ψ ∈ [0, 2π) from p(ψ) ∝ L(ψ) at the distance u = D₀/D_L (module docs), by the
/// inverse of the CDF on a grid around the peak.
pub(crate) fn draw_phase_angle<R: Rng + ?Sized>(
    q: &QuadratureProducts,
    u: f64,
    rng: &mut R,
) -> Option<f64> {
    let (_, [b, c]) = split(q);
    let exponent = |psi: f64| {
        let (sin, cos) = psi.sin_cos();
        let (sin2, cos2) = (2.0 * psi).sin_cos();
        u * (q.d_0 * cos + q.d_1 * sin) - 0.5 * u * u * (b * cos2 + c * sin2)
    };
    let (kappa, alpha) = (u * q.d_0.hypot(q.d_1), q.d_1.atan2(q.d_0));
    let y = 0.5 * u * u * b.hypot(c);
    if !(kappa.is_finite() && y.is_finite()) {
        return None;
    }
    // κ(1 − cos φ) ≥ 2κφ²/π² on |φ| ≤ π, and the 2ψ terms move the exponent by at most 2y.
    let half_width = (std::f64::consts::PI * ((DRAW_MARGIN + 2.0 * y) / (2.0 * kappa)).sqrt())
        .min(std::f64::consts::PI);
    let psi = crate::distance_marginal::draw_on_grid(
        alpha - half_width,
        alpha + half_width,
        DRAW_GRID,
        exponent,
        rng,
    )?;
    Some(psi.rem_euclid(std::f64::consts::TAU))
}

/// ρ_m(z) = I_m(z)/I₀(z) for m = 0, …, out.len() − 1 (z ≥ 0) into `out`, and I₀(z) as
/// (e, f) with I₀ = eᵉ f (so that the caller takes one logarithm for several factors).
///
/// I₀ comes from its asymptotic series (A&S 9.7.1) from [`ASYMPTOTIC_FROM`] on and from its
/// power series (A&S 9.6.10) below. The ratios, by whichever method is cheap and accurate:
/// - for z ≥ [`ASYMPTOTIC_FROM`] and orders m ≤ 2√z, the asymptotic series of I₁ too and the
///   recurrence I_{m+1} = I_{m−1} − (2m/z) I_m upwards, which loses about e^(m²/z) ≤ e⁴ of
///   the precision;
/// - for z < 1, the power series of the two highest orders and the recurrence
///   I_{m−1} = I_{m+1} + (2m/z) I_m downwards, stable in that direction;
/// - otherwise Miller's backward recurrence of I_m/I_{m−1} = 1/(2m/z + I_{m+1}/I_m), started
///   far enough above the orders that its error, damped by e^(−(M² − m²)/z), is below
///   rounding.
fn bessel_ratios(z: f64, out: &mut [f64]) -> (f64, f64) {
    let top = out.len() - 1;
    out[0] = 1.0;
    let asymptotic = z >= ASYMPTOTIC_FROM;
    let i0 = if asymptotic {
        let s0 = asymptotic_scaled(0, 1.0 / z);
        (z, s0 * (std::f64::consts::TAU * z).sqrt().recip())
    } else {
        (0.0, power_series(0, z))
    };
    if top == 0 {
        return i0;
    }
    if z == 0.0 {
        out[1..].fill(0.0);
    } else if asymptotic && (top * top) as f64 <= 4.0 * z {
        let inverse = 1.0 / z;
        out[1] = asymptotic_scaled(1, inverse) / asymptotic_scaled(0, inverse);
        for m in 1..top {
            out[m + 1] = out[m - 1] - 2.0 * m as f64 * inverse * out[m];
        }
    } else if z < 1.0 {
        let (mut above, mut here) = (power_series(top + 1, z), power_series(top, z));
        out[top] = here;
        let inverse = 1.0 / z;
        for m in (1..=top).rev() {
            (above, here) = (here, above + 2.0 * m as f64 * inverse * here);
            out[m - 1] = here;
        }
        let inverse_i0 = 1.0 / out[0];
        out.iter_mut().for_each(|v| *v *= inverse_i0);
    } else {
        let start = top + 10 + (40.0 * z).sqrt().ceil() as usize;
        let mut ratio = 0.0;
        for m in (1..=start).rev() {
            ratio = 1.0 / (2.0 * m as f64 / z + ratio);
            if m <= top {
                out[m] = ratio;
            }
        }
        for m in 1..=top {
            out[m] *= out[m - 1];
        }
    }
    i0
}

/// 1/k, k < 200 (entry 0 unused), for the series' terms.
const RECIPROCALS: [f64; 200] = {
    let mut table = [0.0; 200];
    let mut k = 1;
    while k < 200 {
        table[k] = 1.0 / k as f64;
        k += 1;
    }
    table
};

/// √(2πz) e^(−z) I_ν(z) for ν ≤ 1 by its asymptotic series Σ_k (−1)^k a_k(ν)/z^k (A&S
/// 9.7.1), from 1/z with z ≥ [`ASYMPTOTIC_FROM`], where the terms fall from the first and
/// the smallest is ~e^(−2z).
fn asymptotic_scaled(order: usize, inverse_z: f64) -> f64 {
    let four_nu2 = 4.0 * (order * order) as f64;
    let (mut sum, mut term) = (1.0, 1.0);
    for (k, reciprocal) in RECIPROCALS.iter().enumerate().skip(1) {
        let odd = (2 * k - 1) as f64;
        term *= (odd * odd - four_nu2) * (0.125 * reciprocal * inverse_z);
        sum += term;
        if term.abs() < TOLERANCE * sum.abs() {
            break;
        }
    }
    sum
}

/// I_ν(z) by its power series Σ_k (z/2)^(2k+ν)/(k!(k+ν)!) (A&S 9.6.10), for z below
/// [`ASYMPTOTIC_FROM`] (where its terms stay within range) or, for ν ≥ 1, below 1.
fn power_series(order: usize, z: f64) -> f64 {
    let half = 0.5 * z;
    let mut term = 1.0;
    for reciprocal in &RECIPROCALS[1..=order] {
        term *= half * reciprocal;
    }
    let quarter = half * half;
    let mut sum = term;
    for k in 1..200 - order {
        term *= quarter * RECIPROCALS[k] * RECIPROCALS[k + order];
        sum += term;
        if term < TOLERANCE * sum {
            break;
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::f64::consts::TAU;

    /// The integral and its means by the trapezoidal rule on n points, which converges
    /// geometrically for a periodic, analytic integrand.
    fn brute_force(x0: f64, x1: f64, b: f64, c: f64, n: usize) -> (f64, [f64; 4]) {
        let exponent = |psi: f64| {
            x0 * psi.cos() + x1 * psi.sin() + b * (2.0 * psi).cos() + c * (2.0 * psi).sin()
        };
        let psis: Vec<f64> = (0..n).map(|i| TAU * i as f64 / n as f64).collect();
        let peak = psis.iter().map(|&p| exponent(p)).fold(f64::MIN, f64::max);
        let (mut sum, mut means) = (0.0, [0.0; 4]);
        for &psi in &psis {
            let w = (exponent(psi) - peak).exp();
            sum += w;
            let values = [psi.cos(), psi.sin(), (2.0 * psi).cos(), (2.0 * psi).sin()];
            for (m, v) in means.iter_mut().zip(values) {
                *m += w * v;
            }
        }
        (peak + (sum / n as f64).ln(), means.map(|m| m / sum))
    }

    #[test]
    fn the_series_matches_the_integral() {
        // From pure noise to SNR ~ 60, with the non-rotating part far above a real signal's.
        for (x0, x1, b, c) in [
            (0.0, 0.0, 0.0, 0.0),
            (0.3, -0.2, 0.01, 0.0),
            (2.0, 1.0, -0.5, 0.3),
            (-7.0, 12.0, 0.02, -0.04),
            (25.0, -18.0, 1.5, 2.0),
            (-200.0, 350.0, -0.03, 0.02),
            (700.0, 100.0, 0.4, -3.0),
            (2500.0, -1800.0, 0.2, 0.1),
            (0.0, 0.0, 4.0, -3.0),
        ] {
            let got = phase_integral(x0, x1, b, c).unwrap();
            let (log, means) = brute_force(x0, x1, b, c, 40_000);
            let scale = 1.0 + log.abs();
            assert!(
                (got.log - log).abs() <= 1e-13 * scale,
                "{x0} {x1} {b} {c}: {} vs {log}",
                got.log
            );
            for (g, m) in got.means.iter().zip(means) {
                assert!(
                    (g - m).abs() <= 1e-11,
                    "{x0} {x1} {b} {c}: {:?} vs {means:?}",
                    got.means
                );
            }
        }
        assert!(phase_integral(f64::NAN, 0.0, 0.0, 0.0).is_none());
        assert!(phase_integral(0.0, 0.0, 1e3, 0.0).is_none());
        // y = 10, where the series would cancel to 2·10⁻⁷ of its terms.
        assert!(phase_integral(30.0, 40.0, 6.0, -8.0).is_none());
    }

    #[test]
    fn bessel_functions_match_known_values() {
        // I₀(1) = 1.2660658777520082, I₀(50) = 2.93255378384933e20, I₁(10)/I₀(10) =
        // 0.9485998259548459, I₅(60)/I₀(60) = 0.8113... (A&S table 9.8; mpmath).
        let mut rho = [0.0; 3];
        let ln_i0 = |z: f64| {
            let (e, f) = bessel_ratios(z, &mut [0.0; 3]);
            e + f.ln()
        };
        assert!((ln_i0(1.0) - 1.2660658777520082f64.ln()).abs() < 1e-15);
        assert!((ln_i0(0.5) - 1.0634833707413236f64.ln()).abs() < 1e-15);
        assert!((ln_i0(50.0) - 2.93255378384933e20f64.ln()).abs() < 1e-13);
        bessel_ratios(10.0, &mut rho);
        assert!((rho[1] - 0.9485998259548459).abs() < 1e-15);
        // The methods agree where they meet, and above it (with Miller's recurrence).
        for z in [0.3, 0.999, 1.0, 7.0, ASYMPTOTIC_FROM, 100.0, 400.0] {
            let mut asymptotic = [0.0; 24];
            // At z = 50 and 100 the orders above 2√z take Miller's recurrence, at 400 none.
            let (e, f) = bessel_ratios(z, &mut asymptotic);
            let log = e + f.ln();
            let start = 23 + 10 + (40.0 * z).sqrt().ceil() as usize;
            let mut ratio = 0.0;
            let mut miller = [1.0; 24];
            for m in (1..=start).rev() {
                ratio = 1.0 / (2.0 * m as f64 / z + ratio);
                if m < 24 {
                    miller[m] = ratio;
                }
            }
            for m in 1..24 {
                miller[m] *= miller[m - 1];
                assert!((miller[m] - asymptotic[m]).abs() < 1e-13, "{z} {m}");
            }
            if z <= 100.0 {
                assert!((log - power_series(0, z).ln()).abs() < 1e-13 * log, "{z}");
            }
        }
    }

    #[test]
    fn marginal_partials_match_differences() {
        let q = QuadratureProducts {
            d_0: 30.0,
            d_1: -42.0,
            h_00: 80.0,
            h_01: 0.004,
            h_11: 79.99,
        };
        let value = log_phase_marginal(&q);
        let products = |v: [f64; 5]| QuadratureProducts {
            d_0: v[0],
            d_1: v[1],
            h_00: v[2],
            h_01: v[3],
            h_11: v[4],
        };
        let base = [q.d_0, q.d_1, q.h_00, q.h_01, q.h_11];
        for i in 0..5 {
            let at = |s: f64| {
                let mut moved = base;
                moved[i] += s;
                log_phase_marginal(&products(moved))[0]
            };
            let h = 1e-4;
            let fd = (at(-2.0 * h) - 8.0 * at(-h) + 8.0 * at(h) - at(2.0 * h)) / (12.0 * h);
            assert!(
                (value[1 + i] - fd).abs() < 1e-8,
                "{i}: {} vs {fd}",
                value[1 + i]
            );
        }
    }

    #[test]
    fn phase_draws_follow_the_conditional() {
        let q = QuadratureProducts {
            d_0: 3.0,
            d_1: 1.5,
            h_00: 9.0,
            h_01: 0.8,
            h_11: 7.0,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let draws: Vec<f64> = (0..40_000)
            .map(|_| draw_phase_angle(&q, 1.0, &mut rng).unwrap())
            .collect();
        assert!(draws.iter().all(|d| (0.0..TAU).contains(d)));
        let (_, [b, c]) = split(&q);
        let (_, means) = brute_force(q.d_0, q.d_1, -0.5 * b, -0.5 * c, 10_000);
        let sample = |f: fn(f64) -> f64| draws.iter().map(|&d| f(d)).sum::<f64>() / 40_000.0;
        let got = [
            sample(f64::cos),
            sample(f64::sin),
            sample(|d| (2.0 * d).cos()),
            sample(|d| (2.0 * d).sin()),
        ];
        for (g, m) in got.iter().zip(means) {
            // 40,000 draws: standard error ≤ 0.005.
            assert!((g - m).abs() < 0.02, "{got:?} vs {means:?}");
        }
    }
}
