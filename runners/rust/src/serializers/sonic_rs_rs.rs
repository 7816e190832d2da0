//! sonic-rs (SIMD JSON): owned decode, and borrowed decode.

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};
use crate::user::{UserCodec, V, beyond_64_bits};

pub struct SonicRs<const BORROW: bool>;

impl<T, const BORROW: bool> Codec<T> for SonicRs<BORROW>
where
    T: Serialize + DeserializeOwned + Borrowable + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        sonic_rs::to_writer(out, v).map_err(|e| e.to_string())
    }
    fn decode(&mut self, _i: usize, bytes: &[u8]) -> Res<T> {
        if BORROW {
            let r: T::Ref<'_> = sonic_rs::from_slice(bytes).map_err(|e| e.to_string())?;
            Ok(T::to_native(r))
        } else {
            sonic_rs::from_slice(bytes).map_err(|e| e.to_string())
        }
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, bytes: &[u8]) -> Res<()> {
        if BORROW {
            let r: T::Ref<'_> = sonic_rs::from_slice(bytes).map_err(|e| e.to_string())?;
            black_box(r);
        } else {
            black_box(sonic_rs::from_slice::<T>(bytes).map_err(|e| e.to_string())?);
        }
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "sonic-rs",
            format: "json",
            library: "sonic-rs",
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
            make: every_dataset!(serde, "sonic-rs", SonicRs::<false>),
        },
        Entry {
            name: "sonic-rs-dynamic",
            format: "json",
            library: "sonic-rs",
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
                crate::cell::cell::<V, _>(UserCodec::new("json", SonicRs::<false>, beyond_64_bits))
            }),
            make: crate::entry::user_only,
        },
        Entry {
            name: "sonic-rs-borrowed",
            format: "json",
            library: "sonic-rs",
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
            make: every_dataset!(serde, "sonic-rs-borrowed", SonicRs::<true>),
        },
    ]
}
