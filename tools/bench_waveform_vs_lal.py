#!/usr/bin/env python3
"""Time per call: LALSuite's IMRPhenomT and IMRPhenomTPHM against tdpe's, for the same
parameters and grid.

Dev-only. LAL's side is `SimInspiralChooseTDWaveform(..., IMRPhenomT)` called from Python; tdpe's
is the `time_generation` example of crates/phenomt (set-up plus h+, hx on LAL's grid, in f64),
which also times values plus derivatives with respect to (m1, m2, chi1, chi2, t) with
`Dual<5>`. For IMRPhenomTPHM (PrecVersion 300, LAL's default), LAL's
`SimInspiralChooseTDWaveform` and `SimInspiralChooseTDModes` against the same example with
`--precessing 1` (set-up with the spin ODE and the Euler angles, plus h+, hx or every L0 mode on LAL's grid).
For the precessing likelihood (`--only RB`), LAL's IMRPhenomTPHM `SimInspiralChooseTDWaveform`
against the `precessing_cost` example of crates/likelihood (the exact ln L, relative binning's
ln L, and relative binning's ln L plus gradient, for the same binary; the issue's target is the
gradient cheaper than one LAL waveform); its spins are bilby's conversion
(`bilby_to_lalsimulation_spins`, so this table needs bilby), checked against the example's.
Both sides report the median over repeated in-process calls, so process start-up is excluded.
Measurements alternate between the two sides over several rounds (the median of the rounds is
reported), so that a shared machine's load affects both alike.

    python3 -m venv /tmp/lalenv && /tmp/lalenv/bin/pip install lalsuite numpy bilby
    /tmp/lalenv/bin/python tools/bench_waveform_vs_lal.py [--rounds 3] [--only T|TPHM|RB]

The examples are built into $CARGO_TARGET_DIR (default: target/).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import time

import lal
import lalsimulation as ls

ROOT = pathlib.Path(__file__).resolve().parents[1]
TARGET = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
EXAMPLE = TARGET / "release" / "examples" / "time_generation"
COST_EXAMPLE = TARGET / "release" / "examples" / "precessing_cost"

# name, parameters, repeats per round (fewer for the long waveform)
CASES = [
    ("GW150914-like, 4096 Hz from 20 Hz",
     dict(m1=36.0, m2=29.0, chi1=0.3, chi2=-0.2, distance=410.0, inclination=0.4, phase=0.3,
          sampling_frequency=4096.0, f_min=20.0), 200),
    ("1.6+1.3 Msun, 4096 Hz from 10 Hz",
     dict(m1=1.6, m2=1.3, chi1=0.0, chi2=0.0, distance=40.0, inclination=0.4, phase=0.3,
          sampling_frequency=4096.0, f_min=10.0), 3),
]

# IMRPhenomTPHM: name, parameters (spins in LAL's L0 frame at f_ref = f_min), repeats per round
CASES_TPHM = [
    ("P01 GW150914-like precessing, 2048 Hz",
     dict(m1=36.0, m2=29.0, chi1=(0.12, 0.05, 0.3), chi2=(-0.08, 0.1, -0.2), distance=410.0,
          inclination=2.7, phase=0.3, sampling_frequency=2048.0, f_min=20.0), 30),
    ("P01 GW150914-like precessing, 4096 Hz",
     dict(m1=36.0, m2=29.0, chi1=(0.12, 0.05, 0.3), chi2=(-0.08, 0.1, -0.2), distance=410.0,
          inclination=2.7, phase=0.3, sampling_frequency=4096.0, f_min=20.0), 30),
    ("10+8 Msun strong precession, 4096 Hz",
     dict(m1=10.0, m2=8.0, chi1=(0.5, 0.3, 0.2), chi2=(-0.4, 0.3, -0.1), distance=200.0,
          inclination=0.9, phase=0.7, sampling_frequency=4096.0, f_min=20.0), 5),
]


def lal_tphm_call(p, modes=False):
    """One LAL IMRPhenomTPHM waveform (or its L0 modes), f_ref = f_min, default options."""
    approximant = ls.GetApproximantFromString("IMRPhenomTPHM")
    (s1x, s1y, s1z), (s2x, s2y, s2z) = p["chi1"], p["chi2"]
    m1, m2 = p["m1"] * lal.MSUN_SI, p["m2"] * lal.MSUN_SI
    distance, dt = p["distance"] * 1e6 * lal.PC_SI, 1.0 / p["sampling_frequency"]
    if modes:
        return ls.SimInspiralChooseTDModes(
            p["phase"], dt, m1, m2, s1x, s1y, s1z, s2x, s2y, s2z, p["f_min"], p["f_min"],
            distance, None, 5, approximant)
    return ls.SimInspiralChooseTDWaveform(
        m1, m2, s1x, s1y, s1z, s2x, s2y, s2z, distance, p["inclination"], p["phase"], 0.0,
        0.0, 0.0, dt, p["f_min"], p["f_min"], None, approximant)


def median_wall(f, repeat):
    """Median wall time per call of f in s, after one warm-up call."""
    f()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def tdpe_tphm_time(p, repeat):
    """The time_generation example's IMRPhenomTPHM JSON: median times per call in s, and the number of samples."""
    (s1x, s1y, s1z), (s2x, s2y, s2z) = p["chi1"], p["chi2"]
    args = [str(EXAMPLE), "--precessing", 1, "--mass-1", p["m1"], "--mass-2", p["m2"], "--spin-1x", s1x,
            "--spin-1y", s1y, "--spin-1z", s1z, "--spin-2x", s2x, "--spin-2y", s2y,
            "--spin-2z", s2z, "--distance", p["distance"], "--inclination", p["inclination"],
            "--phase", p["phase"], "--sampling-frequency", p["sampling_frequency"],
            "--minimum-frequency", p["f_min"], "--repeat", repeat]
    out = subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def bench_tphm(rounds):
    """The IMRPhenomTPHM table: polarisations and L0 modes, tdpe's time over LAL's."""
    print(f"{'IMRPhenomTPHM case':40} {'samples':>8} {'LAL h+hx':>10} {'tdpe':>10} "
          f"{'tdpe/LAL':>9} {'LAL modes':>10} {'tdpe':>10} {'tdpe/LAL':>9} {'set-up':>10}")
    for name, p, repeat in CASES_TPHM:
        lal_pol, lal_modes, ours = [], [], []
        for _ in range(rounds):
            lal_pol.append(median_wall(lambda: lal_tphm_call(p), repeat))
            lal_modes.append(median_wall(lambda: lal_tphm_call(p, modes=True), repeat))
            ours.append(tdpe_tphm_time(p, repeat))
        n_lal = lal_tphm_call(p)[0].data.length
        if ours[0]["samples"] != n_lal:
            raise SystemExit(f"{name}: LAL has {n_lal} samples, tdpe {ours[0]['samples']}")
        med = lambda key: statistics.median(o[key] for o in ours)  # noqa: E731
        t_pol, t_modes = statistics.median(lal_pol), statistics.median(lal_modes)
        print(f"{name:40} {n_lal:8d} {t_pol * 1e3:8.2f}ms {med('f64_grid') * 1e3:8.2f}ms "
              f"{med('f64_grid') / t_pol:9.3f} {t_modes * 1e3:8.2f}ms "
              f"{med('l0_modes') * 1e3:8.2f}ms {med('l0_modes') / t_modes:9.3f} "
              f"{med('setup') * 1e3:8.2f}ms")
    print("tdpe/LAL: tdpe's time per call over LAL's (h+, hx: SimInspiralChooseTDWaveform; "
          "modes: SimInspiralChooseTDModes, every L0 mode with l <= 5); set-up: "
          "IMRPhenomTPHM::lal alone (co-precessing modes, spin ODE, Euler angles).")


def precessing_cost():
    """The precessing_cost example's `key value` lines (times in s) and its summary line."""
    out = subprocess.run([str(COST_EXAMPLE)], check=True, capture_output=True, text=True)
    lines = out.stdout.splitlines()
    return {k: float(v) for k, v in (line.split() for line in lines[:-1])}, lines[-1]


def bench_rb(rounds, repeat=30):
    """The precessing likelihood's cost against one LAL IMRPhenomTPHM waveform of its binary."""
    from bilby.gw.conversion import bilby_to_lalsimulation_spins

    ours, _ = precessing_cost()  # the binary; the timed runs alternate with LAL's below
    # The example's binary (theta_jn, phi_jl, tilt_1, tilt_2, phi_12, a_1, a_2), LAL's spins at
    # f_ref = 20 Hz as bilby passes them.
    iota, *spins = bilby_to_lalsimulation_spins(
        1.0, 0.3, 1.0, 2.0, 0.8, 0.6, 0.4, ours["mass_1"] * lal.MSUN_SI,
        ours["mass_2"] * lal.MSUN_SI, 20.0, ours["phase"])
    theirs = [ours[f"lal_{k}"] for k in ("inclination", "spin_1x", "spin_1y", "spin_1z",
                                         "spin_2x", "spin_2y", "spin_2z")]
    if max(abs(a - b) for a, b in zip([iota, *spins], theirs)) > 1e-12:
        raise SystemExit(f"bilby's LAL spins {[iota, *spins]}, the example's {theirs}")
    p = dict(m1=ours["mass_1"], m2=ours["mass_2"], chi1=tuple(spins[:3]), chi2=tuple(spins[3:]),
             distance=ours["distance"], inclination=iota, phase=ours["phase"],
             sampling_frequency=2048.0, f_min=20.0)
    lal_s, runs = [], []
    for _ in range(rounds):
        lal_s.append(median_wall(lambda: lal_tphm_call(p), repeat))
        run, summary = precessing_cost()
        runs.append(run)
    t_lal = statistics.median(lal_s)
    med = lambda key: statistics.median(o[key] for o in runs)  # noqa: E731
    print(summary)
    print(f"{'precessing likelihood':28} {'LAL TPHM':>9} {'exact':>9} {'RB ln L':>9} "
          f"{'RB+grad':>9} {'exact/LAL':>9} {'RB/LAL':>7} {'grad/LAL':>8} {'nodes':>9} "
          f"{'set-up':>7}")
    print(f"{'SNR 25, 4 s at 2048 Hz, HL':28} {t_lal * 1e3:7.2f}ms {med('exact') * 1e3:7.2f}ms "
          f"{med('rb_value') * 1e3:7.3f}ms {med('rb_gradient') * 1e3:7.3f}ms "
          f"{med('exact') / t_lal:9.2f} {med('rb_value') / t_lal:7.3f} "
          f"{med('rb_gradient') / t_lal:8.3f} {ours['nodes_h1']:4.0f}+{ours['nodes_l1']:<4.0f} "
          f"{med('setup'):6.1f}s")
    print(f"LAL TPHM: SimInspiralChooseTDWaveform (h+, hx, {lal_tphm_call(p)[0].data.length} "
          "samples); exact: the exact ln L (precessing strain in H1, L1 and C^-1 applies); RB: "
          "relative binning's ln L; RB+grad: its ln L with the gradient in all 15 parameters; "
          "medians of the alternating runs, each the example's median over 21 rounds.")


def lal_call(p):
    """One LAL waveform, as SimInspiralChooseTDWaveform returns it (f_ref = f_min)."""
    return ls.SimInspiralChooseTDWaveform(
        p["m1"] * lal.MSUN_SI, p["m2"] * lal.MSUN_SI, 0.0, 0.0, p["chi1"], 0.0, 0.0, p["chi2"],
        p["distance"] * 1e6 * lal.PC_SI, p["inclination"], p["phase"], 0.0, 0.0, 0.0,
        1.0 / p["sampling_frequency"], p["f_min"], p["f_min"], None,
        ls.GetApproximantFromString("IMRPhenomT"))


def lal_time(p, repeat):
    """Median wall time per call in s (after one warm-up call), and the number of samples."""
    hp, _ = lal_call(p)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        lal_call(p)
        times.append(time.perf_counter() - start)
    return statistics.median(times), hp.data.length


def tdpe_time(p, repeat):
    """The example's JSON: median times per call in s, and the number of samples."""
    args = [str(EXAMPLE), "--mass-1", p["m1"], "--mass-2", p["m2"], "--chi-1", p["chi1"],
            "--chi-2", p["chi2"], "--distance", p["distance"], "--inclination", p["inclination"],
            "--phase", p["phase"], "--sampling-frequency", p["sampling_frequency"],
            "--minimum-frequency", p["f_min"], "--repeat", repeat]
    out = subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per case")
    parser.add_argument("--no-build", action="store_true", help="use the existing example binary")
    parser.add_argument("--only", choices=("T", "TPHM", "RB"),
                        help="one table: IMRPhenomT, TPHM or the precessing likelihood (RB)")
    args = parser.parse_args()
    if not args.no_build:
        if args.only != "RB":
            subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "tdpe-phenomt",
                            "--example", "time_generation"], cwd=ROOT, check=True)
        if args.only in (None, "RB"):
            subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "tdpe-likelihood",
                            "--example", "precessing_cost"], cwd=ROOT, check=True)
    tables = [("T", bench_t), ("TPHM", bench_tphm), ("RB", bench_rb)]
    for k, bench in enumerate(b for name, b in tables if args.only in (None, name)):
        if k:
            print()
        bench(args.rounds)


def bench_t(rounds):
    """The IMRPhenomT table."""

    print(f"{'case':36} {'samples':>8} {'LAL':>10} {'tdpe f64':>10} {'LAL/tdpe':>9} "
          f"{'Dual<5>':>10} {'Dual/f64':>9} {'set-up':>9}")
    for name, p, repeat in CASES:
        lal_s, ours = [], []
        for _ in range(rounds):
            t, n_lal = lal_time(p, repeat)
            lal_s.append(t)
            ours.append(tdpe_time(p, repeat))
        if ours[0]["samples"] != n_lal:
            raise SystemExit(f"{name}: LAL has {n_lal} samples, tdpe {ours[0]['samples']}")
        med = lambda key: statistics.median(o[key] for o in ours)  # noqa: E731
        t_lal, t_f64, t_dual = statistics.median(lal_s), med("f64_grid"), med("dual5_times")
        print(f"{name:36} {n_lal:8d} {t_lal * 1e3:8.3f}ms {t_f64 * 1e3:8.3f}ms "
              f"{t_lal / t_f64:8.2f}x {t_dual * 1e3:8.3f}ms "
              f"{t_dual / med('f64_times'):8.2f}x {med('setup') * 1e6:7.1f}us")
    print("LAL/tdpe: LAL's time per call over tdpe's (set-up + h+, hx on LAL's grid, f64).")
    print("Dual/f64: values + derivatives in (m1, m2, chi1, chi2, t) with Dual<5>, over the same "
          "evaluation in f64 (set-up + h+, hx at the grid's times through the arbitrary-time API).")


if __name__ == "__main__":
    main()
