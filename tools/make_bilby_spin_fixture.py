#!/usr/bin/env python3
"""bilby's precessing-spin conversion at many points, for crates/signal/tests/spins.rs.

Writes crates/signal/tests/data/bilby_spins.csv: per row the inputs of
bilby.gw.conversion.bilby_to_lalsimulation_spins (theta_jn, phi_jl, tilt_1, tilt_2, phi_12,
a_1, a_2, mass_1 and mass_2 in solar masses, reference_frequency, phase) and its outputs
(iota, spin_1x ... spin_2z), with masses passed in kg as bilby's waveform functions pass them.
Random points (fixed seed) plus the edges: aligned and anti-aligned tilts, zero magnitudes,
tilts within 1e-9 of 0 and pi, extremal spins and phi_jl, phase at 0 and 2 pi.

    python3 -m venv /tmp/pyvenv && /tmp/pyvenv/bin/pip install bilby==2.8.2 lalsuite==7.26.16
    /tmp/pyvenv/bin/python tools/make_bilby_spin_fixture.py
"""
import pathlib

import numpy as np
from bilby.core.utils import solar_mass
from bilby.gw.conversion import bilby_to_lalsimulation_spins

OUT = pathlib.Path(__file__).resolve().parents[1] / "crates" / "signal" / "tests" / "data"
NAMES = ["theta_jn", "phi_jl", "tilt_1", "tilt_2", "phi_12", "a_1", "a_2", "mass_1", "mass_2",
         "reference_frequency", "phase"]


def points():
    rng = np.random.default_rng(20261205)
    rows = []
    for _ in range(300):
        mass_2 = rng.uniform(3.0, 80.0)
        mass_1 = mass_2 * rng.uniform(1.0, 20.0)
        rows.append([
            np.arccos(rng.uniform(-1, 1)), rng.uniform(0, 2 * np.pi),
            np.arccos(rng.uniform(-1, 1)), np.arccos(rng.uniform(-1, 1)),
            rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.99), rng.uniform(0, 0.99),
            mass_1, mass_2, rng.choice([20.0, 50.0, 100.0]), rng.uniform(0, 2 * np.pi),
        ])
    base = [0.4, 1.3, 0.8, 2.1, 4.0, 0.6, 0.5, 36.0, 29.0, 20.0, 1.2]
    edges = [
        {"tilt_1": 0.0, "tilt_2": np.pi},
        {"tilt_1": 0.0, "tilt_2": 0.0},
        {"a_1": 0.0, "a_2": 0.0},
        {"a_1": 0.0, "tilt_2": 0.0},
        {"a_1": 0.0},
        {"tilt_1": 0.0},
        {"tilt_1": 1e-9, "tilt_2": np.pi - 1e-9},
        {"a_1": 1.0, "a_2": 1.0},
        {"phi_jl": 0.0, "phase": 0.0, "phi_12": 0.0},
        {"phi_jl": 2 * np.pi, "phase": 2 * np.pi},
        {"theta_jn": 0.0},
        {"theta_jn": np.pi},
        {"theta_jn": np.pi / 2, "mass_1": 150.0, "mass_2": 7.5},
    ]
    for edge in edges:
        row = list(base)
        for name, value in edge.items():
            row[NAMES.index(name)] = value
        rows.append(row)
    return rows


def main():
    lines = [",".join(NAMES + ["iota", "spin_1x", "spin_1y", "spin_1z", "spin_2x", "spin_2y",
                               "spin_2z"])]
    for row in points():
        args = [float(x) for x in row]
        args[7] *= solar_mass
        args[8] *= solar_mass
        out = bilby_to_lalsimulation_spins(*args)
        lines.append(",".join(f"{float(x):.17g}" for x in list(row) + list(out)))
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "bilby_spins.csv").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
