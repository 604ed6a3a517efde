//! Reconstruct-and-apply (docs/likelihood.md §3.7): interpolate the template onto all
//! N samples and apply C⁻¹ by Gohberg–Semencul. Mathematically identical to the dense form
//! ([`SummaryData`](super::SummaryData), since P = UᴴC⁻¹U), with no B² at all: O(N log N) per
//! call and O(N) memory. It is the validation path of the dense form and the fallback when B
//! must be large (long signals, many modes).
//!
//! h_i = Re[v_i Σ_b c_b ψ_b(i)],  ln L = Re(cᵀa) − ½hᵀ(C⁻¹h),
//! g_b = a_b − u_bᵀ(C⁻¹h) = a_b − Σ_i ψ_b(i) v_i (C⁻¹h)_i   (d ln L = Re Σ_b g_b dc_b).

use super::basis::{project, synthesize};
use super::error::{check_len, RbError};
use super::evaluate::{check_coefficients, data_product};
use super::nodes::NodeSet;
use super::summary::{data_projection, validate_inputs, Basis};
use num_complex::Complex64;
use std::sync::Arc;
use tdpe_noise::{GsWorkspace, ToeplitzInverse};

/// The relative-binning likelihood of one detector evaluated by reconstruct-and-apply.
#[derive(Debug, Clone)]
pub struct ReconstructedLikelihood {
    nodes: NodeSet,
    fiducial: Vec<Complex64>,
    /// a_b = Σ_i (C⁻¹d)_i u_b(i), as in the dense form.
    a: Vec<Complex64>,
    noise: Arc<ToeplitzInverse>,
}

/// Scratch for [`ReconstructedLikelihood`] evaluations (one per thread).
#[derive(Debug, Clone)]
pub struct ReconstructWorkspace {
    h: Vec<f64>,
    kh: Vec<f64>,
    gs: GsWorkspace,
    proj: Vec<Complex64>,
}

impl ReconstructedLikelihood {
    /// Same inputs and checks as [`SummaryData::new`](super::SummaryData::new); keeps the
    /// fiducial (N complex) and C⁻¹. One C⁻¹ apply.
    pub fn new(
        fiducial: &[Complex64],
        data: &[f64],
        noise: Arc<ToeplitzInverse>,
        nodes: NodeSet,
    ) -> Result<Self, RbError> {
        validate_inputs(fiducial, data, &noise, &nodes)?;
        let basis = Basis {
            fiducial,
            nodes: nodes.clone(),
        };
        let a = data_projection(&[basis], data, &noise, &(0..=0))?;
        Ok(Self {
            nodes,
            fiducial: fiducial.to_vec(),
            a,
            noise,
        })
    }

    /// The nodes.
    pub fn nodes(&self) -> &NodeSet {
        &self.nodes
    }

    /// Scratch buffers for the evaluation methods.
    pub fn workspace(&self) -> ReconstructWorkspace {
        let n = self.noise.len();
        ReconstructWorkspace {
            h: vec![0.0; n],
            kh: vec![0.0; n],
            gs: self.noise.workspace(),
            proj: vec![Complex64::new(0.0, 0.0); self.nodes.node_count()],
        }
    }

    /// ln L = Re(cᵀa) − ½⟨h|h⟩ with h = Re[Σ_b c_b u_b] (one C⁻¹ apply; leaves h and C⁻¹h in
    /// the workspace).
    pub fn log_likelihood_ratio(
        &self,
        c: &[Complex64],
        ws: &mut ReconstructWorkspace,
    ) -> Result<f64, RbError> {
        check_coefficients(c, self.nodes.node_count())?;
        if ws.h.len() != self.noise.len() || ws.proj.len() != c.len() {
            *ws = self.workspace();
        }
        synthesize(self.nodes.indices(), &self.fiducial, c, &mut ws.h);
        self.noise.apply_into(&ws.h, &mut ws.kh, &mut ws.gs)?;
        let h_h: f64 = ws.h.iter().zip(&ws.kh).map(|(x, y)| x * y).sum();
        Ok(data_product(c, &self.a).re - 0.5 * h_h)
    }

    /// ln L and g_b = a_b − u_bᵀ(C⁻¹h) into `grad` (B + 1), d ln L = Re Σ_b g_b dc_b.
    pub fn adjoint(
        &self,
        c: &[Complex64],
        grad: &mut [Complex64],
        ws: &mut ReconstructWorkspace,
    ) -> Result<f64, RbError> {
        check_len("gradient output", grad.len(), self.nodes.node_count())?;
        let ln_l = self.log_likelihood_ratio(c, ws)?;
        project(self.nodes.indices(), &self.fiducial, &ws.kh, &mut ws.proj);
        for ((g, a), p) in grad.iter_mut().zip(&self.a).zip(&ws.proj) {
            *g = a - p;
        }
        Ok(ln_l)
    }
}
