//! sin and cos of a node's phase (up to ~10³ rad over a few seconds), a few times faster than
//! libm's general `sincos`: Cody–Waite reduction by π/2 in three parts and fdlibm's kernel
//! polynomials (`k_sin.c`, `k_cos.c`; error < 2 ulp for |x| < 2²⁰π/2), libm beyond.
#![allow(clippy::excessive_precision)] // fdlibm's constants as published

/// π/2 in three parts of 33, 33 and 53 bits (fdlibm `e_rem_pio2.c`: pio2_1, pio2_2, pio2_3):
/// k·PIO2_1 and k·PIO2_2 are exact for |k| < 2²⁰.
const PIO2_1: f64 = 1.570_796_326_734_125_614_17;
const PIO2_2: f64 = 6.077_100_506_303_965_976_60e-11;
const PIO2_3: f64 = 2.022_266_248_711_166_455_80e-21;
/// Largest |x| reduced here.
const REDUCTION_LIMIT: f64 = 1_048_576.0 * std::f64::consts::FRAC_PI_2;

/// (sin x, cos x).
#[inline]
pub(super) fn sin_cos(x: f64) -> (f64, f64) {
    if x.is_nan() || x.abs() >= REDUCTION_LIMIT {
        return x.sin_cos();
    }
    // Nearest integer by adding and removing 1.5·2⁵² (exact for |k| < 2⁵¹; `round` is a libm
    // call on the baseline target).
    const SHIFTER: f64 = 6_755_399_441_055_744.0;
    let k = (x * std::f64::consts::FRAC_2_PI + SHIFTER) - SHIFTER;
    let r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    let (s, c) = kernel(r);
    match (k as i64) & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// sin and cos on [−π/4, π/4] (fdlibm's minimax polynomials).
#[inline]
fn kernel(x: f64) -> (f64, f64) {
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
    let z = x * x;
    let rs = S[1] + z * (S[2] + z * (S[3] + z * (S[4] + z * S[5])));
    let sin = x + z * x * (S[0] + z * rs);
    let rc = z * (C[0] + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * C[5])))));
    let cos = 1.0 - (0.5 * z - z * rc);
    (sin, cos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_libm() {
        let mut worst = 0.0_f64;
        for i in 0..200_000 {
            // Quadrant boundaries, small and large arguments, both signs.
            let x = (i as f64 - 1e5) * 0.0123456789 * (1.0 + (i % 7) as f64 * 100.0);
            let (s, c) = sin_cos(x);
            let (s0, c0) = x.sin_cos();
            worst = worst.max((s - s0).abs()).max((c - c0).abs());
        }
        assert!(worst < 5e-16, "{worst:e}");
        for x in [
            0.0,
            -0.0,
            1e-300,
            std::f64::consts::FRAC_PI_4,
            1e7,
            -3e6,
            f64::NAN,
            f64::INFINITY,
        ] {
            let ((s, c), (s0, c0)) = (sin_cos(x), x.sin_cos());
            assert!(s == s0 || (s - s0).abs() < 5e-16 || s.is_nan() && s0.is_nan());
            assert!(c == c0 || (c - c0).abs() < 5e-16 || c.is_nan() && c0.is_nan());
        }
    }
}
