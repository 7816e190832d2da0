//! The canonical forms of values (protocol sections 5 and 11): how the canonical file
//! writes floats and bytes, and how a decoded value is answered as JSON (floats beyond
//! JSON's numbers, bytes as hex, a depth limit) by the untrusted commands and the Avro
//! container.

use serde_json::{Value, json};

/// Values nested deeper than this are answered as `{"$other": ...}`.
pub(crate) const MAX_DEPTH: usize = 400;

/// Bytes of the canonical file: standard base64 with padding.
pub fn b64(s: &str) -> Option<Vec<u8>> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let s = s.as_bytes();
    if !s.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for chunk in s.chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Some(out)
}

/// A float of the canonical file: a number, or NaN and the infinities as strings.
pub fn float(j: &Value, path: &str) -> Result<f64, String> {
    match j {
        Value::Number(n) => n.as_f64().ok_or_else(|| format!("{path}: not a number")),
        Value::String(s) if s == "NaN" => Ok(f64::NAN),
        Value::String(s) if s == "Infinity" => Ok(f64::INFINITY),
        Value::String(s) if s == "-Infinity" => Ok(f64::NEG_INFINITY),
        _ => Err(format!("{path}: expected a float, got {j}")),
    }
}

pub(crate) fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub(crate) fn unhex(s: &str) -> Result<Vec<u8>, String> {
    // checked first: slicing by byte offsets must not split a character
    if !s.len().is_multiple_of(2) || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("{s:?} is not hex"));
    }
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|e| e.to_string()))
        .collect()
}

pub(crate) fn float_value(f: f64) -> Value {
    if f.is_nan() {
        json!({"$float": "NaN"})
    } else if f.is_infinite() {
        json!({"$float": if f > 0.0 { "Infinity" } else { "-Infinity" }})
    } else {
        json!(f)
    }
}

pub(crate) fn too_deep() -> Value {
    json!({"$other": format!("nested deeper than {MAX_DEPTH}")})
}
