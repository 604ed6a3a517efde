"""tdpe's likelihood in bilby, tdpe as a bilby sampler, and tdpe's results as bilby Results.

- :class:`TdpeLikelihood` -- a ``bilby.core.likelihood.Likelihood``, so that any bilby sampler
  (dynesty, bilby_mcmc, ...) samples tdpe's relative-binning (or exact) likelihood;
- :class:`TdpeSampler` -- bilby's sampler ``"tdpe"`` (the ``bilby.samplers`` entry point):
  ``bilby.run_sampler(likelihood, priors, sampler="tdpe")`` with a ``GravitationalWaveTransient``
  writes tdpe's run directory (configuration, strain, PSDs, priors) and runs it;
- :func:`priors` -- the run configuration's priors as a bilby ``BBHPriorDict``;
- :func:`read_result` / :func:`run` -- a run's result.json as a bilby ``Result``.

Needs bilby (``pip install "tdpe[bilby]"``). The design is in docs/python.md.
"""

import os
import tempfile

import bilby
import numpy as np

from . import arrays
from ._native import Likelihood, default_sampler_settings
from ._native import run as _run


class TdpeLikelihood(bilby.core.likelihood.Likelihood):
    """tdpe's likelihood of a run configuration's data, as a bilby likelihood.

    Parameters
    ----------
    config : str
        A run configuration (TOML file) as ``tdpe run`` takes it, or ``"default"``.
    overrides : dict, optional
        Dotted keys of the configuration to change, e.g. ``{"injection.luminosity_distance": 800}``.
    method : str
        ``"relative_binning"`` (tdpe's sampler's likelihood, ~10 us a call) or ``"exact"``.
    likelihood : tdpe.Likelihood, optional
        An existing tdpe likelihood to wrap instead of setting one up from ``config``.

    The parameters are bilby's (chirp_mass and mass_ratio, or mass_1 and mass_2, chi_1, chi_2 or
    for a precessing configuration a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl, luminosity_distance,
    theta_jn, psi, phase, geocent_time, ra, dec); a point outside the waveform model's range has
    zero likelihood.
    """

    def __init__(self, config="default", overrides=None, method="relative_binning", likelihood=None):
        super().__init__()
        self.tdpe = likelihood if likelihood is not None else Likelihood(config, overrides)
        # What the sampler plugin runs: the configuration, when it is known.
        if likelihood is not None:
            self.config = None
        elif config == "default":
            self.config = config
        else:
            self.config = os.path.abspath(os.fspath(config))
        self.overrides = dict(overrides or {})
        self.method = method
        self._noise_log_likelihood = self.tdpe.noise_log_likelihood()
        # A wrong method fails here, not in the sampler's first call.
        self.tdpe.log_likelihood_ratio(self.tdpe.fiducial, method=method)

    def log_likelihood_ratio(self, parameters=None):
        if parameters is None:
            parameters = self._parameters
        return float(self.tdpe.log_likelihood_ratio(dict(parameters), method=self.method))

    def log_likelihood(self, parameters=None):
        return self.log_likelihood_ratio(parameters) + self._noise_log_likelihood

    def noise_log_likelihood(self):
        return self._noise_log_likelihood

    def __repr__(self):
        return f"TdpeLikelihood({self.tdpe!r}, method={self.method!r})"


def priors(likelihood):
    """The priors of a tdpe likelihood's configuration as a bilby ``BBHPriorDict``.

    ``likelihood`` is a :class:`tdpe.Likelihood` or a :class:`TdpeLikelihood`. Without a
    geocent_time line, the prior file's time prior is tdpe's: uniform within 0.1 s of the trigger.
    """
    native = getattr(likelihood, "tdpe", likelihood)
    text = native.prior_text
    if not any(line.split("=")[0].strip() == "geocent_time" for line in text.splitlines()):
        text += "\n" + arrays.time_prior(native.trigger_time) + "\n"
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "tdpe.prior")
        with open(path, "w") as f:
            f.write(text)
        return bilby.gw.prior.BBHPriorDict(filename=path)


def read_result(path):
    """A tdpe run's result.json as a bilby ``CBCResult`` (bilby's own reader; its priors a
    ``BBHPriorDict``)."""
    return bilby.core.result.read_in_result(
        filename=os.fspath(path), result_class=bilby.gw.result.CBCResult)


def run(config="default", outdir="tdpe-out", overrides=None, progress=True):
    """:func:`tdpe.run`, returning the bilby ``Result`` of the run."""
    return read_result(_run(config, outdir, overrides, progress))


def _trigger_time(priors, start, duration):
    """The run's trigger time: the middle of the geocent_time prior (bilby_pipe's is the trigger
    ± deltaT/2), its value if fixed, else bilby_pipe's default 2 s before the segment's end."""
    prior = priors.get("geocent_time")
    if isinstance(prior, bilby.core.prior.DeltaFunction):
        return float(prior.peak)
    if isinstance(prior, (float, int)):
        return float(prior)
    if prior is not None and np.isfinite(prior.minimum) and np.isfinite(prior.maximum):
        return 0.5 * (prior.minimum + prior.maximum)
    return start + duration - 2.0


def write_run_directory(likelihood, priors, directory, label, sampler_settings):
    """Writes tdpe's run of a bilby ``GravitationalWaveTransient`` into ``directory`` (each
    interferometer's strain as a time series and its PSD, the priors, ``config.toml``:
    :func:`tdpe.arrays.write_run_directory`); returns the configuration's path. Refuses, before
    writing anything, what tdpe cannot analyse as asked."""
    for flag in ("distance_marginalization", "phase_marginalization", "time_marginalization",
                 "calibration_marginalization"):
        if getattr(likelihood, flag, False):
            raise ValueError(
                f"the likelihood has {flag}=True: tdpe samples every parameter (and marginalises "
                f"itself: sampler settings distance_marginalization, phase_marginalization); "
                f"build the GravitationalWaveTransient without marginalisation")
    arguments = dict(likelihood.waveform_generator.waveform_arguments or {})
    approximant = arguments.get("waveform_approximant")
    if approximant not in ("IMRPhenomT", "IMRPhenomTHM"):
        raise ValueError(
            f"waveform_approximant = {approximant!r}: the tdpe sampler analyses IMRPhenomT "
            f"(the (2,2) mode) and IMRPhenomTHM (with its higher modes), aligned spins")
    mode_array = arguments.get("mode_array")
    ifos = list(likelihood.interferometers)
    grids = {(i.strain_data.sampling_frequency, i.strain_data.duration, i.strain_data.start_time)
             for i in ifos}
    if len(grids) != 1:
        raise ValueError(f"the interferometers' data are on different grids: {sorted(grids)}")
    fs, duration, start = (float(x) for x in grids.pop())
    lows = {i.name: i.minimum_frequency for i in ifos}
    waveform_low = arguments.get("minimum_frequency")
    if waveform_low is not None and waveform_low != min(lows.values()):
        lows["waveform"] = waveform_low
    return arrays.write_run_directory(
        directory,
        strain={i.name: i.strain_data.time_domain_strain for i in ifos},
        psds={i.name: (i.power_spectral_density.frequency_array,
                       i.power_spectral_density.psd_array) for i in ifos},
        start_time=start, sampling_frequency=fs,
        minimum_frequency=lows,
        maximum_frequency={i.name: i.maximum_frequency for i in ifos},
        reference_frequency=arguments.get("reference_frequency", 50.0),
        trigger_time=_trigger_time(priors, start, duration),
        priors=dict(priors), label=label, sampler=sampler_settings,
        waveform_approximant=approximant,
        mode_array=None if mode_array is None else [list(pair) for pair in mode_array],
        comment="Written by tdpe's bilby sampler plugin from a GravitationalWaveTransient")


class TdpeSampler(bilby.core.sampler.Sampler):
    """tdpe as a bilby sampler: ``bilby.run_sampler(likelihood, priors, sampler="tdpe", ...)``.

    With a ``GravitationalWaveTransient`` (IMRPhenomT or IMRPhenomTHM with bilby's
    ``mode_array``, no marginalisation), the sampler writes
    tdpe's run directory ``<outdir>/tdpe_<label>/`` (bilby's directory of a sampler's outputs) -- the strain of each interferometer, its
    PSD, the priors as a prior file and ``config.toml`` -- and runs it (``tdpe run`` on that
    configuration does the same); with a :class:`TdpeLikelihood`, its configuration with these
    priors. tdpe's own outputs (result.json, summary.md, plots, checkpoint.bin, from which a
    rerun goes on) stay in that directory; bilby's Result holds the draws.

    Keyword arguments are tdpe's sampler settings (``tdpe.default_sampler_settings()``:
    num_chains, num_warmup, num_draws, target_ess, seed, kernel, ...); bilby's ``npool`` sets
    ``threads`` unless it is given.
    """

    sampler_name = "tdpe"
    external_sampler_name = "tdpe"
    default_kwargs = dict(default_sampler_settings(), progress=True)
    # bilby_pipe's sampling-seed arrives as tdpe's seed.
    sampling_seed_key = "seed"

    def run_sampler(self):
        settings = {k: v for k, v in self.kwargs.items() if k != "progress"}
        # bilby's npool (bilby_pipe's request-cpus) sets tdpe's threads unless threads is given.
        if settings.get("threads", 0) == 0 and (self._npool or 1) > 1:
            settings["threads"] = int(self._npool)
        # bilby's run directory of a sampler (get_expected_outputs; what bilby_pipe transfers).
        directory = os.path.join(self.outdir, f"{self.sampler_name}_{self.label}")
        priors = self.priors
        if isinstance(self.likelihood, TdpeLikelihood):
            if self.likelihood.config is None:
                raise ValueError("the tdpe sampler needs a TdpeLikelihood made from a "
                                 "configuration (TdpeLikelihood(config, overrides))")
            text = arrays.prior_file_text(dict(priors))
            os.makedirs(directory, exist_ok=True)
            prior_path = os.path.abspath(os.path.join(directory, "tdpe.prior"))
            with open(prior_path, "w") as f:
                f.write(text)
            overrides = dict(self.likelihood.overrides, prior_file=prior_path)
            overrides.update({f"sampler.{k}": v for k, v in settings.items()})
            path = _run(self.likelihood.config, directory, overrides, self.kwargs["progress"])
        elif isinstance(self.likelihood, bilby.gw.likelihood.GravitationalWaveTransient):
            config = write_run_directory(self.likelihood, priors, directory, self.label, settings)
            path = _run(config, directory, None, self.kwargs["progress"])
        else:
            raise ValueError(
                f"the tdpe sampler runs a GravitationalWaveTransient or a TdpeLikelihood, not "
                f"{type(self.likelihood).__name__}")
        posterior = read_result(path).posterior
        self.result.samples = posterior[self.search_parameter_keys].to_numpy()
        self.result.log_likelihood_evaluations = posterior["log_likelihood"].to_numpy()
        self.result.log_evidence = np.nan
        self.result.log_evidence_err = np.nan
        self.result.meta_data["tdpe_result"] = os.path.abspath(path)
        return self.result
