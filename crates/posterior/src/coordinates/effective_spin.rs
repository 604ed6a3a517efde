//! Sampling coordinates for aligned spins: the effective spin and the position along its line
//! (docs/sampling.md §3.2).
//!
//! The data measure χ_eff = (χ₁ + q χ₂)/(1 + q) (the spin combination of the 1.5PN phase, with
//! q = m₂/m₁ ≤ 1) far better than χ₁ and χ₂ themselves, so the posterior of (χ₁, χ₂) is a thin
//! band along a line of constant χ_eff across the square [a, b]². Per-coordinate logit maps bend
//! that band into a curved ridge with tails running off to infinity, which a gradient sampler
//! crosses only with tiny steps. Here the sampler instead moves over
//!
//! - χ_eff ∈ (a, b) (a convex combination of the two spins, so its range does not depend on q),
//! - u ∈ (0, 1), the fraction of the way along the segment of that line inside the square:
//!   χ₁ = lo + u (hi − lo), χ₂ = ((1 + q) χ_eff − χ₁)/q, where χ₂ ∈ [a, b] gives
//!   lo = max(a, (1 + q) χ_eff − q b) and hi = min(b, (1 + q) χ_eff − q a).
//!
//! The map is a bijection of (a, b) × (0, 1) onto the open square for each q, with
//! |det ∂(χ₁, χ₂)/∂(χ_eff, u)| = (hi − lo)(1 + q)/q, so a prior uniform in (χ₁, χ₂) is uniform
//! in u along each line: the band becomes straight and the u-direction stays prior-shaped.

use tdpe_signal::{Parameter, ParameterVector};

use crate::transform::Transform;

/// (χ_eff, u) coordinates for aligned spins sharing the support [lower, upper].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EffectiveSpin {
    lower: f64,
    upper: f64,
}

/// ∂(χ₁, χ₂)/∂(q, χ_eff, u) and ln|det ∂(χ₁, χ₂)/∂(χ_eff, u)| with its gradient.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpinJacobian {
    /// ∂(χ₁, χ₂)/∂q at fixed (χ_eff, u).
    pub d_mass_ratio: [f64; 2],
    /// ∂(χ₁, χ₂)/∂χ_eff.
    pub d_effective: [f64; 2],
    /// ∂(χ₁, χ₂)/∂u.
    pub d_fraction: [f64; 2],
    pub log_det: f64,
    /// ∂ ln|det|/∂(q, χ_eff) (it does not depend on u).
    pub d_log_det: [f64; 2],
}

impl SpinJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let dot = |d: &[f64; 2]| d[0] * g[Parameter::Chi1] + d[1] * g[Parameter::Chi2];
        let mut out = *g;
        out[Parameter::MassRatio] += dot(&self.d_mass_ratio);
        out[Parameter::Chi1] = dot(&self.d_effective);
        out[Parameter::Chi2] = dot(&self.d_fraction);
        out
    }
}

/// One end of the segment: its value and ∂/∂(q, χ_eff).
struct End {
    value: f64,
    d_mass_ratio: f64,
    d_effective: f64,
}

impl EffectiveSpin {
    /// The coordinates for spins with supports `chi_1` and `chi_2`: only when both are the same
    /// bounded interval (the square the construction needs).
    pub fn new(chi_1: (f64, f64), chi_2: (f64, f64)) -> Option<Self> {
        let (lower, upper) = chi_1;
        (chi_1 == chi_2 && lower.is_finite() && upper.is_finite() && lower < upper)
            .then_some(Self { lower, upper })
    }

    /// Transforms of (χ_eff, u).
    pub fn transforms(&self) -> [Transform; 2] {
        [
            Transform::Logit {
                lower: self.lower,
                upper: self.upper,
            },
            Transform::Logit {
                lower: 0.0,
                upper: 1.0,
            },
        ]
    }

    /// The segment [lo, hi] of χ₁ on the line of χ_eff inside the square.
    fn segment(&self, q: f64, effective: f64) -> (End, End) {
        let clamp = |bound: f64, other_spin_bound: f64, outer: fn(f64, f64) -> bool| {
            let line = (1.0 + q) * effective - q * other_spin_bound;
            if outer(line, bound) {
                End {
                    value: line,
                    d_mass_ratio: effective - other_spin_bound,
                    d_effective: 1.0 + q,
                }
            } else {
                End {
                    value: bound,
                    d_mass_ratio: 0.0,
                    d_effective: 0.0,
                }
            }
        };
        (
            clamp(self.lower, self.upper, |line, bound| line > bound),
            clamp(self.upper, self.lower, |line, bound| line < bound),
        )
    }

    /// s of θ: (χ_eff, u) in place of (χ₁, χ₂).
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        let (q, chi_1, chi_2) = (
            theta[Parameter::MassRatio],
            theta[Parameter::Chi1],
            theta[Parameter::Chi2],
        );
        let effective = (chi_1 + q * chi_2) / (1.0 + q);
        let (lo, hi) = self.segment(q, effective);
        let mut s = *theta;
        s[Parameter::Chi1] = effective;
        s[Parameter::Chi2] = (chi_1 - lo.value) / (hi.value - lo.value);
        s
    }

    /// θ of s, with the Jacobian.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, SpinJacobian) {
        let (q, effective, u) = (
            s[Parameter::MassRatio],
            s[Parameter::Chi1],
            s[Parameter::Chi2],
        );
        let (lo, hi) = self.segment(q, effective);
        let width = hi.value - lo.value;
        let chi_1 = lo.value + u * width;
        let chi_2 = ((1.0 + q) * effective - chi_1) / q;
        let mix = |l: f64, h: f64| (1.0 - u) * l + u * h;
        let d1_dq = mix(lo.d_mass_ratio, hi.d_mass_ratio);
        let d1_de = mix(lo.d_effective, hi.d_effective);
        let mut theta = *s;
        theta[Parameter::Chi1] = chi_1;
        theta[Parameter::Chi2] = chi_2;
        let jacobian = SpinJacobian {
            d_mass_ratio: [d1_dq, (effective - d1_dq - chi_2) / q],
            d_effective: [d1_de, (1.0 + q - d1_de) / q],
            d_fraction: [width, -width / q],
            log_det: width.ln() + (1.0 + q).ln() - q.ln(),
            d_log_det: [
                (hi.d_mass_ratio - lo.d_mass_ratio) / width + 1.0 / (1.0 + q) - 1.0 / q,
                (hi.d_effective - lo.d_effective) / width,
            ],
        };
        (theta, jacobian)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPINS: EffectiveSpin = EffectiveSpin {
        lower: -0.99,
        upper: 0.99,
    };

    fn s_at(q: f64, effective: f64, u: f64) -> ParameterVector {
        let mut s = [0.0; tdpe_signal::NUM_PARAMETERS];
        (
            s[Parameter::MassRatio],
            s[Parameter::Chi1],
            s[Parameter::Chi2],
        ) = (q, effective, u);
        s
    }

    /// Both ends of every clamp, including q = 1 where the segment's ends switch at χ_eff = 0.
    const POINTS: [(f64, f64, f64); 6] = [
        (0.8, 0.05, 0.3),
        (0.8, -0.5, 0.9),
        (0.8, 0.6, 0.1),
        (0.3, 0.02, 0.5),
        (0.95, -0.2, 0.7),
        (0.5, 0.9, 0.5),
    ];

    #[test]
    fn round_trip_and_definition() {
        for (q, effective, u) in POINTS {
            let (theta, _) = SPINS.theta(&s_at(q, effective, u));
            let (chi_1, chi_2) = (theta[Parameter::Chi1], theta[Parameter::Chi2]);
            assert!(chi_1.abs() < 0.99 && chi_2.abs() < 0.99, "{theta:?}");
            assert!(((chi_1 + q * chi_2) / (1.0 + q) - effective).abs() < 1e-14);
            let back = SPINS.sampled(&theta);
            assert!((back[Parameter::Chi1] - effective).abs() < 1e-14);
            assert!((back[Parameter::Chi2] - u).abs() < 1e-12, "{back:?}");
        }
    }

    /// Every derivative against central differences.
    #[test]
    fn jacobian_matches_finite_differences() {
        let h = 1e-7;
        for (q, effective, u) in POINTS {
            let (_, j) = SPINS.theta(&s_at(q, effective, u));
            let directions = [
                (s_at(h, 0.0, 0.0), j.d_mass_ratio, j.d_log_det[0]),
                (s_at(0.0, h, 0.0), j.d_effective, j.d_log_det[1]),
                (s_at(0.0, 0.0, h), j.d_fraction, 0.0),
            ];
            for (step, d_spins, d_log_det) in directions {
                let at = |sign: f64| {
                    let s = s_at(
                        q + sign * step[Parameter::MassRatio],
                        effective + sign * step[Parameter::Chi1],
                        u + sign * step[Parameter::Chi2],
                    );
                    SPINS.theta(&s)
                };
                let ((p, jp), (m, jm)) = (at(1.0), at(-1.0));
                for (k, index) in [Parameter::Chi1, Parameter::Chi2].into_iter().enumerate() {
                    let fd = (p[index] - m[index]) / (2.0 * h);
                    assert!((fd - d_spins[k]).abs() < 1e-6, "{q} {effective} {u}: {k}");
                }
                let fd = (jp.log_det - jm.log_det) / (2.0 * h);
                assert!((fd - d_log_det).abs() < 1e-6, "{q} {effective} {u}: {fd}");
            }
        }
    }

    /// The determinant against the volume of the image of a small square.
    #[test]
    fn determinant_is_the_area_ratio() {
        for (q, effective, u) in POINTS {
            let (_, j) = SPINS.theta(&s_at(q, effective, u));
            let det = j.d_effective[0] * j.d_fraction[1] - j.d_effective[1] * j.d_fraction[0];
            assert!((det.abs().ln() - j.log_det).abs() < 1e-12);
        }
    }

    #[test]
    fn only_for_a_shared_bounded_support() {
        assert!(EffectiveSpin::new((-0.99, 0.99), (-0.99, 0.99)).is_some());
        assert!(EffectiveSpin::new((-0.99, 0.99), (-0.5, 0.5)).is_none());
        assert!(EffectiveSpin::new((-f64::INFINITY, 1.0), (-f64::INFINITY, 1.0)).is_none());
    }
}
