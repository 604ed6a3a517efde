#!/usr/bin/env python3
"""Regenerates docs/benchmark.md: cost and sampling efficiency of `tdpe run` on the default
problem (GW150914-like injection, H1+L1, 4 s at 2048 Hz) for each kernel and chain count.

Dev-only (standard library only). Builds the release binary, runs it under /usr/bin/time -v
for the peak RSS, and reads wall time, gradient evaluations and bulk ESS from result.json.

    python3 tools/benchmark_run.py                       # the full table (hours on 2 cores)
    python3 tools/benchmark_run.py --warmup 200 --draws 200 --chains 2 --scaling 1 2 4
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "tdpe")


def run(args, outdir):
    """Runs tdpe with `args`; returns (result.json as dict, peak RSS in MB, wall s)."""
    command = ["/usr/bin/time", "-v", BINARY, "run", "--no-progress", "--outdir", outdir] + args
    started = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.time() - started
    if done.returncode != 0:
        sys.exit(f"tdpe failed: {' '.join(command)}\n{done.stderr}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    with open(os.path.join(outdir, "result.json")) as f:
        text = f.read().replace("NaN", "null").replace("-Infinity", "null").replace("Infinity", "null")
    return json.loads(text), rss_kb / 1024.0, wall


def row(label, result, rss, wall):
    meta = result["meta_data"]
    sampling = meta["sampling_time"]
    ess = meta["diagnostics"]["ess_bulk"]
    rhat = meta["diagnostics"]["rhat"]
    worst = min(ess, key=lambda k: ess[k] if ess[k] is not None else -1)
    min_ess = ess[worst] or 0.0
    max_rhat = max(v for v in rhat.values() if v is not None)
    grads = meta["gradient_evaluations"]
    return (
        f"| {label} | {wall:.0f} | {sampling:.0f} | {grads:,} | {1e6 * sampling / grads:.0f} | "
        f"{min_ess:.0f} ({worst}) | {min_ess / sampling:.2f} | {max_rhat:.3f} | {rss:.0f} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=1000)
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--chains", type=int, default=4, help="chains of the per-kernel runs")
    parser.add_argument("--scaling", type=int, nargs="*", default=[1, 2, 4, 8, 16],
                        help="chain counts of the NUTS scaling runs")
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "benchmark.md"))
    options = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "-p", "tdpe"], cwd=ROOT, check=True)

    header = ("| run | wall (s) | sampling (s) | gradients | µs per gradient (all threads) | "
              "min bulk ESS | min ESS/s | max R̂ | peak RSS (MB) |\n|---|---:|---:|---:|---:|---|---:|---:|---:|")
    common = ["--n-warmup", str(options.warmup), "--n-draws", str(options.draws)]
    kernels, scaling = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for kernel in ["nuts", "hmc", "mala"]:
            out = os.path.join(scratch, kernel)
            result, rss, wall = run(common + ["--sampler", kernel, "--n-chains", str(options.chains)], out)
            kernels.append(row(f"{kernel}, {options.chains} chains", result, rss, wall))
            print(kernels[-1], flush=True)
        for chains in options.scaling:
            out = os.path.join(scratch, f"chains{chains}")
            result, rss, wall = run(common + ["--n-chains", str(chains)], out)
            scaling.append(row(f"nuts, {chains} chains", result, rss, wall))
            print(scaling[-1], flush=True)

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    text = f"""# tdpe run: benchmark

Regenerate with `python3 tools/benchmark_run.py` (this file's settings:
`--warmup {options.warmup} --draws {options.draws} --chains {options.chains} --scaling {' '.join(map(str, options.scaling))}`).

- Machine: {cpu}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}.
- Problem: the embedded default (`cargo run --release -- run`): GW150914-like injection in H1 and L1
  design noise, 4 s at 2048 Hz, 11 parameters, relative binning around the injection.
- Method: each run is one process under `/usr/bin/time -v` (peak RSS); wall time is the whole
  process; sampling time, gradient evaluations (warm-up included, all chains) and bulk ESS come
  from result.json. ESS/s is the smallest bulk ESS over the parameters divided by the sampling
  time. Threads = all cores, so with more chains than cores the chains share them.

## Kernels

{header}
{chr(10).join(kernels)}

## Scaling with the number of chains (NUTS)

{header}
{chr(10).join(scaling)}
"""
    os.makedirs(os.path.dirname(options.output), exist_ok=True)
    with open(options.output, "w") as f:
        f.write(text)
    print(f"wrote {options.output}")


if __name__ == "__main__":
    main()
