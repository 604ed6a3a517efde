#!/usr/bin/env python3
"""Regenerate crates/posterior/tests/data/cosmological_priors.json and copy bilby's and
bilby_pipe's prior files there (dev-only; run in /tmp/pesenv, which has bilby 2.8.2 and
astropy).

    /tmp/pesenv/bin/pip download bilby_pipe==1.10.1 --no-deps -d /tmp/pipedl
    (cd /tmp/pipedl && unzip -o -q bilby_pipe-1.10.1-py3-none-any.whl)
    /tmp/pesenv/bin/python tools/make_prior_fixture.py /tmp/pipedl/bilby_pipe

The fixture holds, for crates/posterior/tests/bilby_priors.rs:
- astropy's Planck15 D_C, D_L, dV_C/dz/dΩ and V_C at many z;
- for UniformSourceFrame / UniformComovingVolume on a few ranges: bilby's ln_prob and
  rescale(u) (bilby interpolates a 1000-point table), and the exact density and inverse CDF
  from astropy's distances with scipy's quadrature (the tight reference);
- for AlignedSpin with a few a_prior / z_prior: bilby's ln_prob and rescale(u), and the
  definition's integral ∫ π_a(a) π_z(χ/a)/a da by scipy's quad;
- the reprs tdpe writes for these classes, checked here to load back in bilby.
"""
import json
import pathlib
import shutil
import sys

import bilby
import numpy as np
from astropy.cosmology import Planck15
from scipy.integrate import quad
from scipy.optimize import brentq

OUT = pathlib.Path(__file__).resolve().parent.parent / "crates/posterior/tests/data"
OUT.mkdir(parents=True, exist_ok=True)
U = np.linspace(0.0, 1.0, 41)[1:-1]


def cosmology():
    z = np.concatenate([np.geomspace(1e-4, 0.1, 40), np.linspace(0.1, 10.0, 100)[1:]])
    return dict(
        z=z.tolist(),
        comoving_distance=Planck15.comoving_distance(z).value.tolist(),
        luminosity_distance=Planck15.luminosity_distance(z).value.tolist(),
        differential_comoving_volume=Planck15.differential_comoving_volume(z).value.tolist(),
        comoving_volume=Planck15.comoving_volume(z).value.tolist(),
    )


def z_of_dl(d):
    return brentq(lambda z: Planck15.luminosity_distance(z).value - d, 0.0, 20.0, xtol=1e-15,
                  rtol=1e-15)


def cosmological(cls, k, minimum, maximum):
    prior = cls(minimum=minimum, maximum=maximum, name="luminosity_distance")
    dh = Planck15.hubble_distance.value

    def g(z):
        return Planck15.differential_comoving_volume(z).value / (1 + z) ** k

    z0, z1 = z_of_dl(minimum), z_of_dl(maximum)
    norm = quad(g, z0, z1, epsabs=0, epsrel=1e-13, limit=200)[0]

    def exact_pdf(d):
        z = z_of_dl(d)
        slope = Planck15.comoving_distance(z).value + (1 + z) * dh * Planck15.inv_efunc(z)
        return g(z) / slope / norm

    def exact_quantile(u):
        cdf = lambda z: quad(g, z0, z, epsabs=0, epsrel=1e-13, limit=200)[0] / norm - u
        return Planck15.luminosity_distance(brentq(cdf, z0, z1, xtol=1e-15)).value

    x = np.linspace(minimum, maximum, 61)[1:-1]
    return dict(
        class_name=cls.__name__,
        minimum=minimum,
        maximum=maximum,
        x=x.tolist(),
        bilby_ln_prob=prior.ln_prob(x).tolist(),
        exact_ln_pdf=[float(np.log(exact_pdf(d))) for d in x],
        u=U.tolist(),
        bilby_rescale=prior.rescale(U).tolist(),
        exact_inverse_cdf=[exact_quantile(u) for u in U],
    )


def aligned(a, z):
    a_prior = bilby.core.prior.Uniform(*a)
    z_prior = bilby.core.prior.Uniform(*z)
    prior = bilby.gw.prior.AlignedSpin(a_prior=a_prior, z_prior=z_prior, name="chi_1")
    lo, hi = prior.minimum, prior.maximum
    x = np.linspace(lo, hi, 81)[1:-1]
    x = x[np.abs(x) > 1e-9]

    def definition(chi):
        f = lambda aa: a_prior.prob(aa) * z_prior.prob(chi / aa) / aa
        # The integrand's kinks: where χ/a crosses the tilt's bounds.
        points = [abs(chi / c) for c in z if c != 0 and a[0] < abs(chi / c) < a[1]]
        return quad(f, a[0], a[1], points=points or None, epsabs=0, epsrel=1e-12, limit=200)[0]

    return dict(
        a_prior=list(a),
        z_prior=list(z),
        support=[lo, hi],
        x=x.tolist(),
        bilby_ln_prob=prior.ln_prob(x).tolist(),
        definition_ln_pdf=[float(np.log(definition(c))) for c in x],
        u=U.tolist(),
        bilby_rescale=prior.rescale(U).tolist(),
    )


# The reprs tdpe's result.json writes; bilby must read them back as the same priors.
REPRS = {
    "luminosity_distance": "bilby.gw.prior.UniformSourceFrame(minimum=100.0, maximum=5000.0, "
    "cosmology='Planck15', name='luminosity_distance', latex_label=None, unit=None, "
    "boundary=None)",
    "chi_1": "bilby.gw.prior.AlignedSpin(a_prior=Uniform(minimum=0.0, maximum=0.99, name=None, "
    "latex_label=None, unit=None, boundary=None), z_prior=Uniform(minimum=-1.0, maximum=1.0, "
    "name=None, latex_label=None, unit=None, boundary=None), name='chi_1', latex_label=None, "
    "unit=None, boundary=None)",
}


def check_reprs():
    priors = bilby.gw.prior.BBHPriorDict(dictionary=dict(REPRS))
    d = priors["luminosity_distance"]
    assert isinstance(d, bilby.gw.prior.UniformSourceFrame), d
    assert (d.minimum, d.maximum, d.cosmology.name) == (100.0, 5000.0, "Planck15"), d
    s = priors["chi_1"]
    assert isinstance(s, bilby.gw.prior.AlignedSpin), s
    assert (s.a_prior.minimum, s.a_prior.maximum) == (0.0, 0.99), s
    assert (s.z_prior.minimum, s.z_prior.maximum) == (-1.0, 1.0), s


def copy_prior_files(bilby_pipe_dir):
    src = pathlib.Path(bilby.__file__).parent / "gw/prior_files/aligned_spins_bbh.prior"
    shutil.copy(src, OUT / "bilby_aligned_spins_bbh.prior")
    shutil.copy(pathlib.Path(bilby_pipe_dir) / "data_files/4s.prior", OUT / "bilby_pipe_4s.prior")
    # bilby_pipe's aligned-spin template filled as bilby_pipe.gracedb does for a chirp mass
    # above 8 with its default bounds (4s ROQ bounds, a_max = 0.99, its 4s distance range).
    template = (pathlib.Path(bilby_pipe_dir) / "data_files/aligned_spin.prior.template").read_text()
    filled = template.format(mc_min=12.299703, mc_max=45, q_min=0.125, a_1_max=0.99,
                             a_2_max=0.99, d_min=10.0, d_max=10000.0, psi_max=np.pi)
    filled += "mass_1 = Constraint(name='mass_1', minimum=1.001398, maximum=1000)\n"
    filled += "mass_2 = Constraint(name='mass_2', minimum=1.001398, maximum=1000)\n"
    (OUT / "bilby_pipe_aligned_spin.prior").write_text(filled)
    # What bilby itself writes (PriorDict.to_file, as bilby_pipe writes a run's priors): the
    # default run's prior file read by bilby and written back.
    default = pathlib.Path(__file__).resolve().parents[1] / "crates/posterior/prior_files/gw150914_like.prior"
    bilby.gw.prior.BBHPriorDict(filename=str(default)).to_file(str(OUT), "bilby_to_file")
    # bilby reads all three.
    for name in ["bilby_aligned_spins_bbh.prior", "bilby_pipe_aligned_spin.prior"]:
        bilby.gw.prior.BBHPriorDict(filename=str(OUT / name))


def main():
    check_reprs()
    copy_prior_files(sys.argv[1])
    sf, cv = bilby.gw.prior.UniformSourceFrame, bilby.gw.prior.UniformComovingVolume
    fixture = dict(
        bilby_version=bilby.__version__,
        cosmology=cosmology(),
        cosmological=[
            cosmological(sf, 1, 100.0, 5000.0),
            cosmological(sf, 1, 1.0, 500.0),
            cosmological(sf, 1, 1000.0, 50000.0),
            cosmological(cv, 0, 10.0, 10000.0),
        ],
        aligned_spin=[
            aligned((0.0, 0.99), (-1.0, 1.0)),
            aligned((0.0, 0.05), (-1.0, 1.0)),
            aligned((0.0, 1.0), (-0.5, 1.0)),
            aligned((0.2, 0.8), (-1.0, 1.0)),
            aligned((0.2, 0.8), (0.1, 0.9)),
        ],
        reprs=REPRS,
    )
    (OUT / "cosmological_priors.json").write_text(json.dumps(fixture, indent=1))


if __name__ == "__main__":
    main()
