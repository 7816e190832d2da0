//! serde_json: owned decode, and borrowed decode (strings without escapes point into
//! the input).

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};
use crate::user::{UserCodec, V, beyond_64_bits};

pub struct SerdeJson<const BORROW: bool>;

impl<T, const BORROW: bool> Codec<T> for SerdeJson<BORROW>
where
    T: Serialize + DeserializeOwned + Borrowable + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        serde_json::to_writer(out, v).map_err(|e| e.to_string())
    }
    fn decode(&mut self, _i: usize, bytes: &[u8]) -> Res<T> {
        if BORROW {
            let r: T::Ref<'_> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
            Ok(T::to_native(r))
        } else {
            serde_json::from_slice(bytes).map_err(|e| e.to_string())
        }
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, bytes: &[u8]) -> Res<()> {
        if BORROW {
            let r: T::Ref<'_> = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
            black_box(r);
        } else {
            black_box(serde_json::from_slice::<T>(bytes).map_err(|e| e.to_string())?);
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "serde_json",
            format: "json",
            library: "serde_json",
            labels: &[
                "text",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "generated",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "serde_json", SerdeJson::<false>),
        },
        Entry {
            name: "serde_json-dynamic",
            format: "json",
            library: "serde_json",
            labels: &[
                "text",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "dynamic",
            ],
            typed: false,
            user: Ok(|| {
                crate::cell::cell::<V, _>(UserCodec::new(
                    "json",
                    SerdeJson::<false>,
                    beyond_64_bits,
                ))
            }),
            make: crate::entry::user_only,
        },
        Entry {
            name: "serde_json-borrowed",
            format: "json",
            library: "serde_json",
            labels: &[
                "text",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "borrowed-strings",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "serde_json-borrowed", SerdeJson::<true>),
        },
    ]
}
