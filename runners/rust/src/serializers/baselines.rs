//! `noop` (the harness overhead) and `memcpy` (the copy floor).

use std::hint::black_box;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Hw, Res};

/// encode appends a prepared empty buffer; decode hands back the original object.
pub struct Noop<T> {
    items: Vec<T>,
}

impl<T> Default for Noop<T> {
    fn default() -> Self {
        Noop { items: Vec::new() }
    }
}

impl<T: Clone + 'static> Codec<T> for Noop<T> {
    fn prepare(&mut self, items: &[T]) -> Res<()> {
        self.items = items.to_vec();
        Ok(())
    }
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        black_box(v);
        out.extend_from_slice(black_box(&[]));
        Ok(())
    }
    fn decode(&mut self, i: usize, _bytes: &[u8]) -> Res<T> {
        Ok(self.items[i].clone())
    }
    #[inline]
    fn decode_sink(&mut self, i: usize, bytes: &[u8]) -> Res<()> {
        black_box(bytes);
        black_box(&self.items[i]);
        Ok(())
    }
}

/// encode appends each message's prepared hand-written bytes with one copy; decode
/// copies the bytes into a scratch buffer (the check reads them with the hand-written
/// reader).
pub struct Memcpy {
    bytes: Vec<Vec<u8>>,
    scratch: Vec<u8>,
}

impl<T: Hw + 'static> Codec<T> for Memcpy {
    fn prepare(&mut self, items: &[T]) -> Res<()> {
        self.bytes = items
            .iter()
            .map(|x| {
                let mut b = Vec::new();
                x.hw_write(&mut b);
                b
            })
            .collect();
        let longest = self.bytes.iter().map(Vec::len).max().unwrap_or(0);
        self.scratch = Vec::with_capacity(longest);
        Ok(())
    }
    #[inline]
    fn encode(&mut self, i: usize, _v: &T, out: &mut Vec<u8>) -> Res<()> {
        out.extend_from_slice(&self.bytes[i]);
        Ok(())
    }
    fn decode(&mut self, _i: usize, mut bytes: &[u8]) -> Res<T> {
        let v = T::hw_read(&mut bytes)?;
        if !bytes.is_empty() {
            return Err(format!("{} trailing bytes", bytes.len()));
        }
        Ok(v)
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, bytes: &[u8]) -> Res<()> {
        self.scratch.clear();
        self.scratch.extend_from_slice(bytes);
        black_box(&self.scratch);
        Ok(())
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "noop",
            format: "none",
            library: "serbench",
            labels: &["baseline"],
            typed: false,
            user: Ok(|| crate::cell::cell::<crate::user::V, _>(Noop::default())),
            make: every_dataset!(serde, "noop", Noop::default()),
        },
        Entry {
            name: "memcpy",
            format: "handwritten",
            library: "serbench",
            labels: &["baseline"],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(
                fixed,
                "memcpy",
                Memcpy {
                    bytes: Vec::new(),
                    scratch: Vec::new()
                }
            ),
        },
    ]
}
