//! The few GSL 2.8 numerical kernels whose exact arithmetic LAL's IMRPhenomT set-up depends on
//! (docs/imrphenomt.md §10.3–10.5): complex hyperbolic functions called with a real
//! argument, the LU solve of `gsl_linalg_LU_decomp`/`_solve`, and the Brent root finder.
//! IMRPhenomTPHM's numerical Euler angles add the natural cubic spline (`spline.rs`) and the
//! adaptive RKF45 integrator with LAL's Hermite output (`ode.rs`) (docs/precession.md §4.1–4.3);
//! the MSA angles the Jacobi elliptic functions and F(φ, k) (`elliptic.rs`, §3.2).
//!
//! The set-up takes finite differences with steps of 1e-7, which turn one-ulp differences into
//! 1e-6 relative changes of the merger coefficients, so these reproduce GSL's operation order.

mod elliptic;
mod ode;
mod spline;

pub use elliptic::{ellint_f, ellint_kcomp, ellint_rf, elljac};
pub use ode::{adaptive_rk45_hermite, OdeSystem};
pub use spline::CubicSpline;

use crate::scalar::Real;

/// Real part of `gsl_complex_arcsinh(x + 0i)` (GSL `complex/math.c`), which goes through
/// `gsl_complex_arcsin(−0 + ix)` rather than libm's `asinh`.
pub fn arcsinh_f64(x: f64) -> f64 {
    if x == 0.0 {
        return 0.0;
    }
    // arcsin(R + iI) with R = −0, I = x: only the imaginary part survives the final rotation.
    let y = x.abs();
    let r = 1.0_f64.hypot(y);
    let s = (-1.0_f64).hypot(y);
    let a = 0.5 * (r + s);
    let y2 = y * y;
    let imag = if a <= 1.5 {
        let am1 = 0.5 * (y2 / (r + 1.0) + y2 / (s + 1.0));
        (am1 + (am1 * (a + 1.0)).sqrt()).ln_1p()
    } else {
        (a + (a * a - 1.0).sqrt()).ln()
    };
    if x >= 0.0 {
        imag
    } else {
        -imag
    }
}

/// Real part of `gsl_complex_cosh(x + 0i)`.
pub fn cosh_f64(x: f64) -> f64 {
    x.cosh() * 1.0
}

/// Real part of `gsl_complex_sinh(x + 0i)`.
pub fn sinh_f64(x: f64) -> f64 {
    x.sinh() * 1.0
}

/// Real part of `gsl_complex_sech(x + 0i)` = `gsl_complex_inverse(gsl_complex_cosh(x))`.
pub fn sech_f64(x: f64) -> f64 {
    let c = cosh_f64(x);
    let s = 1.0 / c.hypot(0.0);
    c * s * s
}

/// Real part of `gsl_complex_tanh(x + 0i)`.
pub fn tanh_f64(x: f64) -> f64 {
    let cos_i: f64 = 1.0;
    if x.abs() < 1.0 {
        let d = cos_i.powf(2.0) + x.sinh().powf(2.0);
        x.sinh() * x.cosh() / d
    } else {
        let f = 1.0 + (cos_i / x.sinh()).powf(2.0);
        1.0 / (x.tanh() * f)
    }
}

/// [`arcsinh_f64`] on any scalar (value from GSL's algorithm, derivative 1/√(1+x²)).
pub fn arcsinh<T: Real>(x: T) -> T {
    let v = x.re();
    x.lift(arcsinh_f64(v), 1.0 / (1.0 + v * v).sqrt())
}

/// [`sech_f64`] on any scalar (derivative −sech·tanh).
pub fn sech<T: Real>(x: T) -> T {
    let v = x.re();
    let s = sech_f64(v);
    x.lift(s, -s * v.tanh())
}

/// [`tanh_f64`] on any scalar (derivative sech²).
pub fn tanh<T: Real>(x: T) -> T {
    let v = x.re();
    let t = tanh_f64(v);
    x.lift(t, 1.0 - t * t)
}

/// [`cosh_f64`] on any scalar.
pub fn cosh<T: Real>(x: T) -> T {
    let v = x.re();
    x.lift(cosh_f64(v), v.sinh())
}

/// [`sinh_f64`] on any scalar.
pub fn sinh<T: Real>(x: T) -> T {
    let v = x.re();
    x.lift(sinh_f64(v), v.cosh())
}

/// Solves `A x = b` as `gsl_linalg_LU_decomp` (GSL ≥ 2.7: `LU_decomp_L2`, a DGETF2 clone)
/// followed by `gsl_linalg_LU_solve` (row permutation, then two `cblas_dtrsv`).
///
/// Pivoting looks at value parts only; derivative parts follow the same arithmetic.
pub fn lu_solve<T: Real, const N: usize>(mut a: [[T; N]; N], b: [T; N]) -> [T; N] {
    let mut pivots = [0usize; N];
    for j in 0..N {
        // idamax: the first index of the largest |a_ij| in column j, rows j..N.
        let mut p = j;
        for i in j + 1..N {
            if a[i][j].re().abs() > a[p][j].re().abs() {
                p = i;
            }
        }
        pivots[j] = p;
        a.swap(j, p);
        if j + 1 < N {
            // dscal by the reciprocal of the pivot.
            let inv = T::from(1.0) / a[j][j];
            for row in a.iter_mut().skip(j + 1) {
                row[j] *= inv;
            }
            // dger: a_ik += (−l_ij) · u_jk.
            let (upper, lower) = a.split_at_mut(j + 1);
            let u = &upper[j];
            for row in lower.iter_mut() {
                let minus_l = -row[j];
                for k in j + 1..N {
                    row[k] += u[k] * minus_l;
                }
            }
        }
    }
    let mut x = b;
    for (j, &p) in pivots.iter().enumerate() {
        x.swap(j, p);
    }
    // Forward substitution with the unit lower triangle.
    for i in 1..N {
        let mut acc = x[i];
        for j in 0..i {
            acc -= a[i][j] * x[j];
        }
        x[i] = acc;
    }
    // Back substitution with the upper triangle.
    x[N - 1] = x[N - 1] / a[N - 1][N - 1];
    for i in (0..N - 1).rev() {
        let mut acc = x[i];
        for j in i + 1..N {
            acc -= a[i][j] * x[j];
        }
        x[i] = acc / a[i][i];
    }
    x
}

/// Why a bracketed root search could not start.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NoBracket;

/// GSL's Brent solver (`roots/brent.c`) driven as LAL's IMRPhenomT set-up drives it: at most
/// `max_iter` iterations, stopping when `gsl_root_test_interval(lo, hi, 0, epsrel)` succeeds or
/// a function value is not finite, and returning the *last iterate* (not the bracket midpoint).
pub fn brent_root(
    f: impl Fn(f64) -> f64,
    x_lower: f64,
    x_upper: f64,
    epsrel: f64,
    max_iter: usize,
) -> Result<f64, NoBracket> {
    let (mut a, mut b) = (x_lower, x_upper);
    let (mut fa, mut fb) = (f(a), f(b));
    if !brackets(fa, fb) {
        return Err(NoBracket);
    }
    let (mut c, mut fc) = (b, fb);
    let (mut d, mut e) = (b - a, b - a);
    let mut root = 0.0;
    for _ in 0..max_iter {
        let mut ac_equal = false;
        if (fb < 0.0 && fc < 0.0) || (fb > 0.0 && fc > 0.0) {
            ac_equal = true;
            c = a;
            fc = fa;
            d = b - a;
            e = b - a;
        }
        if fc.abs() < fb.abs() {
            ac_equal = true;
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol = 0.5 * f64::EPSILON * b.abs();
        let m = 0.5 * (c - b);
        if fb == 0.0 || m.abs() <= tol {
            // GSL returns the bracket [b, c] (or [b, b]): converged by any interval test.
            return Ok(b);
        }
        if e.abs() < tol || fa.abs() <= fb.abs() {
            d = m;
            e = m;
        } else {
            let s = fb / fa;
            let (mut p, mut q);
            if ac_equal {
                p = 2.0 * m * s;
                q = 1.0 - s;
            } else {
                q = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * m * q * (q - r) - (b - a) * (r - 1.0));
                q = (q - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < f64::min(3.0 * m * q - (tol * q).abs(), (e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        }
        a = b;
        fa = fb;
        if d.abs() > tol {
            b += d;
        } else {
            b += if m > 0.0 { tol } else { -tol };
        }
        fb = f(b);
        if !fb.is_finite() {
            // GSL_EBADFUNC: LAL breaks out and keeps the previous iterate.
            return Ok(root);
        }
        root = b;
        let c_bound = if (fb < 0.0 && fc < 0.0) || (fb > 0.0 && fc > 0.0) {
            a
        } else {
            c
        };
        let (lo, hi) = if b < c_bound {
            (b, c_bound)
        } else {
            (c_bound, b)
        };
        if interval_converged(lo, hi, epsrel) {
            return Ok(root);
        }
    }
    Ok(root)
}

/// Whether function values at the two ends of an interval bracket a root as [`brent_root`]
/// requires: finite, and not both of one strict sign.
pub fn brackets(fa: f64, fb: f64) -> bool {
    fa.is_finite() && fb.is_finite() && !((fa < 0.0 && fb < 0.0) || (fa > 0.0 && fb > 0.0))
}

/// `gsl_root_test_interval(lo, hi, 0, epsrel)`.
fn interval_converged(lo: f64, hi: f64, epsrel: f64) -> bool {
    let min_abs = if (lo > 0.0 && hi > 0.0) || (lo < 0.0 && hi < 0.0) {
        lo.abs().min(hi.abs())
    } else {
        0.0
    };
    (hi - lo).abs() < epsrel * min_abs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::Dual;

    #[test]
    fn hyperbolic_functions_agree_with_libm() {
        for &x in &[
            -30.0, -3.1, -1.0, -0.7, -1e-3, 1e-9, 0.2, 0.99, 1.0, 2.5, 40.0,
        ] {
            let rel = |a: f64, b: f64| (a - b).abs() / b.abs().max(1e-300);
            assert!(rel(arcsinh_f64(x), f64::asinh(x)) < 4e-16, "asinh {x}");
            assert!(rel(tanh_f64(x), f64::tanh(x)) < 4e-16, "tanh {x}");
            assert!(rel(sech_f64(x), 1.0 / f64::cosh(x)) < 4e-16, "sech {x}");
        }
    }

    #[test]
    fn lu_solve_solves_and_differentiates() {
        // A(p) x = b(p) with p the dual variable; check A x = b and dx/dp by finite differences.
        let sys = |p: Dual<1>| {
            let a = [
                [p * 2.0, Dual::from(1.0), Dual::from(-3.0)],
                [Dual::from(4.0), p * p, Dual::from(0.5)],
                [Dual::from(-1.0), Dual::from(7.0), p + 1.0],
            ];
            let b = [p, Dual::from(2.0), p * 3.0];
            (a, b)
        };
        let p0 = 0.37;
        let (a, b) = sys(Dual::variable(p0, 0));
        let x = lu_solve(a, b);
        for i in 0..3 {
            let ax: f64 = (0..3).map(|j| a[i][j].re * x[j].re).sum();
            assert!((ax - b[i].re).abs() < 1e-14);
        }
        let solve_at = |p: f64| {
            let (a, b) = sys(Dual::from(p));
            lu_solve(a, b).map(|v| v.re)
        };
        let (hi, lo) = (solve_at(p0 + 1e-6), solve_at(p0 - 1e-6));
        for i in 0..3 {
            let fd = (hi[i] - lo[i]) / 2e-6;
            assert!((x[i].eps[0] - fd).abs() < 1e-7 * fd.abs().max(1.0));
        }
    }

    #[test]
    fn brent_finds_roots_and_rejects_bad_brackets() {
        let r = brent_root(|x| x * x * x - 2.0, -1e3, 500.0, 1e-12, 1000).unwrap();
        assert!((r - 2f64.cbrt()).abs() < 1e-10);
        assert_eq!(
            brent_root(|x| x * x + 1.0, -1.0, 1.0, 1e-4, 1000),
            Err(NoBracket)
        );
    }
}
