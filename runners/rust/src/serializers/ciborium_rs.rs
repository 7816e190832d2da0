//! ciborium (CBOR): records as maps keyed by field name; owned decode only (ciborium
//! does not lend strings from the input).

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::Res;
use crate::user::{UserCodec, V, beyond_64_bits};

pub struct Ciborium;

impl<T: Serialize + DeserializeOwned + 'static> Codec<T> for Ciborium {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        ciborium::into_writer(v, out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, bytes: &[u8]) -> Res<T> {
        ciborium::from_reader(bytes).map_err(|e| e.to_string())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "ciborium",
            format: "cbor",
            library: "ciborium",
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
            make: every_dataset!(serde, "ciborium", Ciborium),
        },
        Entry {
            name: "ciborium-dynamic",
            format: "cbor",
            library: "ciborium",
            labels: &[
                "binary",
                "schemaless",
                "map-layout",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "dynamic",
            ],
            typed: false,
            user: Ok(|| {
                crate::cell::cell::<V, _>(UserCodec::new("cbor", Ciborium, beyond_64_bits))
            }),
            make: crate::entry::user_only,
        },
    ]
}
