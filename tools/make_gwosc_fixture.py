#!/usr/bin/env python3
"""Write GWOSC-layout HDF5 strain files: the worked example in examples/gwosc/ and the small
test fixtures in crates/strain/tests/data/ (dev-only; run in /tmp/pesenv, which has h5py,
numpy, scipy and lalsuite):

    /tmp/pesenv/bin/python tools/make_gwosc_fixture.py

The layout is the one GWOSC's HDF5 files have (docs/strain_data.md §1): strain/Strain
(float64, chunked, gzip) with attributes Xstart, Xspacing, Npoints, Xunits; meta/{GPSstart,
Duration, Detector, Observatory, Type, Description, DescriptionURL, UTCstart}; 1 Hz bit masks
quality/simple/{DQmask, DQShortnames, DQDescriptions} and quality/injections/{Injmask,
InjShortnames, InjDescriptions}. Noise is Gaussian, coloured by crates/noise's
aLIGOZeroDetHighPower ASD; the example carries an IMRPhenomT aligned-spin BBH from
lalsimulation projected onto H1 and L1.

Beside the fixtures the script writes what scipy computes on them (sample check values,
scipy.signal.decimate, scipy.signal.welch median) for crates/strain/tests/gwosc_files.rs.
"""
import json
import pathlib
import shutil

import h5py
import numpy as np
from scipy import signal

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples/gwosc"
DATA = ROOT / "crates/strain/tests/data"
ASD_FILE = ROOT / "crates/noise/data/aLIGOZeroDetHighPower_asd.txt"

# GWOSC's O1 bit names (bit k = k-th name); a set bit means the second passes the flag, or for
# the injection mask that there is no hardware injection of that kind.
DQ_NAMES = ["DATA", "CBC_CAT1", "CBC_CAT2", "CBC_CAT3", "BURST_CAT1", "BURST_CAT2", "BURST_CAT3"]
INJ_NAMES = ["NO_CBC_HW_INJ", "NO_BURST_HW_INJ", "NO_DETCHAR_HW_INJ", "NO_CW_HW_INJ",
             "NO_STOCH_HW_INJ"]
ALL_DQ = (1 << len(DQ_NAMES)) - 1
ALL_INJ = (1 << len(INJ_NAMES)) - 1

# The example: GW150914's trigger, bilby_pipe's duration 4 s / post-trigger 2 s, a PSD of
# psd_length 16 × 4 s = 64 s just before the segment.
TRIGGER = 1126259462.4
DURATION = 4.0
POST_TRIGGER = 2.0
PSD_LENGTH = 16
TUKEY_ROLL_OFF = 0.4
EXAMPLE_START = 1126259380  # 16.4 s before the PSD data (which start at 1126259396.4)
EXAMPLE_DURATION = 88  # ends 3.6 s after the analysis segment
EXAMPLE_GAP = (1126259383, 1126259385)  # NaN, all DQ bits clear: well before the PSD data
EXAMPLE_FS = 4096


def coloured_noise(n, fs, rng):
    """Gaussian noise of one-sided PSD S(f) (the ASD file squared): h̃(f_k) = √(S T / 4)(a + ib)
    with a, b ~ N(0, 1), so that ⟨|h̃|²⟩ = S T / 2, and x = irfft(h̃)/Δt."""
    f_asd, asd = np.loadtxt(ASD_FILE, unpack=True)
    freqs = np.fft.rfftfreq(n, 1.0 / fs)
    # Below the table's first frequency hold its value (the band below ~10 Hz is never used).
    psd = np.interp(freqs, f_asd, asd, left=asd[0], right=asd[-1]) ** 2
    t = n / fs
    tilde = np.sqrt(psd * t / 4.0) * (rng.standard_normal(freqs.size)
                                       + 1j * rng.standard_normal(freqs.size))
    tilde[0] = 0.0
    if n % 2 == 0:
        tilde[-1] = 0.0
    return np.fft.irfft(tilde, n) * fs


def write_gwosc(path, detector, start, fs, strain, dq=None, inj=None, names=None,
                xstart=None, duration=None):
    """One file as GWOSC writes it. `names` overrides dataset names (a broken-layout fixture);
    `xstart` overrides Xstart (an inconsistent fixture)."""
    names = names or {}
    n = strain.size
    seconds = int(round(n / fs))
    dq = np.full(seconds, ALL_DQ, dtype=np.int32) if dq is None else dq
    inj = np.full(seconds, ALL_INJ, dtype=np.int32) if inj is None else inj
    path.parent.mkdir(parents=True, exist_ok=True)
    with h5py.File(path, "w") as f:
        s = f.create_dataset(names.get("strain", "strain/Strain"), data=strain.astype(np.float64),
                             chunks=(min(n, 16384),), compression="gzip", compression_opts=4)
        s.attrs["Xstart"] = np.int64(start if xstart is None else xstart)
        s.attrs["Xspacing"] = np.float64(1.0 / fs)
        s.attrs["Npoints"] = np.int64(n)
        s.attrs["Xunits"] = np.bytes_("second")
        obs = {"H1": "LIGO Hanford Observatory", "L1": "LIGO Livingston Observatory"}
        meta = f.create_group("meta")
        meta["GPSstart"] = np.int64(start)
        meta["Duration"] = np.int64(seconds if duration is None else duration)
        meta["Detector"] = np.bytes_(detector)
        meta["Observatory"] = np.bytes_(detector[0])
        meta["Type"] = np.bytes_("StrainTimeSeries")
        meta["Description"] = np.bytes_(f"Strain data time series from {obs.get(detector, detector)}"
                                        " (tdpe test fixture: simulated noise)")
        meta["DescriptionURL"] = np.bytes_("https://gwosc.org/")
        meta["UTCstart"] = np.bytes_("2015-09-14T09:49:23")
        for group, mask_name, short, values, bit_names in (
                ("quality/simple", "DQmask", "DQShortnames", dq, DQ_NAMES),
                ("quality/injections", "Injmask", "InjShortnames", inj, INJ_NAMES)):
            g = f.require_group(group)
            m = g.create_dataset(mask_name, data=values.astype(np.int32), compression="gzip")
            m.attrs["Xstart"] = np.int64(start)
            m.attrs["Xspacing"] = np.float64(1.0)
            m.attrs["Npoints"] = np.int64(values.size)
            m.attrs["Xunits"] = np.bytes_("second")
            g[short] = np.array([np.bytes_(b) for b in bit_names])
            g[short.replace("Shortnames", "Descriptions")] = np.array(
                [np.bytes_(f"passes {b}" if "INJ" not in b else f"no {b[3:]} hardware injection")
                 for b in bit_names])


def injection(fs, start, n, detector, params):
    """The IMRPhenomT signal of `params` in `detector` on the grid start + k/fs."""
    import lal
    import lalsimulation as ls

    m1, m2 = params["mass_1"], params["mass_2"]
    hp, hc = ls.SimInspiralChooseTDWaveform(
        m1 * lal.MSUN_SI, m2 * lal.MSUN_SI, 0.0, 0.0, params["chi_1"], 0.0, 0.0, params["chi_2"],
        params["luminosity_distance"] * 1e6 * lal.PC_SI, params["theta_jn"], params["phase"],
        0.0, 0.0, 0.0, 1.0 / fs, params["minimum_frequency"], params["reference_frequency"],
        None, ls.GetApproximantFromString(params["waveform_approximant"]))
    # lalsimulation puts the peak at t = 0; geocent_time is that peak.
    for h in (hp, hc):
        h.epoch += params["geocent_time"]
        ls.SimInspiralREAL8WaveTaper(h.data, ls.SIM_INSPIRAL_TAPER_START)
    det = lal.cached_detector_by_prefix[detector]
    h = ls.SimDetectorStrainREAL8TimeSeries(hp, hc, params["ra"], params["dec"], params["psi"],
                                            det)
    target = lal.CreateREAL8TimeSeries("target", lal.LIGOTimeGPS(start), 0.0, 1.0 / fs,
                                       h.sampleUnits, n)
    target.data.data[:] = 0.0
    ls.SimAddInjectionREAL8TimeSeries(target, h, None)
    return np.array(target.data.data)


def chirp_to_masses(mc, q):
    m1 = mc * (1.0 + q) ** 0.2 / q ** 0.6
    return m1, q * m1


def snap_first(t, start, fs):
    """The crate's (and gwpy crop's) first sample at or before t, 10⁻³ sample tolerance."""
    return int(np.floor((t - start) * fs + 1e-3))


def welch_median(x, fs, duration):
    nperseg = int(round(duration * fs))
    alpha = 2.0 * TUKEY_ROLL_OFF / duration
    return signal.welch(x, fs=fs, window=("tukey", alpha), nperseg=nperseg,
                        noverlap=nperseg // 2, detrend="constant", scaling="density",
                        average="median")


def make_example():
    mc, q = 28.0, 0.8
    m1, m2 = chirp_to_masses(mc, q)
    params = dict(
        chirp_mass=mc, mass_ratio=q, mass_1=m1, mass_2=m2, chi_1=0.3, chi_2=-0.1,
        luminosity_distance=500.0, theta_jn=0.4, psi=2.659, phase=1.3, ra=1.375, dec=-1.2108,
        geocent_time=TRIGGER, waveform_approximant="IMRPhenomT", minimum_frequency=20.0,
        reference_frequency=20.0,
    )
    fs, n = EXAMPLE_FS, EXAMPLE_DURATION * EXAMPLE_FS
    rng = np.random.default_rng(150914)
    out = {"files": {}}
    for det in ("H1", "L1"):
        noise = coloured_noise(n, fs, rng)
        signal_ = injection(fs, EXAMPLE_START, n, det, params)
        strain = noise + signal_
        dq = np.full(EXAMPLE_DURATION, ALL_DQ, dtype=np.int32)
        a, b = (t - EXAMPLE_START for t in EXAMPLE_GAP)
        strain[a * fs:b * fs] = np.nan
        dq[a:b] = 0
        path = EXAMPLE / f"{det}.hdf5"
        write_gwosc(path, det, EXAMPLE_START, fs, strain, dq=dq)
        # The optimal SNR of the injection in the PSD it was coloured with, over the analysis
        # segment, for the README (ρ² = 4 Δf Σ |h̃|²/S above 20 Hz).
        first = snap_first(TRIGGER + POST_TRIGGER - DURATION, EXAMPLE_START, fs)
        seg = signal_[first:first + int(DURATION * fs)]
        tilde = np.fft.rfft(seg) / fs
        freqs = np.fft.rfftfreq(seg.size, 1.0 / fs)
        f_asd, asd = np.loadtxt(ASD_FILE, unpack=True)
        band = freqs >= 20.0
        psd = np.interp(freqs[band], f_asd, asd) ** 2
        snr = float(np.sqrt(4.0 / DURATION * np.sum(np.abs(tilde[band]) ** 2 / psd)))
        out["files"][det] = {"path": f"{det}.hdf5", "bytes": path.stat().st_size,
                             "optimal_snr": snr}
    out.update(
        injection=params,
        file_start=EXAMPLE_START, file_duration=EXAMPLE_DURATION, sampling_frequency=fs,
        nan_gap=list(EXAMPLE_GAP),
        analysis={"trigger_time": TRIGGER, "duration": DURATION,
                  "post_trigger_duration": POST_TRIGGER},
        psd={"psd_length": PSD_LENGTH, "tukey_roll_off": TUKEY_ROLL_OFF,
             "psd_fractional_overlap": 0.5},
        noise=f"Gaussian, coloured by {ASD_FILE.relative_to(ROOT)}, numpy seed 150914",
    )
    (EXAMPLE / "injection.json").write_text(json.dumps(out, indent=1) + "\n")
    return out


def checks_for(path, strain, start, fs, extra=None):
    """Sample check values at a few indices, as their IEEE-754 bits too (a JSON reader may
    round a decimal double by an ulp; the bits are exact)."""
    idx = [0, 1, 2, strain.size // 3, strain.size // 2, strain.size - 2, strain.size - 1]
    rec = {"path": path.name, "start": start, "sampling_frequency": fs, "len": strain.size,
           "indices": idx, "values": [float(strain[i]) for i in idx],
           "bits": [int(strain[i:i + 1].view(np.uint64)[0]) for i in idx]}
    rec.update(extra or {})
    return rec


def make_test_fixtures(example):
    DATA.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20151226)
    fs, start = 512, 1000000000
    checks = {}

    # Valid: 32 s at 512 Hz (the Welch comparison needs a few 4 s segments).
    valid = coloured_noise(32 * fs, fs, rng)
    inj = np.full(32, ALL_INJ, dtype=np.int32)
    inj[20:22] &= ~1  # a CBC hardware injection in seconds 20, 21
    write_gwosc(DATA / "valid.hdf5", "H1", start, fs, valid, inj=inj)
    checks["valid"] = checks_for(DATA / "valid.hdf5", valid, start, fs)

    # Truncated: the valid file with its last 40 % of bytes cut.
    raw = (DATA / "valid.hdf5").read_bytes()
    (DATA / "truncated.hdf5").write_bytes(raw[: int(len(raw) * 0.6)])
    # Cut inside the superblock/root: not even HDF5 any more.
    (DATA / "truncated_header.hdf5").write_bytes(raw[:300])

    small = coloured_noise(16 * fs, fs, rng)
    write_gwosc(DATA / "wrong_names.hdf5", "L1", start, fs, small,
                names={"strain": "strain/strain_data"})

    # NaN in GPS [start + 9.5, start + 10.25): 384 samples.
    nan = small.copy()
    nan[int(9.5 * fs):int(10.25 * fs)] = np.nan
    write_gwosc(DATA / "nan_inside.hdf5", "H1", start, fs, nan)
    checks["nan_inside"] = {"bad_start": start + 9.5, "bad_end": start + 10.25,
                            "bad_samples": int(0.75 * fs)}

    # CBC_CAT1 fails in seconds 6 and 7 (data there are fine).
    dq = np.full(16, ALL_DQ, dtype=np.int32)
    dq[6:8] &= ~(1 << DQ_NAMES.index("CBC_CAT1"))
    write_gwosc(DATA / "dq_failure.hdf5", "L1", start, fs, small, dq=dq)
    checks["dq_failure"] = {"flag": "CBC_CAT1", "bad_start": start + 6, "bad_end": start + 8}

    write_gwosc(DATA / "xstart_mismatch.hdf5", "H1", start, fs, small, xstart=start + 1)

    # scipy's decimate of the valid file (zero padding at both ends) at a few stretches:
    # both ends (where the padding matters) and the middle.
    dec = {}
    for q in (2, 4, 8):
        y = signal.decimate(valid, q, ftype="fir", zero_phase=True)
        stretches = [(0, 40), (y.size // 2 - 20, y.size // 2 + 20), (y.size - 40, y.size)]
        dec[str(q)] = {"len": int(y.size), "taps": 20 * q + 1,
                       "stretches": [{"first": a, "values": [float(v) for v in y[a:b]]}
                                     for a, b in stretches]}
    checks["decimate"] = dec

    # scipy's median Welch of the whole valid file in 4 s segments (α = 2·0.4/4).
    f, p = welch_median(valid, fs, DURATION)
    checks["welch_valid"] = {"duration": DURATION, "tukey_roll_off": TUKEY_ROLL_OFF,
                             "frequencies": [float(v) for v in f], "psd": [float(v) for v in p]}

    # The example's own PSD: 64 s of H1 just before the analysis segment, as the crate snaps
    # them, and scipy's median Welch of them (every 8th bin, to keep the file small).
    with h5py.File(EXAMPLE / "H1.hdf5", "r") as h:
        x = h["strain/Strain"][...]
        fs_e = 1.0 / h["strain/Strain"].attrs["Xspacing"]
    seg_start = TRIGGER + POST_TRIGGER - DURATION
    first = snap_first(seg_start - PSD_LENGTH * DURATION, EXAMPLE_START, fs_e)
    psd_data = x[first:first + int(PSD_LENGTH * DURATION * fs_e)]
    assert np.all(np.isfinite(psd_data))
    f, p = welch_median(psd_data, fs_e, DURATION)
    keep = slice(0, None, 8)
    checks["welch_example_h1"] = {
        "first": first, "len": int(psd_data.size), "bin_step": 8,
        "frequencies": [float(v) for v in f[keep]], "psd": [float(v) for v in p[keep]],
        # And scipy's decimate of the analysis segment with its surrounding file data to 2048 Hz:
        # the crate uses the real samples around the segment, so compare inside the file only.
    }
    a_first = snap_first(seg_start, EXAMPLE_START, fs_e)
    y = signal.decimate(x[a_first - 4096:a_first + int(DURATION * fs_e) + 4096], 2, ftype="fir",
                        zero_phase=True)
    # Output k of that call sits at input a_first - 4096 + 2k; the segment's outputs start at
    # k = 2048 and are untouched by the zero padding (20 taps each side < 4096 samples).
    checks["decimate_example_h1"] = {"segment_first": a_first, "factor": 2,
                                     "values": [float(v) for v in y[2048:2048 + 8192]][::64],
                                     "value_step": 64}
    (DATA / "checks.json").write_text(json.dumps(checks) + "\n")
    for p_ in sorted(DATA.glob("*.hdf5")):
        print(f"{p_.relative_to(ROOT)}: {p_.stat().st_size} bytes")


if __name__ == "__main__":
    ex = make_example()
    for det, rec in ex["files"].items():
        print(f"examples/gwosc/{rec['path']}: {rec['bytes']} bytes, optimal SNR {rec['optimal_snr']:.2f}")
    make_test_fixtures(ex)
