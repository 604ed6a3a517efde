//! How numbers are shown to people (summary table, plot titles and ticks): as many decimals as
//! the spread of the quantity warrants.

/// Decimals that show a spread of `width` to `digits` significant digits (0…10 decimals); for
/// a zero or non-finite width, enough to show `value` to six significant digits.
pub fn decimals_for(width: f64, value: f64, digits: i32) -> usize {
    let scale = if width.is_finite() && width > 0.0 {
        width / 10f64.powi(digits - 1)
    } else if value.is_finite() && value != 0.0 {
        value.abs() / 1e5
    } else {
        1.0
    };
    (-scale.log10().floor()).clamp(0.0, 10.0) as usize
}

/// `value` with `decimals` decimals; `NaN`, `inf`, `-inf` as such.
pub fn fixed(value: f64, decimals: usize) -> String {
    if value.is_finite() {
        format!("{value:.decimals$}")
    } else {
        format!("{value}")
    }
}

/// `value` to `digits` significant digits: fixed-point for magnitudes in [1e-3, 1e5), otherwise
/// in scientific notation.
pub fn significant(value: f64, digits: usize) -> String {
    let magnitude = value.abs();
    if value == 0.0 || !value.is_finite() || (1e-3..1e5).contains(&magnitude) {
        let leading = if magnitude > 0.0 {
            magnitude.log10().floor() as i64
        } else {
            0
        };
        let decimals = (digits as i64 - 1 - leading).max(0) as usize;
        fixed(value, decimals)
    } else {
        format!("{value:.prec$e}", prec = digits.saturating_sub(1))
    }
}

/// A compact general format for diagnostics (R̂ to 3 decimals, ESS as an integer).
pub fn rhat(value: f64) -> String {
    fixed(value, 3)
}

/// An effective sample size, rounded to an integer.
pub fn ess(value: f64) -> String {
    fixed(value, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_follow_the_spread() {
        assert_eq!(decimals_for(0.52, 28.1, 2), 2);
        assert_eq!(decimals_for(1.8, 28.1, 2), 1);
        assert_eq!(decimals_for(1.8, 28.1, 3), 2);
        assert_eq!(decimals_for(150.0, 1200.0, 2), 0);
        assert_eq!(decimals_for(0.004, 1126259462.4, 2), 4);
        assert_eq!(decimals_for(0.0, 0.3, 2), 6);
        assert_eq!(decimals_for(f64::NAN, 0.0, 2), 0);
        assert_eq!(significant(0.2134, 3), "0.213");
        assert_eq!(significant(12.0, 3), "12.0");
        assert_eq!(significant(2.5e-5, 3), "2.50e-5");
        assert_eq!(significant(0.0, 3), "0.00");
        assert_eq!(fixed(28.12345, 2), "28.12");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
    }
}
