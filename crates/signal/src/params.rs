//! The binary black hole parameters, in bilby's names and units, and the spin models that say
//! which of them an analysis has.

use tdpe_phenomt::Real;

use crate::spins::PrecessingSpins;

/// One parameter of the binary, in bilby's names: the index of its entry in a
/// [`ParameterVector`] (`theta[Parameter::Psi]`). This is the one definition of the layout; the
/// priors, the coordinate maps, the jumps and the outputs refer to parameters through it, so a
/// parameter added here (precessing spins, say) reaches them without renumbering any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Parameter {
    /// Detector-frame chirp mass (m1 m2)^(3/5)/(m1 + m2)^(1/5), M☉.
    ChirpMass,
    /// m2/m1 ∈ (0, 1].
    MassRatio,
    /// Dimensionless aligned spin of the heavier body.
    Chi1,
    /// Dimensionless aligned spin of the lighter body.
    Chi2,
    /// Dimensionless spin magnitude of the heavier body, in [0, 1].
    A1,
    /// Dimensionless spin magnitude of the lighter body, in [0, 1].
    A2,
    /// Angle between the heavier body's spin and the orbital angular momentum at the
    /// reference frequency, rad.
    Tilt1,
    /// Angle between the lighter body's spin and the orbital angular momentum, rad.
    Tilt2,
    /// Azimuth of the lighter body's spin relative to the heavier one's about the orbital
    /// angular momentum, rad.
    Phi12,
    /// Azimuth of the orbital angular momentum on its cone about the total one, rad.
    PhiJl,
    /// Luminosity distance, Mpc.
    LuminosityDistance,
    /// Angle between the line of sight and the total angular momentum, rad.
    ThetaJn,
    /// Polarisation angle, rad.
    Psi,
    /// Orbital phase at the reference frequency (LAL's phiRef), rad.
    Phase,
    /// Time of the peak of |h22| at the geocentre, s (relative to the model's epoch inside
    /// the sampler, absolute GPS in files).
    GeocentTime,
    /// Right ascension, rad.
    Ra,
    /// Declination, rad.
    Dec,
}

/// How many parameters a [`ParameterVector`] holds.
pub const NUM_PARAMETERS: usize = 17;

/// A value for every [`Parameter`], indexed by it (or by its [`Parameter::index`]).
pub type ParameterVector = [f64; NUM_PARAMETERS];

impl Parameter {
    /// The parameters the aligned-spin waveform's shape depends on (its set-up is
    /// differentiated in them, in this order).
    pub const ALIGNED_INTRINSIC: [Parameter; 4] =
        [Self::ChirpMass, Self::MassRatio, Self::Chi1, Self::Chi2];

    /// The parameters that enter through the projection onto the detectors (closed-form
    /// derivatives), in the order of [`Parameter::ALL`].
    pub const EXTRINSIC: [Parameter; 7] = [
        Self::LuminosityDistance,
        Self::ThetaJn,
        Self::Psi,
        Self::Phase,
        Self::GeocentTime,
        Self::Ra,
        Self::Dec,
    ];

    /// Every parameter, in the order of a [`ParameterVector`]: the masses, the spins of both
    /// spin models, then the extrinsic parameters.
    pub const ALL: [Parameter; NUM_PARAMETERS] = [
        Self::ChirpMass,
        Self::MassRatio,
        Self::Chi1,
        Self::Chi2,
        Self::A1,
        Self::A2,
        Self::Tilt1,
        Self::Tilt2,
        Self::Phi12,
        Self::PhiJl,
        Self::LuminosityDistance,
        Self::ThetaJn,
        Self::Psi,
        Self::Phase,
        Self::GeocentTime,
        Self::Ra,
        Self::Dec,
    ];

    /// The position in a [`ParameterVector`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// bilby's name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::ChirpMass => "chirp_mass",
            Self::MassRatio => "mass_ratio",
            Self::Chi1 => "chi_1",
            Self::Chi2 => "chi_2",
            Self::A1 => "a_1",
            Self::A2 => "a_2",
            Self::Tilt1 => "tilt_1",
            Self::Tilt2 => "tilt_2",
            Self::Phi12 => "phi_12",
            Self::PhiJl => "phi_jl",
            Self::LuminosityDistance => "luminosity_distance",
            Self::ThetaJn => "theta_jn",
            Self::Psi => "psi",
            Self::Phase => "phase",
            Self::GeocentTime => "geocent_time",
            Self::Ra => "ra",
            Self::Dec => "dec",
        }
    }

    /// The unit in plain text, if the parameter has one (bilby's units).
    pub const fn unit(self) -> Option<&'static str> {
        match self {
            Self::ChirpMass => Some("M☉"),
            Self::LuminosityDistance => Some("Mpc"),
            Self::GeocentTime => Some("s"),
            Self::ThetaJn
            | Self::Psi
            | Self::Phase
            | Self::Ra
            | Self::Dec
            | Self::Tilt1
            | Self::Tilt2
            | Self::Phi12
            | Self::PhiJl => Some("rad"),
            Self::MassRatio | Self::Chi1 | Self::Chi2 | Self::A1 | Self::A2 => None,
        }
    }

    /// The period of an angle whose every value mod the period gives the same signal (ψ's is
    /// π for the (2,±2) modes and for any network's antenna patterns), if it is one.
    pub const fn period(self) -> Option<f64> {
        match self {
            Self::Psi => Some(std::f64::consts::PI),
            Self::Phase | Self::Ra | Self::Phi12 | Self::PhiJl => Some(std::f64::consts::TAU),
            _ => None,
        }
    }

    /// The parameter named `name` (bilby's name), if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// Which spins an analysis has, and with them which parameters: the rest of a
/// [`ParameterVector`] is held at 0 and appears in no output (docs/precession.md §7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpinModel {
    /// Spins along the orbital angular momentum: bilby's chi_1 and chi_2.
    Aligned,
    /// Spins in any direction: bilby's a_1, a_2, tilt_1, tilt_2, phi_12 and phi_jl.
    Precessing,
}

impl SpinModel {
    /// The parameters of an aligned-spin analysis, in the order of its outputs.
    const ALIGNED: [Parameter; 11] = [
        Parameter::ChirpMass,
        Parameter::MassRatio,
        Parameter::Chi1,
        Parameter::Chi2,
        Parameter::LuminosityDistance,
        Parameter::ThetaJn,
        Parameter::Psi,
        Parameter::Phase,
        Parameter::GeocentTime,
        Parameter::Ra,
        Parameter::Dec,
    ];

    /// The parameters of a precessing analysis: bilby's names, the aligned analysis's order with
    /// the six precessing spins in place of chi_1 and chi_2.
    const PRECESSING: [Parameter; 15] = [
        Parameter::ChirpMass,
        Parameter::MassRatio,
        Parameter::A1,
        Parameter::A2,
        Parameter::Tilt1,
        Parameter::Tilt2,
        Parameter::Phi12,
        Parameter::PhiJl,
        Parameter::LuminosityDistance,
        Parameter::ThetaJn,
        Parameter::Psi,
        Parameter::Phase,
        Parameter::GeocentTime,
        Parameter::Ra,
        Parameter::Dec,
    ];

    /// The parameters of the analysis, in the order of its outputs.
    pub const fn parameters(self) -> &'static [Parameter] {
        match self {
            Self::Aligned => &Self::ALIGNED,
            Self::Precessing => &Self::PRECESSING,
        }
    }

    /// The spin parameters that select this model in a prior file.
    pub fn spin_parameters(self) -> impl Iterator<Item = Parameter> {
        self.parameters()
            .iter()
            .copied()
            .filter(|p| !Self::Aligned.has(*p) || !Self::Precessing.has(*p))
    }

    /// Whether `parameter` is one of the analysis's.
    pub fn has(self, parameter: Parameter) -> bool {
        self.parameters().contains(&parameter)
    }

    /// The vector with `values` for [`Self::parameters`], in their order, and 0 for the others.
    ///
    /// # Panics
    /// If `values` does not hold one value per parameter.
    pub const fn vector(self, values: &[f64]) -> ParameterVector {
        let parameters = self.parameters();
        assert!(values.len() == parameters.len(), "one value per parameter");
        let mut vector = [0.0; NUM_PARAMETERS];
        let mut k = 0;
        while k < parameters.len() {
            vector[parameters[k].index()] = values[k];
            k += 1;
        }
        vector
    }

    /// bilby's names of [`Self::parameters`].
    pub fn names(self) -> Vec<&'static str> {
        self.parameters().iter().map(|p| p.name()).collect()
    }
}

/// bilby's names of the parameters, in the order of a [`ParameterVector`].
pub const PARAMETER_NAMES: [&str; NUM_PARAMETERS] = {
    let mut names = [""; NUM_PARAMETERS];
    let mut k = 0;
    while k < NUM_PARAMETERS {
        names[k] = Parameter::ALL[k].name();
        k += 1;
    }
    names
};

impl<T> std::ops::Index<Parameter> for [T; NUM_PARAMETERS] {
    type Output = T;

    fn index(&self, parameter: Parameter) -> &T {
        &self[parameter.index()]
    }
}

impl<T> std::ops::IndexMut<Parameter> for [T; NUM_PARAMETERS] {
    fn index_mut(&mut self, parameter: Parameter) -> &mut T {
        &mut self[parameter.index()]
    }
}

/// A binary black hole (bilby's conventions): the spins of one [`SpinModel`], those of the other
/// zero.
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
    /// Dimensionless spin magnitude of the heavier body.
    pub a_1: f64,
    /// Dimensionless spin magnitude of the lighter body.
    pub a_2: f64,
    /// Angle between the heavier body's spin and the orbital angular momentum, in rad.
    pub tilt_1: f64,
    /// Angle between the lighter body's spin and the orbital angular momentum, in rad.
    pub tilt_2: f64,
    /// Azimuth of the lighter body's spin relative to the heavier one's, in rad.
    pub phi_12: f64,
    /// Azimuth of the orbital angular momentum about the total one, in rad.
    pub phi_jl: f64,
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
    /// The values as a [`ParameterVector`].
    pub fn to_array(&self) -> ParameterVector {
        [
            self.chirp_mass,
            self.mass_ratio,
            self.chi_1,
            self.chi_2,
            self.a_1,
            self.a_2,
            self.tilt_1,
            self.tilt_2,
            self.phi_12,
            self.phi_jl,
            self.luminosity_distance,
            self.theta_jn,
            self.psi,
            self.phase,
            self.geocent_time,
            self.ra,
            self.dec,
        ]
    }

    /// From a [`ParameterVector`].
    pub fn from_array(v: ParameterVector) -> Self {
        let [chirp_mass, mass_ratio, chi_1, chi_2, a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl, luminosity_distance, theta_jn, psi, phase, geocent_time, ra, dec] =
            v;
        Self {
            chirp_mass,
            mass_ratio,
            chi_1,
            chi_2,
            a_1,
            a_2,
            tilt_1,
            tilt_2,
            phi_12,
            phi_jl,
            luminosity_distance,
            theta_jn,
            psi,
            phase,
            geocent_time,
            ra,
            dec,
        }
    }

    /// The GW150914-like binary black hole of docs/likelihood.md §4.2 (36 + 29 M☉, χ 0.3/−0.2,
    /// 1200 Mpc, θ_jn 2.6, ψ 0.6, φ 1.3, ra 1.95, dec −1.27) peaking at the geocentre 0.4 s after
    /// the epoch (GPS 1126259462.4 with the epoch at GPS 1126259462): the reference injection of
    /// the tests, benchmarks and the default run. Its spins are aligned: the precessing ones
    /// are zero.
    pub fn gw150914_like() -> Self {
        let (chirp_mass, mass_ratio) = chirp_mass_and_ratio(36.0, 29.0);
        Self {
            chirp_mass,
            mass_ratio,
            chi_1: 0.3,
            chi_2: -0.2,
            a_1: 0.0,
            a_2: 0.0,
            tilt_1: 0.0,
            tilt_2: 0.0,
            phi_12: 0.0,
            phi_jl: 0.0,
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

    /// bilby's precessing spins of the binary.
    pub fn precessing_spins(&self) -> PrecessingSpins<f64> {
        PrecessingSpins {
            a_1: self.a_1,
            a_2: self.a_2,
            tilt_1: self.tilt_1,
            tilt_2: self.tilt_2,
            phi_12: self.phi_12,
            phi_jl: self.phi_jl,
        }
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

    /// The layout: names in order, indexing by parameter, lookup by name.
    #[test]
    fn one_layout() {
        let p = BbhParameters::gw150914_like().to_array();
        assert_eq!(p[Parameter::Psi], 0.6);
        assert_eq!(p[Parameter::Dec], -1.27);
        assert_eq!(
            PARAMETER_NAMES[Parameter::GeocentTime.index()],
            "geocent_time"
        );
        for (k, parameter) in Parameter::ALL.into_iter().enumerate() {
            assert_eq!(parameter.index(), k, "{parameter:?}");
            assert_eq!(Parameter::from_name(PARAMETER_NAMES[k]), Some(parameter));
        }
        assert_eq!(Parameter::from_name("mass_1"), None);
    }

    /// The aligned model keeps the eleven parameters in the order of its outputs; the
    /// precessing one has bilby's fifteen; each is selected by the spins only it has.
    #[test]
    fn spin_models() {
        assert_eq!(
            SpinModel::Aligned.names().join(","),
            "chirp_mass,mass_ratio,chi_1,chi_2,luminosity_distance,theta_jn,psi,phase,\
             geocent_time,ra,dec"
        );
        assert_eq!(
            SpinModel::Precessing.names().join(","),
            "chirp_mass,mass_ratio,a_1,a_2,tilt_1,tilt_2,phi_12,phi_jl,luminosity_distance,\
             theta_jn,psi,phase,geocent_time,ra,dec"
        );
        let own = |model: SpinModel| {
            model
                .spin_parameters()
                .map(Parameter::name)
                .collect::<Vec<_>>()
        };
        assert_eq!(own(SpinModel::Aligned), ["chi_1", "chi_2"]);
        assert_eq!(
            own(SpinModel::Precessing),
            ["a_1", "a_2", "tilt_1", "tilt_2", "phi_12", "phi_jl"]
        );
        assert!(SpinModel::Precessing.has(Parameter::Tilt2));
        assert!(!SpinModel::Precessing.has(Parameter::Chi1));
        for parameter in [Parameter::Phi12, Parameter::PhiJl] {
            assert_eq!(parameter.period(), Some(std::f64::consts::TAU));
            assert_eq!(parameter.unit(), Some("rad"));
        }
        assert_eq!(Parameter::A1.unit(), None);
        // The aligned binary of the tests has no precessing spins.
        let p = BbhParameters::gw150914_like().to_array();
        assert!(SpinModel::Precessing
            .spin_parameters()
            .all(|parameter| p[parameter] == 0.0));
    }
}
