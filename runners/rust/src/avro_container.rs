//! Avro object container files (docs/runner-protocol.md section 11, `avro_container`):
//! canonical JSON to apache-avro's generic values by the writer's schema for its container
//! writer, and the container reader's values back to canonical JSON.

use apache_avro::schema::{NamesRef, ResolvedSchema};
use apache_avro::types::Value as Avro;
use apache_avro::{Codec, DeflateSettings, Reader, Schema, Writer};
use serde_json::{Map, Value, json};

use crate::canonical::{MAX_DEPTH, float_value, hex, too_deep, unhex};

/// Why a file could not be written: the protocol's error code and the message.
pub type Refusal = (&'static str, String);

/// The records of `records` (a list) as a container file of `schema` with `codec`.
pub fn write(schema: &Value, codec: &str, records: &Value) -> Result<Vec<u8>, Refusal> {
    let schema = Schema::parse(schema).map_err(|e| ("bad_request", format!("schema: {e}")))?;
    let resolved = ResolvedSchema::new(&schema).map_err(|e| ("bad_request", e.to_string()))?;
    let codec = match codec {
        "null" => Codec::Null,
        "deflate" => Codec::Deflate(DeflateSettings::default()),
        other => {
            return Err((
                "unsupported",
                format!("codec {other:?}: null or deflate only"),
            ));
        }
    };
    let records = records
        .as_array()
        .ok_or(("bad_request", "value: not a list of records".to_string()))?;
    let values = records
        .iter()
        .enumerate()
        .map(|(i, r)| to_avro(&schema, resolved.get_names(), r, &format!("$[{i}]")))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ("not_applicable", e))?;
    let failed = |e: apache_avro::Error| ("exception", e.to_string());
    let mut writer = Writer::with_codec(&schema, Vec::new(), codec).map_err(failed)?;
    writer.extend_from_slice(&values).map_err(failed)?;
    writer.into_inner().map_err(failed)
}

/// A container file's records as a canonical JSON list; `Err` is the reader's refusal.
pub fn read(file: &[u8]) -> Result<Value, String> {
    let reader = Reader::new(file).map_err(|e| e.to_string())?;
    reader
        .map(|r| r.map(|v| canonical(&v, 0)).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()
        .map(Value::Array)
}

fn canonical(v: &Avro, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return too_deep();
    }
    match v {
        Avro::Null => Value::Null,
        Avro::Boolean(b) => json!(b),
        Avro::Int(i) | Avro::Date(i) | Avro::TimeMillis(i) => json!(i),
        Avro::Long(i)
        | Avro::TimeMicros(i)
        | Avro::TimestampMillis(i)
        | Avro::TimestampMicros(i)
        | Avro::TimestampNanos(i)
        | Avro::LocalTimestampMillis(i)
        | Avro::LocalTimestampMicros(i)
        | Avro::LocalTimestampNanos(i) => json!(i),
        Avro::Float(f) => float_value(f64::from(*f)),
        Avro::Double(f) => float_value(*f),
        Avro::Bytes(b) | Avro::Fixed(_, b) => json!({"$bytes": hex(b)}),
        Avro::String(s) | Avro::Enum(_, s) => json!(s),
        Avro::Union(_, inner) => canonical(inner, depth + 1),
        Avro::Array(a) => Value::Array(a.iter().map(|x| canonical(x, depth + 1)).collect()),
        Avro::Map(m) => Value::Object(
            m.iter()
                .map(|(k, x)| (k.clone(), canonical(x, depth + 1)))
                .collect(),
        ),
        Avro::Record(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, x)| (k.clone(), canonical(x, depth + 1)))
                .collect(),
        ),
        Avro::Uuid(u) => json!(u.to_string()),
        other => json!({"$other": format!("{other:?}")}),
    }
}

/// The generic value of canonical `v` as `schema` types it; `path` names it in errors.
fn to_avro(schema: &Schema, names: &NamesRef, v: &Value, path: &str) -> Result<Avro, String> {
    let wrong = |what: &str| Err(format!("{path}: {v} is not {what}"));
    let integer = |what: &str| {
        v.as_i64()
            .ok_or_else(|| format!("{path}: {v} is not {what}"))
    };
    let int = |what: &str| {
        i32::try_from(integer(what)?).map_err(|_| format!("{path}: {v} exceeds {what}"))
    };
    Ok(match schema {
        Schema::Ref { name } => {
            let named = names
                .get(name)
                .ok_or_else(|| format!("{path}: unknown type {name}"))?;
            return to_avro(named, names, v, path);
        }
        Schema::Null if v.is_null() => Avro::Null,
        Schema::Null => return wrong("null"),
        Schema::Boolean => match v.as_bool() {
            Some(b) => Avro::Boolean(b),
            None => return wrong("a boolean"),
        },
        Schema::Int => Avro::Int(int("an int")?),
        Schema::Date => Avro::Date(int("a date")?),
        Schema::TimeMillis => Avro::TimeMillis(int("a time-millis")?),
        Schema::Long => Avro::Long(integer("a long")?),
        Schema::TimeMicros => Avro::TimeMicros(integer("a time-micros")?),
        Schema::TimestampMillis => Avro::TimestampMillis(integer("a timestamp")?),
        Schema::TimestampMicros => Avro::TimestampMicros(integer("a timestamp")?),
        Schema::TimestampNanos => Avro::TimestampNanos(integer("a timestamp")?),
        Schema::LocalTimestampMillis => Avro::LocalTimestampMillis(integer("a timestamp")?),
        Schema::LocalTimestampMicros => Avro::LocalTimestampMicros(integer("a timestamp")?),
        Schema::LocalTimestampNanos => Avro::LocalTimestampNanos(integer("a timestamp")?),
        // float32 narrows the double the canonical form carries, as every float32 does
        Schema::Float => {
            Avro::Float(number(v).ok_or_else(|| format!("{path}: {v} is not a float"))? as f32)
        }
        Schema::Double => {
            Avro::Double(number(v).ok_or_else(|| format!("{path}: {v} is not a double"))?)
        }
        Schema::String => match v.as_str() {
            Some(s) => Avro::String(s.to_string()),
            None => return wrong("a string"),
        },
        Schema::Bytes => Avro::Bytes(bytes(v, path)?),
        Schema::Fixed(f) => {
            let b = bytes(v, path)?;
            if b.len() != f.size {
                let n = b.len();
                return Err(format!(
                    "{path}: {n} bytes, fixed {} has {}",
                    f.name, f.size
                ));
            }
            Avro::Fixed(f.size, b)
        }
        Schema::Enum(e) => {
            let s = v.as_str().unwrap_or_default();
            match e.symbols.iter().position(|x| x == s) {
                Some(i) if v.is_string() => Avro::Enum(i as u32, s.to_string()),
                _ => return wrong(&format!("a symbol of {}", e.name)),
            }
        }
        Schema::Array(a) => match v.as_array() {
            Some(items) => Avro::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| to_avro(&a.items, names, x, &format!("{path}[{i}]")))
                    .collect::<Result<_, _>>()?,
            ),
            None => return wrong("a list"),
        },
        Schema::Map(m) => match object(v) {
            Some(entries) => Avro::Map(
                entries
                    .iter()
                    .map(|(k, x)| {
                        Ok((
                            k.clone(),
                            to_avro(&m.types, names, x, &format!("{path}.{k}"))?,
                        ))
                    })
                    .collect::<Result<_, String>>()?,
            ),
            None => return wrong("a map"),
        },
        Schema::Record(r) => {
            let Some(given) = object(v) else {
                return wrong(&format!("a record {}", r.name));
            };
            if let Some(k) = given
                .keys()
                .find(|k| !r.fields.iter().any(|f| &f.name == *k))
            {
                return Err(format!("{path}: {} has no field {k:?}", r.name));
            }
            let fields = r.fields.iter().map(|f| {
                let at = format!("{path}.{}", f.name);
                let x = given
                    .get(&f.name)
                    .or(f.default.as_ref())
                    .ok_or_else(|| format!("{at}: missing"))?;
                Ok((f.name.clone(), to_avro(&f.schema, names, x, &at)?))
            });
            Avro::Record(fields.collect::<Result<_, String>>()?)
        }
        Schema::Union(u) => {
            let branch = u
                .variants()
                .iter()
                .enumerate()
                .find_map(|(i, s)| Some((i, to_avro(s, names, v, path).ok()?)));
            match branch {
                Some((i, x)) => Avro::Union(i as u32, Box::new(x)),
                None => return wrong("carried by any branch of its union"),
            }
        }
        other => return Err(format!("{path}: {other:?} values are not written here")),
    })
}

/// A number, or a non-finite float's `{"$float": ...}`.
fn number(v: &Value) -> Option<f64> {
    if let Some(f) = v.as_f64() {
        return Some(f);
    }
    match v.get("$float")?.as_str()? {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// The bytes of `{"$bytes": hex}`.
fn bytes(v: &Value, path: &str) -> Result<Vec<u8>, String> {
    let hex = v
        .as_object()
        .filter(|m| m.len() == 1)
        .and_then(|m| m.get("$bytes")?.as_str())
        .ok_or_else(|| format!("{path}: {v} is not bytes"))?;
    unhex(hex).map_err(|e| format!("{path}: {e}"))
}

/// A JSON object that is not one of the canonical form's one-key `$` objects.
fn object(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
        .filter(|m| !(m.len() == 1 && m.keys().all(|k| k.starts_with('$'))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datum() -> (Value, Value) {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/conformance/avro-interop"
        );
        let read = |f: &str| -> Value {
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{f}")).unwrap()).unwrap()
        };
        (read("interop.avsc"), read("datum.json")["records"].clone())
    }

    #[test]
    fn avro_interop_datum_reads_back_with_each_codec() {
        let (schema, records) = datum();
        for codec in ["null", "deflate"] {
            let file = write(&schema, codec, &records).unwrap();
            assert_eq!(&file[..4], b"Obj\x01");
            let back = read(&file).unwrap();
            assert!(same(&back, &records), "{codec}: {back} != {records}");
        }
    }

    /// Equal, but for floats one unit in the last place apart: serde_json (without its
    /// `float_roundtrip` feature) reads the datum's 17-digit float32 maximum one ULP off,
    /// while the file holds the exact float32.
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
                let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
                x.to_bits().abs_diff(y.to_bits()) <= 1
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }

    #[test]
    fn avro_truncated_file_is_rejected() {
        let (schema, records) = datum();
        let file = write(&schema, "deflate", &records).unwrap();
        assert!(read(&file[..file.len() - 20]).is_err());
        assert!(read(&file[..3]).is_err());
    }

    #[test]
    fn avro_value_outside_the_schema_names_its_path() {
        let (schema, mut records) = datum();
        records[1]["enumField"] = json!("Z");
        let (code, message) = write(&schema, "null", &records).unwrap_err();
        assert_eq!(code, "not_applicable");
        assert!(message.starts_with("$[1].enumField"), "{message}");
        records[1]["enumField"] = json!("A");
        records[2]["bytesField"] = json!({"$bytes": "é0"});
        let (_, message) = write(&schema, "null", &records).unwrap_err();
        assert!(message.contains("not hex"), "{message}");
    }
}
