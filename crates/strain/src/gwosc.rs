//! GWOSC strain files (HDF5): `strain/Strain` (float64, with attributes `Xstart` = GPS of the
//! first sample, `Xspacing` = 1/f_s, `Npoints`), `meta/{GPSstart, Duration, Detector}`, the
//! data-quality bits `quality/simple/{DQmask, DQShortnames}` and the hardware-injection bits
//! `quality/injections/{Injmask, InjShortnames}`, as GWOSC writes them with h5py (chunked,
//! gzip-compressed). Only the samples asked for are read and decompressed.

use std::ops::Range;
use std::path::Path;

use hdf5_reader::{Attribute, Dataset, Hdf5File, SliceInfo, SliceInfoElem};

use crate::data_quality::BitMask;
use crate::error::StrainError;

/// How far (in samples) `Npoints · Xspacing` may be from `meta/Duration`, and a GPS time from
/// the sample grid to count as on it: rounding in the file's doubles, never a sample.
pub const GRID_TOLERANCE: f64 = 1e-3;

/// An open GWOSC strain file with its metadata checked.
pub struct GwoscFile {
    path: String,
    strain: Dataset,
    /// Detector name from `meta/Detector` (H1, L1, V1, ...).
    pub detector: String,
    /// GPS time of sample 0 (`strain/Strain@Xstart`).
    pub start: f64,
    /// Sampling frequency in Hz (1/`Xspacing`, an integer number of Hz).
    pub sampling_frequency: f64,
    /// Number of samples (`Npoints`).
    pub len: usize,
    /// `quality/simple`: 1 Hz data-quality bits (set = passes), if the file has them.
    pub data_quality: Option<BitMask>,
    /// `quality/injections`: 1 Hz hardware-injection bits (set = no injection of that kind).
    pub injections: Option<BitMask>,
}

impl GwoscFile {
    /// Opens `path` and reads and cross-checks its metadata (no strain samples yet).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StrainError> {
        let path_ref = path.as_ref();
        let path = path_ref.display().to_string();
        if !path_ref.is_file() {
            return Err(StrainError::Open {
                path,
                message: "no such file".into(),
            });
        }
        let file = Hdf5File::open(path_ref).map_err(|e| StrainError::Open {
            path: path.clone(),
            message: format!("not a readable HDF5 file ({e})"),
        })?;
        // A cut-off download still has an intact superblock, and hdf5-reader would only fail
        // later, on whichever object lies past the cut: say "truncated" up front instead.
        let superblock = file.superblock();
        let declared = superblock
            .base_address
            .saturating_add(superblock.eof_address);
        let actual = std::fs::metadata(path_ref)
            .map(|m| m.len())
            .unwrap_or(u64::MAX);
        if actual < declared {
            return Err(StrainError::Open {
                path,
                message: format!(
                    "truncated: the file has {actual} bytes, its HDF5 superblock says {declared}"
                ),
            });
        }
        let layout = |item: &str, e: &dyn std::fmt::Display| StrainError::Layout {
            path: path.clone(),
            item: item.to_string(),
            message: e.to_string(),
        };
        let dataset = |name: &str| file.dataset(name).map_err(|e| layout(name, &e));
        let strain = dataset("strain/Strain")?;
        let attribute = |name: &str| {
            strain
                .attribute(name)
                .map_err(|e| layout(&format!("strain/Strain@{name}"), &e))
        };
        let start =
            scalar_f64(&attribute("Xstart")?).map_err(|e| layout("strain/Strain@Xstart", &e))?;
        let spacing = scalar_f64(&attribute("Xspacing")?)
            .map_err(|e| layout("strain/Strain@Xspacing", &e))?;
        let npoints =
            scalar_f64(&attribute("Npoints")?).map_err(|e| layout("strain/Strain@Npoints", &e))?;
        let shape = strain.shape().to_vec();
        let detector = dataset("meta/Detector")?
            .read_string()
            .map_err(|e| layout("meta/Detector", &e))?
            .trim()
            .to_string();
        let gps_start = read_scalar_dataset(&dataset("meta/GPSstart")?)
            .map_err(|e| layout("meta/GPSstart", &e))?;
        let duration = read_scalar_dataset(&dataset("meta/Duration")?)
            .map_err(|e| layout("meta/Duration", &e))?;

        let inconsistent = |message: String| StrainError::Inconsistent {
            path: path.clone(),
            message,
        };
        if shape.len() != 1 || shape[0] as f64 != npoints {
            return Err(inconsistent(format!(
                "strain/Strain has shape {shape:?} but Npoints = {npoints}"
            )));
        }
        if !(spacing.is_finite() && spacing > 0.0) {
            return Err(inconsistent(format!(
                "strain/Strain@Xspacing = {spacing} s must be > 0"
            )));
        }
        let sampling_frequency = (1.0 / spacing).round();
        if (sampling_frequency * spacing - 1.0).abs() > 1e-9 {
            return Err(inconsistent(format!(
                "1/Xspacing = {} Hz is not a whole number of Hz",
                1.0 / spacing
            )));
        }
        if !start.is_finite() || start != gps_start {
            return Err(inconsistent(format!(
                "strain/Strain@Xstart = {start} differs from meta/GPSstart = {gps_start}"
            )));
        }
        if (npoints - duration * sampling_frequency).abs() > GRID_TOLERANCE {
            return Err(inconsistent(format!(
                "Npoints = {npoints} samples at {sampling_frequency} Hz do not make \
                 meta/Duration = {duration} s"
            )));
        }
        let mask = |group: &str, mask: &str, names: &str| -> Result<Option<BitMask>, StrainError> {
            if file.group(group).is_err() {
                return Ok(None);
            }
            let mask_name = format!("{group}/{mask}");
            let names_name = format!("{group}/{names}");
            let mask_set = dataset(&mask_name)?;
            let values = read_integers(&mask_set).map_err(|e| layout(&mask_name, &e))?;
            let names = dataset(&names_name)?
                .read_strings()
                .map_err(|e| layout(&names_name, &e))?
                .into_iter()
                .map(|s| s.trim().to_string())
                .collect();
            // GWOSC's masks are 1 Hz from the file's start; their own Xstart/Xspacing say so.
            let attr = |name: &str, default: f64| match mask_set.attribute(name) {
                Ok(a) => scalar_f64(&a).map_err(|e| layout(&format!("{mask_name}@{name}"), &e)),
                Err(_) => Ok(default),
            };
            Ok(Some(BitMask {
                start: attr("Xstart", start)?,
                spacing: attr("Xspacing", 1.0)?,
                names,
                values,
            }))
        };
        let data_quality = mask("quality/simple", "DQmask", "DQShortnames")?;
        let injections = mask("quality/injections", "Injmask", "InjShortnames")?;
        Ok(Self {
            path,
            strain,
            detector,
            start,
            sampling_frequency,
            len: npoints as usize,
            data_quality,
            injections,
        })
    }

    /// The file's name as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// GPS time just after the last sample.
    pub fn end(&self) -> f64 {
        self.start + self.len as f64 / self.sampling_frequency
    }

    /// GPS time of sample `index`.
    pub fn time_of(&self, index: usize) -> f64 {
        self.start + index as f64 / self.sampling_frequency
    }

    /// The samples `range` (indices into the file), decompressing only the chunks they touch.
    pub fn read(&self, range: Range<usize>) -> Result<Vec<f64>, StrainError> {
        if range.end > self.len || range.start > range.end {
            return Err(StrainError::Inconsistent {
                path: self.path.clone(),
                message: format!(
                    "samples {range:?} requested from a file of {} samples",
                    self.len
                ),
            });
        }
        if range.is_empty() {
            return Ok(Vec::new());
        }
        let selection = SliceInfo {
            selections: vec![SliceInfoElem::Slice {
                start: range.start as u64,
                end: range.end as u64,
                step: 1,
            }],
        };
        let values =
            self.strain
                .read_slice::<f64>(&selection)
                .map_err(|e| StrainError::Layout {
                    path: self.path.clone(),
                    item: "strain/Strain".into(),
                    message: format!("cannot read samples {range:?}: {e}"),
                })?;
        Ok(values.iter().copied().collect())
    }
}

/// A numeric scalar attribute as f64, whether h5py stored it as a float or an integer.
fn scalar_f64(attribute: &Attribute) -> Result<f64, hdf5_reader::error::Error> {
    attribute
        .read_scalar::<f64>()
        .or_else(|_| attribute.read_scalar::<i64>().map(|v| v as f64))
}

/// An integer dataset of any integer width as i64: GWOSC writes its bit masks as int32, and
/// hdf5-reader reads only the exact stored type.
fn read_integers(dataset: &Dataset) -> Result<Vec<i64>, hdf5_reader::error::Error> {
    let as_i64 = match dataset.read_array::<i64>() {
        Ok(a) => return Ok(a.iter().copied().collect()),
        Err(e) => e,
    };
    macro_rules! try_as {
        ($($t:ty),*) => {$(
            if let Ok(a) = dataset.read_array::<$t>() {
                return Ok(a.iter().map(|&v| v as i64).collect());
            }
        )*};
    }
    // u64 masks above i64::MAX would wrap; GWOSC's have at most a few dozen bits.
    try_as!(i32, u32, i16, u16, i8, u8, u64);
    Err(as_i64)
}

/// A numeric scalar dataset (`meta/GPSstart`, `meta/Duration`) as f64.
fn read_scalar_dataset(dataset: &Dataset) -> Result<f64, hdf5_reader::error::Error> {
    let as_float = dataset.read_array::<f64>();
    let values: Vec<f64> = match as_float {
        Ok(a) => a.iter().copied().collect(),
        Err(_) => dataset
            .read_array::<i64>()?
            .iter()
            .map(|&v| v as f64)
            .collect(),
    };
    match values[..] {
        [v] => Ok(v),
        _ => Err(hdf5_reader::error::Error::InvalidData(format!(
            "expected one number, found {}",
            values.len()
        ))),
    }
}
