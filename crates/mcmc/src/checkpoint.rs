//! A run's chains saved between two transitions, and restored to go on exactly as if they had
//! never stopped: each chain's point and gradient, step size, warm-up state, metric, random
//! stream, draws so far and evaluation counts. Together with a target and settings that are the
//! same, a restored chain makes the same transitions bit for bit, since what a chain draws
//! depends only on its own state and stream.
//!
//! The layout is binary: every number by its bits (so NaN and infinities survive), lengths
//! before sequences, a version, and an FNV-1a checksum at the end, so that a damaged file is an
//! error and never a wrong run.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::McmcError;

/// The first bytes of a sampler checkpoint.
const MAGIC: &[u8; 8] = b"TDPEMCMC";
/// The layout's version; a checkpoint of another version is refused.
const VERSION: u64 = 1;

/// Bytes being written.
#[derive(Debug, Default)]
pub(crate) struct Writer(Vec<u8>);

/// Bytes being read, with the position reached.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Writer {
    pub(crate) fn put<T: Persist>(&mut self, value: &T) {
        value.write(self);
    }
}

impl Reader<'_> {
    pub(crate) fn get<T: Persist>(&mut self) -> Result<T, McmcError> {
        T::read(self)
    }

    fn take(&mut self, n: usize) -> Result<&[u8], McmcError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| damaged("it ends early"))?;
        let bytes = &self.bytes[self.at..end];
        self.at = end;
        Ok(bytes)
    }
}

/// The error for a checkpoint that cannot be read.
pub(crate) fn damaged(reason: &str) -> McmcError {
    McmcError::Checkpoint(format!("the checkpoint is damaged or not one: {reason}"))
}

/// A value that can be written to and read back from a checkpoint exactly.
pub(crate) trait Persist: Sized {
    fn write(&self, w: &mut Writer);
    fn read(r: &mut Reader) -> Result<Self, McmcError>;
}

impl Persist for u64 {
    fn write(&self, w: &mut Writer) {
        w.0.extend_from_slice(&self.to_le_bytes());
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        let bytes = r.take(8)?;
        Ok(u64::from_le_bytes(
            bytes.try_into().map_err(|_| damaged("a short number"))?,
        ))
    }
}

impl Persist for f64 {
    fn write(&self, w: &mut Writer) {
        self.to_bits().write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(f64::from_bits(r.get()?))
    }
}

impl Persist for usize {
    fn write(&self, w: &mut Writer) {
        (*self as u64).write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        usize::try_from(r.get::<u64>()?).map_err(|_| damaged("a count too large"))
    }
}

impl Persist for u32 {
    fn write(&self, w: &mut Writer) {
        u64::from(*self).write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        u32::try_from(r.get::<u64>()?).map_err(|_| damaged("a count too large"))
    }
}

impl Persist for bool {
    fn write(&self, w: &mut Writer) {
        u64::from(*self).write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        match r.get::<u64>()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(damaged("a flag neither 0 nor 1")),
        }
    }
}

impl<T: Persist> Persist for Vec<T> {
    fn write(&self, w: &mut Writer) {
        self.len().write(w);
        for item in self {
            item.write(w);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        let len: usize = r.get()?;
        // Every item takes at least 8 bytes: a length beyond the rest is damage, not a reason
        // to allocate.
        if len > (r.bytes.len() - r.at) / 8 {
            return Err(damaged("a length beyond the end"));
        }
        (0..len).map(|_| r.get()).collect()
    }
}

impl<T: Persist> Persist for Option<T> {
    fn write(&self, w: &mut Writer) {
        self.is_some().write(w);
        if let Some(value) = self {
            value.write(w);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(if r.get::<bool>()? {
            Some(r.get()?)
        } else {
            None
        })
    }
}

impl Persist for Xoshiro256PlusPlus {
    /// The generator's four words of state (its serde form: {"s": [..]}); all zero, which no
    /// generator has and [`Persist::read`] refuses, if they could not be had.
    fn write(&self, w: &mut Writer) {
        let state = serde_json::to_value(self)
            .ok()
            .and_then(|v| serde_json::from_value::<[u64; 4]>(v["s"].clone()).ok())
            .unwrap_or_default();
        for word in state {
            word.write(w);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        let state: [u64; 4] = [r.get()?, r.get()?, r.get()?, r.get()?];
        if state == [0; 4] {
            return Err(damaged("a random stream of zeros"));
        }
        serde_json::from_value(serde_json::json!({ "s": state }))
            .map_err(|_| damaged("a random stream"))
    }
}

/// FNV-1a over `bytes`.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One chain, saved between two transitions (its parts in the order the chain writes them).
#[derive(Debug, Clone)]
pub struct ChainCheckpoint(pub(crate) Vec<u8>);

/// Every chain of a run, saved between two transitions; `None` for a chain not started yet.
#[derive(Debug, Clone, Default)]
pub struct SamplerCheckpoint {
    pub(crate) chains: Vec<Option<ChainCheckpoint>>,
}

impl SamplerCheckpoint {
    /// The checkpoint as bytes, checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.0.extend_from_slice(MAGIC);
        w.put(&VERSION);
        let chains: Vec<Option<Vec<u8>>> = self
            .chains
            .iter()
            .map(|c| c.as_ref().map(|c| c.0.clone()))
            .collect();
        w.put(&chains.len());
        for chain in &chains {
            w.put(&chain.is_some());
            if let Some(bytes) = chain {
                w.put(&bytes.len());
                w.0.extend_from_slice(bytes);
            }
        }
        let sum = checksum(&w.0);
        w.put(&sum);
        w.0
    }

    /// Reads the bytes of [`Self::to_bytes`]; damage, another layout or another version is an
    /// error.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, McmcError> {
        if bytes.len() < MAGIC.len() + 16 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(damaged("it does not start as a tdpe sampler checkpoint"));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let stored = u64::from_le_bytes(tail.try_into().map_err(|_| damaged("no checksum"))?);
        if stored != checksum(body) {
            return Err(damaged("its checksum does not match"));
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let version: u64 = r.get()?;
        if version != VERSION {
            return Err(McmcError::Checkpoint(format!(
                "the checkpoint has layout version {version}, this tdpe reads {VERSION}"
            )));
        }
        let count: usize = r.get()?;
        if count > body.len() / 8 {
            return Err(damaged("a chain count beyond the end"));
        }
        let chains = (0..count)
            .map(|_| {
                if !r.get::<bool>()? {
                    return Ok(None);
                }
                let len: usize = r.get()?;
                Ok(Some(ChainCheckpoint(r.take(len)?.to_vec())))
            })
            .collect::<Result<Vec<_>, McmcError>>()?;
        if r.at != body.len() {
            return Err(damaged("bytes after the last chain"));
        }
        Ok(Self { chains })
    }

    /// The number of chains saved (started or not).
    pub fn num_chains(&self) -> usize {
        self.chains.len()
    }
}

/// Reads a value written by [`Writer`] into `bytes` from its start, all of it.
pub(crate) fn read_all<T, F>(bytes: &[u8], read: F) -> Result<T, McmcError>
where
    F: FnOnce(&mut Reader) -> Result<T, McmcError>,
{
    let mut r = Reader { bytes, at: 0 };
    let value = read(&mut r)?;
    if r.at != bytes.len() {
        return Err(damaged("bytes after a chain's state"));
    }
    Ok(value)
}

/// The bytes `write` puts into a new [`Writer`].
pub(crate) fn write_all(write: impl FnOnce(&mut Writer)) -> Vec<u8> {
    let mut w = Writer::default();
    write(&mut w);
    w.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Numbers (NaN and infinities included), flags, sequences and a random stream come back
    /// bit for bit; the stream goes on with the same numbers.
    #[test]
    fn values_round_trip_exactly() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let _: f64 = rng.random();
        let floats = vec![0.1, f64::NAN, -f64::INFINITY, -0.0, 5e-324];
        let bytes = write_all(|w| {
            w.put(&floats);
            w.put(&Some(7u32));
            w.put(&Option::<f64>::None);
            w.put(&true);
            w.put(&rng);
        });
        let (f, a, b, flag, mut back): (
            Vec<f64>,
            Option<u32>,
            Option<f64>,
            bool,
            Xoshiro256PlusPlus,
        ) = read_all(&bytes, |r| {
            Ok((r.get()?, r.get()?, r.get()?, r.get()?, r.get()?))
        })
        .unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&f), bits(&floats));
        assert_eq!((a, b, flag), (Some(7), None, true));
        assert_eq!(back.random::<u64>(), rng.random::<u64>());
    }

    /// A checkpoint survives its bytes; a changed byte, a cut or other bytes are errors.
    #[test]
    fn damage_is_an_error() {
        let checkpoint = SamplerCheckpoint {
            chains: vec![Some(ChainCheckpoint(vec![1, 2, 3])), None],
        };
        let bytes = checkpoint.to_bytes();
        let back = SamplerCheckpoint::from_bytes(&bytes).unwrap();
        assert_eq!(back.chains[0].as_ref().unwrap().0, [1, 2, 3]);
        assert!(back.chains[1].is_none());
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        for bad in [
            &flipped[..],
            &bytes[..bytes.len() - 1],
            b"not a checkpoint at all",
        ] {
            let e = SamplerCheckpoint::from_bytes(bad).unwrap_err().to_string();
            assert!(e.contains("damaged"), "{e}");
        }
        let e = read_all(&[1, 0, 0, 0, 0, 0, 0, 0, 9], |r| r.get::<u64>()).unwrap_err();
        assert!(e.to_string().contains("bytes after"), "{e}");
        let huge = write_all(|w| w.put(&u64::MAX));
        assert!(read_all(&huge, |r| r.get::<Vec<f64>>()).is_err());
    }
}
