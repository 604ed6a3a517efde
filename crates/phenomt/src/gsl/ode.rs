//! GSL's Runge–Kutta–Fehlberg 4(5) step (`ode-initval/rkf45.c`), its standard step-size control
//! (`cstd.c`, `gsl_odeiv_control_y_new`) and one adaptive step (`evolve.c`,
//! `gsl_odeiv_evolve_apply`), driven as LAL's `XLALAdaptiveRungeKutta4Hermite` drives them, with
//! its cubic Hermite output on a uniform grid (`LALAdaptiveRungeKuttaIntegrator.c`, lal 7.7.1).
//!
//! LAL's IMRPhenomTPHM integrates its spin-precession ODE with this at absolute and relative
//! tolerance 1e-12 (docs/precession.md §4.3). The accepted steps depend on every bit of the
//! error estimate, so the arithmetic follows GSL 2.8's operation order.

/// Runge–Kutta–Fehlberg stage times (`ah`) and weights (`b3`…`b6`, `c1`…`c6`, `ec`).
const AH: [f64; 5] = [1.0 / 4.0, 3.0 / 8.0, 12.0 / 13.0, 1.0, 1.0 / 2.0];
const B3: [f64; 2] = [3.0 / 32.0, 9.0 / 32.0];
const B4: [f64; 3] = [1932.0 / 2197.0, -7200.0 / 2197.0, 7296.0 / 2197.0];
const B5: [f64; 4] = [
    8341.0 / 4104.0,
    -32832.0 / 4104.0,
    29440.0 / 4104.0,
    -845.0 / 4104.0,
];
const B6: [f64; 5] = [
    -6080.0 / 20520.0,
    41040.0 / 20520.0,
    -28352.0 / 20520.0,
    9295.0 / 20520.0,
    -5643.0 / 20520.0,
];
const C1: f64 = 902880.0 / 7618050.0;
const C3: f64 = 3953664.0 / 7618050.0;
const C4: f64 = 3855735.0 / 7618050.0;
const C5: f64 = -1371249.0 / 7618050.0;
const C6: f64 = 277020.0 / 7618050.0;
/// Differences of the fifth- and fourth-order weights (index 0 and 2 are zero).
const EC: [f64; 7] = [
    0.0,
    1.0 / 360.0,
    0.0,
    -128.0 / 4275.0,
    -2197.0 / 75240.0,
    1.0 / 50.0,
    2.0 / 55.0,
];
/// The order GSL's control uses for rkf45 (`rkf45_order`).
const ORDER: f64 = 5.0;

/// The right-hand side dy/dt = f(t, y) of an `N`-dimensional system.
pub trait OdeSystem<const N: usize> {
    /// dy/dt at (t, y).
    fn rhs(&self, t: f64, y: &[f64; N]) -> [f64; N];
}

/// The state GSL's rkf45 keeps between an accepted step and the next: the stage derivatives k1
/// and k6 and the step's initial value, which LAL's Hermite output reads.
#[derive(Clone, Debug)]
struct Rkf45<const N: usize> {
    k1: [f64; N],
    k6: [f64; N],
    y0: [f64; N],
}

impl<const N: usize> Rkf45<N> {
    /// `rkf45_apply` with the initial derivative `dydt_in` given: advances `y` by `h` and
    /// returns the error estimate. (The derivative at the end, which GSL also evaluates, only
    /// enters a control with a_dydt ≠ 0, so it is not computed.)
    fn apply(
        &mut self,
        sys: &impl OdeSystem<N>,
        t: f64,
        h: f64,
        y: &mut [f64; N],
        dydt_in: &[f64; N],
    ) -> [f64; N] {
        self.y0 = *y;
        let k1 = *dydt_in;
        let stage = |w: &dyn Fn(usize) -> f64| -> [f64; N] {
            let mut ytmp = [0.0; N];
            for (i, v) in ytmp.iter_mut().enumerate() {
                *v = w(i);
            }
            ytmp
        };
        let ytmp = stage(&|i| y[i] + AH[0] * h * k1[i]);
        let k2 = sys.rhs(t + AH[0] * h, &ytmp);
        let ytmp = stage(&|i| y[i] + h * (B3[0] * k1[i] + B3[1] * k2[i]));
        let k3 = sys.rhs(t + AH[1] * h, &ytmp);
        let ytmp = stage(&|i| y[i] + h * (B4[0] * k1[i] + B4[1] * k2[i] + B4[2] * k3[i]));
        let k4 = sys.rhs(t + AH[2] * h, &ytmp);
        let ytmp =
            stage(&|i| y[i] + h * (B5[0] * k1[i] + B5[1] * k2[i] + B5[2] * k3[i] + B5[3] * k4[i]));
        let k5 = sys.rhs(t + AH[3] * h, &ytmp);
        let ytmp = stage(&|i| {
            y[i] + h
                * (B6[0] * k1[i] + B6[1] * k2[i] + B6[2] * k3[i] + B6[3] * k4[i] + B6[4] * k5[i])
        });
        let k6 = sys.rhs(t + AH[4] * h, &ytmp);
        let mut yerr = [0.0; N];
        for i in 0..N {
            let d_i = C1 * k1[i] + C3 * k3[i] + C4 * k4[i] + C5 * k5[i] + C6 * k6[i];
            y[i] += h * d_i;
            yerr[i] =
                h * (EC[1] * k1[i] + EC[3] * k3[i] + EC[4] * k4[i] + EC[5] * k5[i] + EC[6] * k6[i]);
        }
        self.k1 = k1;
        self.k6 = k6;
        yerr
    }
}

/// What GSL's standard control decided (`GSL_ODEIV_HADJ_DEC`, `_INC`, `_NIL`).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Adjust {
    Decrease,
    Increase,
    Keep,
}

/// `std_control_hadjust` with a_y = 1, a_dydt = 0 (`gsl_odeiv_control_y_new`): the error scale
/// D_i = ε_rel|y_i| + ε_abs, shrink by 0.9 r^(−1/5) (at most ×0.2) when r > 1.1, grow by
/// 0.9 r^(−1/6) (at most ×5) when r < 0.5.
fn hadjust<const N: usize>(
    eps_abs: f64,
    eps_rel: f64,
    y: &[f64; N],
    yerr: &[f64; N],
    h: &mut f64,
) -> Adjust {
    let h_old = h.abs();
    let mut rmax = f64::MIN_POSITIVE;
    for i in 0..N {
        let d0 = eps_rel * (y[i].abs() + 0.0) + eps_abs;
        let r = yerr[i].abs() / d0.abs();
        rmax = if r > rmax { r } else { rmax };
    }
    if rmax > 1.1 {
        let h_new = h_old * 0.9 / rmax.powf(1.0 / ORDER);
        *h = f64::max(0.2 * h_old, h_new);
        Adjust::Decrease
    } else if rmax < 0.5 {
        let f = 0.9 / rmax.powf(1.0 / (ORDER + 1.0));
        let h_new = h_old * (if f > 1.0 { f } else { 1.0 });
        *h = f64::min(5.0 * h_old, h_new);
        Adjust::Increase
    } else {
        Adjust::Keep
    }
}

/// `XLALAdaptiveRungeKutta4Hermite` with `gsl_odeiv_step_rkf45` and
/// `gsl_odeiv_control_y_new(eps_abs, eps_rel)`, stopping at `t_end` only: integrates from
/// (`t_init`, `y_init`) forwards (`dt` > 0, `t_end` > `t_init`) and returns the initial value
/// followed by the Hermite-interpolated solution at t_init + Δt, t_init + 2Δt, … (times
/// accumulated by repeated addition) strictly before the last step's end. The first trial step
/// is Δt; the last step is clamped to `t_end`.
pub fn adaptive_rk45_hermite<const N: usize>(
    sys: &impl OdeSystem<N>,
    y_init: [f64; N],
    t_init: f64,
    t_end: f64,
    dt: f64,
    eps_abs: f64,
    eps_rel: f64,
) -> Vec<[f64; N]> {
    let mut out = vec![y_init];
    let mut rk = Rkf45 {
        k1: [0.0; N],
        k6: [0.0; N],
        y0: [0.0; N],
    };
    let mut y = y_init;
    let (mut t, mut t_interp, mut h) = (t_init, t_init, dt);
    loop {
        let t_old = t;
        // gsl_odeiv_evolve_apply: one accepted step, retried from the same y while the
        // control decreases h (and the decrease moves t by at least one ulp).
        let y_start = y;
        let dydt_in = sys.rhs(t_old, &y_start);
        let span = t_end - t_old;
        let mut h0 = h;
        loop {
            let final_step = (span >= 0.0 && h0 > span) || (span < 0.0 && h0 < span);
            if final_step {
                h0 = span;
            }
            let yerr = rk.apply(sys, t_old, h0, &mut y, &dydt_in);
            t = if final_step { t_end } else { t_old + h0 };
            let h_old = h0;
            if hadjust(eps_abs, eps_rel, &y, &yerr, &mut h0) == Adjust::Decrease {
                if h0.abs() < h_old.abs() && t + h0 != t {
                    y = y_start;
                    continue;
                }
                h0 = h_old;
            }
            break;
        }
        h = h0;
        // The Hermite interpolant on [t_old, t] from y0, y1, k1 and k6 of the accepted step.
        while (t_interp + dt) * (t_interp + dt) < t * t {
            t_interp += dt;
            let h_used = t - t_old;
            let theta = (t_interp - t_old) / h_used;
            let i0 = 1.0 + theta * theta * (3.0 - 4.0 * theta);
            let i1 = -theta * (theta - 1.0);
            let i6 = -4.0 * theta * theta * (theta - 1.0);
            let iend = theta * theta * (4.0 * theta - 3.0);
            let mut y_interp = [0.0; N];
            for (i, v) in y_interp.iter_mut().enumerate() {
                *v = i0 * rk.y0[i] + iend * y[i] + h_used * i1 * rk.k1[i] + h_used * i6 * rk.k6[i];
            }
            out.push(y_interp);
        }
        if t >= t_end {
            return out;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// y' = (y1, −y0): a rotation, y = (sin t, cos t).
    struct Oscillator;
    impl OdeSystem<2> for Oscillator {
        fn rhs(&self, _t: f64, y: &[f64; 2]) -> [f64; 2] {
            [y[1], -y[0]]
        }
    }

    #[test]
    fn hermite_output_is_uniform_and_accurate() {
        let dt = 0.37;
        let out = adaptive_rk45_hermite(&Oscillator, [0.0, 1.0], 0.0, 20.0, dt, 1e-12, 1e-12);
        // Outputs at kΔt strictly before 20: k = 0 … 54. The interpolant is O(h⁴) between the
        // steps' ends (steps of a few Δt here): ~1e-9 against 1e-12 at the ends.
        assert_eq!(out.len(), 55);
        for (k, y) in out.iter().enumerate() {
            let t = k as f64 * dt;
            assert!((y[0] - t.sin()).abs() < 1e-8, "{k}");
            assert!((y[1] - t.cos()).abs() < 1e-8, "{k}");
        }
    }

    #[test]
    fn control_shrinks_grows_and_keeps() {
        let y = [1.0, -2.0];
        let mut h = 1.0;
        assert_eq!(
            hadjust(1e-3, 1e-3, &y, &[1e-2, 0.0], &mut h),
            Adjust::Decrease
        );
        assert!((0.2..1.0).contains(&h));
        let mut h = 1.0;
        assert_eq!(
            hadjust(1e-3, 1e-3, &y, &[1e-9, 0.0], &mut h),
            Adjust::Increase
        );
        assert_eq!(h, 5.0);
        let mut h = 1.0;
        assert_eq!(
            hadjust(1e-3, 1e-3, &y, &[1.6e-3, 0.0], &mut h),
            Adjust::Keep
        );
        assert_eq!(h, 1.0);
    }
}
