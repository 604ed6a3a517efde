//! bilby's `AlignedSpin`: the prior on the aligned component χ = a cos θ of a spin whose
//! magnitude a and tilt cosine c = cos θ are independent (docs/cosmology.md §3; bilby.gw.prior;
//! Lange et al., arXiv:1805.10457, eq. A7):
//!
//! π(χ) = ∫ da ∫ dc π(a) π(c) δ(χ − a c) = ∫ π(a) π(χ/a)/a da.
//!
//! With a ~ Uniform(a₀, a₁) and c ~ Uniform(c₀, c₁) the integral is closed-form:
//! π(χ) = ln(U/L)/((a₁ − a₀)(c₁ − c₀)) over the magnitudes [L, U] = {a ∈ [a₀, a₁] :
//! c₀ ≤ χ/a ≤ c₁}; for bilby's default (a₀ = 0, c ~ U(−1, 1)) it is −ln(|χ|/a₁)/(2a₁), which
//! diverges (integrably) at χ = 0.

use rand::Rng;

/// AlignedSpin with a ~ Uniform(a_minimum, a_maximum) and cos θ ~ Uniform(z_minimum, z_maximum).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlignedSpin {
    /// Lower bound of the magnitude, ≥ 0.
    pub a_minimum: f64,
    /// Upper bound of the magnitude, ≤ 1.
    pub a_maximum: f64,
    /// Lower bound of cos θ, ≥ −1.
    pub z_minimum: f64,
    /// Upper bound of cos θ, ≤ 1.
    pub z_maximum: f64,
}

impl AlignedSpin {
    /// Checks 0 ≤ a₀ < a₁ ≤ 1 and −1 ≤ c₀ < c₁ ≤ 1; the message names the bad argument.
    pub fn validate(&self) -> Result<(), String> {
        let check = |name: &str, lo: f64, hi: f64, low: f64, high: f64| {
            if lo.is_finite() && hi.is_finite() && low <= lo && lo < hi && hi <= high {
                Ok(())
            } else {
                Err(format!(
                    "{name}=Uniform(minimum={lo}, maximum={hi}) must have \
                     {low} ≤ minimum < maximum ≤ {high}"
                ))
            }
        };
        check("a_prior", self.a_minimum, self.a_maximum, 0.0, 1.0)?;
        check("z_prior", self.z_minimum, self.z_maximum, -1.0, 1.0)
    }

    /// The support: the extreme products of the bounds.
    pub fn support(&self) -> (f64, f64) {
        let products = [
            self.a_minimum * self.z_minimum,
            self.a_minimum * self.z_maximum,
            self.a_maximum * self.z_minimum,
            self.a_maximum * self.z_maximum,
        ];
        (
            products.iter().copied().fold(f64::INFINITY, f64::min),
            products.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// The magnitudes [L, U] that reach χ ≥ 0 with cos θ ∈ [c₀, c₁], and whether each end is
    /// set by the tilt (then it moves with χ) rather than by the magnitude's bound.
    fn magnitudes(&self, chi: f64, c0: f64, c1: f64) -> Option<(f64, bool, f64, bool)> {
        if c1 <= 0.0 {
            // Only χ = 0 with c₁ = 0 would be reachable: a set of measure zero.
            return None;
        }
        let by_tilt_low = chi / c1 > self.a_minimum;
        let low = if by_tilt_low {
            chi / c1
        } else {
            self.a_minimum
        };
        let by_tilt_high = c0 > 0.0 && chi / c0 < self.a_maximum;
        let high = if by_tilt_high {
            chi / c0
        } else {
            self.a_maximum
        };
        (high > low).then_some((low, by_tilt_low, high, by_tilt_high))
    }

    /// The reflection that makes χ ≥ 0: (|χ|, c₀, c₁, sign of χ).
    fn folded(&self, chi: f64) -> (f64, f64, f64, f64) {
        if chi >= 0.0 {
            (chi, self.z_minimum, self.z_maximum, 1.0)
        } else {
            (-chi, -self.z_maximum, -self.z_minimum, -1.0)
        }
    }

    /// ln π(χ) (+∞ at χ = 0 when a₀ = 0 and cos θ = 0 is allowed; −∞ where no (a, c) reaches
    /// χ).
    pub fn ln_pdf(&self, chi: f64) -> f64 {
        let (x, c0, c1, _) = self.folded(chi);
        let scale = (self.a_maximum - self.a_minimum) * (self.z_maximum - self.z_minimum);
        match self.magnitudes(x, c0, c1) {
            Some((low, _, high, _)) => (high / low).ln().ln() - scale.ln(),
            None => f64::NEG_INFINITY,
        }
    }

    /// d ln π/dχ: each end of [L, U] set by the tilt moves as χ, so
    /// d ln(U/L)/dχ = ([U by tilt] − [L by tilt])/χ, over ln(U/L).
    pub fn d_ln_pdf(&self, chi: f64) -> f64 {
        let (x, c0, c1, sign) = self.folded(chi);
        match self.magnitudes(x, c0, c1) {
            Some((low, by_tilt_low, high, by_tilt_high)) => {
                let moving = f64::from(u8::from(by_tilt_high)) - f64::from(u8::from(by_tilt_low));
                sign * moving / (x * (high / low).ln())
            }
            None => 0.0,
        }
    }

    /// One draw: a and cos θ from their uniform priors, χ = a cos θ.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> f64 {
        let a = self.a_minimum + rng.random::<f64>() * (self.a_maximum - self.a_minimum);
        let c = self.z_minimum + rng.random::<f64>() * (self.z_maximum - self.z_minimum);
        a * c
    }

    /// bilby's keyword arguments: the nested priors in bilby's repr.
    pub fn repr_arguments(&self) -> String {
        let uniform = |lo: f64, hi: f64| {
            format!(
                "Uniform(minimum={lo:?}, maximum={hi:?}, name=None, latex_label=None, unit=None, \
                 boundary=None)"
            )
        };
        format!(
            "a_prior={}, z_prior={}",
            uniform(self.a_minimum, self.a_maximum),
            uniform(self.z_minimum, self.z_maximum)
        )
    }
}
