//! A flat ΛCDM cosmology with photons and (massive) neutrinos, as astropy's `FlatLambdaCDM`
//! defines it, and bilby's default, Planck15 (docs/cosmology.md).
//!
//! E(z)² = (1 + z)³ (Ω_r(z) (1 + z) + Ω_m) + Ω_Λ, with Ω_r(z) = Ω_γ (1 + 0.2271 N_eff/3
//! Σ_ν f(m_ν (1 + z)⁻¹/T_ν)) by the fitting formula of Komatsu et al. 2011 (ApJS 192, 18,
//! eq. 26) for the neutrinos, and Ω_Λ = 1 − Ω_m − Ω_γ − Ω_ν(0) (flat). Distances follow Hogg
//! 1999 (astro-ph/9905116): D_C = D_H ∫₀^z dz'/E(z'), D_L = (1 + z) D_C, dV_C/dz dΩ =
//! D_H D_C²/E.

use crate::quadrature::{gauss_legendre, integrate};

/// Speed of light (km/s).
const SPEED_OF_LIGHT_KM_S: f64 = 299_792.458;
/// Stefan–Boltzmann constant (erg cm⁻² s⁻¹ K⁻⁴; CODATA, as astropy's constants).
const STEFAN_BOLTZMANN_CGS: f64 = 5.670_374_419_184_431_4e-5;
/// Speed of light (cm/s).
const SPEED_OF_LIGHT_CGS: f64 = 2.997_924_58e10;
/// Newton's constant (cm³ g⁻¹ s⁻²; CODATA).
const GRAVITATIONAL_CONSTANT_CGS: f64 = 6.6743e-8;
/// Boltzmann's constant (eV/K).
const BOLTZMANN_EV_K: f64 = 8.617_333_262_145_179e-5;
/// One megaparsec (km).
const MEGAPARSEC_KM: f64 = 3.085_677_581_491_367e19;
/// 7/8 (4/11)^(4/3): the neutrinos' energy density per species relative to the photons'.
const NEUTRINO_FERMI_DIRAC_CORRECTION: f64 = 0.227_107_317_66;
/// Komatsu et al. 2011's fit f(y) ≈ (1 + (k y)^p)^(1/p); astropy rounds 1/p to 11 digits,
/// and so do we, to match its distances.
const KOMATSU_K: f64 = 0.3173;
const KOMATSU_P: f64 = 1.83;
const KOMATSU_INVERSE_P: f64 = 0.546_448_087_43;
/// Redshift per panel of the composite Gauss–Legendre rule for D_C.
const PANEL_WIDTH: f64 = 0.1;
/// Nodes per panel.
const PANEL_NODES: usize = 16;

/// The cosmologies a prior file may name.
pub const COSMOLOGY_NAMES: [&str; 1] = ["Planck15"];

/// A flat ΛCDM cosmology with radiation and neutrinos (astropy's `FlatLambdaCDM`).
#[derive(Debug, Clone, PartialEq)]
pub struct Cosmology {
    /// Its name (`Planck15`), used in bilby's repr.
    pub name: &'static str,
    /// Hubble distance c/H₀ (Mpc).
    pub hubble_distance: f64,
    /// Ω_m today (cold dark matter and baryons; the massive neutrinos are in the radiation).
    pub omega_matter: f64,
    /// Ω_γ today.
    pub omega_photons: f64,
    /// Ω_Λ = 1 − Ω_m − Ω_γ − Ω_ν(0).
    pub omega_lambda: f64,
    /// N_eff / (number of species): each species' share of N_eff.
    neff_per_species: f64,
    /// m_ν/(k T_ν0) of each massive species.
    massive_y: Vec<f64>,
    /// Massless species.
    massless_species: f64,
    /// The panel rule of [`Self::comoving_distance`].
    rule: Vec<(f64, f64)>,
}

impl Cosmology {
    /// A flat ΛCDM cosmology from H₀ (km/s/Mpc), Ω_m, T_CMB (K), N_eff and the neutrino masses
    /// (eV; their count is ⌊N_eff⌋, as astropy's).
    pub fn flat_lambda_cdm(
        name: &'static str,
        hubble_constant: f64,
        omega_matter: f64,
        cmb_temperature: f64,
        effective_neutrinos: f64,
        neutrino_masses_ev: &[f64],
    ) -> Self {
        // ρ_crit = 3H₀²/(8πG) and ρ_γ = 4σT⁴/c³, in g/cm³.
        let h0_per_s = hubble_constant / MEGAPARSEC_KM;
        let critical_density =
            3.0 * h0_per_s * h0_per_s / (8.0 * std::f64::consts::PI * GRAVITATIONAL_CONSTANT_CGS);
        let photon_density =
            4.0 * STEFAN_BOLTZMANN_CGS / SPEED_OF_LIGHT_CGS.powi(3) * cmb_temperature.powi(4);
        let neutrino_temperature = (4.0f64 / 11.0).cbrt() * cmb_temperature;
        let massive_y: Vec<f64> = neutrino_masses_ev
            .iter()
            .filter(|&&m| m > 0.0)
            .map(|m| m / (BOLTZMANN_EV_K * neutrino_temperature))
            .collect();
        let species = effective_neutrinos.floor();
        let mut cosmology = Self {
            name,
            hubble_distance: SPEED_OF_LIGHT_KM_S / hubble_constant,
            omega_matter,
            omega_photons: photon_density / critical_density,
            omega_lambda: 0.0,
            neff_per_species: effective_neutrinos / species,
            massless_species: species - massive_y.len() as f64,
            massive_y,
            rule: gauss_legendre(PANEL_NODES),
        };
        let omega_neutrinos = cosmology.omega_photons * cosmology.neutrino_density(0.0).0;
        cosmology.omega_lambda = 1.0 - omega_matter - cosmology.omega_photons - omega_neutrinos;
        cosmology
    }

    /// Planck 2015 (Planck Collaboration XIII, A&A 594, A13 (2016), table 4, TT,TE,EE+lowP
    /// +lensing+ext), with astropy's parameters: H₀ = 67.74, Ω_m = 0.3075, T_CMB = 2.7255 K,
    /// N_eff = 3.046, m_ν = (0, 0, 0.06) eV (Ω_b = 0.0486 enters no distance).
    pub fn planck15() -> Self {
        Self::flat_lambda_cdm("Planck15", 67.74, 0.3075, 2.7255, 3.046, &[0.0, 0.0, 0.06])
    }

    /// The cosmology bilby names `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "Planck15" => Some(Self::planck15()),
            _ => None,
        }
    }

    /// (ρ_ν/ρ_γ at z, its derivative in z), by Komatsu et al.'s fit per massive species.
    fn neutrino_density(&self, z: f64) -> (f64, f64) {
        let zp1 = 1.0 + z;
        let (mut sum, mut derivative) = (self.massless_species, 0.0);
        for &y in &self.massive_y {
            let w = (KOMATSU_K * y / zp1).powf(KOMATSU_P);
            let base = 1.0 + w;
            sum += base.powf(KOMATSU_INVERSE_P);
            // d/dz (1 + w)^(1/p) with dw/dz = −p w/(1 + z).
            derivative -=
                KOMATSU_INVERSE_P * base.powf(KOMATSU_INVERSE_P - 1.0) * KOMATSU_P * w / zp1;
        }
        let scale = NEUTRINO_FERMI_DIRAC_CORRECTION * self.neff_per_species;
        (scale * sum, scale * derivative)
    }

    /// (E(z), dE/dz): H(z)/H₀ and its derivative.
    pub fn efunc(&self, z: f64) -> (f64, f64) {
        let zp1 = 1.0 + z;
        let (nu, d_nu) = self.neutrino_density(z);
        let radiation = self.omega_photons * (1.0 + nu);
        let d_radiation = self.omega_photons * d_nu;
        let e2 = zp1.powi(3) * (radiation * zp1 + self.omega_matter) + self.omega_lambda;
        let d_e2 = 3.0 * zp1 * zp1 * (radiation * zp1 + self.omega_matter)
            + zp1.powi(3) * (radiation + d_radiation * zp1);
        let e = e2.sqrt();
        (e, 0.5 * d_e2 / e)
    }

    /// D_C(z₂) − D_C(z₁) (Mpc), by composite Gauss–Legendre quadrature of D_H/E.
    pub fn comoving_distance_between(&self, z1: f64, z2: f64) -> f64 {
        let panels = ((z2 - z1).abs() / PANEL_WIDTH).ceil().max(1.0) as usize;
        let width = (z2 - z1) / panels as f64;
        let f = |z: f64| 1.0 / self.efunc(z).0;
        let total: f64 = (0..panels)
            .map(|i| {
                let a = z1 + i as f64 * width;
                integrate(&self.rule, a, a + width, f)
            })
            .sum();
        self.hubble_distance * total
    }

    /// Line-of-sight comoving distance D_C(z) (Mpc).
    pub fn comoving_distance(&self, z: f64) -> f64 {
        self.comoving_distance_between(0.0, z)
    }

    /// Luminosity distance D_L(z) = (1 + z) D_C(z) (Mpc).
    pub fn luminosity_distance(&self, z: f64) -> f64 {
        (1.0 + z) * self.comoving_distance(z)
    }

    /// dD_L/dz at z, given D_C(z): D_C + (1 + z) D_H/E.
    pub fn luminosity_distance_derivative(&self, z: f64, comoving_distance: f64) -> f64 {
        comoving_distance + (1.0 + z) * self.hubble_distance / self.efunc(z).0
    }

    /// Comoving volume per redshift and steradian, dV_C/dz dΩ = D_H D_C²/E (Mpc³/sr).
    pub fn differential_comoving_volume(&self, z: f64) -> f64 {
        let dc = self.comoving_distance(z);
        self.hubble_distance * dc * dc / self.efunc(z).0
    }

    /// Comoving volume within z, 4π/3 D_C³ (Mpc³; flat).
    pub fn comoving_volume(&self, z: f64) -> f64 {
        4.0 / 3.0 * std::f64::consts::PI * self.comoving_distance(z).powi(3)
    }

    /// The redshift at luminosity distance `distance` (Mpc, > 0), by Newton's method on
    /// D_L(z) (increasing and convex enough that the iterates from D/D_H stay positive); None
    /// for a distance that is not positive and finite.
    pub fn redshift_at_luminosity_distance(&self, distance: f64) -> Option<f64> {
        if !(distance > 0.0 && distance.is_finite()) {
            return None;
        }
        let mut z = distance / self.hubble_distance;
        for _ in 0..100 {
            let dc = self.comoving_distance(z);
            let step = ((1.0 + z) * dc - distance) / self.luminosity_distance_derivative(z, dc);
            // Halve towards 0 rather than step below it.
            z = if z - step > 0.0 { z - step } else { 0.5 * z };
            if step.abs() <= 1e-15 * z {
                break;
            }
        }
        Some(z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// dE/dz against central differences.
    #[test]
    fn efunc_derivative_matches_finite_differences() {
        let c = Cosmology::planck15();
        for z in [0.0, 0.01, 0.3, 1.0, 4.0, 10.0] {
            let h = 1e-5 * (1.0 + z);
            let fd = (c.efunc(z + h).0 - c.efunc(z - h).0) / (2.0 * h);
            let an = c.efunc(z).1;
            assert!((fd - an).abs() < 1e-8 * an.abs(), "z = {z}: {fd} vs {an}");
        }
    }

    #[test]
    fn redshift_inverts_the_luminosity_distance() {
        let c = Cosmology::planck15();
        for z in [1e-4, 0.02, 0.5, 3.0, 10.0] {
            let back = c
                .redshift_at_luminosity_distance(c.luminosity_distance(z))
                .unwrap();
            assert!((back - z).abs() < 1e-13 * z, "{z} → {back}");
        }
        assert_eq!(c.redshift_at_luminosity_distance(0.0), None);
        assert_eq!(c.redshift_at_luminosity_distance(f64::NAN), None);
        assert!(Cosmology::from_name("WMAP9").is_none());
    }
}
