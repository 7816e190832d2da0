//! rkyv (derive). Encode serializes into a reused aligned buffer, then appends it.
//! Three rows:
//!   rkyv                          validate (bytecheck), then deserialize into native values
//!   rkyv-access                   validate, then read every field in place (nothing built)
//!   rkyv-access-unvalidated       read every field in place without validation
//! Archived data must be aligned: a stream frame that is not 16-byte aligned in the
//! input is first copied into an aligned scratch buffer (part of the timed decode).

use std::hint::black_box;

use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::rancor::Error;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Archived, Deserialize, Serialize};

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::*;

/// Reads every field of an archived value in place; returns a checksum of what it read.
pub trait Touch: Archive {
    fn touch(a: &Self::Archived) -> u64;
}

macro_rules! touch_num {
    ($($t:ty),*) => {$(
        impl Touch for $t {
            #[inline]
            fn touch(a: &Archived<$t>) -> u64 {
                a.to_native() as u64
            }
        }
    )*};
}
touch_num!(i32, u32, i64, u64);

impl Touch for bool {
    #[inline]
    fn touch(a: &bool) -> u64 {
        *a as u64
    }
}

macro_rules! touch_float {
    ($($t:ty),*) => {$(
        impl Touch for $t {
            #[inline]
            fn touch(a: &Archived<$t>) -> u64 {
                a.to_native().to_bits() as u64
            }
        }
    )*};
}
touch_float!(f32, f64);

impl Touch for u8 {
    #[inline]
    fn touch(a: &u8) -> u64 {
        *a as u64
    }
}

impl Touch for Null {
    #[inline]
    fn touch(_: &Archived<Null>) -> u64 {
        0
    }
}

impl<T: Touch> Touch for Option<T> {
    #[inline]
    fn touch(a: &Archived<Option<T>>) -> u64 {
        a.as_ref().map_or(0, |x| 1 + T::touch(x))
    }
}

impl Touch for String {
    #[inline]
    fn touch(a: &Archived<String>) -> u64 {
        let s: &str = a.as_str();
        s.len() as u64 + s.as_bytes().first().copied().unwrap_or(0) as u64
    }
}

impl<T: Touch> Touch for Vec<T> {
    #[inline]
    fn touch(a: &Archived<Vec<T>>) -> u64 {
        a.iter()
            .map(T::touch)
            .fold(a.len() as u64, u64::wrapping_add)
    }
}

impl<V: Touch> Touch for Map<V> {
    #[inline]
    fn touch(a: &Archived<Map<V>>) -> u64 {
        a.iter()
            .map(|(k, v)| String::touch(k).wrapping_add(V::touch(v)))
            .fold(a.len() as u64, u64::wrapping_add)
    }
}

type Ser<'a> = HighSerializer<AlignedVec<16>, ArenaHandle<'a>, Error>;

/// What rkyv needs of a native type.
pub trait Rkyv: Touch + for<'a> Serialize<Ser<'a>> + Sized + 'static
where
    Self::Archived: for<'a> rkyv::bytecheck::CheckBytes<HighValidator<'a, Error>>
        + Deserialize<Self, HighDeserializer<Error>>,
{
}

impl<T> Rkyv for T
where
    T: Touch + for<'a> Serialize<Ser<'a>> + 'static,
    T::Archived: for<'a> rkyv::bytecheck::CheckBytes<HighValidator<'a, Error>>
        + Deserialize<T, HighDeserializer<Error>>,
{
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Access,
    AccessUnvalidated,
}

pub struct RkyvCodec {
    mode: Mode,
    buf: AlignedVec<16>,
    aligned: AlignedVec<16>,
}

impl RkyvCodec {
    pub fn new(mode: Mode) -> Self {
        RkyvCodec {
            mode,
            buf: AlignedVec::new(),
            aligned: AlignedVec::new(),
        }
    }
}

/// `b`, or an aligned copy of it.
#[inline]
fn aligned<'a>(b: &'a [u8], scratch: &'a mut AlignedVec<16>) -> &'a [u8] {
    if (b.as_ptr() as usize).is_multiple_of(16) {
        b
    } else {
        scratch.clear();
        scratch.extend_from_slice(b);
        scratch.as_slice()
    }
}

impl<T> Codec<T> for RkyvCodec
where
    T: Rkyv,
    T::Archived: for<'a> rkyv::bytecheck::CheckBytes<HighValidator<'a, Error>>
        + Deserialize<T, HighDeserializer<Error>>,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let buf = rkyv::api::high::to_bytes_in::<_, Error>(v, buf).map_err(|e| e.to_string())?;
        out.extend_from_slice(&buf);
        self.buf = buf;
        Ok(())
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        let b = aligned(b, &mut self.aligned);
        rkyv::from_bytes::<T, Error>(b).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        let b = aligned(b, &mut self.aligned);
        match self.mode {
            Mode::Full => {
                black_box(rkyv::from_bytes::<T, Error>(b).map_err(|e| e.to_string())?);
            }
            Mode::Access => {
                let a = rkyv::access::<T::Archived, Error>(b).map_err(|e| e.to_string())?;
                black_box(T::touch(a));
            }
            Mode::AccessUnvalidated => {
                // SAFETY: the bytes are this runner's own encoding, checked at prepare.
                let a = unsafe { rkyv::access_unchecked::<T::Archived>(b) };
                black_box(T::touch(a));
            }
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "rkyv",
            format: "rkyv",
            library: "rkyv",
            labels: &["binary", "schema-required", "copying-decode", "validated"],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "rkyv", RkyvCodec::new(Mode::Full)),
        },
        Entry {
            name: "rkyv-access",
            format: "rkyv",
            library: "rkyv",
            labels: &[
                "binary",
                "schema-required",
                "zero-copy-decode",
                "lazy-access",
                "validated",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "rkyv-access", RkyvCodec::new(Mode::Access)),
        },
        Entry {
            name: "rkyv-access-unvalidated",
            format: "rkyv",
            library: "rkyv",
            labels: &[
                "binary",
                "schema-required",
                "zero-copy-decode",
                "lazy-access",
                "unvalidated",
                "unsafe-untrusted-input",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(
                fixed,
                "rkyv-access-unvalidated",
                RkyvCodec::new(Mode::AccessUnvalidated)
            ),
        },
    ]
}
