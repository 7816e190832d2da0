//! bitcode (derive): a reused `bitcode::Buffer` for encoding and decoding.

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::Res;

#[derive(Default)]
pub struct Bitcode {
    buffer: bitcode::Buffer,
}

impl<T: bitcode::Encode + bitcode::DecodeOwned + 'static> Codec<T> for Bitcode {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        out.extend_from_slice(self.buffer.encode(v));
        Ok(())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        self.buffer.decode(b).map_err(|e| e.to_string())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "bitcode",
        format: "bitcode",
        library: "bitcode",
        labels: &["binary", "schema-required", "positional", "copying-decode"],
        typed: true,
        user: Err(crate::entry::TYPED_ROW),
        make: every_dataset!(fixed, "bitcode", Bitcode::default()),
    }]
}
