"""tdpe's likelihood of numpy arrays: strain and PSDs written as a run directory that
``tdpe run`` reads (docs/python.md §3), so arrays take the command line's path, checks included.

- :func:`write_run_directory` -- strain, PSDs, priors and ``config.toml`` into a directory;
- :func:`likelihood_from_arrays` -- the :class:`tdpe.Likelihood` of arrays.
"""

import os
import tempfile

import numpy as np

from ._native import Likelihood

# The parameters tdpe samples (bilby's names), and the derived ones its prior files may
# constrain.
SAMPLED = ("chirp_mass", "mass_ratio", "chi_1", "chi_2", "luminosity_distance", "theta_jn",
           "psi", "phase", "geocent_time", "ra", "dec")
CONSTRAINABLE = ("mass_1", "mass_2")


def prior_file_text(priors):
    """A prior file of ``priors``: its own text if a string, else each prior's repr (bilby's, as
    ``PriorDict.to_file`` writes them), refusing early what tdpe's parameters do not hold."""
    if isinstance(priors, str):
        return priors if priors.endswith("\n") else priors + "\n"
    unknown = [k for k in priors if k not in SAMPLED + CONSTRAINABLE]
    if unknown:
        raise ValueError(
            f"tdpe samples aligned-spin binaries in {', '.join(SAMPLED)} (with Constraints on "
            f"mass_1 and mass_2); these priors are not among them: {', '.join(unknown)}")
    missing = [k for k in SAMPLED if k not in priors]
    if missing:
        raise ValueError(f"no prior for {', '.join(missing)}")
    return "".join(f"{key} = {prior!r}\n" for key, prior in priors.items())


def time_prior(trigger_time):
    """The prior-file line of the time prior tdpe uses without one: uniform within 0.1 s of the
    trigger."""
    return (f"geocent_time = Uniform(name='geocent_time', minimum={trigger_time - 0.1!r}, "
            f"maximum={trigger_time + 0.1!r}, unit='$s$')")


def default_prior_text(trigger_time):
    """The default run's priors with :func:`time_prior` for ``trigger_time``."""
    lines = [line for line in Likelihood.default_prior_text().splitlines()
             if not line.startswith("geocent_time")]
    return "\n".join(lines + [time_prior(trigger_time)]) + "\n"


def toml_literal(value):
    """A TOML literal of a bool, number, string or list."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_literal(v) for v in value) + "]"
    raise TypeError(f"{value!r} has no TOML form")


def _per_detector(value, detectors, name):
    """A number for every detector, or a dict of them (a "waveform" key allowed)."""
    if isinstance(value, dict):
        missing = [d for d in detectors if d not in value]
        if missing:
            raise ValueError(f"{name} has no value for {', '.join(missing)}")
        return {k: float(v) for k, v in value.items()}
    return {d: float(value) for d in detectors}


def write_run_directory(directory, *, strain, psds, start_time, sampling_frequency,
                        minimum_frequency=20.0, maximum_frequency=None, reference_frequency=20.0,
                        trigger_time=None, priors=None, label="tdpe", sampler=None,
                        waveform_approximant="IMRPhenomT", mode_array=None,
                        comment="Written by tdpe.arrays.write_run_directory"):
    """Writes a tdpe run of arrays into ``directory`` and returns its ``config.toml``.

    Parameters
    ----------
    strain : dict
        Detector name (H1, L1, V1, K1) -> strain samples (1-D, one length for all), the first at
        ``start_time`` (GPS s), ``sampling_frequency`` (Hz) apart.
    psds : dict
        Detector name -> (frequencies in Hz, one-sided PSD in 1/Hz), covering the analysed band.
    minimum_frequency, maximum_frequency : float or dict
        The analysed band (Hz), for all detectors or per detector (a "waveform" key sets where
        the waveform starts); the maximum defaults to Nyquist.
    reference_frequency : float
        Where ``phase`` is defined (Hz).
    trigger_time : float
        The run's epoch (GPS s); by default 2 s before the segment's end, as bilby_pipe's.
    priors : str or dict
        A prior file's text, or bilby priors (name -> prior); by default the default run's, with
        geocent_time uniform within 0.1 s of the trigger.
    sampler : dict
        Sampler settings (``tdpe.default_sampler_settings()`` keys).
    waveform_approximant : str
        The analysis's model: ``"IMRPhenomT"`` (the (2,2) mode) or ``"IMRPhenomTHM"``.
    mode_array : list of [l, m], optional
        The modes analysed, as bilby's ``mode_array`` (each with its -m partner); by default
        every mode of the approximant.
    """
    detectors = list(strain)
    if not detectors:
        raise ValueError("strain holds no detector")
    if sorted(psds) != sorted(detectors):
        raise ValueError(f"PSDs for {sorted(psds)} but strain for {sorted(detectors)}")
    data = {d: np.asarray(strain[d], dtype=float) for d in detectors}
    lengths = {d: x.shape for d, x in data.items()}
    if len(set(lengths.values())) != 1 or len(next(iter(lengths.values()))) != 1:
        raise ValueError(f"the strain arrays must be 1-D and of one length, not {lengths}")
    fs, start = float(sampling_frequency), float(start_time)
    samples = len(data[detectors[0]])
    duration = samples / fs
    if trigger_time is None:
        trigger_time = start + duration - 2.0
    text = prior_file_text(default_prior_text(trigger_time) if priors is None else priors)
    lows = _per_detector(minimum_frequency, detectors, "minimum_frequency")
    highs = _per_detector(fs / 2 if maximum_frequency is None else maximum_frequency,
                          detectors, "maximum_frequency")
    table = lambda values: "{ " + ", ".join(  # noqa: E731
        f"{k} = {toml_literal(v)}" for k, v in values.items()) + " }"
    lines = [
        f"# {comment}: `tdpe run config.toml` runs it.",
        f"label = {toml_literal(label)}",
        f"detectors = {toml_literal(detectors)}",
        f"trigger_time = {toml_literal(float(trigger_time))}",
        f"duration = {toml_literal(duration)}",
        f"post_trigger_duration = {toml_literal(start + duration - float(trigger_time))}",
        f"sampling_frequency = {toml_literal(fs)}",
        f"minimum_frequency = {table(lows)}",
        f"maximum_frequency = {table(highs)}",
        f"reference_frequency = {toml_literal(float(reference_frequency))}",
        f"waveform_approximant = {toml_literal(str(waveform_approximant))}",
        *([] if mode_array is None else
          [f"mode_array = {toml_literal([[int(l), int(m)] for l, m in mode_array])}"]),
        'prior_file = "tdpe.prior"',
        'psd_column = "psd"',
        "",
        "[psd]",
        *(f'{d} = "{d}_psd.txt"' for d in detectors),
        "",
        "[strain]",
        'format = "time-series"',
        "files = { " + ", ".join(f'{d} = "{d}_strain.txt"' for d in detectors) + " }",
        "",
        "[sampler]",
        *(f"{k} = {toml_literal(v)}" for k, v in (sampler or {}).items()),
    ]
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "tdpe.prior"), "w") as f:
        f.write(text)
    times = start + np.arange(samples) / fs
    for d in detectors:
        np.savetxt(os.path.join(directory, f"{d}_strain.txt"), np.c_[times, data[d]], fmt="%.17g")
        frequencies, psd = (np.asarray(a, dtype=float) for a in psds[d])
        np.savetxt(os.path.join(directory, f"{d}_psd.txt"), np.c_[frequencies, psd], fmt="%.17g")
    path = os.path.join(directory, "config.toml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def likelihood_from_arrays(strain, psds, start_time, sampling_frequency, **options):
    """The :class:`tdpe.Likelihood` of strain and PSD arrays (the arguments of
    :func:`write_run_directory`; ``overrides`` as for ``tdpe.Likelihood``). The run directory
    is temporary: the likelihood holds everything once set up."""
    overrides = options.pop("overrides", None)
    with tempfile.TemporaryDirectory() as scratch:
        config = write_run_directory(scratch, strain=strain, psds=psds, start_time=start_time,
                                     sampling_frequency=sampling_frequency, **options)
        return Likelihood(config, overrides)
