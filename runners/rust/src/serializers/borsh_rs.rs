//! borsh (derive): little-endian fixed-width integers, u32 lengths; hash maps are
//! written in sorted key order, as borsh requires.

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::Res;

pub struct Borsh;

impl<T: borsh::BorshSerialize + borsh::BorshDeserialize + 'static> Codec<T> for Borsh {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        v.serialize(out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        borsh::from_slice(b).map_err(|e| e.to_string())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "borsh",
        format: "borsh",
        library: "borsh",
        labels: &["binary", "schema-required", "positional", "copying-decode"],
        typed: true,
        user: Err(crate::entry::TYPED_ROW),
        make: every_dataset!(borsh, "borsh", Borsh),
    }]
}
