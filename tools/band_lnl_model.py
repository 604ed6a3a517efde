#!/usr/bin/env python3
"""A model of tdpe's band edge against bilby's sharp cut, behind docs/likelihood.md §1.3
("Agreement with bilby").

On the fixture of tools/make_band_lnl_fixture.py it evaluates the fine-grid inner product
4 Re Σ ã* b̃ / S_TD Δf of likelihood.md §1.6 (the T(σ) stand-in for C⁻¹, without its boundary
layers) with S_TD built as in §1.3 for a given ramp, and bilby's circular sum on the data's own
grid, for the same template: LAL's time-domain IMRPhenomT cut at the segment start. It prints

- ρ² with the design curve and zero noise for the ramp below f_low and centred on it;
- over fresh bilby-style noise realisations (no power below f_min), the mean and standard
  deviation of ln L(fine grid) − ln L(bilby's sum) at the injection, per ramp, interpolation
  and PSD.

Run: /tmp/pesenv/bin/python tools/band_lnl_model.py [realisations]   (bilby 2.x, lalsuite)
"""
import json
import os
import sys

import bilby
import lal
import lalsimulation
import numpy as np

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "crates", "tdpe", "tests", "data",
                       "band_lnl")
T, FS, POST, F_LOW, GAIN = 4.0, 2048.0, 2.0, 20.0, 1e4
N = int(T * FS)
DT = 1 / FS
M = 64 * int(FS)  # the fine grid of likelihood.md §1.2
FINE = np.fft.rfftfreq(M, DT)
COARSE = np.fft.rfftfreq(N, DT)
IN_BAND = COARSE >= F_LOW


def planck(f, f0, f1):
    """The Planck taper of likelihood.md §1.3: 0 below f0, 1 above f1."""
    w = (f >= f1).astype(float)
    inside = (f > f0) & (f < f1)
    x = f[inside]
    w[inside] = 1 / (np.exp((f1 - f0) / (x - f0) - (f1 - f0) / (f1 - x)) + 1)
    return w


def s_td(freqs, psd, ramp, interpolation):
    """S_TD on the fine grid: ramp (f0, f1), S clamped to S(f_low) below f_low, floor G·S(f_low)."""
    if interpolation == "inverse":
        inverse = np.interp(FINE, freqs, 1 / psd, left=np.nan, right=np.nan)
    else:
        log_f = np.log(np.maximum(FINE, 1e-9))
        inverse = np.exp(-np.interp(log_f, np.log(freqs), np.log(psd), left=np.nan,
                                    right=np.nan))
    s = 1 / inverse
    s_low = np.interp(F_LOW, freqs, psd)
    below = FINE < F_LOW
    s[below] = np.where(np.isnan(s[below]), s_low, np.maximum(s[below], s_low))
    w = planck(FINE, *ramp)
    return 1 / (w / s + (1 - w) / (GAIN * s_low))


def fine_product(a, b, s):
    fa, fb = np.fft.rfft(a, M) * DT, np.fft.rfft(b, M) * DT
    return 4 * (FINE[1] - FINE[0]) * np.real(np.sum(np.conj(fa) * fb / s))


def coarse_product(a, b, s):
    return 4 / T * np.real(np.sum((np.conj(a) * b)[IN_BAND] / s[IN_BAND]))


def template(injection):
    """Detector responses (frequency domain, data grid) of the segment-cut TD IMRPhenomT."""
    p, _ = bilby.gw.conversion.convert_to_lal_binary_black_hole_parameters(dict(injection))
    p = bilby.gw.conversion.generate_mass_parameters(p)
    hp, hc = lalsimulation.SimInspiralChooseTDWaveform(
        p["mass_1"] * lal.MSUN_SI, p["mass_2"] * lal.MSUN_SI, 0, 0, p["chi_1"], 0, 0,
        p["chi_2"], p["luminosity_distance"] * 1e6 * lal.PC_SI, p["theta_jn"], p["phase"],
        0, 0, 0, DT, 10.0, 20.0, None, lalsimulation.IMRPhenomT)
    tau = float(hp.epoch) + np.arange(hp.data.length) * DT
    first = int(np.argmax(tau >= -(T - POST)))

    def transform(series):
        padded = np.zeros(N)
        kept = series.data.data[first:]
        padded[: len(kept)] = kept
        return np.fft.rfft(padded) * DT * np.exp(-2j * np.pi * COARSE * tau[first])

    polarisations = dict(plus=transform(hp), cross=transform(hc))
    start = injection["geocent_time"] + POST - T
    responses = []
    for name in ("H1", "L1"):
        ifo = bilby.gw.detector.get_empty_interferometer(name)
        ifo.set_strain_data_from_zero_noise(sampling_frequency=FS, duration=T, start_time=start)
        responses.append(ifo.get_detector_response(polarisations, dict(injection)))
    return responses


def main():
    realisations = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    injection = json.load(open(os.path.join(FIXTURE, "bilby_lnl.json")))["injection"]
    responses = template(injection)
    sim = np.loadtxt(os.path.join(FIXTURE, "sim_psd.txt"), unpack=True)
    welch = np.loadtxt(os.path.join(FIXTURE, "welch_psd.txt"), unpack=True)

    design = bilby.gw.detector.PowerSpectralDensity.from_power_spectral_density_file(
        "aLIGO_ZERO_DET_high_P_psd.txt")
    keep = (design.frequency_array > 0) & np.isfinite(design.psd_array)
    design_f, design_s = design.frequency_array[keep], design.psd_array[keep]
    rho2 = sum(coarse_product(h, h, np.interp(COARSE, design_f, design_s)) for h in responses)
    print(f"design curve, zero noise: bilby's sum ρ² = {rho2:.2f}")
    for label, ramp in (("16–20 Hz", (16.0, 20.0)), ("18–22 Hz", (18.0, 22.0))):
        s = s_td(design_f, design_s, ramp, "log-log")
        fine = sum(fine_product(np.fft.irfft(h, N) / DT, np.fft.irfft(h, N) / DT, s)
                   for h in responses)
        print(f"  ramp {label}: ρ² = {fine:.2f} ({100 * (fine / rho2 - 1):+.2f} %)")

    cases = [(psd_name, ramp, interpolation)
             for psd_name in ("simulation", "welch")
             for ramp in (4.0, 2.0, 1.0)
             for interpolation in ("log-log", "inverse")]
    tables = {"simulation": sim, "welch": welch}
    spectra = {case: s_td(*tables[case[0]], (F_LOW - case[1] / 2, F_LOW + case[1] / 2), case[2])
               for case in cases}
    coarse_psd = {name: np.interp(COARSE, *tables[name]) for name in tables}
    rng = np.random.default_rng(1)
    differences = {case: [] for case in cases}
    for _ in range(realisations):
        ln_l = {case: 0.0 for case in cases}
        coarse = {name: 0.0 for name in tables}
        for h in responses:
            h_band = h * IN_BAND
            noise = (rng.normal(size=len(COARSE)) + 1j * rng.normal(size=len(COARSE))) * \
                np.sqrt(np.where(IN_BAND, coarse_psd["simulation"], 0) * T / 4)
            d = noise + h_band
            for name in tables:
                coarse[name] += coarse_product(d, h_band, coarse_psd[name]) - \
                    0.5 * coarse_product(h_band, h_band, coarse_psd[name])
            d_t, h_t = np.fft.irfft(d, N) / DT, np.fft.irfft(h, N) / DT
            for case, s in spectra.items():
                ln_l[case] += fine_product(d_t, h_t, s) - 0.5 * fine_product(h_t, h_t, s)
        for case in cases:
            differences[case].append(ln_l[case] - coarse[case[0]])
    print(f"ln L(fine grid) − ln L(bilby's sum) over {realisations} noise realisations:")
    for case, values in differences.items():
        print(f"  {case[0]:10s} ramp {case[1]:.0f} Hz centred, {case[2]:8s}: "
              f"mean {np.mean(values):+.2f}, sd {np.std(values):.2f}")


if __name__ == "__main__":
    main()
