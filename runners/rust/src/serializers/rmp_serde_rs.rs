//! rmp-serde (MessagePack). Three rows:
//!   rmp-serde          records as arrays in field order, a record of one field as its
//!                      field's bare value (S2's string message a bare string; S1 = 383
//!                      bytes), owned decode
//!   rmp-serde-borrowed the same bytes, strings borrowed from the input
//!   rmp-serde-map      records as maps keyed by field name, owned decode
//! Streams are concatenated without a length prefix (MessagePack is self-delimiting);
//! the reader finds each message's end with `value_len`, a scan of the markers.

use std::hint::black_box;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::{Borrowable, Res};
use crate::user::{UserCodec, V, beyond_64_bits};
use crate::views::{Derived, In, Out, Via, ViaDe};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The positional layout: records as arrays of their fields in order, enums as ordinals,
/// and a record of one field as that field's bare value (so S2's string message is a bare
/// string, also inside its nested message). The mirrors of the records it changes are
/// generated from types.json (codegen/views.rs); every other type keeps its serde derive.
pub trait Positional: Borrowable + 'static {
    type Pos: Via<Self> + for<'de> ViaDe<'de, Self>;
    type PosRef<'a>: ViaDe<'a, Self::Ref<'a>>;
}

// Every typed message's impl is generated with the model.
impl Positional for V {
    type Pos = Derived;
    type PosRef<'a> = Derived;
}

fn read<T: Positional>(b: &[u8]) -> Res<T> {
    rmp_serde::from_slice::<In<T::Pos, T>>(b)
        .map(|x| x.0)
        .map_err(err)
}

fn read_borrowed<T: Positional>(b: &[u8]) -> Res<T::Ref<'_>> {
    rmp_serde::from_slice::<In<T::PosRef<'_>, T::Ref<'_>>>(b)
        .map(|x| x.0)
        .map_err(err)
}

/// The length of the MessagePack value at the start of `b`.
pub fn value_len(b: &[u8]) -> Res<usize> {
    fn be(b: &[u8], at: usize, n: usize) -> Res<usize> {
        let s = b.get(at..at + n).ok_or("msgpack: truncated")?;
        Ok(s.iter().fold(0usize, |a, &x| (a << 8) | x as usize))
    }
    fn go(b: &[u8], at: usize, depth: u32) -> Res<usize> {
        if depth > 1024 {
            return Err("msgpack: too deep".into());
        }
        let m = *b.get(at).ok_or("msgpack: truncated")?;
        let items = |n: usize, hdr: usize, per: usize| -> Res<usize> {
            let mut p = at + hdr;
            for _ in 0..n * per {
                p = go(b, p, depth + 1)?;
            }
            Ok(p)
        };
        let end = match m {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => at + 1,
            0x80..=0x8f => items((m & 0x0f) as usize, 1, 2)?,
            0x90..=0x9f => items((m & 0x0f) as usize, 1, 1)?,
            0xa0..=0xbf => at + 1 + (m & 0x1f) as usize,
            0xc4 | 0xd9 => at + 2 + be(b, at + 1, 1)?,
            0xc5 | 0xda => at + 3 + be(b, at + 1, 2)?,
            0xc6 | 0xdb => at + 5 + be(b, at + 1, 4)?,
            0xc7 => at + 3 + be(b, at + 1, 1)?,
            0xc8 => at + 4 + be(b, at + 1, 2)?,
            0xc9 => at + 6 + be(b, at + 1, 4)?,
            0xca | 0xce | 0xd2 => at + 5,
            0xcb | 0xcf | 0xd3 => at + 9,
            0xcc | 0xd0 => at + 2,
            0xcd | 0xd1 => at + 3,
            0xd4 => at + 3,
            0xd5 => at + 4,
            0xd6 => at + 6,
            0xd7 => at + 10,
            0xd8 => at + 18,
            0xdc => items(be(b, at + 1, 2)?, 3, 1)?,
            0xdd => items(be(b, at + 1, 4)?, 5, 1)?,
            0xde => items(be(b, at + 1, 2)?, 3, 2)?,
            0xdf => items(be(b, at + 1, 4)?, 5, 2)?,
            0xc1 => return Err("msgpack: reserved marker 0xc1".into()),
        };
        if end > b.len() {
            return Err("msgpack: truncated".into());
        }
        Ok(end)
    }
    go(b, 0, 0)
}

/// The positional layout; `BORROW` selects the borrowed decode.
pub struct RmpPos<const BORROW: bool>;

impl<T: Positional, const BORROW: bool> Codec<T> for RmpPos<BORROW> {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        rmp_serde::encode::write(out, &Out::<T::Pos, T>::new(v)).map_err(err)
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        if BORROW {
            read_borrowed::<T>(b).map(T::to_native)
        } else {
            read(b)
        }
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        if BORROW {
            black_box(read_borrowed::<T>(b)?);
        } else {
            black_box(read::<T>(b)?);
        }
        Ok(())
    }
    fn self_delimiting(&self) -> bool {
        true
    }
    fn decode_front(&mut self, i: usize, b: &[u8]) -> Res<(T, usize)> {
        let n = value_len(b)?;
        Ok((<Self as Codec<T>>::decode(self, i, &b[..n])?, n))
    }
    #[inline]
    fn decode_front_sink(&mut self, i: usize, b: &[u8]) -> Res<usize> {
        let n = value_len(b)?;
        <Self as Codec<T>>::decode_sink(self, i, &b[..n])?;
        Ok(n)
    }
}

/// Records as maps keyed by field name.
pub struct RmpMap;

impl<T: Serialize + DeserializeOwned + 'static> Codec<T> for RmpMap {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        rmp_serde::encode::write_named(out, v).map_err(err)
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        rmp_serde::from_slice(b).map_err(err)
    }
    fn self_delimiting(&self) -> bool {
        true
    }
    fn decode_front(&mut self, i: usize, b: &[u8]) -> Res<(T, usize)> {
        let n = value_len(b)?;
        Ok((<Self as Codec<T>>::decode(self, i, &b[..n])?, n))
    }
}

pub fn entries() -> Vec<Entry> {
    vec![
        Entry {
            name: "rmp-serde",
            format: "msgpack",
            library: "rmp-serde",
            labels: &[
                "binary",
                "schemaless",
                "positional",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "generated",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "rmp-serde", RmpPos::<false>),
        },
        Entry {
            name: "rmp-serde-dynamic",
            format: "msgpack",
            library: "rmp-serde",
            labels: &[
                "binary",
                "schemaless",
                "positional",
                "enum-as-ordinal",
                "timestamp-as-number",
                "copying-decode",
                "dynamic",
            ],
            typed: false,
            user: Ok(|| {
                crate::cell::cell::<V, _>(UserCodec::new(
                    "msgpack",
                    RmpPos::<false>,
                    beyond_64_bits,
                ))
            }),
            make: crate::entry::user_only,
        },
        Entry {
            name: "rmp-serde-borrowed",
            format: "msgpack",
            library: "rmp-serde",
            labels: &[
                "binary",
                "schemaless",
                "positional",
                "enum-as-ordinal",
                "timestamp-as-number",
                "borrowed-strings",
            ],
            typed: true,
            user: Err(crate::entry::TYPED_ROW),
            make: every_dataset!(serde, "rmp-serde-borrowed", RmpPos::<true>),
        },
        Entry {
            name: "rmp-serde-map",
            format: "msgpack",
            library: "rmp-serde",
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
            make: every_dataset!(serde, "rmp-serde-map", RmpMap),
        },
        Entry {
            name: "rmp-serde-map-dynamic",
            format: "msgpack",
            library: "rmp-serde",
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
                crate::cell::cell::<V, _>(UserCodec::new("msgpack", RmpMap, beyond_64_bits))
            }),
            make: crate::entry::user_only,
        },
    ]
}
