//! The `tdpe` application: the run configuration, the data files, the analysis of one binary
//! end to end ([`run`]), its products ([`output`]) and the command line ([`commands`]). The
//! posterior itself lives in `tdpe_posterior`; this crate reads files, drives the sampler and
//! writes results.

pub mod campaign;
pub mod commands;
pub mod config;
pub mod data;
pub mod gwosc_data;
pub mod memory;
pub mod output;
pub mod problem;
pub mod run;
pub mod run_result;
pub mod waveform_model;
