//! bson (serde): a BSON document per message. Top-level lists are wrapped as
//! `{"items": [...]}`; timestamps are int64 milliseconds, as in the canonical file.

use std::hint::black_box;

use serde::{Deserialize, Serialize};

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::*;

#[derive(Serialize)]
struct Wrap<'a, T> {
    items: &'a T,
}

#[derive(Deserialize)]
struct Unwrap<T> {
    items: T,
}

fn err(e: bson::error::Error) -> String {
    match e.kind {
        // A value the format cannot carry, not a failure of the library.
        bson::error::ErrorKind::TooLargeUnsignedInteger { n, .. } => {
            format!("not applicable: bson: {n} exceeds int64")
        }
        _ => e.to_string(),
    }
}

pub struct Bson<const BORROW: bool>;

impl<T: Message + 'static, const BORROW: bool> Codec<T> for Bson<BORROW> {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        if !T::DOCUMENT {
            bson::serialize_to_buffer(&Wrap { items: v }, out).map_err(err)
        } else {
            bson::serialize_to_buffer(v, out).map_err(err)
        }
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        match (BORROW, !T::DOCUMENT) {
            (false, false) => bson::deserialize_from_slice(b).map_err(err),
            (false, true) => Ok(bson::deserialize_from_slice::<Unwrap<T>>(b)
                .map_err(err)?
                .items),
            (true, false) => Ok(T::to_native(
                bson::deserialize_from_slice::<T::Ref<'_>>(b).map_err(err)?,
            )),
            (true, true) => {
                let u: Unwrap<T::Ref<'_>> = bson::deserialize_from_slice(b).map_err(err)?;
                Ok(T::to_native(u.items))
            }
        }
    }
    #[inline]
    fn decode_sink(&mut self, i: usize, b: &[u8]) -> Res<()> {
        match (BORROW, !T::DOCUMENT) {
            (true, false) => {
                black_box(bson::deserialize_from_slice::<T::Ref<'_>>(b).map_err(err)?);
            }
            (true, true) => {
                black_box(bson::deserialize_from_slice::<Unwrap<T::Ref<'_>>>(b).map_err(err)?);
            }
            _ => {
                black_box(<Self as Codec<T>>::decode(self, i, b)?);
            }
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "bson",
            format: "bson",
            library: "bson",
            labels: &[
                "binary",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "generated",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "bson", Bson::<false>),
        },
        Entry {
            name: "bson-borrowed",
            format: "bson",
            library: "bson",
            labels: &[
                "binary",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "borrowed-strings",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "bson-borrowed", Bson::<true>),
        },
    ]
}
