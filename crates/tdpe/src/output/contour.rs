//! Contour lines of a [`Density`] by marching squares: for each square of four neighbouring
//! cell centres, the level's crossings of its edges (linear interpolation) joined by segments;
//! the two saddle cases are resolved by the square's mean value.

use super::density::Density;

/// A straight piece of contour, in data coordinates.
pub type Segment = [(f64, f64); 2];

/// The segments of the contour of `density` at `level` (none for a non-finite level).
pub fn segments(density: &Density, level: f64) -> Vec<Segment> {
    let mut out = Vec::new();
    if !level.is_finite() {
        return out;
    }
    for j in 0..density.ny.saturating_sub(1) {
        for i in 0..density.nx.saturating_sub(1) {
            // Corners counter-clockwise from the lower left: a, b, c, d.
            let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)];
            let v = corners.map(|(ci, cj)| density.at(ci, cj));
            let case = v
                .iter()
                .enumerate()
                .fold(0, |acc, (k, &x)| acc | (usize::from(x >= level) << k));
            // Crossing on the edge from corner p to corner q.
            let cross = |p: usize, q: usize| {
                let (x1, y1) = density.centre(corners[p].0, corners[p].1);
                let (x2, y2) = density.centre(corners[q].0, corners[q].1);
                let t = ((level - v[p]) / (v[q] - v[p])).clamp(0.0, 1.0);
                (x1 + t * (x2 - x1), y1 + t * (y2 - y1))
            };
            let (bottom, right, top, left) = (cross(0, 1), cross(1, 2), cross(3, 2), cross(0, 3));
            let centre_inside = v.iter().sum::<f64>() / 4.0 >= level;
            match case {
                1 | 14 => out.push([left, bottom]),
                2 | 13 => out.push([bottom, right]),
                3 | 12 => out.push([left, right]),
                4 | 11 => out.push([right, top]),
                6 | 9 => out.push([bottom, top]),
                7 | 8 => out.push([left, top]),
                5 | 10 => {
                    // a and c on one side, b and d on the other: the centre decides which
                    // pair is connected.
                    let a_and_c_joined = (case == 5) == centre_inside;
                    if a_and_c_joined {
                        out.push([bottom, right]);
                        out.push([top, left]);
                    } else {
                        out.push([left, bottom]);
                        out.push([right, top]);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cone peaked in the middle of the grid: its contour at any level is a closed ring at
    /// the right radius.
    #[test]
    fn contour_of_a_cone_is_a_circle() {
        let n = 41;
        let mut values = vec![0.0; n * n];
        for j in 0..n {
            for i in 0..n {
                let (x, y) = (i as f64 - 20.0, j as f64 - 20.0);
                values[j * n + i] = (15.0 - (x * x + y * y).sqrt()).max(0.0);
            }
        }
        let d = Density {
            nx: n,
            ny: n,
            x0: -20.0,
            dx: 1.0,
            y0: -20.0,
            dy: 1.0,
            values,
        };
        let segs = segments(&d, 5.3);
        assert!(segs.len() > 40);
        for [p, q] in &segs {
            for (x, y) in [p, q] {
                let r = (x * x + y * y).sqrt();
                assert!((r - 9.7).abs() < 0.05, "r = {r}");
            }
        }
        // Closed: every end point is shared by exactly two segments.
        let key = |(x, y): (f64, f64)| ((x * 1e6).round() as i64, (y * 1e6).round() as i64);
        let mut counts = std::collections::HashMap::new();
        for [p, q] in &segs {
            *counts.entry(key(*p)).or_insert(0) += 1;
            *counts.entry(key(*q)).or_insert(0) += 1;
        }
        assert!(counts.values().all(|&c| c == 2));
        assert!(segments(&d, f64::INFINITY).is_empty());
    }
}
