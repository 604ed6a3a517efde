//! The diagnostics reproduce ArviZ on fixed draws (fixture from tools/make_arviz_fixture.py).

use serde_json::Value;
use tdpe_mcmc::diagnostics::{ess_bulk, ess_mean, ess_tail, mcse_mean, rhat};

const TOLERANCE: f64 = 1e-6;

#[test]
fn diagnostics_match_arviz() {
    let fixture: Value =
        serde_json::from_str(include_str!("data/arviz_fixture.json")).expect("valid fixture");
    let params = fixture["params"].as_object().expect("params object");
    assert_eq!(params.len(), 4);
    let mut worst: f64 = 0.0;
    for (name, p) in params {
        let chains: Vec<Vec<f64>> = p["draws"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                c.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect();
        let ours = [
            ("rhat", rhat(&chains)),
            ("ess_bulk", ess_bulk(&chains)),
            ("ess_tail", ess_tail(&chains)),
            ("ess_mean", ess_mean(&chains)),
            ("mcse_mean", mcse_mean(&chains)),
        ];
        for (key, value) in ours {
            let reference = p[key].as_f64().unwrap();
            let rel = ((value - reference) / reference).abs();
            println!("{name:>15} {key:>9}: ours {value:.12} arviz {reference:.12} rel {rel:.1e}");
            assert!(
                rel < TOLERANCE,
                "{name} {key}: {value} vs ArviZ {reference}"
            );
            worst = worst.max(rel);
        }
    }
    println!("largest relative difference from ArviZ: {worst:.2e}");
}
