//! `pp.png`: a campaign's PP plot, as bilby's `make_pp_plot` draws it: for each parameter the
//! fraction of runs whose injection lies below credible level x of its posterior, against x,
//! over the grey 68 %, 95 % and 99.7 % bands that n uniform levels stay in (binomial
//! quantiles), with each parameter's Kolmogorov–Smirnov p-value in the legend and the combined
//! p-value in the title.

use std::path::Path;

use plotters::prelude::*;

use super::{atomic, font, palette};
use crate::campaign::pp::{pp_curve, PpTest};
use crate::campaign::uniformity::binomial_quantile;

/// Size of the figure in pixels.
const SIZE: (u32, u32) = (900, 800);
/// Points of the x grid (bilby's 1001).
const GRID: usize = 1001;
/// The share of the colour wheel the parameters' hues spread over.
const HUE_SPAN: f64 = 0.85;
/// The bands' confidence levels, and their grey.
const BANDS: [(f64, f64); 3] = [(0.997, 0.85), (0.95, 0.75), (0.68, 0.6)];

/// Writes the PP plot of `test` to `path` (atomically).
pub fn write(test: &PpTest, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    atomic::write_with(path, |temporary| draw(test, temporary))
}

fn draw(test: &PpTest, path: &Path) -> anyhow::Result<()> {
    let runs = test.levels.first().map_or(0, Vec::len);
    let grid: Vec<f64> = (0..GRID).map(|i| i as f64 / (GRID - 1) as f64).collect();
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("N = {runs}, combined p-value = {:.4}", test.combined_pvalue);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (font::FAMILY, 22))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..1.0, 0.0..1.0)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("C.I.")
        .y_desc("Fraction of events in C.I.")
        .label_style((font::FAMILY, 16))
        .draw()?;
    for (confidence, grey) in BANDS {
        let edge = (1.0 - confidence) / 2.0;
        let bound = |q: f64| -> Vec<f64> {
            grid.iter()
                .map(|&x| binomial_quantile(q, runs, x) as f64 / runs.max(1) as f64)
                .collect()
        };
        let (lower, upper) = (bound(edge), bound(1.0 - edge));
        let outline: Vec<(f64, f64)> = grid
            .iter()
            .zip(&upper)
            .map(|(&x, &u)| (x, u))
            .chain(grid.iter().zip(&lower).rev().map(|(&x, &l)| (x, l)))
            .collect();
        chart.draw_series(std::iter::once(Polygon::new(
            outline,
            palette::tint(palette::GREY, grey).filled(),
        )))?;
    }
    chart.draw_series(LineSeries::new(
        [(0.0, 0.0), (1.0, 1.0)],
        BLACK.stroke_width(1),
    ))?;
    let count = test.parameters.len().max(1);
    for (j, (name, levels)) in test.parameters.iter().zip(&test.levels).enumerate() {
        // Hues from red to violet, not round to red again: the first and last stay apart.
        let colour = HSLColor(HUE_SPAN * j as f64 / count as f64, 0.75, 0.42);
        let curve = pp_curve(levels, &grid);
        chart
            .draw_series(LineSeries::new(
                grid.iter().copied().zip(curve),
                colour.stroke_width(2),
            ))?
            .label(format!("{name} ({:.3})", test.pvalues[j]))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((font::FAMILY, 15))
        .draw()?;
    root.present()?;
    Ok(())
}
