//! bincode 2 with its own derives (`bincode::Encode`/`Decode`), standard configuration
//! (varint integers, little-endian). `bincode-borrowed` reads the same bytes through
//! bincode's serde support, strings borrowed from the input.

use std::hint::black_box;

use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};

const CONFIG: bincode::config::Configuration = bincode::config::standard();

pub struct Bincode<const BORROW: bool>;

impl<T, const BORROW: bool> Codec<T> for Bincode<BORROW>
where
    T: bincode::Encode + bincode::Decode<()> + DeserializeOwned + Borrowable + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        bincode::encode_into_std_write(v, out, CONFIG)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        let (v, n) = if BORROW {
            let (r, n): (T::Ref<'_>, usize) =
                bincode::serde::borrow_decode_from_slice(b, CONFIG).map_err(|e| e.to_string())?;
            (T::to_native(r), n)
        } else {
            bincode::decode_from_slice(b, CONFIG).map_err(|e| e.to_string())?
        };
        if n != b.len() {
            return Err(format!("{} trailing bytes", b.len() - n));
        }
        Ok(v)
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        if BORROW {
            let r: (T::Ref<'_>, usize) =
                bincode::serde::borrow_decode_from_slice(b, CONFIG).map_err(|e| e.to_string())?;
            black_box(r);
        } else {
            black_box(bincode::decode_from_slice::<T, _>(b, CONFIG).map_err(|e| e.to_string())?);
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "bincode",
            format: "bincode",
            library: "bincode",
            labels: &["binary", "schema-required", "positional", "copying-decode"],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "bincode", Bincode::<false>),
        },
        Entry {
            name: "bincode-borrowed",
            format: "bincode",
            library: "bincode",
            labels: &[
                "binary",
                "schema-required",
                "positional",
                "borrowed-strings",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "bincode-borrowed", Bincode::<true>),
        },
    ]
}
