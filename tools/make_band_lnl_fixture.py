#!/usr/bin/env python3
"""Writes crates/tdpe/tests/data/band_lnl/: bilby-simulated H1+L1 data with an IMRPhenomT
injection, the simulation PSD, a median-Welch PSD estimated from bilby-simulated noise, tdpe
configs for both PSDs, and bilby's non-marginalised log-likelihood ratio at the injection.

The test crates/tdpe/tests/band_lnl.rs checks tdpe's ln L against these (docs/likelihood.md §1.3).

Run: /tmp/pesenv/bin/python tools/make_band_lnl_fixture.py   (bilby 2.x with lalsuite)
"""
import json
import os

import bilby
import numpy as np
from scipy.signal import welch

OUT = os.path.join(os.path.dirname(__file__), "..", "crates", "tdpe", "tests", "data", "band_lnl")
DURATION, FS, F_MIN, POST = 4.0, 2048.0, 20.0, 2.0
TRIGGER = 1126259642.413
INJECTION = dict(
    chirp_mass=28.0, mass_ratio=0.8, chi_1=0.3, chi_2=-0.2, luminosity_distance=900.0,
    theta_jn=0.4, psi=0.7, phase=1.3, geocent_time=TRIGGER, ra=1.375, dec=-1.21,
)


def design_psd_from_f_min():
    """aLIGO design PSD tabulated from F_MIN only: bilby's noise has no power below it."""
    full = bilby.gw.detector.PowerSpectralDensity.from_power_spectral_density_file(
        "aLIGO_ZERO_DET_high_P_psd.txt")
    keep = full.frequency_array >= F_MIN
    return full.frequency_array[keep], full.psd_array[keep]


def welch_psd(f_psd, s_psd, seed):
    """Median Welch (4 s Hann segments, half overlap) of 256 s of bilby-simulated noise."""
    bilby.core.utils.random.seed(seed)
    ifo = bilby.gw.detector.get_empty_interferometer("H1")
    ifo.power_spectral_density = bilby.gw.detector.PowerSpectralDensity(
        frequency_array=f_psd, psd_array=s_psd)
    ifo.set_strain_data_from_power_spectral_density(
        sampling_frequency=FS, duration=256.0, start_time=0.0)
    x = ifo.strain_data.time_domain_strain
    f, p = welch(x, fs=FS, nperseg=int(DURATION * FS), average="median")
    return f, p


def main():
    os.makedirs(OUT, exist_ok=True)
    f_psd, s_psd = design_psd_from_f_min()
    # The simulation PSD on the analysis grid (0.25 Hz) from F_MIN to Nyquist.
    grid = np.arange(F_MIN, FS / 2 + 1e-9, 1 / DURATION)
    s_sim = np.interp(grid, f_psd, s_psd)
    np.savetxt(os.path.join(OUT, "sim_psd.txt"), np.c_[grid, s_sim], fmt="%.6e")
    f_w, s_w = welch_psd(f_psd, s_psd, seed=7)
    np.savetxt(os.path.join(OUT, "welch_psd.txt"), np.c_[f_w, s_w], fmt="%.6e")

    bilby.core.utils.random.seed(11)
    ifos = bilby.gw.detector.InterferometerList(["H1", "L1"])
    for ifo in ifos:
        ifo.power_spectral_density = bilby.gw.detector.PowerSpectralDensity(
            frequency_array=f_psd, psd_array=s_psd)
        ifo.minimum_frequency = F_MIN
        ifo.maximum_frequency = FS / 2
    ifos.set_strain_data_from_power_spectral_densities(
        sampling_frequency=FS, duration=DURATION, start_time=TRIGGER + POST - DURATION)
    wfg = bilby.gw.WaveformGenerator(
        duration=DURATION, sampling_frequency=FS,
        frequency_domain_source_model=bilby.gw.source.lal_binary_black_hole,
        parameter_conversion=bilby.gw.conversion.convert_to_lal_binary_black_hole_parameters,
        waveform_arguments=dict(waveform_approximant="IMRPhenomT", reference_frequency=20.0,
                                minimum_frequency=F_MIN),
    )
    ifos.inject_signal(waveform_generator=wfg, parameters=INJECTION)
    snr = [float(np.sqrt(np.real(ifo.meta_data["optimal_SNR"]) ** 2)) for ifo in ifos]
    for ifo in ifos:
        d = ifo.strain_data.frequency_domain_strain
        np.savetxt(os.path.join(OUT, f"{ifo.name}_fd_strain.txt"),
                   np.c_[ifo.strain_data.frequency_array, d.real, d.imag], fmt="%.8e")

    def lnl(psd_f, psd_s):
        for ifo in ifos:
            ifo.power_spectral_density = bilby.gw.detector.PowerSpectralDensity(
                frequency_array=psd_f, psd_array=psd_s)
        like = bilby.gw.likelihood.GravitationalWaveTransient(ifos, wfg)
        like.parameters.update(INJECTION)
        return float(like.log_likelihood_ratio())

    values = dict(
        simulation_psd=lnl(grid, s_sim),
        welch_psd=lnl(f_w, s_w),
        optimal_snr=snr,
        injection=INJECTION,
        note="bilby GravitationalWaveTransient.log_likelihood_ratio (no marginalisation)",
        bilby_version=bilby.__version__,
    )
    with open(os.path.join(OUT, "bilby_lnl.json"), "w") as fh:
        json.dump(values, fh, indent=1)
    with open(os.path.join(OUT, "injection.csv"), "w") as fh:
        fh.write(",".join(INJECTION) + "\n" + ",".join(repr(v) for v in INJECTION.values()) + "\n")
    for name, psd in (("simulation", "sim_psd.txt"), ("welch", "welch_psd.txt")):
        with open(os.path.join(OUT, f"{name}.toml"), "w") as fh:
            fh.write(f"""# Written by tools/make_band_lnl_fixture.py: bilby-simulated data, {name} PSD.
label = "band_lnl_{name}"
detectors = ["H1", "L1"]
trigger_time = {TRIGGER}
duration = {DURATION}
post_trigger_duration = {POST}
sampling_frequency = {FS}
minimum_frequency = {F_MIN}
reference_frequency = 20.0
prior_file = "default"
psd_column = "psd"

[psd]
H1 = "{psd}"
L1 = "{psd}"

[strain]
format = "frequency-series"
files = {{ H1 = "H1_fd_strain.txt", L1 = "L1_fd_strain.txt" }}
""")
    print(json.dumps(values, indent=1))


if __name__ == "__main__":
    main()
