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
    /// Whether the plane holds the sites of every detector of the network, not only the pair's.
    through_sites: bool,
}

/// Largest distance (m) of a site from the plane of reflection for the reflection to keep its
/// arrival time: 1 m is 3 ns of delay, far below any timing error.
const COPLANAR_SITES_M: f64 = 1.0;

impl SkyRingReflection {
    /// The reflection for `pair` at sidereal time `gmst` through the plane that contains their
    /// baseline and makes the angle `angle` (rad) with the plane through both detectors and the
    /// geocentre (angle 0); `None` unless the pair's sites are distinct and not antipodal.
    pub fn new(pair: [&Detector; 2], gmst: f64, angle: f64) -> Option<Self> {
        let (p, q) = (pair[0].location, pair[1].location);
        // The geocentre's plane's normal, and the direction in it perpendicular to the baseline.
        let through_geocentre = unit(cross(p, q))?;
        let baseline = unit(difference(p, q))?;
        let across = cross(baseline, through_geocentre);
        let (sin, cos) = angle.sin_cos();
        let normal = std::array::from_fn(|i| cos * through_geocentre[i] + sin * across[i]);
        Some(Self::with_normal(pair, normal, gmst, false))
    }

    /// The reflection for `pair` through the plane of their sites and those of `others`, which
    /// keeps the arrival time at every one of them (docs/sampling.md §4.2): the signals of the
    /// pair are kept, the others' only in their timing. `None` unless the pair's sites are
    /// distinct and not antipodal, and all the sites lie in one plane, not all on the
    /// baseline's line (three detectors always do; four generally do not).
    pub fn through_sites(pair: [&Detector; 2], others: &[Detector], gmst: f64) -> Option<Self> {
        let (p, q) = (pair[0].location, pair[1].location);
        unit(cross(p, q))?;
        let baseline = difference(p, q);
        let normal = others
            .iter()
            .find_map(|d| unit(cross(baseline, difference(d.location, p))))?;
        let off_plane = |d: &Detector| dot(difference(d.location, p), normal).abs();
        others
            .iter()
            .all(|d| off_plane(d) < COPLANAR_SITES_M)
            .then(|| Self::with_normal(pair, normal, gmst, true))
    }

    fn with_normal(pair: [&Detector; 2], normal: [f64; 3], gmst: f64, through_sites: bool) -> Self {
        Self {
            detectors: pair.map(Detector::clone),
            normal,
            gmst,
            through_sites,
        }
    }

    /// Whether the plane is that of every detector's site ([`Self::through_sites`]).
    pub fn keeps_every_site(&self) -> bool {
        self.through_sites
    }

    /// The names of the pair whose signals the reflection keeps.
    pub fn pair(&self) -> [&str; 2] {
        self.detectors.each_ref().map(|d| d.name.as_str())
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
pub(crate) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// a − b.
fn difference(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|i| a[i] - b[i])
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a.iter().zip(&b).map(|(x, y)| x * y).sum()
}

/// v normalised; `None` for v = 0.
fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let norm = dot(v, v).sqrt();
    (norm > 0.0).then(|| v.map(|c| c / norm))
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
    use tdpe_signal::SpinModel;

    fn detectors(names: &[&str]) -> Vec<Detector> {
        names
            .iter()
            .map(|n| Detector::from_name(n).unwrap())
            .collect()
    }

    /// Both detectors see the same Q before and after, the delay between them is kept, and the
    /// map is its own inverse (up to (φ, ψ) → (φ + π/2, ψ + π/2)).
    #[test]
    fn image_keeps_both_detectors_signals_and_is_an_involution() {
        let gmst = 1.7;
        let hl = detectors(&["H1", "L1"]);
        for angle in [0.0, 1.0, 2.5] {
            let ring = SkyRingReflection::new([&hl[0], &hl[1]], gmst, angle).unwrap();
            image_keeps_the_signals(gmst, &ring, &hl, &hl);
        }
    }

    /// Through the plane of the H1, L1 and V1 sites: the pair's signals and all three arrival
    /// times are kept, and it is an involution; V1's amplitude is not kept (what the
    /// Metropolis–Hastings acceptance weighs). The L1–V1 pair too.
    #[test]
    fn through_three_sites_keeps_every_arrival_time() {
        let gmst = 1.7;
        let hlv = detectors(&["H1", "L1", "V1"]);
        let ring = SkyRingReflection::through_sites([&hlv[0], &hlv[1]], &hlv[2..], gmst).unwrap();
        assert_eq!(ring.pair(), ["H1", "L1"]);
        image_keeps_the_signals(gmst, &ring, &hlv[..2], &hlv);
        let (theta, image) = (THETAS[0], ring.image(&THETAS[0], true).unwrap().0);
        let (q, q_image) = (
            signal(gmst, &theta, &hlv[2]).0,
            signal(gmst, &image, &hlv[2]).0,
        );
        assert!((q - q_image).norm() > 0.01 * q.norm(), "{q} vs {q_image}");
        let others = [hlv[0].clone()];
        let ring = SkyRingReflection::through_sites([&hlv[1], &hlv[2]], &others, gmst).unwrap();
        image_keeps_the_signals(gmst, &ring, &hlv[1..], &hlv);
    }

    /// No plane holds the four sites of H1, L1, V1 and K1; a pair at one site has no ring.
    #[test]
    fn needs_the_sites_in_one_plane() {
        let hlvk = detectors(&["H1", "L1", "V1", "K1"]);
        assert!(SkyRingReflection::through_sites([&hlvk[0], &hlvk[1]], &hlvk[2..], 0.0).is_none());
        assert!(SkyRingReflection::new([&hlvk[0], &hlvk[0]], 0.0, 0.0).is_none());
        assert!(SkyRingReflection::through_sites([&hlvk[0], &hlvk[0]], &hlvk[2..3], 0.0).is_none());
    }

    const THETAS: [ParameterVector; 3] = [
        SpinModel::Aligned.vector(&[
            30.0, 0.8, 0.3, -0.2, 1200.0, 2.6, 0.6, 1.3, 100.0, 1.95, -1.27,
        ]),
        SpinModel::Aligned.vector(&[30.0, 0.8, 0.3, -0.2, 500.0, 1.4, 2.9, 4.0, 100.0, 2.6, -0.3]),
        SpinModel::Aligned.vector(&[30.0, 0.8, 0.3, -0.2, 800.0, 0.5, 0.1, 0.2, 100.0, 4.0, 0.7]),
    ];

    /// The (2,2) projection factor Q over D and the arrival time in `d`.
    fn signal(gmst: f64, theta: &ParameterVector, d: &Detector) -> (Complex64, f64) {
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
    }

    /// `ring` moves the sky, keeps the signals of `kept` and the arrival times of `timed`, and
    /// is its own inverse with opposite ln|det|.
    fn image_keeps_the_signals(
        gmst: f64,
        ring: &SkyRingReflection,
        kept: &[Detector],
        timed: &[Detector],
    ) {
        for theta in THETAS {
            let (image, log_det) = ring.image(&theta, true).unwrap();
            assert!(
                sky_separation(&image, &theta) > 0.05,
                "the sky moves: {image:?}"
            );
            for d in kept {
                let (q, q_image) = (signal(gmst, &theta, d).0, signal(gmst, &image, d).0);
                assert!((q - q_image).norm() < 1e-12 * q.norm(), "{q} vs {q_image}");
            }
            for d in timed {
                let (t, t_image) = (signal(gmst, &theta, d).1, signal(gmst, &image, d).1);
                assert!((t - t_image).abs() < 1e-12, "{} {t} vs {t_image}", d.name);
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
}
