//! Detector sites: vertex position and arm directions from geodetic constants.
//!
//! The constants are LAL's (`lal/lib/tools/LALDetectors.h`: `LAL_LHO_4K_*`, `LAL_LLO_4K_*`,
//! `LAL_VIRGO_*`, `LAL_KAGRA_*`). Positions and arm unit vectors are computed as
//! `XLALCreateDetector` does (`lal/lib/tools/CreateDetector.c`), on the WGS-84 ellipsoid, but the
//! detector tensor D = ½(x xᵀ − y yᵀ) is kept in f64 (LAL rounds it to f32).

use crate::error::DetectorError;

/// WGS-84 semi-major axis a (m) (`LAL_AWGS84_SI`).
pub const WGS84_A_M: f64 = 6.378137e6;
/// WGS-84 semi-minor axis b (m) (`LAL_BWGS84_SI`).
pub const WGS84_B_M: f64 = 6.356752314e6;

/// Geodetic description of an interferometer site (frame-format convention: azimuths
/// clockwise from North, altitudes up from the local tangent plane of the WGS-84 ellipsoid).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GeodeticSite {
    /// Geodetic latitude β of the vertex (rad).
    pub latitude: f64,
    /// Longitude λ of the vertex, East positive (rad).
    pub longitude: f64,
    /// Height of the vertex above the ellipsoid (m).
    pub elevation: f64,
    /// Azimuth ζ_X of the X arm (rad).
    pub x_arm_azimuth: f64,
    /// Azimuth ζ_Y of the Y arm (rad).
    pub y_arm_azimuth: f64,
    /// Altitude 𝒜_X of the X arm (rad).
    pub x_arm_altitude: f64,
    /// Altitude 𝒜_Y of the Y arm (rad).
    pub y_arm_altitude: f64,
}

/// Names of the built-in detectors, in the order [`Detector::from_name`] lists them.
pub const KNOWN_DETECTORS: [&str; 4] = ["H1", "L1", "V1", "K1"];

/// LIGO Hanford 4 km (`LAL_LHO_4K_DETECTOR_*`).
pub const H1_SITE: GeodeticSite = GeodeticSite {
    latitude: 0.81079526383,
    longitude: -2.08405676917,
    elevation: 142.554,
    x_arm_azimuth: 5.65487724844,
    y_arm_azimuth: 4.08408092164,
    x_arm_altitude: -0.00061950000,
    y_arm_altitude: 0.00001250000,
};

/// LIGO Livingston 4 km (`LAL_LLO_4K_DETECTOR_*`).
pub const L1_SITE: GeodeticSite = GeodeticSite {
    latitude: 0.53342313506,
    longitude: -1.58430937078,
    elevation: -6.574,
    x_arm_azimuth: 4.40317772346,
    y_arm_azimuth: 2.83238139666,
    x_arm_altitude: -0.00031210000,
    y_arm_altitude: -0.00061070000,
};

/// Virgo 3 km (`LAL_VIRGO_DETECTOR_*`).
pub const V1_SITE: GeodeticSite = GeodeticSite {
    latitude: 0.76151183984,
    longitude: 0.18333805213,
    elevation: 51.884,
    x_arm_azimuth: 0.33916285222,
    y_arm_azimuth: 5.05155183261,
    x_arm_altitude: 0.0,
    y_arm_altitude: 0.0,
};

/// KAGRA (`LAL_KAGRA_DETECTOR_*`).
pub const K1_SITE: GeodeticSite = GeodeticSite {
    latitude: 0.6355068497,
    longitude: 2.396441015,
    elevation: 414.181,
    x_arm_azimuth: 1.054113,
    y_arm_azimuth: -0.5166798,
    x_arm_altitude: 0.0031414,
    y_arm_altitude: -0.0036270,
};

/// An interferometric detector in differential mode: vertex position, arm unit vectors and
/// detector tensor, all in the Earth-fixed Cartesian frame (x through the equator at the prime
/// meridian, z through the North pole).
#[derive(Debug, Clone, PartialEq)]
pub struct Detector {
    /// Short name, e.g. "H1".
    pub name: String,
    /// The geodetic constants the detector was built from.
    pub site: GeodeticSite,
    /// Vertex position (m).
    pub location: [f64; 3],
    /// Unit vector along the X arm.
    pub x_arm: [f64; 3],
    /// Unit vector along the Y arm.
    pub y_arm: [f64; 3],
    /// Detector tensor D = ½(x xᵀ − y yᵀ) (dimensionless).
    pub tensor: [[f64; 3]; 3],
}

/// Earth-fixed components of the unit vector with altitude/azimuth (alt, az) at a site
/// (`getCartesianComponents` in LAL's CreateDetector.c).
fn arm_direction(alt: f64, az: f64, lat: f64, lon: f64) -> [f64; 3] {
    let (sin_alt, cos_alt) = alt.sin_cos();
    let (sin_az, cos_az) = az.sin_cos();
    let (sin_lat, cos_lat) = lat.sin_cos();
    let (sin_lon, cos_lon) = lon.sin_cos();
    let u_north = cos_alt * cos_az;
    let u_east = cos_alt * sin_az;
    let u_rho = -sin_lat * u_north + cos_lat * sin_alt;
    [
        cos_lon * u_rho - sin_lon * u_east,
        sin_lon * u_rho + cos_lon * u_east,
        cos_lat * u_north + sin_lat * sin_alt,
    ]
}

impl Detector {
    /// Build a detector from its geodetic description, as `XLALCreateDetector` with
    /// `LALDETECTORTYPE_IFODIFF` (eqs. B.11 of Anderson et al., PRD 63 042003 (2001), for the
    /// WGS-84 vertex position).
    pub fn from_site(name: &str, site: GeodeticSite) -> Self {
        let (sin_lat, cos_lat) = site.latitude.sin_cos();
        let (sin_lon, cos_lon) = site.longitude.sin_cos();
        let a2 = WGS84_A_M * WGS84_A_M;
        let b2 = WGS84_B_M * WGS84_B_M;
        let denom = (a2 * (cos_lat * cos_lat) + b2 * (sin_lat * sin_lat)).sqrt();
        let rho = cos_lat * (a2 / denom + site.elevation);
        let location = [
            rho * cos_lon,
            rho * sin_lon,
            sin_lat * (b2 / denom + site.elevation),
        ];
        let x_arm = arm_direction(
            site.x_arm_altitude,
            site.x_arm_azimuth,
            site.latitude,
            site.longitude,
        );
        let y_arm = arm_direction(
            site.y_arm_altitude,
            site.y_arm_azimuth,
            site.latitude,
            site.longitude,
        );
        let mut tensor = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                tensor[i][j] = 0.5 * (x_arm[i] * x_arm[j] - y_arm[i] * y_arm[j]);
            }
        }
        Self {
            name: name.to_string(),
            site,
            location,
            x_arm,
            y_arm,
            tensor,
        }
    }

    /// One of the built-in detectors "H1", "L1", "V1", "K1" (case-sensitive, as in bilby).
    pub fn from_name(name: &str) -> Result<Self, DetectorError> {
        let site = match name {
            "H1" => H1_SITE,
            "L1" => L1_SITE,
            "V1" => V1_SITE,
            "K1" => K1_SITE,
            _ => {
                return Err(DetectorError::UnknownDetector {
                    name: name.to_string(),
                    known: KNOWN_DETECTORS.join(", "),
                })
            }
        };
        Ok(Self::from_site(name, site))
    }

    /// Several built-in detectors at once, e.g. `["H1", "L1"]`.
    pub fn network<S: AsRef<str>>(names: &[S]) -> Result<Vec<Self>, DetectorError> {
        names.iter().map(|n| Self::from_name(n.as_ref())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_detector_message() {
        let err = Detector::from_name("X1").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown detector 'X1'; known: H1, L1, V1, K1"
        );
        assert!(Detector::network(&["H1", "G1"]).is_err());
        assert_eq!(Detector::network(&["H1", "L1"]).unwrap().len(), 2);
    }

    #[test]
    fn arms_are_unit_and_tensor_traceless() {
        for name in KNOWN_DETECTORS {
            let d = Detector::from_name(name).unwrap();
            let nx: f64 = d.x_arm.iter().map(|v| v * v).sum();
            let ny: f64 = d.y_arm.iter().map(|v| v * v).sum();
            assert!((nx - 1.0).abs() < 1e-14 && (ny - 1.0).abs() < 1e-14);
            let tr = d.tensor[0][0] + d.tensor[1][1] + d.tensor[2][2];
            assert!(tr.abs() < 1e-14);
        }
    }
}
