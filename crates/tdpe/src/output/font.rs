//! The font of every plot: DejaVu Sans, embedded in the binary (see
//! `assets/DejaVuSans-LICENSE.txt`) and registered with plotters under the family name
//! `sans-serif`, so that text never depends on the fonts of the machine.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::drawing::DrawingArea;
use plotters::prelude::DrawingBackend;
use plotters::style::{FontStyle, IntoFont, TextStyle};

/// The family name plots ask for (plotters' default for tick labels too).
pub const FAMILY: &str = "sans-serif";

const DEJAVU_SANS: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the embedded font (once per process); call before drawing any text.
pub fn ensure_registered() -> anyhow::Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS).is_ok()
    });
    anyhow::ensure!(ok, "the embedded plot font could not be loaded");
    Ok(())
}

/// The largest font size from `largest` down to 8 px at which `text` is at most `width` pixels
/// wide (8 px if none is).
pub fn size_to_fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    width: u32,
    largest: u32,
) -> u32 {
    (8..=largest.max(8))
        .rev()
        .find(|&size| {
            let style = TextStyle::from((FAMILY, size).into_font());
            area.estimate_text_size(text, &style)
                .is_ok_and(|(w, _)| w <= width)
        })
        .unwrap_or(8)
}
