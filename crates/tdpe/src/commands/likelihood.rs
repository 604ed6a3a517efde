//! `tdpe likelihood`: the exact and the relative-binning log-likelihood ratio at given points,
//! read from a file, or streamed from standard input so that another program (a nested
//! sampler, say) can use tdpe as its likelihood.
//!
//! The set-up is `tdpe run`'s (same config, data, PSDs, fiducial point and relative-binning
//! options), so the numbers are the ones the sampler sees.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SpinModel};

use crate::config::Config;
use crate::data::excerpt;
use crate::output::atomic;
use crate::problem::{Model, Problem};
use crate::run::relative_binning_at_fiducial;

/// Evaluates ln L (log-likelihood ratio against noise alone) exactly and by relative binning at
/// each row of a CSV of points, and writes `lnl_exact,lnl_rb,gradient_norm_rb` (or `lnl_rb`
/// alone with --relative-binning-only).
///
/// POINTS has a header naming bilby's parameters of the config's spin model in any order:
/// chirp_mass, mass_ratio, chi_1, chi_2 (aligned spins) or a_1, a_2, tilt_1, tilt_2, phi_12,
/// phi_jl (precessing), and luminosity_distance, theta_jn, psi, phase, geocent_time [GPS s], ra,
/// dec; other columns are ignored, so a run's samples.csv can be fed back.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Streaming (--points -): after the set-up, tdpe reads the header line from standard input and
writes the output header, then answers each row with one output line as soon as the row is read
(flushed), until the input ends; another program can use it as a coprocess. Blank lines and lines
starting with '#' get no answer. A point where the likelihood cannot be evaluated (e.g. outside
the waveform model's range) or is not finite is answered with ln L = -inf (zero likelihood; NaN
for the gradient norm), as `tdpe run`'s samplers treat it; the first such error and the count go
to standard error. A malformed row (wrong number of fields, a value that is not a finite number)
stops tdpe with an error. With a points file, any failure is an error.

Examples:
  tdpe likelihood examples/default.toml --points tdpe-out/samples.csv --output lnl.csv
  tdpe likelihood default --points - --output - --relative-binning-only")]
pub struct Args {
    /// Run configuration (TOML), as for `tdpe run`; `default` for the embedded one.
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,

    /// Points to evaluate (CSV with a header); `-` streams them from standard input.
    #[arg(long, value_name = "FILE")]
    pub points: PathBuf,

    /// Output CSV (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub output: PathBuf,

    /// Only the relative-binning ln L (column `lnl_rb`): no exact likelihood, no gradient.
    /// Fast enough for the millions of calls of a nested sampler.
    #[arg(long)]
    pub relative_binning_only: bool,
}

/// How messages name the streamed input.
const STANDARD_INPUT: &str = "standard input";

/// Runs `tdpe likelihood`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = if args.config.as_os_str() == "default" {
        Config::load(None)?
    } else {
        Config::load(Some(&args.config))?
    };
    let quantities = if args.relative_binning_only {
        Quantities::RelativeBinning
    } else {
        Quantities::All
    };
    // Priors of another spin model than the waveform's stop here, before the points are read.
    let spin_model = Model::new(&config)?.with_likelihood()?.priors.spin_model;
    let streaming = args.points.as_os_str() == "-";
    // A points file is read before the set-up, so that a bad one fails fast.
    let points = if streaming {
        None
    } else {
        let text = std::fs::read_to_string(&args.points)
            .with_context(|| format!("cannot read {}", args.points.display()))?;
        let source = args.points.display().to_string();
        Some(parse_points(&text, &source, spin_model)?)
    };
    let problem = Problem::set_up(config)?;
    let (_, rb, _) = relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false))?;
    let evaluate = |absolute: &ParameterVector| -> anyhow::Result<Vec<f64>> {
        let mut theta = *absolute;
        theta[Parameter::GeocentTime] -= problem.epoch.as_f64();
        let p = BbhParameters::from_array(theta);
        match quantities {
            Quantities::RelativeBinning => Ok(vec![rb.log_likelihood_ratio(&p)?]),
            Quantities::All => {
                let exact = problem.exact().log_likelihood_ratio(&p)?;
                let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
                let relative = rb.log_likelihood_ratio_and_gradient(&p, &mut gradient)?;
                let norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
                Ok(vec![exact, relative, norm])
            }
        }
    };

    let Some(points) = points else {
        return stream_standard_input(&args.output, quantities, spin_model, evaluate);
    };
    let mut out = format!("{}\n", quantities.header());
    for (row, absolute) in points.iter().enumerate() {
        let values = evaluate(absolute)
            .with_context(|| format!("{}: row {} of the points", args.points.display(), row + 1))?;
        out.push_str(&format_row(&values));
        out.push('\n');
    }
    if args.output.as_os_str() == "-" {
        print!("{out}");
        Ok(())
    } else {
        atomic::write_bytes(&args.output, out.as_bytes())
    }
}

/// Streams the points of standard input to `output` (`-` for standard output; a file is
/// written as the answers come, not atomically) with [`stream_points`].
fn stream_standard_input<F>(
    output: &Path,
    quantities: Quantities,
    spin_model: SpinModel,
    evaluate: F,
) -> anyhow::Result<()>
where
    F: FnMut(&ParameterVector) -> anyhow::Result<Vec<f64>>,
{
    let output: Box<dyn Write> = if output.as_os_str() == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(
            std::fs::File::create(output)
                .with_context(|| format!("cannot create {}", output.display()))?,
        )
    };
    let input = std::io::stdin().lock();
    let summary = stream_points(input, output, quantities, spin_model, evaluate)?;
    if summary.failed > 0 {
        eprintln!(
            "tdpe likelihood: {} of {} points answered with ln L = -inf",
            summary.failed, summary.points
        );
    }
    Ok(())
}

/// The quantities written for each point.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Quantities {
    /// The exact ln L, the relative-binning ln L and the norm of its gradient.
    All,
    /// The relative-binning ln L alone.
    RelativeBinning,
}

impl Quantities {
    /// The output's header line.
    fn header(self) -> &'static str {
        match self {
            Self::All => "lnl_exact,lnl_rb,gradient_norm_rb",
            Self::RelativeBinning => "lnl_rb",
        }
    }

    /// The answer to a streamed point whose evaluation failed: ln L = −∞ (zero likelihood)
    /// and an undefined gradient norm.
    fn failed(self) -> Vec<f64> {
        match self {
            Self::All => vec![f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NAN],
            Self::RelativeBinning => vec![f64::NEG_INFINITY],
        }
    }
}

/// One output line (without the newline): the values comma-separated, with enough digits to
/// read back the same f64 (−∞ as `-inf`, NaN as `NaN`).
fn format_row(values: &[f64]) -> String {
    let fields: Vec<String> = values.iter().map(|v| format!("{v:.17e}")).collect();
    fields.join(",")
}

/// Whether a line of a points CSV holds a header or a row (it is not blank or a `#` comment).
fn is_data(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !line.starts_with('#')
}

/// Where the parameters of a point (its spin model's) are in the rows of a points CSV.
#[derive(Debug)]
struct Columns {
    parameters: &'static [Parameter],
    /// The field of each parameter, in the order of `parameters`.
    fields: Vec<usize>,
    /// The number of fields of the header, which every row must have.
    width: usize,
}

impl Columns {
    /// The columns named by `header`, which must name every parameter of `spin_model` (in any
    /// order; other columns are ignored). `source` names the input in messages.
    fn from_header(header: &str, source: &str, spin_model: SpinModel) -> anyhow::Result<Self> {
        let names: Vec<&str> = header.split(',').map(str::trim).collect();
        let parameters = spin_model.parameters();
        let wanted: Vec<&str> = parameters.iter().map(|p| p.name()).collect();
        if let Some(twice) = wanted
            .iter()
            .find(|wanted| names.iter().filter(|n| *n == *wanted).count() > 1)
        {
            bail!("{source}: the header names '{twice}' more than once");
        }
        let fields = wanted
            .iter()
            .map(|name| {
                names.iter().position(|n| n == name).with_context(|| {
                    format!(
                        "{source}: no column '{name}' in the header (needs {})",
                        wanted.join(", ")
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(Self {
            parameters,
            fields,
            width: names.len(),
        })
    }

    /// The parameters of `line`, line `number` (from 1) of `source` (geocent_time as given:
    /// absolute GPS).
    fn parse_row(
        &self,
        line: &str,
        source: &str,
        number: usize,
    ) -> anyhow::Result<ParameterVector> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != self.width {
            bail!(
                "{source}:{number}: {} fields, the header has {}: '{}'",
                fields.len(),
                self.width,
                excerpt(line)
            );
        }
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        for (&parameter, &field) in self.parameters.iter().zip(&self.fields) {
            theta[parameter] = fields[field]
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .with_context(|| {
                    format!(
                        "{source}:{number}: {} = '{}' is not a finite number",
                        parameter.name(),
                        fields[field]
                    )
                })?;
        }
        Ok(theta)
    }
}

/// The points of a CSV with a header naming `spin_model`'s parameters, as parameter vectors
/// (geocent_time absolute GPS); `source` names the file in messages.
pub fn parse_points(
    text: &str,
    source: &str,
    spin_model: SpinModel,
) -> anyhow::Result<Vec<ParameterVector>> {
    let mut lines = text.lines().enumerate().filter(|(_, line)| is_data(line));
    let Some((_, header)) = lines.next() else {
        bail!("{source}: no header line");
    };
    let columns = Columns::from_header(header, source, spin_model)?;
    lines
        .map(|(index, line)| columns.parse_row(line, source, index + 1))
        .collect()
}

/// What a stream of points came to.
#[derive(Debug, Default, PartialEq)]
struct StreamSummary {
    /// Rows answered.
    points: usize,
    /// Of those, rows answered with [`Quantities::failed`].
    failed: usize,
}

/// Streams points (the "Streaming" paragraph of `tdpe likelihood --help`): reads the header of
/// `input` and writes `quantities`' header to `output`, then answers each row of `input` with
/// `evaluate`'s values on one line, flushed before the next row is read. A failed or non-finite
/// evaluation is answered with [`Quantities::failed`] (the first error goes to standard
/// error); a malformed row, or an error reading or writing, ends the stream with an error.
fn stream_points<R, W, F>(
    input: R,
    mut output: W,
    quantities: Quantities,
    spin_model: SpinModel,
    mut evaluate: F,
) -> anyhow::Result<StreamSummary>
where
    R: BufRead,
    W: Write,
    F: FnMut(&ParameterVector) -> anyhow::Result<Vec<f64>>,
{
    let mut lines = input.lines().enumerate();
    let mut next_data = || -> anyhow::Result<Option<(usize, String)>> {
        for (index, line) in lines.by_ref() {
            let line = line.with_context(|| format!("cannot read {STANDARD_INPUT}"))?;
            if is_data(&line) {
                return Ok(Some((index + 1, line)));
            }
        }
        Ok(None)
    };
    let Some((_, header)) = next_data()? else {
        bail!("{STANDARD_INPUT}: no header line");
    };
    let columns = Columns::from_header(&header, STANDARD_INPUT, spin_model)?;
    let mut answer = |line: &str| -> anyhow::Result<()> {
        writeln!(output, "{line}")
            .and_then(|()| output.flush())
            .context("cannot write the output")
    };
    answer(quantities.header())?;
    let mut summary = StreamSummary::default();
    while let Some((number, line)) = next_data()? {
        let point = columns.parse_row(&line, STANDARD_INPUT, number)?;
        let values = evaluate(&point).and_then(|values| {
            if values.iter().all(|v| v.is_finite()) {
                Ok(values)
            } else {
                bail!("not finite: {}", format_row(&values))
            }
        });
        let values = values.unwrap_or_else(|error| {
            if summary.failed == 0 {
                eprintln!(
                    "tdpe likelihood: {STANDARD_INPUT}:{number}: {error:#}; answered with \
                     ln L = -inf (further failures are only counted)"
                );
            }
            summary.failed += 1;
            quantities.failed()
        });
        summary.points += 1;
        answer(&format_row(&values))?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::io::Read;
    use std::rc::Rc;

    #[test]
    fn columns_in_any_order_and_clear_errors() {
        let source = "points.csv";
        let mut names = SpinModel::Aligned.names();
        names.reverse();
        let header = format!("extra,{}", names.join(","));
        let values: Vec<String> = (0..11).rev().map(|k| k.to_string()).collect();
        let text = format!("{header}\n\n9,{}\n", values.join(","));
        let points = parse_points(&text, source, SpinModel::Aligned).unwrap();
        let expected: Vec<f64> = (0..11).map(f64::from).collect();
        assert_eq!(points, vec![SpinModel::Aligned.vector(&expected)]);

        let missing = header.replace(",dec", "");
        let err = parse_points(&missing, source, SpinModel::Aligned)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no column 'dec'"), "{err}");
        let bad = format!("{header}\n9,{}\n", values.join(",").replace("10", "nan"));
        let err = parse_points(&bad, source, SpinModel::Aligned)
            .unwrap_err()
            .to_string();
        assert!(err.contains("points.csv:2: dec = 'nan'"), "{err}");
        let short = format!("{header}\n1,2\n");
        let err = parse_points(&short, source, SpinModel::Aligned)
            .unwrap_err()
            .to_string();
        assert!(err.contains("2 fields, the header has 12"), "{err}");
        let twice = format!("{header},ra\n");
        let err = parse_points(&twice, source, SpinModel::Aligned)
            .unwrap_err()
            .to_string();
        assert!(err.contains("names 'ra' more than once"), "{err}");
        // A huge bad row is quoted by its start only.
        let long = format!("{header}\n1,{}\n", "2".repeat(1_000_000));
        let err = parse_points(&long, source, SpinModel::Aligned)
            .unwrap_err()
            .to_string();
        assert!(
            err.len() < 400 && err.contains("(1000002 bytes)"),
            "{}",
            err.len()
        );
    }

    /// A row of 11 equal values.
    fn row(value: f64) -> String {
        vec![value.to_string(); 11].join(",")
    }

    /// A stub likelihood: the sum of the parameters, failing where chirp_mass < 0 and NaN
    /// where it is 0.
    fn stub(theta: &ParameterVector) -> anyhow::Result<Vec<f64>> {
        match theta[0] {
            m if m < 0.0 => bail!("outside the model's range"),
            0.0 => Ok(vec![f64::NAN]),
            _ => Ok(vec![theta.iter().sum()]),
        }
    }

    #[test]
    fn streaming_answers_rows_and_survives_failed_evaluations() {
        let header = SpinModel::Aligned.names().join(",");
        let input = format!(
            "# points\n{header}\n{}\n\n{}\n# more\n{}\n{}\n",
            row(1.0),
            row(-1.0),
            row(0.0),
            row(0.5)
        );
        let mut output = Vec::new();
        let summary = stream_points(
            input.as_bytes(),
            &mut output,
            Quantities::RelativeBinning,
            SpinModel::Aligned,
            stub,
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(output).unwrap(),
            "lnl_rb\n1.10000000000000000e1\n-inf\n-inf\n5.50000000000000000e0\n"
        );
        assert_eq!(
            summary,
            StreamSummary {
                points: 4,
                failed: 2
            }
        );
        // The three-column output's failure row; Python's float() reads every field.
        let mut output = Vec::new();
        let input = format!("{header}\n{}\n", row(-1.0));
        stream_points(
            input.as_bytes(),
            &mut output,
            Quantities::All,
            SpinModel::Aligned,
            |_| bail!("no"),
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(output).unwrap(),
            "lnl_exact,lnl_rb,gradient_norm_rb\n-inf,-inf,NaN\n"
        );
    }

    #[test]
    fn streaming_stops_at_malformed_input() {
        let header = SpinModel::Aligned.names().join(",");
        let run = |input: String| {
            let mut output = Vec::new();
            let result = stream_points(
                input.as_bytes(),
                &mut output,
                Quantities::RelativeBinning,
                SpinModel::Aligned,
                stub,
            );
            (result, String::from_utf8(output).unwrap())
        };
        let (result, output) = run(format!("{header}\n{}\n1,2\n{}\n", row(1.0), row(2.0)));
        let err = format!("{:#}", result.unwrap_err());
        assert!(
            err.contains("standard input:3: 2 fields, the header has 11"),
            "{err}"
        );
        // Rows before the bad one were answered.
        assert_eq!(output, "lnl_rb\n1.10000000000000000e1\n");
        let (result, output) = run(format!("{header}\n{}\n", row(1.0).replace("1,", "x,")));
        let err = format!("{:#}", result.unwrap_err());
        assert!(err.contains("standard input:2:"), "{err}");
        assert_eq!(output, "lnl_rb\n");
        let (result, _) = run("# nothing\n".into());
        assert!(result.unwrap_err().to_string().contains("no header line"));
        let (result, _) = run("chirp_mass,mass_ratio\n".into());
        assert!(result.unwrap_err().to_string().contains("no column"));
    }

    /// Input that hands out one line per read and, before each line, checks that every line
    /// handed out so far has been answered and flushed: a coprocess waiting for each answer
    /// before it sends the next row never deadlocks.
    struct Lockstep {
        lines: Vec<String>,
        next: usize,
        flushed: Rc<RefCell<Vec<u8>>>,
    }

    impl Read for Lockstep {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let answered = self
                .flushed
                .borrow()
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            assert_eq!(answered, self.next, "line {} not answered", self.next);
            let Some(line) = self.lines.get(self.next) else {
                return Ok(0);
            };
            self.next += 1;
            let bytes = format!("{line}\n").into_bytes();
            assert!(bytes.len() <= buf.len());
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        }
    }

    /// Output that only becomes visible when flushed.
    struct FlushedOnly {
        pending: Vec<u8>,
        flushed: Rc<RefCell<Vec<u8>>>,
    }

    impl Write for FlushedOnly {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.pending.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            self.flushed.borrow_mut().append(&mut self.pending);
            Ok(())
        }
    }

    #[test]
    fn streaming_answers_each_row_before_reading_the_next() {
        let flushed = Rc::new(RefCell::new(Vec::new()));
        let mut lines = vec![SpinModel::Aligned.names().join(",")];
        lines.extend([1.0, -1.0, 2.0].map(row));
        let input = std::io::BufReader::new(Lockstep {
            lines,
            next: 0,
            flushed: Rc::clone(&flushed),
        });
        let output = FlushedOnly {
            pending: Vec::new(),
            flushed: Rc::clone(&flushed),
        };
        let summary = stream_points(
            input,
            output,
            Quantities::RelativeBinning,
            SpinModel::Aligned,
            stub,
        )
        .unwrap();
        assert_eq!(summary.points, 3);
        let text = String::from_utf8(flushed.borrow().clone()).unwrap();
        assert_eq!(
            text,
            "lnl_rb\n1.10000000000000000e1\n-inf\n2.20000000000000000e1\n"
        );
    }
}
