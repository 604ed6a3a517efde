#!/usr/bin/env python3
"""Sky (ra, dec) and polarisation-phase (psi, phase) posteriors of one or more `tdpe run`
outputs side by side, to compare how runs explore the two-detector sky ring and its islands.

Dev-only (needs numpy and matplotlib):

    python3 tools/sky_plot.py tdpe-out/samples.csv other-run/samples.csv \
        --labels "PT K=8" "8 dispersed chains" --output docs/figures/sky.png

Each run is drawn as a 2-D histogram of its draws; the injected value (if --truth is given as
ra dec) is marked. It also prints, per run, the fraction of draws in each sky-ring quadrant of
ra, so the weights of the islands can be compared in numbers.
"""

import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in ("ra", "dec", "psi", "phase")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("samples", nargs="+", help="samples.csv of each run")
    parser.add_argument("--labels", nargs="*", help="one label per run")
    parser.add_argument("--truth", nargs=2, type=float, metavar=("RA", "DEC"))
    parser.add_argument("--output", default="sky.png")
    args = parser.parse_args()
    labels = args.labels or args.samples
    runs = [load(p) for p in args.samples]

    fig, axes = plt.subplots(2, len(runs), figsize=(5 * len(runs), 8), squeeze=False)
    for column, (run, label) in enumerate(zip(runs, labels)):
        sky, pol = axes[0][column], axes[1][column]
        sky.hist2d(run["ra"], run["dec"], bins=[90, 45], range=[[0, 2 * np.pi], [-np.pi / 2, np.pi / 2]],
                   cmap="Blues", cmin=1)
        if args.truth:
            sky.plot(*args.truth, "r+", markersize=14, mew=2)
        sky.set(xlabel="ra (rad)", ylabel="dec (rad)", title=f"{label}: {len(run['ra'])} draws")
        pol.hist2d(run["psi"], run["phase"], bins=[45, 90], range=[[0, np.pi], [0, 2 * np.pi]],
                   cmap="Greens", cmin=1)
        pol.set(xlabel="psi (rad)", ylabel="phase (rad)")
        quadrants = np.histogram(run["ra"], bins=4, range=(0, 2 * np.pi))[0] / len(run["ra"])
        print(f"{label}: fraction of draws per ra quadrant [0, π/2, π, 3π/2): "
              + ", ".join(f"{q:.3f}" for q in quadrants)
              + f"; dec > 0: {np.mean(run['dec'] > 0):.3f}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=90)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
