//! `trace.png`: for each sampled parameter (and the log-likelihood), every chain's draws
//! against the iteration, one colour per chain, and beside it each chain's histogram of the
//! same draws (as ArviZ's `plot_trace`, turned on its side to share the value axis), with the
//! injected value as an orange line. Chains that disagree or stick show up at a glance.
//! Draws made by a divergent transition are marked with a black tick under their chain's trace,
//! and a legend names each chain's colour with its divergences. The warm-up draws are not kept
//! by the sampler (only their statistics), so the iterations count from the end of warm-up,
//! as the axis says.

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
    atomic::write_with(path, |temporary| {
        draw(
            &columns,
            &captions,
            &result.posterior.chain,
            &result.posterior.divergent,
            &title,
            temporary,
        )
    })
}

fn draw(
    columns: &[PlotColumn],
    captions: &[String],
    chain_of: &[usize],
    divergent: &[bool],
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
        "iteration after warm-up (warm-up draws are not kept); black ticks: divergent transitions",
        &footer_style,
        (trace_width as i32 / 2, FOOTER as i32 / 2),
    )?;
    footer.draw_text(
        "draws per chain",
        &footer_style,
        ((trace_width + MARGINAL_WIDTH / 2) as i32, FOOTER as i32 / 2),
    )?;
    let iterations = iterations_per_chain(chain_of).max(2) as f64;
    let divergences = divergent_iterations(divergent, chain_of);
    for (k, ((column, caption), row)) in columns
        .iter()
        .zip(captions)
        .zip(body.split_evenly((columns.len(), 1)))
        .enumerate()
    {
        let (left, right) = row.split_horizontally(trace_width);
        let chains = split_by_chain(&column.values, chain_of);
        let range = padded_range(column.values.iter().copied(), column.truth, 0.05);
        let legend = (k == 0).then_some(&divergences);
        draw_trace(
            &left,
            column,
            caption,
            &chains,
            &range,
            iterations,
            &divergences,
            legend,
        )?;
        draw_marginals(&right, column, &chains, &range)?;
    }
    root.present()?;
    Ok(())
}

/// Draws against iteration, one line per chain, under `caption`.
#[allow(clippy::too_many_arguments)]
fn draw_trace(
    area: &Area,
    column: &PlotColumn,
    caption: &str,
    chains: &BTreeMap<usize, Vec<f64>>,
    range: &Range<f64>,
    iterations: f64,
    divergences: &BTreeMap<usize, Vec<usize>>,
    legend: Option<&BTreeMap<usize, Vec<usize>>>,
) -> anyhow::Result<()> {
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (font::FAMILY, 14))
        .margin_right(10)
        .x_label_area_size(20)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..iterations - 1.0, range.clone())?;
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
            vec![(0.0, t), (iterations - 1.0, t)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    // Divergent draws: a tick along the bottom in the lowest tenth of the range.
    let tick = (range.start, range.start + 0.1 * (range.end - range.start));
    for iterations in divergences.values() {
        chart.draw_series(iterations.iter().map(|&i| {
            PathElement::new(
                vec![(i as f64, tick.0), (i as f64, tick.1)],
                DIVERGENT.stroke_width(2),
            )
        }))?;
    }
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

/// The iterations (within its chain) of each chain's divergent draws.
fn divergent_iterations(divergent: &[bool], chain_of: &[usize]) -> BTreeMap<usize, Vec<usize>> {
    let mut seen: BTreeMap<usize, usize> = BTreeMap::new();
    let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (&d, &c) in divergent.iter().zip(chain_of) {
        let i = seen.entry(c).or_default();
        if d {
            out.entry(c).or_default().push(*i);
        }
        *i += 1;
    }
    out
}

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

/// The largest number of draws of any chain.
fn iterations_per_chain(chain_of: &[usize]) -> usize {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for &c in chain_of {
        *counts.entry(c).or_default() += 1;
    }
    counts.into_values().max().unwrap_or(0)
}
