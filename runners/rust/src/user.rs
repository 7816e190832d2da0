//! User datasets (protocol section 7): the types file, the generic value tree `V` the
//! schemaless formats encode, the canonical file read through the types, and the
//! conformance of a decoded tree to the types (for the check).

use std::fmt;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value as J;

use crate::canonical::{b64, float};
use crate::codec::{Codec, Source};
use crate::types::{DatasetFile, Diff, FromJson, Item, Res, child};

/// A declared type.
#[derive(Debug, Clone)]
pub enum Ty {
    Null,
    Bool,
    I32,
    U32,
    I64,
    U64,
    BigInt,
    F32,
    F64,
    Str,
    Bytes,
    Ts,
    Any,
    List(Box<Ty>),
    Map(Box<Ty>),
    Opt(Box<Ty>),
    Record(Vec<(String, Ty)>),
    /// The symbols, in ordinal order.
    Enum(Vec<String>),
}

/// The generic value tree. Records are maps in field order; enums are ordinals.
#[derive(Debug, Clone)]
pub enum V {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    /// An integer beyond 64 bits (no format here carries it).
    Big(String),
    F32(f32),
    F64(f64),
    Str(String),
    Bytes(Vec<u8>),
    /// Milliseconds since the epoch, written as an integer.
    Ts(i64),
    List(Vec<V>),
    Map(Vec<(String, V)>),
}

/// Parses types.json into the message type.
pub fn parse_types(text: &str) -> Res<Ty> {
    let doc: J = serde_json::from_str(text).map_err(|e| format!("types: {e}"))?;
    let named = doc
        .get("types")
        .and_then(J::as_object)
        .cloned()
        .unwrap_or_default();
    let message = doc
        .get("message")
        .and_then(J::as_str)
        .ok_or("types: message must be a type name")?;
    resolve(message, &named, 0)
}

fn resolve(expr: &str, named: &serde_json::Map<String, J>, depth: u32) -> Res<Ty> {
    if depth > 64 {
        return Err(format!("types: {expr} nests too deep"));
    }
    let inner = |p: &str| expr.strip_prefix(p).and_then(|r| r.strip_suffix('>'));
    Ok(match expr {
        "null" => Ty::Null,
        "bool" => Ty::Bool,
        "int32" => Ty::I32,
        "uint32" => Ty::U32,
        "int64" => Ty::I64,
        "uint64" => Ty::U64,
        "bigint" => Ty::BigInt,
        "float32" => Ty::F32,
        "float64" => Ty::F64,
        "string" => Ty::Str,
        "bytes" => Ty::Bytes,
        "timestamp_ms" => Ty::Ts,
        "any" => Ty::Any,
        _ => {
            if let Some(t) = inner("list<") {
                Ty::List(Box::new(resolve(t, named, depth + 1)?))
            } else if let Some(t) = inner("map<string,") {
                Ty::Map(Box::new(resolve(t, named, depth + 1)?))
            } else if let Some(t) = inner("optional<") {
                Ty::Opt(Box::new(resolve(t, named, depth + 1)?))
            } else if let Some(def) = named.get(expr) {
                if let Some(fields) = def.get("record").and_then(J::as_array) {
                    let mut out = Vec::new();
                    for f in fields {
                        let (Some(n), Some(t)) =
                            (f.get(0).and_then(J::as_str), f.get(1).and_then(J::as_str))
                        else {
                            return Err(format!("types: bad field in {expr}"));
                        };
                        out.push((n.to_string(), resolve(t, named, depth + 1)?));
                    }
                    Ty::Record(out)
                } else if let Some(symbols) = def.get("enum").and_then(J::as_array) {
                    Ty::Enum(
                        symbols
                            .iter()
                            .map(|s| s.as_str().map(str::to_string))
                            .collect::<Option<_>>()
                            .ok_or_else(|| {
                                format!("types: {expr}: enum symbols must be strings")
                            })?,
                    )
                } else {
                    return Err(format!("types: {expr} is neither a record nor an enum"));
                }
            } else {
                return Err(format!("types: unknown type {expr:?}"));
            }
        }
    })
}

fn int(j: &J) -> V {
    let n = match j {
        J::Number(n) => n,
        _ => return V::Null,
    };
    if let Some(i) = n.as_i64() {
        V::Int(i)
    } else if let Some(u) = n.as_u64() {
        V::UInt(u)
    } else {
        V::Big(n.to_string())
    }
}

/// A canonical JSON value of type `ty` as a tree.
pub fn from_canonical(ty: &Ty, j: &J, path: &str) -> Res<V> {
    let bad = || format!("{path}: {j} is not a {ty:?}");
    Ok(match ty {
        Ty::Null => V::Null,
        Ty::Bool => V::Bool(j.as_bool().ok_or_else(bad)?),
        Ty::I32 | Ty::I64 | Ty::Enum(_) => V::Int(j.as_i64().ok_or_else(bad)?),
        Ty::U32 | Ty::U64 => V::UInt(j.as_u64().ok_or_else(bad)?),
        Ty::BigInt => match int(j) {
            V::Null => return Err(bad()),
            v => v,
        },
        Ty::F64 => V::F64(float(j, path)?),
        Ty::F32 => V::F32(float(j, path)? as f32),
        Ty::Str => V::Str(j.as_str().ok_or_else(bad)?.to_string()),
        Ty::Bytes => V::Bytes(j.as_str().and_then(b64).ok_or_else(bad)?),
        Ty::Ts => V::Ts(j.as_i64().ok_or_else(bad)?),
        Ty::Any => any(j),
        Ty::List(t) => V::List(
            j.as_array()
                .ok_or_else(bad)?
                .iter()
                .enumerate()
                .map(|(i, x)| from_canonical(t, x, &format!("{path}[{i}]")))
                .collect::<Res<_>>()?,
        ),
        Ty::Map(t) => V::Map(
            j.as_object()
                .ok_or_else(bad)?
                .iter()
                .map(|(k, x)| Ok((k.clone(), from_canonical(t, x, &child(path, k))?)))
                .collect::<Res<_>>()?,
        ),
        Ty::Opt(t) => {
            if j.is_null() {
                V::Null
            } else {
                from_canonical(t, j, path)?
            }
        }
        Ty::Record(fields) => {
            let o = j.as_object().ok_or_else(bad)?;
            V::Map(
                fields
                    .iter()
                    .map(|(k, t)| {
                        Ok((
                            k.clone(),
                            from_canonical(t, o.get(k).unwrap_or(&J::Null), &child(path, k))?,
                        ))
                    })
                    .collect::<Res<_>>()?,
            )
        }
    })
}

fn any(j: &J) -> V {
    match j {
        J::Null => V::Null,
        J::Bool(b) => V::Bool(*b),
        J::Number(n) if n.is_f64() => V::F64(n.as_f64().unwrap_or(f64::NAN)),
        J::Number(_) => int(j),
        J::String(s) => V::Str(s.clone()),
        J::Array(a) => V::List(a.iter().map(any).collect()),
        J::Object(o) => V::Map(o.iter().map(|(k, v)| (k.clone(), any(v))).collect()),
    }
}

/// A decoded tree brought to the declared types (integers of either sign, bytes
/// written as lists of integers, floats read back as doubles), for the comparison; a
/// value that does not fit its type is left as decoded, for the check to report.
pub fn conform(ty: &Ty, v: V, path: &str) -> Res<V> {
    let as_i = |v: &V| -> Option<i64> {
        match *v {
            V::Int(i) => Some(i),
            V::UInt(u) => i64::try_from(u).ok(),
            V::Ts(t) => Some(t),
            _ => None,
        }
    };
    Ok(match ty {
        Ty::Null => match v {
            V::Null => V::Null,
            v => v,
        },
        Ty::Bool => match v {
            V::Bool(b) => V::Bool(b),
            v => v,
        },
        Ty::I32 | Ty::I64 => as_i(&v).map_or(v, V::Int),
        // Formats that write the symbol (FlexBuffers) read it back as a string.
        Ty::Enum(symbols) => match v {
            V::Str(s) => match symbols.iter().position(|x| *x == s) {
                Some(i) => V::Int(i as i64),
                None => V::Str(s),
            },
            v => as_i(&v).map_or(v, V::Int),
        },
        Ty::Ts => as_i(&v).map_or(v, V::Ts),
        Ty::U32 | Ty::U64 => match v {
            V::UInt(u) => V::UInt(u),
            V::Int(i) if i >= 0 => V::UInt(i as u64),
            v => v,
        },
        Ty::BigInt => v,
        Ty::F64 => match v {
            V::F64(f) => V::F64(f),
            V::F32(f) => V::F64(f as f64),
            V::Int(i) => V::F64(i as f64),
            V::UInt(u) => V::F64(u as f64),
            v => v,
        },
        Ty::F32 => match v {
            V::F64(f) => V::F32(f as f32),
            V::F32(f) => V::F32(f),
            V::Int(i) => V::F32(i as f32),
            V::UInt(u) => V::F32(u as f32),
            v => v,
        },
        Ty::Str => match v {
            V::Str(s) => V::Str(s),
            v => v,
        },
        Ty::Bytes => match v {
            V::Bytes(b) => V::Bytes(b),
            V::List(l) => match l
                .iter()
                .map(|x| as_i(x).and_then(|i| u8::try_from(i).ok()))
                .collect()
            {
                Some(b) => V::Bytes(b),
                None => V::List(l),
            },
            v => v,
        },
        Ty::Any => normalize_any(v),
        Ty::List(t) => match v {
            V::List(l) => V::List(
                l.into_iter()
                    .enumerate()
                    .map(|(i, x)| conform(t, x, &format!("{path}[{i}]")))
                    .collect::<Res<_>>()?,
            ),
            v => v,
        },
        Ty::Map(t) => match v {
            V::Map(m) => V::Map(
                m.into_iter()
                    .map(|(k, x)| Ok((k.clone(), conform(t, x, &child(path, &k))?)))
                    .collect::<Res<_>>()?,
            ),
            v => v,
        },
        Ty::Opt(t) => match v {
            V::Null => V::Null,
            v => conform(t, v, path)?,
        },
        Ty::Record(fields) => match v {
            V::Map(mut m) => {
                let mut out = Vec::with_capacity(fields.len());
                for (k, t) in fields {
                    let x = match m.iter().position(|(n, _)| n == k) {
                        Some(i) => m.swap_remove(i).1,
                        None => V::Null,
                    };
                    out.push((k.clone(), conform(t, x, &child(path, k))?));
                }
                V::Map(out)
            }
            v => v,
        },
    })
}

fn normalize_any(v: V) -> V {
    match v {
        V::UInt(u) => i64::try_from(u).map_or(V::UInt(u), V::Int),
        V::F32(f) => V::F64(f as f64),
        V::List(l) => V::List(l.into_iter().map(normalize_any).collect()),
        V::Map(m) => V::Map(m.into_iter().map(|(k, x)| (k, normalize_any(x))).collect()),
        v => v,
    }
}

fn show(v: &V) -> String {
    let s = match v {
        V::Null => "null".into(),
        V::Bool(b) => b.to_string(),
        V::Int(i) | V::Ts(i) => i.to_string(),
        V::UInt(u) => u.to_string(),
        V::Big(s) => s.clone(),
        V::F32(f) => format!("{f:?}"),
        V::F64(f) => format!("{f:?}"),
        V::Str(s) => format!("{s:?}"),
        V::Bytes(b) => format!("{} bytes", b.len()),
        V::List(l) => format!("list of {}", l.len()),
        V::Map(m) => format!("map of {}", m.len()),
    };
    if s.len() > 60 {
        format!("{}...", &s[..s.floor_char_boundary(60)])
    } else {
        s
    }
}

impl Diff for V {
    fn diff(&self, other: &Self, path: &str) -> Option<String> {
        let differ = || Some(format!("{path}: {} != {}", show(self), show(other)));
        match (self, other) {
            // A typed `any` field decodes integers and floats in whichever width the
            // format wrote them.
            (V::Int(a), V::UInt(b)) | (V::UInt(b), V::Int(a)) => {
                (u64::try_from(*a) != Ok(*b)).then(differ).flatten()
            }
            (V::F32(a), V::F64(b)) | (V::F64(b), V::F32(a)) => {
                V::F64(*a as f64).diff(&V::F64(*b), path)
            }
            (V::F64(a), V::F64(b)) => (!(a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()))
                .then(differ)
                .flatten(),
            (V::F32(a), V::F32(b)) => (!(a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()))
                .then(differ)
                .flatten(),
            (V::List(a), V::List(b)) => {
                if a.len() != b.len() {
                    return Some(format!("{path}: length {} != {}", a.len(), b.len()));
                }
                a.iter()
                    .zip(b)
                    .enumerate()
                    .find_map(|(i, (x, y))| x.diff(y, &format!("{path}[{i}]")))
            }
            (V::Map(a), V::Map(b)) => {
                for (k, x) in a {
                    match b.iter().find(|(n, _)| n == k) {
                        Some((_, y)) => {
                            if let Some(d) = x.diff(y, &child(path, k)) {
                                return Some(d);
                            }
                        }
                        None => return Some(format!("{}: present != missing", child(path, k))),
                    }
                }
                b.iter()
                    .find(|(k, _)| !a.iter().any(|(n, _)| n == k))
                    .map(|(k, _)| format!("{}: missing != present", child(path, k)))
            }
            (V::Null, V::Null) => None,
            (V::Bool(a), V::Bool(b)) if a == b => None,
            (V::Int(a), V::Int(b)) | (V::Ts(a), V::Ts(b)) if a == b => None,
            (V::UInt(a), V::UInt(b)) if a == b => None,
            (V::Big(a), V::Big(b)) if a == b => None,
            (V::Str(a), V::Str(b)) if a == b => None,
            (V::Bytes(a), V::Bytes(b)) if a == b => None,
            _ => differ(),
        }
    }
}

/// The first value in `v` a format cannot carry: (path, what).
pub fn first_uncarried(v: &V, path: &str, f: &dyn Fn(&V) -> Option<String>) -> Option<String> {
    if let Some(why) = f(v) {
        return Some(format!("{why} at {path}"));
    }
    match v {
        V::List(l) => l
            .iter()
            .enumerate()
            .find_map(|(i, x)| first_uncarried(x, &format!("{path}[{i}]"), f)),
        V::Map(m) => m
            .iter()
            .find_map(|(k, x)| first_uncarried(x, &child(path, k), f)),
        _ => None,
    }
}

impl Serialize for V {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            V::Null => s.serialize_unit(),
            V::Bool(b) => s.serialize_bool(*b),
            V::Int(i) | V::Ts(i) => s.serialize_i64(*i),
            V::UInt(u) => s.serialize_u64(*u),
            V::Big(b) => Err(serde::ser::Error::custom(format!("{b} exceeds 64 bits"))),
            V::F32(f) => s.serialize_f32(*f),
            V::F64(f) => s.serialize_f64(*f),
            V::Str(x) => s.serialize_str(x),
            V::Bytes(b) => s.serialize_bytes(b),
            V::List(l) => {
                let mut q = s.serialize_seq(Some(l.len()))?;
                for x in l {
                    q.serialize_element(x)?;
                }
                q.end()
            }
            V::Map(m) => {
                let mut q = s.serialize_map(Some(m.len()))?;
                for (k, x) in m {
                    q.serialize_entry(k, x)?;
                }
                q.end()
            }
        }
    }
}

struct VVisitor;

impl<'de> Visitor<'de> for VVisitor {
    type Value = V;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<V, E> {
        Ok(V::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<V, E> {
        Ok(V::Int(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<V, E> {
        Ok(V::UInt(u))
    }
    fn visit_f32<E>(self, f: f32) -> Result<V, E> {
        Ok(V::F32(f))
    }
    fn visit_f64<E>(self, f: f64) -> Result<V, E> {
        Ok(V::F64(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<V, E> {
        Ok(V::Str(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<V, E> {
        Ok(V::Str(s))
    }
    fn visit_bytes<E>(self, b: &[u8]) -> Result<V, E> {
        Ok(V::Bytes(b.to_vec()))
    }
    fn visit_byte_buf<E>(self, b: Vec<u8>) -> Result<V, E> {
        Ok(V::Bytes(b))
    }
    fn visit_unit<E>(self) -> Result<V, E> {
        Ok(V::Null)
    }
    fn visit_none<E>(self) -> Result<V, E> {
        Ok(V::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V, D::Error> {
        V::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<V, A::Error> {
        let mut l = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
        while let Some(x) = a.next_element()? {
            l.push(x);
        }
        Ok(V::List(l))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<V, A::Error> {
        let mut m = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
        while let Some((k, x)) = a.next_entry::<String, V>()? {
            m.push((k, x));
        }
        Ok(V::Map(m))
    }
}

impl<'de> Deserialize<'de> for V {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<V, D::Error> {
        d.deserialize_any(VVisitor)
    }
}

/// The declared message type of a prepare command's user dataset.
pub fn types_of(src: &Source) -> Res<Ty> {
    let t = src.types.ok_or("a user dataset needs its types file")?;
    parse_types(&std::fs::read_to_string(t).map_err(|e| format!("{t}: {e}"))?)
}

/// The dataset's schema of one kind (`proto`, `avsc`, ...); a kind serbench marked
/// `unavailable` (or did not write) is an error starting with `not applicable: `.
pub fn schema<'a>(src: &Source<'a>, kind: &str, format: &str) -> Res<&'a J> {
    let s = src
        .schemas
        .and_then(|s| s.get(kind))
        .ok_or_else(|| format!("not applicable: {format}: the dataset has no {kind} schema"))?;
    if let Some(why) = s.get("unavailable").and_then(J::as_str) {
        return Err(format!("not applicable: {why}"));
    }
    Ok(s)
}

/// A record key as a schema identifier (protocol section 7): other characters `_`, a
/// leading digit (or nothing) prefixed with `_`.
pub fn identifier(key: &str) -> String {
    let mut out: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    out
}

/// Loads a user dataset's canonical file through its types.
pub fn load(path: &str, types: Option<&str>) -> Res<(String, usize, Vec<V>)> {
    let types = types.ok_or("a user dataset needs its types file")?;
    let ty = parse_types(&std::fs::read_to_string(types).map_err(|e| format!("{types}: {e}"))?)?;
    let doc: J = serde_json::from_slice(&std::fs::read(path).map_err(|e| format!("{path}: {e}"))?)
        .map_err(|e| format!("{path}: {e}"))?;
    let framing = doc
        .get("framing")
        .and_then(J::as_str)
        .unwrap_or("single")
        .to_string();
    let count = doc.get("count").and_then(J::as_u64).unwrap_or(1) as usize;
    let items = doc
        .get("items")
        .and_then(J::as_array)
        .ok_or_else(|| format!("{path}: no items"))?
        .iter()
        .map(|j| from_canonical(&ty, j, "$"))
        .collect::<Res<_>>()?;
    Ok((framing, count, items))
}

impl PartialEq for V {
    fn eq(&self, other: &Self) -> bool {
        self.diff(other, "$").is_none()
    }
}

/// `any` and `bigint` fields of the typed model.
impl FromJson for V {
    fn from_json(j: &J, _path: &str) -> Res<Self> {
        Ok(any(j))
    }
}

/// A user dataset whose message is the generic tree itself is a document at the top
/// only when it is a map (checked per value by `UserCodec::document`).
impl crate::types::Message for V {
    const DOCUMENT: bool = true;
}

impl crate::types::Borrowable for V {
    type Ref<'a> = V;
    fn to_native(r: V) -> V {
        r
    }
}

/// What a format cannot carry, for `UserCodec::carry`.
pub fn beyond_64_bits(v: &V) -> Option<String> {
    match v {
        V::Big(b) => Some(format!("{b} exceeds 64-bit integers")),
        _ => None,
    }
}

/// A schemaless library on the generic value tree: checks what the format can carry
/// before encoding, and brings decoded trees to the declared types for the check (the
/// timed decode is the library's decode into the tree, nothing more).
pub struct UserCodec<C> {
    inner: C,
    format: &'static str,
    carry: fn(&V) -> Option<String>,
    top_document: bool,
    ty: Option<Ty>,
}

impl<C> UserCodec<C> {
    pub fn new(format: &'static str, inner: C, carry: fn(&V) -> Option<String>) -> Self {
        UserCodec {
            inner,
            format,
            carry,
            top_document: false,
            ty: None,
        }
    }
    /// The message must be a document (a map or record) at the top.
    pub fn document(mut self) -> Self {
        self.top_document = true;
        self
    }
    fn conform(&self, v: V) -> Res<V> {
        match &self.ty {
            Some(t) => conform(t, v, "$"),
            None => Ok(v),
        }
    }
}

impl<C: Codec<V>> Codec<V> for UserCodec<C> {
    fn source(&mut self, src: &Source) -> Res<()> {
        if src.types.is_some() {
            self.ty = Some(types_of(src)?);
        }
        self.inner.source(src)
    }
    fn prepare(&mut self, items: &[V]) -> Res<()> {
        for it in items {
            if self.top_document && !matches!(it, V::Map(_)) {
                return Err(format!(
                    "not applicable: {}: top-level value must be a document",
                    self.format
                ));
            }
            if let Some(why) = first_uncarried(it, "$", &self.carry) {
                return Err(format!("not applicable: {}: {why}", self.format));
            }
        }
        self.inner.prepare(items)
    }
    #[inline]
    fn encode(&mut self, i: usize, v: &V, out: &mut Vec<u8>) -> Res<()> {
        self.inner.encode(i, v, out)
    }
    fn decode(&mut self, i: usize, b: &[u8]) -> Res<V> {
        let v = self.inner.decode(i, b)?;
        self.conform(v)
    }
    #[inline]
    fn decode_sink(&mut self, i: usize, b: &[u8]) -> Res<()> {
        self.inner.decode_sink(i, b)
    }
    fn self_delimiting(&self) -> bool {
        self.inner.self_delimiting()
    }
    fn decode_front(&mut self, i: usize, b: &[u8]) -> Res<(V, usize)> {
        let (v, n) = self.inner.decode_front(i, b)?;
        Ok((self.conform(v)?, n))
    }
    #[inline]
    fn decode_front_sink(&mut self, i: usize, b: &[u8]) -> Res<usize> {
        self.inner.decode_front_sink(i, b)
    }
}

impl Item for V {
    fn read(path: &str, types: Option<&str>) -> Res<DatasetFile<Self>> {
        let (framing, count, items) = load(path, types)?;
        Ok(DatasetFile {
            framing,
            count,
            items,
        })
    }
}
