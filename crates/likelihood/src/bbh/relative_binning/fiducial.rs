//! The fiducial's modes in each detector, against which design waveforms are compared and
//! whose nodes the refinement places (docs/likelihood.md §3.5, §3.12).

use num_complex::Complex64;
use tdpe_noise::ToeplitzInverse;
use tdpe_phenomt::{Mode, EVERY_MODE};
use tdpe_signal::{BbhParameters, SignalModel, SpinModel};

use super::SUPPORT_FLOOR;
use crate::bbh::design::DetectorFiducial;
use crate::bbh::exact::BbhExactLikelihood;
use crate::bbh::frame::PrecessingFrame;
use crate::error::LikelihoodError;
use crate::grid::SampleGrid;
use crate::relative_binning::snr_weights;

/// One mode in one detector: the fiducial series v_i = W_lm(t_i − t_c0 − τ_k0), the last
/// sample of its support (where |v| is above [`SUPPORT_FLOOR`] of its peak) and the SNR²
/// density.
pub(super) type FiducialSeries = (Vec<Complex64>, usize, Vec<f64>);

/// C⁻¹ of every detector of `exact`, in the model's order.
pub(super) fn noise_inverses(exact: &BbhExactLikelihood) -> Vec<&ToeplitzInverse> {
    let like = exact.likelihood();
    (0..exact.model().detectors().len())
        .map(|k| like.noise(k).as_ref())
        .collect()
}

/// Grid of inclinations and polarisations over which a higher mode's largest |Q_k,lm| is
/// taken (θ_jn in [0, π], ψ in [0, π/2), where Q's modulus repeats).
const ORIENTATIONS: (usize, usize) = (33, 8);

/// The [`FiducialSeries`] of every detector (outer) and mode (inner, the model's order).
///
/// A mode's SNR² density, which weighs its node refinement, takes the fiducial's Q_k,22 for
/// the (2,2) mode, and for a higher mode the largest |Q_k,lm| over inclination and
/// polarisation at the fiducial's distance and sky position: the posterior's inclination may
/// be far from the fiducial's where the higher modes are weak, and a mode's nodes must serve
/// every inclination a sampler visits (docs/likelihood.md §3.12).
///
/// A precessing binary's series are its five co-precessing terms z_lm′ in each detector
/// (docs/precession.md §12.7) on its `frame`, each weighted by its own SNR² density: the terms
/// carry the view and the antenna patterns.
pub(super) fn fiducial_series(
    exact: &BbhExactLikelihood,
    model: &SignalModel,
    fiducial: &BbhParameters,
    frame: Option<&PrecessingFrame>,
) -> Result<Vec<Vec<FiducialSeries>>, LikelihoodError> {
    let like = exact.likelihood();
    let grid = like.grid();
    if let Some(frame) = frame {
        let source = frame.source(model, fiducial)?;
        return (0..model.detectors().len())
            .map(|k| {
                let a = model.antenna(k, fiducial);
                let terms: Vec<_> = (0..grid.len)
                    .map(|i| {
                        let t = grid.time(i) - fiducial.geocent_time - a.delay;
                        source.components(a.antenna, t, &EVERY_MODE)
                    })
                    .collect();
                (0..terms[0].len())
                    .map(|j| {
                        let v = terms.iter().map(|z| Complex64::new(z[j].0, z[j].1));
                        series_of(
                            v.collect(),
                            Complex64::new(1.0, 0.0),
                            model,
                            j,
                            like.noise(k).as_ref(),
                        )
                    })
                    .collect()
            })
            .collect();
    }
    let (mc, q, chi_1, chi_2) = (
        fiducial.chirp_mass,
        fiducial.mass_ratio,
        fiducial.chi_1,
        fiducial.chi_2,
    );
    let waveform = model.waveform(mc, q, chi_1, chi_2)?;
    let modes = (!model.is_22_only())
        .then(|| model.mode_waveform(mc, q, chi_1, chi_2))
        .transpose()?;
    (0..model.detectors().len())
        .map(|k| {
            let proj = model.projection(k, fiducial).value;
            let time = |i: usize| grid.time(i) - fiducial.geocent_time - proj.delay;
            (0..model.modes().len())
                .map(|j| {
                    let (v, factor): (Vec<Complex64>, _) = match &modes {
                        // A higher mode; the (2,2) basis (below) is IMRPhenomT's, as without them.
                        Some(modes) if model.modes()[j] != Mode::L2M2 => (
                            (0..grid.len)
                                .map(|i| {
                                    let (re, im) = modes.mode_at(j, time(i));
                                    Complex64::new(re, im)
                                })
                                .collect(),
                            Complex64::new(largest_mode_factor(model, k, j, fiducial), 0.0),
                        ),
                        _ => (
                            (0..grid.len)
                                .map(|i| {
                                    let m = waveform.mode22(time(i));
                                    Complex64::from_polar(m.amplitude, -m.phase)
                                })
                                .collect(),
                            proj.factor,
                        ),
                    };
                    series_of(v, factor, model, j, like.noise(k).as_ref())
                })
                .collect()
        })
        .collect()
}

/// Mode `j`'s [`FiducialSeries`] of its series `v`, whose SNR² density takes `factor`, in a
/// detector with noise C⁻¹ `noise`.
fn series_of(
    v: Vec<Complex64>,
    factor: Complex64,
    model: &SignalModel,
    j: usize,
    noise: &ToeplitzInverse,
) -> Result<FiducialSeries, LikelihoodError> {
    let peak = v.iter().fold(0.0_f64, |m, z| m.max(z.norm()));
    if peak == 0.0 {
        let (l, m) = model.modes()[j].lm();
        let remedy = match model.spin_model() {
            SpinModel::Aligned => "leave it out of mode_array",
            // A mode array is no option: another fiducial breaks the symmetry.
            SpinModel::Precessing => "move the fiducial off equal masses and spins",
        };
        return Err(LikelihoodError::InvalidInput(format!(
            "mode ({l},{m}) of the relative binning's fiducial vanishes (equal masses and \
             spins): {remedy}"
        )));
    }
    let last = v
        .iter()
        .rposition(|z| z.norm() > SUPPORT_FLOOR * peak)
        .unwrap_or(v.len() - 1);
    let weights = snr_weights(&v, factor, noise)?;
    Ok((v, last, weights))
}

/// The largest |Q_k,lm| of mode `j` over the inclinations and polarisations of
/// [`ORIENTATIONS`], at `p`'s distance and sky position.
fn largest_mode_factor(model: &SignalModel, k: usize, j: usize, p: &BbhParameters) -> f64 {
    let (inclinations, polarisations) = ORIENTATIONS;
    let mut largest = 0.0_f64;
    for a in 0..inclinations {
        for b in 0..polarisations {
            let turned = BbhParameters {
                theta_jn: std::f64::consts::PI * a as f64 / (inclinations - 1) as f64,
                psi: std::f64::consts::FRAC_PI_2 * b as f64 / polarisations as f64,
                ..*p
            };
            largest = largest.max(model.mode_projections(k, &turned)[j].value.factor.norm());
        }
    }
    largest
}

/// Each detector's fiducial modes (outer: detectors; inner: modes), against which design
/// waveforms are compared.
pub(super) fn detector_fiducials<'a>(
    model: &'a SignalModel,
    grid: &'a SampleGrid,
    fiducial: &'a BbhParameters,
    series: &'a [Vec<FiducialSeries>],
    frame: Option<PrecessingFrame>,
) -> Vec<Vec<DetectorFiducial<'a>>> {
    series
        .iter()
        .enumerate()
        .map(|(k, modes)| {
            modes
                .iter()
                .enumerate()
                .map(|(mode, (v, last, weights))| DetectorFiducial {
                    model,
                    grid,
                    params: fiducial,
                    k,
                    mode,
                    series: v,
                    support: 0..=*last,
                    weights,
                    frame,
                })
                .collect()
        })
        .collect()
}
