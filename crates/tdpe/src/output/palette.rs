//! Colours shared by the plots: bilby's corner blue, matplotlib's `tab10` cycle for chains, and
//! the orange bilby uses for injected values.

use plotters::style::RGBColor;

/// bilby's default corner-plot colour (`#0072C1`).
pub const POSTERIOR: RGBColor = RGBColor(0x00, 0x72, 0xC1);
/// Injected ("true") values, as bilby's `truth_color` (`tab:orange`).
pub const TRUTH: RGBColor = RGBColor(0xFF, 0x7F, 0x0E);
/// Data and individual samples in the background.
pub const GREY: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// matplotlib's `tab10` colours without its orange (kept for injections), cycled for chains.
const CHAINS: [RGBColor; 9] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];

/// The colour of chain `index`.
pub fn chain(index: usize) -> RGBColor {
    CHAINS[index % CHAINS.len()]
}

/// `colour` mixed with white: `amount` 0 gives the colour, 1 gives white.
pub fn tint(colour: RGBColor, amount: f64) -> RGBColor {
    let mix =
        |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * amount.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(colour.0), mix(colour.1), mix(colour.2))
}
