//! `tdpe.Likelihood`: the exact and the relative-binning log-likelihood ratio of a run's data,
//! and the gradient of the latter, at points given as bilby parameter dicts (docs/python.md).
//!
//! The set-up is `tdpe run`'s and `tdpe likelihood`'s (`Problem::set_up`, then the fiducial
//! point and relative binning of `relative_binning_at_fiducial`), so the numbers are the ones
//! the sampler and the command line see.

use std::sync::atomic::AtomicBool;

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use tdpe::problem::Problem;
use tdpe::run::relative_binning_at_fiducial;
use tdpe_likelihood::BbhRelativeBinning;
use tdpe_posterior::prior::GW150914_LIKE_PRIOR;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, NUM_PARAMETERS};

use crate::parameters::points;
use crate::{config, to_py_err};

/// Which likelihood to evaluate.
#[derive(Clone, Copy)]
enum Method {
    RelativeBinning,
    Exact,
}

impl Method {
    fn parse(name: &str) -> PyResult<Self> {
        match name {
            "relative_binning" => Ok(Self::RelativeBinning),
            "exact" => Ok(Self::Exact),
            other => Err(PyValueError::new_err(format!(
                "method = {other:?}: use \"relative_binning\" or \"exact\""
            ))),
        }
    }
}

/// The likelihood of a run configuration's data: `Likelihood("default")` is the default run's
/// GW150914-like injection; `Likelihood("run.toml", overrides={"sampler.seed": 2})` any
/// configuration `tdpe run` takes. The set-up (data, PSDs, the fiducial point, relative
/// binning) happens once, here.
///
/// Points are dicts of bilby's parameter names (chirp_mass and mass_ratio, or mass_1 and
/// mass_2, in M☉ in the detector frame; chi_1, chi_2, or for a precessing analysis
/// (IMRPhenomTPHM) a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl; luminosity_distance in Mpc;
/// theta_jn, psi, phase, ra, dec in rad; geocent_time in GPS s) to floats, or to 1-D arrays of
/// one length for many points at once (evaluated in parallel, the GIL released). A point
/// outside the waveform model's range gets ln L = -inf (and a NaN gradient), as the sampler
/// treats it.
#[pyclass(frozen, module = "tdpe._native")]
pub struct Likelihood {
    problem: Problem,
    relative_binning: BbhRelativeBinning,
    fiducial: ParameterVector,
    /// The analysis's parameters, in the order of the gradient.
    parameters: &'static [Parameter],
}

/// The answer for a point where the likelihood cannot be evaluated.
const UNEVALUABLE: f64 = f64::NEG_INFINITY;

impl Likelihood {
    /// `theta` with geocent_time relative to the run's epoch, as the likelihoods take it.
    fn relative(&self, absolute: &ParameterVector) -> BbhParameters {
        let mut theta = *absolute;
        theta[Parameter::GeocentTime.index()] -= self.problem.epoch.as_f64();
        BbhParameters::from_array(theta)
    }

    fn value(&self, absolute: &ParameterVector, method: Method) -> f64 {
        let p = self.relative(absolute);
        let value = match method {
            Method::RelativeBinning => self.relative_binning.log_likelihood_ratio(&p),
            Method::Exact => self.problem.exact().log_likelihood_ratio(&p),
        };
        value.ok().filter(|v| v.is_finite()).unwrap_or(UNEVALUABLE)
    }

    /// ln L and its gradient in the analysis's parameters.
    fn value_and_gradient(&self, absolute: &ParameterVector) -> (f64, Vec<f64>) {
        let p = self.relative(absolute);
        let mut gradient = [0.0; NUM_PARAMETERS];
        match self
            .relative_binning
            .log_likelihood_ratio_and_gradient(&p, &mut gradient)
        {
            Ok(v) if v.is_finite() => (v, self.parameters.iter().map(|&p| gradient[p]).collect()),
            _ => (UNEVALUABLE, vec![f64::NAN; self.parameters.len()]),
        }
    }

    /// A bilby-style dict of one point (geocent_time in GPS s).
    fn point_dict<'py>(
        &self,
        py: Python<'py>,
        theta: &ParameterVector,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for &parameter in self.parameters {
            let mut x = theta[parameter];
            if parameter == Parameter::GeocentTime {
                x += self.problem.epoch.as_f64();
            }
            dict.set_item(parameter.name(), x)?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl Likelihood {
    /// Sets up the likelihood of `config` (a TOML file's path, or "default") with `overrides`
    /// (dotted keys, e.g. {"injection.luminosity_distance": 800}).
    #[new]
    #[pyo3(signature = (config = "default", overrides = None))]
    fn new(py: Python<'_>, config: &str, overrides: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let config = config::load(config, overrides)?;
        py.detach(|| {
            let problem = Problem::set_up(config)?;
            let parameters = problem.priors().spin_model.parameters();
            let (fiducial, relative_binning, _) =
                relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false))?;
            Ok(Self {
                problem,
                relative_binning,
                fiducial: fiducial.theta,
                parameters,
            })
        })
        .map_err(to_py_err)
    }

    /// ln L, the log-likelihood ratio against noise alone, at `parameters` (a float for a
    /// point of floats, else an array): by relative binning (the sampler's likelihood) or
    /// exactly (the Toeplitz likelihood of the whole segment, ~1000× slower).
    #[pyo3(signature = (parameters, method = "relative_binning"))]
    fn log_likelihood_ratio<'py>(
        &self,
        py: Python<'py>,
        parameters: &Bound<'py, PyDict>,
        method: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let method = Method::parse(method)?;
        let points = points(parameters, self.parameters).map_err(to_py_err)?;
        let values: Vec<f64> = py.detach(|| {
            points
                .points
                .par_iter()
                .map(|theta| self.value(theta, method))
                .collect()
        });
        if points.scalar {
            Ok(values[0].into_pyobject(py)?.into_any())
        } else {
            Ok(values.into_pyarray(py).into_any())
        }
    }

    /// ln L by relative binning and its exact gradient with respect to the parameters in the
    /// order of `parameter_names` (chirp_mass and mass_ratio, whichever masses were given):
    /// (float, array of p) for a point of floats, else (array of n, array of n × p), with p the
    /// number of parameters (11 aligned, 15 precessing).
    fn log_likelihood_ratio_and_gradient<'py>(
        &self,
        py: Python<'py>,
        parameters: &Bound<'py, PyDict>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let points = points(parameters, self.parameters).map_err(to_py_err)?;
        let answers: Vec<(f64, Vec<f64>)> = py.detach(|| {
            points
                .points
                .par_iter()
                .map(|theta| self.value_and_gradient(theta))
                .collect()
        });
        if points.scalar {
            let (value, gradient) = &answers[0];
            return Ok((
                value.into_pyobject(py)?.into_any(),
                PyArray1::from_slice(py, gradient).into_any(),
            ));
        }
        let values: Vec<f64> = answers.iter().map(|a| a.0).collect();
        let gradients: Vec<Vec<f64>> = answers.iter().map(|a| a.1.clone()).collect();
        Ok((
            values.into_pyarray(py).into_any(),
            PyArray2::from_vec2(py, &gradients)?.into_any(),
        ))
    }

    /// -½ Σ_k ⟨d_k|d_k⟩ − ½ Σ_k ln det(2π C_k): the log-likelihood of the data as noise alone,
    /// bilby's `noise_log_likelihood`; ln L(θ) = this + `log_likelihood_ratio(θ)`.
    fn noise_log_likelihood(&self) -> f64 {
        self.problem.exact().likelihood().noise_log_likelihood()
    }

    /// bilby's names of the likelihood's parameters, in the order of the gradient.
    #[getter]
    fn parameter_names(&self) -> Vec<&'static str> {
        self.parameters.iter().map(|p| p.name()).collect()
    }

    /// The point relative binning is built around (the injection, or the maximum-likelihood
    /// search on real data), as a dict.
    #[getter]
    fn fiducial<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.point_dict(py, &self.fiducial)
    }

    /// The injected parameters, as a dict, or None for data that are not an injection.
    #[getter]
    fn injection<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.problem
            .injection
            .map(|p| self.point_dict(py, &p.to_array()))
            .transpose()
    }

    /// The detectors, in the order of the configuration.
    #[getter]
    fn detectors(&self) -> Vec<String> {
        self.problem.config.detectors.clone()
    }

    /// The trigger time (GPS s), the epoch of the run's times.
    #[getter]
    fn trigger_time(&self) -> f64 {
        self.problem.epoch.as_f64()
    }

    /// The text of the configuration's prior file (bilby's syntax; the embedded default's for
    /// `prior_file = "default"`), for bilby's `PriorDict`.
    #[getter]
    fn prior_text(&self) -> PyResult<String> {
        let config = &self.problem.config;
        if config.prior_file == "default" {
            return Ok(GW150914_LIKE_PRIOR.to_string());
        }
        let path = config.resolve(&config.prior_file);
        std::fs::read_to_string(&path).map_err(|e| {
            to_py_err(anyhow::Error::new(e).context(format!("cannot read {}", path.display())))
        })
    }

    /// Each detector's analysed strain: detector name → samples from `start_time`, one every
    /// 1/`sampling_frequency` s (the injection with its noise, or the data read).
    #[getter]
    fn strain<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let exact = self.problem.exact().likelihood();
        for (k, name) in self.problem.config.detectors.iter().enumerate() {
            out.set_item(name, PyArray1::from_slice(py, exact.data(k)))?;
        }
        Ok(out)
    }

    /// Each detector's PSD as tabulated: detector name → (frequencies in Hz, PSD in 1/Hz).
    #[getter]
    fn psds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (name, psd) in self.problem.config.detectors.iter().zip(&self.problem.psds) {
            let pair = (
                PyArray1::from_slice(py, psd.frequencies()),
                PyArray1::from_slice(py, psd.values()),
            );
            out.set_item(name, pair)?;
        }
        Ok(out)
    }

    /// The GPS time of the segment's first sample (s).
    #[getter]
    fn start_time(&self) -> f64 {
        self.problem.epoch.as_f64() + self.problem.grid.start
    }

    /// The sampling frequency of the strain (Hz).
    #[getter]
    fn sampling_frequency(&self) -> f64 {
        1.0 / self.problem.grid.dt
    }

    /// The text of the embedded default prior file (`prior_file = "default"`).
    #[staticmethod]
    fn default_prior_text() -> &'static str {
        GW150914_LIKE_PRIOR
    }

    /// Relative binning's nodes per detector.
    #[getter]
    fn node_counts(&self) -> Vec<usize> {
        self.relative_binning.node_counts()
    }

    fn __repr__(&self) -> String {
        format!(
            "tdpe.Likelihood(detectors={:?}, trigger_time={}, nodes={:?})",
            self.problem.config.detectors,
            self.problem.epoch.as_f64(),
            self.relative_binning.node_counts()
        )
    }
}
