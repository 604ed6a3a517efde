//! The gradient of relative binning (docs/likelihood.md §3.6, §3.12): the (2,2) mode's
//! reverse pass through the waveform, and forward mode with dual numbers at each node where the
//! model has higher modes.

use num_complex::Complex64;
use tdpe_phenomt::{Dual, Mode22Adjoint};
use tdpe_signal::{arrival_derivative, BbhParameters, Parameter, ParameterVector};

use super::{
    first_detectors, BbhRelativeBinning, DetectorScratch, DetectorSummary, Scratch, SCRATCH,
};
use crate::error::LikelihoodError;
use crate::relative_binning::RbError;

impl BbhRelativeBinning {
    /// Evaluates the node coefficients of every detector at `p` with the traces of the reverse
    /// pass, lets `adjoints` fill each detector's adjoint g (dF = Re Σ_b g_b dc_b) and return
    /// F, then chains g through the projection and the waveform into `gradient`.
    pub(super) fn with_adjoint(
        &self,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
        adjoints: impl FnOnce(&[DetectorSummary], &mut [DetectorScratch]) -> Result<f64, RbError>,
    ) -> Result<f64, LikelihoodError> {
        if let Some(frame) = &self.frame {
            return self.with_precessing_derivatives(frame, p, gradient, adjoints);
        }
        if !self.model.is_22_only() {
            return self.with_mode_derivatives(p, gradient, adjoints);
        }
        let seeded =
            self.model
                .waveform_with_derivatives(p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2)?;
        let waveform = seeded.values();
        let mut adjoint = Mode22Adjoint::default();
        gradient.iter_mut().for_each(|g| *g = 0.0);
        let value = SCRATCH.with_borrow_mut(|s| {
            let Scratch {
                detectors,
                amplitude_bar,
                phase_bar,
            } = s;
            let summaries = &self.cell(p).detectors;
            let detectors = first_detectors(detectors, summaries.len());
            for (k, (det, ds)) in summaries.iter().zip(detectors.iter_mut()).enumerate() {
                let shift = p.geocent_time + self.detector_response(k, p, ds);
                det.coefficients_22(&waveform, shift, ds, true);
                ds.zero_adjoint();
            }
            let value = adjoints(summaries, detectors)?;
            for ds in detectors.iter_mut() {
                // Σ_b g_b r_b carries ∂Q; Σ_b Re(g_b Q Ẇ_b/v_b) the node times' shift.
                let mut g_r = Complex64::new(0.0, 0.0);
                amplitude_bar.clear();
                phase_bar.clear();
                for b in 0..ds.c.len() {
                    g_r += ds.g[b] * ds.ratios[b];
                    let z = ds.g[b] * ds.c[b];
                    let amplitude = ds.modes[b].0.amplitude;
                    let a_bar = if amplitude > 0.0 {
                        z.re / amplitude
                    } else {
                        0.0
                    };
                    amplitude_bar.push(a_bar);
                    phase_bar.push(z.im);
                }
                let g_wdot =
                    waveform.mode22_adjoint_many(&ds.modes, amplitude_bar, phase_bar, &mut adjoint);
                let pg = &ds.projections[0];
                for parameter in Parameter::EXTRINSIC {
                    let d_shift = arrival_derivative(parameter, &pg.d_delay);
                    gradient[parameter] += (pg.d_factor[parameter] * g_r).re - g_wdot * d_shift;
                }
            }
            Ok::<_, LikelihoodError>(value)
        })?;
        let intrinsic = seeded.gradient(&adjoint);
        for (parameter, d) in Parameter::ALIGNED_INTRINSIC.into_iter().zip(intrinsic) {
            gradient[parameter] = d;
        }
        Ok(value)
    }

    /// [`Self::with_adjoint`] for a model with higher modes: forward mode instead of the (2,2)
    /// mode's reverse pass, each node evaluated in dual numbers seeded in (M_c, q, χ1, χ2)
    /// and its own time, so that
    /// d ln L = Re Σ_jb g_jb [∂Q_j r_jb + Q_j (∂_λ W_jb − Ẇ_jb (∂t_c + ∂τ_k))/v_jb].
    fn with_mode_derivatives(
        &self,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
        adjoints: impl FnOnce(&[DetectorSummary], &mut [DetectorScratch]) -> Result<f64, RbError>,
    ) -> Result<f64, LikelihoodError> {
        let waveform = self.model.mode_waveform(
            Dual::<5>::variable(p.chirp_mass, 0),
            Dual::variable(p.mass_ratio, 1),
            Dual::variable(p.chi_1, 2),
            Dual::variable(p.chi_2, 3),
        )?;
        self.with_node_derivatives(
            p,
            gradient,
            |det, ds, shift| det.coefficients_with_derivatives(&waveform, shift, ds),
            adjoints,
            |det, ds, gradient| {
                let mut g_wdot = 0.0;
                let mut first = 0;
                for (basis, q) in det.bases.iter().zip(&ds.projections) {
                    let factor = q.value.factor;
                    let nodes = first..first + basis.node_times.len();
                    first = nodes.end;
                    let mut g_r = Complex64::new(0.0, 0.0);
                    let mut g_dr = [Complex64::new(0.0, 0.0); 5];
                    for b in nodes {
                        g_r += ds.g[b] * ds.ratios[b];
                        for (sum, d) in g_dr.iter_mut().zip(&ds.ratio_derivatives[b]) {
                            *sum += ds.g[b] * d;
                        }
                    }
                    for (parameter, d) in Parameter::ALIGNED_INTRINSIC.into_iter().zip(&g_dr) {
                        gradient[parameter] += (factor * d).re;
                    }
                    g_wdot += (factor * g_dr[4]).re;
                    for parameter in Parameter::EXTRINSIC {
                        gradient[parameter] += (q.d_factor[parameter] * g_r).re;
                    }
                }
                let d_delay = &ds.projections[0].d_delay;
                for parameter in Parameter::EXTRINSIC {
                    gradient[parameter] -= g_wdot * arrival_derivative(parameter, d_delay);
                }
            },
        )
    }

    /// The frame of the forward-mode gradients (higher modes, precession): `fill` evaluates a
    /// detector's node coefficients with their derivatives at its shift t_c + τ_k (the
    /// detector's projection is then in its scratch), `adjoints` fills each detector's g and
    /// returns F, and `pull_back` adds a detector's share of dF to `gradient`, which starts
    /// at zero.
    pub(super) fn with_node_derivatives(
        &self,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
        mut fill: impl FnMut(&DetectorSummary, &mut DetectorScratch, f64),
        adjoints: impl FnOnce(&[DetectorSummary], &mut [DetectorScratch]) -> Result<f64, RbError>,
        mut pull_back: impl FnMut(&DetectorSummary, &DetectorScratch, &mut ParameterVector),
    ) -> Result<f64, LikelihoodError> {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        SCRATCH.with_borrow_mut(|s| {
            let summaries = &self.cell(p).detectors;
            let detectors = first_detectors(&mut s.detectors, summaries.len());
            for (k, (det, ds)) in summaries.iter().zip(detectors.iter_mut()).enumerate() {
                let shift = p.geocent_time + self.detector_response(k, p, ds);
                fill(det, ds, shift);
                ds.zero_adjoint();
            }
            let value = adjoints(summaries, detectors)?;
            for (det, ds) in summaries.iter().zip(detectors.iter()) {
                pull_back(det, ds, gradient);
            }
            Ok(value)
        })
    }
}
