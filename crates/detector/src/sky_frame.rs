//! Sky position in the frame of a detector pair: zenith angle from the baseline and azimuth
//! around it.
//!
//! Two detectors measure the difference of arrival times, which fixes the angle between the
//! source direction and their baseline: the sky posterior is a ring about the baseline. In the
//! baseline's frame that ring is a line of constant zenith, so (zenith, azimuth) are the natural
//! sampling coordinates (bilby's `reference_frame = "H1L1"`; Romero-Shaw et al. 2020, MNRAS 499,
//! 3295, §4.2). The frame is fixed to the Earth at one sidereal time, so the map to (ra, dec) is
//! a rotation of the sphere: cos(dec) dra ddec = sin(zenith) dzenith dazimuth.

use crate::error::DetectorError;
use crate::site::Detector;

/// The frame with polar axis along the baseline from the second detector to the first, at a
/// fixed Greenwich mean sidereal time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DetectorPairFrame {
    /// Orthonormal Earth-fixed axes (x, y, polar) of the frame.
    axes: [[f64; 3]; 3],
    gmst: f64,
}

/// (ra, dec) of a (zenith, azimuth) direction with the derivatives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkyFromFrame {
    /// Right ascension in [0, 2π) (rad).
    pub ra: f64,
    /// Declination in [−π/2, π/2] (rad).
    pub dec: f64,
    /// (∂ra/∂zenith, ∂ra/∂azimuth).
    pub d_ra: [f64; 2],
    /// (∂dec/∂zenith, ∂dec/∂azimuth).
    pub d_dec: [f64; 2],
}

fn cross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalized(a: [f64; 3]) -> [f64; 3] {
    let norm = dot(&a, &a).sqrt();
    a.map(|v| v / norm)
}

impl DetectorPairFrame {
    /// The frame of `first` and `second` at sidereal time `gmst` (rad).
    pub fn new(first: &Detector, second: &Detector, gmst: f64) -> Result<Self, DetectorError> {
        let baseline: [f64; 3] = std::array::from_fn(|i| first.location[i] - second.location[i]);
        if dot(&baseline, &baseline).sqrt() < 1.0 {
            return Err(DetectorError::NoBaseline {
                first: first.name.clone(),
                second: second.name.clone(),
            });
        }
        let polar = normalized(baseline);
        // x ⟂ polar in the equatorial plane (the baseline is never along the Earth's axis for
        // two ground-based detectors, but fall back to the x axis if it were).
        let equatorial = cross(&[0.0, 0.0, 1.0], &polar);
        let x = if dot(&equatorial, &equatorial) > 1e-12 {
            normalized(equatorial)
        } else {
            normalized(cross(&polar, &[0.0, 1.0, 0.0]))
        };
        let y = cross(&polar, &x);
        Ok(Self {
            axes: [x, y, polar],
            gmst,
        })
    }

    /// (ra, dec) of the direction at `zenith` ∈ [0, π] from the baseline and `azimuth` around it.
    pub fn to_ra_dec(&self, zenith: f64, azimuth: f64) -> SkyFromFrame {
        let (sz, cz) = zenith.sin_cos();
        let (sa, ca) = azimuth.sin_cos();
        let [x, y, p] = &self.axes;
        let combine = |a: f64, b: f64, c: f64| -> [f64; 3] {
            std::array::from_fn(|i| a * x[i] + b * y[i] + c * p[i])
        };
        let n = combine(sz * ca, sz * sa, cz);
        let n_zenith = combine(cz * ca, cz * sa, -sz);
        let n_azimuth = combine(-sz * sa, sz * ca, 0.0);
        // ra = atan2(n_y, n_x) + GMST, dec = asin(n_z) (n̂ Earth-fixed, as in `delay`).
        let rho2 = n[0] * n[0] + n[1] * n[1];
        let d_ra = |dn: &[f64; 3]| (n[0] * dn[1] - n[1] * dn[0]) / rho2;
        let d_dec = |dn: &[f64; 3]| dn[2] / rho2.sqrt();
        SkyFromFrame {
            ra: (n[1].atan2(n[0]) + self.gmst).rem_euclid(std::f64::consts::TAU),
            dec: n[2].clamp(-1.0, 1.0).asin(),
            d_ra: [d_ra(&n_zenith), d_ra(&n_azimuth)],
            d_dec: [d_dec(&n_zenith), d_dec(&n_azimuth)],
        }
    }

    /// (zenith, azimuth ∈ [0, 2π)) of the direction (ra, dec).
    pub fn from_ra_dec(&self, ra: f64, dec: f64) -> (f64, f64) {
        let (sd, cd) = dec.sin_cos();
        let (sh, ch) = (ra - self.gmst).sin_cos();
        let n = [cd * ch, cd * sh, sd];
        let [x, y, p] = &self.axes;
        let zenith = dot(&n, p).clamp(-1.0, 1.0).acos();
        let azimuth = dot(&n, y)
            .atan2(dot(&n, x))
            .rem_euclid(std::f64::consts::TAU);
        (zenith, azimuth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> (DetectorPairFrame, Detector, Detector) {
        let h1 = Detector::from_name("H1").unwrap();
        let l1 = Detector::from_name("L1").unwrap();
        (DetectorPairFrame::new(&h1, &l1, 1.234).unwrap(), h1, l1)
    }

    /// The H1–L1 delay depends on the zenith angle only: τ_H1 − τ_L1 = −|b| cos(zenith)/c.
    #[test]
    fn zenith_sets_the_delay_between_the_pair() {
        let (f, h1, l1) = frame();
        let b = (0..3)
            .map(|i| (h1.location[i] - l1.location[i]).powi(2))
            .sum::<f64>()
            .sqrt();
        for &(zenith, azimuth) in &[(0.3, 0.1), (1.2, 2.5), (2.0, 4.0), (2.9, 6.0)] {
            let s = f.to_ra_dec(zenith, azimuth);
            let delay = h1.time_delay_from_geocenter(s.ra, s.dec, 1.234)
                - l1.time_delay_from_geocenter(s.ra, s.dec, 1.234);
            let expected = -b * f64::cos(zenith) / crate::delay::C_SI;
            assert!((delay - expected).abs() < 1e-15, "{delay} vs {expected}");
            let (z, a) = f.from_ra_dec(s.ra, s.dec);
            assert!((z - zenith).abs() < 1e-12 && (a - azimuth).abs() < 1e-12);
        }
    }

    /// Derivatives against central differences, and the area element sin z / cos dec.
    #[test]
    fn derivatives_and_area_element() {
        let (f, _, _) = frame();
        let h = 1e-6;
        for &(z, a) in &[(0.4, 0.3), (1.5, 2.0), (2.6, 5.5)] {
            let s = f.to_ra_dec(z, a);
            for (k, (dz, da)) in [(h, 0.0), (0.0, h)].into_iter().enumerate() {
                let (p, m) = (f.to_ra_dec(z + dz, a + da), f.to_ra_dec(z - dz, a - da));
                let wrap = |d: f64| {
                    (d + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                        - std::f64::consts::PI
                };
                let d_ra = wrap(p.ra - m.ra) / (2.0 * h);
                let d_dec = (p.dec - m.dec) / (2.0 * h);
                assert!((d_ra - s.d_ra[k]).abs() < 1e-7, "{d_ra} {:?}", s.d_ra);
                assert!((d_dec - s.d_dec[k]).abs() < 1e-7, "{d_dec} {:?}", s.d_dec);
            }
            let det = (s.d_ra[0] * s.d_dec[1] - s.d_ra[1] * s.d_dec[0]).abs();
            assert!(
                (det - z.sin() / s.dec.cos()).abs() < 1e-12 * det.max(1.0),
                "{det}"
            );
        }
    }

    #[test]
    fn coincident_detectors_are_refused() {
        let h1 = Detector::from_name("H1").unwrap();
        assert!(DetectorPairFrame::new(&h1, &h1, 0.0).is_err());
    }
}
