//! `spectrum.png`: per detector, on log–log axes, the data's amplitude spectrum, √PSD, and the
//! posterior signal's (median and 90 % band of the posterior draws' templates, the injection
//! where there is one), all in the ASD scaling of [`DetectorSpectrum`]; frequencies outside the
//! detector's analysed band [f_min, f_max] are shaded.

use std::path::Path;

use plotters::prelude::*;

use super::quantile::{quantile_sorted, sorted};
use super::{atomic, font, palette};
use crate::run_result::{DetectorSpectrum, RunResult};

/// Width of the figure and height of one detector's panel in pixels.
const WIDTH: u32 = 1100;
const ROW: u32 = 480;
/// The lowest frequency shown, as a fraction of f_min (the band's edge stays in view).
const BELOW_BAND: f64 = 0.5;

/// Writes `spectrum.png` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let nyquist = result.sampling_frequency / 2.0;
    let bands: Vec<Band> = result
        .detectors
        .iter()
        .map(|d| Band {
            f_min: d.minimum_frequency,
            f_max: d.maximum_frequency,
            nyquist,
        })
        .collect();
    atomic::write_with(path, |temporary| draw(&result.spectra, &bands, temporary))
}

/// A detector's analysed band and the top of the frequency axis.
#[derive(Clone, Copy)]
struct Band {
    f_min: f64,
    f_max: f64,
    nyquist: f64,
}

fn draw(spectra: &[DetectorSpectrum], bands: &[Band], path: &Path) -> anyhow::Result<()> {
    let rows = spectra.len().max(1) as u32;
    let root = BitMapBackend::new(path, (WIDTH, rows * ROW)).into_drawing_area();
    root.fill(&WHITE)?;
    for ((spectrum, band), panel) in spectra
        .iter()
        .zip(bands)
        .zip(root.split_evenly((spectra.len().max(1), 1)))
    {
        draw_detector(&panel, spectrum, *band)?;
    }
    root.present()?;
    Ok(())
}

/// The (f, log10 value) pairs inside [lo, hi] with a finite positive value. The value axis is
/// drawn in log10 on a linear scale: plotters' log axis finds no ticks at ~1e-23.
fn shown(frequencies: &[f64], values: &[f64], (lo, hi): (f64, f64)) -> Vec<(f64, f64)> {
    frequencies
        .iter()
        .zip(values)
        .filter(|(f, v)| **f >= lo && **f <= hi && v.is_finite() && **v > 0.0)
        .map(|(&f, &v)| (f, v.log10()))
        .collect()
}

fn draw_detector(
    panel: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
    spectrum: &DetectorSpectrum,
    Band {
        f_min,
        f_max,
        nyquist,
    }: Band,
) -> anyhow::Result<()> {
    let x_range = (f_min * BELOW_BAND, nyquist);
    let f = &spectrum.frequencies;
    let data = shown(f, &spectrum.data_asd, x_range);
    let psd = shown(f, &spectrum.psd_asd, x_range);
    // Median and 5 %/95 % quantiles of the draws' spectra at each frequency.
    let (mut lower, mut median, mut upper) = (Vec::new(), Vec::new(), Vec::new());
    if !spectrum.signal_asd.is_empty() {
        for (j, &fj) in f.iter().enumerate() {
            if fj < x_range.0 || fj > x_range.1 {
                continue;
            }
            let s = sorted(
                &spectrum
                    .signal_asd
                    .iter()
                    .filter_map(|a| a.get(j).copied())
                    .collect::<Vec<_>>(),
            );
            lower.push((fj, quantile_sorted(&s, 0.05).log10()));
            median.push((fj, quantile_sorted(&s, 0.5).log10()));
            upper.push((fj, quantile_sorted(&s, 0.95).log10()));
        }
    }
    // The PSD's minimum in the band sets the scale.
    let in_band = |p: &&(f64, f64)| p.0 >= f_min && p.0 <= f_max;
    let psd_min = psd
        .iter()
        .filter(in_band)
        .map(|p| p.1)
        .fold(f64::INFINITY, f64::min);
    let data_max = data.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    // In decades: 1.5 below the PSD's minimum, 0.3 above the data.
    let y_lo = if psd_min.is_finite() {
        psd_min - 1.5
    } else {
        -25.0
    };
    let y_hi = if data_max > y_lo {
        data_max + 0.3
    } else {
        y_lo + 4.0
    };
    let mut chart = ChartBuilder::on(panel)
        .caption(
            format!(
                "{}: data, PSD and posterior signal in the frequency domain",
                spectrum.detector
            ),
            (font::FAMILY, 18),
        )
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(90)
        .build_cartesian_2d((x_range.0..x_range.1).log_scale(), y_lo..y_hi)?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.08))
        .x_desc("frequency [Hz]")
        .y_desc("amplitude spectral density [Hz^-1/2]")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{:.0e}", 10f64.powf(*v)))
        .label_style((font::FAMILY, 13))
        .axis_desc_style((font::FAMILY, 15))
        .draw()?;
    // Outside the analysed band.
    let outside = [(x_range.0, f_min), (f_max, nyquist)]
        .into_iter()
        .filter(|(lo, hi)| lo < hi)
        .map(|(lo, hi)| Rectangle::new([(lo, y_lo), (hi, y_hi)], palette::GREY.mix(0.15).filled()));
    chart.draw_series(outside)?;
    chart
        .draw_series(LineSeries::new(
            data,
            palette::GREY.mix(0.7).stroke_width(1),
        ))?
        .label("data (Tukey-windowed periodogram)")
        .legend(|(x, y)| {
            PathElement::new(vec![(x, y), (x + 20, y)], palette::GREY.stroke_width(2))
        });
    chart
        .draw_series(LineSeries::new(psd, BLACK.stroke_width(2)))?
        .label("√PSD")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.stroke_width(2)));
    if !median.is_empty() {
        let outline: Vec<(f64, f64)> = upper
            .iter()
            .chain(lower.iter().rev())
            .map(|&(fj, v)| (fj, v.max(y_lo)))
            .filter(|(_, v)| v.is_finite())
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                palette::POSTERIOR.mix(0.3).filled(),
            )))?
            .label("signal, 90 % credible band")
            .legend(|(x, y)| {
                Rectangle::new(
                    [(x, y - 5), (x + 20, y + 5)],
                    palette::POSTERIOR.mix(0.3).filled(),
                )
            });
        chart
            .draw_series(LineSeries::new(
                median.into_iter().filter(|(_, v)| v.is_finite()),
                palette::POSTERIOR.stroke_width(2),
            ))?
            .label("signal, posterior median")
            .legend(|(x, y)| {
                PathElement::new(
                    vec![(x, y), (x + 20, y)],
                    palette::POSTERIOR.stroke_width(2),
                )
            });
    }
    if let Some(injection) = &spectrum.injection_asd {
        chart
            .draw_series(DashedLineSeries::new(
                shown(f, injection, x_range),
                6,
                4,
                palette::TRUTH.stroke_width(2),
            ))?
            .label("injected signal")
            .legend(|(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], palette::TRUTH.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font((font::FAMILY, 13))
        .draw()?;
    Ok(())
}
