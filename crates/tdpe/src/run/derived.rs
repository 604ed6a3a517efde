//! The posterior's derived columns, as bilby's `generate_all_bbh_parameters` adds them
//! (docs/cosmology.md §5): the component masses and χ_eff (and χ_p with precessing spins),
//! which the convergence diagnostics assess, and the source-frame quantities, which follow from
//! them and the distance through a cosmology.

use anyhow::Context;
use tdpe_posterior::cosmology::Cosmology;
use tdpe_posterior::prior::{Distribution, PriorSet};
use tdpe_signal::{component_masses, Parameter, ParameterVector, SpinModel};

/// The columns derived from the masses and spins, assessed by the diagnostics like the sampled
/// parameters: with precessing spins also chi_p.
pub fn assessed_names(spin_model: SpinModel) -> &'static [&'static str] {
    match spin_model {
        SpinModel::Aligned => &["mass_1", "mass_2", "chi_eff"],
        SpinModel::Precessing => &["mass_1", "mass_2", "chi_eff", "chi_p"],
    }
}

/// The columns that take the distance to the source frame; functions of assessed columns, not
/// assessed themselves.
pub const SOURCE_FRAME: [&str; 7] = [
    "total_mass",
    "redshift",
    "comoving_distance",
    "mass_1_source",
    "mass_2_source",
    "chirp_mass_source",
    "total_mass_source",
];

/// The values of the [`assessed_names`] columns of `spin_model`: mass_1, mass_2 (M☉, detector
/// frame), χ_eff = (m1 χ1z + m2 χ2z)/(m1 + m2) with the aligned components χiz (chi_i, or
/// a_i cos tilt_i), and with precessing spins bilby's
/// χ_p = max(a_1 sin tilt_1, q (4q + 3)/(4 + 3q) a_2 sin tilt_2).
pub fn assessed(t: &ParameterVector, spin_model: SpinModel) -> Vec<f64> {
    let q = t[Parameter::MassRatio];
    let (m1, m2) = component_masses(t[Parameter::ChirpMass], q);
    let chi_eff = |chi_1z: f64, chi_2z: f64| (m1 * chi_1z + m2 * chi_2z) / (m1 + m2);
    match spin_model {
        SpinModel::Aligned => vec![m1, m2, chi_eff(t[Parameter::Chi1], t[Parameter::Chi2])],
        SpinModel::Precessing => {
            let (sin_1, cos_1) = t[Parameter::Tilt1].sin_cos();
            let (sin_2, cos_2) = t[Parameter::Tilt2].sin_cos();
            let (a_1, a_2) = (t[Parameter::A1], t[Parameter::A2]);
            let chi_p = (a_1 * sin_1).max(q * (4.0 * q + 3.0) / (4.0 + 3.0 * q) * a_2 * sin_2);
            vec![m1, m2, chi_eff(a_1 * cos_1, a_2 * cos_2), chi_p]
        }
    }
}

/// The values of the [`SOURCE_FRAME`] columns: the detector-frame total mass, the redshift z at
/// the luminosity distance in `cosmology`, the comoving distance D_L/(1 + z) (Mpc), and the
/// masses divided by 1 + z (M☉).
pub fn source_frame(t: &ParameterVector, cosmology: &Cosmology) -> anyhow::Result<[f64; 7]> {
    let distance = t[Parameter::LuminosityDistance];
    let z = cosmology
        .redshift_at_luminosity_distance(distance)
        .with_context(|| {
            format!("the redshift of luminosity_distance = {distance} Mpc (must be positive)")
        })?;
    let (m1, m2) = component_masses(t[Parameter::ChirpMass], t[Parameter::MassRatio]);
    let zp1 = 1.0 + z;
    Ok([
        m1 + m2,
        z,
        distance / zp1,
        m1 / zp1,
        m2 / zp1,
        t[Parameter::ChirpMass] / zp1,
        (m1 + m2) / zp1,
    ])
}

/// The cosmology of the source-frame columns: the distance prior's where it names one
/// (`UniformSourceFrame`, `UniformComovingVolume`), else bilby's default, Planck15.
pub fn cosmology(priors: &PriorSet) -> Cosmology {
    match &priors.prior(Parameter::LuminosityDistance).distribution {
        Distribution::Cosmological(c) => c.cosmology.clone(),
        _ => Cosmology::planck15(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Precessing spins: bilby's χ_eff of the aligned components and χ_p, here the lighter
    /// body's in-plane spin (q (4q + 3)/(4 + 3q) a_2 sin tilt_2 = 0.5 · 5/5.5 · 0.8 > 0.3).
    #[test]
    fn precessing_spins_give_chi_eff_and_chi_p() {
        let (chirp_mass, q) = tdpe_signal::chirp_mass_and_ratio(40.0, 20.0);
        let mut t = [0.0; tdpe_signal::NUM_PARAMETERS];
        t[Parameter::ChirpMass] = chirp_mass;
        t[Parameter::MassRatio] = q;
        t[Parameter::A1] = 0.6;
        t[Parameter::Tilt1] = std::f64::consts::FRAC_PI_6;
        t[Parameter::A2] = 0.8;
        t[Parameter::Tilt2] = std::f64::consts::FRAC_PI_2;
        let values = assessed(&t, SpinModel::Precessing);
        assert_eq!(assessed_names(SpinModel::Precessing).len(), values.len());
        let chi_eff = 0.6 * std::f64::consts::FRAC_PI_6.cos() / 1.5;
        assert!((values[2] - chi_eff).abs() < 1e-12, "{values:?}");
        assert!(
            (values[3] - 0.5 * 5.0 / 5.5 * 0.8).abs() < 1e-12,
            "{values:?}"
        );
        // Aligned: the same χ_eff from chi_1 = a_1 cos tilt_1, no χ_p.
        t[Parameter::Chi1] = 0.6 * std::f64::consts::FRAC_PI_6.cos();
        let aligned = assessed(&t, SpinModel::Aligned);
        assert_eq!(aligned.len(), 3);
        assert!((aligned[2] - chi_eff).abs() < 1e-12);
    }
}
