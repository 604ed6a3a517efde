//! LAL's default spin-precession ODE for IMRPhenomTPHM (PrecVersion 300): the orbit-averaged
//! SpinTaylor precession equations driven by IMRPhenomT's own v(t), integrated by GSL's RKF45
//! with LAL's Hermite output on the waveform's grid, forwards and backwards from the reference
//! sample (docs/precession.md §4.1–4.3; LAL: `IMRPhenomTPHM_EvolveOrbit`,
//! `XLALSimIMRPhenomTPHMSpinDerivatives`, `XLALSimInspiralSpinDerivativesAvg`).
//!
//! The right-hand side is generic over [`Real`]: the smooth variant (`smooth.rs`, §5.2) pushes
//! dual numbers through it; the `lal` integration here is `f64`.

use crate::constants::{MSUN_SI, MTSUN_SI};
use crate::error::WaveformError;
use crate::gsl::{adaptive_rk45_hermite, CubicSpline, OdeSystem};
use crate::model::{IMRPhenomT, Settings};
use crate::roots::RootFinder;
use crate::scalar::Real;

/// LAL's integrator tolerances (`LAL_ST4_ABSOLUTE_TOLERANCE`, `_RELATIVE_TOLERANCE`).
const TOLERANCE: f64 = 1e-12;

/// The PN coefficients of the orbit-averaged precession equations, as
/// `XLALSimInspiralSpinTaylorT4Setup` sets them for IMRPhenomTPHM (spinO = −1, quadparam = 0,
/// lscorr = 0, phenomtp = 1): the v⁵, v⁷ and v⁹ spin–orbit terms, the orbit-averaged S1–S2 term
/// at v⁶, and |L| to 2PN (docs/precession.md §4.2). The quadrupole–monopole terms vanish with
/// quadparam = 0 and are left out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpinPrecessionCoefficients<T> {
    /// η = m̂1·m̂2.
    pub eta: T,
    /// v⁵ (leading) spin–orbit coefficients a(m̂i) = 3/2 − m̂ − m̂²/2 (`SpinDot_3PNCoeff`).
    pub leading: [T; 2],
    /// v⁷ (NNLO) spin–orbit coefficients (`SpinDot_5PNCoeff`, gr-qc/0605140 eq. 7.8).
    pub nnlo: [T; 2],
    /// v⁹ spin–orbit coefficients (`SpinDot_7PNCoeff`, arXiv:1212.5520 eq. 3.4).
    pub n4lo: [T; 2],
    /// 1PN and 2PN coefficients of |L| (`L_2PN`, `L_4PN`; arXiv:1212.5520 eq. 4.7).
    pub l_pn: [T; 2],
}

/// The orbit-averaged S1–S2 coefficients at v⁶ (`SpinDot_4PNS2CoeffAvg`, `_4PNS2OCoeffAvg`).
const S1S2_AVG: f64 = 0.5;
const S1S2_O_AVG: f64 = -1.5;

/// a × b as `XLALSimInspiralVectorCrossProduct`.
#[inline]
fn cross<T: Real>(a: [T; 3], b: [T; 3]) -> [T; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

impl<T: Real> SpinPrecessionCoefficients<T> {
    /// From the component masses in M☉ as LAL holds them (kg / `LAL_MSUN_SI`), m1 ≥ m2
    /// (`XLALSimSpinTaylorEnergySpinDerivativeSetup`).
    pub fn new(m1: T, m2: T) -> Self {
        let m = m1 + m2;
        let (m1m, m2m) = (m1 / m, m2 / m);
        let eta = m1m * m2m;
        // c·x·x·…·x (n factors of x), multiplied left to right as LAL's C writes it.
        let term = |c: f64, x: T, n: usize| (0..n).fold(T::from(c), |acc, _| acc * x);
        let leading = |x: T| T::from(1.5) - x - x * x / 2.0;
        let nnlo = |x: T| {
            T::from(9.0 / 8.0) - x / 2.0 + term(7.0, x, 2) / 12.0
                - term(7.0, x, 3) / 6.0
                - term(1.0, x, 4) / 24.0
        };
        let n4lo = |x: T| {
            term(1.0, x, 6) / 48.0
                - term(3.0 / 8.0, x, 5)
                - term(3.9 / 1.6, x, 4)
                - term(23.0 / 6.0, x, 3)
                + term(18.1 / 1.6, x, 2)
                - term(51.0 / 8.0, x, 1)
                + 2.7 / 1.6
        };
        Self {
            eta,
            leading: [leading(m1m), leading(m2m)],
            nnlo: [nnlo(m1m), nnlo(m2m)],
            n4lo: [n4lo(m1m), n4lo(m2m)],
            l_pn: [
                eta / 6.0 + 1.5,
                T::from(27.0 / 8.0) - eta * (19.0 / 8.0) + eta * eta / 24.0,
            ],
        }
    }

    /// d/dt̂ of the state y = (L̂, S1, S2, Ê1) (spins Si = m̂i²χi) at PN parameter `v`, with
    /// t̂ = t/M: `XLALSimInspiralSpinDerivativesAvg` in its operation order
    /// (docs/precession.md §4.2).
    pub fn derivatives(&self, v: T, y: &[T; 12]) -> [T; 12] {
        let ln = [y[0], y[1], y[2]];
        let s1 = [y[3], y[4], y[5]];
        let s2 = [y[6], y[7], y[8]];
        let e1 = [y[9], y[10], y[11]];
        let ln_s1 = ln[0] * s1[0] + ln[1] * s1[1] + ln[2] * s1[2];
        let ln_s2 = ln[0] * s2[0] + ln[1] * s2[1] + ln[2] * s2[2];
        let ln0 = self.eta / v;
        let v2 = v * v;
        let omega = v2 * v;
        let v5 = omega * v2;
        let omega2 = omega * omega;
        let v7 = omega2 * v;
        let omega3 = omega2 * omega;
        let v4 = v2 * v2;
        let l_x_s1 = cross(ln, s1);
        let l_x_s2 = cross(ln, s2);
        let s1_x_s2 = cross(s1, s2);
        let mut ds1 = [T::from(0.0); 3];
        let mut ds2 = [T::from(0.0); 3];
        let mut dl = [T::from(0.0); 3];
        for i in 0..3 {
            // Leading order, gr-qc/0405090 eq. 8.
            let a1 = self.leading[0] * v5 * l_x_s1[i];
            let a2 = self.leading[1] * v5 * l_x_s2[i];
            // Orbit-averaged S1–S2, gr-qc/9506022 eq. 4.17.
            let b1 = omega2 * (-(s1_x_s2[i] * S1S2_AVG) + ln_s2 * S1S2_O_AVG * l_x_s1[i]);
            let b2 = omega2 * (s1_x_s2[i] * S1S2_AVG + ln_s1 * S1S2_O_AVG * l_x_s2[i]);
            // NNLO spin–orbit, gr-qc/0605140 eq. 7.8.
            let c1 = self.nnlo[0] * v7 * l_x_s1[i];
            let c2 = self.nnlo[1] * v7 * l_x_s2[i];
            // v⁹ spin–orbit, arXiv:1212.5520 eq. 3.4.
            let d1 = self.n4lo[0] * omega3 * l_x_s1[i];
            let d2 = self.n4lo[1] * omega3 * l_x_s2[i];
            ds1[i] = a1 + b1 + c1 + d1;
            ds2[i] = a2 + b2 + c2 + d2;
            dl[i] = -(a1 + a2) + -(b1 + b2) - (c1 + c2) - (d1 + d2);
        }
        // |L| to 2PN and Ω = L̂ × ΔL/|L|.
        let l_mag = ln0 + ln0 * v2 * self.l_pn[0] + ln0 * v4 * self.l_pn[1];
        let dl = dl.map(|x| x / l_mag);
        let om = cross(ln, dl);
        let rotate = |u: [T; 3]| {
            [
                -(om[2] * u[1]) + om[1] * u[2],
                -(om[0] * u[2]) + om[2] * u[0],
                -(om[1] * u[0]) + om[0] * u[1],
            ]
        };
        let dln = rotate(ln);
        let de1 = rotate(e1);
        [
            dln[0], dln[1], dln[2], ds1[0], ds1[1], ds1[2], ds2[0], ds2[1], ds2[2], de1[0], de1[1],
            de1[2],
        ]
    }
}

/// One pass of LAL's integration: the ODE in a time τ′ with v read from the spline at
/// `offset + sign·τ′` and the derivatives multiplied by `sign`
/// (`XLALSimIMRPhenomTPHMSpinDerivatives` with `ToffSign`).
struct Pass<'a> {
    coefficients: SpinPrecessionCoefficients<f64>,
    v: &'a CubicSpline,
    offset: f64,
    sign: f64,
}

impl OdeSystem<12> for Pass<'_> {
    fn rhs(&self, t: f64, y: &[f64; 12]) -> [f64; 12] {
        let v = self.v.eval(self.offset + self.sign * t);
        self.coefficients.derivatives(v, y).map(|d| self.sign * d)
    }
}

/// The precessing binary as LAL's version 300 sets it up (`XLALSimIMRPhenomTPHM_CoprecModes`):
/// the bodies ordered m1 ≥ m2, the aligned model on the grid, and the grid's times in M.
#[derive(Clone, Debug)]
pub(crate) struct Binary {
    /// Masses in M☉ as LAL holds them (kg / `LAL_MSUN_SI`), m1 ≥ m2.
    pub m1: f64,
    pub m2: f64,
    /// The masses in kg, as passed to LAL.
    pub m1_si: f64,
    pub m2_si: f64,
    /// Spins in the L0 frame, of the heavier and the lighter body.
    pub chi1: [f64; 3],
    pub chi2: [f64; 3],
    /// IMRPhenomT for (m1, m2, χ1z, χ2z).
    pub model: IMRPhenomT<f64>,
    /// The aligned final mass in units of M (THM's `Mfinal`).
    pub final_mass: f64,
    /// η of the aligned model.
    pub eta: f64,
    pub t_min: f64,
    /// The reference time in M, clamped to max(−8Δt_M, t_min) after the peak (§2.5).
    pub t_ref: f64,
    pub dt_m: f64,
    /// Number of samples N of the grid.
    pub length: usize,
    pub settings: Settings,
}

pub(crate) fn out_of_range(name: &'static str, value: f64, allowed: &'static str) -> WaveformError {
    WaveformError::OutOfRange {
        name,
        value,
        allowed,
    }
}

/// The reference frequency of a precessing model, which must be 0 (for f_min) or at least f_min:
/// the spins are given there and the spin evolution starts there (LAL refuses the rest as
/// `XLALSimIMRPhenomTPHM_CoprecModes` does).
pub(crate) fn reference_frequency(settings: &Settings) -> Result<f64, WaveformError> {
    let f_ref = settings.reference_frequency();
    if f_ref >= settings.f_min {
        Ok(f_ref)
    } else {
        Err(out_of_range(
            "reference_frequency",
            settings.f_ref,
            "0 (the minimum frequency) or at least the minimum frequency",
        ))
    }
}

impl Binary {
    /// Checks the inputs and sets up the aligned model (masses in M☉, L0-frame spins).
    pub fn new(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        settings: &Settings,
    ) -> Result<Self, WaveformError> {
        if settings.smooth {
            return Err(out_of_range(
                "smooth",
                1.0,
                "false: LAL's angles take LAL's settings (SmoothPrecession is the smooth variant)",
            ));
        }
        let f_ref = reference_frequency(settings)?;
        for (name, chi) in [("chi_1", chi1), ("chi_2", chi2)] {
            let norm = (chi[0] * chi[0] + chi[1] * chi[1] + chi[2] * chi[2]).sqrt();
            if norm.is_nan() || norm > 1.0 {
                return Err(out_of_range(name, norm, "|χ| ≤ 1 (finite components)"));
            }
        }
        let (m1, m2, chi1, chi2) = if m1 >= m2 {
            (m1, m2, chi1, chi2)
        } else {
            (m2, m1, chi2, chi1)
        };
        let (model, vars) = IMRPhenomT::with_variables(m1, m2, chi1[2], chi2[2], settings)?;
        let (m1_si, m2_si) = (m1 * MSUN_SI, m2 * MSUN_SI);
        let t_min = model.t_min();
        let dt_m = model.dt_m();
        if t_min >= -10.0 * dt_m {
            return Err(out_of_range(
                "minimum_frequency",
                settings.f_min,
                "below the frequency 10 samples before the peak (a waveform of the ringdown alone \
                 has no precession angles in tdpe)",
            ));
        }
        let mut t_ref = if f_ref == settings.f_min {
            t_min
        } else {
            RootFinder::new(model.phase22(), model.total_mass_seconds())
                .brent(f_ref, "reference_frequency")?
        };
        if t_ref >= -8.0 * dt_m {
            t_ref = f64::max(-8.0 * dt_m, t_min);
        }
        Ok(Self {
            m1: m1_si / MSUN_SI,
            m2: m2_si / MSUN_SI,
            m1_si,
            m2_si,
            chi1,
            chi2,
            length: model.grid_length(),
            final_mass: vars.final_mass,
            eta: vars.eta,
            model,
            t_min,
            t_ref,
            dt_m,
            settings: *settings,
        })
    }

    /// (m1/M)² and (m2/M)² as LAL's orbit code computes them from the masses in seconds.
    pub fn spin_norms(&self) -> [f64; 2] {
        let m1sec = self.m1_si / MSUN_SI * MTSUN_SI;
        let m2sec = self.m2_si / MSUN_SI * MTSUN_SI;
        let msec = m1sec + m2sec;
        [m1sec * m1sec / msec / msec, m2sec * m2sec / msec / msec]
    }

    /// x = (ω22/2)^(2/3) at every sample of the grid, ω22 as `IMRPhenomTPHM_CoprecModes`
    /// evaluates it: `IMRPhenomTomega22` with its own θ = 5^(1/8)·(−ηt)^(−1/8) (the merger's
    /// bits matter to the ODE's step control: docs/precession.md §10).
    pub fn x_on_grid(&self) -> Vec<f64> {
        let phase = self.model.phase22();
        let theta_factor = 5f64.powf(1.0 / 8.0);
        self.model
            .grid_times()
            .map(|t| {
                let theta = theta_factor * (-phase.eta * t).powf(-1.0 / 8.0);
                (phase.omega(t, theta) * 0.5).powf(2.0 / 3.0)
            })
            .collect()
    }

    /// |t_ref − t_min| in M (LAL's `tint1`) and the reference sample iref = ⌊·/Δt_M⌋.
    pub fn reference(&self) -> (f64, usize) {
        let tint1 = (-self.t_min + self.t_ref).abs();
        (tint1, (tint1 / self.dt_m).floor() as usize)
    }
}

/// The solution of the spin-precession ODE on LAL's grid (`SimIMRPhenomTPHM_EvolveOrbit`),
/// in the L0 frame: sample k of the waveform's grid for k < [`SpinOrbit::len`]. The series end
/// one or two samples before t = 0.
#[derive(Clone, Debug, PartialEq)]
pub struct SpinOrbit {
    /// v = (ω22/2)^(1/3) of IMRPhenomT at the sample.
    pub v: Vec<f64>,
    /// Dimensionless spins χi = Si/(mi/M)², as LAL returns them.
    pub chi1: Vec<[f64; 3]>,
    pub chi2: Vec<[f64; 3]>,
    /// The unit Newtonian orbital angular momentum L̂.
    pub ln_hat: Vec<[f64; 3]>,
    /// The orbital-plane basis vector Ê1.
    pub e1: Vec<[f64; 3]>,
    /// The reference sample iref = ⌊(t_ref − t_min)/Δt_M⌋, where L̂ = ẑ and the spins are the
    /// inputs.
    pub reference_index: usize,
}

impl SpinOrbit {
    /// Number of samples.
    pub fn len(&self) -> usize {
        self.v.len()
    }

    /// Whether there are no samples (never, for a successful set-up).
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    /// LAL's orbit for masses `m1`, `m2` (M☉) and L0-frame spins `chi1`, `chi2` at f_ref
    /// (`SimIMRPhenomTPHM_EvolveOrbit`); the bodies are swapped if m1 < m2.
    pub fn lal(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        settings: &Settings,
    ) -> Result<Self, WaveformError> {
        Self::evolve(&Binary::new(m1, m2, chi1, chi2, settings)?)
    }

    /// The two passes of `IMRPhenomTPHM_EvolveOrbit` (docs/precession.md §4.3).
    pub(crate) fn evolve(b: &Binary) -> Result<Self, WaveformError> {
        // §4.1: v_k from the waveform's ω22 on the grid, splined on knots kΔt_M.
        let v: Vec<f64> = b.x_on_grid().iter().map(|x| x.sqrt()).collect();
        let knots: Vec<f64> = (0..v.len()).map(|k| k as f64 * b.dt_m).collect();
        let spline = CubicSpline::natural(knots, v.clone()).ok_or(out_of_range(
            "delta_t",
            b.settings.delta_t,
            "short enough for three samples",
        ))?;
        let coefficients = SpinPrecessionCoefficients::new(b.m1, b.m2);
        let [norm1, norm2] = b.spin_norms();
        let (c1, c2) = (b.chi1, b.chi2);
        let y_init = [
            0.0,
            0.0,
            1.0,
            norm1 * c1[0],
            norm1 * c1[1],
            norm1 * c1[2],
            norm2 * c2[0],
            norm2 * c2[1],
            norm2 * c2[2],
            1.0,
            0.0,
            0.0,
        ];
        let t_end = -b.t_min;
        let (tint1, length1) = b.reference();
        // Forward from τ_ref to τ_end − Δt_M; output j is sample length1 + j.
        let forward = Pass {
            coefficients,
            v: &spline,
            offset: 0.0,
            sign: 1.0,
        };
        let ys = adaptive_rk45_hermite(
            &forward,
            y_init,
            tint1,
            t_end - b.dt_m,
            b.dt_m,
            TOLERANCE,
            TOLERANCE,
        );
        let mut states = vec![[f64::NAN; 12]; length1 + ys.len()];
        states[length1..].copy_from_slice(&ys);
        // Backward, as a forward integration over τ′ ∈ [Δt_M, τ_ref] with v at τ_ref − τ′; its
        // initial state lands one sample before iref (docs/precession.md §4.3).
        if (b.t_ref - b.t_min).abs() >= b.dt_m {
            let backward = Pass {
                coefficients,
                v: &spline,
                offset: tint1,
                sign: -1.0,
            };
            let ys = adaptive_rk45_hermite(
                &backward, y_init, b.dt_m, tint1, b.dt_m, TOLERANCE, TOLERANCE,
            );
            if ys.len() < length1 {
                // LAL would leave the first samples uninitialised.
                return Err(out_of_range(
                    "reference_frequency",
                    b.settings.f_ref,
                    "a reference time not on a grid sample (LAL leaves samples unset)",
                ));
            }
            for (i, y) in ys.iter().enumerate() {
                states[ys.len() - 1 - i] = *y;
            }
        }
        let n = states.len();
        let vec3 = |y: &[f64; 12], i: usize, s: f64| [y[i] / s, y[i + 1] / s, y[i + 2] / s];
        Ok(Self {
            v: v[..n].to_vec(),
            ln_hat: states.iter().map(|y| [y[0], y[1], y[2]]).collect(),
            chi1: states.iter().map(|y| vec3(y, 3, norm1)).collect(),
            chi2: states.iter().map(|y| vec3(y, 6, norm2)).collect(),
            e1: states.iter().map(|y| [y[9], y[10], y[11]]).collect(),
            reference_index: length1,
        })
    }
}
