//! Elementary functions on [`Lanes`]: ln, exp, ln(1 + x) and (sin, cos), written lane by lane
//! with plain IEEE operations (no fused multiply-adds, no table look-ups, integer work only on
//! the bits) so that the compiler vectorises them, and so that every target (SSE2, or AVX2
//! where [`crate::model`] dispatches to it at run time) gives the same bits.
//!
//! The algorithms are fdlibm's (as in musl): `e_log.c`, `e_exp.c` and the sine and cosine
//! kernels `k_sin.c`/`k_cos.c` with a three-part Cody–Waite reduction by π/2; ln(1 + x) is
//! ln(u) − ((u − 1) − x)/u with u = 1 + x. Measured against the platform libm (tests below,
//! millions of arguments over the ranges the model uses): ln and exp within 1 ulp, ln(1 + x)
//! within 2 ulp, sin and cos within 5e-16 absolute for |x| < 2²⁰π/2.
//!
//! Arguments outside the fast paths' domains (ln: not a positive normal number; exp: |x| > 700
//! or NaN; sin/cos: |x| ≥ 2²⁰π/2 or NaN) send the whole group of lanes to libm, so results
//! are always defined as libm's or within the bounds above.
#![allow(clippy::excessive_precision)] // fdlibm's constants as published

use crate::scalar::Lanes;

const LN2_HI: f64 = 6.931_471_803_691_238_164_90e-01;
const LN2_LO: f64 = 1.908_214_929_270_587_700_02e-10;
/// 1.5·2⁵²: adding and removing it rounds to the nearest integer (|x| < 2⁵¹), whose value
/// then sits in the low bits.
const SHIFTER: f64 = 6_755_399_441_055_744.0;

/// Each lane's `f`.
#[inline(always)]
fn each<const L: usize>(f: impl Fn(usize) -> f64) -> Lanes<L> {
    Lanes(std::array::from_fn(f))
}

/// Whether `ok` holds in every lane (no short circuit: vectorises).
#[inline(always)]
fn all<const L: usize>(x: &Lanes<L>, ok: impl Fn(f64) -> bool) -> bool {
    x.0.iter().fold(true, |acc, &v| acc & ok(v))
}

/// Natural logarithm (fdlibm `e_log.c`), < 1 ulp.
#[inline(always)]
pub(crate) fn ln<const L: usize>(x: Lanes<L>) -> Lanes<L> {
    const LG: [f64; 7] = [
        6.666_666_666_666_735_130e-01,
        3.999_999_999_940_941_908e-01,
        2.857_142_874_366_239_149e-01,
        2.222_219_843_214_978_396e-01,
        1.818_357_216_161_805_012e-01,
        1.531_383_769_920_937_332e-01,
        1.479_819_860_511_658_591e-01,
    ];
    let normal = |v: f64| (f64::MIN_POSITIVE..f64::INFINITY).contains(&v);
    if !all(&x, normal) {
        return x.map(f64::ln);
    }
    let mut f = [0.0; L];
    let mut dk = [0.0; L];
    for i in 0..L {
        // x = 2^k·(1 + f) with √2/2 < 1 + f < √2.
        let bits = x.0[i].to_bits();
        let hx = (bits >> 32) + (0x3ff0_0000 - 0x3fe6_a09e);
        let e = hx >> 20;
        let m = (((hx & 0x000f_ffff) + 0x3fe6_a09e) << 32) | (bits & 0xffff_ffff);
        f[i] = f64::from_bits(m) - 1.0;
        // k = e − 1023, exactly, through the bits of 2⁵² + e.
        dk[i] = f64::from_bits(0x4330_0000_0000_0000 | e) - (4_503_599_627_370_496.0 + 1023.0);
    }
    each(|i| {
        let (f, dk) = (f[i], dk[i]);
        let hfsq = 0.5 * f * f;
        let s = f / (2.0 + f);
        let z = s * s;
        let w = z * z;
        let t1 = w * (LG[1] + w * (LG[3] + w * LG[5]));
        let t2 = z * (LG[0] + w * (LG[2] + w * (LG[4] + w * LG[6])));
        let r = t2 + t1;
        s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI
    })
}

/// Exponential (fdlibm `e_exp.c`, rounding k to nearest even), < 1 ulp.
#[inline(always)]
pub(crate) fn exp<const L: usize>(x: Lanes<L>) -> Lanes<L> {
    const P: [f64; 5] = [
        1.666_666_666_666_660_190_37e-01,
        -2.777_777_777_701_559_338_42e-03,
        6.613_756_321_437_934_361_17e-05,
        -1.653_390_220_546_525_153_90e-06,
        4.138_136_797_057_238_460_39e-08,
    ];
    if !all(&x, |v| v.abs() <= 700.0) {
        return x.map(f64::exp);
    }
    each(|i| {
        let x = x.0[i];
        let shifted = x * std::f64::consts::LOG2_E + SHIFTER;
        let kf = shifted - SHIFTER;
        let k = shifted.to_bits().wrapping_sub(SHIFTER.to_bits());
        let hi = x - kf * LN2_HI;
        let lo = kf * LN2_LO;
        let r = hi - lo;
        let rr = r * r;
        let c = r - rr * (P[0] + rr * (P[1] + rr * (P[2] + rr * (P[3] + rr * P[4]))));
        let y = 1.0 + (r * c / (2.0 - c) - lo + hi);
        // y·2^k: |k| ≤ 1010 and y ∈ [0.7, 1.5], so the result is normal.
        f64::from_bits(y.to_bits().wrapping_add(k << 52))
    })
}

/// ln(1 + x) for x > −1: ln(u) − ((u − 1) − x)/u with u = 1 + x (the first-order correction
/// of the rounding of u; u − 1 is exact), < 2 ulp.
#[inline(always)]
pub(crate) fn ln_1p<const L: usize>(x: Lanes<L>) -> Lanes<L> {
    if !all(&x, |v| v > -0.5 && v < 1e300) {
        return x.map(f64::ln_1p);
    }
    let u = x + 1.0;
    let log = ln(u);
    each(|i| log.0[i] - ((u.0[i] - 1.0) - x.0[i]) / u.0[i])
}

/// (sin x, cos x): Cody–Waite reduction by π/2 in three parts (fdlibm `e_rem_pio2.c`'s
/// pio2_1, pio2_2, pio2_3; k·pio2_1 and k·pio2_2 are exact for |k| < 2²⁰) and fdlibm's kernel
/// polynomials on [−π/4, π/4].
#[inline(always)]
pub(crate) fn sin_cos<const L: usize>(x: Lanes<L>) -> (Lanes<L>, Lanes<L>) {
    const PIO2_1: f64 = 1.570_796_326_734_125_614_17;
    const PIO2_2: f64 = 6.077_100_506_303_965_976_60e-11;
    const PIO2_3: f64 = 2.022_266_248_711_166_455_80e-21;
    const LIMIT: f64 = 1_048_576.0 * std::f64::consts::FRAC_PI_2;
    const S: [f64; 6] = [
        -1.666_666_666_666_663_243_48e-01,
        8.333_333_333_322_489_461_24e-03,
        -1.984_126_982_985_794_931_34e-04,
        2.755_731_370_707_006_767_89e-06,
        -2.505_076_025_340_686_341_95e-08,
        1.589_690_995_211_550_102_21e-10,
    ];
    const C: [f64; 6] = [
        4.166_666_666_666_660_190_37e-02,
        -1.388_888_888_887_410_957_49e-03,
        2.480_158_728_947_672_941_78e-05,
        -2.755_731_435_139_066_330_35e-07,
        2.087_572_321_298_174_827_90e-09,
        -1.135_964_755_778_819_482_65e-11,
    ];
    if !all(&x, |v| v.abs() < LIMIT) {
        return (x.map(f64::sin), x.map(f64::cos));
    }
    let mut sin = [0.0; L];
    let mut cos = [0.0; L];
    for i in 0..L {
        let shifted = x.0[i] * std::f64::consts::FRAC_2_PI + SHIFTER;
        let k = shifted - SHIFTER;
        let q = shifted.to_bits();
        let r = ((x.0[i] - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
        let z = r * r;
        let rs = S[1] + z * (S[2] + z * (S[3] + z * (S[4] + z * S[5])));
        let s = r + z * r * (S[0] + z * rs);
        let rc = z * (C[0] + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * C[5])))));
        let c = 1.0 - (0.5 * z - z * rc);
        // Quadrant q mod 4: swap for odd q; sin negative for q = 2, 3, cos for q = 1, 2.
        let odd = q & 1 == 1;
        let (s, c) = if odd { (c, s) } else { (s, c) };
        sin[i] = f64::from_bits(s.to_bits() ^ ((q & 2) << 62));
        cos[i] = f64::from_bits(c.to_bits() ^ ((q.wrapping_add(1) & 2) << 62));
    }
    (Lanes(sin), Lanes(cos))
}

/// The lane-wise `sin_cos` of one argument: sin and cos of large phases (~10³ rad) a few times
/// faster than libm's general `sincos`, to the same accuracy.
pub fn sin_cos_f64(x: f64) -> (f64, f64) {
    let (sin, cos) = sin_cos(Lanes([x]));
    (sin.0[0], cos.0[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in units in the last place.
    fn ulps(a: f64, b: f64) -> f64 {
        if a == b {
            return 0.0;
        }
        let ulp = f64::from_bits(b.abs().to_bits() + 1) - b.abs();
        (a - b).abs() / ulp
    }

    /// Deterministic arguments: `n` points spread log-uniformly or uniformly over [lo, hi].
    fn args(n: usize, lo: f64, hi: f64, log: bool) -> impl Iterator<Item = f64> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        (0..n).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            if log {
                (lo.ln() + u * (hi.ln() - lo.ln())).exp()
            } else {
                lo + u * (hi - lo)
            }
        })
    }

    /// Worst ulp distance of `f` on lanes of eight against `g`.
    fn worst_ulps(
        xs: impl Iterator<Item = f64>,
        f: impl Fn(Lanes<8>) -> Lanes<8>,
        g: impl Fn(f64) -> f64,
    ) -> f64 {
        let xs: Vec<f64> = xs.collect();
        let mut worst: f64 = 0.0;
        for chunk in xs.chunks_exact(8) {
            let y = f(Lanes(chunk.try_into().unwrap()));
            for (x, y) in chunk.iter().zip(y.0) {
                worst = worst.max(ulps(y, g(*x)));
            }
        }
        worst
    }

    #[test]
    fn ln_within_one_ulp() {
        // ηt/5 over the inspiral, ω/2, ringdown ratios near 1, and the whole normal range.
        let mut worst: f64 = 0.0;
        for (lo, hi) in [(1e-3, 1e6), (0.5, 2.0), (0.999, 1.001), (1e-300, 1e300)] {
            worst = worst.max(worst_ulps(args(1_000_000, lo, hi, true), ln, f64::ln));
        }
        assert!(worst <= 1.0, "{worst}");
        // Outside the fast path: libm's results.
        let odd = Lanes([0.0, -1.0, f64::NAN, f64::INFINITY, 1e-310, 1.0, 2.0, 3.0]);
        for (x, y) in odd.0.iter().zip(ln(odd).0) {
            assert!(y.to_bits() == x.ln().to_bits() || (y.is_nan() && x.ln().is_nan()));
        }
    }

    #[test]
    fn exp_within_one_ulp() {
        let mut worst: f64 = 0.0;
        for (lo, hi) in [(-1.0, 1.0), (-10.0, 10.0), (-700.0, 700.0), (-1e-9, 1e-9)] {
            worst = worst.max(worst_ulps(args(1_000_000, lo, hi, false), exp, f64::exp));
        }
        assert!(worst <= 1.0, "{worst}");
        let odd = Lanes([0.0, -0.0, 800.0, -800.0, 1.0, 2.0, 3.0, 4.0]);
        for (x, y) in odd.0.iter().zip(exp(odd).0) {
            assert_eq!(y, x.exp());
        }
    }

    #[test]
    fn ln_1p_within_two_ulp() {
        let mut worst: f64 = 0.0;
        for (lo, hi) in [(1e-20, 1.0), (1e-3, 30.0)] {
            worst = worst.max(worst_ulps(args(1_000_000, lo, hi, true), ln_1p, f64::ln_1p));
        }
        worst = worst.max(worst_ulps(
            args(1_000_000, -0.4, 0.4, false),
            ln_1p,
            f64::ln_1p,
        ));
        assert!(worst <= 2.0, "{worst}");
        assert_eq!(ln_1p(Lanes([0.0; 8])).0, [0.0; 8]);
    }

    #[test]
    fn sin_cos_within_5e_16() {
        let mut worst: f64 = 0.0;
        for (lo, hi) in [(-10.0, 10.0), (-1e4, 1e4), (-1.6e6, 1.6e6)] {
            let xs: Vec<f64> = args(1_000_000, lo, hi, false).collect();
            for chunk in xs.chunks_exact(8) {
                let (s, c) = sin_cos(Lanes::<8>(chunk.try_into().unwrap()));
                for (i, x) in chunk.iter().enumerate() {
                    worst = worst
                        .max((s.0[i] - x.sin()).abs())
                        .max((c.0[i] - x.cos()).abs());
                }
            }
        }
        assert!(worst < 5e-16, "{worst:e}");
        // Large arguments fall back to libm.
        let (s, c) = sin_cos(Lanes([1e7, 0.0, -0.0, 1.0, 2.0, 3.0, 4.0, 5.0]));
        assert_eq!((s.0[0], c.0[0]), (1e7f64.sin(), 1e7f64.cos()));
        assert_eq!((s.0[1], c.0[1]), (0.0, 1.0));
        // One argument at a time, special values included.
        for x in [
            -3e6,
            1e-300,
            std::f64::consts::FRAC_PI_4,
            7.5,
            f64::INFINITY,
            f64::NAN,
        ] {
            let ((s, c), (s0, c0)) = (sin_cos_f64(x), x.sin_cos());
            assert!((s - s0).abs() < 5e-16 || s.is_nan() && s0.is_nan(), "{x}");
            assert!((c - c0).abs() < 5e-16 || c.is_nan() && c0.is_nan(), "{x}");
        }
    }
}
