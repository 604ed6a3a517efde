//! Gauss–Legendre quadrature, shared by the distance marginalisation and the cosmology.

/// The n-point Gauss–Legendre rule on [−1, 1]: the roots of P_n by Newton's method from
/// cos(π(i + ¾)/(n + ½)), and the weights 2/((1 − x²) P_n'(x)²) (Abramowitz & Stegun 25.4.29).
pub(crate) fn gauss_legendre(n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|i| {
            let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
            let mut derivative = 0.0;
            for _ in 0..100 {
                // P_n(x) and P_n'(x) by the three-term recurrence.
                let (mut p0, mut p1) = (1.0, x);
                for k in 2..=n {
                    let k = k as f64;
                    (p0, p1) = (p1, ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k);
                }
                derivative = n as f64 * (x * p1 - p0) / (x * x - 1.0);
                let dx = p1 / derivative;
                x -= dx;
                if dx.abs() < 1e-16 {
                    break;
                }
            }
            (x, 2.0 / ((1.0 - x * x) * derivative * derivative))
        })
        .collect()
}

/// ∫ f over [a, b] by the rule `rule` (from [`gauss_legendre`]).
pub(crate) fn integrate(rule: &[(f64, f64)], a: f64, b: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mid, half) = (0.5 * (a + b), 0.5 * (b - a));
    half * rule
        .iter()
        .map(|&(x, w)| w * f(mid + half * x))
        .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials_exactly() {
        let rule = gauss_legendre(48);
        for degree in [0, 1, 2, 10, 47, 94] {
            let exact = if degree % 2 == 1 {
                0.0
            } else {
                2.0 / (degree as f64 + 1.0)
            };
            let sum: f64 = rule.iter().map(|(x, w)| w * x.powi(degree)).sum();
            assert!(
                (sum - exact).abs() < 1e-14,
                "degree {degree}: {sum} vs {exact}"
            );
        }
    }

    #[test]
    fn composite_rule_integrates_smooth_functions() {
        let rule = gauss_legendre(16);
        // 16 nodes on one interval where 1/x varies sixfold: 2e-12.
        let value = integrate(&rule, 0.5, 3.0, |x| 1.0 / x);
        assert!((value - 6f64.ln()).abs() < 1e-11, "{value}");
    }
}
