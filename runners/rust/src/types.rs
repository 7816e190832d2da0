//! Native types of the built-in datasets, the deep comparison that names the first
//! difference, and the hand-written field-by-field format (shared by `handwritten` and
//! the `memcpy` floor: little-endian fixed-width integers, u32 length + bytes for
//! strings, u32 count for lists and maps, enums as i32, bools as one byte).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::{BuildHasherDefault, DefaultHasher};

use serde::{Deserialize, Serialize};
use serde_repr::{Deserialize_repr, Serialize_repr};

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
diff_scalar!(i32, u32, i64, u64, bool, Gender);

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
hw_int!(i32, u32, i64, u64);

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

impl Hw for Gender {
    fn hw_write(&self, out: &mut Vec<u8>) {
        (*self as i32).hw_write(out);
    }
    fn hw_read(r: &mut &[u8]) -> Res<Self> {
        Gender::from_ordinal(i32::hw_read(r)? as i64)
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

/// Declares a native record with every derive the libraries use, its field names in
/// the canonical file, the deep comparison and the hand-written format.
macro_rules! native {
    ($name:ident { $($field:ident $json:literal : $ty:ty),* $(,)? }) => {
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bincode::Encode,
            bincode::Decode, borsh::BorshSerialize, borsh::BorshDeserialize,
            speedy::Readable, speedy::Writable, bitcode::Encode, bitcode::Decode,
            rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)]
        pub struct $name {
            $(#[serde(rename = $json)] pub $field: $ty,)*
        }
        impl Diff for $name {
            fn diff(&self, other: &Self, path: &str) -> Option<String> {
                None $(.or_else(|| self.$field.diff(&other.$field, &format!("{path}.{}", $json))))*
            }
        }
        impl crate::serializers::apache_avro_rs::Avro for $name {
            fn to_avro(&self) -> apache_avro::types::Value {
                crate::serializers::apache_avro_rs::record(vec![$(($json, self.$field.to_avro()),)*])
            }
            fn from_avro(v: apache_avro::types::Value) -> Res<Self> {
                let mut _f = crate::serializers::apache_avro_rs::fields(v, [$($json),*].len())?;
                Ok(Self { $($field: <$ty>::from_avro(_f.next().unwrap().1)?,)* })
            }
        }
        impl crate::serializers::rkyv_rs::Touch for $name {
            #[inline]
            fn touch(a: &rkyv::Archived<Self>) -> u64 {
                0u64 $(.wrapping_add(<$ty as crate::serializers::rkyv_rs::Touch>::touch(&a.$field)))*
            }
        }
        impl Hw for $name {
            fn hw_write(&self, out: &mut Vec<u8>) {
                $(self.$field.hw_write(out);)*
            }
            fn hw_read(r: &mut &[u8]) -> Res<Self> {
                Ok(Self { $($field: <$ty>::hw_read(r)?,)* })
            }
        }
    };
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize_repr,
    Deserialize_repr,
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
#[repr(u8)]
#[borsh(use_discriminant = true)]
#[speedy(tag_type = u8)]
pub enum Gender {
    Female = 0,
    Male = 1,
}

impl Gender {
    pub fn from_ordinal(n: i64) -> Res<Self> {
        match n {
            0 => Ok(Gender::Female),
            1 => Ok(Gender::Male),
            _ => Err(format!("no Gender with ordinal {n}")),
        }
    }
}

native!(SampleData { id "id": i64, name "name": String, age "age": i32, gender "gender": Gender, is_megane "isMegane": bool });
native!(Test1 { a "a": u32, b "b": u32 });
native!(Test2 { a "a": i32, b "b": i32 });
native!(Test3 { s "s": String });
native!(Test4 { t1 "t1": Test1, t2 "t2": Test2, t3 "t3": Test3 });
native!(Viewport { width "width": i32, height "height": i32 });
native!(Click { x "x": i32, y "y": i32, count "count": i32, last_click "lastClick": i64, selector "selector": String });
native!(ClickMap { url "url": String, day "day": String, viewport "viewport": Viewport, clicks "clicks": Map<Click> });
native!(Pair { key "key": String, value "value": String });
native!(TestClass { my_property1 "MyProperty1": String, my_property2 "MyProperty2": i32, my_property3 "MyProperty3": i64, my_property4 "MyProperty4": bool, my_property5 "MyProperty5": Vec<Pair> });

pub type Users = Vec<SampleData>;
pub type Dict = Map<String>;
pub type Logs = Vec<TestClass>;

/// The built-in datasets, by message type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ds {
    Users,
    Test1,
    Test2,
    Test3,
    Test4,
    Dict,
    Clicks,
    Logs,
}

pub const BUILTIN: [(&str, Ds); 8] = [
    ("android-users", Ds::Users),
    ("pb-vs-msgpack-test1", Ds::Test1),
    ("pb-vs-msgpack-test2", Ds::Test2),
    ("pb-vs-msgpack-test3", Ds::Test3),
    ("pb-vs-msgpack-test4", Ds::Test4),
    ("one-mb-dict", Ds::Dict),
    ("click-maps", Ds::Clicks),
    ("log-records", Ds::Logs),
];

pub fn builtin(name: &str) -> Option<Ds> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// Types whose strings can be borrowed from the input (serde `borrow`): the decoded
/// `Ref` value owns nothing but its containers.
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
same_ref!(Test1, Test2);

#[derive(Deserialize)]
pub struct SampleDataRef<'a> {
    id: i64,
    #[serde(borrow)]
    name: Cow<'a, str>,
    age: i32,
    gender: Gender,
    #[serde(rename = "isMegane")]
    is_megane: bool,
}

impl Borrowable for Users {
    type Ref<'a> = Vec<SampleDataRef<'a>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_iter()
            .map(|x| SampleData {
                id: x.id,
                name: x.name.into_owned(),
                age: x.age,
                gender: x.gender,
                is_megane: x.is_megane,
            })
            .collect()
    }
}

#[derive(Deserialize)]
pub struct Test3Ref<'a> {
    #[serde(borrow)]
    pub s: Cow<'a, str>,
}

impl Borrowable for Test3 {
    type Ref<'a> = Test3Ref<'a>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        Test3 {
            s: r.s.into_owned(),
        }
    }
}

#[derive(Deserialize)]
pub struct Test4Ref<'a> {
    t1: Test1,
    t2: Test2,
    #[serde(borrow)]
    t3: Test3Ref<'a>,
}

impl Borrowable for Test4 {
    type Ref<'a> = Test4Ref<'a>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        Test4 {
            t1: r.t1,
            t2: r.t2,
            t3: Test3::to_native(r.t3),
        }
    }
}

impl Borrowable for Dict {
    type Ref<'a> = RefMap<'a, Cow<'a, str>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }
}

#[derive(Deserialize)]
pub struct ClickRef<'a> {
    x: i32,
    y: i32,
    count: i32,
    #[serde(rename = "lastClick")]
    last_click: i64,
    #[serde(borrow)]
    selector: Cow<'a, str>,
}

#[derive(Deserialize)]
pub struct ClickMapRef<'a> {
    #[serde(borrow)]
    url: Cow<'a, str>,
    #[serde(borrow)]
    day: Cow<'a, str>,
    viewport: Viewport,
    #[serde(borrow)]
    clicks: RefMap<'a, ClickRef<'a>>,
}

impl Borrowable for ClickMap {
    type Ref<'a> = ClickMapRef<'a>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        ClickMap {
            url: r.url.into_owned(),
            day: r.day.into_owned(),
            viewport: r.viewport,
            clicks: r
                .clicks
                .into_iter()
                .map(|(k, c)| {
                    let c = Click {
                        x: c.x,
                        y: c.y,
                        count: c.count,
                        last_click: c.last_click,
                        selector: c.selector.into_owned(),
                    };
                    (k.into_owned(), c)
                })
                .collect(),
        }
    }
}

#[derive(Deserialize)]
pub struct PairRef<'a> {
    #[serde(borrow)]
    key: Cow<'a, str>,
    #[serde(borrow)]
    value: Cow<'a, str>,
}

#[derive(Deserialize)]
pub struct TestClassRef<'a> {
    #[serde(rename = "MyProperty1", borrow)]
    p1: Cow<'a, str>,
    #[serde(rename = "MyProperty2")]
    p2: i32,
    #[serde(rename = "MyProperty3")]
    p3: i64,
    #[serde(rename = "MyProperty4")]
    p4: bool,
    #[serde(rename = "MyProperty5", borrow)]
    p5: Vec<PairRef<'a>>,
}

impl Borrowable for Logs {
    type Ref<'a> = Vec<TestClassRef<'a>>;
    fn to_native(r: Self::Ref<'_>) -> Self {
        r.into_iter()
            .map(|x| TestClass {
                my_property1: x.p1.into_owned(),
                my_property2: x.p2,
                my_property3: x.p3,
                my_property4: x.p4,
                my_property5: x
                    .p5
                    .into_iter()
                    .map(|p| Pair {
                        key: p.key.into_owned(),
                        value: p.value.into_owned(),
                    })
                    .collect(),
            })
            .collect()
    }
}
