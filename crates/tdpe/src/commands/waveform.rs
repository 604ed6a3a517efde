//! `tdpe waveform`: the polarisations (or the modes) of one binary on LAL's time grid, as CSV.
//!
//! The grid, epoch and reference phase are those of LALSuite's
//! `SimInspiralChooseTDWaveform` (and `SimInspiralChooseTDModes`), so the output can be
//! compared with LAL sample by sample.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use tdpe_phenomt::{IMRPhenomT, IMRPhenomTHM, Settings};

use crate::output::atomic;
use crate::waveform_model::{parse_mode_array, Approximant};

/// Most values held and written: 2e8 (h₊ and h× on 1e8 samples, ~7 h at 4096 Hz; ~1.6 GB in
/// memory and ~6 GB of CSV), so that the modes' two columns each get fewer samples.
const MAX_VALUES: usize = 200_000_000;

/// Writes h₊ and h× of a compact binary on LAL's time grid as CSV.
///
/// The output has the header `t,hp,hc`: t is the time in seconds relative to the peak of |h22|
/// (t_k = epoch + k/f_s, with LAL's epoch: the start time t(f_min) rounded to the nanosecond),
/// hp and hc are the dimensionless strain polarisations. With `--modes`, the modes h_lm (m > 0)
/// instead, as LAL's `SimInspiralChooseTDModes` gives them: the header `t,h22_re,h22_im,…`
/// with the real and imaginary parts of each mode of the mode array (h_{l,−m} =
/// (−1)^l conj(h_lm)). Every value is written with 17 significant digits, so that it reads back
/// exactly.
#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "Examples:\n  tdpe waveform --approximant IMRPhenomT --mass-1 36 --mass-2 29 \
                  --chi-1 0.3 --chi-2 -0.2 --luminosity-distance 410 --inclination 0.5 \
                  --phase 0.3 --sampling-frequency 4096 --minimum-frequency 20 --output wf.csv\n  \
                  tdpe waveform --approximant IMRPhenomTHM --mass-1 80 --mass-2 10 \
                  --luminosity-distance 800 --inclination 2.2 --sampling-frequency 4096 \
                  --minimum-frequency 20 --mode-array '[[2,2],[2,-2],[3,3],[3,-3]]' --modes \
                  --output modes.csv"
)]
pub struct Args {
    /// Waveform model [supported: IMRPhenomT, IMRPhenomTHM].
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

    /// The modes to include, as bilby's `mode_array`: a list of [l, m] with each mode's m and
    /// −m, e.g. `[[2,2],[2,-2],[2,1],[2,-1]]` [default: every mode of the approximant:
    /// (2,±2) for IMRPhenomT; (2,±2), (2,±1), (3,±3), (4,±4), (5,±5) for IMRPhenomTHM].
    #[arg(long, value_name = "[[L,M],...]")]
    pub mode_array: Option<String>,

    /// Write the modes h_lm (m > 0) of the mode array instead of the polarisations.
    #[arg(long)]
    pub modes: bool,

    /// Output CSV file (written atomically), or `-` for standard output.
    #[arg(long, short, value_name = "PATH")]
    pub output: PathBuf,
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
    let table = table(args)?;
    if args.output.as_os_str() == "-" {
        let stdout = io::stdout().lock();
        match table.write_csv(BufWriter::new(stdout)) {
            // A closed pipe (`tdpe waveform ... -o - | head`) is not an error.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            result => result.context("cannot write to standard output"),
        }
    } else {
        atomic::write_with(&args.output, |temporary| {
            let file = File::create(temporary)?;
            Ok(table.write_csv(BufWriter::new(file))?)
        })
    }
}

/// The model of `args` (its `output` unused), every option checked as the command checks it:
/// the Python package's waveform at any times is this model.
pub fn model(args: &Args) -> anyhow::Result<IMRPhenomTHM<f64>> {
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

    let modes = match &args.mode_array {
        Some(text) => args.approximant.mode_array(&parse_mode_array(text)?)?,
        None => args.approximant.modes().to_vec(),
    };
    let settings = Settings::lal(f_min, f_ref, 1.0 / fs);
    IMRPhenomTHM::<f64>::new(
        args.mass_1,
        args.mass_2,
        args.chi_1,
        args.chi_2,
        &settings,
        &modes,
    )
    .with_context(|| format!("invalid parameters for {}", args.approximant))
}

/// The columns `tdpe waveform` writes for `args` (its `output` unused), checked as the
/// command checks them: the Python package's waveform on LAL's grid is this table.
pub fn table(args: &Args) -> anyhow::Result<Table> {
    let model = model(args)?;
    let (fs, distance) = (args.sampling_frequency, args.luminosity_distance);
    let modes = model.modes();
    let model22: &IMRPhenomT<f64> = model.model22();
    let samples = model22.grid_length();
    let columns = if args.modes { 2 * modes.len() } else { 2 };
    if samples.saturating_mul(columns) > MAX_VALUES {
        bail!(
            "the waveform would have {samples} samples ({:.0} s at {fs} Hz) of {columns} columns, \
             more than the {MAX_VALUES} values allowed: raise minimum_frequency or lower \
             sampling_frequency",
            -model22.start_time()
        );
    }
    let table = if args.modes {
        let mut header = vec!["t".to_string()];
        for mode in model.modes() {
            let (l, m) = mode.lm();
            header.extend([format!("h{l}{m}_re"), format!("h{l}{m}_im")]);
        }
        let scale = 1.0 / distance;
        let columns = model
            .modes_on_grid()
            .into_iter()
            .flat_map(|mode| {
                let (re, im): (Vec<f64>, Vec<f64>) = mode
                    .into_iter()
                    .map(|(re, im)| (re * scale, im * scale))
                    .unzip();
                [re, im]
            })
            .collect();
        Table {
            header,
            epoch_ns: model22.epoch_ns(),
            delta_t: model22.delta_t(),
            columns,
        }
    } else {
        let pol = model.polarizations_on_grid(distance, args.inclination, args.phase);
        Table {
            header: ["t", "hp", "hc"].map(String::from).to_vec(),
            epoch_ns: pol.epoch_ns,
            delta_t: pol.delta_t,
            columns: vec![pol.hp, pol.hc],
        }
    };
    Ok(table)
}

/// Columns on LAL's grid, with their names (the time column first, which is not stored: sample
/// k is at `epoch_ns`·10⁻⁹ + k·`delta_t` s from the peak of |h22|).
pub struct Table {
    /// `t`, then one name per column (`hp`, `hc`, or `h22_re`, `h22_im`, …).
    pub header: Vec<String>,
    /// LAL's epoch: the first sample's time, in ns relative to the peak.
    pub epoch_ns: i64,
    /// The sample spacing (s).
    pub delta_t: f64,
    /// The columns after the time, in the header's order.
    pub columns: Vec<Vec<f64>>,
}

impl Table {
    /// Writes the header and one line per sample (the time, then each column), each value
    /// with 17 significant digits.
    fn write_csv(&self, mut w: impl Write) -> io::Result<()> {
        writeln!(w, "{}", self.header.join(","))?;
        let samples = self.columns.first().map_or(0, Vec::len);
        for k in 0..samples {
            // LAL's time of sample k: epoch + k·Δt.
            let t = self.epoch_ns as f64 * 1e-9 + k as f64 * self.delta_t;
            write!(w, "{t:.16e}")?;
            for column in &self.columns {
                write!(w, ",{:.16e}", column[k])?;
            }
            writeln!(w)?;
        }
        w.flush()
    }
}
