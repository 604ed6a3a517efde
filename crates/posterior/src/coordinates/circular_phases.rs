//! Sampling coordinates for the orbital phase and the polarisation angle: φ + ψ and φ − ψ, the
//! phases of the two circular polarisations (docs/sampling.md §3.5).
//!
//! With the (2,2) and (2,−2) modes only, a detector sees Q = u w + v w̄ (see
//! [`crate::jumps::inclination_mirror`]) with u ∝ (1 + cos θ_jn)² e^(−2i(φ+ψ)) and
//! v ∝ (1 − cos θ_jn)² e^(−2i(φ−ψ)). Near face-off (|v| ≫ |u|) the data measure φ − ψ well
//! and φ + ψ hardly at all; near face-on the reverse. In (φ, ψ) the posterior is then a thin
//! ridge along a diagonal that wraps around the torus; folded into one period of each angle, the
//! ridge's pieces fill the square, so the metric learned in the warm-up sees a wide round
//! posterior where the sampler has to move along a thin line, and its step is set by the line's
//! width. In α = φ + ψ and δ = φ − ψ, each modulo π, the ridge lies along a coordinate axis for
//! either sign of cos θ_jn, and the face-on/face-off mirror (ψ → β − ψ) becomes
//! (α, δ) → (δ + β, α − β).
//!
//! (φ, ψ) ↦ (φ + ψ mod π, φ − ψ mod π) is four-to-one from [φ₀, φ₀ + 2π) × [ψ₀, ψ₀ + π),
//! with |det| = 2: the preimages of a point differ by (π/2, π/2), (π, 0) and their sum, which
//! change e^(−2iφ) and the antenna factors e^(∓2iψ) by signs that cancel in u and v. So a
//! (2,2)-mode likelihood, with uniform priors on φ and ψ, has the same posterior at all four,
//! and the density of (α, δ) is 4/2 = 2 times that of (φ, ψ) at any of them. The sampler
//! returns one preimage; [`CircularPhases::equivalent`] gives the others, and the results
//! report a uniformly random one, so that phase and psi have the marginals of the full space.
//!
//! With higher modes the four are different points (φ → φ + π flips the odd-m modes), and
//! folding them together would sum four different posteriors. The same coordinates then run
//! over four times the period, α and δ each modulo 4π ([`Copies::Unfolded`]): that torus
//! covers the (φ, ψ) torus four times over, each of its points one (φ, ψ), so the density is
//! that of the model, whatever its modes. The ridge still lies along an axis, and following it
//! by π leads from one copy to the next (docs/sampling.md §3.5).
//!
//! The map acts on whichever phase the sampler uses (bilby's φ at f_ref, or the phase at the
//! peak of [`crate::coordinates::peak_phase`], which differs from it by a shift that depends on the masses
//! and spins alone).

use tdpe_signal::{Parameter, ParameterVector};

use std::f64::consts::{FRAC_PI_2, LN_2, PI, TAU};

use crate::transform::{spans_period, wrap};

/// How the four (φ, ψ) with the same φ ± ψ modulo π are sampled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Copies {
    /// As one point: α and δ modulo π. Exact for the (2,±2) modes alone, whose likelihood is
    /// the same at all four.
    Folded,
    /// As four points: α and δ modulo 4π, a torus that covers the (φ, ψ) torus four times.
    /// Exact for any modes.
    Unfolded,
}

/// The map between (phase, psi) and (phase + psi, phase − psi); see the module documentation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CircularPhases {
    /// The start of the phase prior's period [lower, lower + 2π).
    phase_lower: f64,
    /// The start of the psi prior's period [lower, lower + π).
    psi_lower: f64,
    copies: Copies,
}

impl CircularPhases {
    /// The map for a phase prior with support [phase_lower, phase_lower + 2π) and a psi prior
    /// with support [psi_lower, psi_lower + π); `None` for any other periods (the map is
    /// four-to-one onto the torus of (α, δ), or the torus of (α, δ) covers (φ, ψ)'s four
    /// times, only then).
    pub fn new(phase: (f64, f64), psi: (f64, f64), copies: Copies) -> Option<Self> {
        (spans_period(phase, TAU) && spans_period(psi, PI)).then_some(Self {
            phase_lower: phase.0,
            psi_lower: psi.0,
            copies,
        })
    }

    /// How the four copies are sampled.
    pub fn copies(&self) -> Copies {
        self.copies
    }

    /// The period of α and of δ: π folded, 4π unfolded.
    pub fn period(&self) -> f64 {
        match self.copies {
            Copies::Folded => PI,
            Copies::Unfolded => 4.0 * PI,
        }
    }

    /// The density of (α, δ) over that of (φ, ψ), as a log: the map's log-determinant, which
    /// normalises the prior on the torus of (α, δ). Folded, Σ over the four preimages of
    /// |det ∂θ/∂s| = 4 · ½; unfolded, |det ∂θ/∂s| = ½ shared by the four points of the cover
    /// over each (φ, ψ): ⅛.
    pub fn log_det(&self) -> f64 {
        match self.copies {
            Copies::Folded => LN_2,
            Copies::Unfolded => -3.0 * LN_2,
        }
    }

    /// s of θ: α = φ + ψ in the phase slot, δ = φ − ψ in the psi slot, each modulo the period.
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        let mut s = *theta;
        let period = self.period();
        s[Parameter::Phase] = (theta[Parameter::Phase] + theta[Parameter::Psi]).rem_euclid(period);
        s[Parameter::Psi] = (theta[Parameter::Phase] - theta[Parameter::Psi]).rem_euclid(period);
        s
    }

    /// θ with (phase, psi) = (φ, ψ) wrapped into the priors' periods.
    fn with_phase_and_psi(&self, theta: &ParameterVector, phi: f64, psi: f64) -> ParameterVector {
        let mut out = *theta;
        out[Parameter::Phase] = wrap(phi, self.phase_lower, TAU);
        out[Parameter::Psi] = wrap(psi, self.psi_lower, PI);
        out
    }

    /// θ of s: the preimage φ = (α + δ)/2, ψ = (α − δ)/2, wrapped into the priors' periods.
    /// ∂(φ, ψ)/∂(α, δ) is constant (see [`CircularPhases::pull_back`]).
    pub fn theta(&self, s: &ParameterVector) -> ParameterVector {
        let (alpha, delta) = (s[Parameter::Phase], s[Parameter::Psi]);
        self.with_phase_and_psi(s, 0.5 * (alpha + delta), 0.5 * (alpha - delta))
    }

    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        out[Parameter::Phase] = 0.5 * (g[Parameter::Phase] + g[Parameter::Psi]);
        out[Parameter::Psi] = 0.5 * (g[Parameter::Phase] - g[Parameter::Psi]);
        out
    }

    /// Folded, the `k`-th (k mod 4) of the four points with the same (α, δ) as θ: θ shifted by
    /// k·(π/2, π/2) in (φ, ψ), wrapped into the priors' periods (k = 0 gives θ). Unfolded, θ:
    /// its (α, δ) is its own.
    pub fn equivalent(&self, theta: &ParameterVector, k: usize) -> ParameterVector {
        if self.copies == Copies::Unfolded {
            return *theta;
        }
        let shift = (k % 4) as f64 * FRAC_PI_2;
        self.with_phase_and_psi(
            theta,
            theta[Parameter::Phase] + shift,
            theta[Parameter::Psi] + shift,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tdpe_detector::{Detector, GpsTime};
    use tdpe_signal::{BbhParameters, SignalModel, SpinModel};

    const THETA: ParameterVector = SpinModel::Aligned.vector(&[
        30.0, 0.8, 0.1, -0.2, 1000.0, 2.6, 0.6, 1.3, 0.0, 1.95, -1.27,
    ]);

    /// The four preimages of (α, δ) give the same strain in every detector (the model's own
    /// (2,±2) projection, not the algebra of the module documentation), and they are distinct.
    #[test]
    fn the_four_preimages_give_the_same_strain() {
        let detectors = ["H1", "L1", "V1"].map(|n| Detector::from_name(n).unwrap());
        let epoch = GpsTime::from_f64(1126259462.4).unwrap();
        let model = SignalModel::new(detectors.to_vec(), epoch, 20.0, 1.0 / 2048.0).unwrap();
        let strain = |t: &ParameterVector| {
            let p = BbhParameters::from_array(*t);
            model.strain(&p, -0.3, 1.0 / 2048.0, 700).unwrap()
        };
        let map = CircularPhases::new((0.0, TAU), (0.0, PI), Copies::Folded).unwrap();
        let s = map.sampled(&THETA);
        let canonical = map.theta(&s);
        let reference = strain(&THETA);
        let scale = reference
            .iter()
            .flatten()
            .fold(0.0f64, |m, h| m.max(h.abs()));
        let mut found = false;
        for k in 0..4 {
            let other = map.equivalent(&canonical, k);
            assert!(
                (0.0..TAU).contains(&other[Parameter::Phase])
                    && (0.0..PI).contains(&other[Parameter::Psi])
            );
            let back = map.sampled(&other);
            assert!(
                (back[Parameter::Phase] - s[Parameter::Phase]).abs() < 1e-12
                    && (back[Parameter::Psi] - s[Parameter::Psi]).abs() < 1e-12
            );
            for (a, b) in strain(&other)
                .iter()
                .flatten()
                .zip(reference.iter().flatten())
            {
                assert!((a - b).abs() < 1e-12 * scale, "k = {k}: {a} vs {b}");
            }
            found |= (other[Parameter::Phase] - THETA[Parameter::Phase]).abs() < 1e-12
                && (other[Parameter::Psi] - THETA[Parameter::Psi]).abs() < 1e-12;
            for j in 0..k {
                let earlier = map.equivalent(&canonical, j);
                assert!(
                    (earlier[Parameter::Phase] - other[Parameter::Phase]).abs()
                        + (earlier[Parameter::Psi] - other[Parameter::Psi]).abs()
                        > 1.0
                );
            }
        }
        assert!(found, "θ is not among the preimages of its own (α, δ)");
        // A shift that is not in the group changes the strain.
        let mut off = THETA;
        off[Parameter::Phase] += FRAC_PI_2;
        let changed = strain(&off)
            .iter()
            .flatten()
            .zip(reference.iter().flatten())
            .any(|(a, b)| (a - b).abs() > 0.1 * scale);
        assert!(changed);
    }

    /// The pull-back is the transpose of ∂θ/∂s, by finite differences of θ(s).
    #[test]
    fn pull_back_is_the_transposed_jacobian() {
        let map = CircularPhases::new((0.0, TAU), (0.0, PI), Copies::Folded).unwrap();
        let s = map.sampled(&THETA);
        let h = 1e-6;
        for (slot, e) in [(Parameter::Phase, 0), (Parameter::Psi, 1)] {
            let (mut plus, mut minus) = (s, s);
            plus[slot] += h;
            minus[slot] -= h;
            let (tp, tm) = (map.theta(&plus), map.theta(&minus));
            let column = [
                (tp[Parameter::Phase] - tm[Parameter::Phase]) / (2.0 * h),
                (tp[Parameter::Psi] - tm[Parameter::Psi]) / (2.0 * h),
            ];
            for (g_slot, g_index) in [(Parameter::Phase, 0), (Parameter::Psi, 1)] {
                let mut g = [0.0; tdpe_signal::NUM_PARAMETERS];
                g[g_slot] = 1.0;
                let pulled = CircularPhases::pull_back(&g);
                assert!(
                    (pulled[slot] - column[g_index]).abs() < 1e-8,
                    "{e} {g_index}"
                );
            }
        }
    }

    #[test]
    fn only_full_periods_are_accepted() {
        assert!(CircularPhases::new((0.0, TAU), (0.0, PI), Copies::Folded).is_some());
        assert!(CircularPhases::new((-PI, PI), (0.5, 0.5 + PI), Copies::Unfolded).is_some());
        assert!(CircularPhases::new((0.0, PI), (0.0, PI), Copies::Folded).is_none());
        assert!(CircularPhases::new((0.0, TAU), (0.0, TAU), Copies::Unfolded).is_none());
    }
}
