#!/usr/bin/env python3
"""Regenerate crates/mcmc/tests/data/arviz_fixture.json (dev-only).

Fixed draws (numpy seed 20240605) of four quantities, 4 chains x 500 draws each, and ArviZ's
rank-normalised split R-hat, bulk/tail/mean ESS and MCSE of the mean for each. The Rust test
`tests/arviz.rs` recomputes them with `tdpe_mcmc::diagnostics` and must agree to 1e-6.

    python3 -m venv /tmp/azenv && /tmp/azenv/bin/pip install arviz numpy
    /tmp/azenv/bin/python tools/make_arviz_fixture.py
"""
import json
import pathlib

import arviz as az
import numpy as np

CHAINS, DRAWS = 4, 500
rng = np.random.default_rng(20240605)


def ar1(phi, offsets):
    """AR(1) chains with coefficient phi and unit stationary variance, shifted per chain."""
    x = np.empty((CHAINS, DRAWS))
    x[:, 0] = rng.standard_normal(CHAINS)
    for t in range(1, DRAWS):
        x[:, t] = phi * x[:, t - 1] + np.sqrt(1 - phi**2) * rng.standard_normal(CHAINS)
    return x + np.asarray(offsets)[:, None]


params = {
    "iid": rng.standard_normal((CHAINS, DRAWS)),
    "autocorrelated": ar1(0.9, [0.0] * CHAINS),
    # Chains stuck around different values: R-hat well above 1, small ESS.
    "poorly_mixed": ar1(0.99, [0.0, 0.5, -0.3, 1.5]),
    # Rounded draws: many ties, exercising average ranks.
    "ties": np.round(rng.gamma(2.0, size=(CHAINS, DRAWS)), 1),
}

out = {"chains": CHAINS, "draws": DRAWS, "arviz_version": az.__version__, "params": {}}
for name, x in params.items():
    out["params"][name] = {
        "draws": x.tolist(),
        "rhat": float(az.rhat(x, method="rank")),
        "ess_bulk": float(az.ess(x, method="bulk")),
        "ess_tail": float(az.ess(x, method="tail")),
        "ess_mean": float(az.ess(x, method="mean")),
        "mcse_mean": float(az.mcse(x, method="mean")),
    }
    print(name, {k: v for k, v in out["params"][name].items() if k != "draws"})

path = pathlib.Path(__file__).resolve().parents[1] / "crates/mcmc/tests/data/arviz_fixture.json"
path.parent.mkdir(parents=True, exist_ok=True)
path.write_text(json.dumps(out))
print("wrote", path)
