"""tdpe's likelihood under a bilby sampler (dynesty) on a two-parameter problem."""

import bilby
import numpy as np
import pytest

import tdpe.bilby


def test_dynesty_samples_the_tdpe_likelihood(likelihood, tmp_path):
    wrapped = tdpe.bilby.TdpeLikelihood(likelihood=likelihood)
    truth = likelihood.injection
    default_priors = tdpe.bilby.priors(wrapped)
    assert isinstance(default_priors["chirp_mass"], bilby.gw.prior.UniformInComponentsChirpMass)
    assert default_priors["geocent_time"].minimum == 1126259462.3
    # Every parameter fixed at the injection but the chirp mass and the distance.
    priors = bilby.core.prior.PriorDict(
        {name: bilby.core.prior.DeltaFunction(value, name=name) for name, value in truth.items()}
    )
    priors["chirp_mass"] = bilby.core.prior.Uniform(27.0, 29.0, name="chirp_mass")
    priors["luminosity_distance"] = bilby.core.prior.Uniform(400.0, 2400.0, name="luminosity_distance")
    assert wrapped.log_likelihood(truth) == wrapped.log_likelihood_ratio(truth) + wrapped.noise_log_likelihood()
    result = bilby.run_sampler(
        wrapped, priors, sampler="dynesty", nlive=100, sample="rwalk", rstate=np.random.default_rng(3),
        outdir=str(tmp_path), label="tdpe", save=False, plot=False, npool=1,
    )
    posterior = result.posterior
    for name in ("chirp_mass", "luminosity_distance"):
        lo, hi = np.quantile(posterior[name], [0.005, 0.995])
        assert lo < truth[name] < hi, (name, lo, hi)
    assert posterior["chirp_mass"].std() < 0.2


def simulated_transient(injection, marginalise=False, approximant="IMRPhenomT"):
    """bilby's own simulation of the default run: the injection in H1 and L1 design noise,
    4 s at 2048 Hz from 20 Hz, and bilby's likelihood of it."""
    bilby.core.utils.random.seed(5)
    duration, fs = 4.0, 2048.0
    start = injection["geocent_time"] + 2.0 - duration
    ifos = bilby.gw.detector.InterferometerList(["H1", "L1"])
    for ifo in ifos:
        ifo.minimum_frequency = 20.0
    ifos.set_strain_data_from_power_spectral_densities(
        sampling_frequency=fs, duration=duration, start_time=start)
    generator = bilby.gw.WaveformGenerator(
        duration=duration, sampling_frequency=fs,
        frequency_domain_source_model=bilby.gw.source.lal_binary_black_hole,
        parameter_conversion=bilby.gw.conversion.convert_to_lal_binary_black_hole_parameters,
        waveform_arguments=dict(waveform_approximant=approximant, reference_frequency=20.0,
                                minimum_frequency=20.0))
    ifos.inject_signal(waveform_generator=generator, parameters=injection)
    return bilby.gw.likelihood.GravitationalWaveTransient(
        ifos, generator, phase_marginalization=marginalise,
        priors=bilby.gw.prior.BBHPriorDict() if marginalise else None)


def test_the_tdpe_sampler_runs_a_bilby_transient(likelihood, tmp_path):
    truth = likelihood.injection
    transient = simulated_transient(truth)
    priors = tdpe.bilby.priors(likelihood)
    result = bilby.run_sampler(
        transient, priors, sampler="tdpe", outdir=str(tmp_path), label="plugin",
        num_warmup=300, num_draws=400, target_ess=0.0, progress=False, save=False, npool=2)
    run = tmp_path / "tdpe_plugin"
    assert (run / "config.toml").is_file() and (run / "result.json").is_file()
    config = (run / "config.toml").read_text()
    assert "num_draws = 400" in config and "threads = 2" in config
    assert len(result.posterior) == 4 * 400
    for name in ("chirp_mass", "mass_ratio", "chi_1", "luminosity_distance", "geocent_time"):
        lo, hi = np.quantile(result.posterior[name], [0.001, 0.999])
        assert lo < truth[name] < hi, (name, lo, hi, truth[name])
    assert result.posterior["chirp_mass"].std() < 0.5
    # The posterior's likelihood is bilby's likelihood of the same data, to the band edge's
    # difference (docs/likelihood.md §1.3).
    best = result.posterior.iloc[int(np.argmax(result.posterior["log_likelihood"]))]
    ours = float(best["log_likelihood"])
    theirs = transient.log_likelihood_ratio({k: best[k] for k in tdpe.PARAMETER_NAMES})
    assert abs(ours - theirs) < 0.02 * abs(theirs), (ours, theirs)


def test_what_the_tdpe_sampler_cannot_run_is_refused_before_any_work(likelihood, tmp_path):
    truth = likelihood.injection
    priors = tdpe.bilby.priors(likelihood)
    # bilby refuses to sample a marginalised parameter; fixed, tdpe's plugin refuses.
    fixed_phase = tdpe.bilby.priors(likelihood)
    fixed_phase["phase"] = bilby.core.prior.DeltaFunction(1.3)
    # Component masses sampled: bilby's choice, not one of tdpe's parameters.
    component_masses = tdpe.bilby.priors(likelihood)
    for name in ("chirp_mass", "mass_ratio"):
        del component_masses[name]
    for name in ("mass_1", "mass_2"):
        component_masses[name] = bilby.core.prior.Uniform(20.0, 50.0, name=name)
    cases = [
        (simulated_transient(truth, marginalise=True), fixed_phase, "phase_marginalization=True"),
        (simulated_transient(truth, approximant="IMRPhenomXAS"), priors, "IMRPhenomXAS"),
        (simulated_transient(truth), component_masses, "no prior for chirp_mass, mass_ratio"),
    ]
    for transient, prior, message in cases:
        with pytest.raises(ValueError, match=message):
            bilby.run_sampler(transient, prior, sampler="tdpe", outdir=str(tmp_path),
                              label="refused", save=False)
        assert not (tmp_path / "tdpe_refused" / "config.toml").exists()


def test_the_tdpe_sampler_runs_a_tdpe_likelihood_with_bilbys_priors(likelihood, tmp_path):
    wrapped = tdpe.bilby.TdpeLikelihood("default")
    priors = tdpe.bilby.priors(likelihood)
    priors["chi_2"] = bilby.core.prior.DeltaFunction(-0.2, name="chi_2")
    result = bilby.run_sampler(
        wrapped, priors, sampler="tdpe", outdir=str(tmp_path), label="native",
        num_warmup=150, num_draws=150, target_ess=0.0, progress=False, save=False)
    assert (tmp_path / "tdpe_native" / "tdpe.prior").read_text().startswith("chirp_mass = ")
    assert len(result.posterior) == 4 * 150
    # The fixed spin is fixed in tdpe's run as in bilby's prior.
    assert (result.posterior["chi_2"] == -0.2).all()
