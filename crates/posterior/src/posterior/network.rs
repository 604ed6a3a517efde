//! The detector network as the sky coordinates and jumps see it, and which of its detectors
//! each is built on when there are more than two (docs/sampling.md §3.3, §4.2).

use serde::Serialize;
use tdpe_detector::{greenwich_mean_sidereal_time, Detector};
use tdpe_signal::SignalModel;

use crate::jumps::sky_ring::cross;
use crate::PosteriorError;

/// What the coordinate maps and jumps need to know of the detector network: the signal model
/// (its detectors, epoch and waveform), each detector's sensitivity σ² to the fiducial signal
/// (⟨h|h⟩ per unit |Q|² of its projection factor, any common scale), which weights the
/// inclination mirror, and its optimal SNR² there, which chooses the detector pairs of the sky
/// frame and the sky reflection.
#[derive(Debug, Clone)]
pub struct Network {
    pub(super) model: SignalModel,
    pub(super) sensitivities: Vec<f64>,
    pub(super) optimal_snr_squared: Vec<f64>,
    /// Sidereal time of the epoch: the antenna patterns' and delays'.
    pub(super) gmst: f64,
}

impl Network {
    /// The network of `model` with one sensitivity and one optimal SNR² per detector.
    pub fn new(
        model: SignalModel,
        sensitivities: Vec<f64>,
        optimal_snr_squared: Vec<f64>,
    ) -> Result<Self, PosteriorError> {
        let n = model.detectors().len();
        if sensitivities.len() != n || optimal_snr_squared.len() != n {
            return Err(PosteriorError::Invalid(format!(
                "{} detector sensitivities and {} SNRs for {n} detectors",
                sensitivities.len(),
                optimal_snr_squared.len(),
            )));
        }
        let gmst = greenwich_mean_sidereal_time(model.epoch())?;
        Ok(Self {
            model,
            sensitivities,
            optimal_snr_squared,
            gmst,
        })
    }

    pub(super) fn detectors(&self) -> &[Detector] {
        self.model.detectors()
    }

    /// The pair of the detector sky frame, in the network's order (the first is the time
    /// reference): the one whose sky ring is narrowest. A ring's angular width goes as the
    /// error of the delay between its detectors over their baseline, and a delay's error as
    /// √(1/ρ_i² + 1/ρ_j²) (the timing error of each detector ∝ 1/ρ), so the pair that minimises
    /// (1/ρ_i² + 1/ρ_j²)/|r_i − r_j|²: the posterior is longest along that ring, which the
    /// frame makes a line of constant zenith. With two detectors, those two.
    pub(super) fn frame_pair(&self) -> Option<[usize; 2]> {
        self.best_pair(|i, j| {
            let baseline = distance(self.site(i), self.site(j));
            (baseline > 0.0).then(|| {
                (1.0 / self.optimal_snr_squared[i] + 1.0 / self.optimal_snr_squared[j])
                    / (baseline * baseline)
            })
        })
    }

    /// The pair whose signals the sky reflection keeps exactly, in the network's order: the two
    /// loudest (largest ρ_i² + ρ_j²) at distinct, non-antipodal sites, so that the signal it
    /// does not keep is the weakest's.
    pub(super) fn loudest_pair(&self) -> Option<[usize; 2]> {
        self.best_pair(|i, j| {
            let (p, q) = (self.site(i), self.site(j));
            let apart = distance(p, q) > 0.0 && norm(cross(p, q)) > 0.0;
            apart.then(|| -(self.optimal_snr_squared[i] + self.optimal_snr_squared[j]))
        })
    }

    /// The pair i < j with the smallest `cost` (the first in the network's order on ties;
    /// `None` costs exclude a pair).
    fn best_pair(&self, cost: impl Fn(usize, usize) -> Option<f64>) -> Option<[usize; 2]> {
        let n = self.detectors().len();
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| [i, j]))
            .filter_map(|[i, j]| cost(i, j).map(|c| ([i, j], c)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(pair, _)| pair)
    }

    fn site(&self, k: usize) -> [f64; 3] {
        self.detectors()[k].location
    }
}

/// The detectors the sky coordinates and jumps were built on, for the run's record (bilby's
/// likelihood meta-data keys where they exist).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkyChoices {
    /// bilby's `reference_frame`: the sky frame's pair ("H1L1"), or "sky".
    pub reference_frame: String,
    /// bilby's `time_reference`: the detector whose arrival time is sampled, or "geocent".
    pub time_reference: String,
    /// The sky reflection's planes, in words; `None` where it is not offered.
    pub sky_reflection: Option<String>,
}

fn norm(v: [f64; 3]) -> f64 {
    v.iter().map(|c| c * c).sum::<f64>().sqrt()
}

fn distance(p: [f64; 3], q: [f64; 3]) -> f64 {
    norm([p[0] - q[0], p[1] - q[1], p[2] - q[2]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use tdpe_detector::GpsTime;

    fn network(names: &[&str], snr: &[f64]) -> Network {
        let detectors = names
            .iter()
            .map(|n| Detector::from_name(n).unwrap())
            .collect();
        let epoch = GpsTime::from_f64(1186741861.5).unwrap();
        let model = SignalModel::new(detectors, epoch, 20.0, 1.0 / 2048.0).unwrap();
        let snr_squared = snr.iter().map(|r| r * r).collect();
        Network::new(model, vec![1.0; names.len()], snr_squared).unwrap()
    }

    /// Two detectors: that pair whatever the SNRs. HLV with a weak Virgo: the frame takes the
    /// long L1–V1 baseline (27 ms against H1–L1's 10 ms), the reflection the two LIGOs.
    #[test]
    fn pairs_follow_snr_and_baselines() {
        let hl = network(&["H1", "L1"], &[5.0, 30.0]);
        assert_eq!(hl.frame_pair(), Some([0, 1]));
        assert_eq!(hl.loudest_pair(), Some([0, 1]));
        let hlv = network(&["H1", "L1", "V1"], &[20.0, 30.0, 10.0]);
        // (1/900 + 1/100)/26.4² < (1/400 + 1/100)/27.2² < (1/400 + 1/900)/10.0² (ms⁻²).
        assert_eq!(hlv.frame_pair(), Some([1, 2]));
        assert_eq!(hlv.loudest_pair(), Some([0, 1]));
        // A Virgo far weaker than both LIGOs: their ring is the narrowest.
        let weak_virgo = network(&["H1", "L1", "V1"], &[20.0, 30.0, 2.0]);
        assert_eq!(weak_virgo.frame_pair(), Some([0, 1]));
        let vk = network(&["V1", "K1", "H1", "L1"], &[10.0, 5.0, 20.0, 30.0]);
        assert_eq!(vk.loudest_pair(), Some([2, 3]));
        assert_eq!(network(&["H1"], &[10.0]).frame_pair(), None);
        assert_eq!(network(&["H1", "H1"], &[10.0, 10.0]).loudest_pair(), None);
        let err = Network::new(hl.model.clone(), vec![1.0; 2], vec![1.0]).unwrap_err();
        assert!(err.to_string().contains("1 SNRs for 2 detectors"), "{err}");
    }
}
