//! `tdpe waveform`: the polarisations (or the modes) of one binary on LAL's time grid, as CSV.
//!
//! The grid, epoch and reference phase are those of LALSuite's
//! `SimInspiralChooseTDWaveform` (and `SimInspiralChooseTDModes`), so the output can be
//! compared with LAL sample by sample.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use tdpe_phenomt::{IMRPhenomT, IMRPhenomTHM, IMRPhenomTPHM, Settings, DEFAULT_PREC_VERSION};

use crate::output::atomic;
use crate::waveform_model::{parse_mode_array, Approximant};

/// Most values held and written: 2e8 (h₊ and h× on 1e8 samples, ~7 h at 4096 Hz; ~1.6 GB in
/// memory and ~6 GB of CSV), so that the modes' two columns each get fewer samples.
const MAX_VALUES: usize = 200_000_000;

/// Writes h₊ and h× of a compact binary on LAL's time grid as CSV.
///
/// The output has the header `t,hp,hc`: t is the time in seconds relative to the peak of |h22|
/// (t_k = epoch + k/f_s, with LAL's epoch: the start time t(f_min) rounded to the nanosecond),
/// hp and hc are the dimensionless strain polarisations. With `--modes`, the modes h_lm
/// instead, as LAL's `SimInspiralChooseTDModes` gives them: for IMRPhenomT and IMRPhenomTHM the
/// modes with m > 0 of the mode array (h_{l,−m} = (−1)^l conj(h_lm)), header
/// `t,h22_re,h22_im,h21_re,…`; for IMRPhenomTPHM every mode of the L0 frame, 2 ≤ l ≤ 5 and
/// −l ≤ m ≤ l, in the order of LAL's reference files (l ascending, then m = l, −l, l−1,
/// −(l−1), …, 0), header `t,h22_re,h22_im,h2m2_re,h2m2_im,h21_re,…,h20_im,h33_re,…,h50_im`.
/// Every value is written with 17 significant digits, so that it reads back exactly.
#[derive(Debug, clap::Args)]
#[command(
    allow_negative_numbers = true,
    after_help = "Examples:\n  tdpe waveform --approximant IMRPhenomT --mass-1 36 --mass-2 29 \
                  --chi-1 0.3 --chi-2 -0.2 --luminosity-distance 410 --inclination 0.5 \
                  --phase 0.3 --sampling-frequency 4096 --minimum-frequency 20 --output wf.csv\n  \
                  tdpe waveform --approximant IMRPhenomTHM --mass-1 80 --mass-2 10 \
                  --luminosity-distance 800 --inclination 2.2 --sampling-frequency 4096 \
                  --minimum-frequency 20 --mode-array '[[2,2],[2,-2],[3,3],[3,-3]]' --modes \
                  --output modes.csv\n  \
                  tdpe waveform --approximant IMRPhenomTPHM --mass-1 36 --mass-2 29 \
                  --spin-1x 0.12 --spin-1y 0.05 --spin-1z 0.3 --spin-2x -0.08 --spin-2y 0.1 \
                  --spin-2z -0.2 --luminosity-distance 410 --inclination 2.7 --phase 0.3 \
                  --sampling-frequency 2048 --minimum-frequency 20 --output wf.csv"
)]
pub struct Args {
    /// Waveform model [supported: IMRPhenomT, IMRPhenomTHM (aligned spins), IMRPhenomTPHM
    /// (precessing)].
    #[arg(long, value_name = "NAME", default_value = "IMRPhenomT")]
    pub approximant: Approximant,

    /// Mass of the first body in the detector frame, in M☉.
    #[arg(long, value_name = "M_SUN")]
    pub mass_1: f64,

    /// Mass of the second body in the detector frame, in M☉ (the bodies are swapped if
    /// mass-2 > mass-1; the mass ratio must not exceed 200).
    #[arg(long, value_name = "M_SUN")]
    pub mass_2: f64,

    /// Dimensionless spin of the first body along the orbital angular momentum, in [-1, 1]
    /// (the same as --spin-1z: give one of the two) [default: 0].
    #[arg(long, value_name = "CHI")]
    pub chi_1: Option<f64>,

    /// Dimensionless spin of the second body along the orbital angular momentum, in [-1, 1]
    /// (the same as --spin-2z: give one of the two) [default: 0].
    #[arg(long, value_name = "CHI")]
    pub chi_2: Option<f64>,

    /// x component of the first body's dimensionless spin, in LAL's L0 frame at the
    /// reference frequency (z along the Newtonian orbital angular momentum; LAL's S1x).
    /// In-plane spins need IMRPhenomTPHM; |spin-1| ≤ 1 [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_1x: Option<f64>,

    /// y component of the first body's dimensionless spin in the L0 frame (LAL's S1y)
    /// [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_1y: Option<f64>,

    /// z component of the first body's dimensionless spin in the L0 frame (LAL's S1z): the
    /// same as --chi-1, for any approximant [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_1z: Option<f64>,

    /// x component of the second body's dimensionless spin in the L0 frame (LAL's S2x)
    /// [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_2x: Option<f64>,

    /// y component of the second body's dimensionless spin in the L0 frame (LAL's S2y)
    /// [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_2y: Option<f64>,

    /// z component of the second body's dimensionless spin in the L0 frame (LAL's S2z): the
    /// same as --chi-2 [default: 0].
    #[arg(long, value_name = "CHI")]
    pub spin_2z: Option<f64>,

    /// IMRPhenomTPHM's Euler angles, as LAL's `PrecVersion` [supported: 300, LAL's default:
    /// numerical angles from the orbit-averaged spin-precession equations; the NNLO (101–104)
    /// and MSA (220–224) angles, and XXXRG with XXX one of those, R (ringdown version) in 0–2,
    /// G (γ version) in 0–1] [default: 300].
    #[arg(long, value_name = "VERSION")]
    pub prec_version: Option<u32>,

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
    /// (2,±2) for IMRPhenomT; (2,±2), (2,±1), (3,±3), (4,±4), (5,±5) for IMRPhenomTHM and
    /// for IMRPhenomTPHM's co-precessing modes, as LAL's `ModeArray` selects them].
    #[arg(long, value_name = "[[L,M],...]")]
    pub mode_array: Option<String>,

    /// Write the modes h_lm instead of the polarisations: those with m > 0 of the mode array
    /// (IMRPhenomT, IMRPhenomTHM), or every L0-frame mode with l ≤ 5 (IMRPhenomTPHM).
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

/// The settings of `args` (LAL's grid), every option but the binary's checked.
fn settings(args: &Args) -> anyhow::Result<Settings> {
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
    Ok(Settings::lal(f_min, f_ref, 1.0 / fs))
}

/// The dimensionless spins of `args` in LAL's L0 frame, `[[χ1x, χ1y, χ1z], [χ2x, χ2y, χ2z]]`
/// (absent components 0), checked against the approximant: in-plane components other than 0
/// need IMRPhenomTPHM, and each aligned component is given once (`chi_1` or `spin_1z`).
fn spins(args: &Args) -> anyhow::Result<[[f64; 3]; 2]> {
    let approximant = args.approximant;
    let bodies = [
        (1, args.chi_1, [args.spin_1x, args.spin_1y, args.spin_1z]),
        (2, args.chi_2, [args.spin_2x, args.spin_2y, args.spin_2z]),
    ];
    let mut spins = [[0.0; 3]; 2];
    for (k, (body, chi, [x, y, z])) in bodies.into_iter().enumerate() {
        let z = match (chi, z) {
            (Some(_), Some(_)) => bail!(
                "chi_{body} and spin_{body}z both give body {body}'s spin along the orbital \
                 angular momentum: give one of them"
            ),
            (Some(v), None) | (None, Some(v)) => v,
            (None, None) => 0.0,
        };
        for (axis, value) in [("x", x), ("y", y)] {
            let Some(value) = value else { continue };
            if !approximant.is_precessing() && value != 0.0 {
                bail!(
                    "spin_{body}{axis} = {value}: {approximant} is aligned-spin; use \
                     IMRPhenomTPHM for in-plane spins"
                );
            }
            check(
                &format!("spin_{body}{axis}"),
                value,
                value.abs() <= 1.0,
                "[-1, 1]",
            )?;
        }
        let spin = [x.unwrap_or(0.0), y.unwrap_or(0.0), z];
        if approximant.is_precessing() {
            check(&format!("spin_{body}z"), z, true, "[-1, 1]")?;
            let magnitude = spin.iter().map(|c| c * c).sum::<f64>().sqrt();
            if magnitude > 1.0 {
                bail!(
                    "spin {body} = ({}, {}, {}) has magnitude {magnitude}: the allowed range of \
                     |spin_{body}| is [0, 1]",
                    spin[0],
                    spin[1],
                    spin[2]
                );
            }
        }
        spins[k] = spin;
    }
    Ok(spins)
}

/// The model of `args` (its `output` unused) for an aligned-spin approximant, every option
/// checked as the command checks it: the Python package's waveform at any times is this model.
/// IMRPhenomTPHM, whose Euler angles are integrated on LAL's grid, has no such model.
pub fn model(args: &Args) -> anyhow::Result<IMRPhenomTHM<f64>> {
    let settings = settings(args)?;
    let [chi1, chi2] = spins(args)?;
    if args.approximant.is_precessing() {
        bail!(
            "{} is generated on LAL's grid only (its Euler angles are integrated there), not at \
             arbitrary times",
            args.approximant
        );
    }
    if args.prec_version.is_some() {
        bail!(
            "prec_version applies to IMRPhenomTPHM only, not to {}",
            args.approximant
        );
    }
    let modes = match &args.mode_array {
        Some(text) => args.approximant.mode_array(&parse_mode_array(text)?)?,
        None => args.approximant.modes().to_vec(),
    };
    IMRPhenomTHM::<f64>::new(
        args.mass_1,
        args.mass_2,
        chi1[2],
        chi2[2],
        &settings,
        &modes,
    )
    .with_context(|| format!("invalid parameters for {}", args.approximant))
}

/// IMRPhenomTPHM for `args`, checked as the command checks it; fails before any expensive
/// work if the grid would hold more than [`MAX_VALUES`] values (`values_per_sample` a
/// sample).
fn precessing_model(args: &Args, values_per_sample: usize) -> anyhow::Result<IMRPhenomTPHM> {
    let settings = settings(args)?;
    let [chi1, chi2] = spins(args)?;
    let modes = match &args.mode_array {
        Some(text) => args.approximant.mode_array(&parse_mode_array(text)?)?,
        None => args.approximant.modes().to_vec(),
    };
    let prec_version = args.prec_version.unwrap_or(DEFAULT_PREC_VERSION);
    let invalid = || format!("invalid parameters for {}", args.approximant);
    // The grid's length from the (cheap) aligned-spin (2,2) model, before the angles are
    // integrated on it.
    let model22 = IMRPhenomT::<f64>::new(args.mass_1, args.mass_2, chi1[2], chi2[2], &settings)
        .with_context(invalid)?;
    check_size(&model22, values_per_sample, args.sampling_frequency)?;
    IMRPhenomTPHM::lal_with_modes(
        args.mass_1,
        args.mass_2,
        chi1,
        chi2,
        prec_version,
        &settings,
        &modes,
    )
    .with_context(invalid)
}

/// Fails unless the grid of `model22` with `values_per_sample` values a sample holds at most
/// [`MAX_VALUES`] values.
fn check_size(model22: &IMRPhenomT<f64>, values_per_sample: usize, fs: f64) -> anyhow::Result<()> {
    let samples = model22.grid_length();
    if samples.saturating_mul(values_per_sample) > MAX_VALUES {
        bail!(
            "the waveform would have {samples} samples ({:.0} s at {fs} Hz) of \
             {values_per_sample} values, more than the {MAX_VALUES} values allowed: raise \
             minimum_frequency or lower sampling_frequency",
            -model22.start_time()
        );
    }
    Ok(())
}

/// The L0-frame modes IMRPhenomTPHM writes, in the order of LAL's reference files: l
/// ascending, then m = l, −l, l−1, −(l−1), …, 0.
pub fn precessing_modes() -> Vec<(u32, i32)> {
    let mut modes = Vec::new();
    for l in 2..=5_u32 {
        for m in (1..=l as i32).rev() {
            modes.extend([(l, m), (l, -m)]);
        }
        modes.push((l, 0));
    }
    modes
}

/// A mode's column name without `_re`/`_im`: `h22`, `h2m2`, `h20`.
fn mode_name(l: u32, m: i32) -> String {
    if m < 0 {
        format!("h{l}m{}", -m)
    } else {
        format!("h{l}{m}")
    }
}

/// The columns of IMRPhenomTPHM for `args`.
fn precessing_table(args: &Args) -> anyhow::Result<Table> {
    let modes = precessing_modes();
    // Every L0 mode is held on the grid, to be summed or written.
    let per_sample = if args.modes {
        4 * modes.len()
    } else {
        2 * modes.len()
    };
    let model = precessing_model(args, per_sample)?;
    let distance = args.luminosity_distance;
    if args.modes {
        let l0 = model.l0_modes_on_grid();
        let scale = 1.0 / distance;
        let mut header = vec!["t".to_string()];
        let mut columns = Vec::with_capacity(2 * modes.len());
        for &(l, m) in &modes {
            let name = mode_name(l, m);
            header.extend([format!("{name}_re"), format!("{name}_im")]);
            let (re, im) = l0
                .iter()
                .map(|h| {
                    let (re, im) = h.get(l, m);
                    (re * scale, im * scale)
                })
                .unzip();
            columns.extend([re, im]);
        }
        let model22 = model.coprecessing().model22();
        Ok(Table {
            header,
            modes,
            epoch_ns: model22.epoch_ns(),
            delta_t: model22.delta_t(),
            columns,
        })
    } else {
        let pol = model.polarizations_on_grid(distance, args.inclination, args.phase);
        Ok(Table {
            header: ["t", "hp", "hc"].map(String::from).to_vec(),
            modes: Vec::new(),
            epoch_ns: pol.epoch_ns,
            delta_t: pol.delta_t,
            columns: vec![pol.hp, pol.hc],
        })
    }
}

/// The columns `tdpe waveform` writes for `args` (its `output` unused), checked as the
/// command checks them: the Python package's waveform on LAL's grid is this table.
pub fn table(args: &Args) -> anyhow::Result<Table> {
    if args.approximant.is_precessing() {
        return precessing_table(args);
    }
    let model = model(args)?;
    let distance = args.luminosity_distance;
    let modes = model.modes();
    let model22: &IMRPhenomT<f64> = model.model22();
    let columns = if args.modes { 2 * modes.len() } else { 2 };
    check_size(model22, columns, args.sampling_frequency)?;
    let table = if args.modes {
        let mut header = vec!["t".to_string()];
        let mut lm = Vec::new();
        for mode in model.modes() {
            let (l, m) = mode.lm();
            header.extend([format!("h{l}{m}_re"), format!("h{l}{m}_im")]);
            lm.push((l, m as i32));
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
            modes: lm,
            epoch_ns: model22.epoch_ns(),
            delta_t: model22.delta_t(),
            columns,
        }
    } else {
        let pol = model.polarizations_on_grid(distance, args.inclination, args.phase);
        Table {
            header: ["t", "hp", "hc"].map(String::from).to_vec(),
            modes: Vec::new(),
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
    /// With `--modes`, the (l, m) of each (re, im) pair of columns, in their order; empty for
    /// the polarisations.
    pub modes: Vec<(u32, i32)>,
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
