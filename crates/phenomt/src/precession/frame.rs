//! Rotations as unit quaternions, and their Wigner D-matrices for 2 ≤ l ≤ 5, for the smooth
//! variant of IMRPhenomTPHM (docs/precession.md §4.9, §5.2): the co-precessing frame is built
//! from the orbit's vectors (L̂, Ê1) rather than from Euler angles, so that nothing is singular
//! at β = 0 and no angle is unwrapped.
//!
//! **Conventions** (those of [`super::rotation`]): for R = R_z(α) R_y(β) R_z(γ) (active),
//! D^l_{mm'}(R) = e^(−imα) d^l_{mm'}(β) e^(−im'γ), so that the twist of `rotation` is
//! h^J_lm = Σ_m' D^l_{mm'}(R) h^P_lm', and D(R₁R₂) = D(R₁)D(R₂). With the quaternion
//! q = w + xi + yj + zk of R and R_a = w + iz, R_b = y + ix,
//!
//!   R_a = cos(β/2) e^(i(α+γ)/2),   R_b = sin(β/2) e^(i(γ−α)/2),
//!
//! and each term c·cos^a(β/2) sin^b(β/2) of Wigner's sum for d^l_{mm'} (b = m − m' + 2k) becomes
//! c·R_a^(l−m−k) conj(R_a)^(l+m'−k) R_b^(m−m'+k) conj(R_b)^k, a polynomial in (w, x, y, z). It is
//! even in q, so q and −q give the same matrices. [`WignerD::get`] sums it as a phase times real
//! powers of |R_a|² and |R_b|² (docs/precession.md §11, "Frame").

use super::rotation::{wigner_terms, L_MAX};
use crate::scalar::Real;

/// A complex number as (re, im).
type Complex<T> = (T, T);

#[inline]
fn cmul<T: Real>(a: Complex<T>, b: Complex<T>) -> Complex<T> {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

#[inline]
fn dot<T: Real>(a: [T; 3], b: [T; 3]) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
fn cross<T: Real>(a: [T; 3], b: [T; 3]) -> [T; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// A rotation as a unit quaternion q = w + xi + yj + zk, acting on vectors as v ↦ q v q*.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rotation<T> {
    pub w: T,
    pub x: T,
    pub y: T,
    pub z: T,
}

impl<T: Real> Rotation<T> {
    /// The rotation by `angle` (right-handed) about the unit vector `axis`.
    pub fn about_axis(axis: [T; 3], angle: T) -> Self {
        let (sin, cos) = (angle * 0.5).sin_cos();
        Self {
            w: cos,
            x: axis[0] * sin,
            y: axis[1] * sin,
            z: axis[2] * sin,
        }
    }

    /// R_z(α) R_y(β) R_z(γ).
    pub fn from_euler(alpha: T, beta: T, gamma: T) -> Self {
        let (zero, one) = (T::from(0.0), T::from(1.0));
        let z = [zero, zero, one];
        Self::about_axis(z, alpha)
            .then(&Self::about_axis([zero, one, zero], beta))
            .then(&Self::about_axis(z, gamma))
    }

    /// The product `self`·`other`: `other` first, then `self` (as matrices, R_self R_other).
    pub fn then(&self, other: &Self) -> Self {
        let (a, b) = (self, other);
        Self {
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        }
    }

    /// The inverse rotation.
    pub fn inverse(&self) -> Self {
        Self {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }

    /// The rotation matrix, `m[i][j]` = component i of the image of axis j.
    pub fn matrix(&self) -> [[T; 3]; 3] {
        let Self { w, x, y, z } = *self;
        let one = T::from(1.0);
        [
            [
                one - (y * y + z * z) * 2.0,
                (x * y - w * z) * 2.0,
                (x * z + w * y) * 2.0,
            ],
            [
                (x * y + w * z) * 2.0,
                one - (x * x + z * z) * 2.0,
                (y * z - w * x) * 2.0,
            ],
            [
                (x * z - w * y) * 2.0,
                (y * z + w * x) * 2.0,
                one - (x * x + y * y) * 2.0,
            ],
        ]
    }

    /// The quaternion of a rotation matrix (`m[i][j]` = component i of the image of axis j),
    /// by Shepperd's method: the largest of 1 + trace and 1 + 2m_ii − trace under the square
    /// root, so that no division is by a small number. The branches are the same smooth
    /// function up to the sign of q, which the Wigner matrices do not see.
    pub fn from_matrix(m: [[T; 3]; 3]) -> Self {
        let trace = m[0][0] + m[1][1] + m[2][2];
        let candidates = [trace.re(), m[0][0].re(), m[1][1].re(), m[2][2].re()];
        let largest = (0..4)
            .max_by(|&a, &b| candidates[a].total_cmp(&candidates[b]))
            .expect("four candidates");
        let one = T::from(1.0);
        match largest {
            0 => {
                let w = (trace + 1.0).sqrt() * 0.5;
                let f = one / (w * 4.0);
                Self {
                    w,
                    x: (m[2][1] - m[1][2]) * f,
                    y: (m[0][2] - m[2][0]) * f,
                    z: (m[1][0] - m[0][1]) * f,
                }
            }
            1 => {
                let x = (m[0][0] * 2.0 - trace + 1.0).sqrt() * 0.5;
                let f = one / (x * 4.0);
                Self {
                    w: (m[2][1] - m[1][2]) * f,
                    x,
                    y: (m[0][1] + m[1][0]) * f,
                    z: (m[0][2] + m[2][0]) * f,
                }
            }
            2 => {
                let y = (m[1][1] * 2.0 - trace + 1.0).sqrt() * 0.5;
                let f = one / (y * 4.0);
                Self {
                    w: (m[0][2] - m[2][0]) * f,
                    x: (m[0][1] + m[1][0]) * f,
                    y,
                    z: (m[1][2] + m[2][1]) * f,
                }
            }
            _ => {
                let z = (m[2][2] * 2.0 - trace + 1.0).sqrt() * 0.5;
                let f = one / (z * 4.0);
                Self {
                    w: (m[1][0] - m[0][1]) * f,
                    x: (m[0][2] + m[2][0]) * f,
                    y: (m[1][2] + m[2][1]) * f,
                    z,
                }
            }
        }
    }

    /// The rotation whose matrix has the columns [ê1 | ẑ'×ê1 | ẑ'], with ẑ' = `z_axis`/|`z_axis`|
    /// and ê1 the unit part of `x_axis` orthogonal to ẑ' (Gram–Schmidt): the co-precessing frame
    /// of (L̂, Ê1) (docs/precession.md §4.9). Neither needs to be normalised.
    pub fn from_frame(z_axis: [T; 3], x_axis: [T; 3]) -> Self {
        let l_norm = dot(z_axis, z_axis).sqrt();
        let l = z_axis.map(|c| c / l_norm);
        let along = dot(x_axis, l);
        let e1: [T; 3] = std::array::from_fn(|i| x_axis[i] - along * l[i]);
        let e1_norm = dot(e1, e1).sqrt();
        let e1 = e1.map(|c| c / e1_norm);
        let e2 = cross(l, e1);
        Self::from_matrix([
            [e1[0], e2[0], l[0]],
            [e1[1], e2[1], l[1]],
            [e1[2], e2[2], l[2]],
        ])
    }

    /// The Wigner D-matrices of this rotation for 2 ≤ l ≤ [`L_MAX`].
    pub fn wigner(&self) -> WignerD<T> {
        WignerD::new(self)
    }
}

/// The Wigner D-matrices D^l_{mm'}(R) = e^(−imα) d^l_{mm'}(β) e^(−im'γ) of a rotation, for
/// 2 ≤ l ≤ [`L_MAX`], evaluated per entry from the quaternion (see the module's notes).
#[derive(Clone, Debug)]
pub struct WignerD<T> {
    /// R_a^k and R_b^k for 0 ≤ k ≤ 2·[`L_MAX`].
    ra: [Complex<T>; 2 * L_MAX as usize + 1],
    rb: [Complex<T>; 2 * L_MAX as usize + 1],
    /// |R_a|^(2k) and |R_b|^(2k) for 0 ≤ k ≤ [`L_MAX`].
    ra_norm: [T; L_MAX as usize + 1],
    rb_norm: [T; L_MAX as usize + 1],
}

impl<T: Real> WignerD<T> {
    fn new(q: &Rotation<T>) -> Self {
        let powers = |c: Complex<T>| {
            let mut p = [(T::from(1.0), T::from(0.0)); 2 * L_MAX as usize + 1];
            for k in 1..p.len() {
                p[k] = cmul(p[k - 1], c);
            }
            p
        };
        let real_powers = |x: T| {
            let mut p = [T::from(1.0); L_MAX as usize + 1];
            for k in 1..p.len() {
                p[k] = p[k - 1] * x;
            }
            p
        };
        Self {
            ra: powers((q.w, q.z)),
            rb: powers((q.y, q.x)),
            ra_norm: real_powers(q.w * q.w + q.z * q.z),
            rb_norm: real_powers(q.y * q.y + q.x * q.x),
        }
    }

    /// D^l_{mm'} as (re, im). Panics unless 2 ≤ l ≤ [`L_MAX`] and |m|, |m'| ≤ l.
    ///
    /// In every term R_a^(l−m−k) conj(R_a)^(l+m'−k) the powers differ by −m − m', and in
    /// R_b^(m−m'+k) conj(R_b)^k by m − m', whatever k: each term is the entry's phase
    /// R_a^(−m−m') R_b^(m−m') (a negative power meaning the conjugate's) times
    /// |R_a|^(a − |m+m'|) |R_b|^(b − |m−m'|) for the term's powers a of cos(β/2) and b of
    /// sin(β/2), so the sum over k is real (a tenth of the complex sum's arithmetic).
    pub fn get(&self, l: u32, m: i32, mp: i32) -> (T, T) {
        let (to_a, to_b) = ((m + mp).unsigned_abs(), (m - mp).unsigned_abs());
        let mut sum = T::from(0.0);
        for (c, cos_power, sin_power) in wigner_terms(l, m, mp) {
            let a = self.ra_norm[(cos_power - to_a as usize) / 2];
            let b = self.rb_norm[(sin_power - to_b as usize) / 2];
            sum += a * b * c;
        }
        let phase = cmul(
            signed_power(&self.ra, -m - mp),
            signed_power(&self.rb, m - mp),
        );
        (phase.0 * sum, phase.1 * sum)
    }

    /// The columns m′ and −m′ of D^l, (D^l_{mm′}, D^l_{m,−m′}) at index m + l for −l ≤ m ≤ l
    /// (the rest zero): the second from the first through the conjugation symmetry
    /// D^l_{m,−m′} = (−1)^(m+m′) conj(D^l_{−m,m′}), at half the cost of both.
    pub fn column_pair(&self, l: u32, mp: i32) -> [[Complex<T>; 2]; 2 * L_MAX as usize + 1] {
        let width = 2 * l as usize + 1;
        let zero = (T::from(0.0), T::from(0.0));
        let mut column = [zero; 2 * L_MAX as usize + 1];
        for (i, entry) in column.iter_mut().take(width).enumerate() {
            *entry = self.get(l, i as i32 - l as i32, mp);
        }
        let mut pairs = [[zero; 2]; 2 * L_MAX as usize + 1];
        for (i, pair) in pairs.iter_mut().take(width).enumerate() {
            let m = i as i32 - l as i32;
            let partner = column[width - 1 - i];
            let sign = if (m + mp) % 2 == 0 { 1.0 } else { -1.0 };
            *pair = [column[i], (partner.0 * sign, -(partner.1 * sign))];
        }
        pairs
    }
}

/// c^k from the powers of c, for k < 0 the conjugate's: conj(c)^|k|, which is c^k when |c| = 1.
fn signed_power<T: Real>(powers: &[Complex<T>], k: i32) -> Complex<T> {
    let (re, im) = powers[k.unsigned_abs() as usize];
    if k >= 0 {
        (re, im)
    } else {
        (re, -im)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precession::rotation::{Wigner, WignerSmallD};
    use crate::scalar::Dual;

    const ANGLES: [(f64, f64, f64); 6] = [
        (0.3, 0.0, -1.2),
        (0.3, 1e-7, -1.2),
        (-2.0, 0.7, 0.4),
        (1.0, std::f64::consts::FRAC_PI_2, 2.9),
        (2.5, 2.8, -0.1),
        (0.1, std::f64::consts::PI, 0.5),
    ];

    /// D from the quaternion equals e^(−imα) d^l_{mm'}(β) e^(−im'γ) with rotation.rs's d.
    #[test]
    fn wigner_d_matches_euler_angles() {
        let mut worst = 0.0_f64;
        for (alpha, beta, gamma) in ANGLES {
            let d = WignerSmallD::new((beta / 2.0).cos(), (beta / 2.0).sin(), Wigner::Exact);
            let big = Rotation::from_euler(alpha, beta, gamma).wigner();
            for l in 2..=L_MAX {
                let li = l as i32;
                for m in -li..=li {
                    for mp in -li..=li {
                        let phase = -(f64::from(m) * alpha + f64::from(mp) * gamma);
                        let expected =
                            (phase.cos() * d.get(l, m, mp), phase.sin() * d.get(l, m, mp));
                        let got = big.get(l, m, mp);
                        worst = worst.max((got.0 - expected.0).hypot(got.1 - expected.1));
                    }
                }
            }
        }
        assert!(worst < 1e-14, "{worst:e}");
    }

    /// The column pair (m′, −m′) equals the entries themselves, the second column taken through
    /// the conjugation symmetry.
    #[test]
    fn column_pairs_are_the_entries() {
        let mut worst = 0.0_f64;
        for (alpha, beta, gamma) in ANGLES {
            let d = Rotation::from_euler(alpha, beta, gamma).wigner();
            for l in 2..=L_MAX {
                let li = l as i32;
                for mp in 0..=li {
                    let pairs = d.column_pair(l, mp);
                    for m in -li..=li {
                        let [plus, minus] = pairs[(m + li) as usize];
                        for (got, expected) in [(plus, d.get(l, m, mp)), (minus, d.get(l, m, -mp))]
                        {
                            worst = worst.max((got.0 - expected.0).hypot(got.1 - expected.1));
                        }
                    }
                }
            }
        }
        assert!(worst < 1e-14, "{worst:e}");
    }

    /// D(R₁R₂) = D(R₁)D(R₂), and −q gives the same D.
    #[test]
    fn wigner_d_is_a_representation() {
        let r1 = Rotation::from_euler(0.4, 1.1, -0.3);
        let r2 = Rotation::from_euler(-1.7, 2.2, 0.9);
        let (d1, d2, d12) = (r1.wigner(), r2.wigner(), r1.then(&r2).wigner());
        let minus = Rotation {
            w: -r1.w,
            x: -r1.x,
            y: -r1.y,
            z: -r1.z,
        }
        .wigner();
        let mut worst = 0.0_f64;
        for l in 2..=L_MAX {
            let li = l as i32;
            for m in -li..=li {
                for mp in -li..=li {
                    let mut sum = (0.0, 0.0);
                    for k in -li..=li {
                        let t = cmul(d1.get(l, m, k), d2.get(l, k, mp));
                        sum = (sum.0 + t.0, sum.1 + t.1);
                    }
                    let direct = d12.get(l, m, mp);
                    worst = worst.max((sum.0 - direct.0).hypot(sum.1 - direct.1));
                    let (a, b) = (d1.get(l, m, mp), minus.get(l, m, mp));
                    worst = worst.max((a.0 - b.0).hypot(a.1 - b.1));
                }
            }
        }
        assert!(worst < 1e-13, "{worst:e}");
    }

    /// The matrix round trip, through every branch of Shepperd's method.
    #[test]
    fn matrix_round_trip() {
        for (alpha, beta, gamma) in ANGLES.into_iter().chain([(0.0, 0.0, 0.0), (3.0, 0.1, 0.1)]) {
            let q = Rotation::from_euler(alpha, beta, gamma);
            let back = Rotation::from_matrix(q.matrix());
            let sign = if back.w * q.w + back.x * q.x + back.y * q.y + back.z * q.z < 0.0 {
                -1.0
            } else {
                1.0
            };
            let d = [
                back.w * sign - q.w,
                back.x * sign - q.x,
                back.y * sign - q.y,
                back.z * sign - q.z,
            ];
            assert!(
                d.iter().all(|x| x.abs() < 1e-15),
                "{alpha} {beta} {gamma}: {d:?}"
            );
            // The frame of the matrix's third and first columns is the same rotation.
            let m = q.matrix();
            let f = Rotation::from_frame(
                [m[0][2] * 3.0, m[1][2] * 3.0, m[2][2] * 3.0],
                [
                    m[0][0] + 0.1 * m[0][2],
                    m[1][0] + 0.1 * m[1][2],
                    m[2][0] + 0.1 * m[2][2],
                ],
            );
            let fm = f.matrix();
            for i in 0..3 {
                for j in 0..3 {
                    assert!((fm[i][j] - m[i][j]).abs() < 1e-14);
                }
            }
        }
    }

    /// Dual derivatives of D through the frame construction, against central differences, at
    /// β = 0 too (where Euler angles are singular).
    #[test]
    fn wigner_d_differentiates_at_beta_zero() {
        let at = |p: f64| {
            let p = Dual::<1>::variable(p, 0);
            let c = Dual::constant;
            Rotation::from_frame([p * 0.3, p * p * 0.2, c(1.0)], [c(1.0), p * 0.5, c(0.0)])
                .wigner()
                .get(3, 1, -2)
        };
        for p in [0.0, 0.2] {
            let h = 1e-5;
            let d = at(p);
            let fd_re = (at(p + h).0.re - at(p - h).0.re) / (2.0 * h);
            let fd_im = (at(p + h).1.re - at(p - h).1.re) / (2.0 * h);
            assert!(
                (d.0.eps[0] - fd_re).abs() < 1e-8,
                "{p}: {} {fd_re}",
                d.0.eps[0]
            );
            assert!(
                (d.1.eps[0] - fd_im).abs() < 1e-8,
                "{p}: {} {fd_im}",
                d.1.eps[0]
            );
        }
    }
}
