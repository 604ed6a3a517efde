#!/usr/bin/env python3
"""jim (jimgw: JAX, flowMC) on the data of a tdpe run: the peer measurement of issue 26, target 7.

Runs jim on exactly the strain and PSDs of a `tdpe run` (the embedded default: H1 + L1 design
noise with a GW150914-like IMRPhenomT (2,2) injection), with jim's defaults where it has them,
and prints wall time, the likelihood/gradient counts, R-hat and bulk ESS per parameter (arviz,
from the production chains) and medians / 90 % intervals against the injection and tdpe's own.

Set-up (nothing is installed by this script; see tools/jim_peer_requirements.txt):

    python3 -m venv /tmp/jimvenv
    /tmp/jimvenv/bin/pip install -r tools/jim_peer_requirements.txt
    # tdpe's Python package, only to export the run's data (once per tdpe outdir):
    CARGO_TARGET_DIR=/tmp/jim_tdpe_pytarget /tmp/jimvenv/bin/pip install ./python

Usage:

    target/release/tdpe run --outdir /tmp/jim_tdpe_ref
    /usr/bin/time -v /tmp/jimvenv/bin/python tools/jim_peer.py \
        --tdpe-outdir /tmp/jim_tdpe_ref --setting short --outdir /tmp/jim_short

What is compared, and where it differs from tdpe:

- Data: the run's configuration (result.json's meta_data.config) is handed to
  `tdpe.Likelihood`, whose `strain` and `psds` are the time series and PSDs that `tdpe run`
  analysed (same seed, same noise). They are written to OUTDIR/tdpe_data.npz (or read from
  --data). jim works in the frequency domain: the 4 s segment is FFT'd by jim's `Data` with
  its default window (Tukey, 0.4 s roll-off, alpha = 0.2), and the PSD is interpolated by jim
  onto the 0.25 Hz grid; band 20-1024 Hz as tdpe's. tdpe's likelihood is the time-domain
  (Toeplitz) one, which needs no window.
- Waveform: ripple's IMRPhenomD (aligned spins, (2,2) only, frequency domain), the closest
  ripple has to IMRPhenomT's (2,2) mode; f_ref = 20 Hz. Not the injected model.
- Likelihood: jim's HeterodynedTransientLikelihoodFD (relative binning, jim's default
  epsilon = 0.5: 40 bins over 20-618 Hz here) about the injection (tdpe's relative binning is
  also about the injection), with t_c, phase_c and psi re-fitted to IMRPhenomD's conventions
  by a grid search of jim's exact FD likelihood (refine_reference; ripple's t = 0 is ~5.6 ms
  from IMRPhenomT's peak) in place of jim's CMA-ES search over the whole prior;
  no phase or distance marginalisation (jim's heterodyned likelihood has no distance
  marginalisation; tdpe marginalises the distance and samples the phase).
- Prior: tdpe's default (examples/gw150914_like.prior) as far as jim allows: chirp mass
  UniformInComponents [20, 40] and mass ratio UniformInComponents [0.25, 1] with the
  mass_1, mass_2 in [10, 80] constraints (one joint prior class below), chi_1,2 U(-0.99, 0.99),
  d_L ~ D^2 on [100, 5000] Mpc, theta_jn (jim's iota) Sine, psi U(0, pi), phase U(0, 2 pi)
  (ripple's phase_c, another convention than IMRPhenomT's phase at f_ref), t_c U(-0.1, 0.1) s
  about the trigger, ra U(0, 2 pi), dec Cosine.
- Sampler: flowMC through jim with its sample transforms of jim's GW150914 example (arrival
  time at H1, zenith/azimuth about the H1-L1 baseline; periodic psi, azimuth, phase_c).
  "default" = FlowMCConfig() as jimgw defines it; "short" = the same with fewer chains, steps
  and loops (SHORT below).

Cost on the 2-core, 24 GB machine (issue 26, target 7): "short" ~15 min and ~6 GB peak RSS;
"default" did 6 of its 20 training loops in ~50 min with a peak RSS of ~24 GB (the whole
machine), so a full default run is hours: run it only where that fits.
"""

import argparse
import json
import logging
import os
import sys
import tempfile
import time

import numpy as np

# Settings for --setting short: 1/2 the chains, 1/2 the local steps, 1/5 the global steps, 1/4
# the training loops and 1/2 the production loops of FlowMCConfig's defaults; the rest default.
SHORT = dict(
    n_chains=500,
    n_local_steps=50,
    n_global_steps=200,
    n_training_loops=5,
    n_production_loops=5,
    global_thinning=20,
)

BILBY_NAMES = {
    "M_c": "chirp_mass",
    "q": "mass_ratio",
    "s1_z": "chi_1",
    "s2_z": "chi_2",
    "d_L": "luminosity_distance",
    "iota": "theta_jn",
    "psi": "psi",
    "phase_c": "phase",
    "t_c": "geocent_time",
    "ra": "ra",
    "dec": "dec",
}
REPORTED = ["chirp_mass", "mass_ratio", "chi_1", "chi_2", "luminosity_distance", "theta_jn"]


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tdpe-outdir", required=True, help="a `tdpe run` output directory")
    parser.add_argument("--setting", choices=["default", "short"], default="default")
    parser.add_argument("--outdir", required=True)
    parser.add_argument("--data", help="an npz written by an earlier run (skips the export)")
    parser.add_argument("--seed", type=int, default=0, help="jim's seed (default 0)")
    parser.add_argument(
        "--flowmc",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a FlowMCConfig field of the setting (repeatable; for smoke tests)",
    )
    parser.add_argument(
        "--time-evaluations",
        action="store_true",
        help="only time the log posterior and its gradient on a batch of prior draws, then exit",
    )
    return parser.parse_args(argv)


def read_tdpe_result(tdpe_outdir):
    with open(os.path.join(tdpe_outdir, "result.json")) as f:
        return json.load(f)


def export_tdpe_data(result, path):
    """The strain and PSDs of the tdpe run, via tdpe's Python package, into an npz."""
    import tdpe  # tdpe's package (python/), installed into the same venv

    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "config.toml")
        with open(config, "w") as f:
            f.write(result["meta_data"]["config"])
        likelihood = tdpe.Likelihood(config)
        arrays = {
            "detectors": np.array(likelihood.detectors),
            "start_time": likelihood.start_time,
            "sampling_frequency": likelihood.sampling_frequency,
            "trigger_time": likelihood.trigger_time,
        }
        for name in likelihood.detectors:
            arrays[f"strain_{name}"] = np.asarray(likelihood.strain[name])
            freqs, values = likelihood.psds[name]
            arrays[f"psd_freq_{name}"] = np.asarray(freqs)
            arrays[f"psd_{name}"] = np.asarray(values)
        injection = likelihood.injection or {}
        for key, value in injection.items():
            arrays[f"injection_{key}"] = value
    np.savez(path, **arrays)


def injection_from_result(result):
    raw = result["injection_parameters"]
    if isinstance(raw, str):  # bilby writes some dicts as their repr
        raw = eval(raw, {"__builtins__": {}}, {"nan": float("nan"), "inf": float("inf")})
    return {k: float(v) for k, v in raw.items() if isinstance(v, (int, float))}


def tdpe_posterior(tdpe_outdir):
    import csv

    with open(os.path.join(tdpe_outdir, "samples.csv")) as f:
        rows = list(csv.DictReader(f))
    return {name: np.array([float(r[name]) for r in rows]) for name in REPORTED if name in rows[0]}


def build_prior_classes():
    import jax
    import jax.numpy as jnp
    from jimgw.core.prior import Prior

    class UniformInComponentsMassPrior(Prior):
        """bilby's UniformInComponentsChirpMass x UniformInComponentsMassRatio with the
        mass_1, mass_2 constraints: p(M_c, q) ~ M_c (1 + q)^(2/5) q^(-6/5) inside the box and
        the component-mass bounds. jim has the chirp-mass part only."""

        mc_min: float
        mc_max: float
        q_min: float
        q_max: float
        m_min: float
        m_max: float

        def __init__(self, mc_min, mc_max, q_min, q_max, m_min, m_max):
            self.parameter_names = ("M_c", "q")
            self.mc_min, self.mc_max = float(mc_min), float(mc_max)
            self.q_min, self.q_max = float(q_min), float(q_max)
            self.m_min, self.m_max = float(m_min), float(m_max)

        def _masses(self, mc, q):
            m1 = mc * (1.0 + q) ** 0.2 / q**0.6
            return m1, m1 * q

        def log_prob(self, z):
            mc, q = z["M_c"], z["q"]
            mc_s = jnp.clip(mc, self.mc_min, self.mc_max)
            q_s = jnp.clip(q, self.q_min, self.q_max)
            m1, m2 = self._masses(mc_s, q_s)
            inside = (
                (mc >= self.mc_min) & (mc <= self.mc_max) & (q >= self.q_min) & (q <= self.q_max)
                & (m1 >= self.m_min) & (m1 <= self.m_max) & (m2 >= self.m_min) & (m2 <= self.m_max)
            )
            lp = jnp.log(mc_s) + 0.4 * jnp.log1p(q_s) - 1.2 * jnp.log(q_s)
            return jnp.where(inside, lp, -jnp.inf)

        def sample(self, rng_key, n_samples):
            # Inverse CDFs of the two marginals, then rejection by the mass constraints.
            q_grid = np.linspace(self.q_min, self.q_max, 20001)
            pdf = (1 + q_grid) ** 0.4 * q_grid**-1.2
            cdf = np.concatenate([[0.0], np.cumsum(0.5 * (pdf[1:] + pdf[:-1]) * np.diff(q_grid))])
            cdf /= cdf[-1]
            out_mc, out_q, got = [], [], 0
            while got < n_samples:
                rng_key, k1, k2 = jax.random.split(rng_key, 3)
                u1 = np.asarray(jax.random.uniform(k1, (4 * n_samples,)))
                u2 = np.asarray(jax.random.uniform(k2, (4 * n_samples,)))
                mc = np.sqrt(self.mc_min**2 + u1 * (self.mc_max**2 - self.mc_min**2))
                q = np.interp(u2, cdf, q_grid)
                m1 = mc * (1 + q) ** 0.2 / q**0.6
                m2 = m1 * q
                ok = (m1 >= self.m_min) & (m1 <= self.m_max) & (m2 >= self.m_min) & (m2 <= self.m_max)
                out_mc.append(mc[ok])
                out_q.append(q[ok])
                got += int(ok.sum())
            return {
                "M_c": jnp.asarray(np.concatenate(out_mc)[:n_samples]),
                "q": jnp.asarray(np.concatenate(out_q)[:n_samples]),
            }

    return UniformInComponentsMassPrior


def bulk_rhat_ess(chains):
    """R-hat (rank-normalised split) and bulk ESS per parameter; chains: name -> (chain, draw)."""
    import arviz as az

    dataset = az.convert_to_dataset({k: np.asarray(v) for k, v in chains.items()})
    rhat = az.rhat(dataset)
    ess = az.ess(dataset, method="bulk")
    return {k: float(rhat[k]) for k in chains}, {k: float(ess[k]) for k in chains}


def main(argv=None):
    args = parse_args(argv)
    t_start = time.perf_counter()
    os.makedirs(args.outdir, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s: %(message)s", stream=sys.stdout
    )

    result = read_tdpe_result(args.tdpe_outdir)
    injection = injection_from_result(result)
    data_path = args.data or os.path.join(args.outdir, "tdpe_data.npz")
    if not args.data:
        export_tdpe_data(result, data_path)
    data = np.load(data_path)

    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import flowMC
    import jimgw
    import ripplegw
    from jimgw.core.jim import Jim
    from jimgw.core.prior import CombinePrior, CosinePrior, PowerLawPrior, SinePrior, UniformPrior
    from jimgw.core.single_event.data import Data, PowerSpectrum
    from jimgw.core.single_event.detector import get_H1, get_L1
    from jimgw.core.single_event.likelihood import HeterodynedTransientLikelihoodFD
    from jimgw.core.single_event.transforms import (
        GeocentricArrivalTimeToDetectorArrivalTimeTransform,
        MassRatioToSymmetricMassRatioTransform,
        SkyFrameToDetectorFrameSkyPositionTransform,
    )
    from jimgw.core.single_event.waveform import RippleIMRPhenomD
    from jimgw.samplers.config import FlowMCConfig

    versions = {
        "jimgw": jimgw.__version__ if hasattr(jimgw, "__version__") else _dist_version("jimgw"),
        "jax": jax.__version__,
        "ripplegw": _dist_version("ripplegw"),
        "flowMC": _dist_version("flowMC"),
        "arviz": _dist_version("arviz"),
    }
    print("versions:", versions, "| devices:", jax.devices(), flush=True)

    trigger_time = float(data["trigger_time"])
    fs = float(data["sampling_frequency"])
    start_time = float(data["start_time"])
    f_min, f_max = 20.0, fs / 2
    ifos = {"H1": get_H1(), "L1": get_L1()}
    detectors = [str(d) for d in data["detectors"]]
    ifos = [ifos[d] for d in detectors]
    for ifo in ifos:
        strain = jnp.asarray(data[f"strain_{ifo.name}"])
        ifo.set_data(Data(strain, delta_t=1.0 / fs, start_time=start_time, name=ifo.name))
        freqs = np.asarray(data[f"psd_freq_{ifo.name}"])
        values = np.asarray(data[f"psd_{ifo.name}"])
        ok = np.isfinite(values) & (values > 0)
        ifo.set_psd(PowerSpectrum(jnp.asarray(values[ok]), jnp.asarray(freqs[ok]), ifo.name))

    Mass = build_prior_classes()
    prior = CombinePrior(
        [
            Mass(20.0, 40.0, 0.25, 1.0, 10.0, 80.0),
            UniformPrior(-0.99, 0.99, parameter_names=["s1_z"]),
            UniformPrior(-0.99, 0.99, parameter_names=["s2_z"]),
            PowerLawPrior(100.0, 5000.0, 2.0, parameter_names=["d_L"]),
            SinePrior(parameter_names=["iota"]),
            UniformPrior(0.0, float(np.pi), parameter_names=["psi"]),
            UniformPrior(0.0, 2 * float(np.pi), parameter_names=["phase_c"]),
            UniformPrior(-0.1, 0.1, parameter_names=["t_c"]),
            UniformPrior(0.0, 2 * float(np.pi), parameter_names=["ra"]),
            CosinePrior(parameter_names=["dec"]),
        ]
    )
    sample_transforms = [
        GeocentricArrivalTimeToDetectorArrivalTimeTransform(trigger_time=trigger_time, ifo=ifos[0]),
        SkyFrameToDetectorFrameSkyPositionTransform(trigger_time=trigger_time, ifos=ifos),
    ]
    likelihood_transforms = [MassRatioToSymmetricMassRatioTransform]

    q_inj = injection["mass_ratio"]
    reference = {
        "M_c": injection["chirp_mass"],
        "eta": q_inj / (1 + q_inj) ** 2,
        "s1_z": injection["chi_1"],
        "s2_z": injection["chi_2"],
        "d_L": injection["luminosity_distance"],
        "iota": injection["theta_jn"],
        "psi": injection["psi"],
        "phase_c": injection["phase"],
        "t_c": injection["geocent_time"] - trigger_time,
        "ra": injection["ra"],
        "dec": injection["dec"],
    }
    t_setup = time.perf_counter()
    reference = refine_reference(ifos, f_min, f_max, trigger_time, reference)
    likelihood = HeterodynedTransientLikelihoodFD(
        ifos,
        waveform=RippleIMRPhenomD(f_ref=20.0),
        f_min=f_min,
        f_max=f_max,
        trigger_time=trigger_time,
        reference_parameters=reference,
    )
    lnl_ref = float(likelihood.evaluate(dict(reference)))
    print(
        f"heterodyne: {likelihood.n_bins} bins over {float(likelihood.freq_grid_low[0]):.1f}-"
        f"{float(likelihood.freq_grid_high[-1]):.1f} Hz; heterodyned ln L at the reference {lnl_ref:.2f}; "
        f"set-up {time.perf_counter() - t_setup:.1f} s",
        flush=True,
    )

    fields = {} if args.setting == "default" else dict(SHORT)
    for item in args.flowmc:
        key, value = item.split("=", 1)
        fields[key] = json.loads(value)
    config = FlowMCConfig(**fields)
    cfg = {k: v for k, v in config.model_dump().items() if k not in ("checkpoint_dir",)}
    print("setting:", args.setting, "| FlowMCConfig:", cfg, flush=True)

    jim = Jim(
        likelihood,
        prior,
        sample_transforms=sample_transforms,
        likelihood_transforms=likelihood_transforms,
        periodic={
            "psi": (0.0, float(np.pi)),
            "azimuth": (0.0, 2 * float(np.pi)),
            "phase_c": (0.0, 2 * float(np.pi)),
        },
        sampler_config=config,
        seed=args.seed,
        verbose=True,
    )
    if args.time_evaluations:
        time_evaluations(jim, config.n_chains)
        return 0
    t_sample = time.perf_counter()
    jim.sample()
    sampling_time = time.perf_counter() - t_sample
    print(f"sampling time: {sampling_time:.1f} s", flush=True)

    diagnostics = jim.get_diagnostics()
    loops = diagnostics["n_training_loops_actual"] + config.n_production_loops
    n_grad = config.n_chains * config.n_local_steps * loops
    n_global = config.n_chains * config.n_global_steps * loops
    n_prod_grad = config.n_chains * config.n_local_steps * config.n_production_loops

    # Production chains, in prior space with bilby's names: (chain, draw) per parameter.
    resources = jim.sampler._flowmc_sampler.resources
    positions = np.asarray(resources["positions_production"].data)  # (chains, draws, dims)
    log_prob = np.asarray(resources["log_prob_production"].data)
    n_chains, n_draws, n_dims = positions.shape
    flat = jnp.asarray(positions.reshape(-1, n_dims))
    named = jax.vmap(jim.add_name)(flat)
    for transform in reversed(jim.sample_transforms):
        named = jax.vmap(transform.backward)(named)
    chains = {}
    for key, bilby_name in BILBY_NAMES.items():
        value = np.asarray(named[key]).reshape(n_chains, n_draws)
        if key == "t_c":
            value = value + trigger_time
        chains[bilby_name] = value
    rhat, ess = bulk_rhat_ess({k: (v - trigger_time if k == "geocent_time" else v) for k, v in chains.items()})

    heterodyne_check = check_heterodyne(jim, likelihood, flat, ifos, f_min, f_max, trigger_time)

    samples = {k: v.reshape(-1) for k, v in chains.items()}
    samples["log_posterior"] = log_prob.reshape(-1)
    np.savez_compressed(os.path.join(args.outdir, "samples.npz"), **samples)
    np.savez_compressed(
        os.path.join(args.outdir, "chains.npz"), **{k: v for k, v in chains.items()}
    )

    tdpe_post = tdpe_posterior(args.tdpe_outdir)
    rows = []
    for name in BILBY_NAMES.values():
        x = samples[name]
        lo, med, hi = np.quantile(x, [0.05, 0.5, 0.95])
        truth = injection.get(name, float("nan"))
        row = {
            "parameter": name,
            "median": med,
            "q05": lo,
            "q95": hi,
            "injected": truth,
            "in_90": bool(lo <= truth <= hi),
            "rhat": rhat[name],
            "ess_bulk": ess[name],
        }
        if name in tdpe_post:
            t_lo, t_med, t_hi = np.quantile(tdpe_post[name], [0.05, 0.5, 0.95])
            row.update(tdpe_median=t_med, tdpe_q05=t_lo, tdpe_q95=t_hi)
        rows.append(row)

    wall = time.perf_counter() - t_start
    summary = {
        "setting": args.setting,
        "flowmc_config": {k: (v if not isinstance(v, np.ndarray) else v.tolist()) for k, v in cfg.items()},
        "versions": versions,
        "seed": args.seed,
        "wall_time_s": wall,
        "sampling_time_s": sampling_time,
        "heterodyne_bins": int(likelihood.n_bins),
        "n_training_loops_actual": int(diagnostics["n_training_loops_actual"]),
        "n_likelihood_evaluations_flowmc": int(diagnostics["n_likelihood_evaluations"]),
        "n_gradient_evaluations": int(n_grad),
        "n_nf_proposal_evaluations": int(n_global),
        "n_production_gradient_evaluations": int(n_prod_grad),
        "production_chains": int(n_chains),
        "production_draws_per_chain": int(n_draws),
        "acceptance_production_local": _finite_mean(diagnostics["acceptance_production_local"]),
        "acceptance_production_global": _finite_mean(diagnostics["acceptance_production_global"]),
        "heterodyne_vs_exact_abs_dlnl_max": heterodyne_check[0],
        "heterodyne_vs_exact_abs_dlnl_median": heterodyne_check[1],
        "rhat_max": max(rhat.values()),
        "ess_bulk_min": min(ess.values()),
        "ess_bulk_min_parameter": min(ess, key=ess.get),
        "posterior": rows,
    }
    with open(os.path.join(args.outdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, default=float)

    print()
    print(f"## jim ({args.setting}) on tdpe's data: {os.path.abspath(args.tdpe_outdir)}")
    print(f"wall time (whole process after Python start-up) {wall:.1f} s, sampling {sampling_time:.1f} s")
    print(
        f"training loops run {summary['n_training_loops_actual']} of {config.n_training_loops} "
        f"(early stopping {config.early_stopping}), production loops {config.n_production_loops}"
    )
    print(
        f"evaluations: flowMC's count {summary['n_likelihood_evaluations_flowmc']:,} = "
        f"{n_grad:,} MALA (value and gradient) + {n_global:,} NF proposals (value only)"
    )
    print(
        f"acceptance (production): local {summary['acceptance_production_local']:.3f}, "
        f"global {summary['acceptance_production_global']:.3f}"
    )
    print(
        f"heterodyned against exact FD ln L at 100 production draws: |d ln L| max "
        f"{heterodyne_check[0]:.3g}, median {heterodyne_check[1]:.3g}"
    )
    print(
        f"production chains {n_chains} x {n_draws} draws; R-hat max {summary['rhat_max']:.4f}; "
        f"smallest bulk ESS {summary['ess_bulk_min']:.0f} ({summary['ess_bulk_min_parameter']})"
    )
    print()
    print("| parameter | jim median | jim 90 % | tdpe median | tdpe 90 % | injected | R-hat | ESS bulk |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        tdpe_cols = (
            f"{r['tdpe_median']:.4g} | [{r['tdpe_q05']:.4g}, {r['tdpe_q95']:.4g}]"
            if "tdpe_median" in r
            else "— | —"
        )
        fmt = ".6f" if r["parameter"] == "geocent_time" else ".4g"
        print(
            f"| {r['parameter']} | {r['median']:{fmt}} | [{r['q05']:{fmt}}, {r['q95']:{fmt}}] | {tdpe_cols} "
            f"| {r['injected']:{fmt}} | {r['rhat']:.4f} | {r['ess_bulk']:.0f} |"
        )
    return 0


def refine_reference(ifos, f_min, f_max, trigger_time, reference):
    """The injection in jim's names, with t_c, phase_c and psi re-fitted (grid search of jim's
    exact frequency-domain likelihood) to IMRPhenomD's conventions: ripple's t = 0 and phase_c
    are not IMRPhenomT's peak time and phase at f_ref, so the injection itself is a poor
    heterodyne reference for IMRPhenomD (its ln L there is far below the maximum)."""
    import jax
    import jax.numpy as jnp
    from jimgw.core.single_event.likelihood import TransientLikelihoodFD
    from jimgw.core.single_event.waveform import RippleIMRPhenomD

    exact = TransientLikelihoodFD(
        ifos, waveform=RippleIMRPhenomD(f_ref=20.0), f_min=f_min, f_max=f_max, trigger_time=trigger_time
    )

    def lnl(t_c, phase_c, psi):
        return exact.evaluate({**reference, "t_c": t_c, "phase_c": phase_c, "psi": psi})

    batch = jax.jit(jax.vmap(lnl))
    lnl_injection = float(batch(*(jnp.array([reference[k]]) for k in ("t_c", "phase_c", "psi")))[0])
    best = (reference["t_c"], reference["phase_c"], reference["psi"])
    grids = [
        (np.arange(-0.02, 0.02 + 1e-9, 5e-4), np.linspace(0, 2 * np.pi, 24, endpoint=False),
         np.array([0.0, np.pi / 2])),
        (np.arange(-5e-4, 5e-4 + 1e-9, 5e-5), np.linspace(-0.3, 0.3, 21), np.linspace(-0.1, 0.1, 5)),
        (np.arange(-5e-5, 5e-5 + 1e-9, 5e-6), np.linspace(-0.02, 0.02, 21), np.linspace(-0.01, 0.01, 5)),
    ]
    for dt, dphi, dpsi in grids:
        t, ph, ps = np.meshgrid(best[0] + dt, best[1] + dphi, best[2] + dpsi, indexing="ij")
        values = np.asarray(batch(jnp.asarray(t.ravel()), jnp.asarray(ph.ravel()), jnp.asarray(ps.ravel())))
        i = int(np.argmax(values))
        best = (float(t.ravel()[i]), float(ph.ravel()[i] % (2 * np.pi)), float(ps.ravel()[i] % np.pi))
        lnl_best = float(values[i])
    print(
        f"heterodyne reference: the injection with t_c {reference['t_c']:+.5f} -> {best[0]:+.5f} s, "
        f"phase_c {reference['phase_c']:.3f} -> {best[1]:.3f}, psi {reference['psi']:.3f} -> {best[2]:.3f}; "
        f"exact FD ln L (IMRPhenomD) {lnl_injection:.2f} -> {lnl_best:.2f}",
        flush=True,
    )
    return {**reference, "t_c": best[0], "phase_c": best[1], "psi": best[2]}


def check_heterodyne(jim, likelihood, flat, ifos, f_min, f_max, trigger_time, n=100):
    """|heterodyned - exact| ln L at n production draws (as tdpe's summary checks its binning)."""
    import jax
    from jimgw.core.single_event.likelihood import TransientLikelihoodFD

    exact = TransientLikelihoodFD(
        ifos, waveform=likelihood.waveform, f_min=f_min, f_max=f_max, trigger_time=trigger_time
    )
    idx = np.random.default_rng(0).choice(flat.shape[0], size=min(n, flat.shape[0]), replace=False)

    def both(x):
        named = jim.add_name(x)
        for transform in reversed(jim.sample_transforms):
            named, _ = transform.inverse(named)
        for transform in jim.likelihood_transforms:
            named = transform.forward(named)
        return likelihood.evaluate(named), exact.evaluate(named)

    het, ex = jax.jit(jax.vmap(both))(flat[idx])
    d = np.abs(np.asarray(het) - np.asarray(ex))
    return float(np.max(d)), float(np.median(d))


def _finite_mean(x):
    x = np.asarray(x, dtype=float)
    return float(np.mean(x[np.isfinite(x)])) if np.isfinite(x).any() else float("nan")


def time_evaluations(jim, n):
    """Wall time of the vmapped log posterior and of its value and gradient on n prior draws."""
    import jax

    points = jim.sample_initial_positions(n, jax.random.key(1))
    value = jax.jit(jax.vmap(jim.evaluate_posterior))
    value_and_grad = jax.jit(jax.vmap(jax.value_and_grad(jim.evaluate_posterior)))
    for name, fn in (("log posterior", value), ("log posterior and gradient", value_and_grad)):
        jax.block_until_ready(fn(points))
        t0 = time.perf_counter()
        reps = 5
        for _ in range(reps):
            jax.block_until_ready(fn(points))
        dt = (time.perf_counter() - t0) / reps
        print(f"{name}: {dt * 1e3:.1f} ms per batch of {n} = {dt / n * 1e6:.1f} us per point", flush=True)


def _dist_version(name):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
