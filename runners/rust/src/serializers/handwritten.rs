//! Field-by-field binary writer/reader with no library (the Parcelable stand-in); the
//! format is `types::Hw`.

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Hw, Res};

pub struct Handwritten;

impl<T: Hw + 'static> Codec<T> for Handwritten {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        v.hw_write(out);
        Ok(())
    }
    #[inline]
    fn decode(&mut self, _i: usize, mut bytes: &[u8]) -> Res<T> {
        let v = T::hw_read(&mut bytes)?;
        if !bytes.is_empty() {
            return Err(format!("{} trailing bytes", bytes.len()));
        }
        Ok(v)
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "handwritten",
        format: "handwritten",
        library: "serbench",
        labels: &[
            "binary",
            "schema-required",
            "handwritten",
            "positional",
            "copying-decode",
        ],
        typed: true,
        user: Err(crate::entry::TYPED_ROW),
        make: every_dataset!(fixed, "handwritten", Handwritten),
    }]
}
