//! What the generated model (`crate::model`) is built from, for every type a types.json
//! can name: the deep comparison that names the first difference, the borrowed mirrors,
//! the conversion from the canonical JSON, and the hand-written field-by-field format
//! (shared by `handwritten` and the `memcpy` floor: little-endian fixed-width integers
//! and floats, u32 length + bytes for strings, u32 count for lists and maps, enums as
//! i32, bools and option tags as one byte). The records and enums themselves are
//! generated; the built-in ones are re-exported below for the tests.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, DefaultHasher};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value as J;

pub use crate::model::android_users::*;
pub use crate::model::click_maps::*;
pub use crate::model::log_records::*;
pub use crate::model::pb_vs_msgpack::*;
pub use crate::model::{BUILTIN, Ds, builtin};

/// A string-keyed hash map with a fixed hasher, so encodings are identical in every run.
pub type Map<V> = HashMap<String, V, BuildHasherDefault<DefaultHasher>>;
/// The same map with borrowed keys and values.
pub type RefMap<'a, V> = HashMap<Cow<'a, str>, V, BuildHasherDefault<DefaultHasher>>;

pub type Res<T> = Result<T, String>;

/// Deep comparison: `None` when equal, else `path: got != want`.
pub trait Diff {
    fn diff(&self, other: &Self, path: &str) -> Option<String>;
}

macro_rules! diff_scalar {
    ($($t:ty),*) => {$(
        impl Diff for $t {
            fn diff(&self, other: &Self, path: &str) -> Option<String> {
                (self != other).then(|| format!("{path}: {self:?} != {other:?}"))
            }
        }
    )*};
}
diff_scalar!(i32, u32, i64, u64, u8, bool, Null);

impl Diff for String {
    fn diff(&self, other: &Self, path: &str) -> Option<String> {
        if self == other {
            return None;
        }
        let show = |s: &str| -> String {
            if s.len() > 40 {
                format!(
                    "{:?}... ({} bytes)",
                    &s[..s.floor_char_boundary(40)],
                    s.len()
                )
            } else {
                format!("{s:?}")
            }
        };
        Some(format!("{path}: {} != {}", show(self), show(other)))
    }
}

impl<T: Diff> Diff for Vec<T> {
    fn diff(&self, other: &Self, path: &str) -> Option<String> {
        if self.len() != other.len() {
            return Some(format!("{path}: length {} != {}", self.len(), other.len()));
        }
        self.iter()
            .zip(other)
            .enumerate()
            .find_map(|(i, (a, b))| a.diff(b, &format!("{path}[{i}]")))
    }
}

impl<V: Diff> Diff for Map<V> {
    fn diff(&self, other: &Self, path: &str) -> Option<String> {
        let mut keys: Vec<&String> = self.keys().chain(other.keys()).collect();
        keys.sort();
        keys.dedup();
        keys.into_iter()
            .find_map(|k| match (self.get(k), other.get(k)) {
                (Some(a), Some(b)) => a.diff(b, &format!("{path}[{k:?}]")),
                (Some(_), None) => Some(format!("{path}[{k:?}]: present != missing")),
                (None, _) => Some(format!("{path}[{k:?}]: missing != present")),
            })
    }
}

/// The hand-written binary format.
pub trait Hw: Sized {
    fn hw_write(&self, out: &mut Vec<u8>);
    fn hw_read(r: &mut &[u8]) -> Res<Self>;
}

pub fn hw_take<'a>(r: &mut &'a [u8], n: usize) -> Res<&'a [u8]> {
    if r.len() < n {
        return Err("handwritten: truncated".into());
    }
    let (a, b) = r.split_at(n);
    *r = b;
    Ok(a)
}

macro_rules! hw_int {
    ($($t:ty),*) => {$(
        impl Hw for $t {
            #[inline]
            fn hw_write(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn hw_read(r: &mut &[u8]) -> Res<Self> {
                let b = hw_take(r, size_of::<$t>())?;
                Ok(<$t>::from_le_bytes(b.try_into().unwrap()))
            }
        }
    )*};
}
hw_int!(i32, u32, i64, u64, u8, f32, f64);

impl Hw for bool {
    #[inline]
    fn hw_write(&self, out: &mut Vec<u8>) {
        out.push(*self as u8);
    }
    #[inline]
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        Ok(hw_take(r, 1)?[0] != 0)
    }
}

impl Hw for String {
    #[inline]
    fn hw_write(&self, out: &mut Vec<u8>) {
        (self.len() as u32).hw_write(out);
        out.extend_from_slice(self.as_bytes());
    }
    #[inline]
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        let n = u32::hw_read(r)? as usize;
        let b = hw_take(r, n)?;
        String::from_utf8(b.to_vec()).map_err(|e| format!("handwritten: {e}"))
    }
}

impl<T: Hw> Hw for Vec<T> {
    fn hw_write(&self, out: &mut Vec<u8>) {
        (self.len() as u32).hw_write(out);
        for x in self {
            x.hw_write(out);
        }
    }
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        let n = u32::hw_read(r)? as usize;
        let mut v = Vec::with_capacity(n.min(r.len()));
        for _ in 0..n {
            v.push(T::hw_read(r)?);
        }
        Ok(v)
    }
}

impl<V: Hw> Hw for Map<V> {
    fn hw_write(&self, out: &mut Vec<u8>) {
        (self.len() as u32).hw_write(out);
        for (k, v) in self {
            k.hw_write(out);
            v.hw_write(out);
        }
    }
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        let n = u32::hw_read(r)? as usize;
        let mut m = Map::with_capacity_and_hasher(n.min(r.len()), Default::default());
        for _ in 0..n {
            let k = String::hw_read(r)?;
            m.insert(k, V::hw_read(r)?);
        }
        Ok(m)
    }
}

impl<T: Hw> Hw for Option<T> {
    fn hw_write(&self, out: &mut Vec<u8>) {
        match self {
            None => out.push(0),
            Some(x) => {
                out.push(1);
                x.hw_write(out);
            }
        }
    }
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        Ok(match hw_take(r, 1)?[0] {
            0 => None,
            _ => Some(T::hw_read(r)?),
        })
    }
}

impl Hw for Null {
    fn hw_write(&self, _out: &mut Vec<u8>) {}
    fn hw_read(_r: &mut &[u8]) -> Res<Self> {
        Ok(Null)
    }
}

/// The `null` type: JSON null, a unit everywhere else.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    bincode::Encode,
    bincode::Decode,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
    speedy::Readable,
    speedy::Writable,
    bitcode::Encode,
    bitcode::Decode,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
)]
pub struct Null;

macro_rules! diff_float {
    ($($t:ty),*) => {$(
        /// NaN equals NaN; -0.0 differs from 0.0.
        impl Diff for $t {
            fn diff(&self, other: &Self, path: &str) -> Option<String> {
                let same = self.to_bits() == other.to_bits() || self.is_nan() && other.is_nan();
                (!same).then(|| format!("{path}: {self:?} != {other:?}"))
            }
        }
    )*};
}
diff_float!(f32, f64);

impl<T: Diff> Diff for Option<T> {
    fn diff(&self, other: &Self, path: &str) -> Option<String> {
        match (self, other) {
            (Some(a), Some(b)) => a.diff(b, path),
            (None, None) => None,
            (Some(_), None) => Some(format!("{path}: value != null")),
            (None, Some(_)) => Some(format!("{path}: null != value")),
        }
    }
}

/// A field or map entry's path: `$.name`, or `$["odd key"]`.
pub fn child(path: &str, key: &str) -> String {
    let ident = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ident {
        format!("{path}.{key}")
    } else {
        format!("{path}[{key:?}]")
    }
}

/// Types whose strings can be borrowed from the input (serde `borrow`): the decoded
/// `Ref` value owns nothing but its containers. Records' mirrors are generated.
pub trait Borrowable: Sized {
    type Ref<'a>: Deserialize<'a>;
    fn to_native(r: Self::Ref<'_>) -> Self;
}

macro_rules! same_ref {
    ($($t:ty),*) => {$(
        impl Borrowable for $t {
            type Ref<'a> = $t;
            fn to_native(r: Self::Ref<'_>) -> Self { r }
        }
    )*};
}
same_ref!(i32, u32, i64, u64, u8, f32, f64, bool, Null);

impl Borrowable for String {
    type Ref<'a> = Cow<'a, str>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_owned()
    }
}

impl<T: Borrowable> Borrowable for Vec<T> {
    type Ref<'a> = Vec<T::Ref<'a>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_iter().map(T::to_native).collect()
    }
}

impl<T: Borrowable> Borrowable for Option<T> {
    type Ref<'a> = Option<T::Ref<'a>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.map(T::to_native)
    }
}

impl<T: Borrowable> Borrowable for Map<T> {
    type Ref<'a> = RefMap<'a, T::Ref<'a>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_iter()
            .map(|(k, v)| (k.into_owned(), T::to_native(v)))
            .collect()
    }
}

/// A dataset's message type, as every library sees it.
pub trait Message: Item + Serialize + DeserializeOwned + Borrowable + std::fmt::Debug {
    /// The top-level value is a record or a map (BSON wraps anything else).
    const DOCUMENT: bool;
}

/// A value of the canonical file (datasets/README.md, protocol section 7) in its
/// declared type, where serde alone cannot read it (floats, bytes, `any`).
pub trait FromJson: Sized {
    fn from_json(j: &J, path: &str) -> Res<Self>;
}

fn bad<T>(j: &J, what: &str, path: &str) -> Res<T> {
    Err(format!("{path}: {j} is not {what}"))
}

pub fn object<'a>(j: &'a J, path: &str) -> Res<&'a serde_json::Map<String, J>> {
    j.as_object().map_or_else(|| bad(j, "an object", path), Ok)
}

macro_rules! json_int {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(j: &J, path: &str) -> Res<Self> {
                let n = j.as_i64().map(i128::from).or_else(|| j.as_u64().map(i128::from));
                match n.and_then(|n| <$t>::try_from(n).ok()) {
                    Some(n) => Ok(n),
                    None => bad(j, stringify!($t), path),
                }
            }
        }
    )*};
}
json_int!(i32, u32, i64, u64);

macro_rules! json_float {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(j: &J, path: &str) -> Res<Self> {
                Ok(crate::canonical::float(j, path)? as $t)
            }
        }
    )*};
}
json_float!(f32, f64);

impl FromJson for bool {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        j.as_bool().map_or_else(|| bad(j, "a bool", path), Ok)
    }
}

impl FromJson for String {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        j.as_str()
            .map_or_else(|| bad(j, "a string", path), |s| Ok(s.to_string()))
    }
}

impl FromJson for Null {
    fn from_json(_j: &J, _path: &str) -> Res<Self> {
        Ok(Null)
    }
}

/// `bytes`: base64 in the canonical file.
impl FromJson for Vec<u8> {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        j.as_str()
            .and_then(crate::canonical::b64)
            .map_or_else(|| bad(j, "base64", path), Ok)
    }
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        j.as_array()
            .map_or_else(|| bad(j, "a list", path), Ok)?
            .iter()
            .enumerate()
            .map(|(i, x)| T::from_json(x, &format!("{path}[{i}]")))
            .collect()
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        match j {
            J::Null => Ok(None),
            j => T::from_json(j, path).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Map<T> {
    fn from_json(j: &J, path: &str) -> Res<Self> {
        object(j, path)?
            .iter()
            .map(|(k, x)| Ok((k.clone(), T::from_json(x, &child(path, k))?)))
            .collect()
    }
}

#[derive(serde::Deserialize)]
pub struct DatasetFile<T> {
    pub framing: String,
    pub count: usize,
    pub items: Vec<T>,
}

/// A dataset's message type: read from the canonical file, compared deeply.
pub trait Item: Diff + Clone + Sized + 'static {
    fn read(path: &str, types: Option<&str>) -> Res<DatasetFile<Self>>;
}

fn read_file(path: &str) -> Res<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

/// A canonical file whose items serde reads as they are (the generated model's types
/// match the canonical JSON: enums as ordinals, timestamps as numbers).
pub fn read_serde<T: serde::de::DeserializeOwned>(path: &str) -> Res<DatasetFile<T>> {
    serde_json::from_slice(&read_file(path)?).map_err(|e| format!("{path}: {e}"))
}

/// A canonical file whose items need the conversion (floats, bytes, `any`).
pub fn read_json<T: FromJson>(path: &str) -> Res<DatasetFile<T>> {
    #[derive(serde::Deserialize)]
    struct Raw {
        framing: String,
        count: usize,
        items: Vec<serde_json::Value>,
    }
    let raw: Raw = serde_json::from_slice(&read_file(path)?).map_err(|e| format!("{path}: {e}"))?;
    let items = raw
        .items
        .iter()
        .enumerate()
        .map(|(i, j)| T::from_json(j, &format!("$[{i}]")))
        .collect::<Res<_>>()
        .map_err(|e| format!("{path}: {e}"))?;
    Ok(DatasetFile {
        framing: raw.framing,
        count: raw.count,
        items,
    })
}
