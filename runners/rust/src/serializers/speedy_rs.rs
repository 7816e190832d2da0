//! speedy (derive), little-endian: encode sizes the message first, then writes into the
//! output in place.

use speedy::{LittleEndian, Readable, Writable};

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::Res;

pub struct Speedy;

impl<T> Codec<T> for Speedy
where
    T: Writable<LittleEndian> + for<'a> Readable<'a, LittleEndian> + 'static,
{
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        let n = v.bytes_needed().map_err(|e| e.to_string())?;
        let start = out.len();
        out.resize(start + n, 0);
        v.write_to_buffer(&mut out[start..])
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        T::read_from_buffer(b).map_err(|e| e.to_string())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "speedy",
        format: "speedy",
        library: "speedy",
        labels: &["binary", "schema-required", "positional", "copying-decode"],
        typed: true,
        user: Err(crate::entry::TYPED_ROW),
        make: every_dataset!(fixed, "speedy", Speedy),
    }]
}
