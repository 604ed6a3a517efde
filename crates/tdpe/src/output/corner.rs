//! `corner.png` (the sampled parameters and the derived mass_1, mass_2, chi_eff) and
//! `corner_source_frame.png` (source-frame masses and redshift): the 1-D marginals on the
//! diagonal (histogram, dashed 5 % and 95 % quantiles, the median and 90 % interval as the
//! title) and the 2-D marginals below it (filled 50 % and 90 % credible regions of a lightly
//! smoothed histogram, their contours, and the draws outside them), with injected values marked
//! in orange, as bilby's corner plots.

use std::ops::Range;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{padded_range, tick_formatter};
use super::contour;
use super::density::Density;
use super::number_format::{decimals_for, fixed};
use super::plot_columns::{self, PlotColumn};
use super::quantile::CredibleInterval;
use super::{atomic, font, palette};
use crate::run_result::RunResult;

/// Side of one panel's plotting area in pixels.
const PANEL: i32 = 250;
/// Space between panels (room for the diagonal's titles).
const GAP: i32 = 26;
/// Room for tick labels and axis names left of the first column and below the last row.
const LABEL_AREA: i32 = 80;
/// Margins on the top (room for a two-line title) and right.
const MARGIN: i32 = 44;
/// Font size of the diagonal panels' titles.
const TITLE_SIZE: u32 = 14;
/// Bins of the 1-D histograms.
const BINS_1D: usize = 40;
/// Bins per axis of the 2-D histograms, and their smoothing in bins (corner.py-like).
const BINS_2D: usize = 40;
const SMOOTHING_BINS: f64 = 1.2;
/// Credible levels of the 2-D regions, innermost first.
const LEVELS: [f64; 2] = [0.5, 0.9];
/// At most this many draws are shown as points in a 2-D panel.
const MAX_POINTS: usize = 3000;

type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

/// Writes `corner.png` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let mut columns = plot_columns::sampled(result);
    // The component masses and χ_eff, which the sampled chirp mass, mass ratio and spins hide.
    let shown: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    columns.extend(
        ["mass_1", "mass_2", "chi_eff"]
            .into_iter()
            .filter(|name| !shown.iter().any(|s| s == name))
            .filter_map(|name| plot_columns::column(result, name)),
    );
    atomic::write_with(path, |temporary| draw(&columns, temporary))
}

/// Writes `corner_source_frame.png` for `result` to `path` (atomically): the source-frame
/// masses and the redshift (the cosmology of `run::derived`), with χ_eff, which they trade off
/// against.
pub fn write_source_frame(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let columns: Vec<PlotColumn> = [
        "mass_1_source",
        "mass_2_source",
        "chirp_mass_source",
        "total_mass_source",
        "chi_eff",
        "redshift",
    ]
    .into_iter()
    .filter_map(|name| plot_columns::column(result, name))
    .collect();
    atomic::write_with(path, |temporary| draw(&columns, temporary))
}

/// One plotted parameter with its axis range and interval.
struct Axis<'a> {
    column: &'a PlotColumn,
    range: Range<f64>,
    interval: CredibleInterval,
}

fn draw(columns: &[PlotColumn], path: &Path) -> anyhow::Result<()> {
    let n = columns.len().max(1) as i32;
    let side = LABEL_AREA + n * PANEL + (n - 1) * GAP + MARGIN;
    let root = BitMapBackend::new(path, (side as u32, side as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    if columns.is_empty() {
        let style = TextStyle::from((font::FAMILY, 16).into_font())
            .pos(Pos::new(HPos::Center, VPos::Center));
        root.draw_text("no sampled parameters", &style, (side / 2, side / 2))?;
        root.present()?;
        return Ok(());
    }
    let axes: Vec<Axis> = columns
        .iter()
        .map(|c| Axis {
            column: c,
            range: padded_range(c.values.iter().copied(), c.truth, 0.02),
            interval: CredibleInterval::of(&c.values),
        })
        .collect();
    let last = axes.len() - 1;
    // One size for every axis name: 15 px, smaller if the longest would not fit along a panel.
    let longest = columns
        .iter()
        .map(|c| c.label.as_str())
        .max_by_key(|l| l.chars().count())
        .unwrap_or("");
    let name_size = font::size_to_fit(&root, longest, PANEL as u32 - 10, 15);
    for (row, y_axis) in axes.iter().enumerate() {
        for (col, x_axis) in axes.iter().enumerate().take(row + 1) {
            let left = if col == 0 { LABEL_AREA } else { 0 };
            let below = if row == last { LABEL_AREA } else { 0 };
            let x = LABEL_AREA + col as i32 * (PANEL + GAP);
            let y = MARGIN + row as i32 * (PANEL + GAP);
            let area = root
                .clone()
                .shrink((x - left, y), (PANEL + left, PANEL + below));
            let labels = PanelLabels {
                left: left as u32,
                below: below as u32,
                name_size,
            };
            if row == col {
                marginal(&root, &area, x_axis, labels, (x, y))?;
            } else {
                joint(&root, &area, x_axis, y_axis, labels)?;
            }
        }
    }
    if axes.len() > 1 {
        key(&root, side)?;
    }
    root.present()?;
    Ok(())
}

/// What the titles, regions and orange lines mean, in the empty upper right of the figure.
fn key(root: &Area, side: i32) -> anyhow::Result<()> {
    let style =
        TextStyle::from((font::FAMILY, 16).into_font()).pos(Pos::new(HPos::Right, VPos::Top));
    let lines = [
        "Titles: median and 90 % credible interval (5 % and 95 % quantiles, dashed).",
        "Filled regions: 50 % and 90 % credible. Orange: injected values.",
    ];
    for (k, line) in lines.iter().enumerate() {
        root.draw_text(line, &style, (side - MARGIN, MARGIN + 24 * k as i32))?;
    }
    Ok(())
}

/// Sizes of a panel's label areas (non-zero only on the outer column and row) and of the axis
/// names' font.
#[derive(Clone, Copy)]
struct PanelLabels {
    left: u32,
    below: u32,
    name_size: u32,
}

fn tick_style() -> TextStyle<'static> {
    TextStyle::from((font::FAMILY, 12).into_font())
}

fn description_style(labels: PanelLabels) -> TextStyle<'static> {
    TextStyle::from((font::FAMILY, labels.name_size).into_font())
}

/// The 1-D marginal of `axis`, with its title above the panel at `(x, y)`.
fn marginal(
    root: &Area,
    area: &Area,
    axis: &Axis,
    labels: PanelLabels,
    (x, y): (i32, i32),
) -> anyhow::Result<()> {
    let range = &axis.range;
    let width = (range.end - range.start) / BINS_1D as f64;
    let mut counts = vec![0.0_f64; BINS_1D];
    for &v in &axis.column.values {
        let k = ((v - range.start) / width).floor();
        if k >= 0.0 && k <= BINS_1D as f64 {
            counts[(k as usize).min(BINS_1D - 1)] += 1.0;
        }
    }
    let peak = counts.iter().copied().fold(0.0, f64::max);
    let y_max = if peak > 0.0 { 1.1 * peak } else { 1.0 };
    let mut chart = ChartBuilder::on(area)
        .x_label_area_size(labels.below)
        .y_label_area_size(labels.left)
        .build_cartesian_2d(range.clone(), 0.0..y_max)?;
    let x_ticks = tick_formatter(range);
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(5)
        .y_labels(0)
        .x_label_formatter(&x_ticks)
        .x_desc(axis.column.label.as_str())
        .label_style(tick_style())
        .axis_desc_style(description_style(labels))
        .draw()?;
    // The histogram as a filled step outline.
    let mut outline = vec![(range.start, 0.0)];
    for (k, &c) in counts.iter().enumerate() {
        let x0 = range.start + k as f64 * width;
        outline.push((x0, c));
        outline.push((x0 + width, c));
    }
    outline.push((range.end, 0.0));
    chart.draw_series(std::iter::once(Polygon::new(
        outline.clone(),
        palette::tint(palette::POSTERIOR, 0.8).filled(),
    )))?;
    chart.draw_series(std::iter::once(PathElement::new(
        outline,
        palette::POSTERIOR.stroke_width(2),
    )))?;
    let ci = &axis.interval;
    for q in [ci.lower, ci.upper] {
        if q.is_finite() {
            chart.draw_series(DashedLineSeries::new(
                [(q, 0.0), (q, y_max)],
                6,
                4,
                palette::POSTERIOR.stroke_width(1),
            ))?;
        }
    }
    if let Some(t) = axis.column.truth.filter(|t| t.is_finite()) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(t, 0.0), (t, y_max)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    frame(&chart)?;
    // Title: median with the distances to the 90 % bounds; on two lines if one would not fit
    // (above a diagonal panel lies the empty upper triangle).
    let d = decimals_for(ci.upper - ci.lower, ci.median, 3);
    let name = format!("{} =", axis.column.quantity);
    let values = format!(
        "{} +{} −{}",
        fixed(ci.median, d),
        fixed(ci.upper - ci.median, d),
        fixed(ci.median - ci.lower, d)
    );
    let one_line = format!("{name} {values}");
    let style = |size| {
        TextStyle::from((font::FAMILY, size).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom))
    };
    let (centre, bottom) = (x + PANEL / 2, y - 4);
    if font::size_to_fit(root, &one_line, (PANEL + GAP) as u32, TITLE_SIZE) == TITLE_SIZE {
        root.draw_text(&one_line, &style(TITLE_SIZE), (centre, bottom))?;
    } else {
        root.draw_text(&values, &style(TITLE_SIZE), (centre, bottom))?;
        root.draw_text(
            &name,
            &style(TITLE_SIZE),
            (centre, bottom - TITLE_SIZE as i32 - 4),
        )?;
    }
    Ok(())
}

/// The 2-D marginal of `(x_axis, y_axis)`.
fn joint(
    root: &Area,
    area: &Area,
    x_axis: &Axis,
    y_axis: &Axis,
    labels: PanelLabels,
) -> anyhow::Result<()> {
    let (xr, yr) = (&x_axis.range, &y_axis.range);
    let mut chart = ChartBuilder::on(area)
        .x_label_area_size(labels.below)
        .y_label_area_size(labels.left)
        .build_cartesian_2d(xr.clone(), yr.clone())?;
    let (x_ticks, y_ticks) = (tick_formatter(xr), tick_formatter(yr));
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(5)
        .y_labels(5)
        .x_label_formatter(&x_ticks)
        .y_label_formatter(&y_ticks)
        .x_desc(x_axis.column.label.as_str())
        .y_desc(y_axis.column.label.as_str())
        .label_style(tick_style())
        .axis_desc_style(description_style(labels))
        .draw()?;
    let (xs, ys) = (&x_axis.column.values, &y_axis.column.values);
    // Draws as faint points underneath; the filled regions cover those inside.
    let stride = xs.len().div_ceil(MAX_POINTS).max(1);
    chart.draw_series(
        xs.iter()
            .zip(ys)
            .step_by(stride)
            .filter(|(x, y)| xr.contains(x) && yr.contains(y))
            .map(|(&x, &y)| Circle::new((x, y), 1, palette::GREY.mix(0.35).filled())),
    )?;
    let density = Density::smoothed_histogram(xs, ys, xr, yr, BINS_2D, SMOOTHING_BINS);
    let levels = density.mass_levels(&LEVELS);
    fill_regions(root, &chart, &density, &levels)?;
    for (level, width) in levels.iter().zip([2, 2]) {
        let segments = contour::segments(&density, *level);
        let clamp = |(x, y): (f64, f64)| (x.clamp(xr.start, xr.end), y.clamp(yr.start, yr.end));
        chart.draw_series(segments.into_iter().map(|[p, q]| {
            PathElement::new(
                vec![clamp(p), clamp(q)],
                palette::POSTERIOR.stroke_width(width),
            )
        }))?;
    }
    if let Some(t) = x_axis.column.truth.filter(|t| t.is_finite()) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(t, yr.start), (t, yr.end)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    if let Some(t) = y_axis.column.truth.filter(|t| t.is_finite()) {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(xr.start, t), (xr.end, t)],
            palette::TRUTH.stroke_width(2),
        )))?;
    }
    if let (Some(tx), Some(ty)) = (x_axis.column.truth, y_axis.column.truth) {
        if tx.is_finite() && ty.is_finite() {
            chart.draw_series(std::iter::once(Circle::new(
                (tx, ty),
                4,
                palette::TRUTH.filled(),
            )))?;
        }
    }
    frame(&chart)?;
    Ok(())
}

/// Paints every pixel of the chart's plotting area whose interpolated density lies above a
/// level: the inner (50 %) region darker than the outer (90 %) one.
fn fill_regions(
    root: &Area,
    chart: &ChartContext<
        BitMapBackend,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    density: &Density,
    levels: &[f64],
) -> anyhow::Result<()> {
    let (px, py) = chart.plotting_area().get_pixel_range();
    let (xr, yr) = (chart.x_range(), chart.y_range());
    let (w, h) = (f64::from(px.end - px.start), f64::from(py.end - py.start));
    let colours = [
        palette::tint(palette::POSTERIOR, 0.45),
        palette::tint(palette::POSTERIOR, 0.75),
    ];
    for j in py.clone() {
        let y = yr.end - (f64::from(j - py.start) + 0.5) / h * (yr.end - yr.start);
        for i in px.clone() {
            let x = xr.start + (f64::from(i - px.start) + 0.5) / w * (xr.end - xr.start);
            let value = density.interpolate(x, y);
            if let Some(k) = levels.iter().position(|&level| value >= level) {
                root.draw_pixel((i, j), &colours[k.min(colours.len() - 1)])?;
            }
        }
    }
    Ok(())
}

/// A thin black box around the plotting area, as matplotlib's axes.
fn frame<X, Y>(chart: &ChartContext<BitMapBackend, Cartesian2d<X, Y>>) -> anyhow::Result<()>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let area = chart.plotting_area().strip_coord_spec();
    let (w, h) = area.dim_in_pixel();
    area.draw(&Rectangle::new(
        [(0, 0), (w as i32 - 1, h as i32 - 1)],
        BLACK.stroke_width(1),
    ))?;
    Ok(())
}
