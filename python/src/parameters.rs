//! Points of bilby's parameter space from Python: a dict of bilby's names to floats or 1-D
//! arrays of one length (a pandas DataFrame's columns, bilby's `likelihood.parameters`).

use anyhow::{bail, Context};
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tdpe_signal::{chirp_mass_and_ratio, Parameter, ParameterVector, SpinModel};

/// The points of a dict, and whether every value was a scalar (then the answer is a scalar).
pub struct Points {
    /// Each point, geocent_time as given (GPS s).
    pub points: Vec<ParameterVector>,
    /// Whether every value was a float (then the answer is a float, not an array).
    pub scalar: bool,
}

/// One parameter's values: a scalar, or an array.
enum Values {
    Scalar(f64),
    Array(Vec<f64>),
}

impl Values {
    fn of(value: &Bound<'_, PyAny>) -> anyhow::Result<Self> {
        if let Ok(x) = value.extract::<f64>() {
            return Ok(Self::Scalar(x));
        }
        if let Ok(array) = value.extract::<PyReadonlyArray1<'_, f64>>() {
            return Ok(Self::Array(array.as_array().to_vec()));
        }
        // Lists, pandas Series and arrays of other dtypes: through numpy's float64.
        let numpy = value.py().import("numpy")?;
        let array = numpy
            .call_method1("asarray", (value, "float64"))
            .context("not a number or a 1-D array of numbers")?;
        let array: PyReadonlyArray1<'_, f64> = array
            .extract()
            .map_err(|_| anyhow::anyhow!("not a number or a 1-D array of numbers"))?;
        Ok(Self::Array(array.as_array().to_vec()))
    }

    fn len(&self) -> Option<usize> {
        match self {
            Self::Scalar(_) => None,
            Self::Array(a) => Some(a.len()),
        }
    }

    fn at(&self, i: usize) -> f64 {
        match self {
            Self::Scalar(x) => *x,
            Self::Array(a) => a[i],
        }
    }
}

/// The parameters of an aligned-spin analysis, the module's `PARAMETER_NAMES`; a precessing
/// analysis's likelihood takes [`SpinModel::Precessing`]'s.
pub const ALIGNED_PARAMETERS: &[Parameter] = SpinModel::Aligned.parameters();

/// Reads bilby's `parameters` (an analysis's, chirp_mass and mass_ratio first) from `dict`
/// (other keys are ignored, as bilby's likelihoods ignore them). `mass_1` and `mass_2` may
/// stand for `chirp_mass` and `mass_ratio`. Every value must be finite: a NaN or an infinity is
/// an error, not a point.
pub fn points(dict: &Bound<'_, PyDict>, parameters: &[Parameter]) -> anyhow::Result<Points> {
    let get = |name: &str| -> anyhow::Result<Option<Values>> {
        dict.get_item(name)?
            .map(|v| Values::of(&v).with_context(|| format!("parameter {name}")))
            .transpose()
    };
    // The first two columns: chirp_mass and mass_ratio (the first two parameters), or mass_1
    // and mass_2 to convert.
    debug_assert_eq!(
        parameters[..2],
        [Parameter::ChirpMass, Parameter::MassRatio]
    );
    let (first, second, convert_masses) = match (get("chirp_mass")?, get("mass_ratio")?) {
        (Some(mc), Some(q)) => (mc, q, false),
        (None, None) => match (get("mass_1")?, get("mass_2")?) {
            (Some(m1), Some(m2)) => (m1, m2, true),
            _ => bail!("missing parameters: chirp_mass and mass_ratio (or mass_1 and mass_2)"),
        },
        _ => bail!("give both chirp_mass and mass_ratio, or mass_1 and mass_2"),
    };
    let mut names = if convert_masses {
        vec!["mass_1", "mass_2"]
    } else {
        vec!["chirp_mass", "mass_ratio"]
    };
    let mut columns = vec![first, second];
    let mut missing = Vec::new();
    for name in parameters[2..].iter().map(|p| p.name()) {
        match get(name)? {
            Some(v) => {
                names.push(name);
                columns.push(v);
            }
            None => missing.push(name),
        }
    }
    if !missing.is_empty() {
        bail!("missing parameters: {}", missing.join(", "));
    }
    let lengths: Vec<(usize, &str)> = columns
        .iter()
        .zip(&names)
        .filter_map(|(c, n)| c.len().map(|l| (l, *n)))
        .collect();
    let n = match lengths.first() {
        None => 1,
        Some(&(n, name)) => {
            if let Some((m, other)) = lengths.iter().find(|(m, _)| *m != n) {
                bail!(
                    "{name} has {n} values but {other} has {m}: the arrays must be of one length"
                );
            }
            n
        }
    };
    let mut points = Vec::with_capacity(n);
    for i in 0..n {
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        // Column j holds parameters[j] (the masses to convert in the first two).
        for (&parameter, (column, name)) in parameters.iter().zip(columns.iter().zip(&names)) {
            let x = column.at(i);
            if !x.is_finite() {
                bail!("{name} = {x} at point {i}: every parameter must be finite");
            }
            theta[parameter] = x;
        }
        if convert_masses {
            let (m1, m2) = (theta[Parameter::ChirpMass], theta[Parameter::MassRatio]);
            if !(m1 > 0.0 && m2 > 0.0) {
                bail!("mass_1 = {m1}, mass_2 = {m2} at point {i}: masses must be positive");
            }
            let (mc, q) = chirp_mass_and_ratio(m1, m2);
            theta[Parameter::ChirpMass.index()] = mc;
            theta[Parameter::MassRatio.index()] = q;
        }
        points.push(theta);
    }
    Ok(Points {
        points,
        scalar: lengths.is_empty(),
    })
}
