//! prost: messages generated from datasets/*/*.proto by build.rs, and their conversions
//! from and to the typed model generated from types.json (codegen/prost.rs). Encode
//! copies the native value into the generated message, then encodes it; decode parses the
//! message and moves it into the native value.

use crate::cell::Codec;
use crate::entry::Entry;
use crate::types::Res;

/// A native type and its generated message.
pub trait Proto: Sized {
    type Msg: prost::Message + Default;
    fn to_msg(&self) -> Self::Msg;
    fn from_msg(m: Self::Msg) -> Res<Self>;
}

pub struct Prost;

impl<T: Proto + 'static> Codec<T> for Prost {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        prost::Message::encode(&v.to_msg(), out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<T> {
        T::from_msg(<T::Msg as prost::Message>::decode(b).map_err(|e| e.to_string())?)
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "prost",
        format: "protobuf",
        library: "prost",
        labels: &["binary", "schema-required", "generated", "copying-decode"],
        typed: true,
        user: Err(crate::entry::TYPED_ROW),
        make: every_dataset!(prost, "prost", Prost),
    }]
}
