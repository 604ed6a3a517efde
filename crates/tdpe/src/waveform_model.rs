//! The waveform models the application offers by name: LALSuite's approximant names and
//! bilby's mode arrays (docs/imrphenomt.md §12.6).

use std::fmt;
use std::str::FromStr;

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use tdpe_phenomt::Mode;

/// The waveform models, by LALSuite's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Approximant {
    /// IMRPhenomT: the (2,2) mode of aligned-spin binaries (arXiv:2004.08302).
    IMRPhenomT,
    /// IMRPhenomTHM: IMRPhenomT with the (2,1), (3,3), (4,4) and (5,5) modes
    /// (arXiv:2012.11923).
    IMRPhenomTHM,
    /// IMRPhenomTPHM: IMRPhenomTHM's modes in the co-precessing frame of a precessing binary,
    /// rotated with Euler angles, numerical (LAL's default) or analytical (arXiv:2105.05872;
    /// docs/precession.md). Analyses take its smooth variant (docs/precession.md §11).
    IMRPhenomTPHM,
}

impl Approximant {
    /// Every model `tdpe` knows by name (`tdpe waveform` generates each).
    pub const ALL: [Approximant; 3] = [
        Approximant::IMRPhenomT,
        Approximant::IMRPhenomTHM,
        Approximant::IMRPhenomTPHM,
    ];

    /// The name, as LALSuite spells it.
    pub fn name(self) -> &'static str {
        match self {
            Approximant::IMRPhenomT => "IMRPhenomT",
            Approximant::IMRPhenomTHM => "IMRPhenomTHM",
            Approximant::IMRPhenomTPHM => "IMRPhenomTPHM",
        }
    }

    /// Whether the model takes in-plane spins (and precesses).
    pub fn is_precessing(self) -> bool {
        self == Approximant::IMRPhenomTPHM
    }

    /// The modes (m > 0) of the model; for IMRPhenomTPHM, its co-precessing modes.
    pub fn modes(self) -> &'static [Mode] {
        match self {
            Approximant::IMRPhenomT => &[Mode::L2M2],
            Approximant::IMRPhenomTHM | Approximant::IMRPhenomTPHM => &Mode::ALL,
        }
    }

    /// The modes an analysis of the model uses: those of `mode_array` (bilby's pairs, see
    /// [`Self::mode_array`]) or else all of the model's. IMRPhenomTPHM's analyses use its
    /// five co-precessing modes, which its relative binning takes as its bases
    /// (docs/precession.md §12.7): a mode array for it is an error naming `key`.
    pub fn analysis_modes(
        self,
        mode_array: Option<&[[i32; 2]]>,
        key: &str,
    ) -> anyhow::Result<Vec<Mode>> {
        match mode_array {
            Some(_) if self.is_precessing() => bail!(
                "{key}: {self} is analysed with its five co-precessing modes; a mode_array for \
                 it is available in `tdpe waveform` only"
            ),
            Some(pairs) => self.mode_array(pairs).with_context(|| key.to_string()),
            None => Ok(self.modes().to_vec()),
        }
    }
}

impl Approximant {
    /// The modes (m > 0) of a mode array (`[[2,2],[2,-2],…]`, as bilby's
    /// `waveform_arguments["mode_array"]`): each must come with its −m partner (the
    /// polarisations sum both) and be a mode of the model.
    pub fn mode_array(self, pairs: &[[i32; 2]]) -> anyhow::Result<Vec<Mode>> {
        if pairs.is_empty() {
            bail!("mode_array is empty: give at least one mode, e.g. [[2,2],[2,-2]]");
        }
        let mut modes = Vec::new();
        for [l, m] in pairs {
            let mode = u32::try_from(*l)
                .ok()
                .and_then(|l| Mode::from_lm(l, m.unsigned_abs()))
                .filter(|mode| self.modes().contains(mode));
            let Some(mode) = mode else {
                bail!(
                    "mode_array: ({l},{m}) is not a mode of {self}, which has {}",
                    mode_names(self.modes())
                );
            };
            if !pairs.contains(&[*l, -m]) {
                bail!(
                    "mode_array: ({l},{m}) without ({l},{}): tdpe sums each mode with its -m \
                     partner, so list both",
                    -m
                );
            }
            if !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        // LAL's order, whatever the list's.
        modes.sort();
        Ok(modes)
    }
}

/// Modes as `(2,±2), (3,±3)`.
pub fn mode_names(modes: &[Mode]) -> String {
    let names: Vec<String> = modes
        .iter()
        .map(|mode| {
            let (l, m) = mode.lm();
            format!("({l},±{m})")
        })
        .collect();
    names.join(", ")
}

/// The modes as bilby's `mode_array`: each mode's [l, m] and [l, −m], in LAL's order.
pub fn bilby_mode_array(modes: &[Mode]) -> Vec<[i32; 2]> {
    modes
        .iter()
        .flat_map(|mode| {
            let (l, m) = mode.lm();
            let (l, m) = (l as i32, m as i32);
            [[l, m], [l, -m]]
        })
        .collect()
}

/// A mode array in bilby's syntax (`[[2,2],[2,-2],…]`) as its [l, m] pairs.
pub fn parse_mode_array(text: &str) -> anyhow::Result<Vec<[i32; 2]>> {
    serde_json::from_str(text)
        .with_context(|| format!("mode_array '{text}' is not a list of [l, m] pairs of integers"))
}

impl TryFrom<String> for Approximant {
    type Error = String;

    fn try_from(name: String) -> Result<Self, String> {
        name.parse()
    }
}

impl From<Approximant> for String {
    fn from(approximant: Approximant) -> String {
        approximant.name().to_string()
    }
}
impl fmt::Display for Approximant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Approximant {
    type Err = String;

    /// Parses a LALSuite approximant name (case-insensitively).
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|a| a.name()).collect();
                format!("unknown approximant '{s}'; supported: {}", names.join(", "))
            })
    }
}
