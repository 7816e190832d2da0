//! Bytes this runner did not write (docs/runner-protocol.md section 11).
//!
//! A library's returned `Err` is its documented refusal: "rejected". A panic is not caught:
//! it ends the process, and the orchestrator finds the input by bisecting the batch.
//! Typed rows decode whole datasets through their cell's check (a `cannot decode:` detail
//! is the library's error); dynamic rows decode one value of the generic tree.
//! Unvalidated rows (`unvalidated`) first read the input in place without validation.

use std::collections::HashMap;
use std::time::Instant;

use serde_json::{Map, Value, json};

use crate::canonical::{MAX_DEPTH, float_value, hex, too_deep, unhex};
use crate::cell::{CellOps, Source, Verify};
use crate::entry::Entry;
use crate::model::builtin;
use crate::user::V;

/// Marks an error that is a caught panic, not the library's refusal.
const PANIC: &str = "\u{0}panic: ";

/// Typed cells prepared on a dataset, reused across commands (keyed by row and data path).
#[derive(Default)]
pub struct State {
    cells: HashMap<(String, String), Box<dyn CellOps>>,
}

type Generic = fn(&[u8]) -> Result<Value, String>;

/// Each dynamic row's library decoding to its generic value, rendered canonically.
fn generic(name: &str) -> Option<Generic> {
    Some(match name {
        "serde_json-dynamic" => |b| {
            serde_json::from_slice::<Value>(b)
                .map(|v| canon_json(v, 0))
                .map_err(|e| e.to_string())
        },
        "simd-json-dynamic" => |b| {
            let mut owned = b.to_vec();
            let v = simd_json::to_owned_value(&mut owned).map_err(|e| e.to_string())?;
            Ok(canon_json(
                serde_json::to_value(v).unwrap_or(Value::Null),
                0,
            ))
        },
        "sonic-rs-dynamic" => |b| {
            let v: sonic_rs::Value = sonic_rs::from_slice(b).map_err(|e| e.to_string())?;
            Ok(canon_json(
                serde_json::to_value(v).unwrap_or(Value::Null),
                0,
            ))
        },
        "rmp-serde-dynamic" | "rmp-serde-map-dynamic" => |b| {
            rmp_serde::from_slice::<V>(b)
                .map(|v| canon_v(&v, 0))
                .map_err(|e| e.to_string())
        },
        "ciborium-dynamic" => |b| {
            ciborium::de::from_reader::<ciborium::Value, _>(b)
                .map(|v| canon_cbor(&v, 0))
                .map_err(|e| e.to_string())
        },
        _ => return None,
    })
}

const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64encode(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, x)| n | (*x as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn b64decode(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut n, mut bits) = (0u32, 0);
    for c in s.bytes().filter(|c| *c != b'=') {
        let v = B64.iter().position(|x| *x == c).ok_or("bad base64")? as u32;
        n = n << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
        }
    }
    Ok(out)
}

fn canon_json(v: Value, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return too_deep();
    }
    match v {
        Value::Array(a) => Value::Array(a.into_iter().map(|x| canon_json(x, depth + 1)).collect()),
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, x)| (k, canon_json(x, depth + 1)))
                .collect(),
        ),
        other => other,
    }
}

fn canon_v(v: &V, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return too_deep();
    }
    match v {
        V::Null => Value::Null,
        V::Bool(b) => json!(b),
        V::Int(i) => json!(i),
        V::UInt(u) => json!(u),
        V::Big(s) => json!({"$other": format!("bigint {s}")}),
        V::F32(f) => float_value(*f as f64),
        V::F64(f) => float_value(*f),
        V::Str(s) => json!(s),
        V::Bytes(b) => json!({"$bytes": hex(b)}),
        V::Ts(ms) => json!({"$timestamp": [ms.div_euclid(1000), ms.rem_euclid(1000) * 1_000_000]}),
        V::List(l) => Value::Array(l.iter().map(|x| canon_v(x, depth + 1)).collect()),
        V::Map(m) => {
            let mut out = Map::new();
            for (k, x) in m {
                out.insert(k.clone(), canon_v(x, depth + 1));
            }
            Value::Object(out)
        }
    }
}

fn canon_cbor(v: &ciborium::Value, depth: usize) -> Value {
    use ciborium::Value as C;
    if depth > MAX_DEPTH {
        return too_deep();
    }
    match v {
        C::Integer(i) => {
            let n = i128::from(*i);
            if let Ok(x) = i64::try_from(n) {
                json!(x)
            } else if let Ok(x) = u64::try_from(n) {
                json!(x)
            } else {
                // beyond 64 bits: JSON text the orchestrator reads as an exact integer
                serde_json::from_str(&n.to_string()).unwrap_or(Value::Null)
            }
        }
        C::Bytes(b) => json!({"$bytes": hex(b)}),
        C::Float(f) => float_value(*f),
        C::Text(s) => json!(s),
        C::Bool(b) => json!(b),
        C::Null => Value::Null,
        C::Tag(t, inner) => json!({"$tag": [t, canon_cbor(inner, depth + 1)]}),
        C::Array(a) => Value::Array(a.iter().map(|x| canon_cbor(x, depth + 1)).collect()),
        C::Map(m) => {
            if m.iter().all(|(k, _)| k.is_text()) {
                let mut out = Map::new();
                for (k, x) in m {
                    out.insert(
                        k.as_text().unwrap_or_default().to_string(),
                        canon_cbor(x, depth + 1),
                    );
                }
                Value::Object(out)
            } else {
                let pairs: Vec<Value> = m
                    .iter()
                    .map(|(k, x)| json!([canon_cbor(k, depth + 1), canon_cbor(x, depth + 1)]))
                    .collect();
                json!({ "$map": pairs })
            }
        }
        other => json!({"$other": format!("{other:?}")}),
    }
}

/// The generic tree a canonical value stands for (the encode direction).
fn from_canonical(v: &Value) -> Result<V, String> {
    Ok(match v {
        Value::Null => V::Null,
        Value::Bool(b) => V::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => V::Int(i),
            (_, Some(u), _) => V::UInt(u),
            (_, _, Some(f)) => V::F64(f),
            _ => return Err(format!("number {n}")),
        },
        Value::String(s) => V::Str(s.clone()),
        Value::Array(a) => V::List(a.iter().map(from_canonical).collect::<Result<_, _>>()?),
        Value::Object(m) => {
            if m.len() == 1 {
                let (k, inner) = m.iter().next().expect("one entry");
                if k == "$bytes" {
                    return Ok(V::Bytes(unhex(inner.as_str().unwrap_or_default())?));
                }
                if k.starts_with('$') {
                    return Err(format!(
                        "{k} values are not encoded through the generic tree here"
                    ));
                }
            }
            V::Map(
                m.iter()
                    .map(|(k, x)| Ok((k.clone(), from_canonical(x)?)))
                    .collect::<Result<_, String>>()?,
            )
        }
    })
}

fn input(item: &Value) -> Result<Vec<u8>, String> {
    if let Some(p) = item.get("path").and_then(Value::as_str) {
        return std::fs::read(p).map_err(|e| format!("{p}: {e}"));
    }
    b64decode(
        item.get("b64")
            .and_then(Value::as_str)
            .ok_or("input without b64 or path")?,
    )
}

fn err(code: &str, message: &str, cell: &str) -> Value {
    json!({"event": "error", "code": code, "message": message, "cell": cell})
}

impl State {
    /// The typed cell of a row on a built-in dataset, prepared once.
    fn typed(
        &mut self,
        entry: &Entry,
        ds: &Value,
    ) -> Result<&mut Box<dyn CellOps>, (String, String)> {
        let name = ds.get("name").and_then(Value::as_str).unwrap_or_default();
        let data = ds.get("data").and_then(Value::as_str).unwrap_or_default();
        let key = (entry.name.to_string(), data.to_string());
        if !self.cells.contains_key(&key) {
            if ds.get("kind").and_then(Value::as_str) == Some("user") {
                return Err((
                    "unsupported".into(),
                    "user datasets are not supported here yet".into(),
                ));
            }
            let d = builtin(name).ok_or((
                "unknown_dataset".to_string(),
                format!("no dataset {name:?}"),
            ))?;
            let mut cell = (entry.make)(d).map_err(|r| ("not_applicable".to_string(), r))?;
            let src = Source {
                data,
                check_data: data,
                decode_from: None,
                types: None,
                schemas: None,
            };
            cell.prepare(&src, Verify::Check).map_err(|_| {
                (
                    "exception".to_string(),
                    format!("{} cannot prepare {name}", entry.name),
                )
            })?;
            self.cells.insert(key.clone(), cell);
        }
        Ok(self.cells.get_mut(&key).expect("inserted"))
    }

    pub fn handle(&mut self, entries: &[Entry], cmd: &Value) -> Value {
        let cell = cmd.get("cell").and_then(Value::as_str).unwrap_or_default();
        let ser = cmd
            .get("serializer")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(entry) = entries.iter().find(|e| e.name == ser) else {
            return err(
                "unknown_serializer",
                &format!("no serializer {ser:?}"),
                cell,
            );
        };
        let ds = cmd.get("dataset").filter(|d| d.is_object());
        let encode = cmd.get("cmd").and_then(Value::as_str) == Some("untrusted_encode");
        if let Some(container) = cmd
            .get("container")
            .filter(|c| !matches!(c, Value::Null | Value::Bool(false)))
        {
            return avro_container(entry, cmd, container, encode, cell);
        }
        if let Some(ds) = ds {
            let typed = match self.typed(entry, ds) {
                Ok(c) => c,
                Err((code, m)) => return err(&code, &m, cell),
            };
            if encode {
                return json!({"event": "untrusted_encoded", "cell": cell, "b64": b64encode(typed.encoded())});
            }
            let unvalidated = entry.labels.contains(&"unvalidated");
            return decode_all(cmd, cell, |b| {
                if unvalidated {
                    unvalidated_read(typed, b)
                } else {
                    validated_read(typed, b)
                }
            });
        }
        if encode {
            if ser != "rmp-serde-dynamic" && ser != "rmp-serde-map-dynamic" {
                return err(
                    "unsupported",
                    &format!("{ser} does not encode generic values here"),
                    cell,
                );
            }
            let value = match from_canonical(cmd.get("value").unwrap_or(&Value::Null)) {
                Ok(v) => v,
                Err(m) => return err("not_applicable", &m, cell),
            };
            return match rmp_serde::to_vec(&value) {
                Ok(b) => json!({"event": "untrusted_encoded", "cell": cell, "b64": b64encode(&b)}),
                Err(e) => err("exception", &e.to_string(), cell),
            };
        }
        match generic(ser) {
            Some(f) => decode_all(cmd, cell, f),
            None => err(
                "unsupported",
                &format!("{ser} has no generic-value decode: name a dataset"),
                cell,
            ),
        }
    }
}

/// An Avro row's object container files (`container` in the command).
fn avro_container(
    entry: &Entry,
    cmd: &Value,
    container: &Value,
    encode: bool,
    cell: &str,
) -> Value {
    if entry.library != "apache-avro" {
        return err(
            "unsupported",
            &format!("{} writes no Avro container files", entry.name),
            cell,
        );
    }
    if !encode {
        return decode_all(cmd, cell, crate::avro_container::read);
    }
    let schema = container.get("schema").unwrap_or(&Value::Null);
    let codec = container
        .get("codec")
        .and_then(Value::as_str)
        .unwrap_or("null");
    match crate::avro_container::write(schema, codec, cmd.get("value").unwrap_or(&Value::Null)) {
        Ok(file) => json!({"event": "untrusted_encoded", "cell": cell, "b64": b64encode(&file)}),
        Err((code, m)) => err(code, &m, cell),
    }
}

/// A typed row's decode of `b`, compared with the dataset.
fn validated_read(cell: &mut Box<dyn CellOps>, b: &[u8]) -> Result<Value, String> {
    match cell.check_bytes(b) {
        Ok(_) => Ok(json!({"$check": "equal"})),
        // a row that turns its reader's panic into an error for cross-checks
        // (flexbuffers) still reports it as what it is
        Err(d) if d.contains("panicked") => Err(format!("{PANIC}{d}")),
        Err(d) if d.starts_with("cannot decode") => Err(d),
        Err(d) => Ok(json!({ "$check": d })),
    }
}

/// An unvalidated row reads every field in place as its timed decode does, trusting the
/// bytes: it has no refusal to give, so a crash here is the finding. Only once the read
/// survived does the validated decode say whether what it read was the dataset.
fn unvalidated_read(cell: &mut Box<dyn CellOps>, b: &[u8]) -> Result<Value, String> {
    // an error here is the runner's framing, before the library sees a message
    cell.decode_once(b)
        .map_err(|e| format!("cannot decode: {e}"))?;
    match validated_read(cell, b) {
        Err(d) if !d.starts_with(PANIC) => {
            Ok(json!({ "$check": format!("read unvalidated; {d}") }))
        }
        other => other,
    }
}

fn decode_all(cmd: &Value, cell: &str, mut f: impl FnMut(&[u8]) -> Result<Value, String>) -> Value {
    let empty = vec![];
    let inputs = cmd
        .get("inputs")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let mut outcomes = Vec::with_capacity(inputs.len());
    for item in inputs {
        let id = item.get("id").cloned().unwrap_or(Value::Null);
        let bytes = match input(item) {
            Ok(b) => b,
            Err(m) => return err("bad_request", &m, cell),
        };
        let start = Instant::now();
        let r = f(&bytes);
        let ns = start.elapsed().as_nanos() as u64;
        outcomes.push(match r {
            Ok(v) => json!({"id": id, "outcome": "accepted", "value": v, "ns": ns}),
            Err(e) => {
                let (outcome, e) = match e.strip_prefix(PANIC) {
                    Some(rest) => ("error", rest.to_string()),
                    None => ("rejected", e),
                };
                let e: String = e.chars().take(300).collect();
                json!({"id": id, "outcome": outcome, "error": e, "ns": ns})
            }
        });
    }
    json!({"event": "untrusted_decoded", "cell": cell, "outcomes": outcomes})
}
