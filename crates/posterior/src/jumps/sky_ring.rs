//! The sky-ring reflection: a jump between the two ends of a two-detector network's sky ring
//! (docs/sampling.md §4.2).
//!
//! With the (2,2) and (2,−2) modes only, detector k sees Q_k = u w_k + v w̄_k (see
//! [`crate::jumps::inclination_mirror`]): w_k = F₊ + iF× at ψ = 0, and the circular amplitudes
//! u = a e^(−2i(φ+ψ))/D, v = b e^(−2i(φ−ψ))/D with a = (1 + cos θ_jn)²/4, b = (1 − cos θ_jn)²/4.
//! For two detectors (Q_1, Q_2) = M (u, v) with M = [[w_1, w̄_1], [w_2, w̄_2]], so at any other
//! sky position with matrix M' the amplitudes (u', v') = M'⁻¹M (u, v) give the same Q in both
//! detectors. The reflection of the sky through the plane of the two detectors and the geocentre
//! keeps the angle to the baseline, hence the delay between the detectors: with the first
//! detector's arrival time kept, the signal in both detectors is unchanged. Two modes of the
//! posterior related by this map (a face-off source at one end of the ring, a nearly edge-on,
//! nearer one at the other) are joined only by a long thin ridge along the ring that a gradient
//! kernel rarely crosses; the jump, accepted by Metropolis–Hastings
//! ([`tdpe_mcmc::Space::mirror`]), visits both in proportion to their mass.
//!
//! The map is an involution (reflection twice is the identity, and M⁻¹M' undoes M'⁻¹M), up to
//! the (φ, ψ) → (φ + π/2, ψ + π/2) symmetry of the (2,2) signal, which the circular phases
//! φ ± ψ (mod π) do not see. With the phase marginalised it is a map of the other parameters:
//! a common turn of u and v (a change of φ) turns u' and v' alike, so θ_jn', ψ' and D' do not
//! depend on φ, and the map (φ, r) → (φ + g(r), h(r)) has det ∂h/∂r for its determinant, the
//! one below; ψ mod π/2 does not see the symmetry either. Its Jacobian, with s = D'/D:
//! - sky: the reflection keeps the solid angle cos δ dα dδ, so |det| = cos δ / cos δ';
//! - (D, θ_jn, φ, ψ) → (u, v) ∈ ℂ² has |det| = 8 (1 − c²)³ sin θ_jn / (64 D⁵) ∝ sin⁷θ_jn / D⁵,
//!   and M'⁻¹M, complex-linear, has real |det| = |det M / det M'|²; so over (D, θ_jn, φ, ψ),
//!   |det| = |det M / det M'|² (sin θ_jn / sin θ_jn')⁷ s⁵;
//! - without D (marginalised, D' = s D for every D): one factor s less;
//! - time: t' = t + τ₁(sky) − τ₁(sky'), unit diagonal (t' = t up to rounding: the reflection
//!   through a plane that contains both detectors keeps both delays).

use tdpe_signal::{Parameter, ParameterVector};

use num_complex::Complex64;
use tdpe_detector::Detector;

/// The reflection of [`self`](crate::jumps::sky_ring) for a pair of detectors.
#[derive(Debug, Clone, PartialEq)]
pub struct SkyRingReflection {
    detectors: [Detector; 2],
    /// Unit normal of the plane of reflection, which contains the baseline (Earth-fixed).
    normal: [f64; 3],
    /// Sidereal time of the antenna patterns and delays: the epoch's (the likelihood's move with
    /// t_c, which the jump need not follow: it is accepted by Metropolis–Hastings).
    gmst: f64,
}

impl SkyRingReflection {
    /// The reflection for `detectors` at sidereal time `gmst` through the plane that contains
    /// their baseline and makes the angle `angle` (rad) with the plane through both detectors
    /// and the geocentre (angle 0); `None` unless there are exactly two detectors at distinct,
    /// non-antipodal sites.
    pub fn new(detectors: &[Detector], gmst: f64, angle: f64) -> Option<Self> {
        let [first, second] = detectors else {
            return None;
        };
        let (p, q) = (first.location, second.location);
        let unit = |v: [f64; 3]| {
            let norm = v.iter().map(|c| c * c).sum::<f64>().sqrt();
            (norm > 0.0).then(|| v.map(|c| c / norm))
        };
        // The geocentre's plane's normal, and the direction in it perpendicular to the baseline.
        let through_geocentre = unit(cross(p, q))?;
        let baseline = unit([p[0] - q[0], p[1] - q[1], p[2] - q[2]])?;
        let across = cross(baseline, through_geocentre);
        let (sin, cos) = angle.sin_cos();
        Some(Self {
            detectors: [first.clone(), second.clone()],
            normal: std::array::from_fn(|i| cos * through_geocentre[i] + sin * across[i]),
            gmst,
        })
    }

    /// The sky position reflected through the detectors' plane.
    fn reflect_sky(&self, ra: f64, dec: f64) -> (f64, f64) {
        let longitude = ra - self.gmst;
        let k = [
            dec.cos() * longitude.cos(),
            dec.cos() * longitude.sin(),
            dec.sin(),
        ];
        let along: f64 = k.iter().zip(&self.normal).map(|(a, b)| a * b).sum();
        let r: [f64; 3] = std::array::from_fn(|i| k[i] - 2.0 * along * self.normal[i]);
        let dec = r[2].clamp(-1.0, 1.0).asin();
        let ra = (r[1].atan2(r[0]) + self.gmst).rem_euclid(std::f64::consts::TAU);
        (ra, dec)
    }

    /// M = [[w_1, w̄_1], [w_2, w̄_2]] at a sky position, and its determinant.
    fn response(&self, ra: f64, dec: f64) -> ([Complex64; 2], Complex64) {
        let w = self.detectors.each_ref().map(|d| {
            let f = d.antenna_pattern(ra, dec, 0.0, self.gmst);
            Complex64::new(f.plus, f.cross)
        });
        let det = w[0] * w[1].conj() - w[0].conj() * w[1];
        (w, det)
    }

    /// The image θ' of θ and ln|det ∂θ'/∂θ| over the sky, time, θ_jn, φ, ψ and, if
    /// `distance_sampled`, D (otherwise θ'\[D\] = θ\[D\] and the determinant is over the others);
    /// `None` where M is singular at either end.
    pub fn image(
        &self,
        theta: &ParameterVector,
        distance_sampled: bool,
    ) -> Option<(ParameterVector, f64)> {
        let (ra, dec) = (theta[Parameter::Ra], theta[Parameter::Dec]);
        let (ra_image, dec_image) = self.reflect_sky(ra, dec);
        let (w, det) = self.response(ra, dec);
        let (w_image, det_image) = self.response(ra_image, dec_image);
        if det_image.norm() == 0.0 || det.norm() == 0.0 {
            return None;
        }
        // (u, v) at unit distance; the image's distance is then s = D'/D.
        let (a, b) = circular_weights(theta[Parameter::ThetaJn].cos());
        let (sum, difference) = (
            theta[Parameter::Phase] + theta[Parameter::Psi],
            theta[Parameter::Phase] - theta[Parameter::Psi],
        );
        let u = a * Complex64::cis(-2.0 * sum);
        let v = b * Complex64::cis(-2.0 * difference);
        let q = [u * w[0] + v * w[0].conj(), u * w[1] + v * w[1].conj()];
        // Cramer's rule with M' = [[w'_1, w̄'_1], [w'_2, w̄'_2]].
        let u_image = (q[0] * w_image[1].conj() - w_image[0].conj() * q[1]) / det_image;
        let v_image = (w_image[0] * q[1] - q[0] * w_image[1]) / det_image;
        // |u'|/|v'| = a'/b' = ((1 + c')/(1 − c'))².
        let ratio = (u_image.norm() / v_image.norm()).sqrt();
        let cos_image = if ratio.is_finite() {
            (ratio - 1.0) / (ratio + 1.0)
        } else {
            1.0
        };
        let theta_jn_image = cos_image.clamp(-1.0, 1.0).acos();
        let (a_image, b_image) = circular_weights(cos_image);
        let scale = if a_image >= b_image {
            a_image / u_image.norm()
        } else {
            b_image / v_image.norm()
        };
        let sum_image = -0.5 * u_image.arg();
        let difference_image = -0.5 * v_image.arg();

        let mut image = *theta;
        image[Parameter::Ra] = ra_image;
        image[Parameter::Dec] = dec_image;
        image[Parameter::ThetaJn] = theta_jn_image;
        image[Parameter::Phase] = 0.5 * (sum_image + difference_image);
        image[Parameter::Psi] = 0.5 * (sum_image - difference_image);
        let arrival =
            |d: &Detector, ra: f64, dec: f64| d.time_delay_from_geocenter(ra, dec, self.gmst);
        image[Parameter::GeocentTime] = theta[Parameter::GeocentTime]
            + arrival(&self.detectors[0], ra, dec)
            - arrival(&self.detectors[0], ra_image, dec_image);
        let distance_power = if distance_sampled {
            image[Parameter::LuminosityDistance] = theta[Parameter::LuminosityDistance] * scale;
            5.0
        } else {
            4.0
        };
        let log_det = (dec.cos() / dec_image.cos()).ln()
            + 2.0 * (det.norm() / det_image.norm()).ln()
            + 7.0 * (theta[Parameter::ThetaJn].sin() / theta_jn_image.sin()).ln()
            + distance_power * scale.ln();
        log_det.is_finite().then_some((image, log_det))
    }
}

/// a × b.
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// (a, b) = ((1 + cos θ_jn)²/4, (1 − cos θ_jn)²/4): the weights of the two circular
/// polarisations in the (2,±2) signal.
fn circular_weights(cos_theta_jn: f64) -> (f64, f64) {
    (
        (1.0 + cos_theta_jn).powi(2) / 4.0,
        (1.0 - cos_theta_jn).powi(2) / 4.0,
    )
}

/// The angle (rad) between the sky positions of two parameter vectors, for tests that a jump
/// moves the sky.
#[cfg(test)]
pub(crate) fn sky_separation(a: &ParameterVector, b: &ParameterVector) -> f64 {
    let unit = |t: &ParameterVector| {
        let (ra, dec) = (t[Parameter::Ra], t[Parameter::Dec]);
        [dec.cos() * ra.cos(), dec.cos() * ra.sin(), dec.sin()]
    };
    let (u, v) = (unit(a), unit(b));
    let dot: f64 = u.iter().zip(&v).map(|(x, y)| x * y).sum();
    dot.clamp(-1.0, 1.0).acos()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> Vec<Detector> {
        vec![
            Detector::from_name("H1").unwrap(),
            Detector::from_name("L1").unwrap(),
        ]
    }

    /// Both detectors see the same Q before and after, the delay between them is kept, and the
    /// map is its own inverse (up to (φ, ψ) → (φ + π/2, ψ + π/2)).
    #[test]
    fn image_keeps_both_detectors_signals_and_is_an_involution() {
        let gmst = 1.7;
        for angle in [0.0, 1.0, 2.5] {
            image_keeps_the_signals(gmst, &SkyRingReflection::new(&pair(), gmst, angle).unwrap());
        }
    }

    fn image_keeps_the_signals(gmst: f64, ring: &SkyRingReflection) {
        let signal = |theta: &ParameterVector, d: &Detector| {
            let f = d.antenna_pattern(
                theta[Parameter::Ra],
                theta[Parameter::Dec],
                theta[Parameter::Psi],
                gmst,
            );
            let c = theta[Parameter::ThetaJn].cos();
            let amplitude = Complex64::new(f.plus * (1.0 + c * c) / 2.0, f.cross * c);
            let arrival = theta[Parameter::GeocentTime]
                + d.time_delay_from_geocenter(theta[Parameter::Ra], theta[Parameter::Dec], gmst);
            (
                amplitude * Complex64::cis(-2.0 * theta[Parameter::Phase])
                    / theta[Parameter::LuminosityDistance],
                arrival,
            )
        };
        for theta in [
            [
                30.0, 0.8, 0.3, -0.2, 1200.0, 2.6, 0.6, 1.3, 100.0, 1.95, -1.27,
            ],
            [30.0, 0.8, 0.3, -0.2, 500.0, 1.4, 2.9, 4.0, 100.0, 2.6, -0.3],
            [30.0, 0.8, 0.3, -0.2, 800.0, 0.5, 0.1, 0.2, 100.0, 4.0, 0.7],
        ] {
            let (image, log_det) = ring.image(&theta, true).unwrap();
            assert!(
                sky_separation(&image, &theta) > 0.05,
                "the sky moves: {image:?}"
            );
            for d in pair().iter() {
                let (q, t) = signal(&theta, d);
                let (q_image, t_image) = signal(&image, d);
                assert!((q - q_image).norm() < 1e-12 * q.norm(), "{q} vs {q_image}");
                assert!((t - t_image).abs() < 1e-12, "{t} vs {t_image}");
            }
            let (back, log_det_back) = ring.image(&image, true).unwrap();
            for k in [
                Parameter::Ra,
                Parameter::Dec,
                Parameter::ThetaJn,
                Parameter::LuminosityDistance,
                Parameter::GeocentTime,
            ] {
                assert!(
                    (back[k] - theta[k]).abs() < 1e-9,
                    "{k:?}: {back:?} vs {theta:?}"
                );
            }
            let sum = |t: &ParameterVector| {
                (t[Parameter::Phase] + t[Parameter::Psi]).rem_euclid(std::f64::consts::PI)
            };
            let diff = |t: &ParameterVector| {
                (t[Parameter::Phase] - t[Parameter::Psi]).rem_euclid(std::f64::consts::PI)
            };
            let near = |x: f64, y: f64| {
                let d = (x - y).rem_euclid(std::f64::consts::PI);
                d.min(std::f64::consts::PI - d) < 1e-9
            };
            assert!(near(sum(&back), sum(&theta)) && near(diff(&back), diff(&theta)));
            assert!((log_det + log_det_back).abs() < 1e-9);
            assert!(log_det.abs() > 0.1, "a trivial determinant tests nothing");
        }
    }

    #[test]
    fn needs_exactly_two_detectors() {
        let mut three = pair();
        three.push(Detector::from_name("V1").unwrap());
        assert!(SkyRingReflection::new(&three, 0.0, 0.0).is_none());
        assert!(SkyRingReflection::new(&three[..1], 0.0, 0.0).is_none());
    }
}
