//! simd-json. Its parser works in place, so decode first copies the input into a
//! reused scratch buffer (part of the timed decode); `-borrowed` keeps strings pointing
//! into that scratch copy.

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};
use crate::user::{UserCodec, V, beyond_64_bits};

#[derive(Default)]
pub struct SimdJson<const BORROW: bool> {
    scratch: Vec<u8>,
}

impl<T, const BORROW: bool> Codec<T> for SimdJson<BORROW>
where
    T: Serialize + DeserializeOwned + Borrowable + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        simd_json::serde::to_writer(out, v).map_err(|e| e.to_string())
    }
    fn decode(&mut self, _i: usize, bytes: &[u8]) -> Res<T> {
        self.scratch.clear();
        self.scratch.extend_from_slice(bytes);
        if BORROW {
            let r: T::Ref<'_> =
                simd_json::serde::from_slice(&mut self.scratch).map_err(|e| e.to_string())?;
            Ok(T::to_native(r))
        } else {
            simd_json::serde::from_slice(&mut self.scratch).map_err(|e| e.to_string())
        }
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, bytes: &[u8]) -> Res<()> {
        self.scratch.clear();
        self.scratch.extend_from_slice(bytes);
        if BORROW {
            let r: T::Ref<'_> =
                simd_json::serde::from_slice(&mut self.scratch).map_err(|e| e.to_string())?;
            black_box(r);
        } else {
            black_box(
                simd_json::serde::from_slice::<T>(&mut self.scratch).map_err(|e| e.to_string())?,
            );
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "simd-json",
            format: "json",
            library: "simd-json",
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
            make: every_dataset!(serde, "simd-json", SimdJson::<false>::default()),
        },
        Entry {
            name: "simd-json-dynamic",
            format: "json",
            library: "simd-json",
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
                    SimdJson::<false>::default(),
                    beyond_64_bits,
                ))
            }),
            make: crate::entry::user_only,
        },
        Entry {
            name: "simd-json-borrowed",
            format: "json",
            library: "simd-json",
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
            make: every_dataset!(serde, "simd-json-borrowed", SimdJson::<true>::default()),
        },
    ]
}
