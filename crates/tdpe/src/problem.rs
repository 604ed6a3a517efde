//! The problem a configuration describes, set up before any sampling: the detectors, the data
//! (an injection into seeded noise, or strain files), the PSDs, the priors and the exact
//! likelihood, checked against each other.

use anyhow::{bail, Context};
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{BbhExactLikelihood, ExactLikelihood, SampleGrid};
use tdpe_noise::{LowFrequencyCutoff, Psd, PsdColumn, BUILTIN_PSDS};
use tdpe_posterior::prior::{PriorFile, PriorSet, GW150914_LIKE_PRIOR};
use tdpe_posterior::Analysis;
use tdpe_signal::{chirp_mass_and_ratio, BbhParameters, SignalModel};

use crate::config::{Config, PsdColumnName, StrainFormat};
use crate::data::{detector_seed, read_frequency_series, read_time_series, simulate_noise};

/// Everything set up before sampling.
pub struct Problem {
    /// The configuration, validated.
    pub config: Config,
    /// The reference epoch of every time in the run (the trigger time).
    pub epoch: GpsTime,
    /// The analysis segment's sample grid (times relative to the epoch).
    pub grid: SampleGrid,
    /// The likelihood's low-frequency cut-off.
    pub cutoff: LowFrequencyCutoff,
    /// One PSD per detector.
    pub psds: Vec<Psd>,
    /// The exact likelihood of the data with the priors.
    pub analysis: Analysis,
    /// The injected parameters, if the data are an injection.
    pub injection: Option<BbhParameters>,
}

impl Problem {
    /// Reads and checks everything up to the exact likelihood.
    pub fn set_up(config: Config) -> anyhow::Result<Self> {
        config.validate()?;
        let detectors = Detector::network(&config.detectors).context("detectors")?;
        let epoch = GpsTime::from_f64(config.trigger_time).context("trigger_time")?;
        let fs = config.sampling_frequency;
        let grid = SampleGrid::new(
            config.post_trigger_duration - config.duration,
            fs,
            config.duration,
        )?;
        let cutoff = LowFrequencyCutoff {
            f_low: config.minimum_frequency,
            ..LowFrequencyCutoff::default()
        };
        cutoff.validate()?;
        let psds = config
            .detectors
            .iter()
            .map(|d| {
                let psd = load_psd(&config, d).with_context(|| format!("PSD of {d}"))?;
                psd.check_covers(cutoff.f_start(), fs / 2.0)
                    .with_context(|| format!("PSD of {d}"))?;
                Ok(psd)
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let model = SignalModel::new(detectors, epoch, config.reference_frequency, 1.0 / fs)?;
        let file = if config.prior_file == "default" {
            PriorFile::parse(
                GW150914_LIKE_PRIOR,
                "default prior (examples/gw150914_like.prior)",
            )?
        } else {
            PriorFile::read(&config.resolve(&config.prior_file))?
        };
        let priors = PriorSet::resolve(file, &model, config.trigger_time)?;

        let injection = injection_parameters(&config, &epoch)?
            .map(|p| priors.admit(&p.to_array(), "injection"))
            .transpose()?
            .map(BbhParameters::from_array);
        let data: Vec<Vec<f64>> = match (&injection, &config.strain) {
            (Some(p), _) => {
                let signal = model
                    .strain(p, grid.start, grid.dt, grid.len)
                    .context("injection")?;
                let inj = config.injection.as_ref().context("injection settings")?;
                signal
                    .into_iter()
                    .enumerate()
                    .map(|(k, mut h)| {
                        if !inj.zero_noise {
                            let seed = detector_seed(inj.noise_seed, k);
                            let noise = simulate_noise(&psds[k], &cutoff, &grid, seed)?;
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
                    .map(|d| {
                        let path = config.resolve(&strain.files[d]);
                        match strain.format {
                            StrainFormat::TimeSeries => read_time_series(&path, &grid, start_gps),
                            StrainFormat::FrequencySeries => read_frequency_series(&path, &grid),
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
            .zip(&psds)
            .map(|((d, x), psd)| (d.clone(), x, psd))
            .collect();
        let exact = ExactLikelihood::from_psds(grid, inputs, &cutoff)?;
        let exact = BbhExactLikelihood::new(model, exact)?;
        let analysis = Analysis::new(exact, priors);
        Ok(Self {
            config,
            epoch,
            grid,
            cutoff,
            psds,
            analysis,
            injection,
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

/// The PSD of `detector` from the config: built-in name, file, or the design default.
fn load_psd(config: &Config, detector: &str) -> anyhow::Result<Psd> {
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
            // bilby's PSD files start at 0 Hz (log-log interpolation cannot use it) and hold
            // `inf` above their maximum frequency: blank the rows with f ≤ 0 or +inf (keeping
            // the line numbers of the parser's messages); anything else (NaN) the parser judges.
            // If the last kept row lies less than 1 % below the Nyquist frequency, its value is
            // repeated at the Nyquist frequency (a 1024 Hz file analysed at 2048 Hz).
            let path = config.resolve(spec);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read PSD file {}", path.display()))?;
            let mut kept = String::new();
            let mut last: Option<(f64, String)> = None;
            for line in text.lines() {
                let cols: Vec<f64> = line
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
                match cols[..] {
                    [f, v] if f <= 0.0 || v == f64::INFINITY => {
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
            let nyquist = config.sampling_frequency / 2.0;
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
    Ok(Some(BbhParameters {
        chirp_mass,
        mass_ratio,
        chi_1: inj.chi_1,
        chi_2: inj.chi_2,
        luminosity_distance: inj.luminosity_distance,
        theta_jn: inj.theta_jn,
        psi: inj.psi,
        phase: inj.phase,
        geocent_time,
        ra: inj.ra,
        dec: inj.dec,
    }))
}
