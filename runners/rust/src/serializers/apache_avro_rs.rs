//! apache-avro through its generic API: native values become `types::Value` trees that
//! are validated and written against the datasets' .avsc schemas (parsed at run time;
//! the conversions and each built-in message's schema choice are generated from
//! types.json and the .avsc, codegen/model.rs); decode reads a `Value` with the writer
//! schema and converts it back. One Avro datum per message (no container header). On user
//! datasets the same generic API runs against the dataset's .avsc (`AvroUser`).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use apache_avro::Schema;
use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;

use crate::cell::{Codec, Source};
use crate::entry::Entry;
use crate::types::{Map, Res};
use crate::user::{Ty, V, beyond_64_bits, first_uncarried, identifier, schema, types_of};

/// A native value as an Avro generic value.
pub trait Avro: Sized {
    fn to_avro(&self) -> Value;
    fn from_avro(v: Value) -> Res<Self>;
}

fn wrong<T>(what: &str, v: &Value) -> Res<T> {
    Err(format!("avro: expected {what}, got {v:?}"))
}

impl Avro for i32 {
    fn to_avro(&self) -> Value {
        Value::Int(*self)
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Int(i) => Ok(i),
            v => wrong("int", &v),
        }
    }
}

impl Avro for u32 {
    fn to_avro(&self) -> Value {
        match i32::try_from(*self) {
            Ok(i) => Value::Int(i),
            Err(_) => Value::Long(*self as i64),
        }
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Int(i) => u32::try_from(i).map_err(|e| e.to_string()),
            v => wrong("int", &v),
        }
    }
}

impl Avro for i64 {
    fn to_avro(&self) -> Value {
        Value::Long(*self)
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Long(i) | Value::TimestampMillis(i) => Ok(i),
            v => wrong("long", &v),
        }
    }
}

impl Avro for f32 {
    fn to_avro(&self) -> Value {
        Value::Float(*self)
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Float(x) => Ok(x),
            v => wrong("float", &v),
        }
    }
}

impl Avro for f64 {
    fn to_avro(&self) -> Value {
        Value::Double(*self)
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Double(x) => Ok(x),
            v => wrong("double", &v),
        }
    }
}

impl Avro for bool {
    fn to_avro(&self) -> Value {
        Value::Boolean(*self)
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Boolean(b) => Ok(b),
            v => wrong("boolean", &v),
        }
    }
}

impl Avro for String {
    fn to_avro(&self) -> Value {
        Value::String(self.clone())
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::String(s) => Ok(s),
            v => wrong("string", &v),
        }
    }
}

impl<T: Avro> Avro for Vec<T> {
    fn to_avro(&self) -> Value {
        Value::Array(self.iter().map(Avro::to_avro).collect())
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Array(a) => a.into_iter().map(T::from_avro).collect(),
            v => wrong("array", &v),
        }
    }
}

impl<T: Avro> Avro for Map<T> {
    fn to_avro(&self) -> Value {
        Value::Map(
            self.iter()
                .map(|(k, v)| (k.clone(), v.to_avro()))
                .collect::<HashMap<_, _>>(),
        )
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Map(m) => m
                .into_iter()
                .map(|(k, v)| Ok((k, T::from_avro(v)?)))
                .collect(),
            v => wrong("map", &v),
        }
    }
}

/// Records: fields in declaration order, which is the .avsc order.
pub fn record(fields: Vec<(&'static str, Value)>) -> Value {
    Value::Record(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

pub fn fields(v: Value, n: usize) -> Res<std::vec::IntoIter<(String, Value)>> {
    match v {
        Value::Record(f) if f.len() == n => Ok(f.into_iter()),
        v => wrong(&format!("record of {n} fields"), &v),
    }
}

/// The value in a wrapper record's one field (a message that is not a record, carried in
/// the record the .avsc's top declares).
pub fn unwrapped<T: Avro>(v: Value) -> Res<T> {
    match fields(v, 1)?.next() {
        Some((_, x)) => T::from_avro(x),
        None => Err("avro: empty wrapper record".into()),
    }
}

/// A dataset's message: its schema (with the named schemas it refers to) and its
/// top-level value. Generated per built-in dataset from its .avsc (codegen/model.rs).
pub trait AvroMessage: Avro {
    /// (.avsc text, index of the message schema when the file is a list)
    fn schema() -> &'static Schemas;
    fn top(&self) -> Value {
        self.to_avro()
    }
    fn untop(v: Value) -> Res<Self> {
        Self::from_avro(v)
    }
}

pub struct Schemas {
    all: Vec<Schema>,
    index: usize,
}

pub fn parse(text: &str, index: Option<usize>) -> Schemas {
    match index {
        None => Schemas {
            all: vec![Schema::parse_str(text).expect("avsc")],
            index: 0,
        },
        Some(i) => {
            let list: Vec<serde_json::Value> = serde_json::from_str(text).expect("avsc list");
            let texts: Vec<String> = list.iter().map(|s| s.to_string()).collect();
            Schemas {
                all: Schema::parse_list(&texts).expect("avsc list"),
                index: i,
            }
        }
    }
}

pub struct ApacheAvro<T: 'static> {
    writer: GenericDatumWriter<'static>,
    reader: GenericDatumReader<'static>,
    _t: std::marker::PhantomData<T>,
}

impl<T: AvroMessage> Default for ApacheAvro<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: AvroMessage> ApacheAvro<T> {
    pub fn new() -> Self {
        let s = T::schema();
        let schema = &s.all[s.index];
        let all: Vec<&'static Schema> = s.all.iter().collect();
        ApacheAvro {
            writer: GenericDatumWriter::builder(schema)
                .schemata(all.clone())
                .unwrap()
                .build()
                .unwrap(),
            reader: GenericDatumReader::builder(schema)
                .writer_schemata(all)
                .unwrap()
                .build()
                .unwrap(),
            _t: std::marker::PhantomData,
        }
    }
}

impl<T: AvroMessage + 'static> Codec<T> for ApacheAvro<T> {
    #[inline]
    fn encode(&mut self, _i: usize, v: &T, out: &mut Vec<u8>) -> Res<()> {
        self.writer
            .write_value(out, v.top())
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, mut b: &[u8]) -> Res<T> {
        let v = self.reader.read_value(&mut b).map_err(|e| e.to_string())?;
        if !b.is_empty() {
            return Err(format!("{} trailing bytes", b.len()));
        }
        T::untop(v)
    }
}

/// Generic records on user datasets, from the dataset's .avsc: the tree becomes a
/// `Value` walking the declared types (record fields named as the .avsc names them,
/// `optional<T>` the union `["null", T]`, `null` the null type, enums with their symbol),
/// and back.
#[derive(Default)]
pub struct AvroUser {
    codec: Option<(GenericDatumWriter<'static>, GenericDatumReader<'static>)>,
    ty: Option<Ty>,
}

/// A user schema parsed once per distinct .avsc text for the life of the process (the
/// datum writer and reader borrow it).
fn user_schema(text: String) -> Res<&'static Schema> {
    static SEEN: Mutex<BTreeMap<String, &'static Schema>> = Mutex::new(BTreeMap::new());
    let mut seen = SEEN.lock().map_err(|e| e.to_string())?;
    if let Some(s) = seen.get(&text) {
        return Ok(s);
    }
    let schema: &'static Schema = Box::leak(Box::new(
        Schema::parse_str(&text).map_err(|e| e.to_string())?,
    ));
    seen.insert(text, schema);
    Ok(schema)
}

fn to_avro(ty: &Ty, v: &V) -> Res<Value> {
    let int = |i: i64| i32::try_from(i).map_err(|_| format!("avro: {i} exceeds int"));
    Ok(match (ty, v) {
        (Ty::Null, _) => Value::Null,
        (Ty::Opt(t), _) if matches!(**t, Ty::Null) => Value::Null,
        (Ty::Opt(_), V::Null) => Value::Union(0, Box::new(Value::Null)),
        (Ty::Opt(t), v) => Value::Union(1, Box::new(to_avro(t, v)?)),
        (Ty::Bool, V::Bool(b)) => Value::Boolean(*b),
        (Ty::I32, V::Int(i)) => Value::Int(int(*i)?),
        (Ty::I64, V::Int(i)) => Value::Long(*i),
        (Ty::U32, V::UInt(u)) => Value::Long(*u as i64),
        (Ty::Ts, V::Ts(t)) => Value::TimestampMillis(*t),
        (Ty::F32, V::F32(f)) => Value::Float(*f),
        (Ty::F64, V::F64(f)) => Value::Double(*f),
        (Ty::Str, V::Str(s)) => Value::String(s.clone()),
        (Ty::Bytes, V::Bytes(b)) => Value::Bytes(b.clone()),
        (Ty::Enum(symbols), V::Int(i)) => match symbols.get(*i as usize) {
            Some(s) => Value::Enum(*i as u32, s.clone()),
            None => return Err(format!("avro: no enum symbol {i}")),
        },
        (Ty::List(t), V::List(l)) => {
            Value::Array(l.iter().map(|x| to_avro(t, x)).collect::<Res<_>>()?)
        }
        (Ty::Map(t), V::Map(m)) => Value::Map(
            m.iter()
                .map(|(k, x)| Ok((k.clone(), to_avro(t, x)?)))
                .collect::<Res<_>>()?,
        ),
        (Ty::Record(fields), V::Map(m)) => Value::Record(
            fields
                .iter()
                .zip(m)
                .map(|((key, t), (_, x))| Ok((identifier(key), to_avro(t, x)?)))
                .collect::<Res<_>>()?,
        ),
        (ty, v) => return Err(format!("avro: {v:?} is not a {ty:?}")),
    })
}

fn from_avro(ty: &Ty, v: Value) -> Res<V> {
    Ok(match (ty, v) {
        (Ty::Opt(t), Value::Union(_, b)) => from_avro(t, *b)?,
        (Ty::List(t), Value::Array(a)) => {
            V::List(a.into_iter().map(|x| from_avro(t, x)).collect::<Res<_>>()?)
        }
        (Ty::Map(t), Value::Map(m)) => V::Map(
            m.into_iter()
                .map(|(k, x)| Ok((k, from_avro(t, x)?)))
                .collect::<Res<_>>()?,
        ),
        (Ty::Record(fields), Value::Record(got)) if got.len() == fields.len() => V::Map(
            fields
                .iter()
                .zip(got)
                .map(|((key, t), (_, x))| Ok((key.clone(), from_avro(t, x)?)))
                .collect::<Res<_>>()?,
        ),
        (_, Value::Null) => V::Null,
        (_, Value::Boolean(b)) => V::Bool(b),
        (_, Value::Int(i)) => V::Int(i as i64),
        (Ty::U32, Value::Long(i)) => V::UInt(u64::try_from(i).map_err(|e| e.to_string())?),
        (_, Value::Long(i)) => V::Int(i),
        (_, Value::TimestampMillis(t)) => V::Ts(t),
        (_, Value::Float(f)) => V::F32(f),
        (_, Value::Double(f)) => V::F64(f),
        (_, Value::String(s)) => V::Str(s),
        (_, Value::Bytes(b)) => V::Bytes(b),
        (_, Value::Enum(i, _)) => V::Int(i as i64),
        (ty, v) => return wrong(&format!("{ty:?}"), &v),
    })
}

impl Codec<V> for AvroUser {
    fn source(&mut self, src: &Source) -> Res<()> {
        let path = schema(src, "avsc", "avro")?
            .get("path")
            .and_then(|p| p.as_str())
            .ok_or("schemas.avsc needs a path")?;
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        let s = user_schema(text).map_err(|e| format!("{path}: {e}"))?;
        let writer = GenericDatumWriter::builder(s)
            .build()
            .map_err(|e| e.to_string())?;
        let reader = GenericDatumReader::builder(s)
            .build()
            .map_err(|e| e.to_string())?;
        self.codec = Some((writer, reader));
        self.ty = Some(types_of(src)?);
        Ok(())
    }
    fn prepare(&mut self, items: &[V]) -> Res<()> {
        for it in items {
            if let Some(why) = first_uncarried(it, "$", &beyond_64_bits) {
                return Err(format!("not applicable: avro: {why}"));
            }
        }
        Ok(())
    }
    #[inline]
    fn encode(&mut self, _i: usize, v: &V, out: &mut Vec<u8>) -> Res<()> {
        let (Some((writer, _)), Some(ty)) = (&self.codec, &self.ty) else {
            return Err("avro: no schema loaded".into());
        };
        writer
            .write_value(out, to_avro(ty, v)?)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
    #[inline]
    fn decode(&mut self, _i: usize, mut b: &[u8]) -> Res<V> {
        let (Some((_, reader)), Some(ty)) = (&self.codec, &self.ty) else {
            return Err("avro: no schema loaded".into());
        };
        let v = reader.read_value(&mut b).map_err(|e| e.to_string())?;
        if !b.is_empty() {
            return Err(format!("{} trailing bytes", b.len()));
        }
        from_avro(ty, v)
    }
}

pub fn entries() -> Vec<Entry> {
    vec![Entry {
        name: "apache-avro",
        format: "avro",
        library: "apache-avro",
        labels: &[
            "binary",
            "schema-required",
            "dynamic",
            "positional",
            "copying-decode",
        ],
        typed: false,
        user: Ok(|| crate::cell::cell::<V, _>(AvroUser::default())),
        make: every_dataset!(builtin, "apache-avro", ApacheAvro::new()),
    }]
}
