#!/usr/bin/env python3
"""Check that a tdpe result.json loads in bilby and agrees with the run's other products (dev-only).

    python3 -m venv /tmp/bilbyenv && /tmp/bilbyenv/bin/pip install bilby
    /tmp/bilbyenv/bin/python tools/check_bilby_result.py tdpe-out/result.json [--corner bilby_corner.png]

Loads the file with `bilby.core.result.read_in_result`, prints bilby's summary and the posterior
(median and 90 % credible interval with numpy's quantiles), and checks that:
- the posterior holds the sampled parameters, log_likelihood and log_prior;
- the priors load as a bilby PriorDict and the fixed and constraint keys name its entries;
- meta_data holds the per-detector optimal SNR and `diagnostics` (rhat, ess_bulk, ess_tail
  keyed by parameter) for every sampled parameter;
- samples.csv next to it holds the same draws, and summary.md quotes the same medians and
  intervals (numpy's quantiles, rounded as printed there).
With --corner, also draws bilby's own corner plot of the result for comparison with corner.png.
Exits non-zero on the first failed check.
"""
import argparse
import math
import pathlib
import re

import numpy as np
import pandas as pd
from bilby.core.prior import PriorDict
from bilby.core.result import read_in_result
from result_checks import check, fail



def summary_rows(path):
    """Parameter -> (median text, [lower, upper] texts) from summary.md's posterior table."""
    rows = {}
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"\[.*, .*\]", cells[2]):
            lower, upper = cells[2][1:-1].split(", ")
            rows[cells[0]] = (cells[1], lower, upper)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("result", type=pathlib.Path, help="path to result.json")
    parser.add_argument("--corner", type=pathlib.Path, help="write bilby's corner plot here")
    args = parser.parse_args()

    result = read_in_result(str(args.result))
    print(f"read_in_result: label={result.label!r} sampler={result.sampler!r} version={result.version!r}")
    print(result)
    posterior = result.posterior
    check(isinstance(posterior, pd.DataFrame), "the posterior is a DataFrame")
    print(f"posterior: {len(posterior)} draws x {len(posterior.columns)} columns")

    header = f"{'parameter':>22} {'median':>16} {'5%':>16} {'95%':>16} {'injected':>16}"
    print(header)
    injection = result.injection_parameters or {}
    for name in posterior.columns:
        lo, med, hi = np.quantile(posterior[name], [0.05, 0.5, 0.95])
        inj = injection.get(name, float("nan"))
        print(f"{name:>22} {med:16.6f} {lo:16.6f} {hi:16.6f} {inj:16.6f}")

    for name in list(result.search_parameter_keys) + ["log_likelihood", "log_prior"]:
        check(name in posterior.columns, f"the posterior has {name}")
    check(isinstance(result.priors, PriorDict), f"the priors are a PriorDict ({type(result.priors).__name__})")
    for key in list(result.fixed_parameter_keys) + list(result.constraint_parameter_keys):
        check(key in result.priors, f"the priors have {key}")
    print(f"priors ({type(result.priors).__name__}):")
    for key, prior in result.priors.items():
        print(f"  {key} = {prior!r}")
    # Informational: bilby's ln prior of the sampled parameters (and of a marginalised distance,
    # which tdpe's log_prior includes) next to the run's log_prior (they agree when every such
    # parameter's prior is in the file and none is conditional).
    marginalised = ["luminosity_distance"] if result.meta_data["likelihood"].get("distance_marginalization") else []
    sampled = [k for k in list(result.search_parameter_keys) + marginalised if k in result.priors]
    for row in range(min(3, len(posterior))):
        ln_prior = sum(result.priors[k].ln_prob(posterior[k].iloc[row]) for k in sampled)
        print(f"draw {row}: ln prior (bilby) {ln_prior:.6f}, log_prior (tdpe) {posterior['log_prior'].iloc[row]:.6f}")

    meta = result.meta_data
    ifos = meta["likelihood"]["interferometers"]
    for ifo, info in ifos.items():
        print(f"{ifo}: optimal SNR {info['optimal_SNR']:.3f}, matched-filter SNR {info['matched_filter_SNR']:.3f}")
    check(len(ifos) > 0, "meta_data has per-detector SNRs")
    diagnostics = meta["diagnostics"]
    for stat in ("rhat", "ess_bulk", "ess_tail"):
        for name in result.search_parameter_keys:
            check(name in diagnostics[stat], f"meta_data.diagnostics.{stat} has {name}")
    print(f"sampling_time: {result.sampling_time}; versions: {meta['versions']}")
    print("max rhat: {:.4f}; min ess_bulk: {:.0f}".format(
        max(diagnostics["rhat"].values()), min(diagnostics["ess_bulk"].values())))

    samples_csv = args.result.with_name("samples.csv")
    if samples_csv.exists():
        samples = pd.read_csv(samples_csv)
        for name in posterior.columns:
            check(np.array_equal(samples[name].to_numpy(), posterior[name].to_numpy(), equal_nan=True),
                  f"samples.csv and result.json agree in {name}")
        print(f"samples.csv: same {len(samples)} draws")

    summary_md = args.result.with_name("summary.md")
    if summary_md.exists():
        rows = summary_rows(summary_md)
        for name, texts in rows.items():
            decimals = len(texts[0].split(".")[1]) if "." in texts[0] else 0
            values = np.quantile(posterior[name], [0.5, 0.05, 0.95])
            expected = tuple(f"{v:.{decimals}f}" for v in values)
            check(expected == texts, f"summary.md quotes {texts} for {name}, numpy gives {expected}")
        print(f"summary.md: medians and 90% intervals of {len(rows)} parameters match numpy")

    if args.corner:
        result.plot_corner(filename=str(args.corner), quantiles=[0.05, 0.95])
        print(f"bilby corner plot: {args.corner}")
    print("OK")


if __name__ == "__main__":
    main()
