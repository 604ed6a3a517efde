//! `skymap.png`: the posterior on the sky in a Mollweide projection ([`super::mollweide`]),
//! with its 50 % and 90 % credible regions ([`SkyDensity`]) filled and outlined, their areas in
//! the title, the injection marked, a graticule every 2 h in right ascension and 30° in
//! declination, right ascension in hours (12 h at the centre, east to the left).

use std::f64::consts::{FRAC_PI_2, PI};
use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::mollweide::{self, HALF_HEIGHT, HALF_WIDTH};
use super::number_format::significant;
use super::sky_density::{CredibleRegion, SkyDensity};
use super::{atomic, font, palette};
use crate::run_result::RunResult;

/// Width of the figure in pixels (the map is twice as wide as high).
const WIDTH: u32 = 1200;
/// Margins around the map: left (declination labels), top (title), bottom (hour labels).
const LEFT: i32 = 60;
const TOP: i32 = 70;
const BOTTOM: i32 = 40;
/// The credible levels shown, innermost first.
pub const LEVELS: [f64; 2] = [0.5, 0.9];

/// The sky localisation of a run: the density and its [`LEVELS`] regions, when ra and dec
/// were sampled.
pub struct SkyLocalisation {
    /// The density estimate.
    pub density: SkyDensity,
    /// The 50 % and 90 % regions.
    pub regions: Vec<CredibleRegion>,
    /// The injection's (ra, dec), when there is one.
    pub injection: Option<(f64, f64)>,
}

impl SkyLocalisation {
    /// The localisation of `result`'s posterior; `None` when ra or dec was fixed.
    pub fn of(result: &RunResult) -> Option<Self> {
        let sampled = |name: &str| result.search_parameter_keys.iter().any(|k| k == name);
        if !(sampled("ra") && sampled("dec")) {
            return None;
        }
        let density = SkyDensity::estimate(
            result.posterior.column("ra")?,
            result.posterior.column("dec")?,
        )?;
        let regions = density.credible_regions(&LEVELS);
        let injection = result.injected("ra").zip(result.injected("dec"));
        Some(Self {
            density,
            regions,
            injection,
        })
    }

    /// "50 % area X deg², 90 % area Y deg²".
    pub fn areas_text(&self) -> String {
        self.regions
            .iter()
            .map(|r| {
                format!(
                    "{:.0} % area {} deg²",
                    100.0 * r.probability,
                    significant(r.area_deg2, 3)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Writes `skymap.png` to `path` (atomically).
pub fn write(result: &RunResult, sky: Option<&SkyLocalisation>, path: &Path) -> anyhow::Result<()> {
    font::ensure_registered()?;
    let title = match sky {
        Some(s) => format!("{}: sky position, {}", result.label, s.areas_text()),
        None => format!("{}: ra and dec were not sampled", result.label),
    };
    atomic::write_with(path, |temporary| draw(sky, &title, temporary))
}

fn draw(sky: Option<&SkyLocalisation>, title: &str, path: &Path) -> anyhow::Result<()> {
    let map_width = WIDTH as i32 - 2 * LEFT;
    let map_height = map_width / 2;
    let height = (TOP + map_height + BOTTOM) as u32;
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let centred = |size| {
        TextStyle::from((font::FAMILY, size).into_font()).pos(Pos::new(HPos::Center, VPos::Center))
    };
    root.draw_text(title, &centred(20), (WIDTH as i32 / 2, TOP / 3))?;
    // Pixel of a projected point, and back.
    let scale = f64::from(map_width) / (2.0 * HALF_WIDTH);
    let to_pixel = |(x, y): (f64, f64)| -> (i32, i32) {
        (
            LEFT + ((x + HALF_WIDTH) * scale).round() as i32,
            TOP + ((HALF_HEIGHT - y) * scale).round() as i32,
        )
    };
    let from_pixel = |i: i32, j: i32| {
        (
            f64::from(i - LEFT) / scale - HALF_WIDTH,
            HALF_HEIGHT - f64::from(j - TOP) / scale,
        )
    };
    // Regions: inner darker; the boundary is where a pixel's region differs from a neighbour's.
    let fills = [
        palette::tint(palette::POSTERIOR, 0.45),
        palette::tint(palette::POSTERIOR, 0.75),
    ];
    let region_of = |i: i32, j: i32| -> Option<Option<usize>> {
        let (x, y) = from_pixel(i, j);
        let (ra, dec) = mollweide::inverse(x, y)?;
        let s = sky?;
        let v = s.density.at(ra, dec);
        Some(s.regions.iter().position(|r| v >= r.density_level))
    };
    for j in TOP..TOP + map_height {
        for i in LEFT..LEFT + map_width {
            let Some(here) = region_of(i, j) else {
                continue;
            };
            let boundary = here.is_some()
                && [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .any(|(di, dj)| matches!(region_of(i + di, j + dj), Some(r) if r != here));
            let colour = if boundary {
                Some(palette::POSTERIOR)
            } else {
                here.map(|k| fills[k.min(fills.len() - 1)])
            };
            if let Some(c) = colour {
                root.draw_pixel((i, j), &c)?;
            }
        }
    }
    // Graticule: meridians every 2 h, parallels every 30°, and the outline.
    let line = |points: Vec<(f64, f64)>, style: ShapeStyle| {
        PathElement::new(points.into_iter().map(to_pixel).collect::<Vec<_>>(), style)
    };
    let grid = BLACK.mix(0.25).stroke_width(1);
    let steps = 180;
    for hour in (0..24).step_by(2) {
        let ra = f64::from(hour) * PI / 12.0;
        let points = (0..=steps)
            .map(|k| mollweide::forward(ra, -FRAC_PI_2 + PI * k as f64 / steps as f64))
            .collect();
        root.draw(&line(points, grid))?;
    }
    for degrees in [-60, -30, 0, 30, 60] {
        let dec = f64::from(degrees).to_radians();
        // Just inside 0 h on either side, so that the parallel spans the whole map.
        let points = (0..=steps)
            .map(|k| mollweide::forward(1e-9 + (2.0 * PI - 2e-9) * k as f64 / steps as f64, dec))
            .collect();
        root.draw(&line(points, grid))?;
    }
    let outline: Vec<(f64, f64)> = (0..=360)
        .map(|k| {
            let t = 2.0 * PI * f64::from(k) / 360.0;
            (HALF_WIDTH * t.cos(), HALF_HEIGHT * t.sin())
        })
        .collect();
    root.draw(&line(outline, BLACK.stroke_width(1)))?;
    // Labels: hours along the equator, declinations at the left edge.
    let small = |size| TextStyle::from((font::FAMILY, size).into_font());
    for hour in (0..24).step_by(2).filter(|h| *h != 0) {
        let (i, j) = to_pixel(mollweide::forward(f64::from(hour) * PI / 12.0, 0.0));
        root.draw_text(
            &format!("{hour}h"),
            &small(13).pos(Pos::new(HPos::Center, VPos::Top)),
            (i, j + 4),
        )?;
    }
    for degrees in [-60, -30, 0, 30, 60] {
        let (i, j) = to_pixel(mollweide::forward(
            2.0 * PI - 1e-9,
            f64::from(degrees).to_radians(),
        ));
        root.draw_text(
            &format!("{degrees}°"),
            &small(13).pos(Pos::new(HPos::Right, VPos::Center)),
            (i - 6, j),
        )?;
    }
    root.draw_text(
        "right ascension (hours; east to the left) · declination (degrees)",
        &centred(14),
        (WIDTH as i32 / 2, TOP + map_height + BOTTOM / 2),
    )?;
    if let Some(s) = sky {
        if let Some((ra, dec)) = s.injection.filter(|(r, d)| r.is_finite() && d.is_finite()) {
            let (i, j) = to_pixel(mollweide::forward(ra, dec));
            let style = palette::TRUTH.stroke_width(3);
            root.draw(&PathElement::new(vec![(i - 9, j), (i + 9, j)], style))?;
            root.draw(&PathElement::new(vec![(i, j - 9), (i, j + 9)], style))?;
            let level = s.density.credible_level_of(ra, dec);
            root.draw_text(
                &format!("injection (at the {:.0} % credible level)", 100.0 * level),
                &small(14)
                    .pos(Pos::new(HPos::Left, VPos::Center))
                    .color(&palette::TRUTH),
                (LEFT, TOP - 12),
            )?;
        }
        let legend: Vec<String> = s
            .regions
            .iter()
            .map(|r| format!("{:.0} % credible region", 100.0 * r.probability))
            .collect();
        for (k, text) in legend.iter().enumerate() {
            let y = TOP + map_height - 40 + 20 * k as i32;
            let x = LEFT + map_width - 200;
            root.draw(&Rectangle::new(
                [(x, y - 6), (x + 20, y + 6)],
                fills[k.min(1)].filled(),
            ))?;
            root.draw_text(
                text,
                &small(13).pos(Pos::new(HPos::Left, VPos::Center)),
                (x + 26, y),
            )?;
        }
    }
    root.present()?;
    Ok(())
}
