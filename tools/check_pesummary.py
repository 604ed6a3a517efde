#!/usr/bin/env python3
"""Check that a tdpe result.json goes through the field's tools (dev-only).

    python3 -m venv /tmp/pesenv && /tmp/pesenv/bin/pip install -r tools/result_tools_requirements.txt
    /tmp/pesenv/bin/python tools/check_pesummary.py tdpe-out/result.json [--summarypages]

(.ci/run does this on a short default run.)

Checks, exiting non-zero on the first failure:
- PESummary (`pesummary.io.read`) reads it with its bilby reader: the injection is there and
  finite where the run had one, the priors are there, the approximant, f_low, f_start and
  delta_f are read from the file rather than defaulted, and the source-frame and per-detector
  SNR columns are there;
- bilby reads it (as a `CBCResult`) with priors that are a `BBHPriorDict`, so that prior draws obey
  the mass constraints; `bilby_result -s -e hdf5` converts it and the HDF5 file loads again;
- `CBCResult.plot_waveform_posterior` (bilby rebuilds the waveform generator from the meta
  data) and, for an injection, `bilby.core.result.make_pp_plot` run on it;
- with --summarypages, `summarypages --gw` completes on it (a few minutes).
"""
import argparse
import math
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np
from result_checks import check, fail



def check_pesummary(path, has_injection):
    import pesummary.io

    f = pesummary.io.read(str(path))
    check(type(f).__name__ == "Bilby", f"PESummary's bilby reader ({type(f).__name__})")
    injection = {k: float(np.atleast_1d(v)[0]) for k, v in dict(f.injection_parameters).items()}
    if has_injection:
        finite = [k for k, v in injection.items() if math.isfinite(v)]
        check("chirp_mass" in finite and "luminosity_distance" in finite,
              f"the injection is read ({len(finite)} finite values)")
    check(f.priors is not None and len(f.priors.get("samples", {})) > 0,
          "PESummary draws prior samples")
    meta = f.extra_kwargs["meta_data"]
    check(meta.get("approximant") == "IMRPhenomT", f"approximant {meta.get('approximant')}")
    check(meta.get("f_low") == 20.0 or meta.get("f_low") == [20.0], f"f_low {meta.get('f_low')}")
    check(meta.get("f_start") == 20.0, f"f_start {meta.get('f_start')} (bilby_pipe's 'waveform' entry)")
    check(meta.get("delta_f") == 1.0 / meta.get("duration", float("nan")),
          f"delta_f {meta.get('delta_f')} is 1/duration")
    samples = f.samples_dict
    derived = ["mass_1_source", "chirp_mass_source", "redshift", "H1_optimal_snr",
               "H1_matched_filter_snr"]
    check(all(name in samples.keys() for name in derived),
          "the source-frame and per-detector SNR columns are read")


def check_bilby(path, outdir):
    import bilby
    from bilby.core.result import read_in_result
    from bilby.gw.prior import BBHPriorDict

    result = read_in_result(str(path), result_class=bilby.gw.result.CBCResult)
    check(isinstance(result.priors, BBHPriorDict), f"priors are a {type(result.priors).__name__}")
    draws = result.priors.sample(20000)
    m1, m2 = bilby.gw.conversion.chirp_mass_and_mass_ratio_to_component_masses(
        np.asarray(draws["chirp_mass"]), np.asarray(draws["mass_ratio"]))
    bounds = {name: result.priors[name] for name in ("mass_1", "mass_2") if name in result.priors}
    inside = all(np.all((m >= bounds[n].minimum) & (m <= bounds[n].maximum))
                 for n, m in (("mass_1", m1), ("mass_2", m2)) if n in bounds)
    check(inside, "prior draws obey the component-mass constraints")

    converted = pathlib.Path(outdir) / "hdf5"
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "bilby_result"), "-r",
                           str(path), "-s", "-e", "hdf5", "--outdir", str(converted)],
                          capture_output=True, text=True)
    written = list(converted.glob("*.hdf5"))
    check(done.returncode == 0 and len(written) == 1 and "failed" not in done.stdout + done.stderr,
          f"bilby_result -e hdf5 ({(done.stdout + done.stderr).strip()[-300:]})")
    again = read_in_result(str(written[0]))
    check(len(again.posterior) == len(result.posterior), "the HDF5 result loads again")

    result.outdir = str(outdir)
    result.plot_waveform_posterior(n_samples=20)
    check(any(pathlib.Path(outdir).glob("*waveform*")), "plot_waveform_posterior draws")
    if result.injection_parameters is None:
        # A PP plot places injected values in their posteriors: real data have none.
        print("skipped: make_pp_plot (no injection)")
    else:
        bilby.core.result.make_pp_plot([result, result],
                                       filename=str(pathlib.Path(outdir) / "pp.png"),
                                       keys=["chirp_mass", "mass_ratio"])
        check((pathlib.Path(outdir) / "pp.png").exists(), "make_pp_plot draws")
    return result


def check_summarypages(path, outdir):
    webdir = pathlib.Path(outdir) / "pages"
    summarypages = os.path.join(os.path.dirname(sys.executable), "summarypages")
    done = subprocess.run([summarypages, "--webdir", str(webdir), "--samples", str(path), "--gw",
                           "--disable_interactive", "--disable_expert", "--no_ligo_skymap",
                           "--multi_process", "2"], capture_output=True, text=True)
    tail = (done.stdout + done.stderr).strip()[-600:]
    check(done.returncode == 0 and (webdir / "home.html").exists(), f"summarypages --gw ({tail})")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("result")
    parser.add_argument("--summarypages", action="store_true")
    options = parser.parse_args()
    path = pathlib.Path(options.result).resolve()
    with tempfile.TemporaryDirectory() as outdir:
        result = check_bilby(path, outdir)
        check_pesummary(path, result.injection_parameters is not None)
        if options.summarypages:
            check_summarypages(path, outdir)
    print("all checks passed")


if __name__ == "__main__":
    main()
