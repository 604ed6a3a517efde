#!/usr/bin/env python3
"""Nested-sampling (bilby + dynesty) evidence on tdpe's own likelihood and prior (dev-only).

Checks tdpe's parallel-tempering evidence (issue 7). `tdpe likelihood CONFIG --points - --output -
--relative-binning-only` runs as a coprocess and answers each point with the relative-binning
ln L that `tdpe run` samples, a log-likelihood RATIO against noise alone, so bilby's log_evidence
is directly ln BF (signal vs noise). bilby reads the same prior file as tdpe (the config's
`prior_file`, with tdpe's default geocent_time prior if the file has none), and runs dynesty with
its acceptance-walk sampler on one core.

    cargo build --release -p tdpe
    python3 -m venv /tmp/bilbyenv && /tmp/bilbyenv/bin/pip install bilby dynesty
    /tmp/bilbyenv/bin/python tools/dynesty_evidence.py [CONFIG] [--nlive 500] [--naccept 60]
        [--dlogz 0.1] [--tdpe target/release/tdpe] [--outdir dynesty-out] [--seed 1]

CONFIG is a tdpe run configuration (TOML), `default` (the default) for the embedded one. Prints
ln BF ± its error, the sampling time, the likelihood calls and the posterior medians (with the
injection, if the config has one), and writes them to OUTDIR/summary.json next to bilby's result.
A point where tdpe cannot evaluate ln L gets zero likelihood, as in `tdpe run`.

Normalisation: bilby's log_evidence here and tdpe's PT ln BF are both
ln Z_C = ln ∫_C π L / π(C), the evidence with the prior renormalised to the region C where the
Constraint priors (mass_1, mass_2) hold, so they compare directly. tdpe's thermodynamic
integration gives ln Z(β=1) − ln Z(β=0) of the tempered family π 1_C L^β, whatever π's
normalisation. bilby draws dynesty's initial live points from the prior by rejection
(Sampler.get_initial_points_from_prior keeps only draws with a finite ln prior and ln L), and
dynesty, given live points, starts from ln X = 0: its prior volume is that of C, not of the unit
cube, although later proposals outside C only count as zero likelihood. (Had the initial points
filled the cube, log_evidence would be ln Z_C + ln π(C); π(C) = 0.946 for the default prior.)
A run resumes from OUTDIR's checkpoint when restarted with the same arguments.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tomllib

import numpy as np

import bilby
from bilby.core.prior import Uniform
from bilby.gw.prior import BBHPriorDict

REPO = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_PRIOR = REPO / "examples" / "gw150914_like.prior"
# tdpe's parameters, in the order of its PARAMETER_NAMES (geocent_time absolute GPS).
NAMES = [
    "chirp_mass",
    "mass_ratio",
    "chi_1",
    "chi_2",
    "luminosity_distance",
    "theta_jn",
    "psi",
    "phase",
    "geocent_time",
    "ra",
    "dec",
]
# tdpe's geocent_time prior when the prior file has none: Uniform(trigger ± this), s.
DEFAULT_TIME_HALF_WIDTH = 0.1
# What bilby itself returns for zero likelihood (a constraint failing).
ZERO_LIKELIHOOD = np.nan_to_num(-np.inf)


class TdpeLikelihood(bilby.Likelihood):
    """tdpe's relative-binning ln L ratio, from a `tdpe likelihood --points -` coprocess."""

    def __init__(self, command):
        super().__init__()
        self.command = command
        self.calls = 0
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._send(",".join(NAMES))
        header = self._receive()  # arrives once tdpe's set-up is done
        if header != "lnl_rb":
            raise RuntimeError(f"unexpected output header {header!r} from {' '.join(command)}")

    def _send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def _receive(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{' '.join(self.command)} ended (see its error above)")
        return line.strip()

    def log_likelihood(self, parameters=None):
        self._send(",".join("%.17g" % float(parameters[name]) for name in NAMES))
        value = float(self._receive())
        self.calls += 1
        return value if value > -np.inf else ZERO_LIKELIHOOD

    def log_likelihood_ratio(self, parameters=None):
        return self.log_likelihood(parameters)

    def noise_log_likelihood(self):
        return 0.0

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def tdpe_config(tdpe, config):
    """The run configuration as a dict, and the directory its relative paths start from."""
    if config == "default":
        text = subprocess.run([tdpe, "config"], check=True, capture_output=True, text=True).stdout
        return tomllib.loads(text), REPO
    path = pathlib.Path(config)
    return tomllib.loads(path.read_text()), path.resolve().parent


def load_priors(config, base_dir):
    """bilby's priors for the config's prior file, with tdpe's default geocent_time prior."""
    name = config.get("prior_file", "default")
    path = DEFAULT_PRIOR if name == "default" else base_dir / name
    priors = BBHPriorDict(filename=str(path))
    if "geocent_time" not in priors:
        trigger = config["trigger_time"]
        priors["geocent_time"] = Uniform(
            trigger - DEFAULT_TIME_HALF_WIDTH,
            trigger + DEFAULT_TIME_HALF_WIDTH,
            name="geocent_time",
        )
    missing = [n for n in NAMES if n not in priors]
    if missing:
        sys.exit(f"{path}: no prior for {', '.join(missing)}")
    return priors, path


def with_derived(samples):
    """mass_1, mass_2 (detector frame) and chi_eff of samples holding chirp_mass, mass_ratio,
    chi_1 and chi_2 (aligned spins)."""
    mc, q = np.asarray(samples["chirp_mass"]), np.asarray(samples["mass_ratio"])
    m1 = mc * (1 + q) ** 0.2 / q**0.6
    out = dict(samples)
    out["mass_1"], out["mass_2"] = m1, q * m1
    out["chi_eff"] = (np.asarray(samples["chi_1"]) + q * np.asarray(samples["chi_2"])) / (1 + q)
    return out


def injection_truth(config):
    """The config's injection in bilby's names (with chirp_mass, mass_ratio, chi_eff), or None."""
    injection = config.get("injection")
    if not injection or "mass_1" not in injection:
        return None
    m1, m2 = injection["mass_1"], injection["mass_2"]
    truth = {k: v for k, v in injection.items() if isinstance(v, float)}
    truth["chirp_mass"] = (m1 * m2) ** 0.6 / (m1 + m2) ** 0.2
    truth["mass_ratio"] = m2 / m1
    return {k: float(np.asarray(v)) for k, v in with_derived(truth).items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config", nargs="?", default="default", help="tdpe config, or 'default'")
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    parser.add_argument("--tdpe", default=str(target / "release" / "tdpe"), help="tdpe binary")
    parser.add_argument("--nlive", type=int, default=500)
    parser.add_argument("--naccept", type=int, default=60, help="acceptance-walk: accepted steps")
    parser.add_argument("--dlogz", type=float, default=0.1, help="stop at this remaining ln Z")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--outdir", default="dynesty-out")
    parser.add_argument("--label", default="dynesty")
    args = parser.parse_args()

    config, base_dir = tdpe_config(args.tdpe, args.config)
    priors, prior_path = load_priors(config, base_dir)
    print(f"prior: {prior_path}\n{priors}", flush=True)

    command = [args.tdpe, "likelihood", args.config, "--points", "-", "--output", "-",
               "--relative-binning-only"]
    likelihood = TdpeLikelihood(command)
    result = bilby.run_sampler(
        likelihood=likelihood,
        priors=priors,
        sampler="dynesty",
        nlive=args.nlive,
        sample="acceptance-walk",
        naccept=args.naccept,
        dlogz=args.dlogz,
        npool=1,
        seed=args.seed,
        outdir=args.outdir,
        label=args.label,
        check_point_plot=False,
        check_point_delta_t=600,
    )
    likelihood.close()
    # Both survive a resume: bilby adds up the sampling time (s), dynesty counts the calls.
    wall = float(result.sampling_time)
    calls = int(result.num_likelihood_evaluations)

    ln_bf, ln_bf_err = float(result.log_evidence), float(result.log_evidence_err)
    posterior = with_derived({k: result.posterior[k].to_numpy() for k in NAMES})
    truth = injection_truth(config)
    shown = ["chirp_mass", "mass_ratio", "mass_1", "mass_2", "chi_1", "chi_2", "chi_eff",
             "luminosity_distance", "theta_jn", "psi", "phase", "ra", "dec", "geocent_time"]
    medians = {}
    print(f"\n{'parameter':<20} {'median':>16} {'5%':>16} {'95%':>16} {'truth':>16}")
    for name in shown:
        lo, med, hi = np.quantile(posterior[name], [0.05, 0.5, 0.95])
        medians[name] = {"median": med, "q05": lo, "q95": hi}
        t = "" if truth is None or name not in truth else f"{truth[name]:16.6f}"
        print(f"{name:<20} {med:16.6f} {lo:16.6f} {hi:16.6f} {t}")

    summary = {
        "config": args.config,
        "prior_file": str(prior_path),
        "nlive": args.nlive,
        "naccept": args.naccept,
        "dlogz": args.dlogz,
        "seed": args.seed,
        "ln_bf": ln_bf,
        "ln_bf_err": ln_bf_err,
        "sampling_time_s": wall,
        "likelihood_calls": calls,
        "seconds_per_call": wall / max(calls, 1),
        "posterior_samples": len(result.posterior),
        "information_nats": float(result.information_gain),
        "medians": medians,
        "truth": truth,
    }
    pathlib.Path(args.outdir, "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(
        f"\nln BF (bilby log_evidence, prior normalised to the constraints) = {ln_bf:.3f}"
        f" ± {ln_bf_err:.3f}"
        f"\nnlive {args.nlive}, naccept {args.naccept}, dlogz {args.dlogz}: sampling time"
        f" {wall:.0f} s, {calls} likelihood calls ({1e3 * summary['seconds_per_call']:.3f} ms"
        f" each incl. sampler), {len(result.posterior)} posterior samples"
    )


if __name__ == "__main__":
    main()
