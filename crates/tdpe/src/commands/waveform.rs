//! `tdpe waveform`: the polarisations of one binary on LAL's time grid, as CSV.
//!
//! The grid, epoch and reference phase are those of LALSuite's
//! `SimInspiralChooseTDWaveform`, so the output can be compared with LAL sample by sample.

use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{bail, Context};
use tdpe_phenomt::{IMRPhenomT, Polarizations, Settings};

use crate::output::atomic;

/// Largest grid written: 1e8 samples (~7 h at 4096 Hz, ~6 GB of CSV).
const MAX_SAMPLES: usize = 100_000_000;

/// Writes h₊ and h× of a compact binary on LAL's time grid as CSV.
///
/// The output has the header `t,hp,hc`: t is the time in seconds relative to the peak of |h22|
/// (t_k = epoch + k/f_s, with LAL's epoch: the start time t(f_min) rounded to the nanosecond),
/// hp and hc are the dimensionless strain polarisations. Every value is written with 17
/// significant digits, so that it reads back exactly.
#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "Example:\n  tdpe waveform --approximant IMRPhenomT --mass-1 36 --mass-2 29 \
                  --chi-1 0.3 --chi-2 -0.2 --luminosity-distance 410 --inclination 0.5 \
                  --phase 0.3 --sampling-frequency 4096 --minimum-frequency 20 --output wf.csv"
)]
pub struct Args {
    /// Waveform model [supported: IMRPhenomT].
    #[arg(long, value_name = "NAME", default_value = "IMRPhenomT")]
    pub approximant: Approximant,

    /// Mass of the first body in the detector frame, in M☉.
    #[arg(long, value_name = "M_SUN")]
    pub mass_1: f64,

    /// Mass of the second body in the detector frame, in M☉ (the bodies are swapped if
    /// mass-2 > mass-1; the mass ratio must not exceed 200).
    #[arg(long, value_name = "M_SUN")]
    pub mass_2: f64,

    /// Dimensionless spin of the first body along the orbital angular momentum, in [-1, 1].
    #[arg(long, value_name = "CHI", default_value_t = 0.0)]
    pub chi_1: f64,

    /// Dimensionless spin of the second body along the orbital angular momentum, in [-1, 1].
    #[arg(long, value_name = "CHI", default_value_t = 0.0)]
    pub chi_2: f64,

    /// Luminosity distance, in Mpc.
    #[arg(long, value_name = "MPC")]
    pub luminosity_distance: f64,

    /// Inclination ι of the orbital angular momentum to the line of sight, in rad.
    #[arg(long, value_name = "RAD", default_value_t = 0.0)]
    pub inclination: f64,

    /// Reference phase φ_ref (orbital phase at the reference frequency), in rad.
    #[arg(long, value_name = "RAD", default_value_t = 0.0)]
    pub phase: f64,

    /// Sampling frequency of the output grid, in Hz (Δt = 1/f_s).
    #[arg(long, value_name = "HZ")]
    pub sampling_frequency: f64,

    /// (2,2)-mode frequency at the first sample, in Hz.
    #[arg(long, value_name = "HZ")]
    pub minimum_frequency: f64,

    /// (2,2)-mode frequency at which the phase is φ_ref, in Hz [default: the minimum
    /// frequency].
    #[arg(long, value_name = "HZ")]
    pub reference_frequency: Option<f64>,

    /// Output CSV file (written atomically), or `-` for standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: PathBuf,
}

/// The waveform models `tdpe waveform` can generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approximant {
    /// IMRPhenomT: the (2,2) mode of aligned-spin binaries (arXiv:2004.08302).
    IMRPhenomT,
}

impl Approximant {
    /// Every supported model.
    pub const ALL: [Approximant; 1] = [Approximant::IMRPhenomT];

    /// The name, as LALSuite spells it.
    pub fn name(self) -> &'static str {
        match self {
            Approximant::IMRPhenomT => "IMRPhenomT",
        }
    }
}

impl fmt::Display for Approximant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Approximant {
    type Err = String;

    /// Parses a LALSuite approximant name (case-insensitively).
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|a| a.name()).collect();
                format!("unknown approximant '{s}'; supported: {}", names.join(", "))
            })
    }
}

/// Fails unless `value` is finite and `ok`, naming the option and its allowed range.
fn check(name: &str, value: f64, ok: bool, allowed: &str) -> anyhow::Result<()> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        bail!("{name} = {value} is outside the allowed range {allowed}")
    }
}

/// Runs `tdpe waveform`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let fs = args.sampling_frequency;
    check("sampling_frequency", fs, fs > 0.0, "(0, ∞) Hz")?;
    let distance = args.luminosity_distance;
    check(
        "luminosity_distance",
        distance,
        distance > 0.0,
        "(0, ∞) Mpc",
    )?;
    check("inclination", args.inclination, true, "(-∞, ∞) rad")?;
    check("phase", args.phase, true, "(-∞, ∞) rad")?;
    let f_min = args.minimum_frequency;
    let f_ref = args.reference_frequency.unwrap_or(f_min);
    // A grid that cannot hold the lowest frequency would alias the whole waveform.
    if f_min.is_finite() && fs / 2.0 <= f_min {
        bail!(
            "sampling_frequency = {fs} Hz: its Nyquist frequency {} Hz must be above \
             minimum_frequency = {f_min} Hz",
            fs / 2.0
        );
    }

    let polarizations = match args.approximant {
        Approximant::IMRPhenomT => {
            let settings = Settings::lal(f_min, f_ref, 1.0 / fs);
            let model =
                IMRPhenomT::<f64>::new(args.mass_1, args.mass_2, args.chi_1, args.chi_2, &settings)
                    .with_context(|| format!("invalid parameters for {}", args.approximant))?;
            let samples = model.grid_length();
            if samples > MAX_SAMPLES {
                bail!(
                    "the waveform would have {samples} samples ({:.0} s at {fs} Hz), more than \
                     the {MAX_SAMPLES} allowed: raise minimum_frequency or lower \
                     sampling_frequency",
                    -model.start_time()
                );
            }
            model.polarizations_on_grid(distance, args.inclination, args.phase)
        }
    };

    if args.output.as_os_str() == "-" {
        let stdout = io::stdout().lock();
        match write_csv(&polarizations, BufWriter::new(stdout)) {
            // A closed pipe (`tdpe waveform ... -o - | head`) is not an error.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            result => result.context("cannot write to standard output"),
        }
    } else {
        atomic::write_with(&args.output, |temporary| {
            let file = File::create(temporary)?;
            Ok(write_csv(&polarizations, BufWriter::new(file))?)
        })
    }
}

/// Writes the header `t,hp,hc` and one line per sample, each value with 17 significant digits.
fn write_csv(pol: &Polarizations, mut w: impl Write) -> io::Result<()> {
    writeln!(w, "t,hp,hc")?;
    for (k, (hp, hc)) in pol.hp.iter().zip(&pol.hc).enumerate() {
        writeln!(w, "{:.16e},{hp:.16e},{hc:.16e}", pol.time(k))?;
    }
    w.flush()
}
