#!/usr/bin/env python3
"""Issue 28's benchmark (docs/benchmark.md, "IMRPhenomTPHM sampling"): `tdpe run` on
examples/precessing_injection.toml with its default settings, then the relative-binning
posterior importance-reweighted to the exact likelihood at its draws.

Dev-only (standard library only). Runs the release binary under /usr/bin/time -v for the peak
RSS, reads wall time, gradients, R̂ and bulk ESS from result.json, and evaluates both
likelihoods at every draw with `tdpe likelihood`. The importance efficiency is
(Σw)²/(N Σw²) with w = exp(ln L_exact − ln L_rb). Honours CARGO_TARGET_DIR.

    python3 tools/precessing_benchmark.py --outdir out_precessing      # about an hour on 2 cores
    python3 tools/precessing_benchmark.py --outdir out_precessing --reuse   # an existing run
"""

import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BINARY = os.path.join(TARGET, "release", "tdpe")
CONFIG = os.path.join(ROOT, "examples", "precessing_injection.toml")


def run(outdir):
    """Runs the example; returns (peak RSS in MB, wall s)."""
    command = ["/usr/bin/time", "-v", BINARY, "run", CONFIG, "--no-progress", "--outdir", outdir]
    started = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.time() - started
    with open(os.path.join(outdir, "run.log"), "w") as f:
        f.write(done.stderr)
    if done.returncode != 0:
        sys.exit(f"tdpe failed: {' '.join(command)}\n{done.stderr}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    return rss_kb / 1024.0, wall


def importance_efficiency(outdir):
    """(efficiency, N, largest |ln L_exact − ln L_rb|) at the run's draws."""
    output = os.path.join(outdir, "lnl_at_draws.csv")
    subprocess.run(
        [BINARY, "likelihood", CONFIG, "--points", os.path.join(outdir, "samples.csv"),
         "--output", output],
        check=True, capture_output=True)
    with open(output) as f:
        gaps = [float(r["lnl_exact"]) - float(r["lnl_rb"]) for r in csv.DictReader(f)]
    top = max(gaps)
    weights = [math.exp(g - top) for g in gaps]
    efficiency = sum(weights) ** 2 / (len(weights) * sum(w * w for w in weights))
    return efficiency, len(gaps), max(abs(g) for g in gaps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--reuse", action="store_true", help="analyse an existing run's outdir")
    args = parser.parse_args()
    if not args.reuse:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "tdpe"], cwd=ROOT, check=True)
        rss, wall = run(args.outdir)
        print(f"wall time {wall:.0f} s, peak RSS {rss:.0f} MB")
    with open(os.path.join(args.outdir, "result.json")) as f:
        result = json.loads(f.read().replace("NaN", "null").replace("Infinity", "null"))
    meta = result["meta_data"]
    diagnostics = meta["diagnostics"]
    rhat = max(v for v in diagnostics["rhat"].values() if v is not None)
    ess = min(v for v in diagnostics["ess_bulk"].values() if v is not None)
    print(f"largest R-hat {rhat:.4f}, smallest bulk ESS {ess:.0f}")
    chains = meta["chains"]
    print(f"gradients {meta['gradient_evaluations']}, set-up {meta['setup_time']:.0f} s, "
          f"sampling {meta['sampling_time']:.0f} s, step sizes {chains['step_size']}, "
          f"acceptance {chains['mean_accept_stat']}, divergences {chains['divergences']}")
    efficiency, n, worst = importance_efficiency(args.outdir)
    print(f"importance efficiency {efficiency:.4f} over {n} draws (largest |dlnL| {worst:.2e})")


if __name__ == "__main__":
    main()
