//! prost-reflect: protobuf `DynamicMessage`s on user datasets, from the dataset's
//! FileDescriptorSet (protocol section 7). Encode fills a message from the generic value
//! tree, walking the declared types and the descriptors side by side (record field `k` is
//! field number `k + 1`; a top-level value that is not a record is field 1 of `Root`),
//! then encodes it; decode parses a message and reads it back into the tree. Built-in
//! datasets are the `prost` row's (generated code).

use prost::Message;
use prost::bytes::Bytes;
use prost_reflect::{
    DescriptorPool, DynamicMessage, FieldDescriptor, Kind, MapKey, MessageDescriptor,
    ReflectMessage, Value,
};

use crate::cell::{Codec, Source};
use crate::entry::Entry;
use crate::types::Res;
use crate::user::{Ty, V, beyond_64_bits, first_uncarried, schema, types_of};

#[derive(Default)]
pub struct ProstReflect {
    desc: Option<MessageDescriptor>,
    ty: Option<Ty>,
}

fn mismatch<T>(v: &V, kind: &Kind) -> Res<T> {
    Err(format!("protobuf: {v:?} does not fit a {kind:?} field"))
}

fn field(md: &MessageDescriptor, k: usize) -> Res<FieldDescriptor> {
    md.get_field(k as u32 + 1)
        .ok_or_else(|| format!("protobuf: {} has no field {}", md.full_name(), k + 1))
}

/// Record fields as (declared type, value) pairs, in field-number order.
fn fill<'a>(
    md: &MessageDescriptor,
    fields: impl Iterator<Item = (&'a Ty, &'a V)>,
) -> Res<DynamicMessage> {
    let mut m = DynamicMessage::new(md.clone());
    for (k, (ty, v)) in fields.enumerate() {
        if matches!(v, V::Null) {
            continue; // null and absent optional values: the field is not set
        }
        let fd = field(md, k)?;
        let ty = match ty {
            Ty::Opt(t) => t,
            t => t,
        };
        let value = match (ty, v) {
            (Ty::List(t), V::List(l)) => Value::List(
                l.iter()
                    .map(|x| single(&fd.kind(), t, x))
                    .collect::<Res<_>>()?,
            ),
            (Ty::Map(t), V::Map(entries)) => {
                let Kind::Message(entry) = fd.kind() else {
                    return mismatch(v, &fd.kind());
                };
                let kind = entry.map_entry_value_field().kind();
                Value::Map(
                    entries
                        .iter()
                        .map(|(key, x)| Ok((MapKey::String(key.clone()), single(&kind, t, x)?)))
                        .collect::<Res<_>>()?,
                )
            }
            _ => single(&fd.kind(), ty, v)?,
        };
        m.try_set_field(&fd, value)
            .map_err(|e| format!("protobuf: {e}"))?;
    }
    Ok(m)
}

/// One value (not a list or map) of a field of `kind`.
fn single(kind: &Kind, ty: &Ty, v: &V) -> Res<Value> {
    let int = |i: i64| i32::try_from(i).map_err(|_| format!("protobuf: {i} exceeds int32"));
    Ok(match (kind, v) {
        (Kind::Bool, V::Bool(b)) => Value::Bool(*b),
        (Kind::Int32 | Kind::Sint32 | Kind::Sfixed32, V::Int(i)) => Value::I32(int(*i)?),
        (Kind::Int64 | Kind::Sint64 | Kind::Sfixed64, V::Int(i) | V::Ts(i)) => Value::I64(*i),
        (Kind::Uint32 | Kind::Fixed32, V::UInt(u)) => {
            Value::U32(u32::try_from(*u).map_err(|_| format!("protobuf: {u} exceeds uint32"))?)
        }
        (Kind::Uint64 | Kind::Fixed64, V::UInt(u)) => Value::U64(*u),
        (Kind::Float, V::F32(f)) => Value::F32(*f),
        (Kind::Double, V::F64(f)) => Value::F64(*f),
        (Kind::String, V::Str(s)) => Value::String(s.clone()),
        (Kind::Bytes, V::Bytes(b)) => Value::Bytes(Bytes::copy_from_slice(b)),
        (Kind::Enum(_), V::Int(i)) => Value::EnumNumber(int(*i)?),
        (Kind::Message(md), V::Map(fs)) => match ty {
            Ty::Record(types) => Value::Message(fill(
                md,
                types.iter().map(|(_, t)| t).zip(fs.iter().map(|(_, x)| x)),
            )?),
            _ => return mismatch(v, kind),
        },
        _ => return mismatch(v, kind),
    })
}

/// Field `k` of `m` as a value of declared type `ty`: an unset field with presence is null.
fn get(m: &mut DynamicMessage, k: usize, ty: &Ty) -> Res<V> {
    let fd = field(&m.descriptor(), k)?;
    match ty {
        Ty::Null | Ty::Opt(_) if !m.has_field(&fd) => Ok(V::Null),
        Ty::Opt(t) => read(
            t,
            m.take_field(&fd)
                .unwrap_or_else(|| Value::default_value_for_field(&fd)),
        ),
        _ => read(
            ty,
            m.take_field(&fd)
                .unwrap_or_else(|| Value::default_value_for_field(&fd)),
        ),
    }
}

fn read(ty: &Ty, v: Value) -> Res<V> {
    Ok(match (ty, v) {
        (Ty::List(t), Value::List(l)) => {
            V::List(l.into_iter().map(|x| read(t, x)).collect::<Res<_>>()?)
        }
        (Ty::Map(t), Value::Map(m)) => V::Map(
            m.into_iter()
                .map(|(k, x)| match k {
                    MapKey::String(s) => Ok((s, read(t, x)?)),
                    k => Err(format!("protobuf: map key {k:?} is not a string")),
                })
                .collect::<Res<_>>()?,
        ),
        (Ty::Record(fields), Value::Message(mut m)) => V::Map(
            fields
                .iter()
                .enumerate()
                .map(|(k, (name, t))| Ok((name.clone(), get(&mut m, k, t)?)))
                .collect::<Res<_>>()?,
        ),
        (Ty::Ts, Value::I64(i)) => V::Ts(i),
        (_, Value::Bool(b)) => V::Bool(b),
        (_, Value::I32(i) | Value::EnumNumber(i)) => V::Int(i as i64),
        (_, Value::I64(i)) => V::Int(i),
        (_, Value::U32(u)) => V::UInt(u as u64),
        (_, Value::U64(u)) => V::UInt(u),
        (_, Value::F32(f)) => V::F32(f),
        (_, Value::F64(f)) => V::F64(f),
        (_, Value::String(s)) => V::Str(s),
        (_, Value::Bytes(b)) => V::Bytes(b.to_vec()),
        (ty, v) => return Err(format!("protobuf: {v:?} read for a {ty:?}")),
    })
}

impl ProstReflect {
    fn parts(&self) -> Res<(&MessageDescriptor, &Ty)> {
        match (&self.desc, &self.ty) {
            (Some(d), Some(t)) => Ok((d, t)),
            _ => Err("prost-reflect: no schema loaded".into()),
        }
    }
}

impl Codec<V> for ProstReflect {
    fn source(&mut self, src: &Source) -> Res<()> {
        let s = schema(src, "proto", "protobuf")?;
        let (Some(set), Some(name)) = (
            s.get("descriptor_set").and_then(|x| x.as_str()),
            s.get("message").and_then(|x| x.as_str()),
        ) else {
            return Err("schemas.proto needs descriptor_set and message".into());
        };
        let bytes = std::fs::read(set).map_err(|e| format!("{set}: {e}"))?;
        let pool = DescriptorPool::decode(bytes.as_slice()).map_err(|e| format!("{set}: {e}"))?;
        // `message` may be package-qualified or not.
        let desc = pool
            .get_message_by_name(name)
            .or_else(|| pool.all_messages().find(|m| m.name() == name))
            .ok_or_else(|| format!("{set}: no message {name}"))?;
        self.desc = Some(desc);
        self.ty = Some(types_of(src)?);
        Ok(())
    }
    fn prepare(&mut self, items: &[V]) -> Res<()> {
        for it in items {
            if let Some(why) = first_uncarried(it, "$", &beyond_64_bits) {
                return Err(format!("not applicable: protobuf: {why}"));
            }
        }
        Ok(())
    }
    #[inline]
    fn encode(&mut self, _i: usize, v: &V, out: &mut Vec<u8>) -> Res<()> {
        let (md, ty) = self.parts()?;
        let m = match (ty, v) {
            (Ty::Record(types), V::Map(fs)) => fill(
                md,
                types.iter().map(|(_, t)| t).zip(fs.iter().map(|(_, x)| x)),
            )?,
            (Ty::Record(_), v) => return Err(format!("protobuf: {v:?} is not a record")),
            _ => fill(md, std::iter::once((ty, v)))?,
        };
        m.encode(out).map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, b: &[u8]) -> Res<V> {
        let (md, ty) = self.parts()?;
        let mut m = DynamicMessage::decode(md.clone(), b).map_err(|e| e.to_string())?;
        match ty {
            Ty::Record(_) => read(ty, Value::Message(m)),
            _ => get(&mut m, 0, ty),
        }
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "prost-reflect",
        format: "protobuf",
        library: "prost-reflect",
        labels: &["binary", "schema-required", "dynamic", "copying-decode"],
        typed: false,
        user: Ok(|| crate::cell::cell::<V, _>(ProstReflect::default())),
        make: |_| {
            Err(
                "built-in datasets are timed with generated code by the prost row; this row is \
                 prost-reflect's DynamicMessage on user datasets"
                    .into(),
            )
        },
    }]
}
