//! The posterior's derived columns, as bilby's `generate_all_bbh_parameters` adds them
//! (docs/cosmology.md §5): the component masses and χ_eff, which the convergence diagnostics
//! assess, and the source-frame quantities, which follow from them and the distance through a
//! cosmology.

use anyhow::Context;
use tdpe_posterior::cosmology::Cosmology;
use tdpe_posterior::prior::{Distribution, PriorSet};
use tdpe_signal::{component_masses, Parameter, ParameterVector};

/// The columns derived from the masses and spins, assessed by the diagnostics like the sampled
/// parameters.
pub const ASSESSED: [&str; 3] = ["mass_1", "mass_2", "chi_eff"];

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

/// The values of the [`ASSESSED`] columns: mass_1, mass_2 (M☉, detector frame) and
/// χ_eff = (m1 χ1 + m2 χ2)/(m1 + m2).
pub fn assessed(t: &ParameterVector) -> [f64; 3] {
    let (m1, m2) = component_masses(t[Parameter::ChirpMass], t[Parameter::MassRatio]);
    [
        m1,
        m2,
        (m1 * t[Parameter::Chi1] + m2 * t[Parameter::Chi2]) / (m1 + m2),
    ]
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
