"""tdpe: time-domain gravitational-wave parameter estimation.

The waveform (IMRPhenomT, IMRPhenomTHM), the exact and relative-binning likelihoods with their
gradient, and whole runs, from the Rust engine of the ``tdpe`` command line on the same code path
(docs/python.md). bilby's parameter names and units throughout: masses in solar masses (detector
frame), luminosity_distance in Mpc, angles in rad, geocent_time in GPS seconds.

- :class:`Likelihood` -- the likelihood of a run configuration's data;
- :func:`waveform` -- polarisations or modes on LAL's time grid, or at any times;
- :func:`antenna_response`, :func:`time_delay_from_geocenter` -- detector responses;
- :func:`run` -- a whole run, writing bilby's result.json;
- :mod:`tdpe.arrays` -- the likelihood of numpy strain and PSD arrays;
- :mod:`tdpe.bilby` -- a bilby ``Likelihood``, bilby's sampler ``"tdpe"``, and results as bilby
  Results.
"""

from ._native import (
    PARAMETER_NAMES,
    Likelihood,
    __version__,
    antenna_response,
    default_config,
    default_sampler_settings,
    run,
    time_delay_from_geocenter,
    waveform,
)

__all__ = [
    "PARAMETER_NAMES",
    "Likelihood",
    "__version__",
    "antenna_response",
    "default_config",
    "default_sampler_settings",
    "run",
    "time_delay_from_geocenter",
    "waveform",
]
