//! `trace.png`: for each sampled parameter (and the log-likelihood), every chain's draws
//! against the iteration, one colour per chain, and beside it each chain's histogram of the
//! same draws (as ArviZ's `plot_trace`, turned on its side to share the value axis), with the
//! injected value as an orange line. Chains that disagree or stick show up at a glance.
//! The warm-up comes first, on a grey background at negative iterations and in lighter lines
//! (its states are not posterior draws: the marginals on the right leave them out, and values
//! outside the posterior's range are clamped to the axis). Transitions that diverged, in warm-up
//! or after it, are marked with a black tick under their chain's trace, and a legend names each
//! chain's colour with its divergences after warm-up.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{padded_range, tick_formatter};
use super::plot_columns::{self, PlotColumn};
use super::{atomic, font, number_format, palette};
use crate::run_result::RunResult;

/// Width of the figure in pixels.
const WIDTH: u32 = 1400;
/// Width of the per-chain histograms on the right.
const MARGINAL_WIDTH: u32 = 260;
/// Height of one parameter's row in pixels.
const ROW: u32 = 150;
/// Room for the title above the rows.
const TITLE: u32 = 40;
/// Room for the x-axis name below the last row.
const FOOTER: u32 = 30;
/// Bins of the per-chain histograms.
const BINS: usize = 30;

type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Writes `trace.png` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let mut columns = plot_columns::sampled(result);
    columns.extend(plot_columns::column(result, "log_likelihood"));
    // Captions: the axis label, with the convergence diagnostics where assessed ("Rhat": the
    // embedded font has no precomposed R̂).
    let captions: Vec<String> = columns
        .iter()
        .map(|c| match result.diagnostics_of(&c.name) {
            Some(d) => format!(
                "{}    Rhat {}   ESS bulk {}   tail {}",
                c.label,
                number_format::rhat(d.rhat),
                number_format::ess(d.ess_bulk),
                number_format::ess(d.ess_tail)
            ),
            None => c.label.clone(),
        })
        .collect();
    let title = format!(
        "{}: {} chains of {} ({} draws each after {} warm-up iterations)",
        result.label,
        result.sampler_kwargs.num_chains,
        result.sampler,
        result.draws_per_chain(),
        result.sampler_kwargs.num_warmup
    );
    let warmup: Vec<Option<Vec<f64>>> = columns
        .iter()
        .map(|c| plot_columns::warmup_values(result, &c.name))
        .collect();
    atomic::write_with(path, |temporary| {
        draw(
            &columns,
            &captions,
            &Transitions {
                chain_of: &result.posterior.chain,
                divergent: &result.posterior.divergent,
            },
            &warmup,
            &Transitions {
                chain_of: &result.warmup.chain,
                divergent: &result.warmup.divergent,
            },
            &title,
            temporary,
        )
    })
}

/// The chain and divergence of each row of a table of draws.
struct Transitions<'a> {
    chain_of: &'a [usize],
    divergent: &'a [bool],
}

impl Transitions<'_> {
    /// The iterations (within its chain, from 0) of each chain's divergent transitions.
    fn divergent_iterations(&self) -> BTreeMap<usize, Vec<usize>> {
        let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (&d, &c) in self.divergent.iter().zip(self.chain_of) {
            let i = seen.entry(c).or_default();
            if d {
                out.entry(c).or_default().push(*i);
            }
            *i += 1;
        }
        out
    }

    /// The largest number of rows of any chain.
    fn per_chain(&self) -> usize {
        let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
        for &c in self.chain_of {
            *counts.entry(c).or_default() += 1;
        }
        counts.into_values().max().unwrap_or(0)
    }
}

fn draw(
    columns: &[PlotColumn],
    captions: &[String],
    draws: &Transitions,
    warmup: &[Option<Vec<f64>>],
    warmup_transitions: &Transitions,
    title: &str,
    path: &Path,
) -> anyhow::Result<()> {
    let rows = columns.len().max(1) as u32;
    let root = BitMapBackend::new(path, (WIDTH, TITLE + rows * ROW + FOOTER)).into_drawing_area();
    root.fill(&WHITE)?;
    let title_style =
        TextStyle::from((font::FAMILY, 20).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    root.draw_text(title, &title_style, (WIDTH as i32 / 2, TITLE as i32 / 2))?;
    let (_, body) = root.split_vertically(TITLE);
    let (body, footer) = body.split_vertically(rows * ROW);
    if columns.is_empty() {
        body.draw_text(
            "no sampled parameters",
            &title_style,
            (WIDTH as i32 / 2, ROW as i32 / 2),
        )?;
        root.present()?;
        return Ok(());
    }
    let footer_style =
        TextStyle::from((font::FAMILY, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    let (trace_width, _) = body.dim_in_pixel();
    let trace_width = trace_width - MARGINAL_WIDTH;
    footer.draw_text(
        "iteration after warm-up (warm-up before 0, shaded); black ticks: divergent transitions",
        &footer_style,
        (trace_width as i32 / 2, FOOTER as i32 / 2),
    )?;
    footer.draw_text(
        "draws per chain",
        &footer_style,
        ((trace_width + MARGINAL_WIDTH / 2) as i32, FOOTER as i32 / 2),
    )?;
    let iterations = Iterations {
        warmup: warmup_transitions.per_chain(),
        draws: draws.per_chain().max(2),
    };
    let divergences = draws.divergent_iterations();
    let warmup_divergences = warmup_transitions.divergent_iterations();
    for (k, (((column, caption), warmup), row)) in columns
        .iter()
        .zip(captions)
        .zip(warmup)
        .zip(body.split_evenly((columns.len(), 1)))
        .enumerate()
    {
        let (left, right) = row.split_horizontally(trace_width);
        let chains = split_by_chain(&column.values, draws.chain_of);
        let warmup_chains = warmup
            .as_ref()
            .map(|values| split_by_chain(values, warmup_transitions.chain_of));
        let range = padded_range(column.values.iter().copied(), column.truth, 0.05);
        let legend = (k == 0).then_some(&divergences);
        draw_trace(
            &left,
            column,
            caption,
            (&chains, warmup_chains.as_ref()),
            &range,
            &iterations,
            (&divergences, &warmup_divergences),
            legend,
        )?;
        draw_marginals(&right, column, &chains, &range)?;
    }
    root.present()?;
    Ok(())
}

/// Iterations per chain of the warm-up and of the draws after it.
struct Iterations {
    warmup: usize,
    draws: usize,
}

type PerChain<T> = BTreeMap<usize, Vec<T>>;

/// Draws against iteration, one line per chain, under `caption`, after the warm-up's states
/// (at negative iterations) where there are any.
#[allow(clippy::too_many_arguments)]
fn draw_trace(
    area: &Area,
    column: &PlotColumn,
    caption: &str,
    (chains, warmup): (&PerChain<f64>, Option<&PerChain<f64>>),
    range: &Range<f64>,
    iterations: &Iterations,
    (divergences, warmup_divergences): (&PerChain<usize>, &PerChain<usize>),
    legend: Option<&PerChain<usize>>,
) -> anyhow::Result<()> {
    let first = -(iterations.warmup as f64);
    let last = iterations.draws as f64 - 1.0;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (font::FAMILY, 14))
        .margin_right(10)
        .x_label_area_size(20)
        .y_label_area_size(70)
        .build_cartesian_2d(first..last, range.clone())?;
    if iterations.warmup > 0 {
        chart.draw_series(std::iter::once(Rectangle::new(
            [(first, range.start), (0.0, range.end)],
            BLACK.mix(0.06).filled(),
        )))?;
    }
    let y_ticks = tick_formatter(range);
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.08))
        .y_labels(4)
        .x_labels(10)
        .y_label_formatter(&y_ticks)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .label_style((font::FAMILY, 12))
        .draw()?;
    // Warm-up states beyond the axis are clamped to it, so that a line leaving the range
    // stays visible as running along its edge.
    let clamp = |v: f64| v.clamp(range.start, range.end);
    for (&chain, states) in warmup.into_iter().flatten() {
        chart.draw_series(LineSeries::new(
            states
                .iter()
                .enumerate()
                .map(|(i, &v)| (first + i as f64, clamp(v)))
                .filter(|(_, v)| v.is_finite()),
            palette::chain(chain).mix(0.4).stroke_width(1),
        ))?;
    }
    for (&chain, draws) in chains {
        chart.draw_series(LineSeries::new(
            draws
                .iter()
                .enumerate()
                .map(|(i, &v)| (i as f64, v))
                .filter(|(_, v)| v.is_finite()),
            palette::chain(chain).mix(0.75).stroke_width(1),
        ))?;
    }
    if let Some(t) = column.truth.filter(|t| t.is_finite()) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(first, t), (last, t)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    // Divergent transitions: a tick along the bottom in the lowest tenth of the range.
    let tick = (range.start, range.start + 0.1 * (range.end - range.start));
    let ticks = divergences.values().flatten().map(|&i| i as f64).chain(
        warmup_divergences
            .values()
            .flatten()
            .map(|&i| first + i as f64),
    );
    chart.draw_series(
        ticks.map(|x| PathElement::new(vec![(x, tick.0), (x, tick.1)], DIVERGENT.stroke_width(2))),
    )?;
    if let Some(divergences) = legend {
        for &chain in chains.keys() {
            let count = divergences.get(&chain).map_or(0, Vec::len);
            chart
                .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())?
                .label(format!("chain {chain} ({count} divergent)"))
                .legend(move |(x, y)| {
                    PathElement::new(
                        vec![(x, y), (x + 20, y)],
                        palette::chain(chain).stroke_width(2),
                    )
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font((font::FAMILY, 11))
            .draw()?;
    }
    Ok(())
}

/// The colour of divergence ticks.
const DIVERGENT: RGBColor = RGBColor(0, 0, 0);

/// Each chain's histogram of the draws, on its side (value upwards), sharing the trace's
/// value axis.
fn draw_marginals(
    area: &Area,
    column: &PlotColumn,
    chains: &BTreeMap<usize, Vec<f64>>,
    range: &Range<f64>,
) -> anyhow::Result<()> {
    let width = (range.end - range.start) / BINS as f64;
    let histograms: Vec<(usize, Vec<f64>)> = chains
        .iter()
        .map(|(&chain, draws)| {
            let mut counts = vec![0.0; BINS];
            for &v in draws {
                let k = ((v - range.start) / width).floor();
                if k >= 0.0 && k <= BINS as f64 {
                    counts[(k as usize).min(BINS - 1)] += 1.0;
                }
            }
            (chain, counts)
        })
        .collect();
    let peak = histograms
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .fold(0.0, f64::max);
    let x_max = if peak > 0.0 { 1.1 * peak } else { 1.0 };
    // The empty caption keeps the plotting area level with the trace's.
    let mut chart = ChartBuilder::on(area)
        .caption(" ", (font::FAMILY, 14))
        .margin_right(20)
        .x_label_area_size(20)
        .build_cartesian_2d(0.0..x_max, range.clone())?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.08))
        .y_labels(0)
        .x_labels(3)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .label_style((font::FAMILY, 12))
        .draw()?;
    for (chain, counts) in &histograms {
        let mut outline = vec![(0.0, range.start)];
        for (k, &c) in counts.iter().enumerate() {
            let y0 = range.start + k as f64 * width;
            outline.push((c, y0));
            outline.push((c, y0 + width));
        }
        outline.push((0.0, range.end));
        chart.draw_series(std::iter::once(PathElement::new(
            outline,
            palette::chain(*chain).stroke_width(2),
        )))?;
    }
    if let Some(t) = column.truth.filter(|t| t.is_finite()) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, t), (x_max, t)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    Ok(())
}

/// The draws of each chain in order, keyed by chain index.
fn split_by_chain(values: &[f64], chain_of: &[usize]) -> BTreeMap<usize, Vec<f64>> {
    let mut chains: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
    for (&v, &c) in values.iter().zip(chain_of) {
        chains.entry(c).or_default().push(v);
    }
    chains
}
