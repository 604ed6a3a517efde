#!/usr/bin/env python3
"""Calls per second of tdpe's Python likelihood against bilby's GravitationalWaveTransient with
IMRPhenomT (lalsimulation), on the same data in the same run: the bilby-simulated H1+L1 data of
crates/tdpe/tests/data/band_lnl (4 s at 2048 Hz from 20 Hz, the injection of its README).

tdpe: relative binning one point per call (as bilby's samplers call it), 10^4 points in one
vectorised call, with the gradient, and the exact Toeplitz likelihood; bilby: one point per call,
no marginalisation. Prints a table for docs/benchmark.md.

Run (the package installed, and bilby with lalsuite, e.g. the venv of
tools/python_package_test.sh with tools/result_tools_requirements.txt):
    python tools/python_likelihood_benchmark.py
"""
import json
import pathlib
import tempfile
import time

import bilby
import numpy as np

import tdpe

FIXTURE = pathlib.Path(__file__).resolve().parents[1] / "crates/tdpe/tests/data/band_lnl"
DURATION, FS, F_MIN, POST = 4.0, 2048.0, 20.0, 2.0
WIDTHS = dict(chirp_mass=0.3, mass_ratio=0.05, chi_1=0.1, chi_2=0.1, luminosity_distance=100.0,
              theta_jn=0.1, psi=0.1, phase=0.1, geocent_time=2e-4, ra=0.02, dec=0.02)


def points(injection, n, seed=1):
    """n points within a fraction of a posterior width of the injection."""
    rng = np.random.default_rng(seed)
    return {k: injection[k] + 0.2 * w * rng.standard_normal(n) for k, w in WIDTHS.items()}


def rate(call, n, repeat=3):
    """Calls per second of `call(i)` for i < n, best of `repeat`."""
    best = np.inf
    for _ in range(repeat):
        start = time.perf_counter()
        for i in range(n):
            call(i)
        best = min(best, time.perf_counter() - start)
    return n / best


def tdpe_likelihood(injection, scratch):
    """tdpe's likelihood of the fixture, with a time prior around its trigger."""
    trigger = injection["geocent_time"]
    prior = tdpe.Likelihood("default").prior_text.splitlines()
    prior = [line for line in prior if not line.startswith("geocent_time")]
    prior.append(f"geocent_time = Uniform(name='geocent_time', minimum={trigger - 0.1!r}, "
                 f"maximum={trigger + 0.1!r})")
    path = pathlib.Path(scratch) / "band_lnl.prior"
    path.write_text("\n".join(prior) + "\n")
    return tdpe.Likelihood(str(FIXTURE / "simulation.toml"), overrides={"prior_file": str(path)})


def bilby_likelihood():
    """bilby's likelihood of the same data (the fixture's strain and simulation PSD)."""
    trigger = json.loads((FIXTURE / "bilby_lnl.json").read_text())["injection"]["geocent_time"]
    psd = np.loadtxt(FIXTURE / "sim_psd.txt")
    ifos = bilby.gw.detector.InterferometerList(["H1", "L1"])
    for ifo in ifos:
        f, re, im = np.loadtxt(FIXTURE / f"{ifo.name}_fd_strain.txt", unpack=True)
        ifo.power_spectral_density = bilby.gw.detector.PowerSpectralDensity(
            frequency_array=psd[:, 0], psd_array=psd[:, 1])
        ifo.minimum_frequency, ifo.maximum_frequency = F_MIN, FS / 2
        ifo.set_strain_data_from_frequency_domain_strain(
            re + 1j * im, sampling_frequency=FS, duration=DURATION,
            start_time=trigger + POST - DURATION)
    wfg = bilby.gw.WaveformGenerator(
        duration=DURATION, sampling_frequency=FS,
        frequency_domain_source_model=bilby.gw.source.lal_binary_black_hole,
        parameter_conversion=bilby.gw.conversion.convert_to_lal_binary_black_hole_parameters,
        waveform_arguments=dict(waveform_approximant="IMRPhenomT", reference_frequency=20.0,
                                minimum_frequency=F_MIN))
    return bilby.gw.likelihood.GravitationalWaveTransient(ifos, wfg)


def main():
    injection = json.loads((FIXTURE / "bilby_lnl.json").read_text())["injection"]
    with tempfile.TemporaryDirectory() as scratch:
        ours = tdpe_likelihood(injection, scratch)
    theirs = bilby_likelihood()
    pts = points(injection, 10_000)
    one = [{k: float(v[i]) for k, v in pts.items()} for i in range(len(pts["chirp_mass"]))]

    rows = []
    bilby_rate = rate(lambda i: theirs.log_likelihood_ratio(one[i]), 200)
    rows.append(("bilby GravitationalWaveTransient (IMRPhenomT, lalsimulation)", bilby_rate))
    rows.append(("tdpe relative binning, one point per call",
                 rate(lambda i: ours.log_likelihood_ratio(one[i]), 5000)))
    start = time.perf_counter()
    ours.log_likelihood_ratio(pts)
    rows.append(("tdpe relative binning, 10^4 points in one call",
                 len(one) / (time.perf_counter() - start)))
    rows.append(("tdpe relative binning with the gradient, one point per call",
                 rate(lambda i: ours.log_likelihood_ratio_and_gradient(one[i]), 5000)))
    rows.append(("tdpe exact (Toeplitz) likelihood, one point per call",
                 rate(lambda i: ours.log_likelihood_ratio(one[i], method="exact"), 50)))

    print(f"tdpe {tdpe.__version__}, bilby {bilby.__version__}; ln L at the injection: "
          f"tdpe {ours.log_likelihood_ratio(injection):.2f} (relative binning), "
          f"{ours.log_likelihood_ratio(injection, method='exact'):.2f} (exact), "
          f"bilby {theirs.log_likelihood_ratio(injection):.2f}")
    print("| Likelihood | calls/s | × bilby |")
    print("|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r:,.0f} | {r / bilby_rate:,.1f} |")


if __name__ == "__main__":
    main()
