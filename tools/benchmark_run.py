#!/usr/bin/env python3
"""Regenerates docs/benchmark.md: cost and sampling efficiency of `tdpe run` on the default
problem (GW150914-like injection, H1+L1, 4 s at 2048 Hz) for each kernel and chain count.

Dev-only (standard library only). Builds the release binary, runs it under /usr/bin/time -v
for the peak RSS, and reads wall time, gradient evaluations and bulk ESS from result.json; the
cost of one ln L and of one ln L with its gradient comes from the criterion benchmark
`bbh_relative_binning` (its median). Honours CARGO_TARGET_DIR.

    python3 tools/benchmark_run.py                       # every table (~15 min on 2 cores)
    python3 tools/benchmark_run.py --warmup 200 --draws 200 --chains 2 --scaling 1 2 4

The scaling runs (chains, relative-binning nodes, segment length) measure cost, not mixing, so
they use their own, shorter --scaling-warmup/--scaling-draws.
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
PRIOR_INJECTIONS_HEADING = "## Injections from the default prior"
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BINARY = os.path.join(TARGET, "release", "tdpe")
# Per-call benchmarks of the default problem's likelihood (criterion ids).
LIKELIHOOD_BENCHES = [("value", "ln L"), ("value_and_gradient", "ln L and its gradient (11 parameters)")]


def run(args, outdir, config=None):
    """Runs tdpe with `args` (and CONFIG text, if given); returns (result.json as dict, peak RSS
    in MB, wall s)."""
    command = ["/usr/bin/time", "-v", BINARY, "run", "--no-progress", "--outdir", outdir] + args
    if config is not None:
        path = outdir + ".toml"
        with open(path, "w") as f:
            f.write(config)
        command.insert(4, path)
    started = time.time()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.time() - started
    if done.returncode != 0:
        sys.exit(f"tdpe failed: {' '.join(command)}\n{done.stderr}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    with open(os.path.join(outdir, "result.json")) as f:
        text = f.read().replace("NaN", "null").replace("-Infinity", "null").replace("Infinity", "null")
    return json.loads(text), rss_kb / 1024.0, wall


def segment_config(duration):
    """The default configuration with a segment of `duration` s (merger 2 s before the end)."""
    text = subprocess.run([BINARY, "config"], capture_output=True, text=True, check=True).stdout
    return re.sub(r"(?m)^duration = [0-9.]+", f"duration = {duration:.1f}", text)


def likelihood_costs():
    """Runs the criterion benchmark of one ln L and one ln L with gradient; returns table rows."""
    ids = "|".join(name for name, _ in LIKELIHOOD_BENCHES)
    subprocess.run(["cargo", "bench", "-p", "tdpe-likelihood", "--bench", "bbh_relative_binning", "--",
                    f"^bbh_relative_binning/({ids})$"], cwd=ROOT, check=True, capture_output=True)
    rows = []
    for name, label in LIKELIHOOD_BENCHES:
        path = os.path.join(TARGET, "criterion", "bbh_relative_binning", name, "new", "estimates.json")
        with open(path) as f:
            median = json.load(f)["median"]
        low, high = (median["confidence_interval"][k] / 1e3 for k in ("lower_bound", "upper_bound"))
        rows.append(f"| {label} | {median['point_estimate'] / 1e3:.1f} | [{low:.1f}, {high:.1f}] |")
    return rows


def nodes(result):
    detectors = result["meta_data"]["likelihood"]["interferometers"]
    return "/".join(str(d["relative_binning_nodes"]) for d in detectors.values())


def row(label, result, rss, wall):
    meta = result["meta_data"]
    sampling = meta["sampling_time"]
    ess = meta["diagnostics"]["ess_bulk"]
    rhat = meta["diagnostics"]["rhat"]
    worst = min(ess, key=lambda k: ess[k] if ess[k] is not None else -1)
    min_ess = ess[worst] or 0.0
    rhats = [v for v in rhat.values() if v is not None]
    # R̂ needs two chains (as in ArviZ).
    max_rhat = f"{max(rhats):.3f}" if rhats else "—"
    grads = meta["gradient_evaluations"]
    divergences = sum(meta["chains"]["divergences"])
    return (
        f"| {label} | {wall:.0f} | {sampling:.0f} | {grads:,} | {1e6 * sampling / grads:.0f} | "
        f"{min_ess:.0f} ({worst}) | {min_ess / sampling:.2f} | {max_rhat} | {divergences} | {rss:.0f} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warmup", type=int, default=700)
    parser.add_argument("--draws", type=int, default=1500)
    parser.add_argument("--chains", type=int, default=4, help="chains of the per-kernel runs")
    parser.add_argument("--scaling", type=int, nargs="*", default=[1, 2, 4, 8, 16],
                        help="chain counts of the NUTS scaling runs")
    parser.add_argument("--scaling-warmup", type=int, default=200)
    parser.add_argument("--scaling-draws", type=int, default=200)
    parser.add_argument("--rb-targets", type=float, nargs="*", default=[1e-5, 1e-7, 1e-9],
                        help="relative-binning targets of the node-count runs")
    parser.add_argument("--durations", type=float, nargs="*", default=[4, 8, 16, 32, 64],
                        help="segment lengths (s) of the segment-length runs")
    parser.add_argument("--output", default=os.path.join(ROOT, "docs", "benchmark.md"))
    options = parser.parse_args()
    subprocess.run(["cargo", "build", "--release", "-p", "tdpe"], cwd=ROOT, check=True)
    costs = likelihood_costs()
    print("\n".join(costs), flush=True)

    header = ("| run | wall (s) | sampling (s) | gradients | µs per gradient (all threads) | "
              "min bulk ESS | min ESS/s | max R̂ | divergences | peak RSS (MB) |\n|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    # Fixed lengths (no going on for the target ESS), so that the runs' costs compare.
    common = ["--n-warmup", str(options.warmup), "--n-draws", str(options.draws), "--target-ess", "0"]
    # The scaling tables are of NUTS, named, as the default kernel (auto) may change.
    short = ["--n-warmup", str(options.scaling_warmup), "--n-draws", str(options.scaling_draws),
             "--target-ess", "0", "--sampler", "nuts"]
    kernels, scaling, node_rows, segment_rows = [], [], [], []
    with tempfile.TemporaryDirectory() as scratch:
        for kernel in ["nuts", "hmc", "mala"]:
            out = os.path.join(scratch, kernel)
            result, rss, wall = run(common + ["--sampler", kernel, "--n-chains", str(options.chains)], out)
            kernels.append(row(f"{kernel}, {options.chains} chains", result, rss, wall))
            print(kernels[-1], flush=True)
        for chains in options.scaling:
            out = os.path.join(scratch, f"chains{chains}")
            result, rss, wall = run(short + ["--n-chains", str(chains)], out)
            scaling.append(row(f"nuts, {chains} chains", result, rss, wall))
            print(scaling[-1], flush=True)
        for target in options.rb_targets:
            out = os.path.join(scratch, f"target{target:g}")
            result, rss, wall = run(short + ["--n-chains", "2", "--rb-target", str(target)], out)
            node_rows.append(row(f"target {target:g}, nodes {nodes(result)}", result, rss, wall))
            print(node_rows[-1], flush=True)
        for duration in options.durations:
            out = os.path.join(scratch, f"segment{duration:g}")
            result, rss, wall = run(short + ["--n-chains", "2"], out, segment_config(duration))
            segment_rows.append(row(f"{duration:g} s, nodes {nodes(result)}", result, rss, wall))
            print(segment_rows[-1], flush=True)

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    text = f"""# tdpe run: benchmark

Regenerate with `python3 tools/benchmark_run.py` (this file's settings:
`--warmup {options.warmup} --draws {options.draws} --chains {options.chains} --scaling {' '.join(map(str, options.scaling))}
--scaling-warmup {options.scaling_warmup} --scaling-draws {options.scaling_draws} --rb-targets {' '.join(f"{t:g}" for t in options.rb_targets)}
--durations {' '.join(f"{d:g}" for d in options.durations)}`).

- Machine: {cpu}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}.
- Problem: the embedded default (`cargo run --release -- run`): GW150914-like injection in H1 and L1
  design noise, 4 s at 2048 Hz, 11 parameters (ten sampled, the likelihood marginalised over the
  distance, which each draw then gets from its conditional posterior), relative binning around
  the injection.
- Method: each run is one process under `/usr/bin/time -v` (peak RSS); wall time is the whole
  process; sampling time, gradient evaluations (warm-up included, all chains) and bulk ESS come
  from result.json. ESS/s is the smallest bulk ESS over the parameters divided by the sampling
  time. Threads = all cores; the chains take turns on them in segments of 10 transitions,
  the least advanced chain first, so with more chains than cores they share the cores evenly.
- Reading the tables: an ESS (and ESS/s) means something only where R̂ < 1.01; a kernel whose
  chains have not mixed reports a meaningless ESS/s, however large. Divergent transitions
  (after warm-up, all chains) mark curvature the kernel could not follow: the draws may miss
  part of the posterior there, so a fast kernel with many of them is not a faster answer. The
  scaling runs are short on purpose: read their cost columns (wall, gradients, µs per gradient,
  peak RSS), not their ESS or R̂.
- Times are one measurement each and follow the machine's load and speed at the time (a shared
  VM drifts); gradient counts, ESS and R̂ are exact for a seed (the same seed gives the same draws).
- The experiments behind the sampler's settings, and the evidence check against bilby +
  dynesty, are in [sampler_studies.md](sampler_studies.md).

## Cost of one likelihood evaluation

Relative binning on the default problem (H1 + L1, 4 s at 2048 Hz, ~90 nodes per detector) at a
posterior-like point, one thread; criterion's median and its 95 % confidence interval
(`cargo bench -p tdpe-likelihood --bench bbh_relative_binning`; more rows in
[relative_binning.md](relative_binning.md)).

| evaluation | median (µs) | 95 % interval (µs) |
|---|---:|---|
{chr(10).join(costs)}

## Kernels

The default run (`tdpe run`: {options.chains} chains × ({options.warmup} warm-up + {options.draws} draws)) with each kernel.

{header}
{chr(10).join(kernels)}

## Scaling with the number of chains (NUTS)

`--warmup {options.scaling_warmup} --draws {options.scaling_draws}` per chain.

{header}
{chr(10).join(scaling)}

## Scaling with the number of relative-binning nodes (NUTS, 2 chains)

The node count per detector (H1/L1) follows the accuracy target `--rb-target`.

{header}
{chr(10).join(node_rows)}

## Scaling with the segment length (NUTS, 2 chains)

The default problem with a longer segment (the merger stays 2 s before its end); the wall time
includes the exact likelihood's set-up (the Toeplitz inverse) and the relative-binning set-up.

{header}
{chr(10).join(segment_rows)}
"""
    # The prior-injection campaign's section (tools/prior_injections.py writes it) is kept.
    if os.path.exists(options.output):
        with open(options.output) as f:
            previous = f.read()
        at = previous.find(PRIOR_INJECTIONS_HEADING)
        if at >= 0:
            text += "\n" + previous[at:]
    os.makedirs(os.path.dirname(options.output), exist_ok=True)
    with open(options.output, "w") as f:
        f.write(text)
    print(f"wrote {options.output}")


if __name__ == "__main__":
    main()
