#!/usr/bin/env python3
"""IMRPhenomTHM reference waveforms from LALSuite, across the parameter space, for
crates/phenomt/tests/lal_reference_thm.rs.

Writes, for each case below, <case>.csv (t, hp, hc from SimInspiralChooseTDWaveform),
<case>_modes.csv (t and the real and imaginary parts of h22, h21, h33, h44, h55 from
SimInspiralChooseTDModes) and <case>.json (inputs, epoch, length) into
crates/phenomt/tests/data, in the layout of the shared reference cases THM01-THM03 (see that
folder's README.md). Cases are kept short (a few thousand samples) by their f_min, and every one
starts more than 1500 M before the peak, so each covers every region of every mode.

    python3 -m venv /tmp/lalenv && /tmp/lalenv/bin/pip install lalsuite==7.26.16 numpy
    /tmp/lalenv/bin/python tools/make_thm_fixtures.py
"""
import json
import pathlib

import lal
import lalsimulation as ls

OUT = pathlib.Path(__file__).resolve().parents[1] / "crates" / "phenomt" / "tests" / "data"
MODES = [(2, 2), (2, 1), (3, 3), (4, 4), (5, 5)]

# name: m1, m2 (Msun), chi1z, chi2z, distance (Mpc), inclination, phiRef, 1/deltaT, f_min, f_ref
CASES = {
    "THM04_q1p5_antialigned": (30.0, 20.0, -0.8, -0.5, 500.0, 0.7, 1.1, 2048, 20.0, 20.0),
    "THM05_q3_spin095": (45.0, 15.0, 0.95, 0.3, 700.0, 2.4, 0.2, 2048, 20.0, 20.0),
    "THM06_q5_opposite": (50.0, 10.0, -0.9, 0.9, 600.0, 1.57, 2.9, 2048, 25.0, 25.0),
    "THM07_q10": (100.0, 10.0, 0.6, -0.3, 900.0, 0.3, 4.4, 1024, 16.0, 16.0),
    "THM08_q15_antialigned": (150.0, 10.0, -0.7, 0.2, 1200.0, 1.0, 0.0, 1024, 9.0, 9.0),
    "THM09_q20": (200.0, 10.0, 0.5, 0.0, 1500.0, 2.0, 5.0, 1024, 11.0, 11.0),
    "THM10_q20_spin099_down": (160.0, 8.0, -0.99, -0.5, 1000.0, 2.9, 1.7, 1024, 9.0, 9.0),
    "THM11_q2_spin099_up": (40.0, 20.0, 0.99, 0.99, 800.0, 1.2, 0.6, 4096, 25.0, 25.0),
    "THM12_m1_lt_m2_fref": (15.0, 35.0, 0.4, -0.6, 450.0, 0.9, 3.3, 2048, 20.0, 30.0),
    "THM13_q1p2_spin099_down": (33.0, 27.5, -0.99, -0.99, 400.0, 0.5, 2.2, 4096, 20.0, 20.0),
    "THM14_q7_light": (21.0, 3.0, 0.2, 0.5, 200.0, 1.4, 0.8, 2048, 45.0, 45.0),
}


def epoch_ns(series):
    return int(series.epoch.gpsSeconds) * 1_000_000_000 + int(series.epoch.gpsNanoSeconds)


def write_case(name, p):
    m1, m2, chi1, chi2, dist, incl, phi_ref, rate, f_min, f_ref = p
    m1_si, m2_si = m1 * lal.MSUN_SI, m2 * lal.MSUN_SI
    dist_si = dist * 1e6 * lal.PC_SI
    delta_t = 1.0 / rate
    approximant = ls.GetApproximantFromString("IMRPhenomTHM")
    hp, hc = ls.SimInspiralChooseTDWaveform(
        m1_si, m2_si, 0.0, 0.0, chi1, 0.0, 0.0, chi2, dist_si, incl, phi_ref, 0.0, 0.0, 0.0,
        delta_t, f_min, f_ref, None, approximant)
    params = lal.CreateDict()
    mode_array = ls.SimInspiralCreateModeArray()
    for l, m in MODES:
        ls.SimInspiralModeArrayActivateMode(mode_array, l, m)
    ls.SimInspiralWaveformParamsInsertModeArray(params, mode_array)
    hlms = ls.SimInspiralChooseTDModes(
        phi_ref, delta_t, m1_si, m2_si, 0.0, 0.0, chi1, 0.0, 0.0, chi2, f_min, f_ref, dist_si,
        params, 5, approximant)
    modes = [ls.SphHarmTimeSeriesGetMode(hlms, l, m) for l, m in MODES]
    n = hp.data.length
    assert all(mode.data.length == n for mode in modes)
    assert all(epoch_ns(mode) == epoch_ns(hp) for mode in modes)
    start = epoch_ns(hp) * 1e-9
    times = [start + k * delta_t for k in range(n)]
    with open(OUT / f"{name}.csv", "w") as f:
        f.write("t,hp,hc\n")
        for k in range(n):
            f.write(f"{times[k]:.17g},{hp.data.data[k]:.17g},{hc.data.data[k]:.17g}\n")
    with open(OUT / f"{name}_modes.csv", "w") as f:
        f.write("t," + ",".join(f"h{l}{m}_re,h{l}{m}_im" for l, m in MODES) + "\n")
        for k in range(n):
            values = []
            for mode in modes:
                h = mode.data.data[k]
                values += [f"{h.real:.17g}", f"{h.imag:.17g}"]
            f.write(f"{times[k]:.17g}," + ",".join(values) + "\n")
    meta = {
        "name": name,
        "approximant": "IMRPhenomTHM",
        "made_by": "tools/make_thm_fixtures.py",
        "inputs": {
            "m1_msun": m1, "m2_msun": m2, "chi1z": chi1, "chi2z": chi2, "distance_mpc": dist,
            "inclination_rad": incl, "phi_ref_rad": phi_ref, "deltaT_s": delta_t,
            "f_min_hz": f_min, "f_ref_hz": f_ref,
        },
        "output": {"length": n, "epoch_ns": epoch_ns(hp)},
        "versions": {"lal": lal.__version__, "lalsimulation": ls.__version__},
    }
    with open(OUT / f"{name}.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    total_mass_s = (m1 + m2) * lal.MTSUN_SI
    print(f"{name}: {n} samples from {start:.3f} s = {start / total_mass_s:.0f} M")


def main():
    for name, p in CASES.items():
        write_case(name, p)


if __name__ == "__main__":
    main()
