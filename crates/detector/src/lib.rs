//! Gravitational-wave detector network geometry, following LALSuite's conventions.
//!
//! - [`time`]: GPS time, leap seconds, GPS → UTC, and Greenwich mean sidereal time exactly as
//!   LAL's `XLALGreenwichMeanSiderealTime` (not reduced mod 2π).
//! - [`site`]: the H1, L1, V1 and K1 sites built from LAL's geodetic constants (WGS-84), as
//!   `XLALCreateDetector` does, with the detector tensor D = ½(x xᵀ − y yᵀ) in f64.
//! - [`response`]: antenna patterns F₊, F× (`XLALComputeDetAMResponse`) and their closed-form
//!   derivatives with respect to right ascension, declination and polarisation.
//! - [`delay`]: the time delay from the geocentre (`XLALTimeDelayFromEarthCenter`) and its
//!   derivatives.
//! - [`projection`]: h_det = F₊ h₊ + F× h×.
//!
//! Units: SI throughout (metres, seconds, radians).

pub mod delay;
pub mod error;
pub mod projection;
pub mod response;
pub mod site;
pub mod sky_frame;
pub mod time;

pub use delay::TimeDelayDerivatives;
pub use error::DetectorError;
pub use projection::{project_strain, project_strain_into};
pub use response::{AntennaPattern, AntennaPatternDerivatives};
pub use site::{Detector, GeodeticSite, KNOWN_DETECTORS};
pub use sky_frame::{DetectorPairFrame, SkyFromFrame};
pub use time::{gps_to_utc, greenwich_mean_sidereal_time, leap_seconds, GpsTime, UtcTime};
