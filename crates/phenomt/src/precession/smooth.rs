//! The smooth variant of IMRPhenomTPHM's precession (docs/precession.md §4.9, §5.2): the same
//! orbit-averaged spin-precession ODE as LAL's default (PrecVersion 300), as a smooth function
//! of the parameters and of continuous time, generic over [`Real`] so that dual numbers give
//! its exact derivatives.
//!
//! - **Driver.** v(t) = (ω22(t)/2)^(1/3) in closed form from the (2,2) frequency, defined at any
//!   t < 0, with the inspiral–merger switch at t_cut itself (where ω22 is C¹) rather than one
//!   sample before it as in LAL.
//! - **Integration.** From the reference time t_ref (the model's own: the exact root with
//!   `Settings::smooth`) forwards to the peak t = 0 and backwards to a requested start time, by
//!   classical RK4 with a *fixed* number of steps on nodes uniform in s = (−t)^(3/8) (∝ v^(−3),
//!   ∝ the leading-order precession phase, so the steps are about uniform in precession phase)
//!   and with a node at t_cut, so that no step straddles the switch of the frequency's ansatz.
//!   The independent variable of RK4 is s (dy/ds = f(t(s), y)·dt/ds, t = −s^(8/3)). The nodes
//!   move smoothly with the parameters, and so does the discrete solution.
//! - **Dense output.** A cubic Hermite interpolant in s per step, from the state and its
//!   s-derivative at both ends (C¹ in t).
//! - **Frame.** F(t) = [Ê1 | L̂×Ê1 | L̂] in L0 components (F(t_ref) = identity), orthonormalised,
//!   as a unit quaternion ([`Rotation`]); the L0 modes are h^L0_lm = Σ_m' D^l_{mm'}(F) h^P_lm'
//!   (docs/precession.md §2.3: LAL's twist then global rotation is D(R_ref⁻¹R(t)) = D(F)).
//! - **Ringdown** (t > 0): F(t) = R_Ĵ(Ω_RD t) F(0) R_z(−Ω_RD cos β_e t), Ĵ LAL's J direction at
//!   f_ref, β_e the angle between L̂(0) and Ĵ, and Ω_RD from the evolved final spin at t = 0.
//!
//! What is left that is not smooth: the clip of a_f,evolved at |a| = 1 and the |a|-kink of Ω_RD
//! at a_f,evolved = 0 (LAL's), and the lookup of a node interval at a fixed evaluation time
//! (the dense output is C¹ there, so the value is C¹ in the parameters where a node passes).

use std::f64::consts::PI;

use super::angles::ringdown_rate;
use super::frame::Rotation;
use super::ode::{out_of_range, reference_frequency, SpinPrecessionCoefficients};
use super::rotation::{Harmonics, SphericalModes};
use crate::constants::MTSUN_SI;
use crate::error::WaveformError;
use crate::fits::final_spin_2017;
use crate::model::{IMRPhenomT, Settings};
use crate::phase::Phase22;
use crate::roots::RootFinder;
use crate::scalar::{Dual, Real};
use crate::thm::{IMRPhenomTHM, Mode};

/// The fixed numbers of RK4 steps of the smooth variant's passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmoothSteps {
    /// From t_ref backwards to the start time.
    pub backward: usize,
    /// From t_ref forwards to the inspiral–merger boundary t_cut (or to the peak, if t_ref is
    /// after t_cut: then `merger` is used).
    pub inspiral: usize,
    /// From t_cut to the peak (and from t_ref back to t_cut, if t_ref is after t_cut).
    pub merger: usize,
}

impl Default for SmoothSteps {
    /// Chosen by measurement against 8× the steps on the reference cases (f_min = 20 Hz, 18–80
    /// M☉; docs/precession.md §11); longer signals need more `inspiral` and `backward` steps
    /// (RK4: the error falls as the count to the fourth).
    fn default() -> Self {
        Self {
            backward: 512,
            inspiral: 2048,
            merger: 256,
        }
    }
}

impl SmoothSteps {
    /// The longest step in s = (−t/M)^(3/8) that [`Self::for_binary`] takes: the default
    /// counts' inspiral step for the longest reference case, P09 (63.8 in s over 2048 steps;
    /// docs/precession.md §12.5).
    pub const MAX_S_STEP: f64 = 1.0 / 32.0;

    /// The fewest steps of a pass in s.
    const MIN_STEPS: usize = 16;

    /// The most steps of any pass (64× the default inspiral's): a binary neutron star from
    /// 10 Hz needs ~30 000; more means a start time far outside any segment (an absolute GPS
    /// time, say), which would take gigabytes of nodes.
    pub const MAX_STEPS: usize = 1 << 17;

    /// Step counts for one binary (masses in M☉ and aligned spin components, `settings` and
    /// `t_start` as for [`SmoothPrecession::new`]) whose steps in s are at most
    /// [`Self::MAX_S_STEP`], with the default merger count: as accurate as the default counts
    /// on the longest reference case, and far fewer steps for short signals. An analysis takes
    /// them once, from one binary, so that the model stays a smooth function of the parameters
    /// within the run (counts that followed the parameters would jump).
    pub fn for_binary(
        m1: f64,
        m2: f64,
        chi1z: f64,
        chi2z: f64,
        settings: &Settings,
        t_start: f64,
    ) -> Result<Self, WaveformError> {
        let (m1, m2, chi1z, chi2z) = heavier_first(m1, m2, chi1z, chi2z);
        let (model, _) = IMRPhenomT::with_variables(m1, m2, chi1z, chi2z, settings)?;
        let t_ref = reference_time(&model, settings, reference_frequency(settings)?)?;
        let t_cut = model.phase22().t_cut;
        let t_start = (t_start / model.total_mass_seconds()).min(t_ref);
        let s = |t: f64| (-t).powf(3.0 / 8.0);
        let count = |span: f64| {
            let steps = (span.max(0.0) / Self::MAX_S_STEP).ceil();
            if steps <= Self::MAX_STEPS as f64 {
                Ok((steps as usize).max(Self::MIN_STEPS))
            } else {
                Err(out_of_range(
                    "t_start",
                    t_start * model.total_mass_seconds(),
                    "a start that the spin ODE reaches in at most SmoothSteps::MAX_STEPS steps",
                ))
            }
        };
        // The passes of `SmoothPrecession::new`: backward from t_ref (or from t_cut, if t_ref
        // is after it), forward to t_cut (if t_ref is before it), then the merger.
        Ok(Self {
            backward: count(s(t_start) - s(t_ref.min(t_cut)))?,
            inspiral: count(s(t_ref) - s(t_cut))?,
            merger: Self::default().merger,
        })
    }

    /// Every count multiplied by `factor` (for convergence studies).
    pub fn scaled(self, factor: f64) -> Self {
        let s = |n: usize| ((n as f64 * factor).round() as usize).max(1);
        Self {
            backward: s(self.backward),
            inspiral: s(self.inspiral),
            merger: s(self.merger),
        }
    }
}

/// The bodies with the heavier first, each with its spin, as LAL orders them.
fn heavier_first<T: Real, S>(m1: T, m2: T, chi1: S, chi2: S) -> (T, T, S, S) {
    if m1.re() >= m2.re() {
        (m1, m2, chi1, chi2)
    } else {
        (m2, m1, chi2, chi1)
    }
}

/// One node of the solution: s = (−t)^(3/8), t in M, the state y = (L̂, S1, S2, Ê1), dy/dt,
/// and whether the step that starts here is uniform in t (the merger) rather than in s.
#[derive(Clone, Copy, Debug)]
struct Node<T> {
    s: T,
    t: T,
    y: [T; 12],
    dydt: [T; 12],
    uniform_t: bool,
}

/// How a pass places its nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spacing {
    /// Uniform in s = (−t)^(3/8) (the inspiral).
    S,
    /// Uniform in t (the merger, where the precession rate no longer grows like (−t)^(−5/8)).
    T,
}

/// The right-hand side in s: the ODE's coefficients and the 22 frequency.
struct Rhs<T> {
    coefficients: SpinPrecessionCoefficients<T>,
    /// The (2,2) frequency with its inspiral–merger switch at t_cut (`dt_m` = 0).
    phase: Phase22<T>,
}

impl<T: Real> Rhs<T> {
    /// v = (ω22(t)/2)^(1/3) at t < 0 (M).
    fn v(&self, t: T) -> T {
        let theta = if t.re() < self.phase.t_cut.re() {
            ((self.phase.eta * t * -0.2).ln() * -0.125).exp()
        } else {
            T::from(0.0)
        };
        (self.phase.omega(t, theta) * 0.5).powf(1.0 / 3.0)
    }

    /// dy/dt at t with v = v(t) given.
    fn dydt(&self, v: T, y: &[T; 12]) -> [T; 12] {
        self.coefficients.derivatives(v, y)
    }

    /// The node at t with state y.
    fn node(&self, t: T, y: [T; 12]) -> Node<T> {
        Node {
            s: (-t).powf(3.0 / 8.0),
            t,
            y,
            dydt: self.dydt(self.v(t), &y),
            uniform_t: false,
        }
    }

    /// `steps` RK4 steps from `start` to the time `t_end` (M, ≤ 0), uniform in s or in t: the
    /// nodes after `start`, appended to `out` in the order of integration. In s the ODE is
    /// dy/ds = f(t, y)·dt/ds with t = −s^(8/3).
    fn integrate(
        &self,
        start: &Node<T>,
        t_end: T,
        steps: usize,
        spacing: Spacing,
        out: &mut Vec<Node<T>>,
    ) {
        let (x0, x_end) = match spacing {
            Spacing::S => (start.s, (-t_end).powf(3.0 / 8.0)),
            Spacing::T => (start.t, t_end),
        };
        let h = (x_end - x0) / steps as f64;
        // t(x) and dt/dx.
        let time = |x: T| match spacing {
            Spacing::S => -x.powf(8.0 / 3.0),
            Spacing::T => x,
        };
        let rate = |x: T| match spacing {
            Spacing::S => x.powf(5.0 / 3.0) * (-8.0 / 3.0),
            Spacing::T => T::from(1.0),
        };
        let f = |x: T, v: T, y: &[T; 12]| {
            let r = rate(x);
            self.dydt(v, y).map(|d| d * r)
        };
        let mut node = *start;
        for i in 1..=steps {
            let x_prev = if i == 1 { x0 } else { x0 + h * (i - 1) as f64 };
            let x_mid = x_prev + h * 0.5;
            let x1 = if i == steps { x_end } else { x0 + h * i as f64 };
            let t1 = if i == steps { t_end } else { time(x1) };
            let y0 = node.y;
            let k1 = node.dydt.map(|d| d * rate(x_prev));
            let v_mid = self.v(time(x_mid));
            let stage =
                |k: &[T; 12], c: f64| -> [T; 12] { std::array::from_fn(|j| y0[j] + k[j] * h * c) };
            let k2 = f(x_mid, v_mid, &stage(&k1, 0.5));
            let k3 = f(x_mid, v_mid, &stage(&k2, 0.5));
            let v1 = self.v(t1);
            let k4 = f(x1, v1, &stage(&k3, 1.0));
            let y1: [T; 12] = std::array::from_fn(|j| {
                y0[j] + (k1[j] + (k2[j] + k3[j]) * 2.0 + k4[j]) * (h / 6.0)
            });
            node = Node {
                s: match spacing {
                    Spacing::S => x1,
                    Spacing::T => (-t1).powf(3.0 / 8.0),
                },
                t: t1,
                y: y1,
                dydt: self.dydt(v1, &y1),
                uniform_t: spacing == Spacing::T,
            };
            out.push(node);
        }
    }
}

/// LAL's J0 = S1 + S2 + L_ref ẑ in L0 components (docs/precession.md §2.4; the same as
/// [`super::JFrame`], which is `f64`, with L_ref of PhenomX version 102 and LAL's π² = 0 in
/// L6), for masses m1 ≥ m2 (M☉) and L0 spins at `f_ref` (Hz).
fn j_vector<T: Real>(m1: T, m2: T, chi1: [T; 3], chi2: [T; 3], f_ref: f64) -> [T; 3] {
    let mtot = m1 + m2;
    let delta = ((m1 - m2) / mtot).abs();
    let mut eta = ((-(delta * delta) + 1.0) * 0.25).abs();
    if eta.re() > 0.25 {
        eta = T::from(0.25);
    }
    let v_ref = (mtot * MTSUN_SI * (PI * f_ref)).powf(1.0 / 3.0);
    let (m1, m2) = (m1 / mtot, m2 / mtot);
    let m = m1 + m2;
    let (m1_2, m2_2) = (m1 * m1, m2 * m2);
    let (c1l, c2l) = (chi1[2], chi2[2]);
    let l2 = eta / 6.0 + 1.5;
    let l3 = (c1l * (eta - delta * 2.0 - 2.0) + c2l * (eta + delta * 2.0 - 2.0)) * (5.0 / 6.0);
    let l4 = ((eta - 57.0) * eta + 81.0) / 24.0;
    let l5 = (c1l * (delta * (-(eta * 31.0) + 72.0) + eta * (eta * 2.0 - 121.0) + 72.0)
        + c2l * (eta * (eta * 2.0 - 121.0) + 72.0 + delta * (eta * 31.0 - 72.0)))
        * (-7.0 / 144.0);
    // LAL's π² is zero here (angles.rs, `JFrame::new`).
    let l6 = (eta * (eta * (eta * 7.0 + 1674.0) - 62001.0) + 10935.0) / 1296.0;
    let x = v_ref * v_ref;
    let sqx = x.sqrt();
    let x2 = x * x;
    let ansatz =
        eta / v_ref * (l2 * x + l3 * (x * sqx) + l4 * x2 + l5 * (x2 * sqx) + l6 * (x2 * x) + 1.0);
    let l_ref = m * m * ansatz;
    [
        m1_2 * chi1[0] + m2_2 * chi2[0],
        m1_2 * chi1[1] + m2_2 * chi2[1],
        m1_2 * chi1[2] + m2_2 * chi2[2] + l_ref,
    ]
}

#[inline]
fn dot<T: Real>(a: [T; 3], b: [T; 3]) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// a_f,evolved (docs/precession.md §4.4; [`super::evolved_final_spin`] in `f64`) from the spins
/// Si (= (mi/M)²χi, with `norms` (mi/M)²) and L̂: the aligned fit at the spins' projections on
/// L̂, combined with the total in-plane spin; clipped to [−1, 1] as LAL.
fn evolved_final_spin_generic<T: Real>(
    eta: T,
    delta: T,
    norms: [T; 2],
    s1: [T; 3],
    s2: [T; 3],
    ln: [T; 3],
) -> T {
    let (s1l, s2l) = (dot(s1, ln), dot(s2, ln));
    let perp: [T; 3] = std::array::from_fn(|i| (s1[i] - s1l * ln[i]) + (s2[i] - s2l * ln[i]));
    // LAL passes δ = 0, but the fit recomputes δ's value from η; `delta` gives its derivative.
    let a_parallel = final_spin_2017(eta, delta, s1l / norms[0], s2l / norms[1]);
    // √(S⊥² + a∥²) without √(S⊥²), which has no derivative at S⊥ = 0.
    let a = (dot(perp, perp) + a_parallel * a_parallel).sqrt();
    let a = if a_parallel.re() < 0.0 { -a } else { a };
    if a.re() > 1.0 {
        T::from(1.0)
    } else if a.re() < -1.0 {
        T::from(-1.0)
    } else {
        a
    }
}

/// The smooth variant of IMRPhenomTPHM, set up for one binary: the co-precessing frame and the
/// L0-frame modes at any time from the start time on (see the module's notes).
#[derive(Clone, Debug)]
pub struct SmoothPrecession<T> {
    /// The co-precessing modes (m > 0), with a_f,evolved in their ringdown.
    coprecessing: IMRPhenomTHM<T>,
    /// The nodes of the solution in increasing t, from the start time to the peak.
    nodes: Vec<Node<T>>,
    /// The reference time and the start time, in M.
    t_ref: T,
    t_start: T,
    /// The frame at the peak, where the ringdown continuation starts.
    frame_at_peak: Rotation<T>,
    /// Ĵ, LAL's J direction at f_ref, in L0 components.
    j_hat: [T; 3],
    /// cos β_e = L̂(0)·Ĵ.
    cos_beta_end: T,
    /// Ω_RD in rad/M.
    ringdown_rate: T,
    /// Total mass in s.
    total_mass_s: T,
}

impl<T: Real> SmoothPrecession<T> {
    /// Sets up the smooth variant for component masses `m1`, `m2` (detector frame, M☉; the
    /// bodies are swapped if m1 < m2, spins included, as in LAL), dimensionless spins `chi1`,
    /// `chi2` in the L0 frame at the reference frequency (z along the Newtonian orbital angular
    /// momentum there), `settings` (f_min, f_ref and Δt as for IMRPhenomTHM; with
    /// `smooth: true` the co-precessing modes and t_ref are smooth too, otherwise they are
    /// LAL's and t_ref is LAL's Brent iterate) and the start time `t_start` in s relative to the
    /// peak (e.g. the start of a data segment; t_ref if it is later), with the step counts
    /// `steps`.
    ///
    /// The frame is defined from `t_start` on; the fixed step counts make its accuracy depend
    /// on how far `t_start` and t_ref are from the peak (docs/precession.md §11).
    /// Unlike LAL's `SimInspiralChooseTDWaveform`, there is no switch to IMRPhenomTHM for
    /// nearly aligned spins.
    pub fn new(
        m1: T,
        m2: T,
        chi1: [T; 3],
        chi2: [T; 3],
        settings: &Settings,
        t_start: f64,
        steps: SmoothSteps,
    ) -> Result<Self, WaveformError> {
        for (name, chi) in [("chi_1", chi1), ("chi_2", chi2)] {
            let norm = chi.iter().map(|c| c.re() * c.re()).sum::<f64>().sqrt();
            if !norm.is_finite() || norm > 1.0 {
                return Err(out_of_range(name, norm, "|χ| ≤ 1 (finite components)"));
            }
        }
        if !t_start.is_finite() {
            return Err(out_of_range("t_start", t_start, "finite, before t_ref"));
        }
        let counts = [steps.backward, steps.inspiral, steps.merger];
        if let Some(&count) = counts
            .iter()
            .find(|&&n| n == 0 || n > SmoothSteps::MAX_STEPS)
        {
            return Err(out_of_range(
                "steps",
                count as f64,
                "1 to SmoothSteps::MAX_STEPS steps per pass",
            ));
        }
        let (m1, m2, chi1, chi2) = heavier_first(m1, m2, chi1, chi2);
        let (model, vars) = IMRPhenomT::with_variables(m1, m2, chi1[2], chi2[2], settings)?;
        let total_mass_s = model.total_mass_seconds();
        let f_ref = reference_frequency(settings)?;
        let t_ref = reference_time(&model, settings, f_ref)?;
        if t_ref.re() >= 0.0 {
            return Err(out_of_range(
                "reference_frequency",
                f_ref,
                "below the peak frequency (t_ref before the peak)",
            ));
        }
        // A segment that starts after t(f_ref) still needs the frame from t_ref, where it is
        // fixed.
        let t_start_m = T::from(t_start) / total_mass_s;
        let t_start_m = if t_start_m.re() > t_ref.re() {
            t_ref
        } else {
            t_start_m
        };
        let mut phase = *model.phase22();
        phase.dt_m = T::from(0.0);
        let t_cut = phase.t_cut;
        let rhs = Rhs {
            coefficients: SpinPrecessionCoefficients::new(m1, m2),
            phase,
        };
        let mtot = m1 + m2;
        let norms = [(m1 / mtot) * (m1 / mtot), (m2 / mtot) * (m2 / mtot)];
        let (zero, one) = (T::from(0.0), T::from(1.0));
        let y_ref = [
            zero,
            zero,
            one,
            chi1[0] * norms[0],
            chi1[1] * norms[0],
            chi1[2] * norms[0],
            chi2[0] * norms[1],
            chi2[1] * norms[1],
            chi2[2] * norms[1],
            one,
            zero,
            zero,
        ];
        let start = rhs.node(t_ref, y_ref);
        // One vector for every node (with dual numbers they are kB each: no copies).
        let mut nodes = Vec::with_capacity(steps.backward + steps.inspiral + 2 * steps.merger + 1);
        // Backward, through t_cut if t_ref is after it, then reversed.
        let mut from = start;
        if t_ref.re() > t_cut.re() {
            rhs.integrate(&from, t_cut, steps.merger, Spacing::T, &mut nodes);
            from = *nodes.last().expect("at least one step");
        }
        if t_start_m.re() < from.t.re() {
            rhs.integrate(&from, t_start_m, steps.backward, Spacing::S, &mut nodes);
        }
        nodes.reverse();
        nodes.push(start);
        // Forward, through t_cut if t_ref is before it.
        let mut from = start;
        if t_ref.re() < t_cut.re() {
            rhs.integrate(&from, t_cut, steps.inspiral, Spacing::S, &mut nodes);
            from = *nodes.last().expect("at least one step");
        }
        rhs.integrate(&from, T::from(0.0), steps.merger, Spacing::T, &mut nodes);
        // In increasing t; the step from a node is uniform in t from t_cut on (the passes end
        // exactly at t_cut).
        for node in &mut nodes {
            node.uniform_t = node.t.re() >= t_cut.re();
        }
        // The ringdown continuation from the peak.
        let end = nodes.last().expect("nodes").y;
        let ln_end = [end[0], end[1], end[2]];
        let ln_norm = dot(ln_end, ln_end).sqrt();
        let ln_end = ln_end.map(|c| c / ln_norm);
        let final_spin_evolved = evolved_final_spin_generic(
            vars.eta,
            vars.delta,
            norms,
            [end[3], end[4], end[5]],
            [end[6], end[7], end[8]],
            ln_end,
        );
        let ringdown_rate = ringdown_rate(final_spin_evolved, final_spin_evolved, vars.final_mass);
        let j = j_vector(m1, m2, chi1, chi2, f_ref);
        let j_norm = dot(j, j).sqrt();
        let j_hat = j.map(|c| c / j_norm);
        let coprecessing = IMRPhenomTHM::with_ringdown_spin(
            m1,
            m2,
            chi1[2],
            chi2[2],
            settings,
            &Mode::ALL,
            final_spin_evolved,
        )?;
        Ok(Self {
            coprecessing,
            frame_at_peak: Rotation::from_frame(ln_end, [end[9], end[10], end[11]]),
            cos_beta_end: dot(ln_end, j_hat),
            nodes,
            t_ref,
            t_start: t_start_m,
            j_hat,
            ringdown_rate,
            total_mass_s,
        })
    }

    /// The co-precessing modes underneath (with a_f,evolved in their ringdown).
    pub fn coprecessing(&self) -> &IMRPhenomTHM<T> {
        &self.coprecessing
    }

    /// The reference time t(f_ref) in s relative to the peak, where the frame is the identity.
    pub fn reference_time(&self) -> T {
        self.t_ref * self.total_mass_s
    }

    /// The start time in s relative to the peak, from which the frame is defined.
    pub fn start_time(&self) -> T {
        self.t_start * self.total_mass_s
    }

    /// The state at `t_m` (M) ≤ 0 by cubic Hermite interpolation in s.
    fn state_geometric(&self, t_m: T) -> [T; 12] {
        let nodes = &self.nodes;
        if t_m.re() >= 0.0 {
            return nodes[nodes.len() - 1].y;
        }
        let i = nodes
            .partition_point(|n| n.t.re() <= t_m.re())
            .clamp(1, nodes.len() - 1)
            - 1;
        let (a, b) = (&nodes[i], &nodes[i + 1]);
        // Cubic Hermite in the step's own variable x (t, or s with dy/ds = dy/dt·dt/ds).
        let (x, xa, xb, fa, fb) = if a.uniform_t {
            (t_m, a.t, b.t, a.dydt, b.dydt)
        } else {
            let rate = |s: T| s.powf(5.0 / 3.0) * (-8.0 / 3.0);
            let (ra, rb) = (rate(a.s), rate(b.s));
            (
                (-t_m).powf(3.0 / 8.0),
                a.s,
                b.s,
                a.dydt.map(|d| d * ra),
                b.dydt.map(|d| d * rb),
            )
        };
        let h = xb - xa;
        let u = (x - xa) / h;
        let (u2, u3) = (u * u, u * u * u);
        let h00 = u3 * 2.0 - u2 * 3.0 + 1.0;
        let h10 = (u3 - u2 * 2.0 + u) * h;
        let h01 = u2 * 3.0 - u3 * 2.0;
        let h11 = (u3 - u2) * h;
        std::array::from_fn(|j| a.y[j] * h00 + fa[j] * h10 + b.y[j] * h01 + fb[j] * h11)
    }

    /// The co-precessing frame at `t` (s, relative to the peak) as the rotation F(t) from the
    /// co-precessing axes to L0 components: F = [Ê1 | L̂×Ê1 | L̂] up to the peak, continued by
    /// the ringdown rotation about Ĵ after it. F(t_ref) is the identity.
    pub fn frame_at(&self, t: T) -> Rotation<T> {
        let t_m = t / self.total_mass_s;
        if t_m.re() >= 0.0 {
            let angle = self.ringdown_rate * t_m;
            let z = [T::from(0.0), T::from(0.0), T::from(1.0)];
            Rotation::about_axis(self.j_hat, angle)
                .then(&self.frame_at_peak)
                .then(&Rotation::about_axis(z, -(angle * self.cos_beta_end)))
        } else {
            let y = self.state_geometric(t_m);
            Rotation::from_frame([y[0], y[1], y[2]], [y[9], y[10], y[11]])
        }
    }

    /// Every L0-frame mode h_lm (2 ≤ l ≤ 5, every m) at `t` (s, relative to the peak) for a
    /// source at 1 Mpc: h^L0_lm = Σ_m' D^l_{mm'}(F(t)) h^P_lm'(t) over the co-precessing modes
    /// and their −m' partners.
    pub fn l0_modes_at(&self, t: T) -> SphericalModes<T> {
        let coprecessing = self.coprecessing.modes_at(t);
        let d = self.frame_at(t).wigner();
        let mut out = SphericalModes::zero();
        for (mode, h) in Mode::ALL.iter().zip(coprecessing) {
            let (l, mp) = mode.lm();
            let mp = mp as i32;
            let parity = if l % 2 == 1 { -1.0 } else { 1.0 };
            // h^P_{l,−m'} = (−1)^l conj(h^P_lm').
            let minus = (h.0 * parity, -(h.1 * parity));
            for m in -(l as i32)..=l as i32 {
                let (dp, dm) = (d.get(l, m, mp), d.get(l, m, -mp));
                let value = (
                    dp.0 * h.0 - dp.1 * h.1 + dm.0 * minus.0 - dm.1 * minus.1,
                    dp.0 * h.1 + dp.1 * h.0 + dm.0 * minus.1 + dm.1 * minus.0,
                );
                out.add(l, m, value);
            }
        }
        out
    }

    /// For each co-precessing mode (l, m′ > 0) of [`Mode::ALL`], in its order, the sums
    /// A = Σ_m ₋₂Y_lm D^l_{mm′}(F(t)) and B = Σ_m ₋₂Y_lm D^l_{m,−m′}(F(t)) over each set of
    /// `harmonics` (values, or derivatives of them, which share the frame's matrices), so that
    /// h₊ − i h× = Σ_{lm′} [A h^P_lm′ + B (−1)^l conj(h^P_lm′)] for a source at 1 Mpc: the view
    /// of the frame at `t` (s, relative to the peak), which a detector's signal multiplies into
    /// each co-precessing mode (docs/precession.md §12.1). Only the modes `wanted` are summed,
    /// the others left zero.
    pub fn projection_sums<const K: usize>(
        &self,
        t: T,
        harmonics: [&Harmonics<f64>; K],
        wanted: &ModeSelection,
    ) -> [ProjectionSums<T>; K] {
        projection_sums_of(&self.frame_at(t), harmonics, wanted)
    }

    /// h₊ and h× at `t` (s, relative to the peak) for a source at `distance_mpc`, seen at
    /// `inclination` with reference phase `phi_ref` (rad) (docs/precession.md §2.5).
    pub fn polarizations(&self, t: T, distance_mpc: T, inclination: T, phi_ref: T) -> (T, T) {
        let harmonics = Harmonics::new(inclination, phi_ref);
        self.l0_modes_at(t)
            .polarizations(&harmonics, T::from(1.0) / distance_mpc)
    }
}

/// [`SmoothPrecession::projection_sums`] of one time: A and B of each co-precessing mode, in the
/// order of [`Mode::ALL`].
pub type ProjectionSums<T> = [[(T, T); 2]; Mode::ALL.len()];

/// Which of the co-precessing modes of [`Mode::ALL`] a caller needs, in that order.
pub type ModeSelection = [bool; Mode::ALL.len()];

/// Every co-precessing mode.
pub const EVERY_MODE: ModeSelection = [true; Mode::ALL.len()];

/// The sums of [`SmoothPrecession::projection_sums`] for a frame `rotation` of any scalar.
fn projection_sums_of<S: Real, const K: usize>(
    rotation: &Rotation<S>,
    harmonics: [&Harmonics<f64>; K],
    wanted: &ModeSelection,
) -> [ProjectionSums<S>; K] {
    let d = rotation.wigner();
    let zero = (S::from(0.0), S::from(0.0));
    let mut sums = [[[zero; 2]; Mode::ALL.len()]; K];
    for (j, mode) in Mode::ALL.iter().enumerate() {
        if !wanted[j] {
            continue;
        }
        let (l, mp) = mode.lm();
        let pairs = d.column_pair(l, mp as i32);
        for (m, columns) in (-(l as i32)..=l as i32).zip(pairs) {
            for (set, y) in sums.iter_mut().zip(harmonics) {
                let y = y.get(l, m);
                for (sum, dm) in set[j].iter_mut().zip(columns) {
                    sum.0 += dm.0 * y.0 - dm.1 * y.1;
                    sum.1 += dm.1 * y.0 + dm.0 * y.1;
                }
            }
        }
    }
    sums
}

impl<const N: usize> SmoothPrecession<Dual<N>> {
    /// [`Self::projection_sums`] of `harmonics` with their derivatives, and of each set of
    /// `values_only` without: the same numbers as the generic method's (values bit for bit,
    /// derivatives to rounding) for a fraction of its arithmetic. The Wigner matrices depend on
    /// the N directions only through the frame's four quaternion components, so the sums are
    /// differentiated in those four and carried to the N by the chain rule
    /// (docs/precession.md §12.4).
    pub fn projection_sums_through_frame<const K: usize>(
        &self,
        t: Dual<N>,
        harmonics: &Harmonics<f64>,
        values_only: [&Harmonics<f64>; K],
        wanted: &ModeSelection,
    ) -> (ProjectionSums<Dual<N>>, [ProjectionSums<f64>; K]) {
        let frame = self.frame_at(t);
        let components = [frame.w, frame.x, frame.y, frame.z];
        let seeded = components.map(|c| c.re);
        let local = Rotation {
            w: Dual::<4>::variable(seeded[0], 0),
            x: Dual::variable(seeded[1], 1),
            y: Dual::variable(seeded[2], 2),
            z: Dual::variable(seeded[3], 3),
        };
        let value = Rotation {
            w: seeded[0],
            x: seeded[1],
            y: seeded[2],
            z: seeded[3],
        };
        let [sums] = projection_sums_of(&local, [harmonics], wanted);
        let sums =
            sums.map(|pair| pair.map(|(re, im)| (re.chain(&components), im.chain(&components))));
        (sums, projection_sums_of(&value, values_only, wanted))
    }
}

impl SmoothPrecession<f64> {
    /// The times of LAL's grid (that of [`IMRPhenomT::polarizations_on_grid`]) in s relative
    /// to the peak.
    pub fn grid_times(&self) -> Vec<f64> {
        let model = self.coprecessing.model22();
        let t0 = model.start_time();
        (0..model.grid_length())
            .map(|k| t0 + k as f64 * model.delta_t())
            .collect()
    }

    /// Every L0-frame mode at every sample of LAL's grid, for a source at 1 Mpc.
    pub fn l0_modes_on_grid(&self) -> Vec<SphericalModes<f64>> {
        self.grid_times()
            .into_iter()
            .map(|t| self.l0_modes_at(t))
            .collect()
    }
}

/// The model's reference time in M: the exact root of ω22 = 2πf_ref with `Settings::smooth`,
/// LAL's Brent iterate otherwise (t_min when f_ref = f_min), with the root's derivatives.
fn reference_time<T: Real>(
    model: &IMRPhenomT<T>,
    settings: &Settings,
    f_ref: f64,
) -> Result<T, WaveformError> {
    let roots = RootFinder::new(model.phase22(), model.total_mass_seconds().re());
    let t = if settings.smooth {
        roots.exact(f_ref)
    } else if f_ref == settings.f_min {
        model.t_min()
    } else {
        roots.brent(f_ref, "reference_frequency")?
    };
    Ok(roots.lift(model.phase22(), model.total_mass_seconds(), f_ref, t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::precession::angles::JFrame;
    use crate::precession::evolved_final_spin;

    #[test]
    fn j_vector_matches_lal_j_frame() {
        let settings = Settings::lal(20.0, 25.0, 1.0 / 4096.0);
        let (m1, m2) = (40.0, 25.0);
        let (chi1, chi2) = ([0.5, -0.3, 0.2], [-0.1, 0.6, -0.4]);
        let frame = JFrame::new(
            m1 * crate::constants::MSUN_SI,
            m2 * crate::constants::MSUN_SI,
            chi1,
            chi2,
            &settings,
            0.0,
            0.0,
        );
        let j = j_vector(m1, m2, chi1, chi2, 25.0);
        let n = dot(j, j).sqrt();
        assert!((j[2] / n - frame.theta_j.cos()).abs() < 1e-14);
        assert!((j[1].atan2(j[0]) - frame.phi_j).abs() < 1e-13);
    }

    #[test]
    fn evolved_spin_matches_f64_version() {
        let (eta, norms) = (0.2, [0.6f64.powi(2), 0.4f64.powi(2)]);
        let (chi1, chi2, ln) = (
            [0.5, -0.3, 0.2],
            [-0.1, 0.6, -0.4],
            [0.1, 0.2, (0.95f64).sqrt()],
        );
        let a = evolved_final_spin(eta, norms, chi1, chi2, ln);
        let b = evolved_final_spin_generic(
            eta,
            (1.0f64 - 4.0 * eta).sqrt(),
            norms,
            chi1.map(|c| c * norms[0]),
            chi2.map(|c| c * norms[1]),
            ln,
        );
        assert!((a - b).abs() < 1e-15, "{a} {b}");
    }
}
