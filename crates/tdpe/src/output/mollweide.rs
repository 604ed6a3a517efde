//! The Mollweide projection of the sky as astronomers draw it: equal-area, right ascension
//! 12 h at the centre and increasing to the left (east on the left, as the sky seen from inside
//! the celestial sphere), declination upwards (Snyder 1987, "Map Projections — A Working
//! Manual", USGS PP 1395, §31, eqs. 31-1 to 31-6, with unit sphere radius).
//!
//! The projected plane spans x ∈ [−2√2, 2√2], y ∈ [−√2, √2]; the ellipse's area is 4π, that of
//! the unit sphere, and every region keeps its area.

use std::f64::consts::{FRAC_PI_2, PI, SQRT_2};

/// Half-width of the projected ellipse (at the equator).
pub const HALF_WIDTH: f64 = 2.0 * SQRT_2;
/// Half-height of the projected ellipse (at the poles).
pub const HALF_HEIGHT: f64 = SQRT_2;

/// The auxiliary angle θ of latitude φ: the root of 2θ + sin 2θ = π sin φ (Newton's method on
/// the doubled angle, as Snyder eq. 31-4; exact at the poles, where the iteration stalls).
fn auxiliary_angle(latitude: f64) -> f64 {
    if (latitude.abs() - FRAC_PI_2).abs() < 1e-12 {
        return latitude;
    }
    let target = PI * latitude.sin();
    let mut doubled = 2.0 * latitude;
    for _ in 0..50 {
        let step = (doubled + doubled.sin() - target) / (1.0 + doubled.cos());
        doubled -= step;
        if step.abs() < 1e-14 {
            break;
        }
    }
    doubled / 2.0
}

/// The longitude on the map of right ascension `ra` (rad): 12 h at the centre, east to the left,
/// in (−π, π].
fn map_longitude(ra: f64) -> f64 {
    let l = PI - ra.rem_euclid(2.0 * PI);
    if l <= -PI {
        l + 2.0 * PI
    } else {
        l
    }
}

/// Projected (x, y) of the direction (ra, dec) in rad.
pub fn forward(ra: f64, dec: f64) -> (f64, f64) {
    let theta = auxiliary_angle(dec);
    let lambda = map_longitude(ra);
    (HALF_WIDTH / PI * lambda * theta.cos(), SQRT_2 * theta.sin())
}

/// The direction (ra in [0, 2π), dec) in rad of the projected point (x, y), or `None` outside
/// the ellipse.
pub fn inverse(x: f64, y: f64) -> Option<(f64, f64)> {
    if (x / HALF_WIDTH).powi(2) + (y / HALF_HEIGHT).powi(2) > 1.0 {
        return None;
    }
    let theta = (y / SQRT_2).clamp(-1.0, 1.0).asin();
    let dec = ((2.0 * theta + (2.0 * theta).sin()) / PI)
        .clamp(-1.0, 1.0)
        .asin();
    let cos_theta = theta.cos();
    let lambda = if cos_theta > 1e-12 {
        PI * x / (HALF_WIDTH * cos_theta)
    } else {
        0.0
    };
    if lambda.abs() > PI + 1e-9 {
        return None;
    }
    Some(((PI - lambda).rem_euclid(2.0 * PI), dec))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landmarks_and_orientation() {
        let close =
            |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12;
        // 12 h on the equator is the centre; 6 h lies right of it, 18 h left.
        assert!(close(forward(PI, 0.0), (0.0, 0.0)));
        assert!(forward(PI / 2.0, 0.0).0 > 0.0 && forward(1.5 * PI, 0.0).0 < 0.0);
        assert!(close(forward(1.0, FRAC_PI_2), (0.0, SQRT_2)));
        assert!(close(forward(1.0, -FRAC_PI_2), (0.0, -SQRT_2)));
        // 0 h on the equator is the right edge (just above 0 h) or the left (just below 24 h).
        assert!((forward(1e-9, 0.0).0 - HALF_WIDTH).abs() < 1e-8);
        assert!((forward(2.0 * PI - 1e-9, 0.0).0 + HALF_WIDTH).abs() < 1e-8);
        assert_eq!(inverse(HALF_WIDTH, 0.1), None);
    }

    #[test]
    fn inverse_undoes_forward() {
        for i in 0..40 {
            for j in 1..40 {
                let ra = 2.0 * PI * (i as f64 + 0.3) / 40.0;
                let dec = -FRAC_PI_2 + PI * j as f64 / 40.0;
                let (x, y) = forward(ra, dec);
                let (ra2, dec2) = inverse(x, y).unwrap();
                assert!(
                    (ra2 - ra).abs() < 1e-10 && (dec2 - dec).abs() < 1e-10,
                    "{ra} {dec}"
                );
            }
        }
    }

    /// Equal area: the Jacobian |∂(x, y)/∂(ra, dec)| equals cos(dec), the sphere's area element.
    #[test]
    fn the_projection_keeps_areas() {
        let h = 1e-6;
        for &(ra, dec) in &[(0.7, 0.2), (2.0, -1.2), (4.0, 1.4), (5.5, -0.01)] {
            let (x0, y0) = forward(ra, dec);
            let (xa, ya) = forward(ra + h, dec);
            let (xd, yd) = forward(ra, dec + h);
            let jacobian = ((xa - x0) * (yd - y0) - (xd - x0) * (ya - y0)).abs() / (h * h);
            assert!(
                (jacobian / dec.cos() - 1.0).abs() < 1e-4,
                "{ra} {dec}: {jacobian}"
            );
        }
    }
}
