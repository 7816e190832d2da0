//! The FlatBuffers glue of the typed model: per record, `Fbs` (build the table from the
//! native struct, read it back, read every field in place) over the code flatc 25 writes.
//! Built-ins name flatc's items after their types.json names; a user dataset's are read
//! from its .fbs and flatc's output, matched to the types file by position (a record's
//! k-th field is its table's k-th field), so no name is re-derived.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::Value as J;

use super::{Def, Family, T, camel, sanitize};

/// The flatc that pyproject.toml pins (the `flatbuffers` crate's version), relative to the
/// runner's folder: called by that path whatever PATH holds.
pub const FLATC: &str = "../../.venv/bin/flatc";

/// Where the glue finds flatc's Rust items.
pub struct FbNames {
    /// The Rust path of flatc's namespace module.
    module: String,
    /// types.json record -> (table, accessor of each field in order).
    tables: BTreeMap<String, (String, Vec<String>)>,
    /// types.json enum -> (flatc's enum, its underlying Rust integer).
    enums: BTreeMap<String, (String, String)>,
    /// (record, field index) of a map -> (entry table, accessors of key and value).
    entries: BTreeMap<(String, usize), (String, [String; 2])>,
    /// Build a table holding a float -0.0 with defaults forced (user datasets: -0.0 equals
    /// the default 0.0, so the builder would leave it out and it would come back as 0.0).
    keep_negative_zero: bool,
}

/// Built-in names: the table is the record's CamelCase name, the accessor the field's key.
pub(super) fn builtin_names(fam: &Family) -> FbNames {
    let tables = fam
        .defs
        .iter()
        .filter_map(|(n, d)| match d {
            Def::Record(f) => Some((
                n.clone(),
                (camel(n), f.iter().map(|(k, _)| sanitize(k)).collect()),
            )),
            Def::Enum(_) => None,
        })
        .collect();
    FbNames {
        module: format!("crate::generated::fb::{}", fam.module),
        tables,
        enums: BTreeMap::new(),
        entries: BTreeMap::new(),
        keep_negative_zero: false,
    }
}

/// A table of the .fbs: its fields' types in order.
type Tables = BTreeMap<String, Vec<String>>;

/// Compiles a user dataset's .fbs (`schemas.fbs` of its dataset.json) with flatc into
/// `out/fbs/<module>/` and matches its tables to the types file; the `include!` path of
/// flatc's code and the names, or why the FlatBuffers rows cannot run on it.
pub(super) fn user_names(
    fam: &Family,
    folder: &Path,
    meta: &J,
    flatc: &Path,
    out: &Path,
) -> Result<(String, FbNames), String> {
    let fbs = meta.pointer("/schemas/fbs").ok_or(
        "the dataset's registration has no FlatBuffers schema: register it again with `serbench datasets add`",
    )?;
    if let Some(why) = fbs.get("unavailable").and_then(J::as_str) {
        return Err(why.strip_prefix("flatbuffers: ").unwrap_or(why).to_string());
    }
    let file = fbs
        .get("path")
        .and_then(J::as_str)
        .ok_or("schemas.fbs has no path")?;
    let path = folder.join(file);
    println!("cargo:rerun-if-changed={}", path.display());
    let [(_, T::Named(msg))] = fam.datasets.as_slice() else {
        return Err("the runner's FlatBuffers glue carries a record message only; this dataset's message is carried by a wrapper table".into());
    };
    let dir = out.join("fbs").join(&fam.module);
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let run = Command::new(flatc)
        .args(["--rust", "-o"])
        .arg(&dir)
        .arg(&path)
        .output()
        .map_err(|e| format!("{}: {e}", flatc.display()))?;
    if !run.status.success() {
        let err = String::from_utf8_lossy(&run.stderr);
        let first = err
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("failed");
        return Err(format!("flatc --rust cannot compile {file}: {first}"));
    }
    let stem = path.file_stem().unwrap().to_string_lossy();
    let generated = dir.join(format!("{stem}_generated.rs"));
    let code =
        fs::read_to_string(&generated).map_err(|e| format!("{}: {e}", generated.display()))?;
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (tables, enum_bases, root) = parse_fbs(&text);
    let root = root.ok_or(format!("{file} names no root_type"))?;
    let module = flatc_module(&code, &root)
        .ok_or(format!("flatc's Rust code for {file} has no table {root}"))?;
    let mut names = FbNames {
        module: format!("crate::model::{}::fbs_gen::{module}", fam.module),
        tables: BTreeMap::new(),
        enums: BTreeMap::new(),
        entries: BTreeMap::new(),
        keep_negative_zero: true,
    };
    let mut m = Matcher {
        fam,
        tables: &tables,
        enum_bases: &enum_bases,
        code: &code,
        names: &mut names,
    };
    m.record(msg, &root)?;
    let include = format!("/fbs/{}/{stem}_generated.rs", fam.module);
    Ok((include, names))
}

/// Tables (field types in order), enums (underlying type) and the root table of a .fbs
/// as serbench writes it: one declaration line, one field per line.
fn parse_fbs(text: &str) -> (Tables, BTreeMap<String, String>, Option<String>) {
    let (mut tables, mut enums, mut root) = (Tables::new(), BTreeMap::new(), None);
    let mut open: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(name) = &open {
            if line.starts_with('}') {
                open = None;
            } else if let Some((_, ty)) = line.trim_end_matches(';').split_once(':')
                && let Some(f) = tables.get_mut(name)
            {
                f.push(ty.trim().to_string());
            }
        } else if let Some(rest) = line.strip_prefix("table ") {
            let name = rest.trim_end_matches('{').trim().to_string();
            tables.insert(name.clone(), Vec::new());
            open = Some(name);
        } else if let Some(rest) = line.strip_prefix("enum ") {
            if let Some((name, rest)) = rest.split_once(':') {
                let base = rest.split('{').next().unwrap_or("").trim();
                enums.insert(name.trim().to_string(), base.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("root_type ") {
            root = Some(rest.trim_end_matches(';').trim().to_string());
        }
    }
    (tables, enums, root)
}

/// The module path (`a::b::c`) of flatc's Rust code that declares table `root`.
fn flatc_module(code: &str, root: &str) -> Option<String> {
    let mut stack: Vec<&str> = Vec::new();
    let decl = format!("pub struct {root}<'a> {{");
    for line in code.lines() {
        if let Some(m) = line
            .strip_prefix("pub mod ")
            .and_then(|r| r.strip_suffix(" {"))
        {
            stack.push(m);
        } else if line.starts_with("}  // pub mod") {
            stack.pop();
        } else if line == decl {
            return Some(stack.join("::"));
        }
    }
    None
}

/// The fields of flatc's `<table>Args` struct in order: the accessors' names.
fn accessors(code: &str, table: &str) -> Option<Vec<String>> {
    let start = format!("pub struct {table}Args");
    let mut lines = code.lines().skip_while(|l| !l.starts_with(&start));
    lines.next()?;
    Some(
        lines
            .take_while(|l| !l.starts_with('}'))
            .filter_map(|l| {
                l.trim()
                    .strip_prefix("pub ")?
                    .split_once(':')
                    .map(|(n, _)| n.to_string())
            })
            .collect(),
    )
}

/// Walks the types file and the .fbs side by side from the message and its root table.
struct Matcher<'a> {
    fam: &'a Family,
    tables: &'a Tables,
    enum_bases: &'a BTreeMap<String, String>,
    code: &'a str,
    names: &'a mut FbNames,
}

impl<'a> Matcher<'a> {
    fn table(&self, table: &str) -> Result<(&'a Vec<String>, Vec<String>), String> {
        let types = self
            .tables
            .get(table)
            .ok_or(format!("the .fbs has no table {table}"))?;
        let acc =
            accessors(self.code, table).ok_or(format!("flatc's Rust code has no {table}Args"))?;
        if acc.len() != types.len() {
            return Err(format!(
                "flatc's {table}Args has {} fields, the .fbs table {}",
                acc.len(),
                types.len()
            ));
        }
        Ok((types, acc))
    }

    fn record(&mut self, rec: &str, table: &str) -> Result<(), String> {
        if self.names.tables.contains_key(rec) {
            return Ok(());
        }
        let Def::Record(fields) = &self.fam.defs[rec] else {
            return Err(format!("{rec} is not a record"));
        };
        let (types, acc) = self.table(table)?;
        if types.len() != fields.len() {
            return Err(format!(
                "table {table} has {} fields, record {rec} {}",
                types.len(),
                fields.len()
            ));
        }
        self.names
            .tables
            .insert(rec.to_string(), (table.to_string(), acc));
        for (k, ((_, t), ft)) in fields.iter().zip(types).enumerate() {
            self.bind(t, ft, rec, k)?;
        }
        Ok(())
    }

    /// Matches a types.json type with its .fbs spelling (`[X]`, `X = null`, ...).
    fn bind(&mut self, t: &T, ft: &str, rec: &str, k: usize) -> Result<(), String> {
        let ft = ft.split('=').next().unwrap_or(ft).trim();
        let inner = ft.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
        match (t, inner) {
            (T::Opt(x), _) => self.bind(x, ft, rec, k),
            (T::Bytes, _) => Ok(()),
            (T::List(x), Some(e)) => self.bind(x, e, rec, k),
            (T::Map(x), Some(e)) => {
                let (types, acc) = self.table(e)?;
                let [_, value] = types.as_slice() else {
                    return Err(format!("map entry table {e} needs a key and a value"));
                };
                let [key_acc, value_acc] = <[String; 2]>::try_from(acc).unwrap();
                self.names
                    .entries
                    .insert((rec.to_string(), k), (e.to_string(), [key_acc, value_acc]));
                self.bind(x, value, rec, k)
            }
            (T::Named(n), None) => match &self.fam.defs[n] {
                Def::Record(_) => self.record(n, ft),
                Def::Enum(_) => {
                    let base = match self.enum_bases.get(ft).map(String::as_str) {
                        Some("byte") => "i8",
                        Some("short") => "i16",
                        Some("int") => "i32",
                        b => return Err(format!("enum {ft} has the underlying type {b:?}")),
                    };
                    self.names
                        .enums
                        .insert(n.clone(), (ft.to_string(), base.to_string()));
                    Ok(())
                }
            },
            (T::List(_) | T::Map(_) | T::Named(_), _) => {
                Err(format!("{rec} field {k}: {ft} is not {t:?} in the .fbs"))
            }
            _ => Ok(()),
        }
    }
}

/// `create` (a table's) with the builder's defaults forced while `cond` holds.
fn forced(cond: &str, create: &str) -> String {
    format!(
        "{{\n            fbb.force_defaults({cond});\n            let _t = {create};\n            fbb.force_defaults(false);\n            _t\n        }}"
    )
}

/// One value's glue: a child built before its table (`pre`), the table argument, the read
/// into the native value and the in-place read; `src` is the native value (a place), `get`
/// what flatc's accessor returns for it.
struct Parts {
    pre: Option<String>,
    arg: String,
    read: String,
    touch: String,
}

const FBS: &str = "crate::serializers::flatbuffers_rs";

impl Family {
    /// `impl Fbs` for every record the names cover.
    pub(super) fn emit_fbs(&self, out: &mut String, names: &FbNames) {
        for (rec, (table, acc)) in &names.tables {
            let Def::Record(fields) = &self.defs[rec] else {
                continue;
            };
            let id = &self.idents[rec];
            let tb = format!("{}::{table}", names.module);
            let mut zero = Vec::new();
            let (mut pre, mut args, mut read, mut touch) =
                (String::new(), String::new(), String::new(), String::new());
            for (k, (((key, t), f), a)) in fields
                .iter()
                .zip(self.rust_fields(fields))
                .zip(acc)
                .enumerate()
            {
                let p = self.fb_value(
                    names,
                    t,
                    rec,
                    k,
                    key,
                    &format!("self.{f}"),
                    &format!("t.{a}()"),
                );
                match p.pre {
                    Some(c) => {
                        writeln!(pre, "        let _{f} = {c};").unwrap();
                        write!(args, " {a}: {},", p.arg.replace("{}", &format!("_{f}"))).unwrap();
                    }
                    None => write!(args, " {a}: {},", p.arg).unwrap(),
                }
                if matches!(t, T::F32 | T::F64) {
                    zero.push(format!("{FBS}::neg_zero(self.{f} as f64)"));
                }
                write!(read, " {f}: {},", p.read).unwrap();
                write!(touch, "\n            .wrapping_add({})", p.touch).unwrap();
            }
            let mut create = format!("{tb}::create(fbb, &{tb}Args {{{args} }})");
            if names.keep_negative_zero && !zero.is_empty() {
                create = forced(&zero.join(" || "), &create);
            }
            writeln!(
                out,
                "impl {FBS}::Fbs for {id} {{\n    type Table<'a> = {tb}<'a>;\n    fn build<'b>(&self, fbb: &mut ::flatbuffers::FlatBufferBuilder<'b>) -> ::flatbuffers::WIPOffset<Self::Table<'b>> {{\n{pre}        {create}\n    }}\n    fn read(t: Self::Table<'_>) -> crate::types::Res<Self> {{\n        Ok(Self {{{read} }})\n    }}\n    fn touch(t: Self::Table<'_>) -> u64 {{\n        0u64{touch}\n    }}\n}}"
            )
            .unwrap();
        }
    }

    /// The glue of one value of type `t` (field `k` of `rec`, whose key is `key`). `arg`
    /// holds `{}` where a child is passed.
    #[allow(clippy::too_many_arguments)]
    fn fb_value(
        &self,
        names: &FbNames,
        t: &T,
        rec: &str,
        k: usize,
        key: &str,
        src: &str,
        get: &str,
    ) -> Parts {
        let scalar = |read: String, touch: String| Parts {
            pre: None,
            arg: src.to_string(),
            read,
            touch,
        };
        let child = |pre: String, read: String, touch: String| Parts {
            pre: Some(pre),
            arg: "Some({})".into(),
            read,
            touch,
        };
        match t {
            T::Null => Parts {
                pre: None,
                arg: "None".into(),
                read: "crate::types::Null".into(),
                touch: "0".into(),
            },
            T::F32 | T::F64 => scalar(get.into(), format!("{get}.to_bits() as u64")),
            T::Str => child(
                format!("fbb.create_string(&{src})"),
                format!("{FBS}::s({get})"),
                format!("{FBS}::ts({get})"),
            ),
            T::Bytes => child(
                format!("fbb.create_vector(&{src})"),
                format!("{get}.map_or_else(Vec::new, |v| v.bytes().to_vec())"),
                format!("{get}.map_or(0, |v| {FBS}::tb(v.bytes()))"),
            ),
            T::Named(n) => match &self.defs[n] {
                Def::Enum(_) => {
                    let (e, base) = &names.enums[n];
                    let id = &self.idents[n];
                    Parts {
                        pre: None,
                        arg: format!("{}::{e}({src} as {base})", names.module),
                        read: format!(
                            "{}::{id}::from_ordinal({get}.0 as i64)?",
                            self.module_path()
                        ),
                        touch: format!("{get}.0 as u64"),
                    }
                }
                Def::Record(_) => {
                    let ty = self.ty(t);
                    child(
                        format!("<{ty} as {FBS}::Fbs>::build(&{src}, fbb)"),
                        format!(
                            "<{ty} as {FBS}::Fbs>::read({get}.ok_or({:?})?)?",
                            format!("flatbuffers: no {key}")
                        ),
                        format!("{get}.map_or(0, <{ty} as {FBS}::Fbs>::touch)"),
                    )
                }
            },
            T::Opt(x) => {
                let p = self.fb_value(names, x, rec, k, key, "(*_o)", "_o");
                match p.pre {
                    // A scalar: flatc's argument and accessor are optional already.
                    None if matches!(**x, T::Null) => Parts {
                        pre: None,
                        arg: "None".into(),
                        read: "None".into(),
                        touch: "0".into(),
                    },
                    None => Parts {
                        pre: None,
                        arg: match p.arg.as_str() {
                            "(*_o)" => src.to_string(),
                            a => format!("{src}.map(|_o| {})", a.replace("(*_o)", "_o")),
                        },
                        read: format!(
                            "match {get} {{ Some(_o) => Some({}), None => None }}",
                            p.read
                        ),
                        touch: format!("{get}.map_or(0, |_o| {})", p.touch),
                    },
                    Some(c) => {
                        let some = self.fb_value(names, x, rec, k, key, "(*_o)", "Some(_o)");
                        Parts {
                            pre: Some(format!(
                                "match &{src} {{ Some(_o) => Some({c}), None => None }}"
                            )),
                            arg: "{}".into(),
                            read: format!(
                                "match {get} {{ Some(_o) => Some({}), None => None }}",
                                some.read
                            ),
                            touch: format!("{get}.map_or(0, |_o| {})", some.touch),
                        }
                    }
                }
            }
            T::List(x) => {
                let e = self.fb_value(names, x, rec, k, key, "(*_x)", "_x");
                let some = self.fb_value(names, x, rec, k, key, "(*_x)", "Some(_x)");
                match (&**x, e.pre) {
                    (T::Null, _) => child(
                        format!("fbb.create_vector(&vec![false; {src}.len()])"),
                        format!("vec![crate::types::Null; {get}.map_or(0, |v| v.len())]"),
                        format!("{get}.map_or(0, |v| v.len() as u64)"),
                    ),
                    (_, None) => child(
                        format!(
                            "{{\n            let v: Vec<_> = {src}.iter().map(|_x| {}).collect();\n            fbb.create_vector(&v)\n        }}",
                            e.arg.replace("(*_x)", "*_x")
                        ),
                        format!(
                            "{get}.map_or(Ok(Vec::new()), |v| v.iter().map(|_x| -> crate::types::Res<_> {{ Ok({}) }}).collect())?",
                            e.read
                        ),
                        format!(
                            "{get}.map_or(0, |v| v.iter().fold(v.len() as u64, |n, _x| n.wrapping_add({})))",
                            e.touch
                        ),
                    ),
                    (_, Some(c)) => child(
                        format!(
                            "{{\n            let v: Vec<_> = {src}.iter().map(|_x| {c}).collect();\n            fbb.create_vector(&v)\n        }}"
                        ),
                        format!("{FBS}::list({get}, |_x| Ok({}))?", some.read),
                        format!("{FBS}::touch_list({get}, |_x| {})", some.touch),
                    ),
                }
            }
            T::Map(x) => {
                let (entry, [ka, va]) = &names.entries[&(rec.to_string(), k)];
                let et = format!("{}::{entry}", names.module);
                let v = self.fb_value(names, x, rec, k, key, "(*_v)", &format!("_e.{va}()"));
                let (vpre, varg) = match v.pre {
                    Some(c) => (format!("let _c = {c}; "), v.arg.replace("{}", "_c")),
                    // A map of null: the entry's value is a plain bool.
                    None if matches!(**x, T::Null) => (String::new(), "false".into()),
                    None => (String::new(), v.arg),
                };
                let mut create =
                    format!("{et}::create(fbb, &{et}Args {{ {ka}: Some(_key), {va}: {varg} }})");
                if names.keep_negative_zero && matches!(**x, T::F32 | T::F64) {
                    create = forced(&format!("{FBS}::neg_zero(*_v as f64)"), &create);
                }
                child(
                    format!(
                        "{{\n            let v: Vec<_> = {src}.iter().map(|(_k, _v)| {{ let _key = fbb.create_string(_k); {vpre}{create} }}).collect();\n            fbb.create_vector(&v)\n        }}"
                    ),
                    format!(
                        "{FBS}::list({get}, |_e| Ok(({FBS}::s(_e.{ka}()), {})))?.into_iter().collect()",
                        v.read
                    ),
                    format!(
                        "{FBS}::touch_list({get}, |_e| {FBS}::ts(_e.{ka}()).wrapping_add({}))",
                        v.touch
                    ),
                )
            }
            _ => scalar(get.into(), format!("{get} as u64")),
        }
    }

    fn module_path(&self) -> String {
        format!("crate::model::{}", self.module)
    }
}
