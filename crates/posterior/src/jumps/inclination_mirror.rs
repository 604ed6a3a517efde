//! The face-on/face-off mirror: a jump between the two inclination modes of a (2,2)-mode signal
//! (docs/sampling.md §4.1).
//!
//! With the (2,2) and (2,−2) modes only, a detector with antenna pattern F = F₊ + iF× sees
//! Q = (K/D) e^(−2iφ) [a F + b F̄] (up to the waveform), a = (1 + cos θ_jn)²/4,
//! b = (1 − cos θ_jn)²/4. With F = w e^(−2iψ) (w = F at ψ = 0) this is Q = u w + v w̄ with
//! u = (K/D) a e^(−2i(φ+ψ)), v = (K/D) b e^(−2i(φ−ψ)). The map θ_jn → π − θ_jn swaps a and
//! b; with ψ → β − ψ it sends (u, v) to (v e^(−2iβ), u e^(2iβ)), which changes Q by
//! ΔQ = 2i |w| sin(arg w − β) (v e^(−iβ) − u e^(iβ)). In one detector β = arg w leaves Q
//! unchanged; over a network the sensitivity-weighted misfit Σ_k σ_k² |ΔQ_k|² is smallest at
//! β = ½ arg Σ_k σ_k² w_k², exact when the detectors' arg w_k agree mod π (co-aligned arms;
//! the LIGO pair only roughly). So (θ_jn, ψ) → (π − θ_jn, β − ψ) maps the face-off mode onto
//! the face-on one. A gradient kernel crosses between the two only through edge-on, where
//! the signal is weak; as a Metropolis–Hastings move ([`tdpe_mcmc::Space::mirror`]) the
//! chain visits both in proportion to their mass.
//!
//! The same holds for every mode of an aligned-spin binary (h_l,−m = (−1)^l conj(h_lm)), and
//! for a precessing one if the image also turns the precession cone by π about J
//! (φ_jl → φ_jl + π): IMRPhenomTPHM's inertial modes are rotations of co-precessing modes with
//! that symmetry, so the binary seen from −N is the complex conjugate of the binary seen
//! from N, and the turn of the cone carries −N to the direction of θ_jn' = π − θ_jn with
//! everything else as it was (docs/sampling.md §4.1).
//!
//! β depends on the sky alone, which the map leaves unchanged: it is an involution with
//! |det| = 1 (∂ψ'/∂ψ = −1 on the diagonal of a triangular Jacobian; φ_jl's turn is a shift).

use tdpe_signal::{Parameter, ParameterVector, SpinModel};

use std::f64::consts::{PI, TAU};

use num_complex::Complex64;
use tdpe_detector::Detector;

/// The mirror of [`self`](crate::jumps::inclination_mirror) for a detector network.
#[derive(Debug, Clone, PartialEq)]
pub struct InclinationMirror {
    /// Each detector with its sensitivity σ² (⟨h|h⟩ per unit |Q|², any common scale).
    detectors: Vec<(Detector, f64)>,
    /// Sidereal time of the antenna patterns: the epoch's (the likelihood's move with t_c, which
    /// the jump need not follow: it is accepted by Metropolis–Hastings).
    gmst: f64,
    /// Whether the spins precess: then the image also turns the precession cone by π about J
    /// (φ_jl → φ_jl + π).
    spin_model: SpinModel,
}

impl InclinationMirror {
    /// The mirror for `detectors` with their sensitivities σ², at sidereal time `gmst`, of
    /// binaries with spins of `spin_model`.
    pub fn new(detectors: Vec<(Detector, f64)>, gmst: f64, spin_model: SpinModel) -> Self {
        Self {
            detectors,
            gmst,
            spin_model,
        }
    }

    /// β of the sky position of θ: ½ arg Σ_k σ_k² w_k².
    fn polarisation_axis(&self, theta: &ParameterVector) -> f64 {
        let sum: Complex64 = self
            .detectors
            .iter()
            .map(|(detector, sensitivity)| {
                let f = detector.antenna_pattern(
                    theta[Parameter::Ra],
                    theta[Parameter::Dec],
                    0.0,
                    self.gmst,
                );
                sensitivity * Complex64::new(f.plus, f.cross).powi(2)
            })
            .sum();
        0.5 * sum.arg()
    }

    /// ∂β/∂ra and ∂β/∂dec at θ's sky position: with S = Σ_k σ_k² w_k², β = ½ arg S and
    /// ∂β = ½ Im(∂S / S), ∂S = Σ_k 2 σ_k² w_k ∂w_k.
    pub fn polarisation_axis_gradient(&self, theta: &ParameterVector) -> [f64; 2] {
        let (mut sum, mut d_ra, mut d_dec) = (Complex64::ZERO, Complex64::ZERO, Complex64::ZERO);
        for (detector, sensitivity) in &self.detectors {
            let f = detector.antenna_pattern_derivatives(
                theta[Parameter::Ra],
                theta[Parameter::Dec],
                0.0,
                self.gmst,
            );
            let w = Complex64::new(f.value.plus, f.value.cross);
            sum += sensitivity * w * w;
            d_ra += 2.0 * sensitivity * w * Complex64::new(f.d_ra.plus, f.d_ra.cross);
            d_dec += 2.0 * sensitivity * w * Complex64::new(f.d_dec.plus, f.d_dec.cross);
        }
        [0.5 * (d_ra / sum).im, 0.5 * (d_dec / sum).im]
    }

    /// θ with θ_jn → π − θ_jn and ψ → β − ψ (in [0, π); the posterior wraps it into its
    /// prior's period), and for precessing spins φ_jl → φ_jl + π (in [0, 2π)).
    pub fn image(&self, theta: &ParameterVector) -> ParameterVector {
        let mut image = *theta;
        image[Parameter::ThetaJn] = PI - theta[Parameter::ThetaJn];
        image[Parameter::Psi] =
            (self.polarisation_axis(theta) - theta[Parameter::Psi]).rem_euclid(PI);
        if self.spin_model == SpinModel::Precessing {
            image[Parameter::PhiJl] = (theta[Parameter::PhiJl] + PI).rem_euclid(TAU);
        }
        image
    }

    /// (∂T/∂θ)ᵀ g at θ, in place: a θ-gradient g at the image T(θ) turned into one at θ. T
    /// negates θ_jn and ψ and adds β(ra, dec) to ψ, so g's θ_jn and ψ entries change sign and
    /// its ψ entry, times ∂β, adds to ra and dec.
    pub fn pull_back(&self, theta: &ParameterVector, g: &mut ParameterVector) {
        let [d_ra, d_dec] = self.polarisation_axis_gradient(theta);
        g[Parameter::Ra] += d_ra * g[Parameter::Psi];
        g[Parameter::Dec] += d_dec * g[Parameter::Psi];
        g[Parameter::ThetaJn] = -g[Parameter::ThetaJn];
        g[Parameter::Psi] = -g[Parameter::Psi];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For one detector, the image flips F× and keeps F₊, flips cos θ_jn, and mirrors back.
    #[test]
    fn image_conjugates_the_antenna_pattern() {
        let h1 = Detector::from_name("H1").unwrap();
        let (gmst, mirror) = (
            1.7,
            InclinationMirror::new(vec![(h1.clone(), 1.0)], 1.7, SpinModel::Aligned),
        );
        for (ra, dec, psi, theta_jn) in [
            (1.95, -1.27, 0.6, 2.6),
            (4.0, 0.3, 2.9, 0.4),
            (0.5, 1.1, 1.4, 1.2),
        ] {
            let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
            (
                theta[Parameter::Ra],
                theta[Parameter::Dec],
                theta[Parameter::Psi],
                theta[Parameter::ThetaJn],
            ) = (ra, dec, psi, theta_jn);
            let image = mirror.image(&theta);
            assert!((image[Parameter::ThetaJn].cos() + theta_jn.cos()).abs() < 1e-15);
            assert!((0.0..PI).contains(&image[Parameter::Psi]));
            let back = mirror.image(&image);
            assert!(
                (back[Parameter::Psi] - psi).abs() < 1e-12
                    && (back[Parameter::ThetaJn] - theta_jn).abs() < 1e-15
            );
            let f = |p: f64| h1.antenna_pattern(ra, dec, p, gmst);
            let (before, after) = (f(psi), f(image[Parameter::Psi]));
            assert!(
                (after.plus - before.plus).abs() < 1e-12,
                "{before:?} {after:?}"
            );
            assert!(
                (after.cross + before.cross).abs() < 1e-12,
                "{before:?} {after:?}"
            );
        }
    }

    /// `pull_back` is the transpose of T's Jacobian: g · ∂T/∂θ_p by central differences of T,
    /// for each parameter p that T reads.
    #[test]
    fn pull_back_is_the_transposed_jacobian() {
        let network = ["H1", "L1"]
            .iter()
            .zip([1.0, 0.6])
            .map(|(name, weight)| (Detector::from_name(name).unwrap(), weight))
            .collect();
        let mirror = InclinationMirror::new(network, 0.9, SpinModel::Precessing);
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        (
            theta[Parameter::Ra],
            theta[Parameter::Dec],
            theta[Parameter::Psi],
            theta[Parameter::ThetaJn],
            theta[Parameter::PhiJl],
        ) = (1.95, -1.27, 2.0, 0.7, 2.0);
        // A ψ away from the wrap of the image's ψ.
        let psi_image = mirror.image(&theta)[Parameter::Psi];
        assert!((0.2..PI - 0.2).contains(&psi_image), "{psi_image}");
        let mut g = [0.0; tdpe_signal::NUM_PARAMETERS];
        for (k, v) in g.iter_mut().enumerate() {
            *v = 0.3 + 0.17 * k as f64;
        }
        let mut pulled = g;
        mirror.pull_back(&theta, &mut pulled);
        for p in [
            Parameter::Ra,
            Parameter::Dec,
            Parameter::Psi,
            Parameter::ThetaJn,
            Parameter::PhiJl,
        ] {
            let h = 1e-6;
            let at = |step: f64| {
                let mut moved = theta;
                moved[p] += step;
                mirror.image(&moved)
            };
            let (up, down) = (at(h), at(-h));
            let numeric: f64 = (0..g.len())
                .map(|k| g[k] * (up[k] - down[k]) / (2.0 * h))
                .sum();
            assert!(
                (numeric - pulled[p]).abs() < 1e-7,
                "{p:?}: {numeric} against {}",
                pulled[p]
            );
        }
        // The sky moves the axis: ψ's entry reaches ra and dec.
        assert!((pulled[Parameter::Ra] - g[Parameter::Ra]).abs() > 1e-3);
    }

    /// For two detectors, ψ' minimises the weighted misfit Σ_k σ_k² |F_k(ψ') − F̄_k(ψ)|² (the
    /// sin² factor of ΔQ), which neither detector's own β does.
    #[test]
    fn network_image_minimises_the_weighted_misfit() {
        let h1 = Detector::from_name("H1").unwrap();
        let l1 = Detector::from_name("L1").unwrap();
        let (gmst, weights) = (0.9, [1.0, 0.6]);
        let network = vec![(h1.clone(), weights[0]), (l1.clone(), weights[1])];
        let mirrors = [
            InclinationMirror::new(network, gmst, SpinModel::Aligned),
            InclinationMirror::new(vec![(h1.clone(), 1.0)], gmst, SpinModel::Aligned),
            InclinationMirror::new(vec![(l1.clone(), 1.0)], gmst, SpinModel::Aligned),
        ];
        let (ra, dec, psi) = (4.0, 0.3, 2.9);
        let misfit = |psi_image: f64| -> f64 {
            [&h1, &l1]
                .iter()
                .zip(weights)
                .map(|(d, w)| {
                    let (a, b) = (
                        d.antenna_pattern(ra, dec, psi, gmst),
                        d.antenna_pattern(ra, dec, psi_image, gmst),
                    );
                    w * ((b.plus - a.plus).powi(2) + (b.cross + a.cross).powi(2))
                })
                .sum()
        };
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        (
            theta[Parameter::Ra],
            theta[Parameter::Dec],
            theta[Parameter::Psi],
            theta[Parameter::ThetaJn],
        ) = (ra, dec, psi, 0.4);
        let [psi_best, psi_h1, psi_l1] = mirrors.map(|m| m.image(&theta)[Parameter::Psi]);
        let [best, h1_only, l1_only] = [psi_best, psi_h1, psi_l1].map(misfit);
        for step in [-1e-3, 1e-3] {
            assert!(misfit(psi_best + step) > best);
        }
        assert!(
            best < h1_only && best < l1_only,
            "{best} {h1_only} {l1_only}"
        );
        assert!(
            h1_only > 1e-3 && l1_only > 1e-3,
            "the detectors agree: nothing tested"
        );
    }

    /// For precessing spins seen by one detector, the image's strain is the original's, mode
    /// by co-precessing mode, at every time, for unequal masses too (see the module's doc).
    #[test]
    fn precessing_image_keeps_the_signal_of_one_detector() {
        use tdpe_phenomt::EVERY_MODE;
        use tdpe_signal::{BbhParameters, SignalModel};
        let h1 = Detector::from_name("H1").unwrap();
        let epoch = tdpe_detector::GpsTime::from_f64(1126259462.4).unwrap();
        let model = SignalModel::new(vec![h1.clone()], epoch, 20.0, 1.0 / 2048.0)
            .unwrap()
            .precessing();
        let gmst = tdpe_detector::greenwich_mean_sidereal_time(epoch).unwrap();
        let mirror = InclinationMirror::new(vec![(h1, 1.0)], gmst, SpinModel::Precessing);
        for (q, theta_jn, phi_jl, phase) in [(0.8, 1.0, 0.3, 1.3), (0.25, 2.5, 4.0, 0.4)] {
            let p = BbhParameters {
                mass_ratio: q,
                a_1: 0.7,
                a_2: 0.5,
                tilt_1: 1.2,
                tilt_2: 2.1,
                phi_12: 0.8,
                phi_jl,
                theta_jn,
                phase,
                // At the epoch, whose sidereal time the mirror's antenna patterns take.
                geocent_time: 0.0,
                ..BbhParameters::gw150914_like()
            };
            let image = BbhParameters::from_array(mirror.image(&p.to_array()));
            assert!((image.phi_jl - (phi_jl + PI).rem_euclid(TAU)).abs() < 1e-15);
            let terms = |p: &BbhParameters| {
                let source = model.precessing_source(p, -1.0).unwrap();
                let antenna = model.antenna(0, p).antenna;
                (0..400)
                    .map(|i| source.components(antenna, -0.9 + i as f64 * 0.0025, &EVERY_MODE))
                    .collect::<Vec<_>>()
            };
            let (before, after) = (terms(&p), terms(&image));
            for mode in 0..tdpe_signal::COPRECESSING_MODES {
                let largest = before.iter().map(|z| z[mode].0.abs()).fold(0.0, f64::max);
                let error = before
                    .iter()
                    .zip(&after)
                    .map(|(a, b)| (a[mode].0 - b[mode].0).abs())
                    .fold(0.0, f64::max);
                assert!(
                    error < 1e-13 * largest,
                    "q {q}, mode {mode}: {error:e} of {largest:e}"
                );
            }
            // ... and without the turn of the cone the image is another signal.
            let mut untwisted = image;
            untwisted.phi_jl = phi_jl;
            let moved = terms(&untwisted);
            let change = before
                .iter()
                .zip(&moved)
                .map(|(a, b)| (a[0].0 - b[0].0).abs())
                .fold(0.0, f64::max);
            assert!(change > 0.1 * before.iter().map(|z| z[0].0.abs()).fold(0.0, f64::max));
        }
    }
}
