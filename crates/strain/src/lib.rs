//! Detector strain data in, as a bilby_pipe user has it: GWOSC HDF5 files ([`gwosc`]), their
//! data-quality masks ([`data_quality`]), bilby_pipe's analysis segment on the file's sample
//! grid ([`segment`]), integer decimation with gwpy's anti-alias filter ([`resample`]) and the
//! off-source median-Welch PSD ([`psd_estimate`]).

pub mod data_quality;
pub mod error;
pub mod gwosc;
pub mod psd_estimate;
pub mod resample;
pub mod segment;

pub use error::StrainError;
pub use gwosc::GwoscFile;
pub use psd_estimate::PsdSettings;
pub use resample::Decimator;
pub use segment::{SampleSpan, Span};
