//! Time-domain relative binning of a BBH's 11 aligned-spin parameters, with its exact gradient
//! (docs/likelihood.md §3, §3.6).
//!
//! Per detector k and node b (at the fixed sample time t_b):
//! c_b = Q_k(θ) · W(t_b − t_c − τ_k; λ) / v_b, and with g = a − ½Rc − ½conj(Pc) from the summary
//! data, d ln L = Re Σ_b g_b dc_b where
//! ∂c_b = ∂Q_k · r_b + Q_k [∂_λ W − Ẇ (∂t_c + ∂τ_k)] / v_b.
//! ∂_λ W and Ẇ come in reverse mode from f64 evaluations at the B+1 nodes and one contraction
//! with the waveform set-up's dual numbers over (M_c, q, χ1, χ2); Q_k and τ_k have closed-form
//! gradients. No tape: memory does not grow with the evaluations.
//!
//! With IMRPhenomTHM's higher modes each mode has its own basis (docs/likelihood.md §3.12):
//! c_jb = Q_k,lm · W_lm(t_jb − t_c − τ_k; λ) / v_jb for mode j's nodes t_jb, the summary data
//! stacked over the modes; the gradient comes from dual numbers in (M_c, q, χ1, χ2, t) at the
//! nodes. A precessing binary's bases are its five co-precessing terms z_lm′ = c_lm′ h^P_lm′
//! in each detector (docs/precession.md §12.7): c_jb = z_j(t_jb − t_c − τ_k; θ)/v_jb, the
//! gradient from the terms' own (tdpe_signal's `PrecessingGradientSource`).

use std::cell::RefCell;
use std::time::{Duration, Instant};

use num_complex::Complex64;
use tdpe_phenomt::{Dual, IMRPhenomT, IMRPhenomTHM, Mode22, Mode22Trace, ModeSelection, Real};
use tdpe_signal::{
    AntennaGradient, BbhParameters, ComponentGradient, ParameterVector, PrecessingSource,
    ProjectionGradient, SignalModel, SpinModel, COPRECESSING_MODES,
};

mod bank;
mod fiducial;
mod gradient;
mod placed;
mod precessing;

use super::design::{draw_design_points, draw_precessing_design, DesignPoint};
use super::exact::BbhExactLikelihood;
use super::frame::PrecessingFrame;
use crate::error::LikelihoodError;
use crate::log_sum_exp::{log_sum_exp, log_sum_exp_weights};
use crate::relative_binning::{
    InnerProducts, QuadratureProducts, RbError, RbWorkspace, SummaryData,
};
use bank::Cell;
use fiducial::{detector_fiducials, fiducial_series, noise_inverses, FiducialSeries};
pub use placed::PlacedNodes;

/// Candidates drawn per design point kept.
const DESIGN_OVERSAMPLING: usize = 4;
/// The same for a precessing binary, whose candidates perturb 15 parameters.
const PRECESSING_OVERSAMPLING: usize = 10;
/// Screening of candidates uses one sample every this many seconds (4 samples at 2048 Hz).
const SCREEN_SPACING: f64 = 4.0 / 2048.0;
/// Fewest design waveforms that make a meaningful node refinement.
const MIN_DESIGN_POINTS: usize = 8;
/// The support of the basis ends where the fiducial's amplitude falls below this fraction of
/// its peak (about 0.1 s after the peak, docs/likelihood.md §3.5).
const SUPPORT_FLOOR: f64 = 1e-10;

/// The knobs of relative binning.
#[derive(Clone, Debug, PartialEq)]
pub struct RelativeBinningOptions {
    /// Node-refinement error target T ≈ (wanted |Δ ln L|)² (docs/likelihood.md §3.5).
    pub target: f64,
    /// Number of design waveforms.
    pub design_points: usize,
    /// Width of the design Gaussian in units of the (Fisher) posterior width.
    pub design_scale: f64,
    /// Largest ratio residual (≈ ⟨δh|δh⟩ after the best amplitude and phase, about twice the
    /// ln L deficit) of a design waveform: the region where the likelihood must be accurate
    /// (posterior points lie within a deficit of ~10).
    pub design_depth: f64,
    /// Seed of the design draws.
    pub seed: u64,
    /// Guard on the nodes per detector and mode.
    pub max_nodes: usize,
    /// Stop the refinement at `max_nodes` (the worst bins split first) instead of failing;
    /// [`BbhRelativeBinning::refinement_errors`] then says how far from the target it stayed.
    pub best_effort: bool,
    /// Half-width (s) of the trial arrival times around the fiducial's, in each detector, that
    /// the summary data cover by whole-sample shifts (docs/likelihood.md §3.9): the nodes then
    /// resolve the trials' intrinsic differences and a sub-sample residual of their time, and
    /// a trial arriving farther away is outside the likelihood's domain. 0: no shifts, every
    /// time difference resolved by the nodes.
    pub arrival_window: f64,
    /// The latest geocent_time (s) of a trial of a precessing binary, whose frame then starts
    /// early enough for it (the prior's upper bound, say); `None`: 0.2 s after the fiducial's.
    pub latest_geocent_time: Option<f64>,
}

impl Default for RelativeBinningOptions {
    fn default() -> Self {
        Self {
            target: 1e-7,
            design_points: 48,
            design_scale: 2.0,
            design_depth: 50.0,
            seed: 1,
            max_nodes: 512,
            best_effort: false,
            arrival_window: 0.0,
            latest_geocent_time: None,
        }
    }
}

/// Wall-clock time of the stages of [`BbhRelativeBinning::new`], to see where a long
/// segment's set-up goes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SetupProfile {
    /// Fiducial series v and SNR² weights (2 C⁻¹ applies per detector).
    pub fiducial: Duration,
    /// Design set: Fisher matrix (5 C⁻¹ applies per detector), candidate draws and screening.
    pub design: Duration,
    /// Full-resolution design ratios and node refinement.
    pub nodes: Duration,
    /// Summary data a and G (2(B+1) + 1 C⁻¹ applies per detector).
    pub summary: Duration,
    /// Design candidates screened.
    pub candidates_screened: usize,
    /// Design waveforms kept (≤ `design_points`).
    pub design_waveforms: usize,
}

impl SetupProfile {
    /// Sum of the stages.
    pub fn total(&self) -> Duration {
        self.fiducial + self.design + self.nodes + self.summary
    }
}

/// One basis of a detector's summary data: one mode's node times and its fiducial there.
struct ModeNodes {
    /// Index of the mode in the model's modes.
    mode: usize,
    node_times: Vec<f64>,
    /// 1/v_b.
    inverse_fiducial: Vec<Complex64>,
}

/// The waveform whose node coefficients a trial evaluates.
enum NodeWaveform {
    /// IMRPhenomT's (2,2) mode alone.
    Mode22(IMRPhenomT<f64>),
    /// IMRPhenomTHM's modes.
    Modes(IMRPhenomTHM<f64>),
    /// A precessing binary's co-precessing terms.
    Precessing(Box<PrecessingSource<f64>>),
}

/// One detector's summary data and node times.
struct DetectorSummary {
    summary: SummaryData,
    /// The refinement's Σ_b E_b on the design set (the largest of the modes').
    refinement_error: f64,
    /// The bases, one per mode, in the order of the summary data's.
    bases: Vec<ModeNodes>,
    /// The distinct node times of all bases, increasing, each with the modes that have a node
    /// there (a precessing trial evaluates those terms at once), and each node's place.
    distinct_times: Vec<(f64, ModeSelection)>,
    place: Vec<usize>,
    /// The fiducial's arrival time t_c0 + τ_k0 (s).
    arrival: f64,
    /// The sample spacing (s).
    dt: f64,
}

impl DetectorSummary {
    /// The whole number of samples m nearest to `shift` − the fiducial's arrival time, within
    /// the summary data's shifts (beyond them the nodes resolve the rest of the difference, as
    /// they resolve all of it without shifts).
    fn sample_shift(&self, shift: f64) -> isize {
        let shifts = self.summary.shifts();
        let m = ((shift - self.arrival) / self.dt).round();
        m.clamp(*shifts.start() as f64, *shifts.end() as f64) as isize
    }

    /// Whether the whole-sample shift of a trial arriving at `shift` is within the summary
    /// data's shifts (not clamped).
    fn follows(&self, shift: f64) -> bool {
        let m = ((shift - self.arrival) / self.dt).round();
        let shifts = self.summary.shifts();
        (*shifts.start() as f64..=*shifts.end() as f64).contains(&m)
    }

    /// For a trial arriving at `shift` = t_c + τ_k, m whole samples after the fiducial (plus
    /// a fraction): the waveform W_lm(t_b + m·dt − `shift`) at each mode's nodes moved by m
    /// samples, then c_b = Q_j·W/v_b with mode j's factor Q_j from `s.projections`, and m, into
    /// the scratch (docs/likelihood.md §3.9).
    fn coefficients(&self, waveform: &NodeWaveform, shift: f64, s: &mut DetectorScratch) {
        match waveform {
            NodeWaveform::Mode22(waveform) => self.coefficients_22(waveform, shift, s, false),
            NodeWaveform::Modes(waveform) => {
                self.coefficients_of_modes(waveform, |t| t, shift, s, |_, _| {})
            }
            NodeWaveform::Precessing(source) => self.precessing_coefficients(source, shift, s),
        }
    }

    /// [`Self::coefficients`] of the (2,2) mode alone, with its traces in `s.modes` if
    /// `traced`.
    fn coefficients_22(
        &self,
        waveform: &IMRPhenomT<f64>,
        shift: f64,
        s: &mut DetectorScratch,
        traced: bool,
    ) {
        let basis = &self.bases[0];
        s.shift = self.sample_shift(shift);
        let offset = s.shift as f64 * self.dt;
        s.times.clear();
        s.times
            .extend(basis.node_times.iter().map(|&t| t + offset - shift));
        s.h22.resize(s.times.len(), [0.0; 2]);
        if traced {
            s.modes.resize(s.times.len(), Default::default());
            waveform.h22_traced_many(&s.times, &mut s.modes, &mut s.h22);
        } else {
            waveform.h22_many(&s.times, &mut s.h22);
        }
        s.ratios.clear();
        s.ratios.extend(
            s.h22
                .iter()
                .zip(&basis.inverse_fiducial)
                .map(|(h, inv_v)| Complex64::new(h[0], h[1]) * inv_v),
        );
        let factor = s.projections[0].value.factor;
        s.c.clear();
        s.c.extend(s.ratios.iter().map(|r| factor * r));
    }

    /// [`Self::coefficients`] of IMRPhenomTHM's modes, each at its own nodes, in any scalar:
    /// `time` makes the scalar of a node's time, and `record` sees each node's mode and 1/v.
    fn coefficients_of_modes<T: Real>(
        &self,
        waveform: &IMRPhenomTHM<T>,
        time: impl Fn(f64) -> T,
        shift: f64,
        s: &mut DetectorScratch,
        mut record: impl FnMut((T, T), Complex64),
    ) {
        s.shift = self.sample_shift(shift);
        let offset = s.shift as f64 * self.dt;
        s.ratios.clear();
        s.c.clear();
        let factors = s.projections.iter().map(|q| q.value.factor);
        for (basis, factor) in self.bases.iter().zip(factors) {
            for (&t, &inv_v) in basis.node_times.iter().zip(&basis.inverse_fiducial) {
                let h = waveform.mode_at(basis.mode, time(t + offset - shift));
                let r = Complex64::new(h.0.re(), h.1.re()) * inv_v;
                s.ratios.push(r);
                s.c.push(factor * r);
                record(h, inv_v);
            }
        }
    }

    /// [`Self::coefficients_of_modes`] of a waveform in dual numbers seeded in (M_c, q, χ1,
    /// χ2), at node times seeded as the fifth: the ratios' derivatives ∂_λ W/v and Ẇ/v go into
    /// `s.ratio_derivatives`.
    fn coefficients_with_derivatives(
        &self,
        waveform: &IMRPhenomTHM<Dual<5>>,
        shift: f64,
        s: &mut DetectorScratch,
    ) {
        let mut derivatives = std::mem::take(&mut s.ratio_derivatives);
        derivatives.clear();
        let time = |t: f64| Dual::variable(t, 4);
        self.coefficients_of_modes(waveform, time, shift, s, |(re, im), inv_v| {
            derivatives.push(std::array::from_fn(|i| {
                Complex64::new(re.eps[i], im.eps[i]) * inv_v
            }));
        });
        s.ratio_derivatives = derivatives;
    }
}

/// One detector's buffers: the waveform's times, h22 = A e^(−iΦ), values and traces at the
/// nodes, r_b, c_b = Q r_b (with higher modes, the ratios' derivatives), the adjoint g_b, and
/// the summary data's workspace.
#[derive(Default)]
struct DetectorScratch {
    times: Vec<f64>,
    h22: Vec<[f64; 2]>,
    modes: Vec<(Mode22<f64>, Mode22Trace)>,
    ratios: Vec<Complex64>,
    ratio_derivatives: Vec<[Complex64; 5]>,
    c: Vec<Complex64>,
    g: Vec<Complex64>,
    ws: RbWorkspace,
    /// Each mode's projection Q_k,lm, τ_k with its gradient.
    projections: Vec<ProjectionGradient>,
    /// A precessing binary's antenna patterns and delay, with their gradient.
    antenna: AntennaGradient,
    /// A precessing binary's terms at the distinct node times, in value or with their gradient.
    terms: Vec<[Complex64; COPRECESSING_MODES]>,
    components: Vec<[ComponentGradient; COPRECESSING_MODES]>,
    /// The whole-sample shift of the trial's arrival time from the fiducial's.
    shift: isize,
}

impl DetectorScratch {
    /// The adjoint g zeroed at the coefficients' length: an adjoint that returns early (a
    /// non-finite value) adds nothing.
    fn zero_adjoint(&mut self) {
        self.g.clear();
        self.g.resize(self.c.len(), Complex64::new(0.0, 0.0));
    }
}

/// Per-thread buffers of the evaluations, so that a call allocates nothing once warm: one set
/// per detector (the gradient's reverse pass starts only once every detector's inner products
/// are known), and the waveform's weights Re(z_b)/A_b and Im(z_b), z_b = g_b c_b.
#[derive(Default)]
struct Scratch {
    detectors: Vec<DetectorScratch>,
    amplitude_bar: Vec<f64>,
    phase_bar: Vec<f64>,
}

/// The first `n` of `detectors`, created if missing.
fn first_detectors(detectors: &mut Vec<DetectorScratch>, n: usize) -> &mut [DetectorScratch] {
    if detectors.len() < n {
        detectors.resize_with(n, Default::default);
    }
    &mut detectors[..n]
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// The inner products of a trial moved in time by whole samples ([`BbhRelativeBinning::time_lattice`]).
#[derive(Debug, Clone, PartialEq)]
pub struct TimeLattice {
    /// The sample spacing (s).
    pub dt: f64,
    /// The first step j (≤ 0) of `data_terms`: geocent_time moved by j·dt.
    pub first: isize,
    /// ⟨d|h₀⟩ + i⟨d|h₁⟩ summed over the detectors at the steps j = first, first + 1, … (0 is
    /// the trial), h₀ the template and h₁ that at phase + π/4 ([`QuadratureProducts`]).
    pub data_terms: Vec<Complex64>,
    /// ⟨h₀|h₀⟩, ⟨h₀|h₁⟩ and ⟨h₁|h₁⟩ summed over the detectors, at every step.
    pub template_terms: [f64; 3],
}

impl TimeLattice {
    /// The quadrature products at the `index`-th step (j = first + index).
    pub fn products(&self, index: usize) -> QuadratureProducts {
        let [h_00, h_01, h_11] = self.template_terms;
        QuadratureProducts {
            d_0: self.data_terms[index].re,
            d_1: self.data_terms[index].im,
            h_00,
            h_01,
            h_11,
        }
    }
}

/// The relative-binning likelihood of a BBH over a detector network, around one centre or a
/// bank of them (docs/likelihood.md §3.11), each trial binned against the centre of the cell
/// its (2,2) peak frequency falls in.
pub struct BbhRelativeBinning {
    /// The exact likelihood's model, with a precessing binary's step counts fixed.
    model: SignalModel,
    /// A precessing binary's frame.
    frame: Option<PrecessingFrame>,
    cells: Vec<Cell>,
    /// The peak frequencies (Hz) between consecutive cells, increasing.
    bounds: Vec<f64>,
    profile: SetupProfile,
}

/// The quadrature products rest on the template at phase + π/4 being −i times the template,
/// true of the (2,2) mode alone (docs/sampling.md §5.5): with higher modes they are an error,
/// not a silently wrong phase marginal.
fn only_22(model: &SignalModel, what: &str) -> Result<(), LikelihoodError> {
    if model.is_22_only() {
        Ok(())
    } else {
        Err(LikelihoodError::InvalidInput(format!(
            "{what} is exact for the (2,2) mode alone: this signal model has higher modes"
        )))
    }
}

/// An error where fewer than [`MIN_DESIGN_POINTS`] design waveforms of `count` lie within the
/// ln L deficit `depth` of the fiducial.
fn check_design_size(count: usize, depth: f64) -> Result<(), LikelihoodError> {
    if count < MIN_DESIGN_POINTS {
        return Err(LikelihoodError::InvalidInput(format!(
            "only {count} design waveforms lie within ln L deficit {depth} of the fiducial (need \
             {MIN_DESIGN_POINTS}): is the fiducial near the likelihood's maximum?"
        )));
    }
    Ok(())
}

impl BbhRelativeBinning {
    /// Places the nodes (design set around `fiducial`, refinement to `options.target`) and
    /// computes the summary data from the data and noise of `exact`. The design set is the
    /// Fisher Gaussian's for aligned spins; for a precessing binary, Gaussian draws at each
    /// parameter's conditional width screened by the exact ln L (docs/precession.md §12.7).
    pub fn new(
        exact: &BbhExactLikelihood,
        fiducial: BbhParameters,
        options: &RelativeBinningOptions,
    ) -> Result<Self, LikelihoodError> {
        if exact.model().spin_model() == SpinModel::Precessing {
            return Self::precessing(exact, fiducial, options);
        }
        let mut profile = SetupProfile::default();
        let mut clock = Instant::now();
        let mut lap = |stage: &mut Duration| {
            *stage += clock.elapsed();
            clock = Instant::now();
        };
        let (model, like) = (exact.model(), exact.likelihood());
        let grid = like.grid();
        let noises = noise_inverses(exact);
        let fiducial_series = fiducial_series(exact, model, &fiducial, None)?;
        let fiducials = detector_fiducials(model, grid, &fiducial, &fiducial_series, None);
        lap(&mut profile.fiducial);

        // Design set: Fisher-Gaussian candidates, kept where their ln L deficit (after the
        // best constant factor) is below `design_depth`: the Gaussian overshoots along the
        // curved mass-ratio–spin degeneracy.
        let candidates = draw_design_points(
            model,
            grid,
            &noises,
            &fiducial,
            options.design_points * DESIGN_OVERSAMPLING,
            options.design_scale,
            options.seed,
        )?;
        let stride = ((SCREEN_SPACING / grid.dt).round() as usize).max(1);
        let mut design = Vec::with_capacity(options.design_points);
        for point in candidates {
            // Candidates are kept in order, so the set is the same without the rest; a
            // deficit already too large in one detector needs no other (a long segment's
            // screening is a sizeable part of its set-up).
            if design.len() == options.design_points {
                break;
            }
            profile.candidates_screened += 1;
            let mut deficit = 0.0;
            // The first mode's ratio (the (2,2)'s, where the model has it) measures the deficit.
            for f in fiducials.iter().map(|modes| &modes[0]) {
                deficit += match f.ratio_residual(&point, stride) {
                    Ok(d) => d,
                    // A Gaussian draw outside the waveform model's range is no design point.
                    Err(LikelihoodError::Signal(_)) => f64::INFINITY,
                    Err(e) => return Err(e),
                };
                if deficit > options.design_depth {
                    break;
                }
            }
            if deficit <= options.design_depth {
                design.push(point);
            }
        }
        check_design_size(design.len(), options.design_depth)?;
        profile.design_waveforms = design.len();
        lap(&mut profile.design);
        PlacedNodes::refine(exact, fiducial, &design, options, profile)?.summarise()
    }

    /// [`Self::new`] for a precessing binary: the design set of [`draw_precessing_design`]
    /// (conditional widths, not the Fisher Gaussian, which describes this posterior poorly:
    /// docs/precession.md §12.3), screened by the exact ln L.
    fn precessing(
        exact: &BbhExactLikelihood,
        fiducial: BbhParameters,
        options: &RelativeBinningOptions,
    ) -> Result<Self, LikelihoodError> {
        let clock = Instant::now();
        let (design, screened) = draw_precessing_design(
            exact,
            &fiducial,
            options.design_points,
            options.design_scale,
            options.design_depth,
            options.seed,
            options.design_points * PRECESSING_OVERSAMPLING,
        )?;
        check_design_size(design.len(), options.design_depth)?;
        let design_time = clock.elapsed();
        let mut placed = Self::place_on_draws(exact, fiducial, &design, options)?;
        placed.profile.design = design_time;
        placed.profile.candidates_screened = screened;
        placed.summarise()
    }

    /// Relative binning around `fiducial` whose design set is `draws` (posterior draws of a
    /// pilot run, say): the nodes are refined until every draw's ratio is interpolated to
    /// `options.target`.
    pub fn from_draws(
        exact: &BbhExactLikelihood,
        fiducial: BbhParameters,
        draws: &[BbhParameters],
        options: &RelativeBinningOptions,
    ) -> Result<Self, LikelihoodError> {
        Self::place_on_draws(exact, fiducial, draws, options)?.summarise()
    }

    /// The nodes of [`Self::from_draws`] without the summary data: their count is known at a
    /// small part of the set-up's cost, before deciding whether the summary data are wanted
    /// (a bank's cell that needs too many nodes is split instead, docs/likelihood.md §3.11).
    pub fn place_on_draws<'a>(
        exact: &'a BbhExactLikelihood,
        fiducial: BbhParameters,
        draws: &[BbhParameters],
        options: &RelativeBinningOptions,
    ) -> Result<PlacedNodes<'a>, LikelihoodError> {
        let mut profile = SetupProfile::default();
        let clock = Instant::now();
        let model = exact.model();
        let arrival =
            |p: &BbhParameters, k: usize| p.geocent_time + model.projection(k, p).value.delay;
        let design: Vec<DesignPoint> = draws
            .iter()
            .map(|p| DesignPoint {
                parameters: *p,
                shifts: (0..model.detectors().len())
                    .map(|k| arrival(p, k) - arrival(&fiducial, k))
                    .collect(),
            })
            .collect();
        profile.design_waveforms = design.len();
        profile.fiducial = clock.elapsed();
        PlacedNodes::refine(exact, fiducial, &design, options, profile)
    }

    /// The signal model: the detectors and the modes.
    pub fn model(&self) -> &SignalModel {
        &self.model
    }

    /// Where the set-up's time went (summed over the cells of a bank).
    pub fn setup_profile(&self) -> SetupProfile {
        self.profile
    }

    /// ⟨d|h⟩ and ⟨h|h⟩ summed over the detectors.
    pub fn inner_products(&self, p: &BbhParameters) -> Result<InnerProducts, LikelihoodError> {
        self.summed_over_detectors(p, SummaryData::inner_products)
    }

    /// ⟨d|h⟩ and ⟨h|h⟩ of each detector, in the order of the model's detectors (per-detector
    /// SNRs of posterior draws).
    pub fn detector_inner_products(
        &self,
        p: &BbhParameters,
    ) -> Result<Vec<InnerProducts>, LikelihoodError> {
        let mut out = Vec::with_capacity(self.model.detectors().len());
        self.for_each_detector(p, SummaryData::inner_products, |products| {
            out.push(products)
        })?;
        Ok(out)
    }

    /// `per_detector` of each detector's summary data and node coefficients at `p` (with their
    /// whole-sample shift and workspace), summed over the detectors.
    fn summed_over_detectors<T: Default + std::ops::AddAssign>(
        &self,
        p: &BbhParameters,
        per_detector: impl Fn(&SummaryData, &[Complex64], isize, &mut RbWorkspace) -> Result<T, RbError>,
    ) -> Result<T, LikelihoodError> {
        let mut total = T::default();
        self.for_each_detector(p, per_detector, |value| total += value)?;
        Ok(total)
    }

    /// The waveform whose node coefficients a trial at `p` evaluates.
    fn node_waveform(&self, p: &BbhParameters) -> Result<NodeWaveform, LikelihoodError> {
        if let Some(frame) = &self.frame {
            return Ok(NodeWaveform::Precessing(Box::new(
                frame.source(&self.model, p)?,
            )));
        }
        let (mc, q, chi_1, chi_2) = (p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2);
        Ok(if self.model.is_22_only() {
            NodeWaveform::Mode22(self.model.waveform(mc, q, chi_1, chi_2)?)
        } else {
            NodeWaveform::Modes(self.model.mode_waveform(mc, q, chi_1, chi_2)?)
        })
    }

    /// Detector `k`'s projection of each mode at `p` into the scratch (for a precessing
    /// binary, its antenna patterns); returns its delay τ_k (every mode's).
    fn detector_response(&self, k: usize, p: &BbhParameters, ds: &mut DetectorScratch) -> f64 {
        let projections = &mut ds.projections;
        projections.clear();
        if self.frame.is_some() {
            ds.antenna = self.model.antenna(k, p);
            return ds.antenna.delay;
        }
        if self.model.is_22_only() {
            projections.push(self.model.projection(k, p));
        } else {
            projections.extend(self.model.mode_projections(k, p));
        }
        projections[0].value.delay
    }

    /// Hands `per_detector` of each detector's summary data and node coefficients at `p` (with
    /// their whole-sample shift and workspace) to `consume`, detector after detector.
    fn for_each_detector<T>(
        &self,
        p: &BbhParameters,
        per_detector: impl Fn(&SummaryData, &[Complex64], isize, &mut RbWorkspace) -> Result<T, RbError>,
        mut consume: impl FnMut(T),
    ) -> Result<(), LikelihoodError> {
        let waveform = self.node_waveform(p)?;
        let detectors = &self.cell(p).detectors;
        SCRATCH.with_borrow_mut(|s| {
            for (k, (det, ds)) in detectors
                .iter()
                .zip(first_detectors(&mut s.detectors, detectors.len()))
                .enumerate()
            {
                let delay = self.detector_response(k, p, ds);
                det.coefficients(&waveform, p.geocent_time + delay, ds);
                consume(per_detector(&det.summary, &ds.c, ds.shift, &mut ds.ws)?);
            }
            Ok(())
        })
    }

    /// The sample spacing of the time lattice ([`Self::time_lattice`]), `None` without one
    /// (summary data without shifts).
    pub fn lattice_spacing(&self) -> Option<f64> {
        let mut detectors = self.cells.iter().flat_map(|c| &c.detectors);
        let shifted = detectors.any(|d| d.summary.shifts() != (0..=0));
        shifted.then(|| self.cells[0].detectors[0].dt)
    }

    /// The quadrature products at `p` with geocent_time moved by every whole number of samples
    /// j the summary data's shifts follow in all detectors (docs/likelihood.md §3.10): the node
    /// coefficients once, then one pass over each detector's data projections. The template
    /// terms are those at `p` for every j (the Gram matrices of other shifts differ by ~10⁻⁶
    /// of them). `None` without shifts, where `p` arrives outside them in a detector, or with
    /// higher modes (whose templates at other phases are no combination of two).
    pub fn time_lattice(&self, p: &BbhParameters) -> Result<Option<TimeLattice>, LikelihoodError> {
        let Some(dt) = self.lattice_spacing() else {
            return Ok(None);
        };
        if !self.model.is_22_only() {
            return Ok(None);
        }
        let waveform = self.node_waveform(p)?;
        let summaries = &self.cell(p).detectors;
        SCRATCH.with_borrow_mut(|s| {
            let detectors = first_detectors(&mut s.detectors, summaries.len());
            let (mut first, mut last) = (isize::MIN, isize::MAX);
            let mut at_trial = QuadratureProducts::default();
            for (k, (det, ds)) in summaries.iter().zip(detectors.iter_mut()).enumerate() {
                let arrival = p.geocent_time + self.detector_response(k, p, ds);
                if !det.follows(arrival) {
                    return Ok(None);
                }
                det.coefficients(&waveform, arrival, ds);
                at_trial += det
                    .summary
                    .quadrature_products_for_adjoint(&ds.c, ds.shift, &mut ds.ws)?;
                let shifts = det.summary.shifts();
                first = first.max(shifts.start() - ds.shift);
                last = last.min(shifts.end() - ds.shift);
            }
            let steps = usize::try_from(last - first + 1).unwrap_or(0);
            let mut data_terms = vec![Complex64::new(0.0, 0.0); steps];
            let mut terms = Vec::with_capacity(data_terms.len());
            for (det, ds) in summaries.iter().zip(detectors.iter()) {
                let shifts = ds.shift + first..=ds.shift + last;
                det.summary.data_terms(&ds.c, shifts, &mut terms)?;
                data_terms.iter_mut().zip(&terms).for_each(|(d, t)| *d += t);
            }
            Ok(Some(TimeLattice {
                dt,
                first,
                data_terms,
                template_terms: [at_trial.h_00, at_trial.h_01, at_trial.h_11],
            }))
        })
    }

    /// Log-likelihood ratio against the noise-only hypothesis.
    pub fn log_likelihood_ratio(&self, p: &BbhParameters) -> Result<f64, LikelihoodError> {
        Ok(self.inner_products(p)?.log_likelihood_ratio())
    }

    /// Log-likelihood ratio and its gradient with respect to the parameters (indexed by
    /// [`Parameter`](tdpe_signal::Parameter)).
    pub fn log_likelihood_ratio_and_gradient(
        &self,
        p: &BbhParameters,
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        self.function_and_gradient(p, |ip| ip.log_likelihood_ratio_with_partials(), gradient)
    }

    /// A function F(⟨d|h⟩, ⟨h|h⟩) of the inner products and its gradient with respect to the
    /// parameters: `f` returns [F, ∂F/∂⟨d|h⟩, ∂F/∂⟨h|h⟩] (for ln L: [⟨d|h⟩ − ½⟨h|h⟩, 1, −½];
    /// for a likelihood marginalised over distance, a function of both).
    ///
    /// Reverse mode through the waveform (docs/likelihood.md §3.6): with the adjoint g of F and
    /// z_b = g_b c_b, Re(g_b ∂c_b) = Re(z_b) ∂A_b/A_b + Im(z_b) ∂Φ_b for c_b ∝ A_b e^(−iΦ_b), so
    /// the nodes are evaluated in f64 and their weighted derivatives accumulated by
    /// [`IMRPhenomT::mode22_adjoint_many`], then contracted once with the set-up's derivatives
    /// (duals in M_c, q, χ1, χ2 only).
    pub fn function_and_gradient(
        &self,
        p: &BbhParameters,
        f: impl FnOnce(InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        self.with_adjoint(p, gradient, |summaries, detectors| {
            let mut products = InnerProducts::default();
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                products += det
                    .summary
                    .inner_products_for_adjoint(&ds.c, ds.shift, &mut ds.ws)?;
            }
            let [value, d_dh, d_hh] = f(products);
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                det.summary
                    .adjoint_of(d_dh, d_hh, ds.shift, &ds.ws, &mut ds.g)?;
            }
            Ok(value)
        })
    }

    /// Whether the trial at `p` and the `steps` − 1 whole-sample steps after it arrive, in every
    /// detector, within the time shifts the summary data follow
    /// ([`Self::window_function_and_gradient`] evaluates only such windows).
    pub fn follows_window(&self, p: &BbhParameters, steps: usize) -> bool {
        let summaries = &self.cell(p).detectors;
        let last_step = steps.saturating_sub(1) as f64 * summaries[0].dt;
        summaries.iter().enumerate().all(|(k, det)| {
            let arrival = p.geocent_time + self.model.projection(k, p).value.delay;
            det.follows(arrival) && det.follows(arrival + last_step)
        })
    }

    /// An error unless the window of `steps` whole-sample steps from `p` has at least one step
    /// and arrives within the summary data's shifts in every detector.
    fn check_window(&self, p: &BbhParameters, steps: usize) -> Result<(), LikelihoodError> {
        if steps == 0 {
            return Err(LikelihoodError::InvalidInput(
                "a window of whole-sample time steps needs at least one step".into(),
            ));
        }
        if !self.follows_window(p, steps) {
            return Err(LikelihoodError::InvalidInput(format!(
                "geocent_time {} s and the {steps} whole-sample steps after it arrive outside \
                 the relative binning's time shifts",
                p.geocent_time
            )));
        }
        Ok(())
    }

    /// ln Σ_j exp F_j of [`Self::window_function_and_gradient`] without its gradient, F_j =
    /// `f(j, ip_j)`: the waveform at the nodes without its traces, one quadratic form and one
    /// pass over the data projections per detector, and no adjoint.
    pub fn window_function(
        &self,
        p: &BbhParameters,
        steps: usize,
        mut f: impl FnMut(usize, InnerProducts) -> f64,
    ) -> Result<f64, LikelihoodError> {
        self.check_window(p, steps)?;
        let mut h_h = 0.0;
        let mut data = vec![0.0; steps];
        self.for_each_detector(
            p,
            |summary, c, shift, ws| {
                let h_h = summary.inner_products(c, shift, ws)?.h_h;
                let mut terms = Vec::with_capacity(steps);
                summary.data_terms(c, shift..=shift + steps as isize - 1, &mut terms)?;
                Ok((h_h, terms))
            },
            |(detector_h_h, terms)| {
                h_h += detector_h_h;
                data.iter_mut().zip(&terms).for_each(|(d, t)| *d += t.re);
            },
        )?;
        let values: Vec<f64> = data
            .iter()
            .enumerate()
            .map(|(j, &d_h)| f(j, InnerProducts { d_h, h_h }))
            .collect();
        Ok(log_sum_exp(&values))
    }

    /// ln Σ_j exp F_j over the `steps` trials θ_j = θ with geocent_time moved by j whole
    /// samples, j = 0 … steps − 1, where `f(j, ip_j)` returns [F_j, ∂F_j/∂⟨d|h⟩, ∂F_j/∂⟨h|h⟩]
    /// of θ_j's inner products, and its gradient with respect to the parameters at θ; the
    /// weights ρ_j = exp(F_j)/Σ exp F go into `weights` (docs/sampling.md §5.6). The θ_j share
    /// θ's node coefficients (docs/likelihood.md §3.10): one waveform evaluation and one
    /// symmetric matvec per detector, and two passes over `steps` data projections. ⟨h|h⟩ is
    /// θ's at every step (the Gram anchors of other shifts differ by ~10⁻⁶ of it). An error
    /// where a step arrives outside the summary data's shifts in some detector.
    pub fn window_function_and_gradient(
        &self,
        p: &BbhParameters,
        steps: usize,
        mut f: impl FnMut(usize, InnerProducts) -> [f64; 3],
        gradient: &mut ParameterVector,
        weights: &mut Vec<f64>,
    ) -> Result<f64, LikelihoodError> {
        self.check_window(p, steps)?;
        self.with_adjoint(p, gradient, |summaries, detectors| {
            let mut h_h = 0.0;
            let mut data = vec![0.0; steps];
            let mut terms = Vec::with_capacity(steps);
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                h_h += det
                    .summary
                    .inner_products_for_adjoint(&ds.c, ds.shift, &mut ds.ws)?
                    .h_h;
                let shifts = ds.shift..=ds.shift + steps as isize - 1;
                det.summary.data_terms(&ds.c, shifts, &mut terms)?;
                data.iter_mut().zip(&terms).for_each(|(d, t)| *d += t.re);
            }
            let partials: Vec<[f64; 3]> = data
                .iter()
                .enumerate()
                .map(|(j, &d_h)| f(j, InnerProducts { d_h, h_h }))
                .collect();
            let values: Vec<f64> = partials.iter().map(|p| p[0]).collect();
            let value = log_sum_exp_weights(&values, weights);
            if !value.is_finite() {
                return Ok(value);
            }
            let d_hh: f64 = weights.iter().zip(&partials).map(|(w, p)| w * p[2]).sum();
            let d_dh: Vec<f64> = weights
                .iter()
                .zip(&partials)
                .map(|(w, p)| w * p[1])
                .collect();
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                det.summary
                    .adjoint_of(0.0, d_hh, ds.shift, &ds.ws, &mut ds.g)?;
                det.summary.add_data_adjoint(&d_dh, ds.shift, &mut ds.g)?;
            }
            Ok(value)
        })
    }

    /// The inner products of the template at `p` and at `p` with phase + π/4, summed over the
    /// detectors ([`QuadratureProducts`]: with the (2,2) mode only, every phase's template is
    /// a combination of the two).
    pub fn quadrature_products(
        &self,
        p: &BbhParameters,
    ) -> Result<QuadratureProducts, LikelihoodError> {
        only_22(&self.model, "the quadrature products' phase rotation")?;
        self.summed_over_detectors(p, SummaryData::quadrature_products_for_adjoint)
    }

    /// A function F of the [`QuadratureProducts`] at `p` and its gradient with respect to the
    /// parameters: `f` returns [F, ∂F/∂d₀, ∂F/∂d₁, ∂F/∂h₀₀, ∂F/∂h₀₁, ∂F/∂h₁₁] (a likelihood
    /// marginalised over the phase, docs/sampling.md §5.5). The template at phase + π/4 has the
    /// node coefficients −i c, so one waveform evaluation serves both; the quadratic forms take
    /// two symmetric matvecs instead of one.
    pub fn quadrature_function_and_gradient(
        &self,
        p: &BbhParameters,
        f: impl FnOnce(QuadratureProducts) -> [f64; 6],
        gradient: &mut ParameterVector,
    ) -> Result<f64, LikelihoodError> {
        only_22(&self.model, "the quadrature products' phase rotation")?;
        self.with_adjoint(p, gradient, |summaries, detectors| {
            let mut products = QuadratureProducts::default();
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                products += det
                    .summary
                    .quadrature_products_for_adjoint(&ds.c, ds.shift, &mut ds.ws)?;
            }
            let [value, partials @ ..] = f(products);
            for (det, ds) in summaries.iter().zip(detectors.iter_mut()) {
                det.summary
                    .quadrature_adjoint_of(&partials, ds.shift, &ds.ws, &mut ds.g)?;
            }
            Ok(value)
        })
    }
}
