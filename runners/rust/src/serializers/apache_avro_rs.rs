//! apache-avro through its generic API: native values become `types::Value` trees that
//! are validated and written against the datasets' .avsc schemas (parsed at run time,
//! no generated code); decode reads a `Value` with the writer schema and converts it
//! back. One Avro datum per message (no container header).

use std::collections::HashMap;
use std::sync::OnceLock;

use apache_avro::Schema;
use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;

use crate::cell::Codec;
use crate::registry::Entry;
use crate::types::*;

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

impl Avro for Gender {
    fn to_avro(&self) -> Value {
        match self {
            Gender::Female => Value::Enum(0, "Female".into()),
            Gender::Male => Value::Enum(1, "Male".into()),
        }
    }
    fn from_avro(v: Value) -> Res<Self> {
        match v {
            Value::Enum(i, _) => Gender::from_ordinal(i as i64),
            v => wrong("enum Gender", &v),
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

/// A dataset's message: its schema (with the named schemas it refers to) and its
/// top-level value.
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

fn parse(text: &str, index: Option<usize>) -> Schemas {
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

macro_rules! avro_schema {
    ($file:literal, $index:expr) => {{
        static S: OnceLock<Schemas> = OnceLock::new();
        S.get_or_init(|| {
            parse(
                include_str!(concat!("../../../../datasets/", $file)),
                $index,
            )
        })
    }};
}

impl AvroMessage for Users {
    fn schema() -> &'static Schemas {
        avro_schema!("android-users/android_users.avsc", None)
    }
    fn top(&self) -> Value {
        record(vec![("sampleData", self.to_avro())])
    }
    fn untop(v: Value) -> Res<Self> {
        Users::from_avro(fields(v, 1)?.next().unwrap().1)
    }
}
impl AvroMessage for Test1 {
    fn schema() -> &'static Schemas {
        avro_schema!("pb-vs-msgpack/pb_vs_msgpack.avsc", Some(0))
    }
}
impl AvroMessage for Test2 {
    fn schema() -> &'static Schemas {
        avro_schema!("pb-vs-msgpack/pb_vs_msgpack.avsc", Some(1))
    }
}
impl AvroMessage for Test3 {
    fn schema() -> &'static Schemas {
        avro_schema!("pb-vs-msgpack/pb_vs_msgpack.avsc", Some(2))
    }
}
impl AvroMessage for Test4 {
    fn schema() -> &'static Schemas {
        avro_schema!("pb-vs-msgpack/pb_vs_msgpack.avsc", Some(3))
    }
}
impl AvroMessage for Dict {
    fn schema() -> &'static Schemas {
        avro_schema!("one-mb-dict/one_mb_dict.avsc", None)
    }
}
impl AvroMessage for ClickMap {
    fn schema() -> &'static Schemas {
        avro_schema!("click-maps/click_maps.avsc", None)
    }
}
impl AvroMessage for Logs {
    fn schema() -> &'static Schemas {
        avro_schema!("log-records/log_records.avsc", None)
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
        user: Err(
            "the dynamic API of this library is not wired to user datasets in this runner yet",
        ),
        make: every_dataset!(ApacheAvro::new()),
    }]
}
