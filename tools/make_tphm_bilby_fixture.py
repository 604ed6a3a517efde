#!/usr/bin/env python3
"""IMRPhenomTPHM from bilby's precessing parameters, for crates/signal/tests/precessing_view.rs.

One binary (a GW150914-like mass pair with large in-plane spins), seen at four (theta_jn,
phi_jl, phase): bilby's bilby_to_lalsimulation_spins gives the inclination and the L0-frame
spins, and lalsimulation's SimInspiralChooseTDWaveform(IMRPhenomTPHM) the polarisations, as
bilby's time-domain source functions call them. Writes crates/signal/tests/data/tphm_view.json
(inputs, and per view the inclination, the spins, the epoch and length) and tphm_view_<k>.csv
(t, hp, hc; 17 significant digits).

    /tmp/pyvenv/bin/python tools/make_tphm_bilby_fixture.py   # bilby 2.8.2, lalsuite 7.26.16
"""
import json
import pathlib

import lal
import lalsimulation as ls
from bilby.core.utils import solar_mass
from bilby.gw.conversion import bilby_to_lalsimulation_spins

OUT = pathlib.Path(__file__).resolve().parents[1] / "crates" / "signal" / "tests" / "data"
BINARY = {"mass_1": 36.0, "mass_2": 29.0, "a_1": 0.7, "a_2": 0.5, "tilt_1": 1.0, "tilt_2": 2.0,
          "phi_12": 1.5, "luminosity_distance": 400.0, "reference_frequency": 20.0,
          "minimum_frequency": 20.0, "sampling_frequency": 2048.0}
VIEWS = [(0.4, 1.3, 0.2), (2.3, 4.0, 2.9), (1.2, 0.0, 5.5), (0.9, 5.8, 0.0)]


def main():
    b = BINARY
    views = []
    for k, (theta_jn, phi_jl, phase) in enumerate(VIEWS):
        iota, *spins = bilby_to_lalsimulation_spins(
            theta_jn, phi_jl, b["tilt_1"], b["tilt_2"], b["phi_12"], b["a_1"], b["a_2"],
            b["mass_1"] * solar_mass, b["mass_2"] * solar_mass, b["reference_frequency"], phase)
        hp, hc = ls.SimInspiralChooseTDWaveform(
            b["mass_1"] * lal.MSUN_SI, b["mass_2"] * lal.MSUN_SI, *[float(s) for s in spins],
            b["luminosity_distance"] * 1e6 * lal.PC_SI, float(iota), phase, 0.0, 0.0, 0.0,
            1.0 / b["sampling_frequency"], b["minimum_frequency"], b["reference_frequency"],
            None, ls.SimInspiralGetApproximantFromString("IMRPhenomTPHM"))
        epoch_ns = hp.epoch.gpsSeconds * 1_000_000_000 + hp.epoch.gpsNanoSeconds
        dt = hp.deltaT
        lines = ["t,hp,hc"] + [
            f"{epoch_ns * 1e-9 + i * dt:.17g},{hp.data.data[i]:.17g},{hc.data.data[i]:.17g}"
            for i in range(hp.data.length)]
        (OUT / f"tphm_view_{k}.csv").write_text("\n".join(lines) + "\n")
        views.append({"theta_jn": theta_jn, "phi_jl": phi_jl, "phase": phase,
                      "iota": float(iota), "spins": [float(s) for s in spins],
                      "epoch_ns": epoch_ns, "length": hp.data.length})
    OUT.mkdir(parents=True, exist_ok=True)
    meta = {"binary": b, "views": views,
            "versions": {"lalsimulation": ls.__version__, "lal": lal.__version__}}
    (OUT / "tphm_view.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
