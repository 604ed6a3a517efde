//! A precessing binary's node coefficients and their gradient (docs/precession.md §12.7): the
//! co-precessing terms with a node at each distinct node time, and the chain rule through them.

use num_complex::Complex64;
use tdpe_phenomt::ModeSelection;
use tdpe_signal::{
    BbhParameters, ComponentAdjoint, ParameterVector, PrecessingSource, COPRECESSING_MODES,
};

use super::{BbhRelativeBinning, DetectorScratch, DetectorSummary};
use crate::bbh::frame::PrecessingFrame;
use crate::error::LikelihoodError;
use crate::relative_binning::RbError;

impl DetectorSummary {
    /// [`Self::coefficients`] of a precessing trial arriving at `shift`, its antenna patterns
    /// in `s.antenna`.
    pub(super) fn precessing_coefficients(
        &self,
        source: &PrecessingSource<f64>,
        shift: f64,
        s: &mut DetectorScratch,
    ) {
        let antenna = s.antenna.antenna;
        let mut terms = std::mem::take(&mut s.terms);
        self.precessing_terms(shift, s, &mut terms, |t, wanted| {
            source
                .components(antenna, t, wanted)
                .map(|(re, im)| Complex64::new(re, im))
        });
        self.gather(&terms, |z| *z, s);
        s.terms = terms;
    }

    /// A precessing trial arriving at `shift`: `term` (its terms at a time relative to its
    /// peak, of the modes given) at each distinct node time moved by the whole-sample shift,
    /// into `terms`, for the modes with a node there.
    pub(super) fn precessing_terms<Z>(
        &self,
        shift: f64,
        s: &mut DetectorScratch,
        terms: &mut Vec<[Z; COPRECESSING_MODES]>,
        term: impl Fn(f64, &ModeSelection) -> [Z; COPRECESSING_MODES],
    ) {
        s.shift = self.sample_shift(shift);
        let offset = s.shift as f64 * self.dt - shift;
        terms.clear();
        terms.extend(
            self.distinct_times
                .iter()
                .map(|(t, wanted)| term(t + offset, wanted)),
        );
    }

    /// c_jb = z_j(t_jb)/v_jb from the `terms` at the distinct node times, `value` taking a
    /// term's value.
    pub(super) fn gather<Z>(
        &self,
        terms: &[[Z; COPRECESSING_MODES]],
        value: impl Fn(&Z) -> Complex64,
        s: &mut DetectorScratch,
    ) {
        s.c.clear();
        let mut place = self.place.iter();
        for basis in &self.bases {
            for (inv_v, &at) in basis.inverse_fiducial.iter().zip(place.by_ref()) {
                s.c.push(value(&terms[at][basis.mode]) * inv_v);
            }
        }
    }
}

impl BbhRelativeBinning {
    /// [`Self::with_adjoint`] for a precessing binary: each distinct node time's five terms
    /// with their gradients, and with w_jb = g_jb/v_jb,
    /// d ln L = Re Σ_jb w_jb dz_j(t_jb − t_c − τ_k), through the source, the antenna patterns
    /// and the time (docs/precession.md §12.7).
    pub(super) fn with_precessing_derivatives(
        &self,
        frame: &PrecessingFrame,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
        adjoints: impl FnOnce(&[DetectorSummary], &mut [DetectorScratch]) -> Result<f64, RbError>,
    ) -> Result<f64, LikelihoodError> {
        let source = frame.gradient_source(&self.model, p)?;
        self.with_node_derivatives(
            p,
            gradient,
            |det, ds, shift| {
                let antenna = ds.antenna.antenna;
                let mut components = std::mem::take(&mut ds.components);
                det.precessing_terms(shift, ds, &mut components, |t, wanted| {
                    source.components(antenna, t, wanted)
                });
                det.gather(&components, |z| z.value, ds);
                ds.components = components;
            },
            adjoints,
            |det, ds, gradient| {
                let mut adjoint = ComponentAdjoint::default();
                let mut node = det.place.iter().zip(&ds.g);
                for basis in &det.bases {
                    for (inv_v, (&at, g)) in basis.inverse_fiducial.iter().zip(node.by_ref()) {
                        adjoint.add(g * inv_v, &ds.components[at][basis.mode]);
                    }
                }
                adjoint.add_to(&ds.antenna, p, gradient);
            },
        )
    }
}
