//! The scalar type the model is written in.
//!
//! Every formula of the model is generic over [`Real`], so that the same code gives plain `f64`
//! values and forward-mode derivatives through [`Dual`]. Constants enter as `f64`
//! (`x * 2.0`, `T::from(2.0) / x`): with `T = f64` this is exactly the C arithmetic of LAL.
//!
//! Why our own dual number rather than `num-dual`: the value part of a dual evaluation must be
//! bit-identical to the `f64` evaluation. LAL's set-up takes finite differences with steps of
//! 1e-7, which amplify one-ulp differences by ~1e9 (docs/imrphenomt.md §9.2, §10.1), and `num-dual`
//! computes the value of `a / b` as `a · (1/b)`. Here every value part is computed with exactly
//! the `f64` operation, and derivative parts follow by the chain rule.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// The arithmetic of [`Real`] without its functions: what the crate's code that also runs
/// element-wise on several times at once needs.
pub trait Arith:
    Copy
    + From<f64>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
{
}

impl Arith for f64 {}
impl<const N: usize> Arith for Dual<N> {}
impl<const L: usize> Arith for Lanes<L> {}

/// `L` independent `f64` under element-wise arithmetic: a polynomial of the model at `L`
/// times at once, which the compiler vectorises, each lane with exactly the `f64` operations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Lanes<const L: usize>(pub [f64; L]);

impl<const L: usize> Lanes<L> {
    /// `f` of each lane.
    #[inline]
    pub(crate) fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Self(self.0.map(f))
    }
    #[inline]
    fn zip(self, o: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        Self(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }
    /// `x` in the first lane, zero in the others: an accumulator that continues a sum `x`.
    #[inline]
    pub(crate) fn first(x: f64) -> Self {
        Self(std::array::from_fn(|i| if i == 0 { x } else { 0.0 }))
    }
    /// The sum of the lanes.
    #[inline]
    pub(crate) fn sum(self) -> f64 {
        self.0.iter().sum()
    }
}

impl<const L: usize> From<f64> for Lanes<L> {
    #[inline]
    fn from(x: f64) -> Self {
        Self([x; L])
    }
}

impl<const L: usize> Neg for Lanes<L> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        self.map(|a| -a)
    }
}

/// Element-wise `Lanes ∘ Lanes` and `Lanes ∘ f64`.
macro_rules! lanes_op {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const L: usize> $trait for Lanes<L> {
            type Output = Self;
            #[inline]
            fn $method(self, o: Self) -> Self {
                self.zip(o, |a, b| a $op b)
            }
        }
        impl<const L: usize> $trait<f64> for Lanes<L> {
            type Output = Self;
            #[inline]
            fn $method(self, o: f64) -> Self {
                self.map(|a| a $op o)
            }
        }
    };
}
lanes_op!(Add, add, +);
lanes_op!(Sub, sub, -);
lanes_op!(Mul, mul, *);
lanes_op!(Div, div, /);

/// `x ∘= y` as `x = x ∘ y`, for [`Lanes`] and [`Dual`].
macro_rules! assign_op {
    ($ty:ident<$n:ident>, $trait:ident, $method:ident, $op:tt) => {
        impl<const $n: usize> $trait for $ty<$n> {
            #[inline]
            fn $method(&mut self, o: Self) {
                *self = *self $op o;
            }
        }
    };
}
assign_op!(Lanes<L>, AddAssign, add_assign, +);
assign_op!(Lanes<L>, SubAssign, sub_assign, -);

/// [`Arith`] with what the reverse mode needs: accumulation, √ and the sign of |x|'s
/// derivative. On `f64` for one time, on [`Lanes`] for several at once.
pub(crate) trait ReverseArith: Arith + AddAssign + SubAssign {
    fn sqrt(self) -> Self;
    /// `self`·sgn(`x`) with sgn(0) = 1: the chain rule through |x|.
    fn times_sign_of(self, x: Self) -> Self;
}

impl ReverseArith for f64 {
    #[inline]
    fn sqrt(self) -> Self {
        f64::sqrt(self)
    }
    #[inline]
    fn times_sign_of(self, x: Self) -> Self {
        if x < 0.0 {
            -self
        } else {
            self
        }
    }
}

impl<const L: usize> ReverseArith for Lanes<L> {
    #[inline]
    fn sqrt(self) -> Self {
        self.map(f64::sqrt)
    }
    #[inline]
    fn times_sign_of(self, x: Self) -> Self {
        self.zip(x, |a, x| a.times_sign_of(x))
    }
}

/// A real scalar: `f64` itself, or a [`Dual`] number over `f64`.
///
/// The elementary functions mirror `f64`'s (and so the platform libm); `lift` applies the chain
/// rule for a function whose value and derivative were computed in `f64`.
pub trait Real:
    Arith + Debug + AddAssign + SubAssign + MulAssign + PartialEq + PartialOrd + Send + Sync + 'static
{
    /// Whether the scalar carries derivatives (work done only for them is skipped for `f64`).
    const DERIVATIVES: bool = true;
    /// The value part.
    fn re(self) -> f64;
    /// `f0` with derivative part `f1 · ∂self`: the chain rule for a function whose value `f0`
    /// and derivative `f1` at `self.re()` were computed in `f64`.
    fn lift(self, f0: f64, f1: f64) -> Self;

    #[inline]
    fn powf(self, n: f64) -> Self {
        let x = self.re();
        let p = x.powf(n);
        // d/dx x^n = n x^(n-1) = n x^n / x; at x = 0 (n ≥ 1) from x^(n-1), which is finite.
        let dp = if n == 0.0 {
            0.0
        } else if x == 0.0 {
            n * x.powf(n - 1.0)
        } else {
            n * p / x
        };
        self.lift(p, dp)
    }
    #[inline]
    fn sqrt(self) -> Self {
        let s = self.re().sqrt();
        self.lift(s, 0.5 / s)
    }
    #[inline]
    fn exp(self) -> Self {
        let e = self.re().exp();
        self.lift(e, e)
    }
    #[inline]
    fn ln(self) -> Self {
        let x = self.re();
        self.lift(x.ln(), 1.0 / x)
    }
    /// ln(1 + x), accurate for small x.
    #[inline]
    fn ln_1p(self) -> Self {
        let x = self.re();
        self.lift(x.ln_1p(), 1.0 / (1.0 + x))
    }
    /// (sin, cos), computed together.
    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.re().sin_cos();
        (self.lift(s, c), self.lift(c, -s))
    }
    #[inline]
    fn sin(self) -> Self {
        let (s, c) = self.re().sin_cos();
        self.lift(s, c)
    }
    #[inline]
    fn cos(self) -> Self {
        let (s, c) = self.re().sin_cos();
        self.lift(c, -s)
    }
    #[inline]
    fn sinh(self) -> Self {
        let x = self.re();
        self.lift(x.sinh(), x.cosh())
    }
    #[inline]
    fn cosh(self) -> Self {
        let x = self.re();
        self.lift(x.cosh(), x.sinh())
    }
    #[inline]
    fn tanh(self) -> Self {
        let t = self.re().tanh();
        self.lift(t, 1.0 - t * t)
    }
    #[inline]
    fn asinh(self) -> Self {
        let x = self.re();
        self.lift(x.asinh(), 1.0 / (1.0 + x * x).sqrt())
    }
    /// arccos, in [0, π] (the derivative is infinite at ±1).
    #[inline]
    fn acos(self) -> Self {
        let x = self.re();
        self.lift(x.acos(), -1.0 / (1.0 - x * x).sqrt())
    }
    #[inline]
    fn abs(self) -> Self {
        if self.re() < 0.0 {
            -self
        } else {
            self
        }
    }
    /// `atan2(self, x)`, the argument of the complex number `x + i·self`.
    fn atan2(self, x: Self) -> Self;
    /// `sqrt(self² + y²)` as libm's `hypot` computes it.
    fn hypot(self, y: Self) -> Self;
}

/// [`Real`]'s functions of `f64` as `f64`'s own.
macro_rules! f64_functions {
    ($($f:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            #[inline]
            fn $f(self $(, $arg: $ty)*) -> $ret {
                f64::$f(self $(, $arg)*)
            }
        )*
    };
}

impl Real for f64 {
    const DERIVATIVES: bool = false;
    #[inline]
    fn re(self) -> f64 {
        self
    }
    #[inline]
    fn lift(self, f0: f64, _f1: f64) -> Self {
        f0
    }
    f64_functions! {
        powf(n: f64) -> Self;
        sqrt() -> Self;
        exp() -> Self;
        ln() -> Self;
        ln_1p() -> Self;
        sin_cos() -> (Self, Self);
        sin() -> Self;
        cos() -> Self;
        sinh() -> Self;
        cosh() -> Self;
        tanh() -> Self;
        asinh() -> Self;
        acos() -> Self;
        abs() -> Self;
        atan2(x: Self) -> Self;
        hypot(y: Self) -> Self;
    }
}

/// A forward-mode dual number with `N` derivative directions: `re + Σ eps[k]·ε_k`.
///
/// Value parts are computed with exactly the `f64` operations, so `Dual::re` of any
/// computation equals the same computation in `f64`, bit for bit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<const N: usize> {
    /// Value.
    pub re: f64,
    /// Derivatives with respect to the `N` seeded variables.
    pub eps: [f64; N],
}

impl<const N: usize> Dual<N> {
    /// A constant (all derivatives zero).
    #[inline]
    pub const fn constant(re: f64) -> Self {
        Self { re, eps: [0.0; N] }
    }
    /// The `k`-th independent variable with value `re`.
    #[inline]
    pub fn variable(re: f64, k: usize) -> Self {
        let mut eps = [0.0; N];
        eps[k] = 1.0;
        Self { re, eps }
    }
    /// This number's derivatives, taken in `N` intermediate variables, carried by the chain rule
    /// to the `M` directions of those variables' own derivatives (`inner`, their values
    /// unused): a function evaluated in few directions and then expanded costs less than the
    /// same function in many.
    #[inline]
    pub fn chain<const M: usize>(self, inner: &[Dual<M>; N]) -> Dual<M> {
        let mut eps = [0.0; M];
        for (d, variable) in self.eps.iter().zip(inner) {
            for (e, v) in eps.iter_mut().zip(variable.eps) {
                *e += d * v;
            }
        }
        Dual { re: self.re, eps }
    }
    #[inline]
    fn map_eps(self, f: impl Fn(f64) -> f64) -> [f64; N] {
        let mut eps = self.eps;
        for e in &mut eps {
            *e = f(*e);
        }
        eps
    }
    #[inline]
    fn zip_eps(self, other: Self, f: impl Fn(f64, f64) -> f64) -> [f64; N] {
        let mut eps = self.eps;
        for (e, o) in eps.iter_mut().zip(other.eps) {
            *e = f(*e, o);
        }
        eps
    }
}

impl<const N: usize> From<f64> for Dual<N> {
    #[inline]
    fn from(re: f64) -> Self {
        Self::constant(re)
    }
}

impl<const N: usize> PartialOrd for Dual<N> {
    /// Orders by value part only.
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        self.re.partial_cmp(&other.re)
    }
}

/// `Dual ± Dual`, part by part, and `Dual ± f64`, on the value part.
macro_rules! dual_add_sub {
    ($trait:ident, $method:ident, $op:tt) => {
        impl<const N: usize> $trait for Dual<N> {
            type Output = Self;
            #[inline]
            fn $method(self, o: Self) -> Self {
                Self {
                    re: self.re $op o.re,
                    eps: self.zip_eps(o, |a, b| a $op b),
                }
            }
        }
        impl<const N: usize> $trait<f64> for Dual<N> {
            type Output = Self;
            #[inline]
            fn $method(self, o: f64) -> Self {
                Self {
                    re: self.re $op o,
                    eps: self.eps,
                }
            }
        }
    };
}
dual_add_sub!(Add, add, +);
dual_add_sub!(Sub, sub, -);
impl<const N: usize> Mul for Dual<N> {
    type Output = Self;
    /// The product rule, d(ab) = a·db + b·da, has a `+`.
    #[allow(clippy::suspicious_arithmetic_impl)]
    #[inline]
    fn mul(self, o: Self) -> Self {
        Self {
            re: self.re * o.re,
            eps: self.zip_eps(o, |a, b| a * o.re + self.re * b),
        }
    }
}
impl<const N: usize> Div for Dual<N> {
    type Output = Self;
    #[inline]
    fn div(self, o: Self) -> Self {
        let q = self.re / o.re;
        let inv = 1.0 / o.re;
        Self {
            re: q,
            eps: self.zip_eps(o, |a, b| (a - q * b) * inv),
        }
    }
}
impl<const N: usize> Neg for Dual<N> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Self {
            re: -self.re,
            eps: self.map_eps(|a| -a),
        }
    }
}
impl<const N: usize> Mul<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn mul(self, o: f64) -> Self {
        Self {
            re: self.re * o,
            eps: self.map_eps(|a| a * o),
        }
    }
}
impl<const N: usize> Div<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn div(self, o: f64) -> Self {
        let inv = 1.0 / o;
        Self {
            re: self.re / o,
            eps: self.map_eps(|a| a * inv),
        }
    }
}
assign_op!(Dual<N>, AddAssign, add_assign, +);
assign_op!(Dual<N>, SubAssign, sub_assign, -);
assign_op!(Dual<N>, MulAssign, mul_assign, *);

impl<const N: usize> Real for Dual<N> {
    #[inline]
    fn re(self) -> f64 {
        self.re
    }
    #[inline]
    fn lift(self, f0: f64, f1: f64) -> Self {
        Self {
            re: f0,
            eps: self.map_eps(|a| a * f1),
        }
    }
    #[inline]
    fn atan2(self, x: Self) -> Self {
        // d atan2(y, x) = (x dy − y dx) / (x² + y²)
        let r2 = x.re * x.re + self.re * self.re;
        Self {
            re: self.re.atan2(x.re),
            eps: self.zip_eps(x, |dy, dx| (x.re * dy - self.re * dx) / r2),
        }
    }
    #[inline]
    fn hypot(self, y: Self) -> Self {
        let h = self.re.hypot(y.re);
        Self {
            re: h,
            eps: self.zip_eps(y, |dx, dy| (self.re * dx + y.re * dy) / h),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Central finite difference of a scalar function.
    fn fd(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
        (f(x + h) - f(x - h)) / (2.0 * h)
    }

    #[test]
    fn dual_values_are_bit_identical_to_f64() {
        fn expr<T: Real>(x: T, y: T) -> T {
            (x / y + x.powf(1.0 / 3.0) * y.sqrt() - (x * 2.0).asinh() / y.exp()).tanh()
                + x.atan2(y).cosh()
        }
        let (x, y) = (0.3_f64, 1.7_f64);
        let d = expr(Dual::<2>::variable(x, 0), Dual::<2>::variable(y, 1));
        assert_eq!(d.re.to_bits(), expr(x, y).to_bits());
        let dx = fd(|x| expr(x, y), x, 1e-6);
        let dy = fd(|y| expr(x, y), y, 1e-6);
        assert!(
            (d.eps[0] - dx).abs() < 1e-8 * dx.abs().max(1.0),
            "{} vs {dx}",
            d.eps[0]
        );
        assert!(
            (d.eps[1] - dy).abs() < 1e-8 * dy.abs().max(1.0),
            "{} vs {dy}",
            d.eps[1]
        );
    }

    /// f(g(x, y)) through two intermediate variables equals f∘g in two directions.
    #[test]
    fn chain_rule_through_intermediate_variables() {
        fn inner<T: Real>(x: T, y: T) -> [T; 2] {
            [x * y.sin(), (x - y).exp()]
        }
        fn outer<T: Real>([u, v]: [T; 2]) -> T {
            u.atan2(v) * u.sqrt()
        }
        let (x, y) = (2.0, 1.0);
        let direct = outer(inner(Dual::<2>::variable(x, 0), Dual::<2>::variable(y, 1)));
        let g = inner(Dual::<2>::variable(x, 0), Dual::<2>::variable(y, 1));
        let f = outer([
            Dual::<2>::variable(g[0].re, 0),
            Dual::<2>::variable(g[1].re, 1),
        ]);
        let chained = f.chain(&g);
        assert_eq!(chained.re.to_bits(), direct.re.to_bits());
        for k in 0..2 {
            let scale = direct.eps[k].abs().max(1.0);
            let error = (chained.eps[k] - direct.eps[k]).abs() / scale;
            assert!(error < 1e-13, "direction {k}: {error:e}");
            assert!(
                direct.eps[k].abs() > 0.1,
                "a derivative that can vanish tests nothing"
            );
        }
    }
}
