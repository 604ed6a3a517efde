//! The problem a configuration describes, set up before any sampling: the detectors, the data
//! (an injection into seeded noise, or strain files), the PSDs, the priors and the exact
//! likelihood, checked against each other.

use anyhow::{bail, Context};
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{BbhExactLikelihood, ExactLikelihood, SampleGrid};
use tdpe_noise::{AnalysisBand, Psd, PsdColumn, BUILTIN_PSDS};
use tdpe_phenomt::{IMRPhenomT, Mode, Settings};
use tdpe_posterior::prior::{PriorFile, PriorSet, GW150914_LIKE_PRIOR};
use tdpe_posterior::Analysis;
use tdpe_signal::{chirp_mass_and_ratio, component_masses, BbhParameters, SignalModel};

use crate::config::{Config, PsdColumnName, StrainFormat};
use crate::data::{detector_seed, read_frequency_series, read_time_series, simulate_noise};
use crate::gwosc_data;
use crate::waveform_model::Approximant;

/// Everything set up before sampling.
pub struct Problem {
    /// The configuration, validated.
    pub config: Config,
    /// The reference epoch of every time in the run (the trigger time).
    pub epoch: GpsTime,
    /// The analysis segment's sample grid (times relative to the epoch).
    pub grid: SampleGrid,
    /// The analysed band of each detector (minimum_frequency, maximum_frequency).
    pub bands: Vec<AnalysisBand>,
    /// One PSD per detector.
    pub psds: Vec<Psd>,
    /// Per detector: whether its PSD was estimated from the GWOSC file's off-source data
    /// (and is to be written beside the results).
    pub estimated_psd: Vec<bool>,
    /// The exact likelihood of the data with the priors.
    pub analysis: Analysis,
    /// The injected parameters, if the data are an injection.
    pub injection: Option<BbhParameters>,
    /// Where each detector's data came from, for the summary (GWOSC files; empty otherwise).
    pub data_sources: Vec<String>,
}

impl Problem {
    /// Reads and checks everything up to the exact likelihood.
    pub fn set_up(config: Config) -> anyhow::Result<Self> {
        config.validate()?;
        let Model {
            epoch,
            model,
            priors,
        } = Model::new(&config)?.with_likelihood()?;
        let injection = model_injection(&config, &epoch, &priors)?;
        let fs = config.sampling_frequency;
        // GWOSC files are read first: their grid fixes the segment's start, and they hold the
        // off-source data of PSDs the config does not give.
        let gwosc = match &config.strain {
            Some(strain) if strain.format == StrainFormat::GwoscHdf5 => {
                Some(gwosc_data::read(&config, strain)?)
            }
            _ => None,
        };
        let grid_start = gwosc
            .as_ref()
            .map_or(config.post_trigger_duration - config.duration, |g| {
                g.start - config.trigger_time
            });
        let (mut gwosc_samples, mut estimated_psds, data_sources) = gwosc
            .map(gwosc_data::GwoscData::into_parts)
            .unwrap_or_default();
        let estimated_psd = (0..config.detectors.len())
            .map(|k| matches!(estimated_psds.get(k), Some(Some(_))))
            .collect();
        let grid = SampleGrid::new(grid_start, fs, config.duration)?;
        let bands = config.bands()?;
        let psds = config
            .detectors
            .iter()
            .zip(&bands)
            .enumerate()
            .map(|(k, (d, band))| {
                let psd = match estimated_psds.get_mut(k).and_then(Option::take) {
                    Some(psd) => psd,
                    None => load_psd(&config, d, band).with_context(|| format!("PSD of {d}"))?,
                };
                band.check_psd(&psd, fs / 2.0)
                    .with_context(|| format!("PSD of {d}"))?;
                let band_top = band.upper_edge(fs / 2.0);
                if let Some(warning) = implausible_scale(&psd, band.f_low, band_top) {
                    eprintln!("warning: PSD of {d}: {warning}");
                }
                Ok(psd)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let data: Vec<Vec<f64>> = match (&injection, &config.strain) {
            (Some(p), _) => {
                let inj = config.injection.as_ref().context("injection settings")?;
                let signal = injection_model(&config)?
                    .strain(p, grid.start, grid.dt, grid.len)
                    .context("injection")?;
                signal
                    .into_iter()
                    .enumerate()
                    .map(|(k, mut h)| {
                        if !inj.zero_noise {
                            let seed = detector_seed(inj.noise_seed, k);
                            let noise = simulate_noise(&psds[k], &bands[k], &grid, seed)?;
                            h.iter_mut().zip(&noise).for_each(|(h, n)| *h += n);
                        }
                        Ok(h)
                    })
                    .collect::<anyhow::Result<_>>()?
            }
            (None, Some(strain)) => {
                let start_gps = config.trigger_time + grid.start;
                config
                    .detectors
                    .iter()
                    .enumerate()
                    .map(|(k, d)| {
                        let path = config.resolve(&strain.files[d]);
                        match strain.format {
                            StrainFormat::TimeSeries => read_time_series(&path, &grid, start_gps),
                            StrainFormat::FrequencySeries => read_frequency_series(&path, &grid),
                            StrainFormat::GwoscHdf5 => gwosc_samples
                                .get_mut(k)
                                .map(std::mem::take)
                                .with_context(|| format!("no GWOSC data read for {d}")),
                        }
                    })
                    .collect::<anyhow::Result<_>>()?
            }
            (None, None) => bail!("no data: give an [injection] or a [strain] table"),
        };
        let inputs = config
            .detectors
            .iter()
            .zip(data)
            .zip(psds.iter().zip(&bands))
            .map(|((d, x), (psd, band))| (d.clone(), x, psd, band))
            .collect();
        let exact = ExactLikelihood::from_psds(grid, inputs)?;
        let exact = BbhExactLikelihood::new(model, exact)?;
        let analysis = Analysis::new(exact, priors)?;
        Ok(Self {
            config,
            epoch,
            grid,
            bands,
            psds,
            estimated_psd,
            analysis,
            injection,
            data_sources,
        })
    }

    /// The exact likelihood.
    pub fn exact(&self) -> &BbhExactLikelihood {
        self.analysis.exact()
    }

    /// The priors.
    pub fn priors(&self) -> &PriorSet {
        self.analysis.priors()
    }
}

/// The part of a [`Problem`] that needs neither data nor PSDs: the signal model of the
/// network and the priors resolved for it. Cheap to build, so that a campaign checks every
/// injection with it ([`check_injection`]) before any run starts.
pub struct Model {
    /// The reference epoch of every time in the run (the trigger time).
    pub epoch: GpsTime,
    /// The detectors' signal model.
    pub model: SignalModel,
    /// The priors, resolved for the model.
    pub priors: PriorSet,
}

impl Model {
    /// The model and priors of `config` (its prior file, or the embedded default).
    pub fn new(config: &Config) -> anyhow::Result<Self> {
        let epoch = GpsTime::from_f64(config.trigger_time).context("trigger_time")?;
        let model = signal_model(config, config.waveform_approximant, &config.modes()?)?;
        let file = if config.prior_file == "default" {
            PriorFile::parse(
                GW150914_LIKE_PRIOR,
                "default prior (examples/gw150914_like.prior)",
            )?
        } else {
            PriorFile::read(&config.resolve(&config.prior_file))?
        };
        let priors = PriorSet::resolve(file, &model, config.trigger_time)?;
        Ok(Self {
            epoch,
            model,
            priors,
        })
    }

    /// The model, if its spins are its priors' ([`Analysis::check_spin_model`]): checked
    /// before any data are read or runs start.
    pub fn with_likelihood(self) -> anyhow::Result<Self> {
        Analysis::check_spin_model(self.priors.spin_model, self.model.spin_model())?;
        Ok(self)
    }
}

/// The signal model of `approximant` with `modes` (IMRPhenomTPHM: its co-precessing ones) on
/// the network, epoch and settings of `config`.
fn signal_model(
    config: &Config,
    approximant: Approximant,
    modes: &[Mode],
) -> anyhow::Result<SignalModel> {
    let detectors = Detector::network(&config.detectors).context("detectors")?;
    let epoch = GpsTime::from_f64(config.trigger_time).context("trigger_time")?;
    let model = SignalModel::new(
        detectors,
        epoch,
        config.reference_frequency,
        1.0 / config.sampling_frequency,
    )?;
    Ok(if approximant.is_precessing() {
        model.precessing()
    } else {
        model.with_modes(modes)?
    })
}

/// The signal model of `config`'s injection.
fn injection_model(config: &Config) -> anyhow::Result<SignalModel> {
    let inj = config.injection.as_ref().context("injection settings")?;
    signal_model(config, inj.approximant(config), &inj.modes(config)?)
}

/// Checks `config` and its injection as [`Problem::set_up`] does before it simulates any
/// data: the settings, the injection within its priors and the waveform model's range, and
/// its signal reaching the band.
pub fn check_injection(config: &Config) -> anyhow::Result<()> {
    config.validate()?;
    let Model { epoch, priors, .. } = Model::new(config)?.with_likelihood()?;
    model_injection(config, &epoch, &priors)?;
    Ok(())
}

/// The injected parameters of `config` (geocent_time relative to `epoch`), admitted by the
/// priors, with a waveform in its model's range whose signal reaches the band; without an
/// injection, the check that some binary of the prior reaches it.
fn model_injection(
    config: &Config,
    epoch: &GpsTime,
    priors: &PriorSet,
) -> anyhow::Result<Option<BbhParameters>> {
    let injection = injection_parameters(config, epoch)?
        .map(|p| priors.admit(&p.to_array(), "injection"))
        .transpose()?
        .map(BbhParameters::from_array);
    if let Some(p) = &injection {
        // One sample: the waveform's set-up checks the binary against the model's range.
        let dt = 1.0 / config.sampling_frequency;
        injection_model(config)?
            .strain(p, p.geocent_time, dt, 1)
            .context("injection")?;
    }
    let lowest_f_min = config
        .bands()?
        .iter()
        .map(|b| b.f_low)
        .fold(f64::INFINITY, f64::min);
    check_band_is_reached(config, lowest_f_min, priors, injection.as_ref())?;
    Ok(injection)
}

/// The PSD of `detector` from the config: built-in name, file, or the design default. A file's
/// values are needed only in the detector's `band`.
fn load_psd(config: &Config, detector: &str, band: &AnalysisBand) -> anyhow::Result<Psd> {
    let psd = match config.psd.get(detector) {
        None => Psd::default_for_detector(detector)?,
        Some(spec) if BUILTIN_PSDS.iter().any(|b| b.eq_ignore_ascii_case(spec)) => {
            Psd::builtin(spec)?
        }
        Some(spec) => {
            let column = match config.psd_column {
                PsdColumnName::Psd => PsdColumn::Psd,
                PsdColumnName::Asd => PsdColumn::Asd,
            };
            // bilby's PSD files start at 0 Hz (a PSD's frequencies must be > 0) and hold
            // `inf` above their maximum frequency, and estimates may hold 0 or NaN where the
            // data had no power: blank the rows with f ≤ 0 or +inf, and rows outside the band
            // whose value is no positive number (the likelihood does not use the PSD there,
            // docs/likelihood.md §1.3), keeping the line numbers of the parser's messages;
            // the parser judges the rest, so a bad value inside the band is an error.
            // If the last kept row lies less than 1 % below the Nyquist frequency, its value is
            // repeated at the Nyquist frequency (a 1024 Hz file analysed at 2048 Hz).
            let path = config.resolve(spec);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read PSD file {}", path.display()))?;
            let nyquist = config.sampling_frequency / 2.0;
            let in_band = band.f_low..=band.upper_edge(nyquist);
            let mut kept = String::new();
            let mut last: Option<(f64, String)> = None;
            let usable = |v: f64| v.is_finite() && v > 0.0;
            for line in text.lines() {
                let cols: Vec<f64> = line
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
                match cols[..] {
                    [f, v]
                        if f <= 0.0
                            || v == f64::INFINITY
                            || (!usable(v) && !in_band.contains(&f)) =>
                    {
                        kept.push('\n');
                        continue;
                    }
                    [f, _] => {
                        last = Some((f, line.split_whitespace().nth(1).unwrap_or("").to_string()))
                    }
                    _ => {}
                }
                kept.push_str(line);
                kept.push('\n');
            }
            if let Some((f, value)) = last {
                if f < nyquist && f > 0.99 * nyquist {
                    kept.push_str(&format!("{nyquist} {value}\n"));
                }
            }
            Psd::parse(&kept, &path.display().to_string(), column)?
        }
    };
    Ok(psd)
}

/// The range (1/Hz) of the smallest value of a ground-based detector's strain PSD, from the
/// initial detectors (~10⁻⁴⁵) to beyond the design curves (~10⁻⁴⁸), with two decades of room.
const PLAUSIBLE_PSD_MINIMUM: (f64, f64) = (1e-52, 1e-40);

/// Why `psd`'s scale over [lo, hi] Hz is no detector's, if it is not: a PSD orders of
/// magnitude off (an ASD in a PSD column, say) gives a likelihood that sees no signal or only
/// signal, which would surface much later as a failure far from its cause.
fn implausible_scale(psd: &Psd, lo: f64, hi: f64) -> Option<String> {
    let smallest = psd
        .frequencies()
        .iter()
        .zip(psd.values())
        .filter(|(f, _)| (lo..=hi).contains(*f))
        .map(|(_, v)| *v)
        .fold(f64::INFINITY, f64::min);
    let (low, high) = PLAUSIBLE_PSD_MINIMUM;
    if (low..=high).contains(&smallest) || !smallest.is_finite() {
        return None;
    }
    let hint = if (1e-26..=1e-18).contains(&smallest) {
        " (values like an ASD: is psd_column = \"asd\" meant?)"
    } else {
        ""
    };
    Some(format!(
        "its smallest value in the band is {smallest:.2e} /Hz, where a detector's lies between \
         {low:.0e} and {high:.0e}{hint}"
    ))
}

/// Fails if no binary the analysis could see reaches `f_min`, the lowest detector's
/// minimum_frequency: the injection's (2,2) mode, or without one the prior box's corners
/// ([`PriorSet::waveform_corners`]). Above its ringdown frequency the likelihood sees none of
/// the signal.
fn check_band_is_reached(
    config: &Config,
    f_min: f64,
    priors: &PriorSet,
    injection: Option<&BbhParameters>,
) -> anyhow::Result<()> {
    let settings = Settings {
        f_min,
        f_ref: f_min,
        delta_t: 1.0 / config.sampling_frequency,
        smooth: true,
    };
    let reaches = |[chirp_mass, mass_ratio, chi_1, chi_2]: [f64; 4]| {
        let (m1, m2) = component_masses(chirp_mass, mass_ratio);
        IMRPhenomT::new(m1, m2, chi_1, chi_2, &settings).is_ok()
    };
    if let Some(p) = injection {
        if !reaches([p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2]) {
            bail!(
                "minimum_frequency = {f_min} Hz is above the injected binary's ringdown: the \
                 likelihood would see none of its signal"
            );
        }
        return Ok(());
    }
    if !priors.waveform_corners().into_iter().any(reaches) {
        bail!(
            "minimum_frequency = {f_min} Hz is above the ringdown of every binary the prior \
             allows: the likelihood would see no signal"
        );
    }
    Ok(())
}

/// The injected parameters (geocent_time relative to `epoch`).
fn injection_parameters(config: &Config, epoch: &GpsTime) -> anyhow::Result<Option<BbhParameters>> {
    let Some(inj) = &config.injection else {
        return Ok(None);
    };
    let (chirp_mass, mass_ratio) = match (inj.mass_1, inj.mass_2, inj.chirp_mass, inj.mass_ratio) {
        (Some(m1), Some(m2), None, None) => {
            if !(m1 > 0.0 && m2 > 0.0) {
                bail!("injection: mass_1 = {m1} and mass_2 = {m2} must be > 0 M☉");
            }
            chirp_mass_and_ratio(m1, m2)
        }
        (None, None, Some(mc), Some(q)) => (mc, q),
        _ => bail!("injection: give mass_1 and mass_2, or chirp_mass and mass_ratio"),
    };
    let gps = inj.geocent_time.unwrap_or(config.trigger_time);
    let geocent_time = GpsTime::from_f64(gps)?.seconds_since(epoch);
    let mut precessing = [
        inj.a_1, inj.a_2, inj.tilt_1, inj.tilt_2, inj.phi_12, inj.phi_jl,
    ];
    let (chi_1, chi_2) = if inj.approximant(config).is_precessing() {
        if inj.chi_1 != 0.0 || inj.chi_2 != 0.0 {
            bail!(
                "injection: IMRPhenomTPHM takes the spins a_1, a_2, tilt_1, tilt_2, phi_12 and \
                 phi_jl, not chi_1/chi_2"
            );
        }
        // The aligned components, which the band check's IMRPhenomT takes.
        (inj.a_1 * inj.tilt_1.cos(), inj.a_2 * inj.tilt_2.cos())
    } else if config.waveform_approximant.is_precessing() {
        // An aligned-spin injection into a precessing analysis: the same spins in its terms.
        if precessing.iter().any(|&v| v != 0.0) {
            bail!(
                "injection: a_1, a_2, tilt_1, tilt_2, phi_12 and phi_jl are precessing spins: \
                 an injection of {} takes chi_1/chi_2",
                inj.approximant(config)
            );
        }
        let tilt = |chi: f64| if chi < 0.0 { std::f64::consts::PI } else { 0.0 };
        precessing = [
            inj.chi_1.abs(),
            inj.chi_2.abs(),
            tilt(inj.chi_1),
            tilt(inj.chi_2),
            0.0,
            0.0,
        ];
        (inj.chi_1, inj.chi_2)
    } else {
        if precessing.iter().any(|&v| v != 0.0) {
            bail!(
                "injection: a_1, a_2, tilt_1, tilt_2, phi_12 and phi_jl are precessing spins: \
                 set waveform_approximant = \"IMRPhenomTPHM\", or give chi_1/chi_2"
            );
        }
        (inj.chi_1, inj.chi_2)
    };
    let [a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl] = precessing;
    Ok(Some(BbhParameters {
        chirp_mass,
        mass_ratio,
        chi_1,
        chi_2,
        a_1,
        a_2,
        tilt_1,
        tilt_2,
        phi_12,
        phi_jl,
        luminosity_distance: inj.luminosity_distance,
        theta_jn: inj.theta_jn,
        psi: inj.psi,
        phase: inj.phase,
        geocent_time,
        ra: inj.ra,
        dec: inj.dec,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_psd_orders_of_magnitude_from_any_detectors_is_flagged() {
        let design = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
        assert_eq!(implausible_scale(&design, 16.0, 1024.0), None);
        let asd = Psd::from_samples(
            "asd",
            design.frequencies().to_vec(),
            design.values().iter().map(|v| v.sqrt()).collect(),
        )
        .unwrap();
        let warning = implausible_scale(&asd, 16.0, 1024.0).unwrap();
        assert!(
            warning.contains("is psd_column = \"asd\" meant?"),
            "{warning}"
        );
        let tiny = Psd::from_samples(
            "tiny",
            design.frequencies().to_vec(),
            design.values().iter().map(|v| v * 1e-10).collect(),
        )
        .unwrap();
        let warning = implausible_scale(&tiny, 16.0, 1024.0).unwrap();
        assert!(!warning.contains("asd"), "{warning}");
    }

    #[test]
    fn a_psd_file_is_needed_in_the_band_only() {
        let dir = std::env::temp_dir().join(format!("tdpe_psd_band_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let band = AnalysisBand::default();
        let config = |file: &str| Config {
            psd: [("H1".to_string(), file.to_string())].into(),
            base_dir: dir.clone(),
            ..Config::default()
        };
        // An estimate from data without power below 20 Hz: 0, NaN and 1e-51 there.
        let rows = |at_100: &str| {
            let mut text = String::from("0 0\n5 nan\n10 0\n15 1e-51\n");
            for f in (16..=1024).step_by(4) {
                let value = if f == 100 {
                    at_100.to_string()
                } else {
                    "1e-46".into()
                };
                text.push_str(&format!("{f} {value}\n"));
            }
            text
        };
        std::fs::write(dir.join("estimate.txt"), rows("1e-46")).unwrap();
        let psd = load_psd(&config("estimate.txt"), "H1", &band).unwrap();
        assert_eq!(psd.f_min(), 15.0);
        assert!((psd.value(100.0).unwrap() / 1e-46 - 1.0).abs() < 1e-12);
        // Inside the band a bad value is an error naming its line.
        for bad in ["0", "nan", "-1e-46"] {
            std::fs::write(dir.join("bad.txt"), rows(bad)).unwrap();
            let err = load_psd(&config("bad.txt"), "H1", &band).unwrap_err();
            let message = format!("{err:#}");
            assert!(message.contains("bad.txt:26:"), "{bad}: {message}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
