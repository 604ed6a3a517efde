"""tdpe.arrays: the likelihood of numpy strain and PSD arrays."""

import numpy as np
import pytest

import tdpe
from tdpe.arrays import likelihood_from_arrays, write_run_directory
from test_likelihood import points_around


def arrays_of(likelihood):
    return dict(strain=likelihood.strain, psds=likelihood.psds,
                start_time=likelihood.start_time,
                sampling_frequency=likelihood.sampling_frequency)


def test_the_default_runs_arrays_give_its_likelihood(likelihood):
    assert likelihood.start_time == 1126259462.4 + 2.0 - 4.0
    assert likelihood.sampling_frequency == 2048.0
    assert len(likelihood.strain["H1"]) == 8192
    from_arrays = likelihood_from_arrays(**arrays_of(likelihood), trigger_time=1126259462.4,
                                         priors=likelihood.prior_text)
    assert from_arrays.detectors == ["H1", "L1"]
    points = points_around(likelihood.injection, 10, seed=5)
    # The same data, PSDs and band: the same exact likelihood. (Relative binning differs in
    # the last digits: its fiducial is a search's maximum here, the injection there.)
    exact = likelihood.log_likelihood_ratio(points, method="exact")
    np.testing.assert_allclose(from_arrays.log_likelihood_ratio(points, method="exact"), exact,
                               rtol=1e-12)
    np.testing.assert_allclose(from_arrays.log_likelihood_ratio(points), exact, atol=5e-4)


def test_bad_arrays_are_errors_before_anything_is_written(likelihood, tmp_path):
    good = arrays_of(likelihood)
    cases = [
        (dict(good, strain={}), "no detector"),
        (dict(good, psds={"H1": good["psds"]["H1"]}), "PSDs for"),
        (dict(good, strain={"H1": np.zeros(8192), "L1": np.zeros(8000)}), "one length"),
        (dict(good, priors={"chirp_mass": 1.0}), "no prior for mass_ratio"),
        (dict(good, minimum_frequency={"H1": 20.0}), "minimum_frequency has no value for L1"),
    ]
    for arguments, message in cases:
        with pytest.raises(ValueError, match=message):
            write_run_directory(tmp_path / "bad", **arguments)
        assert not (tmp_path / "bad").exists()
    # What tdpe's own checks find: a band above Nyquist.
    with pytest.raises(ValueError, match="maximum_frequency"):
        likelihood_from_arrays(**good, maximum_frequency=4000.0)


def test_the_analysis_model_of_arrays_is_chosen_as_bilbys(likelihood, tmp_path):
    config = write_run_directory(tmp_path / "run", **arrays_of(likelihood),
                                 trigger_time=1126259462.4, priors=likelihood.prior_text,
                                 waveform_approximant="IMRPhenomTHM",
                                 mode_array=[[2, 2], [2, -2], [3, 3], [3, -3]])
    text = open(config).read()
    assert 'waveform_approximant = "IMRPhenomTHM"' in text
    assert "mode_array = [[2, 2], [2, -2], [3, 3], [3, -3]]" in text
    higher = tdpe.Likelihood(config)
    # Each detector's relative binning has a basis per mode: more nodes than the (2,2)'s alone.
    plain = likelihood_from_arrays(**arrays_of(likelihood), trigger_time=1126259462.4,
                                   priors=likelihood.prior_text)
    assert all(h > p for h, p in zip(higher.node_counts, plain.node_counts))
    points = points_around(likelihood.injection, 5, seed=6)
    np.testing.assert_allclose(higher.log_likelihood_ratio(points),
                               higher.log_likelihood_ratio(points, method="exact"), atol=5e-4)
    # The (3,3) mode changes the exact likelihood of the same data.
    assert np.all(np.abs(higher.log_likelihood_ratio(points, method="exact")
                         - plain.log_likelihood_ratio(points, method="exact")) > 1e-6)
