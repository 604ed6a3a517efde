//! The aligned-spin binary black hole parameters, in bilby's names and units.

use tdpe_phenomt::Real;

/// bilby's names of the 11 parameters, in the order of [`BbhParameters::to_array`].
pub const PARAMETER_NAMES: [&str; 11] = [
    "chirp_mass",
    "mass_ratio",
    "chi_1",
    "chi_2",
    "luminosity_distance",
    "theta_jn",
    "psi",
    "phase",
    "geocent_time",
    "ra",
    "dec",
];

/// An aligned-spin binary black hole (bilby's conventions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BbhParameters {
    /// Detector-frame chirp mass (m1 m2)^(3/5)/(m1 + m2)^(1/5), in M☉.
    pub chirp_mass: f64,
    /// m2/m1 ∈ (0, 1].
    pub mass_ratio: f64,
    /// Dimensionless aligned spin of the heavier body.
    pub chi_1: f64,
    /// Dimensionless aligned spin of the lighter body.
    pub chi_2: f64,
    /// Luminosity distance in Mpc.
    pub luminosity_distance: f64,
    /// Angle between the line of sight and the total angular momentum (= the orbital one for
    /// aligned spins), in rad.
    pub theta_jn: f64,
    /// Polarisation angle in rad.
    pub psi: f64,
    /// Orbital phase at the reference frequency (LAL's phiRef), in rad.
    pub phase: f64,
    /// Time of the peak of |h22| at the geocentre, in s relative to the reference epoch.
    pub geocent_time: f64,
    /// Right ascension in rad.
    pub ra: f64,
    /// Declination in rad.
    pub dec: f64,
}

impl BbhParameters {
    /// The values in the order of [`PARAMETER_NAMES`].
    pub fn to_array(&self) -> [f64; 11] {
        [
            self.chirp_mass,
            self.mass_ratio,
            self.chi_1,
            self.chi_2,
            self.luminosity_distance,
            self.theta_jn,
            self.psi,
            self.phase,
            self.geocent_time,
            self.ra,
            self.dec,
        ]
    }

    /// From values in the order of [`PARAMETER_NAMES`].
    pub fn from_array(v: [f64; 11]) -> Self {
        let [chirp_mass, mass_ratio, chi_1, chi_2, luminosity_distance, theta_jn, psi, phase, geocent_time, ra, dec] =
            v;
        Self {
            chirp_mass,
            mass_ratio,
            chi_1,
            chi_2,
            luminosity_distance,
            theta_jn,
            psi,
            phase,
            geocent_time,
            ra,
            dec,
        }
    }

    /// The GW150914-like binary black hole of likelihood.md §3 (36 + 29 M☉, χ 0.3/−0.2,
    /// 1200 Mpc, θ_jn 2.6, ψ 0.6, φ 1.3, ra 1.95, dec −1.27) peaking at the geocentre 0.4 s after
    /// the epoch (GPS 1126259462.4 with the epoch at GPS 1126259462): the reference injection of
    /// the tests, benchmarks and the default run.
    pub fn gw150914_like() -> Self {
        let (chirp_mass, mass_ratio) = chirp_mass_and_ratio(36.0, 29.0);
        Self {
            chirp_mass,
            mass_ratio,
            chi_1: 0.3,
            chi_2: -0.2,
            luminosity_distance: 1200.0,
            theta_jn: 2.6,
            psi: 0.6,
            phase: 1.3,
            geocent_time: 0.4,
            ra: 1.95,
            dec: -1.27,
        }
    }

    /// Component masses (m1 ≥ m2) in M☉.
    pub fn component_masses(&self) -> (f64, f64) {
        component_masses(self.chirp_mass, self.mass_ratio)
    }
}

/// m1 = M_c (1 + q)^(1/5) q^(−3/5) and m2 = q m1, for q = m2/m1.
pub fn component_masses<T: Real>(chirp_mass: T, mass_ratio: T) -> (T, T) {
    let m1 = chirp_mass * (mass_ratio + 1.0).powf(0.2) * mass_ratio.powf(-0.6);
    (m1, m1 * mass_ratio)
}

/// Chirp mass and mass ratio q = m2/m1 ≤ 1 of component masses (in either order).
pub fn chirp_mass_and_ratio(m1: f64, m2: f64) -> (f64, f64) {
    let (heavy, light) = if m1 >= m2 { (m1, m2) } else { (m2, m1) };
    let chirp_mass = (heavy * light).powf(0.6) / (heavy + light).powf(0.2);
    (chirp_mass, light / heavy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masses_round_trip() {
        let (mc, q) = chirp_mass_and_ratio(36.0, 29.0);
        assert!((mc - 28.0956).abs() < 1e-4, "{mc}");
        let (m1, m2) = component_masses(mc, q);
        assert!((m1 - 36.0).abs() < 1e-12 && (m2 - 29.0).abs() < 1e-12);
        let p = BbhParameters::from_array(std::array::from_fn(|k| k as f64));
        assert_eq!(BbhParameters::from_array(p.to_array()), p);
    }
}
