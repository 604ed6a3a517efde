//! ln Σ e^(v_i) without overflow: the sums over whole-sample time steps of relative binning
//! and of the posterior's windows (docs/sampling.md §5.6), and mixtures of densities.

/// ln Σ e^(v_i) (−∞ for no finite term).
pub fn log_sum_exp(values: &[f64]) -> f64 {
    let peak = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !peak.is_finite() {
        return peak;
    }
    peak + values.iter().map(|v| (v - peak).exp()).sum::<f64>().ln()
}

/// ln Σ_j e^(v_j), and the weights e^(v_j)/Σ_i e^(v_i) into `weights` (all zero where no v_j
/// is finite).
pub fn log_sum_exp_weights(values: &[f64], weights: &mut Vec<f64>) -> f64 {
    let peak = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    weights.clear();
    if !peak.is_finite() {
        weights.resize(values.len(), 0.0);
        return peak;
    }
    weights.extend(values.iter().map(|v| (v - peak).exp()));
    let total: f64 = weights.iter().sum();
    weights.iter_mut().for_each(|w| *w /= total);
    peak + total.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_without_overflow_and_weights_sum_to_one() {
        let values = [1000.0, 1000.0 + 2f64.ln(), f64::NEG_INFINITY];
        let expected = 1000.0 + 3f64.ln();
        assert!((log_sum_exp(&values) - expected).abs() < 1e-12);
        let mut weights = Vec::new();
        assert!((log_sum_exp_weights(&values, &mut weights) - expected).abs() < 1e-12);
        assert!((weights[0] - 1.0 / 3.0).abs() < 1e-12 && (weights[1] - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(weights[2], 0.0);
        let none = [f64::NEG_INFINITY; 2];
        assert_eq!(log_sum_exp(&none), f64::NEG_INFINITY);
        assert_eq!(log_sum_exp_weights(&none, &mut weights), f64::NEG_INFINITY);
        assert_eq!(weights, [0.0, 0.0]);
    }
}
