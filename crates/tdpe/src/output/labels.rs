//! How parameters are labelled: bilby's LaTeX labels (for `result.json`, so that bilby's own
//! plots look as usual) and plain-text labels with units for our plots and tables.

use tdpe_signal::Parameter;

/// bilby's default LaTeX label of `name` (`bilby.gw.prior`'s table), or the name itself.
pub fn latex(name: &str) -> String {
    let label = match name {
        "chirp_mass" => r"$\mathcal{M}$",
        "mass_ratio" => "$q$",
        "mass_1" => "$m_1$",
        "mass_2" => "$m_2$",
        "chi_1" => r"$\chi_1$",
        "chi_2" => r"$\chi_2$",
        "chi_eff" => r"$\chi_{\rm eff}$",
        "luminosity_distance" => "$d_L$",
        "theta_jn" => r"$\theta_{JN}$",
        "psi" => r"$\psi$",
        "phase" => r"$\phi$",
        "geocent_time" => "$t_c$",
        "ra" => r"$\mathrm{RA}$",
        "dec" => r"$\mathrm{DEC}$",
        "total_mass" => "$M$",
        "redshift" => "$z$",
        "comoving_distance" => "$d_C$",
        "mass_1_source" => r"$m_1^{\rm source}$",
        "mass_2_source" => r"$m_2^{\rm source}$",
        "chirp_mass_source" => r"$\mathcal{M}^{\rm source}$",
        "total_mass_source" => r"$M^{\rm source}$",
        _ => name,
    };
    label.to_string()
}

/// The LaTeX label with its unit, as bilby's `latex_label_with_unit` (`label [unit]`).
pub fn latex_with_unit(name: &str) -> String {
    match latex_unit(name) {
        Some(unit) => format!("{} [{unit}]", latex(name)),
        None => latex(name),
    }
}

/// The unit in LaTeX, for the parameters that have one (angles are in radians, unlabelled).
fn latex_unit(name: &str) -> Option<&'static str> {
    match name {
        "chirp_mass" | "mass_1" | "mass_2" | "total_mass" | "mass_1_source" | "mass_2_source"
        | "chirp_mass_source" | "total_mass_source" => Some(r"$M_{\odot}$"),
        "luminosity_distance" | "comoving_distance" => Some("Mpc"),
        "geocent_time" => Some("s"),
        _ => None,
    }
}

/// The unit in plain text (Unicode), for the parameters that have one: the layout's for
/// bilby's parameters, M☉ and Mpc for the derived masses and distance.
pub fn unit(name: &str) -> Option<&'static str> {
    match Parameter::from_name(name) {
        Some(parameter) => parameter.unit(),
        None => match name {
            "mass_1" | "mass_2" | "total_mass" | "mass_1_source" | "mass_2_source"
            | "chirp_mass_source" | "total_mass_source" => Some("M☉"),
            "comoving_distance" => Some("Mpc"),
            _ => None,
        },
    }
}

/// The symbol of `name` in Unicode as the embedded font draws it, after bilby's LaTeX labels:
/// subscripts where Unicode has the letter (χ₁, θⱼₙ), `_` where it has not (t_c, χ_eff); the
/// astronomers' α and δ for ra and dec. The name itself for other columns.
pub fn symbol(name: &str) -> &str {
    match name {
        "chirp_mass" => "ℳ",
        "mass_ratio" => "q",
        "mass_1" => "m₁",
        "mass_2" => "m₂",
        "chi_1" => "χ₁",
        "chi_2" => "χ₂",
        "chi_eff" => "χ_eff",
        "luminosity_distance" => "dₗ",
        "theta_jn" => "θⱼₙ",
        "psi" => "ψ",
        "phase" => "φ",
        "geocent_time" => "t_c",
        "ra" => "α",
        "dec" => "δ",
        "total_mass" => "M",
        "redshift" => "z",
        "comoving_distance" => "d_C",
        "mass_1_source" => "m₁ˢ",
        "mass_2_source" => "m₂ˢ",
        "chirp_mass_source" => "ℳˢ",
        "total_mass_source" => "Mˢ",
        _ => name,
    }
}

/// Plot axis label: the symbol with its unit, e.g. `ℳ [M☉]`.
pub fn plain_with_unit(name: &str) -> String {
    match unit(name) {
        Some(unit) => format!("{} [{unit}]", symbol(name)),
        None => symbol(name).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_bilby() {
        assert_eq!(latex("theta_jn"), r"$\theta_{JN}$");
        assert_eq!(latex_with_unit("luminosity_distance"), "$d_L$ [Mpc]");
        assert_eq!(latex_with_unit("psi"), r"$\psi$");
        assert_eq!(latex("something_else"), "something_else");
        assert_eq!(plain_with_unit("chirp_mass"), "ℳ [M☉]");
        assert_eq!(plain_with_unit("chi_eff"), "χ_eff");
        assert_eq!(plain_with_unit("theta_jn"), "θⱼₙ [rad]");
        assert_eq!(
            latex_with_unit("mass_1_source"),
            r"$m_1^{\rm source}$ [$M_{\odot}$]"
        );
        assert_eq!(plain_with_unit("chirp_mass_source"), "ℳˢ [M☉]");
        assert_eq!(plain_with_unit("redshift"), "z");
    }
}
