//! postcard (serde, varint integers): owned decode, and borrowed decode.

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};

pub struct Postcard<const BORROW: bool>;

impl<T, const BORROW: bool> Codec<T> for Postcard<BORROW>
where
    T: Serialize + DeserializeOwned + Borrowable + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        *out = postcard::to_extend(v, std::mem::take(out)).map_err(|e| e.to_string())?;
        Ok(())
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        if BORROW {
            postcard::from_bytes::<T::Ref<'_>>(b)
                .map(T::to_native)
                .map_err(|e| e.to_string())
        } else {
            postcard::from_bytes(b).map_err(|e| e.to_string())
        }
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        if BORROW {
            black_box(postcard::from_bytes::<T::Ref<'_>>(b).map_err(|e| e.to_string())?);
        } else {
            black_box(postcard::from_bytes::<T>(b).map_err(|e| e.to_string())?);
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "postcard",
            format: "postcard",
            library: "postcard",
            labels: &["binary", "schema-required", "positional", "copying-decode"],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "postcard", Postcard::<false>),
        },
        Entry {
            name: "postcard-borrowed",
            format: "postcard",
            library: "postcard",
            labels: &[
                "binary",
                "schema-required",
                "positional",
                "borrowed-strings",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(fixed, "postcard-borrowed", Postcard::<true>),
        },
    ]
}
