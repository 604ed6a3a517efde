//! The subcommands of `tdpe`, one module each.

pub mod campaign;
pub mod config;
pub mod injections;
pub mod likelihood;
pub mod pp;
pub mod run;
pub mod waveform;
