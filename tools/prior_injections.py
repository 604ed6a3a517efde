#!/usr/bin/env python3
"""The prior-injection campaign: binaries drawn from the default prior, injected into tdpe's own
design noise, each analysed with the default settings; the table of docs/benchmark.md's
"Injections from the default prior" section.

Dev-only (standard library only; builds nothing: run `cargo build --release` first, honours
CARGO_TARGET_DIR).

    python3 tools/prior_injections.py draw          # (re)writes campaigns/prior_injections/*.toml
    python3 tools/prior_injections.py run           # runs every config, prints the markdown table
    python3 tools/prior_injections.py run 03 17     # only these
    python3 tools/prior_injections.py run --write   # all, and the table into docs/benchmark.md

`draw` samples candidates from the default prior (crates/posterior/prior_files/
gw150914_like.prior: UniformInComponents chirp mass and mass ratio with the component-mass
constraints, uniform aligned spins, a D_L² distance, isotropic orientation and sky, geocent_time
uniform within ±0.1 s of the trigger), computes each one's network optimal SNR with
`tdpe likelihood` on zero data (ln L = −ρ²/2 there), and keeps the candidates nearest to a
log-uniform ladder of SNRs between 2 and 40, so that the set spans weak and loud signals
alike; each gets its own noise seed. The draw is seeded, so the configs are reproducible.
"""

import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BINARY = os.path.join(TARGET, "release", "tdpe")
CAMPAIGN = os.path.join(ROOT, "campaigns", "prior_injections")
TRIGGER = 1126259462.4
SEED = 29
CANDIDATES = 1000
SNR_LADDER = (2.0, 40.0, 24)
PARAMETERS = ["chirp_mass", "mass_ratio", "chi_1", "chi_2", "luminosity_distance", "theta_jn",
              "psi", "phase", "geocent_time", "ra", "dec"]


def component_masses(chirp_mass, q):
    m1 = chirp_mass * (1 + q) ** 0.2 * q ** -0.6
    return m1, q * m1


def inverse_cdf(rng, pdf, lower, upper, n=4096):
    """A draw from the density `pdf` on [lower, upper] by inverting its tabulated CDF."""
    xs = [lower + (upper - lower) * (i + 0.5) / n for i in range(n)]
    weights = [pdf(x) for x in xs]
    total = sum(weights)
    u = rng.random() * total
    acc = 0.0
    for x, w in zip(xs, weights):
        acc += w
        if acc >= u:
            return x + (upper - lower) / n * (rng.random() - 0.5)
    return xs[-1]


def draw_prior(rng):
    """One draw from the default prior (the constraints by rejection)."""
    while True:
        # bilby's UniformInComponentsChirpMass: p ∝ M_c; UniformInComponentsMassRatio:
        # p ∝ ((1 + q)/q³)^(2/5).
        chirp_mass = math.sqrt(20.0**2 + rng.random() * (40.0**2 - 20.0**2))
        q = inverse_cdf(rng, lambda q: ((1 + q) / q**3) ** 0.4, 0.25, 1.0)
        m1, m2 = component_masses(chirp_mass, q)
        if 10.0 <= m2 <= m1 <= 80.0:
            break
    distance = (100.0**3 + rng.random() * (5000.0**3 - 100.0**3)) ** (1 / 3)
    return {
        "chirp_mass": chirp_mass,
        "mass_ratio": q,
        "chi_1": rng.uniform(-0.99, 0.99),
        "chi_2": rng.uniform(-0.99, 0.99),
        "luminosity_distance": distance,
        "theta_jn": math.acos(rng.uniform(-1.0, 1.0)),
        "psi": rng.uniform(0.0, math.pi),
        "phase": rng.uniform(0.0, 2 * math.pi),
        "geocent_time": TRIGGER + rng.uniform(-0.1, 0.1),
        "ra": rng.uniform(0.0, 2 * math.pi),
        "dec": math.asin(rng.uniform(-1.0, 1.0)),
    }


def default_config():
    return subprocess.run([BINARY, "config"], capture_output=True, text=True, check=True).stdout


def zero_data_config(directory):
    """The default set-up with strain files of zeros (design PSDs given explicitly)."""
    text = default_config()
    start = TRIGGER + 2.0 - 4.0
    for detector in ("H1", "L1"):
        with open(os.path.join(directory, f"{detector}.txt"), "w") as f:
            for i in range(4 * 2048):
                f.write(f"{start + i / 2048.0:.9f} 0\n")
    injection = text[text.index("[injection]"):text.index("[sampler]")]
    strain = ('[strain]\nformat = "time-series"\n'
              '[strain.files]\nH1 = "H1.txt"\nL1 = "L1.txt"\n\n')
    text = text.replace(injection, strain)
    # Only the exact ln L is read: a short fiducial search and no cap on the nodes suffice.
    text = re.sub(r"(?m)^max_nodes = .*$", "max_nodes = 100000", text)
    text = re.sub(r"(?m)^generations = .*$", "generations = 5", text)
    path = os.path.join(directory, "zero.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def network_snrs(points):
    """Optimal network SNR of each point (bilby names, absolute geocent_time)."""
    with tempfile.TemporaryDirectory() as directory:
        config = zero_data_config(directory)
        csv = os.path.join(directory, "points.csv")
        with open(csv, "w") as f:
            f.write(",".join(PARAMETERS) + "\n")
            for p in points:
                f.write(",".join(repr(p[k]) for k in PARAMETERS) + "\n")
        out = subprocess.run([BINARY, "likelihood", config, "--points", csv, "--output", "-"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(out.stderr)
    lines = out.stdout.strip().splitlines()[1:]
    # The exact column: −ρ²/2 on zero data.
    return [math.sqrt(max(0.0, -2.0 * float(line.split(",")[0]))) for line in lines]


def config_text(base, p, noise_seed):
    m1, m2 = component_masses(p["chirp_mass"], p["mass_ratio"])
    injection = "\n".join([
        "[injection]",
        f"chirp_mass = {p['chirp_mass']!r}",
        f"mass_ratio = {p['mass_ratio']!r}",
        f"chi_1 = {p['chi_1']!r}",
        f"chi_2 = {p['chi_2']!r}",
        f"luminosity_distance = {p['luminosity_distance']!r}",
        f"theta_jn = {p['theta_jn']!r}",
        f"psi = {p['psi']!r}",
        f"phase = {p['phase']!r}",
        f"geocent_time = {p['geocent_time']!r}",
        f"ra = {p['ra']!r}",
        f"dec = {p['dec']!r}",
        f"noise_seed = {noise_seed}",
        "",
        "",
    ])
    start = base.index("[injection]")
    end = base.index("[sampler]")
    return base[:start] + injection + base[end:]


def draw():
    rng = random.Random(SEED)
    candidates = [draw_prior(rng) for _ in range(CANDIDATES)]
    snrs = network_snrs(candidates)
    low, high, count = SNR_LADDER
    ladder = [low * (high / low) ** (i / (count - 1)) for i in range(count)]
    chosen = []
    for target in ladder:
        best = min((i for i in range(len(candidates)) if i not in chosen),
                   key=lambda i: abs(math.log(snrs[i] / target)) if snrs[i] > 0 else 1e9)
        chosen.append(best)
    os.makedirs(CAMPAIGN, exist_ok=True)
    base = default_config()
    base = re.sub(r'(?m)^label = .*$', 'label = "prior_injection"', base)
    for n, i in enumerate(sorted(chosen, key=lambda i: snrs[i])):
        text = config_text(base, candidates[i], 1000 + n)
        header = (f"# Prior injection {n:02d}: network optimal SNR {snrs[i]:.2f} (design noise);\n"
                  f"# drawn by tools/prior_injections.py (seed {SEED}, candidate {i}).\n")
        with open(os.path.join(CAMPAIGN, f"{n:02d}.toml"), "w") as f:
            f.write(header + text)
        print(f"{n:02d}: SNR {snrs[i]:.2f}  Mc {candidates[i]['chirp_mass']:.2f}  "
              f"q {candidates[i]['mass_ratio']:.2f}  D {candidates[i]['luminosity_distance']:.0f}")


def summary(result):
    meta = result["meta_data"]
    diagnostics = meta["diagnostics"]
    ess = diagnostics["ess_bulk"]
    rhat = diagnostics["rhat"]
    worst_ess = min(ess, key=ess.get)
    worst_rhat = max(rhat, key=rhat.get)
    detectors = meta["likelihood"]["interferometers"]
    snr = math.sqrt(sum(d["optimal_SNR"] ** 2 for d in detectors.values()))
    nodes = "/".join(str(d["relative_binning_nodes"]) for d in detectors.values())
    chains = meta["chains"]
    if isinstance(chains, list):  # result.json before the per-statistic lists
        chains = {key: [c[key] for c in chains] for key in chains[0]}
    divergences = sum(chains["divergences"])
    time_moves = sum(chains["orbit_moves"])
    independence = sum(chains.get("independent_moves", [0]))
    rb = meta["likelihood"]["relative_binning"]
    check = rb["max_abs_error"]
    spread = rb.get("spread", float("nan"))
    cells = len(rb["pilot"]["cell_nodes"]) if rb.get("pilot") else 1
    draws = min(chains["num_draws"])
    return {
        "draws": draws,
        "snr": snr, "nodes": nodes, "rhat": rhat[worst_rhat], "rhat_name": worst_rhat,
        "ess": ess[worst_ess], "ess_name": worst_ess, "gradients": meta["gradient_evaluations"],
        "densities": meta.get("density_evaluations", 0),
        "sampling": meta["sampling_time"], "total": meta["total_time"],
        "divergences": divergences, "time_moves": time_moves, "check": check, "spread": spread,
        "independence": independence, "cells": cells,
    }


def passes(s):
    """Issue 29's criterion: R̂ < 1.01 and bulk ESS ≥ 400 for every parameter, ≥ 1000 where
    the network SNR is 8 or more."""
    return s["rhat"] < 1.01 and s["ess"] >= (1000 if s["snr"] >= 8 else 400)


BENCHMARK = os.path.join(ROOT, "docs", "benchmark.md")
HEADING = "## Injections from the default prior"
INTRODUCTION = """
The set of `campaigns/prior_injections/` (`python3 tools/prior_injections.py run --write`): 24
binaries drawn from the default prior, chosen along a log-uniform ladder of network optimal SNR
from 2 to 40, each injected into its own design-noise realisation and analysed with the default
settings (4 chains of 700 warm-up NUTS transitions and 1500 draws, going on to at most 6000
draws until every parameter has R̂ < 1.01 and bulk ESS ≥ 1000). Cells are those of the
relative binning of a wide posterior (docs/likelihood.md §3.11; 1: the Fisher design set), and
nodes the most of any cell. The relative-binning check is the largest |Δ ln L| against the
exact likelihood at 100 posterior draws and the standard deviation of Δ ln L there (the error on
the posterior's own scale: it bounds how far the posterior means move, in posterior standard
deviations); gradients and densities are the evaluations of the posterior density with its
gradient and without (the independence proposals, which only a Metropolis–Hastings test sees),
and the cost per evaluation the sampling time over both; time moves and independence jumps are
the draws at
which the orbit move through time (docs/sampling.md §4.3) and an independence proposal (§4.4)
were accepted. "Passes" is issue 29's criterion: R̂ < 1.01 and bulk ESS ≥ 400 for every
parameter, ≥ 1000 at network SNR ≥ 8. One measurement each; the times follow the machine's
load. What the figures say is in sampler_studies.md, "Wide posteriors".
"""


def write_section(lines):
    """Replaces the campaign's section of docs/benchmark.md (from its heading to the next
    section's), or appends it."""
    with open(BENCHMARK) as f:
        text = f.read()
    section = HEADING + "\n" + INTRODUCTION + "\n" + "\n".join(lines) + "\n"
    at = text.find(HEADING)
    if at < 0:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        following = text.find("\n## ", at + len(HEADING))
        rest = "" if following < 0 else "\n" + text[following + 1:]
        text = text[:at] + section + rest
    with open(BENCHMARK, "w") as f:
        f.write(text)
    print(f"wrote {BENCHMARK}")


def timed_default_run():
    """Wall time (s) of the default run on the embedded configuration, the campaign's yardstick."""
    with tempfile.TemporaryDirectory() as outdir:
        started = time.time()
        subprocess.run([BINARY, "run", "--outdir", outdir, "--no-progress"], capture_output=True,
                       check=True)
        return time.time() - started


def run(names):
    write = "--write" in names
    names = [n for n in names if n != "--write"]
    configs = sorted(f for f in os.listdir(CAMPAIGN) if f.endswith(".toml"))
    if names:
        configs = [c for c in configs if c[:-5] in names]
    lines = []

    def emit(line):
        lines.append(line)
        print(line, flush=True)

    emit("| injection | network SNR | cells | nodes (H1/L1) | RB check \\|Δ ln L\\| max / sd | max R̂ "
          "| smallest bulk ESS | draws per chain | gradients | densities | µs per evaluation "
          "| sampling (s) | wall (s) "
          "| divergences | time moves | independence jumps | passes |")
    emit("|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|")
    walls = []
    default_wall = timed_default_run()
    for config in configs:
        with tempfile.TemporaryDirectory() as outdir:
            started = time.time()
            done = subprocess.run([BINARY, "run", os.path.join(CAMPAIGN, config), "--outdir",
                                   outdir, "--no-progress"], capture_output=True, text=True)
            wall = time.time() - started
            if done.returncode != 0:
                line = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
                emit(f"| {config[:-5]} | | | | | | failed: {line} | | | | | | {wall:.0f} | | | | no |")
                continue
            with open(os.path.join(outdir, "result.json")) as f:
                text = f.read()
            text = text.replace("NaN", "null").replace("-Infinity", "null").replace("Infinity",
                                                                                     "null")
            s = summary(json.loads(text))
        evaluations = s["gradients"] + s["densities"]
        per_evaluation = 1e6 * s["sampling"] / evaluations if evaluations else float("nan")
        walls.append(wall)
        emit(f"| {config[:-5]} | {s['snr']:.1f} | {s['cells']} | {s['nodes']} | {s['check']:.1e} / {s['spread']:.1e} "
             f"| {s['rhat']:.3f} ({s['rhat_name']}) | {s['ess']:.0f} ({s['ess_name']}) "
             f"| {s['draws']} | {s['gradients']:,} | {s['densities']:,} | {per_evaluation:.0f} "
             f"| {s['sampling']:.1f} | {wall:.1f} "
             f"| {s['divergences']} | {s['time_moves']} | {s['independence']} "
             f"| {'yes' if passes(s) else '**no**'} |")
    if walls:
        walls.sort()
        emit("")
        median, largest = walls[len(walls) // 2], walls[-1]
        emit(f"Wall time: median {median:.0f} s, largest {largest:.0f} s; the default run "
             f"(`tdpe run`, timed first in the same session) {default_wall:.0f} s: median "
             f"{median / default_wall:.1f}×, largest {largest / default_wall:.1f}× the default's.")
    if write:
        write_section(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("draw", "run"):
        sys.exit(__doc__)
    if sys.argv[1] == "draw":
        draw()
    else:
        run(sys.argv[2:])
