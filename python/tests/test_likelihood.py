"""tdpe.Likelihood: the command line's numbers, vectorised evaluation, the gradient, bad input."""

import csv
import io
import pathlib
import subprocess

import numpy as np
import pytest

import tdpe


# Rough posterior widths of the default run's parameters.
WIDTHS = {
    "chirp_mass": 0.3, "mass_ratio": 0.05, "chi_1": 0.1, "chi_2": 0.1,
    "luminosity_distance": 100.0, "theta_jn": 0.1, "psi": 0.1, "phase": 0.1,
    "geocent_time": 2e-4, "ra": 0.02, "dec": 0.02,
}


def points_around(injection, n, seed=1, scale=0.2):
    """n points scattered around the injection by `scale` posterior widths."""
    rng = np.random.default_rng(seed)
    return {
        k: injection[k] + scale * WIDTHS[k] * rng.standard_normal(n) for k in tdpe.PARAMETER_NAMES
    }


def command_line_values(tdpe_binary, points, path, *options, config="default"):
    """The columns `tdpe likelihood CONFIG` writes for `points`."""
    names = list(points)
    n = len(points["chirp_mass"])
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(names)
        for i in range(n):
            writer.writerow([repr(float(points[k][i])) for k in names])
    out = subprocess.run(
        [tdpe_binary, "likelihood", config, "--points", path, "--output", "-", *options],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    return {name: np.array([float(r[name]) for r in rows]) for name in rows[0]}


def test_values_are_the_command_lines(likelihood, tdpe_binary, tmp_path):
    points = points_around(likelihood.injection, 20)
    cli = command_line_values(tdpe_binary, points, tmp_path / "points.csv")
    # The same set-up and the same evaluation: the same numbers, to the last bit. The command
    # line's lnl_rb comes with the gradient (whose pass sums in another order than the value's
    # alone, ~1e-14 apart); with --relative-binning-only it is the value alone.
    np.testing.assert_array_equal(likelihood.log_likelihood_ratio(points, method="exact"), cli["lnl_exact"])
    value, gradient = likelihood.log_likelihood_ratio_and_gradient(points)
    np.testing.assert_array_equal(value, cli["lnl_rb"])
    np.testing.assert_array_equal(np.sqrt(np.sum(gradient**2, axis=1)), cli["gradient_norm_rb"])
    cli = command_line_values(
        tdpe_binary, points, tmp_path / "points.csv", "--relative-binning-only"
    )
    np.testing.assert_array_equal(likelihood.log_likelihood_ratio(points), cli["lnl_rb"])


def test_arrays_give_the_values_of_single_points(likelihood):
    points = points_around(likelihood.injection, 50, seed=2)
    values = likelihood.log_likelihood_ratio(points)
    values_g, gradients = likelihood.log_likelihood_ratio_and_gradient(points)
    assert values.shape == (50,) and gradients.shape == (50, 11)
    np.testing.assert_allclose(values, values_g, rtol=1e-12)
    for i in range(50):
        point = {k: float(v[i]) for k, v in points.items()}
        value = likelihood.log_likelihood_ratio(point)
        assert isinstance(value, float)
        assert value == values[i]
        value, gradient = likelihood.log_likelihood_ratio_and_gradient(point)
        assert value == values_g[i]
        np.testing.assert_array_equal(gradient, gradients[i])


def test_relative_binning_is_near_the_exact_likelihood(likelihood):
    points = points_around(likelihood.injection, 20, seed=3)
    relative = likelihood.log_likelihood_ratio(points)
    exact = likelihood.log_likelihood_ratio(points, method="exact")
    assert exact.max() - exact.min() > 1.0
    assert np.max(np.abs(relative - exact)) < 5e-4


def assert_gradient_is_the_derivative(likelihood, point, widths, rel_tol, abs_tol):
    """The gradient at `point` against central differences of the value, in the order of
    `parameter_names`, with steps of 3e-3 of each parameter's width in `widths`."""
    _, gradient = likelihood.log_likelihood_ratio_and_gradient(point)
    for k, name in enumerate(likelihood.parameter_names):
        # The waveform's own rounding (~1e-6 in ln L) swamps much smaller steps.
        h = 3e-3 * widths[name]
        up, down = dict(point), dict(point)
        up[name] += h
        down[name] -= h
        # The step as stored: a GPS time in a double moves in steps of 2.4e-7 s.
        step = up[name] - down[name]
        slope = (likelihood.log_likelihood_ratio(up) - likelihood.log_likelihood_ratio(down)) / step
        assert slope == pytest.approx(gradient[k], rel=rel_tol, abs=abs_tol), name


def test_the_gradient_is_the_derivative_of_the_value(likelihood):
    point = dict(likelihood.injection)
    point["chirp_mass"] += 0.05
    point["theta_jn"] -= 0.05
    assert_gradient_is_the_derivative(likelihood, point, WIDTHS, rel_tol=3e-4, abs_tol=1e-2)


def test_component_masses_stand_for_chirp_mass_and_mass_ratio(likelihood):
    point = dict(likelihood.injection)
    chirp_mass, q = point.pop("chirp_mass"), point.pop("mass_ratio")
    eta = q / (1 + q) ** 2
    total = chirp_mass / eta**0.6
    point["mass_1"], point["mass_2"] = total / (1 + q), total * q / (1 + q)
    expected = likelihood.log_likelihood_ratio(likelihood.injection)
    assert likelihood.log_likelihood_ratio(point) == pytest.approx(expected, abs=1e-8)


def test_points_outside_the_model_have_zero_likelihood(likelihood):
    point = dict(likelihood.injection, chi_1=1.5)
    assert likelihood.log_likelihood_ratio(point) == -np.inf
    value, gradient = likelihood.log_likelihood_ratio_and_gradient(point)
    assert value == -np.inf and np.isnan(gradient).all()


def test_the_set_up_is_the_run_configurations(likelihood):
    assert likelihood.detectors == ["H1", "L1"]
    assert likelihood.trigger_time == 1126259462.4
    assert likelihood.fiducial == likelihood.injection
    assert likelihood.injection["luminosity_distance"] == 1200.0
    assert all(40 <= n <= 150 for n in likelihood.node_counts)
    assert "chirp_mass = bilby.gw.prior.UniformInComponentsChirpMass" in likelihood.prior_text
    assert np.isfinite(likelihood.noise_log_likelihood())


def test_overrides_change_the_configuration():
    moved = tdpe.Likelihood("default", overrides={"injection.luminosity_distance": 2400.0})
    assert moved.injection["luminosity_distance"] == 2400.0


@pytest.mark.parametrize(
    "change, message",
    [
        ({"chirp_mass": None, "mass_ratio": None}, "missing parameters: chirp_mass and mass_ratio"),
        ({"chirp_mass": None}, "give both chirp_mass and mass_ratio"),
        ({"psi": None}, "missing parameters: psi"),
        ({"ra": float("nan")}, "ra = NaN"),
        ({"dec": np.zeros(3), "ra": np.zeros(2)}, "must be of one length"),
        ({"phase": "zero"}, "parameter phase"),
        ({"theta_jn": np.zeros((2, 2))}, "parameter theta_jn"),
    ],
)
def test_bad_points_are_errors(likelihood, change, message):
    point = dict(likelihood.injection)
    for k, v in change.items():
        if v is None:
            del point[k]
        else:
            point[k] = v
    with pytest.raises(ValueError, match=message):
        likelihood.log_likelihood_ratio(point)


def test_bad_settings_are_errors(likelihood):
    with pytest.raises(ValueError, match="method"):
        likelihood.log_likelihood_ratio(likelihood.injection, method="fast")
    with pytest.raises(ValueError, match="unknown field `num_draw`"):
        tdpe.Likelihood("default", overrides={"sampler.num_draw": 10})
    with pytest.raises(ValueError, match="luminosity_distance"):
        tdpe.Likelihood("default", overrides={"injection.luminosity_distance": -1.0})
    with pytest.raises(OSError, match="cannot read config file"):
        tdpe.Likelihood("no/such/run.toml")


PRECESSING_CONFIG = str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "precessing_injection.toml")

# Rough posterior widths of the precessing example's spin parameters (the rest as WIDTHS).
PRECESSING_WIDTHS = dict(WIDTHS, a_1=0.1, a_2=0.1, tilt_1=0.1, tilt_2=0.1, phi_12=0.1, phi_jl=0.1)


@pytest.fixture(scope="module")
def precessing():
    """The precessing example's likelihood (IMRPhenomTPHM, 15 parameters), set up once."""
    return tdpe.Likelihood(PRECESSING_CONFIG)


def test_a_precessing_analysis_takes_bilbys_precessing_parameters(precessing, tdpe_binary, tmp_path):
    names = precessing.parameter_names
    assert names == [
        "chirp_mass", "mass_ratio", "a_1", "a_2", "tilt_1", "tilt_2", "phi_12", "phi_jl",
        "luminosity_distance", "theta_jn", "psi", "phase", "geocent_time", "ra", "dec",
    ]
    assert set(precessing.injection) == set(names)
    rng = np.random.default_rng(4)
    points = {
        k: precessing.injection[k] + 0.2 * PRECESSING_WIDTHS[k] * rng.standard_normal(4)
        for k in names
    }
    cli = command_line_values(tdpe_binary, points, tmp_path / "points.csv", config=PRECESSING_CONFIG)
    np.testing.assert_array_equal(precessing.log_likelihood_ratio(points, method="exact"), cli["lnl_exact"])
    value, gradient = precessing.log_likelihood_ratio_and_gradient(points)
    assert gradient.shape == (4, 15)
    np.testing.assert_array_equal(value, cli["lnl_rb"])
    np.testing.assert_array_equal(np.sqrt(np.sum(gradient**2, axis=1)), cli["gradient_norm_rb"])
    # Aligned spins are not a precessing point.
    point = {k: v for k, v in precessing.injection.items() if k != "a_1"}
    with pytest.raises(ValueError, match="missing parameters: a_1"):
        precessing.log_likelihood_ratio(dict(point, chi_1=0.3))


def test_the_precessing_gradient_is_in_the_order_of_the_names(precessing):
    point = dict(precessing.injection)
    point["chirp_mass"] += 0.05
    point["tilt_1"] -= 0.05
    assert_gradient_is_the_derivative(precessing, point, PRECESSING_WIDTHS, rel_tol=1e-3, abs_tol=1e-1)
