//! Layouts of the typed model other than what its serde derives write, for the rows whose
//! bytes follow a convention of their own: the positional layout (rmp-serde: a record of
//! one field is written as that field's bare value) and flexbuffers' (enums by symbol).
//! codegen/views.rs generates, for each record or enum a layout writes differently, a
//! serde `remote` mirror that works on the native value (no copy); the adaptors here carry
//! a mirror through lists, options and maps, and `Derived` stands for the serde derive of
//! every type the layout leaves alone.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::marker::PhantomData;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a layout writes a `T`.
pub trait Via<T> {
    fn ser<S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error>;
}

/// How a layout reads a `T` from input that lives for `'de`.
pub trait ViaDe<'de, T> {
    fn de<D: Deserializer<'de>>(d: D) -> Result<T, D::Error>;
}

/// The type's own serde derive.
pub struct Derived;

impl<T: Serialize> Via<T> for Derived {
    #[inline]
    fn ser<S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> ViaDe<'de, T> for Derived {
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

/// A `T` written through `P`.
pub struct Out<'a, P, T>(&'a T, PhantomData<P>);

impl<'a, P, T> Out<'a, P, T> {
    #[inline]
    pub fn new(v: &'a T) -> Self {
        Out(v, PhantomData)
    }
}

impl<P: Via<T>, T> Serialize for Out<'_, P, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        P::ser(self.0, s)
    }
}

/// A `T` read through `P`.
pub struct In<P, T>(pub T, PhantomData<P>);

impl<'de, P: ViaDe<'de, T>, T> Deserialize<'de> for In<P, T> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        P::de(d).map(|v| In(v, PhantomData))
    }
}

/// Preallocation from a size hint, bounded as serde bounds it (a hostile length prefix
/// must not reserve gigabytes).
fn cautious<T>(hint: Option<usize>) -> usize {
    let per = std::mem::size_of::<T>().max(1);
    hint.unwrap_or(0).min(1024 * 1024 / per)
}

/// A list whose elements go through `P` (`#[serde(with = "VecOf::<P>")]`).
pub struct VecOf<P>(PhantomData<P>);

impl<P> VecOf<P> {
    #[inline]
    pub fn serialize<T, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error>
    where
        P: Via<T>,
    {
        s.collect_seq(v.iter().map(Out::<P, T>::new))
    }
    #[inline]
    pub fn deserialize<'de, T, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error>
    where
        P: ViaDe<'de, T>,
    {
        struct Seq<P, T>(PhantomData<(P, T)>);
        impl<'de, P: ViaDe<'de, T>, T> Visitor<'de> for Seq<P, T> {
            type Value = Vec<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Vec<T>, A::Error> {
                let mut v = Vec::with_capacity(cautious::<T>(a.size_hint()));
                while let Some(In(x, _)) = a.next_element::<In<P, T>>()? {
                    v.push(x);
                }
                Ok(v)
            }
        }
        d.deserialize_seq(Seq::<P, T>(PhantomData))
    }
}

impl<T, P: Via<T>> Via<Vec<T>> for VecOf<P> {
    #[inline]
    fn ser<S: Serializer>(v: &Vec<T>, s: S) -> Result<S::Ok, S::Error> {
        Self::serialize(v, s)
    }
}

impl<'de, T, P: ViaDe<'de, T>> ViaDe<'de, Vec<T>> for VecOf<P> {
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
        Self::deserialize(d)
    }
}

/// An optional value that goes through `P` (`#[serde(with = "OptOf::<P>")]`).
pub struct OptOf<P>(PhantomData<P>);

impl<P> OptOf<P> {
    #[inline]
    pub fn serialize<T, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error>
    where
        P: Via<T>,
    {
        match v {
            None => s.serialize_none(),
            Some(x) => s.serialize_some(&Out::<P, T>::new(x)),
        }
    }
    #[inline]
    pub fn deserialize<'de, T, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error>
    where
        P: ViaDe<'de, T>,
    {
        Option::<In<P, T>>::deserialize(d).map(|o| o.map(|x| x.0))
    }
}

impl<T, P: Via<T>> Via<Option<T>> for OptOf<P> {
    #[inline]
    fn ser<S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        Self::serialize(v, s)
    }
}

impl<'de, T, P: ViaDe<'de, T>> ViaDe<'de, Option<T>> for OptOf<P> {
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        Self::deserialize(d)
    }
}

/// A map key: owned, or borrowed from the input as the borrowed mirrors' keys are.
pub struct Key;

impl<'de> ViaDe<'de, String> for Key {
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        String::deserialize(d)
    }
}

impl<'de: 'a, 'a> ViaDe<'de, Cow<'a, str>> for Key {
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<Cow<'a, str>, D::Error> {
        struct Str;
        impl<'de> Visitor<'de> for Str {
            type Value = Cow<'de, str>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Cow::Borrowed(s))
            }
            fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Cow::Owned(s.to_owned()))
            }
            fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
                Ok(Cow::Owned(s))
            }
        }
        d.deserialize_str(Str)
    }
}

/// A string-keyed map whose values go through `P` (`#[serde(with = "MapOf::<P>")]`).
pub struct MapOf<P>(PhantomData<P>);

impl<P> MapOf<P> {
    #[inline]
    pub fn serialize<K: Serialize, T, H, S: Serializer>(
        m: &HashMap<K, T, H>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        P: Via<T>,
    {
        s.collect_map(m.iter().map(|(k, v)| (k, Out::<P, T>::new(v))))
    }
    #[inline]
    pub fn deserialize<'de, K, T, H, D: Deserializer<'de>>(
        d: D,
    ) -> Result<HashMap<K, T, H>, D::Error>
    where
        P: ViaDe<'de, T>,
        Key: ViaDe<'de, K>,
        K: Eq + Hash,
        H: BuildHasher + Default,
    {
        struct Entries<P, K, T, H>(PhantomData<(P, K, T, H)>);
        impl<'de, P, K, T, H> Visitor<'de> for Entries<P, K, T, H>
        where
            P: ViaDe<'de, T>,
            Key: ViaDe<'de, K>,
            K: Eq + Hash,
            H: BuildHasher + Default,
        {
            type Value = HashMap<K, T, H>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let n = cautious::<(K, T)>(a.size_hint());
                let mut m = HashMap::with_capacity_and_hasher(n, H::default());
                while let Some((In(k, _), In(v, _))) = a.next_entry::<In<Key, K>, In<P, T>>()? {
                    m.insert(k, v);
                }
                Ok(m)
            }
        }
        d.deserialize_map(Entries::<P, K, T, H>(PhantomData))
    }
}

impl<K: Serialize, T, H, P: Via<T>> Via<HashMap<K, T, H>> for MapOf<P> {
    #[inline]
    fn ser<S: Serializer>(m: &HashMap<K, T, H>, s: S) -> Result<S::Ok, S::Error> {
        Self::serialize(m, s)
    }
}

impl<'de, K, T, H, P> ViaDe<'de, HashMap<K, T, H>> for MapOf<P>
where
    P: ViaDe<'de, T>,
    Key: ViaDe<'de, K>,
    K: Eq + Hash,
    H: BuildHasher + Default,
{
    #[inline]
    fn de<D: Deserializer<'de>>(d: D) -> Result<HashMap<K, T, H>, D::Error> {
        Self::deserialize(d)
    }
}
