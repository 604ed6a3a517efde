//! `waveform.png`: per detector, the whitened data and the whitened posterior waveforms (their
//! median and 90 % band at every sample) around the merger, with the whitened injection where
//! there is one, as bilby's `plot_interferometer_waveform_posterior` in the time domain, all
//! band-passed to the signal's band (`run_result::WaveformReconstruction::pass_band`).

use std::ops::Range;
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{padded_range, tick_formatter};
use super::quantile::{quantile_sorted, sorted};
use super::{atomic, font, palette};
use crate::run_result::{RunResult, WaveformReconstruction};

/// Width of the figure in pixels.
const WIDTH: u32 = 1200;
/// Height of one detector's panel in pixels.
const ROW: u32 = 340;
/// Shown window around the merger: this long before it …
const BEFORE_MERGER_S: f64 = 0.2;
/// … and this long after it.
const AFTER_MERGER_S: f64 = 0.05;

/// Writes `waveform.png` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let merger = merger_time(result);
    let window = merger - BEFORE_MERGER_S..merger + AFTER_MERGER_S;
    let x_label = format!("time − {} [s] (GPS)", result.trigger_time);
    atomic::write_with(path, |temporary| {
        draw(&result.reconstruction, &window, &x_label, temporary)
    })
}

/// Merger time relative to the trigger time: the posterior median of `geocent_time` (the
/// detectors' delays, ≤ 21 ms, are small against the window), else the trigger time itself.
fn merger_time(result: &RunResult) -> f64 {
    let median = result
        .posterior
        .column("geocent_time")
        .map(|t| quantile_sorted(&sorted(t), 0.5) - result.trigger_time)
        .unwrap_or(0.0);
    if median.is_finite() {
        median
    } else {
        0.0
    }
}

fn draw(
    detectors: &[WaveformReconstruction],
    window: &Range<f64>,
    x_label: &str,
    path: &Path,
) -> anyhow::Result<()> {
    let rows = detectors.len().max(1) as u32;
    let root = BitMapBackend::new(path, (WIDTH, rows * ROW)).into_drawing_area();
    root.fill(&WHITE)?;
    if detectors.is_empty() {
        let style = TextStyle::from((font::FAMILY, 16).into_font())
            .pos(Pos::new(HPos::Center, VPos::Center));
        root.draw_text(
            "no waveform reconstruction",
            &style,
            (WIDTH as i32 / 2, ROW as i32 / 2),
        )?;
        root.present()?;
        return Ok(());
    }
    for (detector, panel) in detectors
        .iter()
        .zip(root.split_evenly((detectors.len(), 1)))
    {
        draw_detector(&panel, detector, window, x_label)?;
    }
    root.present()?;
    Ok(())
}

/// Median and 5 %/95 % quantiles of the posterior waveforms at each shown sample.
struct Band {
    times: Vec<f64>,
    lower: Vec<f64>,
    median: Vec<f64>,
    upper: Vec<f64>,
}

fn band(detector: &WaveformReconstruction, shown: &[usize]) -> Band {
    let mut b = Band {
        times: Vec::new(),
        lower: Vec::new(),
        median: Vec::new(),
        upper: Vec::new(),
    };
    for &k in shown {
        let at_k: Vec<f64> = detector
            .whitened_waveforms
            .iter()
            .filter_map(|w| w.get(k).copied())
            .collect();
        if at_k.is_empty() {
            continue;
        }
        let s = sorted(&at_k);
        b.times.push(detector.times[k]);
        b.lower.push(quantile_sorted(&s, 0.05));
        b.median.push(quantile_sorted(&s, 0.5));
        b.upper.push(quantile_sorted(&s, 0.95));
    }
    b
}

fn draw_detector(
    panel: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
    detector: &WaveformReconstruction,
    window: &Range<f64>,
    x_label: &str,
) -> anyhow::Result<()> {
    let times = &detector.times;
    // The samples inside the window; the whole segment if the window misses it.
    let mut shown: Vec<usize> = (0..times.len())
        .filter(|&k| window.contains(&times[k]))
        .collect();
    if shown.is_empty() {
        shown = (0..times.len()).collect();
    }
    let x_range = padded_range(shown.iter().map(|&k| times[k]), None, 0.0);
    let band = band(detector, &shown);
    let data: Vec<(f64, f64)> = shown
        .iter()
        .filter_map(|&k| Some((times[k], *detector.whitened_data.get(k)?)))
        .filter(|(t, v)| t.is_finite() && v.is_finite())
        .collect();
    let injection: Vec<(f64, f64)> = detector
        .whitened_injection
        .as_ref()
        .map(|inj| {
            shown
                .iter()
                .filter_map(|&k| Some((times[k], *inj.get(k)?)))
                .collect()
        })
        .unwrap_or_default();
    let y_range = padded_range(
        data.iter()
            .map(|p| p.1)
            .chain(band.lower.iter().copied())
            .chain(band.upper.iter().copied()),
        None,
        0.08,
    );
    let mut chart = ChartBuilder::on(panel)
        .caption(
            format!(
                "{}: whitened data and posterior waveforms, band-passed {:.0}–{:.0} Hz",
                detector.detector, detector.pass_band.0, detector.pass_band.1
            ),
            (font::FAMILY, 18),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(x_range.clone(), y_range.clone())?;
    let (x_ticks, y_ticks) = (tick_formatter(&x_range), tick_formatter(&y_range));
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.08))
        .x_labels(12)
        .y_labels(6)
        .x_label_formatter(&x_ticks)
        .y_label_formatter(&y_ticks)
        .x_desc(x_label)
        .y_desc("whitened strain [σ]")
        .label_style((font::FAMILY, 13))
        .axis_desc_style((font::FAMILY, 15))
        .draw()?;
    chart
        .draw_series(LineSeries::new(
            data,
            palette::GREY.mix(0.6).stroke_width(1),
        ))?
        .label("whitened data")
        .legend(|(x, y)| {
            PathElement::new(vec![(x, y), (x + 20, y)], palette::GREY.stroke_width(2))
        });
    if !band.times.is_empty() {
        let outline: Vec<(f64, f64)> = band
            .times
            .iter()
            .zip(&band.upper)
            .map(|(&t, &v)| (t, v))
            .chain(
                band.times
                    .iter()
                    .zip(&band.lower)
                    .rev()
                    .map(|(&t, &v)| (t, v)),
            )
            .filter(|(t, v)| t.is_finite() && v.is_finite())
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                palette::POSTERIOR.mix(0.3).filled(),
            )))?
            .label("90 % credible band")
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 5), (x + 20, y + 5)],
                    palette::POSTERIOR.mix(0.3).filled(),
                )
            });
        chart
            .draw_series(LineSeries::new(
                band.times
                    .iter()
                    .zip(&band.median)
                    .map(|(&t, &v)| (t, v))
                    .filter(|(_, v)| v.is_finite()),
                palette::POSTERIOR.stroke_width(2),
            ))?
            .label("posterior median")
            .legend(|(x, y)| {
                PathElement::new(
                    vec![(x, y), (x + 20, y)],
                    palette::POSTERIOR.stroke_width(2),
                )
            });
    }
    if !injection.is_empty() {
        chart
            .draw_series(DashedLineSeries::new(
                injection,
                6,
                4,
                palette::TRUTH.stroke_width(2),
            ))?
            .label("injection")
            .legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], palette::TRUTH.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font((font::FAMILY, 13))
        .draw()?;
    Ok(())
}
