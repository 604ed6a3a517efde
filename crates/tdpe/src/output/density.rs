//! A smoothed 2-D histogram of posterior draws and the density levels that enclose given
//! fractions of its mass, for the corner plot's credible regions (as corner.py: histogram,
//! light Gaussian smoothing, levels from the sorted cumulative mass).

use std::ops::Range;

/// Histogram counts on a regular grid of cell centres, smoothed, with one empty cell of padding
/// on every side so that contours close at the edges of the plotted range.
#[derive(Debug, Clone, PartialEq)]
pub struct Density {
    /// Cells along x (padding included).
    pub nx: usize,
    /// Cells along y (padding included).
    pub ny: usize,
    /// x of the centre of the first (padding) cell.
    pub x0: f64,
    /// Cell width.
    pub dx: f64,
    /// y of the centre of the first (padding) cell.
    pub y0: f64,
    /// Cell height.
    pub dy: f64,
    /// Values, row-major: `values[j * nx + i]` is cell (i, j).
    pub values: Vec<f64>,
}

impl Density {
    /// The histogram of the finite pairs `(xs[k], ys[k])` inside `x_range` × `y_range` in
    /// `bins` × `bins` cells, smoothed with a Gaussian of `sigma_bins` cells (edges reflected,
    /// as `scipy.ndimage.gaussian_filter`), then padded.
    pub fn smoothed_histogram(
        xs: &[f64],
        ys: &[f64],
        x_range: &Range<f64>,
        y_range: &Range<f64>,
        bins: usize,
        sigma_bins: f64,
    ) -> Self {
        let bins = bins.max(1);
        let dx = (x_range.end - x_range.start) / bins as f64;
        let dy = (y_range.end - y_range.start) / bins as f64;
        let mut counts = vec![0.0; bins * bins];
        let cell = |v: f64, start: f64, step: f64| {
            let k = ((v - start) / step).floor();
            // The right edge belongs to the last cell, as in numpy.histogram.
            if k >= 0.0 && k <= bins as f64 {
                Some((k as usize).min(bins - 1))
            } else {
                None
            }
        };
        for (&x, &y) in xs.iter().zip(ys) {
            if let (Some(i), Some(j)) = (cell(x, x_range.start, dx), cell(y, y_range.start, dy)) {
                counts[j * bins + i] += 1.0;
            }
        }
        let smoothed = gaussian_filter(&counts, bins, sigma_bins);
        let (nx, ny) = (bins + 2, bins + 2);
        let mut values = vec![0.0; nx * ny];
        for j in 0..bins {
            values[(j + 1) * nx + 1..(j + 1) * nx + 1 + bins]
                .copy_from_slice(&smoothed[j * bins..(j + 1) * bins]);
        }
        Self {
            nx,
            ny,
            x0: x_range.start - 0.5 * dx,
            dx,
            y0: y_range.start - 0.5 * dy,
            dy,
            values,
        }
    }

    /// Value of cell (i, j).
    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.values[j * self.nx + i]
    }

    /// Centre of cell (i, j).
    pub fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        (self.x0 + i as f64 * self.dx, self.y0 + j as f64 * self.dy)
    }

    /// Bilinear interpolation between cell centres; 0 outside the grid.
    pub fn interpolate(&self, x: f64, y: f64) -> f64 {
        let fx = (x - self.x0) / self.dx;
        let fy = (y - self.y0) / self.dy;
        if !(fx >= 0.0 && fy >= 0.0 && fx <= (self.nx - 1) as f64 && fy <= (self.ny - 1) as f64) {
            return 0.0;
        }
        let i = (fx.floor() as usize).min(self.nx - 2);
        let j = (fy.floor() as usize).min(self.ny - 2);
        let (tx, ty) = (fx - i as f64, fy - j as f64);
        let bottom = self.at(i, j) * (1.0 - tx) + self.at(i + 1, j) * tx;
        let top = self.at(i, j + 1) * (1.0 - tx) + self.at(i + 1, j + 1) * tx;
        bottom * (1.0 - ty) + top * ty
    }

    /// For each fraction f (e.g. 0.5, 0.9), the density level whose super-level set holds at
    /// least the fraction f of the total mass (corner.py's rule). +∞ when the grid is empty, so
    /// that no region or contour is drawn.
    pub fn mass_levels(&self, fractions: &[f64]) -> Vec<f64> {
        let mut sorted: Vec<f64> = self.values.iter().copied().filter(|v| *v > 0.0).collect();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let total: f64 = sorted.iter().sum();
        fractions
            .iter()
            .map(|&f| {
                if total <= 0.0 {
                    return f64::INFINITY;
                }
                let mut cumulative = 0.0;
                for &v in &sorted {
                    cumulative += v;
                    if cumulative >= f * total {
                        return v;
                    }
                }
                sorted.last().copied().unwrap_or(f64::INFINITY)
            })
            .collect()
    }
}

/// Separable Gaussian smoothing of an n × n grid (kernel truncated at 4σ, edges reflected as
/// scipy's default `mode="reflect"`: d c b a | a b c d | d c b a). σ ≤ 0 leaves it unchanged.
fn gaussian_filter(grid: &[f64], n: usize, sigma: f64) -> Vec<f64> {
    if sigma.is_nan() || sigma <= 0.0 {
        return grid.to_vec();
    }
    let radius = (4.0 * sigma).ceil() as isize;
    let kernel: Vec<f64> = (-radius..=radius)
        .map(|k| (-0.5 * (k as f64 / sigma).powi(2)).exp())
        .collect();
    let norm: f64 = kernel.iter().sum();
    let reflect = |k: isize| -> usize {
        let n = n as isize;
        let period = 2 * n;
        let m = k.rem_euclid(period);
        (if m < n { m } else { period - 1 - m }) as usize
    };
    let pass = |input: &[f64], along_x: bool| {
        let mut out = vec![0.0; n * n];
        for j in 0..n {
            for i in 0..n {
                let mut acc = 0.0;
                for (w, k) in kernel.iter().zip(-radius..=radius) {
                    let (ii, jj) = if along_x {
                        (reflect(i as isize + k), j)
                    } else {
                        (i, reflect(j as isize + k))
                    };
                    acc += w * input[jj * n + ii];
                }
                out[j * n + i] = acc / norm;
            }
        }
        out
    };
    pass(&pass(grid, true), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoothing_conserves_mass() {
        let mut grid = vec![0.0; 25];
        grid[0] = 1.0;
        grid[12] = 2.0;
        let smoothed = gaussian_filter(&grid, 5, 0.9);
        assert!((smoothed.iter().sum::<f64>() - 3.0).abs() < 1e-12);
    }

    #[test]
    fn levels_enclose_the_requested_mass() {
        // Draws on a fine lattice of a standard normal's quantiles in x and y.
        let n = 60;
        let normal: Vec<f64> = (0..n)
            .map(|k| 4.0 * (k as f64 + 0.5) / n as f64 - 2.0)
            .collect();
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for &x in &normal {
            for &y in &normal {
                let w = (-(x * x + y * y)).exp();
                for _ in 0..(w * 10.0).round() as usize {
                    xs.push(x);
                    ys.push(y);
                }
            }
        }
        let d = Density::smoothed_histogram(&xs, &ys, &(-2.0..2.0), &(-2.0..2.0), 20, 0.0);
        let [l50, l90] = d.mass_levels(&[0.5, 0.9])[..] else {
            panic!()
        };
        assert!(l50 > l90 && l90 > 0.0);
        let total: f64 = d.values.iter().sum();
        let inside: f64 = d.values.iter().filter(|&&v| v >= l90).sum();
        assert!(
            inside / total >= 0.9 && inside / total < 0.95,
            "{}",
            inside / total
        );
        assert_eq!(d.interpolate(10.0, 0.0), 0.0);
    }

    #[test]
    fn empty_grid_has_no_levels() {
        let d = Density::smoothed_histogram(&[], &[], &(0.0..1.0), &(0.0..1.0), 10, 1.0);
        assert_eq!(d.mass_levels(&[0.5]), [f64::INFINITY]);
    }
}
