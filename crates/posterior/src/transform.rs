//! Maps from an unconstrained coordinate y ∈ ℝ to a parameter θ in its prior's support, with
//! exact log-Jacobians (docs/sampling.md §2.2; the symmetric-mass-ratio transform §3.1).
//!
//! - bounded [a, b]: logit, θ = a + (b − a) σ(y) with σ(y) = 1/(1 + e^(−y));
//!   ln|dθ/dy| = ln(b − a) + ln σ(y) + ln(1 − σ(y)), d/dy of it = 1 − 2σ(y);
//! - bounded below [a, ∞): θ = a + e^y, ln|dθ/dy| = y; above (−∞, b]: θ = b − e^y, likewise;
//! - unbounded: θ = y;
//! - periodic [a, b): θ = a + ((y − a) mod (b − a)): the sampler moves on the real line and the
//!   density is periodic, so there is no wall and no Jacobian (dθ/dy = 1);
//! - mass ratio q ∈ [a, b] ⊂ (0, 1] through the symmetric mass ratio η = q/(1 + q)²: logit on
//!   η ∈ [η(a), η(b)], then q = (1 − δ)/(1 + δ) with δ = √(1 − 4η). The post-Newtonian phase
//!   depends on the mass ratio through η (Blanchet, Living Rev. Rel. 17 (2014) 2), which is
//!   quadratic in q about q = 1: in q the likelihood is flat at equal masses and steep at unequal
//!   ones, in η its width is more nearly uniform. ln|dq/dη| = ln 4 − ln δ − 2 ln(1 + δ).
//!
//! (The Stan Reference Manual, "Constraint transforms", §10.2–10.4.)

use crate::prior::Prior;

/// `x` moved by whole periods into [lower, lower + period).
pub fn wrap(x: f64, lower: f64, period: f64) -> f64 {
    lower + (x - lower).rem_euclid(period)
}

/// Whether the support (lower, upper) is exactly one `period` long (to 1e-9), from a finite start.
pub fn spans_period((lower, upper): (f64, f64), period: f64) -> bool {
    lower.is_finite() && ((upper - lower) - period).abs() < 1e-9
}

/// The transform of one sampled parameter.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Transform {
    /// θ = lower + (upper − lower) σ(y).
    Logit { lower: f64, upper: f64 },
    /// θ = lower + e^y.
    LogLower { lower: f64 },
    /// θ = upper − e^y.
    LogUpper { upper: f64 },
    /// θ = y.
    Identity,
    /// θ = lower + ((y − lower) mod (upper − lower)).
    Periodic { lower: f64, upper: f64 },
    /// q of η = η(lower) + (η(upper) − η(lower)) σ(y), for 0 < lower < upper ≤ 1.
    SymmetricMassRatio { lower: f64, upper: f64 },
}

/// η = q/(1 + q)².
fn symmetric_mass_ratio(q: f64) -> f64 {
    q / ((1.0 + q) * (1.0 + q))
}

/// θ(y) with its derivative and the log-Jacobian with its derivative.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forward {
    /// θ(y).
    pub value: f64,
    /// dθ/dy.
    pub derivative: f64,
    /// ln|dθ/dy|.
    pub log_jacobian: f64,
    /// d ln|dθ/dy| / dy.
    pub d_log_jacobian: f64,
}

/// ln σ(y) computed without overflow.
pub(crate) fn ln_sigmoid(y: f64) -> f64 {
    if y >= 0.0 {
        -(-y).exp().ln_1p()
    } else {
        y - y.exp().ln_1p()
    }
}

impl Transform {
    /// The transform for a (non-fixed) prior: periodic if it says so, otherwise by which of its
    /// bounds are finite.
    pub fn for_prior(prior: &Prior) -> Self {
        let (lower, upper) = prior.distribution.support();
        match (prior.is_periodic(), lower.is_finite(), upper.is_finite()) {
            (true, _, _) => Self::Periodic { lower, upper },
            (false, true, true) => Self::Logit { lower, upper },
            (false, true, false) => Self::LogLower { lower },
            (false, false, true) => Self::LogUpper { upper },
            (false, false, false) => Self::Identity,
        }
    }

    /// The symmetric-mass-ratio transform for a mass-ratio support, if it lies in (0, 1].
    pub fn symmetric_mass_ratio(lower: f64, upper: f64) -> Option<Self> {
        (0.0 < lower && lower < upper && upper <= 1.0)
            .then_some(Self::SymmetricMassRatio { lower, upper })
    }

    /// θ(y) and the derivatives.
    pub fn forward(&self, y: f64) -> Forward {
        match *self {
            Self::SymmetricMassRatio { lower, upper } => {
                let (eta_low, eta_high) =
                    (symmetric_mass_ratio(lower), symmetric_mass_ratio(upper));
                let eta = Self::Logit {
                    lower: eta_low,
                    upper: eta_high,
                }
                .forward(y);
                // ¼ − η from the upper end, so that δ keeps its precision as q → 1.
                let quarter_minus_eta =
                    (0.25 - eta_high) + (eta_high - eta_low) * ln_sigmoid(-y).exp();
                let delta = 2.0 * quarter_minus_eta.sqrt();
                let dq_deta = 4.0 / (delta * (1.0 + delta).powi(2));
                // d ln(dq/dη)/dη = (2/δ)(1/δ + 2/(1 + δ)).
                let d_ln_dq_deta = 2.0 / delta * (1.0 / delta + 2.0 / (1.0 + delta));
                Forward {
                    value: (1.0 - delta) / (1.0 + delta),
                    derivative: dq_deta * eta.derivative,
                    log_jacobian: dq_deta.ln() + eta.log_jacobian,
                    d_log_jacobian: d_ln_dq_deta * eta.derivative + eta.d_log_jacobian,
                }
            }
            Self::Logit { lower, upper } => {
                let width = upper - lower;
                let (ln_s, ln_1ms) = (ln_sigmoid(y), ln_sigmoid(-y));
                let s = ln_s.exp();
                let one_minus = ln_1ms.exp();
                // Keep θ strictly inside (lower, upper) where σ rounds to 0 or 1.
                let value = if y >= 0.0 {
                    upper - width * one_minus
                } else {
                    lower + width * s
                };
                Forward {
                    value,
                    derivative: width * s * one_minus,
                    log_jacobian: width.ln() + ln_s + ln_1ms,
                    d_log_jacobian: one_minus - s,
                }
            }
            Self::LogLower { lower } => Forward {
                value: lower + y.exp(),
                derivative: y.exp(),
                log_jacobian: y,
                d_log_jacobian: 1.0,
            },
            Self::LogUpper { upper } => Forward {
                value: upper - y.exp(),
                derivative: -y.exp(),
                log_jacobian: y,
                d_log_jacobian: 1.0,
            },
            Self::Identity => Forward {
                value: y,
                derivative: 1.0,
                log_jacobian: 0.0,
                d_log_jacobian: 0.0,
            },
            Self::Periodic { lower, upper } => Forward {
                value: wrap(y, lower, upper - lower),
                derivative: 1.0,
                log_jacobian: 0.0,
                d_log_jacobian: 0.0,
            },
        }
    }

    /// y(θ) for θ inside the support (±∞ on a bound; periodic: θ itself).
    pub fn inverse(&self, theta: f64) -> f64 {
        match *self {
            Self::Logit { lower, upper } => {
                let u = (theta - lower) / (upper - lower);
                u.ln() - (-u).ln_1p()
            }
            Self::SymmetricMassRatio { lower, upper } => Self::Logit {
                lower: symmetric_mass_ratio(lower),
                upper: symmetric_mass_ratio(upper),
            }
            .inverse(symmetric_mass_ratio(theta)),
            Self::LogLower { lower } => (theta - lower).ln(),
            Self::LogUpper { upper } => (upper - theta).ln(),
            Self::Identity | Self::Periodic { .. } => theta,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transforms() -> [Transform; 7] {
        [
            Transform::SymmetricMassRatio {
                lower: 0.25,
                upper: 1.0,
            },
            Transform::SymmetricMassRatio {
                lower: 0.125,
                upper: 0.9,
            },
            Transform::Logit {
                lower: 20.0,
                upper: 40.0,
            },
            Transform::LogLower { lower: 100.0 },
            Transform::LogUpper { upper: 1.0 },
            Transform::Identity,
            Transform::Periodic {
                lower: 0.0,
                upper: std::f64::consts::TAU,
            },
        ]
    }

    /// dθ/dy and d ln J/dy against central differences, ln J = ln|dθ/dy|, and inverse ∘ forward.
    #[test]
    fn jacobians_match_finite_differences() {
        for t in transforms() {
            for &y in &[-30.0_f64, -3.0, -0.4, 0.0, 0.7, 2.5, 30.0] {
                if matches!(t, Transform::LogLower { .. } | Transform::LogUpper { .. })
                    && y.abs() > 10.0
                {
                    continue;
                }
                let f = t.forward(y);
                let h = 1e-5;
                let (p, m) = (t.forward(y + h), t.forward(y - h));
                if !matches!(t, Transform::Periodic { .. }) || (p.value - m.value).abs() < 1.0 {
                    let d = (p.value - m.value) / (2.0 * h);
                    assert!(
                        (d - f.derivative).abs() <= 1e-6 * (1.0 + d.abs()),
                        "{t:?} {y}"
                    );
                }
                let dj = (p.log_jacobian - m.log_jacobian) / (2.0 * h);
                assert!((dj - f.d_log_jacobian).abs() < 1e-6, "{t:?} {y}: {dj}");
                assert!(
                    (f.log_jacobian - f.derivative.abs().ln()).abs() < 1e-9,
                    "{t:?} {y}"
                );
                if y.abs() < 20.0 && !matches!(t, Transform::Periodic { .. }) {
                    assert!((t.inverse(f.value) - y).abs() < 1e-8, "{t:?} {y}");
                }
            }
        }
    }

    #[test]
    fn logit_stays_inside_and_periodic_wraps() {
        let t = Transform::Logit {
            lower: 0.25,
            upper: 1.0,
        };
        assert!(t.forward(800.0).value <= 1.0 && t.forward(-800.0).value >= 0.25);
        let p = Transform::Periodic {
            lower: 0.0,
            upper: std::f64::consts::PI,
        };
        let pi = std::f64::consts::PI;
        assert!((p.forward(0.5 + 3.0 * pi).value - 0.5).abs() < 1e-12);
        assert!((p.forward(0.5 - 2.0 * pi).value - 0.5).abs() < 1e-12);
        assert!((p.forward(-0.1).value - (pi - 0.1)).abs() < 1e-12);
        assert_eq!(p.inverse(1.0), 1.0);
    }
}
