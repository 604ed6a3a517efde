"""tdpe.waveform against LALSuite's polarisations and modes (the fixtures of the waveform crate)."""

import json

import numpy as np
import pytest

import tdpe
from conftest import REPOSITORY

DATA = REPOSITORY / "crates" / "phenomt" / "tests" / "data"


def case(name):
    inputs = json.loads((DATA / f"{name}.json").read_text())["inputs"]
    return inputs, np.loadtxt(DATA / f"{name}.csv", delimiter=",", skiprows=1)


def arguments(inputs):
    return dict(
        mass_1=inputs["m1_msun"], mass_2=inputs["m2_msun"],
        luminosity_distance=inputs["distance_mpc"],
        chi_1=inputs["chi1z"], chi_2=inputs["chi2z"],
        theta_jn=inputs["inclination_rad"], phase=inputs["phi_ref_rad"],
        sampling_frequency=1 / inputs["deltaT_s"],
        minimum_frequency=inputs["f_min_hz"], reference_frequency=inputs["f_ref_hz"],
    )


@pytest.mark.parametrize(
    "name, approximant",
    [("T02_gw150914_like", "IMRPhenomT"), ("T05_q8_M90_highspin", "IMRPhenomT"),
     ("THM02_q8_M90", "IMRPhenomTHM")],
)
def test_polarisations_match_lal(name, approximant):
    inputs, reference = case(name)
    h = tdpe.waveform(**arguments(inputs), approximant=approximant)
    assert h["plus"].shape == (len(reference),)
    np.testing.assert_allclose(h["time"], reference[:, 0], rtol=0, atol=1e-12)
    peak = np.abs(reference[:, 1:]).max()
    assert np.abs(h["plus"] - reference[:, 1]).max() <= 2e-11 * peak
    assert np.abs(h["cross"] - reference[:, 2]).max() <= 2e-11 * peak


def test_modes_match_lal():
    inputs, _ = case("THM02_q8_M90")
    reference = np.loadtxt(DATA / "THM02_q8_M90_modes.csv", delimiter=",", skiprows=1)
    with open(DATA / "THM02_q8_M90_modes.csv") as f:
        header = f.readline().strip().split(",")
    h = tdpe.waveform(**arguments(inputs), approximant="IMRPhenomTHM", modes=True)
    for (l, m), mode in ((k, v) for k, v in h.items() if k != "time"):
        re, im = header.index(f"h{l}{m}_re"), header.index(f"h{l}{m}_im")
        expected = reference[:, re] + 1j * reference[:, im]
        assert np.abs(mode - expected).max() <= 1e-9 * np.abs(expected).max(), (l, m)


def test_a_mode_array_selects_modes():
    h = tdpe.waveform(30, 8, 400, approximant="IMRPhenomTHM", modes=True,
                      mode_array=[[2, 2], [2, -2], [3, 3], [3, -3]])
    assert sorted(k for k in h if k != "time") == [(2, 2), (3, 3)]


def test_bad_waveform_input_is_an_error():
    with pytest.raises(ValueError, match="luminosity_distance"):
        tdpe.waveform(30, 20, -1.0)
    with pytest.raises(ValueError, match="IMRPhenomXAS"):
        tdpe.waveform(30, 20, 400, approximant="IMRPhenomXAS")
    with pytest.raises(ValueError, match="mode_array"):
        tdpe.waveform(30, 20, 400, approximant="IMRPhenomTHM", mode_array=[[3, 3]])


def test_the_waveform_at_any_times_is_the_grids():
    grid = tdpe.waveform(36, 29, 410, chi_1=0.3, theta_jn=0.4, phase=0.3)
    # The grid's times as reported: LAL's epoch rounded to the nanosecond, while the grid samples
    # the model at the unrounded times, so the two differ by up to |dh/dt| x 0.5 ns (~1e-6 of
    # the peak at a few hundred Hz).
    h = tdpe.waveform(36, 29, 410, chi_1=0.3, theta_jn=0.4, phase=0.3, times=grid["time"])
    np.testing.assert_array_equal(h["time"], grid["time"])
    peak = np.abs(grid["plus"]).max()
    np.testing.assert_allclose(h["plus"], grid["plus"], rtol=0, atol=2e-6 * peak)
    np.testing.assert_allclose(h["cross"], grid["cross"], rtol=0, atol=2e-6 * peak)
    modes = tdpe.waveform(30, 8, 400, approximant="IMRPhenomTHM", modes=True)
    at = tdpe.waveform(30, 8, 400, approximant="IMRPhenomTHM", modes=True, times=modes["time"][::7])
    for key in ((2, 2), (3, 3), (5, 5)):
        scale = np.abs(modes[key]).max()
        np.testing.assert_allclose(at[key], modes[key][::7], rtol=0, atol=1e-5 * scale)
    with pytest.raises(ValueError, match="finite"):
        tdpe.waveform(36, 29, 410, times=np.array([0.0, np.nan]))


@pytest.mark.parametrize("name", ["H1", "L1", "V1"])
def test_detector_responses_are_bilbys(name):
    import bilby

    ifo = bilby.gw.detector.get_empty_interferometer(name)
    rng = np.random.default_rng(4)
    for _ in range(20):
        ra, dec, psi = rng.uniform(0, 2 * np.pi), rng.uniform(-1.5, 1.5), rng.uniform(0, np.pi)
        t = 1126259462.4 + rng.uniform(0, 86400)
        plus, cross = tdpe.antenna_response(name, ra, dec, psi, t)
        assert plus == pytest.approx(ifo.antenna_response(ra, dec, t, psi, "plus"), abs=1e-5)
        assert cross == pytest.approx(ifo.antenna_response(ra, dec, t, psi, "cross"), abs=1e-5)
        delay = tdpe.time_delay_from_geocenter(name, ra, dec, t)
        assert delay == pytest.approx(ifo.time_delay_from_geocenter(ra, dec, t), abs=1e-8)
    with pytest.raises(ValueError, match="X1"):
        tdpe.antenna_response("X1", 0.0, 0.0, 0.0, 1126259462.4)


def precessing_arguments(inputs):
    return dict(arguments(inputs), spin_1x=inputs["chi1x"], spin_1y=inputs["chi1y"],
                spin_2x=inputs["chi2x"], spin_2y=inputs["chi2y"])


def test_precessing_polarisations_and_modes_match_lal():
    inputs, reference = case("P02_q1_strongprec")
    h = tdpe.waveform(**precessing_arguments(inputs), approximant="IMRPhenomTPHM")
    np.testing.assert_allclose(h["time"], reference[:, 0], rtol=0, atol=1e-12)
    peak = np.abs(reference[:, 1:]).max()
    assert np.abs(h["plus"] - reference[:, 1]).max() <= 1e-11 * peak
    assert np.abs(h["cross"] - reference[:, 2]).max() <= 1e-11 * peak

    modes = np.loadtxt(DATA / "P02_q1_strongprec_modes.csv", delimiter=",", skiprows=1)
    with open(DATA / "P02_q1_strongprec_modes.csv") as f:
        header = f.readline().strip().split(",")
    h = tdpe.waveform(**precessing_arguments(inputs), approximant="IMRPhenomTPHM", modes=True)
    keys = [k for k in h if k != "time"]
    assert len(keys) == 32 and (5, -5) in keys and (2, 0) in keys
    h22_peak = np.abs(modes[:, 1] + 1j * modes[:, 2]).max()
    for l, m in keys:
        if l == 5:
            continue  # LAL's file holds l <= 4
        name = f"h{l}{m}" if m >= 0 else f"h{l}m{-m}"
        expected = modes[:, header.index(f"{name}_re")] + 1j * modes[:, header.index(f"{name}_im")]
        assert np.abs(h[(l, m)] - expected).max() <= 1e-11 * h22_peak, (l, m)


def test_a_precessing_mode_array_is_lals():
    inputs, _ = case("P02_q1_strongprec")
    reference = np.loadtxt(DATA / "P02_q1_strongprec_MA2233.csv", delimiter=",", skiprows=1)
    h = tdpe.waveform(**precessing_arguments(inputs), approximant="IMRPhenomTPHM",
                      mode_array=[[2, 2], [2, -2], [3, 3], [3, -3]])
    peak = np.abs(reference[:, 1:]).max()
    assert np.abs(h["plus"] - reference[:, 1]).max() <= 1e-11 * peak
    assert np.abs(h["cross"] - reference[:, 2]).max() <= 1e-11 * peak


def test_bad_precessing_input_is_an_error():
    with pytest.raises(ValueError, match="IMRPhenomT is aligned-spin"):
        tdpe.waveform(30, 20, 400, spin_1x=0.3)
    with pytest.raises(ValueError, match="PrecVersion 310 is not supported"):
        tdpe.waveform(30, 20, 400, spin_1x=0.3, approximant="IMRPhenomTPHM", prec_version=310)
    with pytest.raises(ValueError, match="LAL's grid only"):
        tdpe.waveform(30, 20, 400, spin_1x=0.3, approximant="IMRPhenomTPHM",
                      times=np.zeros(1))
