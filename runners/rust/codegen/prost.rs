//! The prost glue of the typed model: per record, `Proto` (the native struct to prost's
//! message and back) over the code prost-build writes from the dataset's .proto, and the
//! same for a message that is not a record (a list or map the .proto's wrapper message
//! carries, named by types.json's `schema.root`). Names follow serbench's .proto writer
//! (message = type name, field = key as an identifier) as prost spells them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::Value as J;

use super::{Def, Family, T, camel, snake};

const PROTO: &str = "crate::serializers::prost_rs::Proto";

impl Family {
    /// The `Proto` impls of the family, or why prost's generated code cannot carry it
    /// (the first field path it cannot).
    pub(super) fn prost_glue(&self) -> Result<String, String> {
        let mut out = String::new();
        let user = match &self.proto {
            None => None,
            Some(Ok((_, names))) => Some(names),
            Some(Err(e)) => return Err(e.clone()),
        };
        let pb = match user {
            None => format!("crate::generated::pb::{}", self.module),
            Some(n) => n.module.clone(),
        };
        for (name, def) in &self.defs {
            let Def::Record(fields) = def else { continue };
            let names = self.rust_fields(fields);
            // Built-ins: prost's spelling of serbench's names; user datasets: prost's code.
            let (msg, pb_fields) = match user {
                None => (camel(name), fields.iter().map(|(k, _)| snake(k)).collect()),
                Some(n) => n.structs.get(name).cloned().ok_or(format!(
                    "{name}: prost's code for the .proto has no message {name}"
                ))?,
            };
            if pb_fields.len() != fields.len() {
                return Err(format!(
                    "{name}: prost's message {msg} has other fields than the record"
                ));
            }
            let (mut to, mut from) = (String::new(), String::new());
            for (((k, t), f), p) in fields.iter().zip(&names).zip(&pb_fields) {
                let (a, b) = self
                    .prost_value(t, &format!("self.{f}"), &format!("m.{p}"), || {
                        self.override_of("protobuf", name, k)
                    })
                    .map_err(|e| format!("{name}.{k} {e}"))?;
                write!(to, " {p}: {a},").unwrap();
                write!(from, " {f}: {b},").unwrap();
            }
            let from = format!("Self {{{from} }}");
            let ty = self.ty(&T::Named(name.clone()));
            self.prost_impl(&mut out, &ty, &pb, &msg, &to, &from);
        }
        for (_, msg) in &self.datasets {
            if matches!(msg, T::Named(_)) {
                continue;
            }
            let (wrapper, field) = self.wrapper();
            let (a, b) = self
                .prost_value(msg, "self", &format!("m.{}", snake(&field)), || None)
                .map_err(|e| format!("the message {e}"))?;
            let to = format!(" {}: {a},", snake(&field));
            self.prost_impl(&mut out, &self.ty(msg), &pb, &camel(&wrapper), &to, &b);
        }
        Ok(out)
    }

    fn prost_impl(&self, out: &mut String, ty: &str, pb: &str, msg: &str, to: &str, from: &str) {
        let msg = format!("{pb}::{msg}");
        writeln!(
            out,
            "impl {PROTO} for {ty} {{\n    type Msg = {msg};\n    #[inline]\n    fn to_msg(&self) -> Self::Msg {{\n        {msg} {{{to} }}\n    }}\n    #[inline]\n    fn from_msg(m: Self::Msg) -> crate::types::Res<Self> {{\n        Ok({from})\n    }}\n}}"
        )
        .unwrap();
    }

    /// (native -> prost, prost -> native) of one field: `src` the native value (a place),
    /// `m` prost's (moved). `fixed`: the field's type fixed by types.json for protobuf.
    fn prost_value(
        &self,
        t: &T,
        src: &str,
        m: &str,
        fixed: impl Fn() -> Option<String>,
    ) -> Result<(String, String), String> {
        if let Some(fixed) = fixed() {
            // serbench's .proto writer declares the overriding type as is: a bool carried
            // as an integer is the only one the seeds use.
            let int = match fixed.as_str() {
                "int32" | "sint32" | "sfixed32" => "i32",
                "int64" | "sint64" | "sfixed64" => "i64",
                "uint32" | "fixed32" => "u32",
                "uint64" | "fixed64" => "u64",
                _ => "",
            };
            return match t {
                T::Bool if !int.is_empty() => Ok((format!("{src} as {int}"), format!("{m} != 0"))),
                _ => Err(format!(
                    "is declared {fixed} for protobuf, which the glue does not convert"
                )),
            };
        }
        let required = self.proto2();
        Ok(match t {
            // serbench's .proto: an `optional bool` never set.
            T::Null => ("None".to_string(), "crate::types::Null".to_string()),
            T::Opt(x) => match &**x {
                T::Bool | T::I32 | T::U32 | T::I64 | T::U64 | T::F32 | T::F64 | T::Ts => {
                    (src.to_string(), m.to_string())
                }
                T::Str | T::Bytes => (format!("{src}.clone()"), m.to_string()),
                T::Named(n) => match &self.defs[n] {
                    Def::Enum(_) => (
                        format!("{src}.map(|x| x as i32)"),
                        format!(
                            "{m}.map(|x| {}::from_ordinal(x as i64)).transpose()?",
                            self.ty(x)
                        ),
                    ),
                    Def::Record(_) => (
                        format!("{src}.as_ref().map({PROTO}::to_msg)"),
                        format!(
                            "{m}.map(<{} as {PROTO}>::from_msg).transpose()?",
                            self.ty(x)
                        ),
                    ),
                },
                _ => {
                    return Err(format!(
                        "is {}: the runner's prost glue does not carry it",
                        super::spell(t)
                    ));
                }
            },
            T::Bool | T::I32 | T::U32 | T::I64 | T::U64 | T::F32 | T::F64 | T::Ts => {
                (src.to_string(), m.to_string())
            }
            T::Str | T::Bytes => (format!("{src}.clone()"), m.to_string()),
            T::Named(n) => match &self.defs[n] {
                Def::Enum(_) => (
                    format!("{src} as i32"),
                    format!("{}::from_ordinal({m} as i64)?", self.ty(t)),
                ),
                Def::Record(_) if required => (
                    format!("{PROTO}::to_msg(&{src})"),
                    format!("<{} as {PROTO}>::from_msg({m})?", self.ty(t)),
                ),
                Def::Record(_) => (
                    format!("Some({PROTO}::to_msg(&{src}))"),
                    format!(
                        "<{} as {PROTO}>::from_msg({m}.unwrap_or_default())?",
                        self.ty(t)
                    ),
                ),
            },
            T::List(x) => {
                let (a, b) = self.prost_element(x, "[*]")?;
                (
                    format!("{src}.iter().map(|x| {a}).collect()"),
                    collect(m, "x", &b),
                )
            }
            T::Map(x) => {
                let (a, b) = self.prost_element(x, "*")?;
                (
                    format!("{src}.iter().map(|(k, x)| (k.clone(), {a})).collect()"),
                    collect(m, "(k, x)", &format!("(k, {b})")),
                )
            }
            t => {
                return Err(format!(
                    "is {}: the runner's prost glue does not carry it",
                    super::spell(t)
                ));
            }
        })
    }

    /// A list element or map value `x` (a reference on the native side, owned on prost's).
    fn prost_element(&self, t: &T, at: &str) -> Result<(String, String), String> {
        let (a, b) = match t {
            // serbench's .proto: a repeated bool; one `false` per null keeps the length.
            T::Null => (
                "{ let crate::types::Null = *x; false }".to_string(),
                "{ let _: bool = x; crate::types::Null }".to_string(),
            ),
            T::Bool | T::I32 | T::U32 | T::I64 | T::U64 | T::F32 | T::F64 | T::Ts => {
                ("*x".to_string(), "x".to_string())
            }
            T::Str | T::Bytes => ("x.clone()".to_string(), "x".to_string()),
            T::Named(n) => match &self.defs[n] {
                Def::Enum(_) => (
                    "*x as i32".to_string(),
                    format!("{}::from_ordinal(x as i64)?", self.ty(t)),
                ),
                Def::Record(_) => (
                    format!("{PROTO}::to_msg(x)"),
                    format!("<{} as {PROTO}>::from_msg(x)?", self.ty(t)),
                ),
            },
            t => {
                return Err(format!(
                    "{at} is {}: the runner's prost glue does not carry it",
                    super::spell(t)
                ));
            }
        };
        Ok((a, b))
    }
}

/// `m`'s items mapped by `|pat| item` into a collection; through `Res` only where the
/// conversion can fail.
fn collect(m: &str, pat: &str, item: &str) -> String {
    if item.contains('?') {
        format!("{m}.into_iter().map(|{pat}| Ok({item})).collect::<crate::types::Res<_>>()?")
    } else if item == pat {
        format!("{m}.into_iter().collect()")
    } else {
        format!("{m}.into_iter().map(|{pat}| {item}).collect()")
    }
}

/// Where the glue finds prost's items for a user dataset.
pub(super) struct PbNames {
    /// The Rust path of prost's module.
    module: String,
    /// types.json record -> (prost's struct, its fields in order).
    structs: BTreeMap<String, (String, Vec<String>)>,
}

/// Compiles a user dataset's .proto (`schemas.proto` of its dataset.json) with prost-build
/// into `out/pb/<module>/` and matches its messages to the types file (the k-th message of
/// the .proto is prost's k-th struct, a message's k-th field its struct's k-th field): the
/// `include!` path of prost's code and the names, or why the prost row cannot run.
pub(super) fn user_prost(
    fam: &Family,
    folder: &Path,
    meta: &J,
    protoc: &str,
    out: &Path,
) -> Result<(String, PbNames), String> {
    let path = super::registered_schema(folder, meta, "proto", ("protobuf", "protobuf"))?;
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    let [(_, T::Named(_))] = fam.datasets.as_slice() else {
        return Err("the runner's prost glue carries a record message only; this dataset's message is carried by a wrapper message".into());
    };
    let dir = out.join("pb").join(&fam.module);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    if let Err(e) = prost_build::Config::new()
        .protoc_executable(protoc)
        .out_dir(&dir)
        .compile_protos(&[&path], &[folder])
    {
        let e = e.to_string();
        let first = e.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed");
        return Err(format!("protoc cannot compile {file}: {first}"));
    }
    let generated = fs::read_dir(&dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "rs"))
        .ok_or("prost-build wrote no code")?;
    let code = fs::read_to_string(&generated).map_err(|e| e.to_string())?;
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let messages: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("message "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let structs = prost_structs(&code);
    if messages.len() != structs.len() {
        return Err(format!(
            "prost's code for {file} does not match its messages"
        ));
    }
    let name = generated.file_name().unwrap().to_string_lossy();
    Ok((
        format!("/pb/{}/{name}", fam.module),
        PbNames {
            module: format!("crate::model::{}::pb_gen", fam.module),
            structs: messages
                .into_iter()
                .map(str::to_string)
                .zip(structs)
                .collect(),
        },
    ))
}

/// prost's structs in order, each with its fields in order (prost writes `pub struct` at
/// the start of a line and one `pub` field a line).
fn prost_structs(code: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut open = false;
    for line in code.lines() {
        if let Some(rest) = line.strip_prefix("pub struct ") {
            let name = rest.split([' ', '{']).next().unwrap_or_default();
            out.push((name.to_string(), Vec::new()));
            open = true;
        } else if line.starts_with('}') {
            open = false;
        } else if open
            && let Some(field) = line.trim().strip_prefix("pub ")
            && let Some((f, _)) = field.split_once(':')
            && let Some(last) = out.last_mut()
        {
            last.1.push(f.trim().to_string());
        }
    }
    out
}

impl Family {
    /// A user dataset's prost code, as a module of the dataset's model.
    pub(super) fn emit_prost_module(&self, out: &mut String) {
        let Some(Ok((include, _))) = &self.proto else {
            return;
        };
        writeln!(
            out,
            "#[allow(clippy::all, clippy::pedantic, dead_code, unused_imports, non_snake_case, non_camel_case_types)]\npub mod pb_gen {{\n    include!(concat!(env!(\"OUT_DIR\"), {include:?}));\n}}"
        )
        .unwrap();
    }
}
