//! The chirp mass as its position within the range the mass constraints leave at each mass ratio
//! (docs/sampling.md §3.7).
//!
//! bilby's default BBH priors box (M_c, q) and constrain the component masses,
//! m₁ = M_c/k₁(q) and m₂ = M_c/k₂(q) with k₁ = q^(3/5)(1 + q)^(−1/5) and
//! k₂ = q^(−2/5)(1 + q)^(−1/5). In (M_c, q) a constraint is a curved wall where the prior drops
//! to zero; a posterior against it sends every Hamiltonian trajectory that reaches it into a
//! divergence. Here the sampler instead moves over u ∈ (0, 1) in the chirp-mass slot:
//!
//!   M_c = lo(q) + u (hi(q) − lo(q)),
//!   lo(q) = max(M_c's lower bound, mᵢ,min kᵢ(q) of each constraint),
//!   hi(q) = min(M_c's upper bound, mᵢ,max kᵢ(q) of each constraint),
//!
//! a bijection of (0, 1) onto the open range of allowed chirp masses for each q, with
//! |∂M_c/∂u| = hi − lo. The mass-ratio coordinate's range shrinks to the q where that range is
//! not empty. The prior keeps its density in (M_c, q); the walls become the ends of u's logit.

use tdpe_signal::{Parameter, ParameterVector};

use crate::prior::{Constraint, DerivedMass};

/// One end of the allowed chirp-mass range as a function of q: `scale` (M☉) times 1, k₁(q) or
/// k₂(q).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bound {
    scale: f64,
    mass: Option<DerivedMass>,
}

impl Bound {
    /// The bound's value and its q-derivative.
    fn at(&self, q: f64) -> (f64, f64) {
        // d ln k₁/dq = 3/(5q) − 1/(5(1 + q)), d ln k₂/dq = −2/(5q) − 1/(5(1 + q)).
        let (k, d_ln_k) = match self.mass {
            None => return (self.scale, 0.0),
            Some(DerivedMass::Mass1) => (
                q.powf(0.6) * (1.0 + q).powf(-0.2),
                0.6 / q - 0.2 / (1.0 + q),
            ),
            Some(DerivedMass::Mass2) => (
                q.powf(-0.4) * (1.0 + q).powf(-0.2),
                -0.4 / q - 0.2 / (1.0 + q),
            ),
        };
        (self.scale * k, self.scale * k * d_ln_k)
    }
}

/// The u coordinate of the chirp mass under mass constraints.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstrainedChirpMass {
    lower: Vec<Bound>,
    upper: Vec<Bound>,
}

/// ∂M_c/∂(q, u) and ln|∂M_c/∂u| with its q-derivative.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChirpMassJacobian {
    /// ∂M_c/∂q at fixed u.
    pub d_mass_ratio: f64,
    /// ∂M_c/∂u = hi − lo.
    pub d_fraction: f64,
    pub log_det: f64,
    /// ∂ ln|det|/∂q (it does not depend on u).
    pub d_log_det: f64,
}

impl ChirpMassJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        out[Parameter::MassRatio] += self.d_mass_ratio * g[Parameter::ChirpMass];
        out[Parameter::ChirpMass] = self.d_fraction * g[Parameter::ChirpMass];
        out
    }
}

/// The binding end among `bounds` at q (the largest of the lower ends or the smallest of the
/// upper ones), with its q-derivative.
fn binding(bounds: &[Bound], q: f64, largest: bool) -> (f64, f64) {
    let pick = |a: (f64, f64), b: (f64, f64)| {
        if (b.0 > a.0) == largest {
            b
        } else {
            a
        }
    };
    bounds
        .iter()
        .map(|b| b.at(q))
        .reduce(pick)
        .expect("the chirp mass's own bounds are always there")
}

impl ConstrainedChirpMass {
    /// The coordinate for a chirp-mass support `chirp_mass`, a mass-ratio support `mass_ratio`
    /// and `constraints`, with the range of q where some chirp mass is allowed; `Err` with the
    /// reason when the supports are not bounded or the constraints leave nothing.
    pub fn new(
        chirp_mass: (f64, f64),
        mass_ratio: (f64, f64),
        constraints: &[Constraint],
    ) -> Result<(Self, (f64, f64)), &'static str> {
        let (m_lo, m_hi) = chirp_mass;
        if !(m_lo >= 0.0 && m_lo < m_hi && m_hi.is_finite()) {
            return Err("chirp_mass's prior is not bounded and positive");
        }
        let (q_lo, q_hi) = mass_ratio;
        if !(q_lo > 0.0 && q_lo < q_hi && q_hi <= 1.0) {
            return Err("mass_ratio's prior is not within (0, 1]");
        }
        let mut map = Self {
            lower: vec![Bound {
                scale: m_lo,
                mass: None,
            }],
            upper: vec![Bound {
                scale: m_hi,
                mass: None,
            }],
        };
        for c in constraints {
            let mass = Some(c.parameter);
            map.lower.push(Bound {
                scale: c.minimum,
                mass,
            });
            map.upper.push(Bound {
                scale: c.maximum,
                mass,
            });
        }
        let range = map.allowed_mass_ratios(q_lo, q_hi)?;
        Ok((map, range))
    }

    /// The q in [q_lo, q_hi] where lo(q) < hi(q). For each pair of a lower and an upper end,
    /// ln(upper/lower) is monotonic in q (ln k₁ − ln k₂ = ln q), so each pair allows an
    /// interval of q, found by bisection, and the allowed range is their intersection.
    fn allowed_mass_ratios(&self, q_lo: f64, q_hi: f64) -> Result<(f64, f64), &'static str> {
        const EMPTY: &str = "the mass constraints leave no chirp mass at any mass ratio";
        let (mut from, mut to) = (q_lo, q_hi);
        for lower in &self.lower {
            for upper in &self.upper {
                let gap = |q: f64| upper.at(q).0 - lower.at(q).0;
                let (at_lo, at_hi) = (gap(q_lo) > 0.0, gap(q_hi) > 0.0);
                match (at_lo, at_hi) {
                    (true, true) => continue,
                    (false, false) => return Err(EMPTY),
                    _ => {}
                }
                // Bisect for the sign change of the (monotonic) gap.
                let (mut a, mut b) = (q_lo, q_hi);
                while b - a > 1e-15 * b {
                    let mid = 0.5 * (a + b);
                    if (gap(mid) > 0.0) == at_lo {
                        a = mid;
                    } else {
                        b = mid;
                    }
                }
                if at_lo {
                    to = to.min(a);
                } else {
                    from = from.max(b);
                }
            }
        }
        if from < to {
            Ok((from, to))
        } else {
            Err(EMPTY)
        }
    }

    /// The allowed chirp-mass range at q: (lo, ∂lo/∂q) and (hi, ∂hi/∂q).
    fn range(&self, q: f64) -> ((f64, f64), (f64, f64)) {
        (
            binding(&self.lower, q, true),
            binding(&self.upper, q, false),
        )
    }

    /// s of θ: u in place of M_c.
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        let ((lo, _), (hi, _)) = self.range(theta[Parameter::MassRatio]);
        let mut s = *theta;
        s[Parameter::ChirpMass] = (theta[Parameter::ChirpMass] - lo) / (hi - lo);
        s
    }

    /// θ of s, with the Jacobian.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, ChirpMassJacobian) {
        let (q, u) = (s[Parameter::MassRatio], s[Parameter::ChirpMass]);
        let ((lo, d_lo), (hi, d_hi)) = self.range(q);
        let width = hi - lo;
        let mut theta = *s;
        theta[Parameter::ChirpMass] = lo + u * width;
        let jacobian = ChirpMassJacobian {
            d_mass_ratio: (1.0 - u) * d_lo + u * d_hi,
            d_fraction: width,
            log_det: width.ln(),
            d_log_det: (d_hi - d_lo) / width,
        };
        (theta, jacobian)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tdpe_signal::component_masses;

    fn constraint(parameter: DerivedMass, minimum: f64, maximum: f64) -> Constraint {
        Constraint {
            parameter,
            minimum,
            maximum,
            latex_label: None,
            unit: None,
        }
    }

    /// The default prior's: M_c ∈ (20, 40), q ∈ (0.25, 1), m₁, m₂ ∈ [10, 80].
    fn default_map() -> (ConstrainedChirpMass, (f64, f64)) {
        let constraints = [
            constraint(DerivedMass::Mass1, 10.0, 80.0),
            constraint(DerivedMass::Mass2, 10.0, 80.0),
        ];
        ConstrainedChirpMass::new((20.0, 40.0), (0.25, 1.0), &constraints).unwrap()
    }

    fn s_at(q: f64, u: f64) -> ParameterVector {
        let mut s = [0.0; tdpe_signal::NUM_PARAMETERS];
        (s[Parameter::ChirpMass], s[Parameter::MassRatio]) = (u, q);
        s
    }

    /// Points on both sides of the kink where m₁ ≤ 80 takes over from M_c ≤ 40 (q ≈ 0.334).
    const POINTS: [(f64, f64); 5] = [
        (0.26, 0.5),
        (0.3, 0.99),
        (0.4, 0.01),
        (0.7, 0.5),
        (1.0, 0.3),
    ];

    /// Every u maps inside the prior box and the constraints, and back; the ends of u are the
    /// walls.
    #[test]
    fn maps_onto_the_allowed_masses() {
        let (map, range) = default_map();
        assert_eq!(range, (0.25, 1.0), "no q is excluded by these constraints");
        for (q, u) in POINTS {
            let (theta, _) = map.theta(&s_at(q, u));
            let mc = theta[Parameter::ChirpMass];
            let (m1, m2) = component_masses(mc, q);
            assert!((20.0..=40.0).contains(&mc), "{q} {u}: {mc}");
            assert!((10.0..=80.0).contains(&m1) && (10.0..=80.0).contains(&m2));
            let back = map.sampled(&theta);
            assert!((back[Parameter::ChirpMass] - u).abs() < 1e-13);
        }
        // At q = 0.3 the top of the range is m₁ = 80, not M_c = 40.
        let (theta, _) = map.theta(&s_at(0.3, 1.0));
        let (m1, _) = component_masses(theta[Parameter::ChirpMass], 0.3);
        assert!((m1 - 80.0).abs() < 1e-12, "{m1}");
        assert!(theta[Parameter::ChirpMass] < 40.0);
    }

    /// Every derivative against central differences.
    #[test]
    fn jacobian_matches_finite_differences() {
        let (map, _) = default_map();
        let h = 1e-7;
        for (q, u) in POINTS.into_iter().filter(|&(q, _)| q < 1.0) {
            let (_, j) = map.theta(&s_at(q, u));
            let mc = |q: f64, u: f64| map.theta(&s_at(q, u));
            let ((p, jp), (m, jm)) = (mc(q + h, u), mc(q - h, u));
            let fd = (p[Parameter::ChirpMass] - m[Parameter::ChirpMass]) / (2.0 * h);
            assert!((fd - j.d_mass_ratio).abs() < 1e-6, "{q} {u}: {fd}");
            let fd_log_det = (jp.log_det - jm.log_det) / (2.0 * h);
            assert!((fd_log_det - j.d_log_det).abs() < 1e-6, "{q} {u}");
            let (p, m) = (mc(q, u + h).0, mc(q, u - h).0);
            let fd = (p[Parameter::ChirpMass] - m[Parameter::ChirpMass]) / (2.0 * h);
            assert!((fd - j.d_fraction).abs() < 1e-6);
            assert!((j.d_fraction.ln() - j.log_det).abs() < 1e-15);
        }
    }

    /// Tighter constraints exclude the unequal masses: m₂ ≥ 25 needs M_c ≥ 25 k₂(q), above
    /// M_c's upper bound 30 where q is small.
    #[test]
    fn constraints_narrow_the_mass_ratio() {
        let constraints = [constraint(DerivedMass::Mass2, 25.0, 80.0)];
        let (map, (from, to)) =
            ConstrainedChirpMass::new((20.0, 30.0), (0.25, 1.0), &constraints).unwrap();
        assert_eq!(to, 1.0);
        let (_, m2) = component_masses(30.0, from);
        assert!((m2 - 25.0).abs() < 1e-9, "{from}: m2 {m2}");
        let ((lo, _), (hi, _)) = map.range(from * (1.0 + 1e-6));
        assert!(hi > lo && hi - lo < 1e-3, "{lo} {hi}");
        // Nothing allowed at all.
        let none = [constraint(DerivedMass::Mass1, 100.0, 120.0)];
        assert_eq!(
            ConstrainedChirpMass::new((20.0, 30.0), (0.25, 1.0), &none).unwrap_err(),
            "the mass constraints leave no chirp mass at any mass ratio"
        );
        assert!(ConstrainedChirpMass::new((20.0, f64::INFINITY), (0.25, 1.0), &none).is_err());
    }
}
