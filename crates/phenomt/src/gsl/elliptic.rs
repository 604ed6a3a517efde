//! GSL 2.8's Jacobi elliptic functions (`gsl_sf_elljac_e`, Bulirsch's algorithm with the
//! reflection to K − u when |sin| < |cos|) and the incomplete elliptic integral of the first
//! kind (`gsl_sf_ellint_F` at `GSL_PREC_DOUBLE`, through Carlson's R_F), in GSL's operation
//! order, for LAL's MSA Euler angles (docs/precession.md §3.2). Out of their domains they return
//! NaN (GSL's `DOMAIN_ERROR` value) or, for |m| > 1, zeros, as GSL does.

const DBL_EPSILON: f64 = f64::EPSILON;
const DBL_MIN: f64 = f64::MIN_POSITIVE;
const DBL_MAX: f64 = f64::MAX;
const SQRT_DBL_EPSILON: f64 = 1.4901161193847656e-08;

/// `GSL_SIGN`: 1 for x ≥ 0, −1 otherwise (NaN included).
fn gsl_sign(x: f64) -> f64 {
    if x >= 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// `gsl_hypot`: max·√(1 + (min/max)²).
fn gsl_hypot(x: f64, y: f64) -> f64 {
    if x.is_infinite() || y.is_infinite() {
        return f64::INFINITY;
    }
    let (xabs, yabs) = (x.abs(), y.abs());
    let (min, max) = if xabs < yabs {
        (xabs, yabs)
    } else {
        (yabs, xabs)
    };
    if min == 0.0 {
        return max;
    }
    let u = min / max;
    max * (1.0 + u * u).sqrt()
}

/// The Jacobi elliptic functions (sn, cn, dn) of argument `u` and parameter `m` (not the
/// modulus), `gsl_sf_elljac_e`.
pub fn elljac(u: f64, m: f64) -> (f64, f64, f64) {
    if m.abs() > 1.0 {
        return (0.0, 0.0, 0.0);
    }
    if m.abs() < 2.0 * DBL_EPSILON {
        return (u.sin(), u.cos(), 1.0);
    }
    if (m - 1.0).abs() < 2.0 * DBL_EPSILON {
        let cn = 1.0 / u.cosh();
        return (u.tanh(), cn, cn);
    }
    const N: usize = 16;
    let mut mu = [0.0; N];
    let mut nu = [0.0; N];
    let mut c = [0.0; N];
    let mut d = [0.0; N];
    let mut n = 0;
    mu[0] = 1.0;
    nu[0] = (1.0 - m).sqrt();
    while (mu[n] - nu[n]).abs() > 4.0 * DBL_EPSILON * (mu[n] + nu[n]).abs() {
        mu[n + 1] = 0.5 * (mu[n] + nu[n]);
        nu[n + 1] = (mu[n] * nu[n]).sqrt();
        n += 1;
        if n >= N - 1 {
            break;
        }
    }
    let sin_umu = (u * mu[n]).sin();
    let cos_umu = (u * mu[n]).cos();
    // Where sin(u μ_n) may vanish, GSL goes through sn, cn, dn of K − u.
    let reflected = sin_umu.abs() < cos_umu.abs();
    let t = if reflected {
        sin_umu / cos_umu
    } else {
        cos_umu / sin_umu
    };
    c[n] = mu[n] * t;
    d[n] = 1.0;
    while n > 0 {
        n -= 1;
        c[n] = d[n + 1] * c[n + 1];
        let r = (c[n + 1] * c[n + 1]) / mu[n + 1];
        d[n] = (r + nu[n]) / (r + mu[n]);
    }
    if reflected {
        let dn = (1.0 - m).sqrt() / d[0];
        let cn = dn * gsl_sign(cos_umu) / gsl_hypot(1.0, c[0]);
        let sn = cn * c[0] / (1.0 - m).sqrt();
        (sn, cn, dn)
    } else {
        let dn = d[0];
        let sn = gsl_sign(sin_umu) / gsl_hypot(1.0, c[0]);
        let cn = c[0] * sn;
        (sn, cn, dn)
    }
}

/// Carlson's R_F(x, y, z) at double precision (`gsl_sf_ellint_RF_e`, errtol 0.001); NaN
/// outside its domain.
pub fn ellint_rf(x: f64, y: f64, z: f64) -> f64 {
    let lolim = 5.0 * DBL_MIN;
    let uplim = 0.2 * DBL_MAX;
    let errtol = 0.001;
    if x < 0.0 || y < 0.0 || z < 0.0 {
        return f64::NAN;
    }
    if x + y < lolim || x + z < lolim || y + z < lolim {
        return f64::NAN;
    }
    let max3 = |a: f64, b: f64, c: f64| gsl_max(gsl_max(a, b), c);
    if max3(x, y, z) >= uplim {
        return f64::NAN;
    }
    let (c1, c2, c3) = (1.0 / 24.0, 3.0 / 44.0, 1.0 / 14.0);
    let (mut xn, mut yn, mut zn) = (x, y, z);
    let mut iterations = 0;
    let (mu, xndev, yndev, zndev) = loop {
        let mu = (xn + yn + zn) / 3.0;
        let xndev = 2.0 - (mu + xn) / mu;
        let yndev = 2.0 - (mu + yn) / mu;
        let zndev = 2.0 - (mu + zn) / mu;
        let epslon = max3(xndev.abs(), yndev.abs(), zndev.abs());
        if epslon < errtol {
            break (mu, xndev, yndev, zndev);
        }
        let (xnroot, ynroot, znroot) = (xn.sqrt(), yn.sqrt(), zn.sqrt());
        let lamda = xnroot * (ynroot + znroot) + ynroot * znroot;
        xn = (xn + lamda) * 0.25;
        yn = (yn + lamda) * 0.25;
        zn = (zn + lamda) * 0.25;
        iterations += 1;
        if iterations == 10_000 {
            return f64::NAN;
        }
    };
    let e2 = xndev * yndev - zndev * zndev;
    let e3 = xndev * yndev * zndev;
    let s = 1.0 + (c1 * e2 - 0.1 - c2 * e3) * e2 + c3 * e3;
    s / mu.sqrt()
}

/// `GSL_MAX`: `a > b ? a : b`.
fn gsl_max(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
}

/// The complete elliptic integral K(k) of modulus `k` (`gsl_sf_ellint_Kcomp_e`, double
/// precision).
pub fn ellint_kcomp(k: f64) -> f64 {
    if k * k >= 1.0 {
        f64::NAN
    } else if k * k >= 1.0 - SQRT_DBL_EPSILON {
        // Abramowitz & Stegun 17.3.34.
        let y = 1.0 - k * k;
        let a = [1.38629436112, 0.09666344259, 0.03590092383];
        let b = [0.5, 0.12498593597, 0.06880248576];
        let ta = a[0] + y * (a[1] + y * a[2]);
        let tb = -y.ln() * (b[0] + y * (b[1] + y * b[2]));
        ta + tb
    } else {
        ellint_rf(0.0, 1.0 - k * k, 1.0)
    }
}

/// The incomplete elliptic integral of the first kind F(φ, k) of modulus `k`
/// (`gsl_sf_ellint_F(phi, k, GSL_PREC_DOUBLE)`), with GSL's reduction of φ to (−π/2, π/2].
pub fn ellint_f(phi: f64, k: f64) -> f64 {
    let nc = (phi / std::f64::consts::PI + 0.5).floor();
    let phi = phi - nc * std::f64::consts::PI;
    let sin_phi = phi.sin();
    let sin2_phi = sin_phi * sin_phi;
    let x = 1.0 - sin2_phi;
    let y = 1.0 - k * k * sin2_phi;
    let value = sin_phi * ellint_rf(x, y, 1.0);
    if nc == 0.0 {
        value
    } else {
        value + 2.0 * nc * ellint_kcomp(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values from Abramowitz & Stegun (Table 16.5, 17.5) and closed forms, to ~1e-15.
    #[test]
    fn known_values() {
        // m = 0 and m = 1: trigonometric and hyperbolic limits.
        assert_eq!(elljac(0.7, 0.0), (0.7f64.sin(), 0.7f64.cos(), 1.0));
        let (sn, cn, dn) = elljac(0.7, 1.0);
        assert_eq!((sn, cn, dn), (0.7f64.tanh(), 1.0 / 0.7f64.cosh(), cn));
        // sn(K(m) | m) = 1, cn = 0, dn = √(1 − m); K(1/2) = 1.8540746773013719.
        let k_half = 1.854_074_677_301_371_9;
        let (sn, cn, dn) = elljac(k_half, 0.5);
        assert!((sn - 1.0).abs() < 1e-15, "{sn}");
        assert!(cn.abs() < 1e-15, "{cn}");
        assert!((dn - 0.5f64.sqrt()).abs() < 1e-15, "{dn}");
        // sn(u|m) at u = 0.5, m = 0.3 (mpmath ellipfun): 0.474215622711820626 and the identities
        // sn² + cn² = 1, dn² + m sn² = 1.
        let (sn, cn, dn) = elljac(0.5, 0.3);
        assert!((sn - 0.474_215_622_711_820_6).abs() < 2e-15, "{sn:.17}");
        assert!((sn * sn + cn * cn - 1.0).abs() < 4e-16);
        assert!((dn * dn + 0.3 * sn * sn - 1.0).abs() < 4e-16);
        // Negative arguments: sn odd, cn and dn even.
        let (sn_m, cn_m, dn_m) = elljac(-0.5, 0.3);
        assert_eq!((sn_m, cn_m, dn_m), (-sn, cn, dn));
        // |m| > 1 is GSL's domain error, with zeros.
        assert_eq!(elljac(0.5, 1.5), (0.0, 0.0, 0.0));
        // K and F: K(k = 1/√2) = K(m = 1/2); F(π/2, k) = K(k); F(φ, 0) = φ.
        let k = 0.5f64.sqrt();
        assert!((ellint_kcomp(k) - k_half).abs() < 1e-15);
        assert!((ellint_f(std::f64::consts::FRAC_PI_2 - 1e-12, k) - k_half).abs() < 1e-11);
        assert!((ellint_f(0.3, 0.0) - 0.3).abs() < 1e-16);
        // F(π/4, k = 1/2) = 0.804366101232065557 (mpmath ellipf(π/4, m = 1/4)).
        assert!(
            (ellint_f(std::f64::consts::FRAC_PI_4, 0.5) - 0.804_366_101_232_065_6).abs() < 1e-15
        );
        // Inverse relation: F(am(u), k) = u with am(u) = atan2(sn, cn).
        let (sn, cn, _) = elljac(0.9, 0.64);
        assert!((ellint_f(sn.atan2(cn), 0.8) - 0.9).abs() < 2e-15);
        assert!(ellint_rf(-1.0, 1.0, 1.0).is_nan());
    }
}
