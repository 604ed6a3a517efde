//! The subcommands of `tdpe`, one module each.

pub mod config;
pub mod likelihood;
pub mod run;
pub mod waveform;
