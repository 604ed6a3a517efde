//! IMRPhenomTPHM on LAL's grid, in `f64`: the co-precessing IMRPhenomTHM modes with the
//! precessing final spin in their ringdown, twisted into the J frame with the Euler angles and
//! rotated into the L0 frame at the reference sample (docs/precession.md §2.1, §4.8). The angles
//! are LAL's default numerical ones (`PrecVersion` 300, with the evolved final spin) or the
//! analytical NNLO ones (§3.2, with PhenomX's χ_p final spin) or MSA ones (with the MSA final
//! spin). This is the parity variant, which reproduces
//! `SimInspiralChooseTDWaveform` and `SimInspiralChooseTDModes` sample by sample.

use super::analytical::{AnalyticalEulerAngles, PrecVersion};
use super::angles::EulerAngleSeries;
use super::ode::Binary;
use super::rotation::{l0_modes, EulerAngles, Harmonics, SphericalModes, Wigner};
use crate::error::WaveformError;
use crate::model::{Polarizations, Settings};
use crate::thm::{IMRPhenomTHM, Mode};

/// Below this in-plane spin (|χ1⊥ + χ2⊥|, the vector sum), LAL's polarisations are
/// IMRPhenomTHM's (docs/precession.md §3.4).
const ALIGNED_FALLBACK: f64 = 1e-8;

pub use super::analytical::{DEFAULT_PREC_VERSION, SUPPORTED_PREC_VERSIONS};

/// The Euler angles of one of LAL's angle models on the waveform's grid.
#[derive(Clone, Debug, PartialEq)]
pub enum PrecessionAngles {
    /// `PrecVersion` 300.
    Numerical(EulerAngleSeries),
    /// An analytical `PrecVersion` (NNLO or MSA).
    Analytical(AnalyticalEulerAngles),
}

impl PrecessionAngles {
    /// α per sample.
    pub fn alpha(&self) -> &[f64] {
        match self {
            Self::Numerical(a) => &a.alpha,
            Self::Analytical(a) => &a.alpha,
        }
    }

    /// cos β per sample.
    pub fn cos_beta(&self) -> &[f64] {
        match self {
            Self::Numerical(a) => &a.cos_beta,
            Self::Analytical(a) => &a.cos_beta,
        }
    }

    /// γ per sample.
    pub fn gamma(&self) -> &[f64] {
        match self {
            Self::Numerical(a) => &a.gamma,
            Self::Analytical(a) => &a.gamma,
        }
    }

    /// The reference sample iref, whose angles rotate the J frame into L0.
    pub fn reference_index(&self) -> usize {
        match self {
            Self::Numerical(a) => a.orbit.reference_index,
            Self::Analytical(a) => a.reference_index,
        }
    }

    /// The angles of every sample.
    pub fn per_sample(&self) -> Vec<EulerAngles<f64>> {
        let (alpha, cos_beta, gamma) = (self.alpha(), self.cos_beta(), self.gamma());
        (0..alpha.len())
            .map(|k| EulerAngles {
                alpha: alpha[k],
                cos_beta: cos_beta[k],
                gamma: gamma[k],
            })
            .collect()
    }

    /// The precessing final spin of the co-precessing ringdown (LAL's `afinal_prec`).
    pub fn ringdown_final_spin(&self) -> f64 {
        match self {
            Self::Numerical(a) => a.final_spin_evolved,
            Self::Analytical(a) => a.ringdown_final_spin,
        }
    }
}

/// IMRPhenomTPHM set up for one binary on LAL's grid.
#[derive(Clone, Debug)]
pub struct IMRPhenomTPHM {
    /// The co-precessing modes (m > 0), with the precessing final spin in their ringdown.
    coprecessing: IMRPhenomTHM<f64>,
    /// The Euler angles of the co-precessing frame in the J frame, per sample.
    angles: PrecessionAngles,
    /// IMRPhenomTHM at the aligned spins, whose polarisations LAL returns when the in-plane
    /// spins sum to nearly zero.
    aligned: Option<IMRPhenomTHM<f64>>,
}

impl IMRPhenomTPHM {
    /// Sets up the model for component masses `m1`, `m2` (detector frame, M☉; the bodies are
    /// swapped if m1 < m2, spins included, as in LAL) and dimensionless spins `chi1`, `chi2` in
    /// LAL's L0 frame at the reference frequency (z along the Newtonian orbital angular
    /// momentum), with LAL's `PrecVersion` `prec_version` (one of [`SUPPORTED_PREC_VERSIONS`]:
    /// 300, LAL's default, and the NNLO and MSA versions; anything else is
    /// `WaveformError::UnsupportedPrecVersion`) and `settings` (`Settings::lal`: this is the
    /// variant that reproduces LAL; [`crate::SmoothPrecession`] is the differentiable one).
    pub fn lal(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        prec_version: u32,
        settings: &Settings,
    ) -> Result<Self, WaveformError> {
        Self::lal_with_modes(m1, m2, chi1, chi2, prec_version, settings, &Mode::ALL)
    }

    /// [`Self::lal`] with the co-precessing `modes` only (each with its −m partner; at least
    /// one, none twice), as LAL's `ModeArray` selects them (docs/precession.md §3.3).
    pub fn lal_with_modes(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        prec_version: u32,
        settings: &Settings,
        modes: &[Mode],
    ) -> Result<Self, WaveformError> {
        let angles = match PrecVersion::parse(prec_version)? {
            // The angles' J frame depends on the line of sight, but the L0 modes do not
            // (docs/precession.md §2.4): LAL's mode function fixes it at ι = φ_ref = 0.
            PrecVersion::Numerical => PrecessionAngles::Numerical(EulerAngleSeries::lal(
                m1, m2, chi1, chi2, 0.0, 0.0, settings,
            )?),
            PrecVersion::Analytical(options) => {
                let b = Binary::new(m1, m2, chi1, chi2, settings)?;
                PrecessionAngles::Analytical(AnalyticalEulerAngles::from_binary(&b, options)?)
            }
        };
        let (chi1z, chi2z) = (chi1[2], chi2[2]);
        let coprecessing = IMRPhenomTHM::with_ringdown_spin(
            m1,
            m2,
            chi1z,
            chi2z,
            settings,
            modes,
            angles.ringdown_final_spin(),
        )?;
        // Only version 300 falls back to THM.
        let in_plane = (chi1[0] + chi2[0]).hypot(chi1[1] + chi2[1]);
        let numerical = matches!(angles, PrecessionAngles::Numerical(_));
        let aligned = (numerical && in_plane < ALIGNED_FALLBACK)
            .then(|| IMRPhenomTHM::new(m1, m2, chi1z, chi2z, settings, modes))
            .transpose()?;
        Ok(Self {
            coprecessing,
            angles,
            aligned,
        })
    }

    /// The co-precessing modes underneath.
    pub fn coprecessing(&self) -> &IMRPhenomTHM<f64> {
        &self.coprecessing
    }

    /// The Euler angles on LAL's grid.
    pub fn angles(&self) -> &PrecessionAngles {
        &self.angles
    }

    /// Every L0-frame mode h_lm (2 ≤ l ≤ 5, every m) at every sample of LAL's grid, for a source
    /// at 1 Mpc: `SimInspiralChooseTDModes`' modes times the distance in Mpc.
    pub fn l0_modes_on_grid(&self) -> Vec<SphericalModes<f64>> {
        l0_modes(
            &self.coprecessing.modes(),
            &self.coprecessing.modes_on_grid(),
            &self.angles.per_sample(),
            self.angles.reference_index(),
            Wigner::LalGlobal,
        )
    }

    /// h₊ and h× on LAL's grid for a source at `distance_mpc`, seen at `inclination` with
    /// reference phase `phi_ref` (rad), as `SimInspiralChooseTDWaveform(IMRPhenomTPHM)` returns
    /// them: Σ_lm h_lm ₋₂Y_lm(ι, π/2 − φ_ref) over the L0 modes (docs/precession.md §2.5).
    pub fn polarizations_on_grid(
        &self,
        distance_mpc: f64,
        inclination: f64,
        phi_ref: f64,
    ) -> Polarizations {
        if let Some(aligned) = &self.aligned {
            return aligned.polarizations_on_grid(distance_mpc, inclination, phi_ref);
        }
        let harmonics = Harmonics::new(inclination, phi_ref);
        let scale = 1.0 / distance_mpc;
        let (hp, hc) = self
            .l0_modes_on_grid()
            .iter()
            .map(|modes| modes.polarizations(&harmonics, scale))
            .unzip();
        self.coprecessing.model22().on_grid(hp, hc)
    }
}
