//! Axis ranges and tick labels that never collapse or turn NaN, whatever the data: a constant
//! column gets a small range around its value, non-finite values are ignored, and no data at
//! all gives [0, 1].

use std::ops::Range;

use super::number_format::{decimals_for, fixed};

/// The range spanned by the finite `values` (and `extra`, e.g. an injected value), widened by
/// `pad` times its width on each side. Never empty, never NaN.
pub fn padded_range(
    values: impl IntoIterator<Item = f64>,
    extra: Option<f64>,
    pad: f64,
) -> Range<f64> {
    let (lo, hi) = values
        .into_iter()
        .chain(extra)
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo > hi {
        return 0.0..1.0;
    }
    let width = hi - lo;
    let margin = if width > 0.0 {
        pad * width
    } else {
        (lo.abs() * 1e-3).max(1e-3)
    };
    let (start, end) = (lo - margin, hi + margin);
    if start < end && start.is_finite() && end.is_finite() {
        start..end
    } else if lo < hi {
        lo..hi
    } else {
        0.0..1.0
    }
}

/// A tick-label formatter for an axis spanning `range`: enough decimals to tell ticks apart.
pub fn tick_formatter(range: &Range<f64>) -> impl Fn(&f64) -> String {
    let decimals = decimals_for(range.end - range.start, range.start, 2);
    move |v: &f64| {
        // Avoid "-0.00".
        let text = fixed(*v, decimals);
        if text
            .trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
        {
            text.trim_start_matches('-').to_string()
        } else {
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_never_collapse() {
        assert_eq!(padded_range([1.0, 3.0], None, 0.5), 0.0..4.0);
        assert_eq!(padded_range([1.0, 3.0], Some(5.0), 0.0), 1.0..5.0);
        let constant = padded_range([2.0, 2.0], None, 0.1);
        assert!(constant.start < 2.0 && constant.end > 2.0);
        assert_eq!(padded_range([f64::NAN], None, 0.1), 0.0..1.0);
        assert_eq!(padded_range(std::iter::empty(), None, 0.1), 0.0..1.0);
        let huge = padded_range([f64::MAX, f64::MAX], None, 0.1);
        assert!(huge.start < huge.end && huge.end.is_finite(), "{huge:?}");
    }

    #[test]
    fn ticks_are_readable() {
        let f = tick_formatter(&(28.0..30.0));
        assert_eq!(f(&28.5), "28.5");
        let g = tick_formatter(&(-0.01..0.01));
        assert_eq!(g(&-0.0), "0.000");
    }
}
