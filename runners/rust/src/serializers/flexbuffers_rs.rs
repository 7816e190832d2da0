//! flexbuffers (FlatBuffers' schemaless sibling) through its serde support: records as
//! maps keyed by field name (the format sorts map keys, so the bytes do not depend on the
//! writer's field order), enums as their symbol string (on the built-ins, S1's gender),
//! timestamps as int64 epoch ms.
//! Decode builds the native value (built-in datasets) or the generic value tree (user
//! datasets: float32 stays 32-bit, bytes are blobs).

use std::hint::black_box;

use flexbuffers::FlexbufferSerializer;
use serde::{Serialize, Serializer};

use crate::cell::{Codec, Source};
use crate::entry::Entry;
use crate::types::Res;
use crate::user::{Ty, UserCodec, V, beyond_64_bits, types_of};
use crate::views::{Derived, In, Out, Via, ViaDe};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Reads bytes another writer produced: the reader panics on some malformed input, which
/// becomes an error rather than the end of the runner.
fn guarded<T>(b: &[u8], read: fn(&[u8]) -> Res<T>) -> Res<T> {
    std::panic::catch_unwind(|| read(b))
        .unwrap_or_else(|_| Err("flexbuffers: reader panicked".into()))
}

/// How a message is written: its serde derives, but enums by their symbol (the mirrors of
/// the records and enums it changes are generated, codegen/views.rs).
pub trait Symbols: Sized + 'static {
    type Layout: Via<Self> + for<'de> ViaDe<'de, Self>;
}

// Every typed message's impl is generated with the model.
impl Symbols for V {
    type Layout = Derived;
}

fn read<T: Symbols>(b: &[u8]) -> Res<T> {
    flexbuffers::from_slice::<In<T::Layout, T>>(b)
        .map(|x| x.0)
        .map_err(err)
}

/// One reused serializer (its buffers keep their capacity); each message is copied out.
#[derive(Default)]
pub struct Flex {
    ser: FlexbufferSerializer,
}

impl<T: Symbols> Codec<T> for Flex {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        self.ser.reset();
        Out::<T::Layout, T>::new(v)
            .serialize(&mut self.ser)
            .map_err(err)?;
        out.extend_from_slice(self.ser.view());
        Ok(())
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        guarded(b, read::<T>)
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        black_box(read::<T>(b)?);
        Ok(())
    }
}

/// A generic value written with its declared type: enums as their symbol, records as
/// maps keyed by field name.
struct Typed<'a>(&'a Ty, &'a V);

impl Serialize for Typed<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.0, self.1) {
            (Ty::Enum(symbols), V::Int(i)) => match symbols.get(*i as usize) {
                Some(sym) => s.serialize_str(sym),
                None => Err(serde::ser::Error::custom(format!("no enum symbol {i}"))),
            },
            (Ty::Opt(t), v) => Typed(t, v).serialize(s),
            (Ty::List(t), V::List(l)) => s.collect_seq(l.iter().map(|x| Typed(t, x))),
            (Ty::Map(t), V::Map(m)) => s.collect_map(m.iter().map(|(k, x)| (k, Typed(t, x)))),
            (Ty::Record(fields), V::Map(m)) => s.collect_map(
                fields
                    .iter()
                    .zip(m)
                    .map(|((k, t), (_, x))| (k, Typed(t, x))),
            ),
            (_, v) => v.serialize(s),
        }
    }
}

/// The generic value tree on user datasets (wrapped in `UserCodec`, which checks what the
/// format carries and brings decoded trees to the declared types).
#[derive(Default)]
pub struct FlexUser {
    ser: FlexbufferSerializer,
    ty: Option<Ty>,
}

impl Codec<V> for FlexUser {
    fn source(&mut self, src: &Source) -> Res<()> {
        self.ty = Some(types_of(src)?);
        Ok(())
    }
    #[inline]
    fn encode(&mut self, _i: usize, v: &V, out: &mut Vec<u8>) -> Res<()> {
        let ty = self.ty.as_ref().ok_or("flexbuffers: no types")?;
        self.ser.reset();
        Typed(ty, v).serialize(&mut self.ser).map_err(err)?;
        out.extend_from_slice(self.ser.view());
        Ok(())
    }
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<V> {
        guarded(b, |b| flexbuffers::from_slice(b).map_err(err))
    }
    #[inline]
    fn decode_sink(&mut self, _i: usize, b: &[u8]) -> Res<()> {
        black_box(flexbuffers::from_slice::<V>(b).map_err(err)?);
        Ok(())
    }
}

/// What FlexBuffers cannot carry: integers beyond 64 bits, and map keys with NUL (keys
/// are NUL-terminated).
fn carry(v: &V) -> Option<String> {
    match v {
        V::Map(m) => m
            .iter()
            .find(|(k, _)| k.contains('\0'))
            .map(|(k, _)| format!("key with NUL {k:?}")),
        v => beyond_64_bits(v),
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "flexbuffers",
        format: "flexbuffers",
        library: "flexbuffers",
        labels: &[
            "binary",
            "schemaless",
            "map-layout",
            "copying-decode",
            "enum-as-ordinal",
        ],
        typed: false,
        user: Ok(|| {
            crate::cell::cell::<V, _>(UserCodec::new("flexbuffers", FlexUser::default(), carry))
        }),
        make: every_dataset!(serde, "flexbuffers", Flex::default()),
    }]
}
