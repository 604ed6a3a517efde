//! Antenna patterns F₊, F× and their derivatives.
//!
//! F₊ = Xᵀ D X − Yᵀ D Y and F× = Xᵀ D Y + Yᵀ D X, with the polarisation basis X, Y of eqs. (B4),
//! (B5) of Anderson, Brady, Creighton & Flanagan, PRD 63 042003 (2001), as implemented in LAL's
//! `XLALComputeDetAMResponse` (`lal/lib/tools/DetResponse.c`). The source direction enters
//! through the Greenwich hour angle gha = GMST − ra.
//!
//! Writing a = (−sin gha, −cos gha, 0) and b = (−cos gha sin δ, sin gha sin δ, cos δ),
//! X = cos ψ a + sin ψ b and Y = −sin ψ a + cos ψ b, so ∂X/∂ψ = Y and ∂Y/∂ψ = −X, hence
//! ∂F₊/∂ψ = 2F× and ∂F×/∂ψ = −2F₊. The ra and dec derivatives follow from ∂a, ∂b.

use crate::site::Detector;

/// Antenna-pattern values (dimensionless).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AntennaPattern {
    /// F₊.
    pub plus: f64,
    /// F×.
    pub cross: f64,
}

/// Antenna patterns and their first derivatives with respect to right ascension, declination
/// and polarisation angle (all at fixed GMST; ∂/∂GMST = −∂/∂ra).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AntennaPatternDerivatives {
    /// F₊ and F×.
    pub value: AntennaPattern,
    /// ∂F/∂ra (rad⁻¹).
    pub d_ra: AntennaPattern,
    /// ∂F/∂dec (rad⁻¹).
    pub d_dec: AntennaPattern,
    /// ∂F/∂ψ (rad⁻¹).
    pub d_psi: AntennaPattern,
}

#[inline]
fn quad(d: &[[f64; 3]; 3], u: &[f64; 3], v: &[f64; 3]) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += u[i] * (d[i][0] * v[0] + d[i][1] * v[1] + d[i][2] * v[2]);
    }
    s
}

struct Basis {
    x: [f64; 3],
    y: [f64; 3],
    /// ∂X/∂gha, ∂Y/∂gha
    x_gha: [f64; 3],
    y_gha: [f64; 3],
    /// ∂X/∂dec, ∂Y/∂dec
    x_dec: [f64; 3],
    y_dec: [f64; 3],
}

fn basis(ra: f64, dec: f64, psi: f64, gmst: f64) -> Basis {
    let gha = gmst - ra;
    let (singha, cosgha) = gha.sin_cos();
    let (sindec, cosdec) = dec.sin_cos();
    let (sinpsi, cospsi) = psi.sin_cos();
    // Eqs. (B4), (B5) of ABCF, written exactly as in XLALComputeDetAMResponse.
    let x = [
        -cospsi * singha - sinpsi * cosgha * sindec,
        -cospsi * cosgha + sinpsi * singha * sindec,
        sinpsi * cosdec,
    ];
    let y = [
        sinpsi * singha - cospsi * cosgha * sindec,
        sinpsi * cosgha + cospsi * singha * sindec,
        cospsi * cosdec,
    ];
    // ∂a/∂gha = (−cos gha, sin gha, 0); ∂b/∂gha = (sin gha sin δ, cos gha sin δ, 0);
    // ∂a/∂δ = 0; ∂b/∂δ = (−cos gha cos δ, sin gha cos δ, −sin δ).
    let a_g = [-cosgha, singha, 0.0];
    let b_g = [singha * sindec, cosgha * sindec, 0.0];
    let b_d = [-cosgha * cosdec, singha * cosdec, -sindec];
    let mut x_gha = [0.0; 3];
    let mut y_gha = [0.0; 3];
    let mut x_dec = [0.0; 3];
    let mut y_dec = [0.0; 3];
    for i in 0..3 {
        x_gha[i] = cospsi * a_g[i] + sinpsi * b_g[i];
        y_gha[i] = -sinpsi * a_g[i] + cospsi * b_g[i];
        x_dec[i] = sinpsi * b_d[i];
        y_dec[i] = cospsi * b_d[i];
    }
    Basis {
        x,
        y,
        x_gha,
        y_gha,
        x_dec,
        y_dec,
    }
}

impl Detector {
    /// F₊, F× for a source at (ra, dec) (rad) with polarisation angle ψ (rad) when the
    /// Greenwich mean sidereal time is `gmst` (rad), as `XLALComputeDetAMResponse`.
    pub fn antenna_pattern(&self, ra: f64, dec: f64, psi: f64, gmst: f64) -> AntennaPattern {
        let b = basis(ra, dec, psi, gmst);
        let d = &self.tensor;
        AntennaPattern {
            plus: quad(d, &b.x, &b.x) - quad(d, &b.y, &b.y),
            cross: quad(d, &b.x, &b.y) + quad(d, &b.y, &b.x),
        }
    }

    /// F₊, F× and their closed-form derivatives with respect to ra, dec and ψ.
    pub fn antenna_pattern_derivatives(
        &self,
        ra: f64,
        dec: f64,
        psi: f64,
        gmst: f64,
    ) -> AntennaPatternDerivatives {
        let b = basis(ra, dec, psi, gmst);
        let d = &self.tensor;
        let value = AntennaPattern {
            plus: quad(d, &b.x, &b.x) - quad(d, &b.y, &b.y),
            cross: quad(d, &b.x, &b.y) + quad(d, &b.y, &b.x),
        };
        // D symmetric: ∂(XᵀDX) = 2 XᵀD ∂X, ∂(XᵀDY + YᵀDX) = 2(∂XᵀDY + XᵀD∂Y).
        let d_gha = AntennaPattern {
            plus: 2.0 * (quad(d, &b.x, &b.x_gha) - quad(d, &b.y, &b.y_gha)),
            cross: 2.0 * (quad(d, &b.x_gha, &b.y) + quad(d, &b.x, &b.y_gha)),
        };
        let d_dec = AntennaPattern {
            plus: 2.0 * (quad(d, &b.x, &b.x_dec) - quad(d, &b.y, &b.y_dec)),
            cross: 2.0 * (quad(d, &b.x_dec, &b.y) + quad(d, &b.x, &b.y_dec)),
        };
        AntennaPatternDerivatives {
            value,
            d_ra: AntennaPattern {
                plus: -d_gha.plus,
                cross: -d_gha.cross,
            },
            d_dec,
            d_psi: AntennaPattern {
                plus: 2.0 * value.cross,
                cross: -2.0 * value.plus,
            },
        }
    }
}
