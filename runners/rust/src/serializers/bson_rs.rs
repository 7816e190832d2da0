//! bson (serde): a BSON document per message. Top-level lists are wrapped as
//! `{"items": [...]}`; timestamps are int64 milliseconds, as in the canonical file.

use std::hint::black_box;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::cell::Codec;
use crate::registry::Entry;
use crate::types::*;
use crate::user::{UserCodec, V, beyond_64_bits};

#[derive(Serialize)]
struct Wrap<'a, T> {
    items: &'a T,
}

#[derive(Deserialize)]
struct Unwrap<T> {
    items: T,
}

/// How a message becomes a document.
pub trait Document: Serialize + DeserializeOwned + Borrowable {
    const WRAPPED: bool = false;
}
impl Document for Users {
    const WRAPPED: bool = true;
}
impl Document for Logs {
    const WRAPPED: bool = true;
}
impl Document for Test1 {}
impl Document for Test2 {}
impl Document for Test3 {}
impl Document for Test4 {}
impl Document for Dict {}
impl Document for ClickMap {}
impl Document for V {}

/// BSON integers are signed 64-bit at most.
fn bson_carry(v: &V) -> Option<String> {
    match v {
        V::UInt(u) if *u > i64::MAX as u64 => Some(format!("{u} exceeds int64")),
        v => beyond_64_bits(v),
    }
}

fn err(e: bson::error::Error) -> String {
    e.to_string()
}

pub struct Bson<const BORROW: bool>;

impl<T: Document + 'static, const BORROW: bool> Codec<T> for Bson<BORROW> {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        if T::WRAPPED {
            bson::serialize_to_buffer(&Wrap { items: v }, out).map_err(err)
        } else {
            bson::serialize_to_buffer(v, out).map_err(err)
        }
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        match (BORROW, T::WRAPPED) {
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
        match (BORROW, T::WRAPPED) {
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
            labels: &["binary", "schemaless", "map-layout", "copying-decode"],
            user: Ok(|| {
                crate::cell::cell::<V, _>(
                    UserCodec::new("bson", Bson::<false>, bson_carry).document(),
                )
            }),
            make: every_dataset!(Bson::<false>),
        },
        Entry {
            name: "bson-borrowed",
            format: "bson",
            library: "bson",
            labels: &["binary", "schemaless", "map-layout", "borrowed-strings"],
            user: Err(crate::registry::BORROWED_ROW),
            make: every_dataset!(Bson::<true>),
        },
    ]
}
