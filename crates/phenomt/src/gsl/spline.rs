//! GSL's natural cubic spline (`interpolation/cspline.c`, `gsl_interp_cspline`) with the
//! symmetric tridiagonal solve it uses (`linalg/tridiag.c`, `gsl_linalg_solve_symm_tridiag`),
//! in GSL 2.8's operation order: LAL's IMRPhenomTPHM interpolates v(t) for the spin ODE and
//! α(t), cos β(t) for the minimal-rotation γ with it (docs/precession.md §4.1, §4.7).

/// A natural cubic spline through (x_i, y_i), x strictly increasing, as `gsl_spline_init` with
/// `gsl_interp_cspline` builds it.
#[derive(Clone, Debug)]
pub struct CubicSpline {
    x: Vec<f64>,
    y: Vec<f64>,
    /// Second-derivative coefficients c_i (half the second derivative), c_0 = c_{n−1} = 0.
    c: Vec<f64>,
}

impl CubicSpline {
    /// The natural spline through the knots `x` (strictly increasing) and values `y`, or `None`
    /// with fewer than three knots or lengths that differ (GSL's `min_size` is 3).
    pub fn natural(x: Vec<f64>, y: Vec<f64>) -> Option<Self> {
        let n = x.len();
        if n < 3 || y.len() != n {
            return None;
        }
        let sys = n - 2;
        let mut diag = vec![0.0; sys];
        let mut offdiag = vec![0.0; sys];
        let mut g = vec![0.0; sys];
        for i in 0..sys {
            let h_i = x[i + 1] - x[i];
            let h_ip1 = x[i + 2] - x[i + 1];
            let ydiff_i = y[i + 1] - y[i];
            let ydiff_ip1 = y[i + 2] - y[i + 1];
            let g_i = if h_i != 0.0 { 1.0 / h_i } else { 0.0 };
            let g_ip1 = if h_ip1 != 0.0 { 1.0 / h_ip1 } else { 0.0 };
            offdiag[i] = h_ip1;
            diag[i] = 2.0 * (h_ip1 + h_i);
            g[i] = 3.0 * (ydiff_ip1 * g_ip1 - ydiff_i * g_i);
        }
        let mut c = vec![0.0; n];
        if sys == 1 {
            c[1] = g[0] / diag[0];
        } else {
            let solution = solve_symm_tridiag(&diag, &offdiag[..sys - 1], &g);
            c[1..=sys].copy_from_slice(&solution);
        }
        Some(Self { x, y, c })
    }

    /// The interval [x_i, x_{i+1}] holding `x` (`gsl_interp_bsearch` over all knots; the last
    /// knot belongs to the last interval), or `None` outside [x_0, x_{n−1}].
    fn interval(&self, x: f64) -> Option<usize> {
        let n = self.x.len();
        if !(x >= self.x[0] && x <= self.x[n - 1]) {
            return None;
        }
        let (mut lo, mut hi) = (0, n - 1);
        while hi > lo + 1 {
            let i = (hi + lo) / 2;
            if self.x[i] > x {
                hi = i;
            } else {
                lo = i;
            }
        }
        Some(lo)
    }

    /// (i, Δx to the interval's start, b_i, c_i, d_i) of `coeff_calc`.
    fn local(&self, x: f64) -> Option<(usize, f64, f64, f64, f64)> {
        let i = self.interval(x)?;
        let dx = self.x[i + 1] - self.x[i];
        let dy = self.y[i + 1] - self.y[i];
        let (c_i, c_ip1) = (self.c[i], self.c[i + 1]);
        let b = (dy / dx) - dx * (c_ip1 + 2.0 * c_i) / 3.0;
        let d = (c_ip1 - c_i) / (3.0 * dx);
        Some((i, x - self.x[i], b, c_i, d))
    }

    /// The spline at `x` (`gsl_spline_eval`); NaN outside the knots, as GSL returns.
    pub fn eval(&self, x: f64) -> f64 {
        match self.local(x) {
            Some((i, delx, b, c, d)) => self.y[i] + delx * (b + delx * (c + delx * d)),
            None => f64::NAN,
        }
    }

    /// The spline's derivative at `x` (`gsl_spline_eval_deriv`); NaN outside the knots.
    pub fn eval_deriv(&self, x: f64) -> f64 {
        match self.local(x) {
            Some((_, delx, b, c, d)) => b + delx * (2.0 * c + 3.0 * d * delx),
            None => f64::NAN,
        }
    }
}

/// `gsl_linalg_solve_symm_tridiag` (`solve_tridiag`): the L·D·Lᵗ factorisation of the
/// symmetric tridiagonal matrix (`diag`, `offdiag`), then the two substitutions.
fn solve_symm_tridiag(diag: &[f64], offdiag: &[f64], b: &[f64]) -> Vec<f64> {
    let n = diag.len();
    let mut gamma = vec![0.0; n];
    let mut alpha = vec![0.0; n];
    alpha[0] = diag[0];
    gamma[0] = offdiag[0] / alpha[0];
    for i in 1..n - 1 {
        alpha[i] = diag[i] - offdiag[i - 1] * gamma[i - 1];
        gamma[i] = offdiag[i] / alpha[i];
    }
    alpha[n - 1] = diag[n - 1] - offdiag[n - 2] * gamma[n - 2];
    let mut z = vec![0.0; n];
    z[0] = b[0];
    for i in 1..n {
        z[i] = b[i] - gamma[i - 1] * z[i - 1];
    }
    let c: Vec<f64> = z.iter().zip(&alpha).map(|(z, a)| z / a).collect();
    let mut x = vec![0.0; n];
    x[n - 1] = c[n - 1];
    for i in (0..n - 1).rev() {
        x[i] = c[i] - gamma[i] * x[i + 1];
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_spline_reproduces_a_cubic_inside_and_is_natural_at_the_ends() {
        // A natural spline through a straight line is the line, derivative included.
        let x: Vec<f64> = (0..7)
            .map(|i| 0.3 * i as f64 + 0.1 * (i * i) as f64)
            .collect();
        let y: Vec<f64> = x.iter().map(|x| 2.0 - 1.5 * x).collect();
        let s = CubicSpline::natural(x.clone(), y).unwrap();
        for &t in &[0.0, 0.05, 0.7, 1.9, x[6]] {
            assert!((s.eval(t) - (2.0 - 1.5 * t)).abs() < 1e-14, "{t}");
            assert!((s.eval_deriv(t) + 1.5).abs() < 1e-13, "{t}");
        }
        assert!(s.eval(-1e-9).is_nan() && s.eval_deriv(x[6] + 1e-9).is_nan());
        // Through sin on a fine grid: interpolation error O(h⁴) away from the ends.
        let x: Vec<f64> = (0..201).map(|i| i as f64 * 0.01).collect();
        let y: Vec<f64> = x.iter().map(|x| x.sin()).collect();
        let s = CubicSpline::natural(x, y).unwrap();
        for &t in &[0.5, 1.005, 1.337] {
            assert!((s.eval(t) - t.sin()).abs() < 1e-9, "{t}");
            assert!((s.eval_deriv(t) - t.cos()).abs() < 1e-6, "{t}");
        }
        assert!(CubicSpline::natural(vec![0.0, 1.0], vec![0.0, 1.0]).is_none());
    }
}
