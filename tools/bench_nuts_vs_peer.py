#!/usr/bin/env python3
"""ESS per gradient evaluation: tdpe's NUTS vs NumPyro's NUTS on the same correlated Gaussian.

Dev-only. Target: 100-d N(0, Sigma), Sigma_ij = rho^|i-j| (AR(1), rho = 0.9). Both samplers run
4 chains x (1000 warm-up + 1000 draws), target acceptance 0.8, max tree depth 10, with a dense and
with a diagonal metric. ESS is ArviZ's bulk ESS per coordinate (min and mean over coordinates);
gradient evaluations are the leapfrog steps of the sampling phase (NumPyro's `num_steps`, ours
from the chain statistics).

    python3 -m venv /tmp/azenv && /tmp/azenv/bin/pip install arviz numpy numpyro
    /tmp/azenv/bin/python tools/bench_nuts_vs_peer.py
"""
import json
import pathlib
import subprocess
import time

import arviz as az
import jax
import jax.numpy as jnp
import numpy as np
import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS

DIM, RHO, CHAINS, WARMUP, DRAWS = 100, 0.9, 4, 1000, 1000
ROOT = pathlib.Path(__file__).resolve().parents[1]


def ours(metric):
    out = subprocess.run(
        ["cargo", "run", "--quiet", "--release", "-p", "tdpe-mcmc", "--example", "nuts_ess", "--",
         "--metric", metric, "--chains", str(CHAINS), "--warmup", str(WARMUP),
         "--draws", str(DRAWS), "--dim", str(DIM), "--rho", str(RHO)],
        cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def peer(metric, seed=1):
    idx = np.arange(DIM)
    cov = jnp.asarray(RHO ** np.abs(idx[:, None] - idx[None, :]))

    def model():
        numpyro.sample("x", dist.MultivariateNormal(jnp.zeros(DIM), covariance_matrix=cov))

    kernel = NUTS(model, dense_mass=(metric == "dense"), target_accept_prob=0.8, max_tree_depth=10)
    mcmc = MCMC(kernel, num_warmup=WARMUP, num_samples=DRAWS, num_chains=CHAINS,
                chain_method="sequential", progress_bar=False)
    start = time.time()
    mcmc.run(jax.random.PRNGKey(seed), extra_fields=("num_steps", "diverging"))
    seconds = time.time() - start
    x = np.asarray(mcmc.get_samples(group_by_chain=True)["x"])  # (chain, draw, dim)
    ess = np.array([az.ess(x[:, :, i], method="bulk") for i in range(DIM)])
    rhat = max(az.rhat(x[:, :, i], method="rank") for i in range(DIM))
    extra = mcmc.get_extra_fields()
    grads = int(np.sum(extra["num_steps"]))
    return {
        "sampler": f"numpyro-{numpyro.__version__}-nuts", "metric": metric,
        "ess_bulk_min": float(ess.min()), "ess_bulk_mean": float(ess.mean()),
        "grad_evals_sampling": grads, "ess_min_per_grad": float(ess.min()) / grads,
        "ess_mean_per_grad": float(ess.mean()) / grads,
        "divergences": int(np.sum(extra["diverging"])), "rhat_max": float(rhat),
        "seconds": seconds,
    }


def main():
    rows = []
    for metric in ("dense", "diag"):
        a, b = ours(metric), peer(metric)
        rows += [a, b]
        print(f"\n== {metric} metric ==")
        for r in (a, b):
            print(f"{r['sampler']:>22}: ESS_bulk min {r['ess_bulk_min']:7.0f} mean "
                  f"{r['ess_bulk_mean']:7.0f}  grads {r['grad_evals_sampling']:7d}  "
                  f"ESS/grad min {r['ess_min_per_grad']:.4f} mean {r['ess_mean_per_grad']:.4f}  "
                  f"div {r['divergences']}  R-hat max {r['rhat_max']:.4f}  {r['seconds']:.1f} s")
        print(f"ratio ours/peer ESS per grad: min-ESS {a['ess_min_per_grad'] / b['ess_min_per_grad']:.3f}"
              f", mean-ESS {a['ess_mean_per_grad'] / b['ess_mean_per_grad']:.3f}")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
