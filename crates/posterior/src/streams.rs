//! The random streams of an analysis, each seeded by the master seed (`sampler.seed`) XOR its
//! salt, so that a stage that draws more or fewer numbers never changes another stage's draws
//! (docs/sampling.md §9).
//!
//! Three consumers start from the master seed itself (salt 0): the chains (which
//! `tdpe_mcmc` separates by jumps of the generator), the relative-binning design set and the
//! fiducial search's differential evolution; they draw for unrelated purposes, so sharing a
//! starting state does not correlate anything that matters. The injection's noise has its own
//! master seed (`injection.noise_seed`), split per detector.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A salted random stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// The prior draws that seed the fiducial search.
    SearchPriorDraws,
    /// The prior draws whose spread bounds the Laplace standardisation.
    PriorWidths,
    /// Which of the equivalent (phase, psi) a draw reports.
    EquivalentParameters,
    /// Each draw's marginalised luminosity distance and phase.
    DistanceDraws,
    /// The posterior draws shown in the waveform reconstruction.
    ReconstructionDraws,
    /// The pilot chains whose draws place the relative-binning nodes of a wide posterior.
    PilotChains,
    /// Which of the equivalent (phase, psi) a warm-up state reports in the trace plot.
    WarmupEquivalentParameters,
}

impl Stream {
    /// The salt XORed into the master seed.
    pub const fn salt(self) -> u64 {
        match self {
            Self::SearchPriorDraws => 0x5EA2C4,
            Self::PriorWidths => 0x1A9_1ACE,
            Self::EquivalentParameters => 0x0_2B17,
            Self::DistanceDraws => 0xD157,
            Self::ReconstructionDraws => 0x00C0_FFEE,
            Self::PilotChains => 0x9_1107,
            Self::WarmupEquivalentParameters => 0x3_2B17,
        }
    }

    /// The master seed of a consumer that derives its own streams from one seed (the pilot
    /// chains, each of which `tdpe_mcmc` then separates).
    pub const fn seed(self, seed: u64) -> u64 {
        seed ^ self.salt()
    }

    /// The generator of this stream for master seed `seed`.
    pub fn rng(self, seed: u64) -> Xoshiro256PlusPlus {
        Xoshiro256PlusPlus::seed_from_u64(self.seed(seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every salt is distinct and non-zero, so no two streams (nor the unsalted ones) coincide.
    #[test]
    fn salts_are_distinct() {
        let all = [
            Stream::SearchPriorDraws,
            Stream::PriorWidths,
            Stream::EquivalentParameters,
            Stream::DistanceDraws,
            Stream::ReconstructionDraws,
            Stream::PilotChains,
            Stream::WarmupEquivalentParameters,
        ];
        for (i, a) in all.iter().enumerate() {
            assert_ne!(a.salt(), 0);
            for b in &all[i + 1..] {
                assert_ne!(a.salt(), b.salt(), "{a:?} {b:?}");
            }
        }
    }
}
