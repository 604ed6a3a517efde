#!/usr/bin/env python3
"""IMRPhenomTPHM with a mode array, for crates/phenomt/tests/lal_reference_tphm.rs.

LAL's `ModeArray` selects IMRPhenomTPHM's co-precessing modes (each with its own sign of m);
tdpe's `mode_array` lists each mode with its -m partner. For the strongly precessing base case
P02 (its inputs from tests/data/P02_q1_strongprec.json), two mode arrays: (2,+-2) with
(3,+-3), and (2,+-1) alone. Writes P02_q1_strongprec_MA<modes>.csv (t, hp, hc; 17 significant
digits) and a .json with the mode array, epoch and length, next to the base case.

    /tmp/pyvenv/bin/python tools/make_tphm_mode_array_fixture.py   # lalsuite 7.26.16
"""
import json
import pathlib

import lal
import lalsimulation as ls

DATA = pathlib.Path(__file__).resolve().parents[1] / "crates" / "phenomt" / "tests" / "data"
CASE = "P02_q1_strongprec"
MODE_ARRAYS = {"2233": [(2, 2), (2, -2), (3, 3), (3, -3)], "21": [(2, 1), (2, -1)]}


def main():
    inputs = json.loads((DATA / f"{CASE}.json").read_text())["inputs"]
    for name, modes in MODE_ARRAYS.items():
        params = lal.CreateDict()
        mode_array = ls.SimInspiralCreateModeArray()
        for l, m in modes:
            ls.SimInspiralModeArrayActivateMode(mode_array, l, m)
        ls.SimInspiralWaveformParamsInsertModeArray(params, mode_array)
        hp, hc = ls.SimInspiralChooseTDWaveform(
            inputs["m1_SI_kg"], inputs["m2_SI_kg"],
            inputs["chi1x"], inputs["chi1y"], inputs["chi1z"],
            inputs["chi2x"], inputs["chi2y"], inputs["chi2z"],
            inputs["distance_SI_m"], inputs["inclination_rad"], inputs["phi_ref_rad"],
            0.0, 0.0, 0.0, inputs["deltaT_s"], inputs["f_min_hz"], inputs["f_ref_hz"],
            params, ls.SimInspiralGetApproximantFromString("IMRPhenomTPHM"))
        epoch_ns = hp.epoch.gpsSeconds * 1_000_000_000 + hp.epoch.gpsNanoSeconds
        lines = ["t,hp,hc"] + [
            f"{epoch_ns * 1e-9 + i * hp.deltaT:.17g},{hp.data.data[i]:.17g},{hc.data.data[i]:.17g}"
            for i in range(hp.data.length)]
        stem = f"{CASE}_MA{name}"
        (DATA / f"{stem}.csv").write_text("\n".join(lines) + "\n")
        meta = {"case": CASE, "mode_array": modes, "epoch_ns": epoch_ns,
                "length": hp.data.length,
                "versions": {"lalsimulation": ls.__version__, "lal": lal.__version__}}
        (DATA / f"{stem}.json").write_text(json.dumps(meta, indent=1) + "\n")


if __name__ == "__main__":
    main()
