#!/usr/bin/env python3
"""The whole default run in units of one LAL waveform: `tdpe run` (the embedded default, or a
config) against LALSuite's `SimInspiralChooseTDWaveform(IMRPhenomT)` for the run's injection, on
the run's grid (its sampling frequency, f_min = f_ref = the run's reference frequency), in the
same session (issue 26, target 4: the run ≤ 10,000 LAL evaluations).

Dev-only. LAL's time is the median of in-process calls after a warm-up call; tdpe's is the wall
time of the whole process (`--no-progress`), which includes the data, the likelihood set-up, the
sampling and the outputs. The two alternate over the rounds, so that a shared machine's load
touches both alike; the ratio is that of the medians.

    python3 -m venv /tmp/lalenv && /tmp/lalenv/bin/pip install lalsuite==7.26.16 numpy
    cargo build --release -p tdpe
    /tmp/lalenv/bin/python tools/run_vs_lal.py [--rounds 3] [--calls 200] [CONFIG.toml]
"""
import argparse
import pathlib
import statistics
import subprocess
import tempfile
import time
import tomllib

import lal
import lalsimulation as ls

ROOT = pathlib.Path(__file__).resolve().parents[1]
BINARY = ROOT / "target" / "release" / "tdpe"


def injection_call(config):
    """The LAL call for the config's injection, on the run's grid."""
    inj = config["injection"]
    if "mass_1" in inj:
        m1, m2 = inj["mass_1"], inj["mass_2"]
    else:
        mc, q = inj["chirp_mass"], inj["mass_ratio"]
        m1 = mc * (1 + q) ** 0.2 / q ** 0.6
        m2 = m1 * q
    f_ref = config.get("reference_frequency", 20.0)
    delta_t = 1.0 / config.get("sampling_frequency", 2048.0)
    args = (m1 * lal.MSUN_SI, m2 * lal.MSUN_SI, 0.0, 0.0, inj.get("chi_1", 0.0), 0.0, 0.0,
            inj.get("chi_2", 0.0), inj["luminosity_distance"] * 1e6 * lal.PC_SI,
            inj.get("theta_jn", 0.0), inj.get("phase", 0.0), 0.0, 0.0, 0.0, delta_t, f_ref, f_ref,
            None, ls.GetApproximantFromString("IMRPhenomT"))
    return lambda: ls.SimInspiralChooseTDWaveform(*args)


def lal_time(call, calls):
    call()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_time(config_path):
    with tempfile.TemporaryDirectory() as outdir:
        command = [str(BINARY), "run", "--no-progress", "--outdir", outdir]
        if config_path:
            command.append(str(config_path))
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", nargs="?", help="run config (default: the embedded default)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calls", type=int, default=200, help="LAL calls per round")
    args = parser.parse_args()
    if args.config:
        config = tomllib.loads(pathlib.Path(args.config).read_text())
    else:
        text = subprocess.run([str(BINARY), "config"], check=True, capture_output=True,
                              text=True).stdout
        config = tomllib.loads(text)
    call = injection_call(config)
    lal_s, run_s = [], []
    for _ in range(args.rounds):
        lal_s.append(lal_time(call, args.calls))
        run_s.append(run_time(args.config))
    t_lal, t_run = statistics.median(lal_s), statistics.median(run_s)
    print(f"LAL IMRPhenomT for the injection: {t_lal * 1e3:.3f} ms per call "
          f"(rounds: {', '.join(f'{t * 1e3:.3f}' for t in lal_s)})")
    print(f"tdpe run: {t_run:.1f} s (rounds: {', '.join(f'{t:.1f}' for t in run_s)})")
    print(f"the run = {t_run / t_lal:,.0f} LAL evaluations (target ≤ 10,000)")


if __name__ == "__main__":
    main()
