//! How local the Gram matrix of relative binning is: ⟨h|h⟩ at the fiducial from the entries
//! G_αβ whose nodes lie within τ of each other (and, with several modes, from each mode's own
//! block alone), against all of them, on the GW150914-like injection and on the unequal-mass
//! one with IMRPhenomTHM's five modes:
//!
//!     cargo run --release -p tdpe-likelihood --example gram_locality [higher-modes]

use num_complex::Complex64;
use tdpe_likelihood::relative_binning::{Basis, NodeSet, SummaryData};
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;
use gw150914_like::{noisy_injection_timed, Injection};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let injection = match std::env::args().nth(1).as_deref() {
        Some("higher-modes") => Injection::asymmetric_with_higher_modes(2048.0, 8.0),
        _ => Injection::gw150914_like(2048.0, 4.0),
    };
    let p = injection.truth;
    let exact = noisy_injection_timed(&injection).0;
    let rb = BbhRelativeBinning::new(&exact, p, &RelativeBinningOptions::default())?;
    let (model, like) = (exact.model(), exact.likelihood());
    let grid = like.grid();
    let waveform = model.mode_waveform(p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2)?;
    for (k, modes) in rb.node_times()[0].iter().enumerate() {
        let projections = model.mode_projections(k, &p);
        let delay = projections[0].value.delay;
        let series: Vec<Vec<Complex64>> = (0..modes.len())
            .map(|j| {
                (0..grid.len)
                    .map(|i| {
                        let (re, im) = waveform.mode_at(j, grid.time(i) - p.geocent_time - delay);
                        Complex64::new(re, im)
                    })
                    .collect()
            })
            .collect();
        let mut bases = Vec::new();
        let mut times = Vec::new();
        let mut owner = Vec::new();
        for (j, node_times) in modes.iter().enumerate() {
            let indices: Vec<usize> = node_times
                .iter()
                .map(|t| ((t - grid.start) / grid.dt).round() as usize)
                .collect();
            times.extend(node_times.iter().copied());
            owner.extend(std::iter::repeat_n(j, indices.len()));
            bases.push(Basis {
                fiducial: &series[j],
                nodes: NodeSet::new(indices, grid.len)?,
            });
        }
        let summary = SummaryData::stacked(bases, like.data(k), like.noise(k).as_ref(), 0..=0)?;
        // c_b = Q_j at the fiducial (every ratio 1); h = Re Σ c_b u_b.
        let c: Vec<Complex64> = owner.iter().map(|&j| projections[j].value.factor).collect();
        let n = c.len();
        let term = |a: usize, b: usize| {
            // Re(c_a* P_ab c_b + c_a R_ab c_b)/2 = ⟨Re(c_a u_a)|Re(c_b u_b)⟩.
            0.5 * (c[a].conj() * summary.p(a, b) * c[b] + c[a] * summary.r(a, b) * c[b]).re
        };
        let mut total = 0.0;
        let mut within = [0.0; 6];
        let taus = [0.02, 0.05, 0.1, 0.25, 0.5, 1.0];
        let mut same_mode = 0.0;
        let mut kept = [0usize; 6];
        for a in 0..n {
            for b in 0..n {
                let t = term(a, b);
                total += t;
                let gap = (times[a] - times[b]).abs();
                for (i, tau) in taus.iter().enumerate() {
                    if gap <= *tau {
                        within[i] += t;
                        kept[i] += 1;
                    }
                }
                if owner[a] == owner[b] {
                    same_mode += t;
                }
            }
        }
        println!("detector {k}: {n} nodes, ⟨h|h⟩ = {total:.6}");
        for (i, tau) in taus.iter().enumerate() {
            println!(
                "  pairs within {tau:>4} s: {:5.1} % of the entries, ⟨h|h⟩ off by {:.2e}",
                100.0 * kept[i] as f64 / (n * n) as f64,
                within[i] - total
            );
        }
        if modes.len() > 1 {
            println!(
                "  each mode's own block alone: ⟨h|h⟩ off by {:.2e}",
                same_mode - total
            );
        }
    }
    Ok(())
}
