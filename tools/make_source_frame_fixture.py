#!/usr/bin/env python3
"""Writes crates/tdpe/tests/data/source_frame.json: bilby's source-frame conversion
(`bilby.gw.conversion.generate_source_frame_parameters`, Planck15 through astropy) of a few
detector-frame points, the reference of tdpe's derived columns (crates/tdpe/tests/derived.rs).

    /tmp/pesenv/bin/python tools/make_source_frame_fixture.py
(the venv of tools/result_tools_requirements.txt)
"""
import json
import pathlib

import bilby
import numpy as np
from bilby.gw.conversion import (chirp_mass_and_mass_ratio_to_component_masses,
                                 generate_source_frame_parameters)

POINTS = [  # chirp_mass, mass_ratio, luminosity_distance
    (28.1, 0.806, 1200.0),
    (8.0, 0.25, 100.0),
    (45.0, 0.95, 5000.0),
    (15.3, 0.5, 410.0),
    (60.0, 0.7, 15000.0),
]


def main():
    rows = []
    for chirp_mass, mass_ratio, distance in POINTS:
        m1, m2 = chirp_mass_and_mass_ratio_to_component_masses(chirp_mass, mass_ratio)
        sample = dict(chirp_mass=chirp_mass, mass_ratio=mass_ratio, mass_1=m1, mass_2=m2,
                      total_mass=m1 + m2, luminosity_distance=distance)
        converted = generate_source_frame_parameters(sample)
        rows.append({k: float(np.asarray(converted[k])) for k in (
            "chirp_mass", "mass_ratio", "luminosity_distance", "total_mass", "redshift",
            "comoving_distance", "mass_1_source", "mass_2_source", "chirp_mass_source",
            "total_mass_source")})
    out = pathlib.Path(__file__).resolve().parent.parent / "crates/tdpe/tests/data/source_frame.json"
    out.write_text(json.dumps({"bilby_version": bilby.__version__, "cosmology": "Planck15",
                               "points": rows}, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
