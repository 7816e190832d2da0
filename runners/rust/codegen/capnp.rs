//! The Cap'n Proto glue of the typed model: per record, `Capnp` (build the struct from the
//! native one in place, read it back, read every field in place) over the code capnpc
//! writes from the dataset's .capnp, and the same for a message that is not a record (the
//! wrapper struct types.json's `schema.root` names). Names follow serbench's .capnp
//! writer (types UpperCamel, fields lowerCamel made unique per struct) as capnpc spells
//! them (snake case modules and accessors).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use serde_json::Value as J;

use super::{Def, Family, T};

const CAPNP: &str = "crate::serializers::capnp_rs";

/// serbench's words of a name: runs of ASCII letters and digits.
fn words(s: &str) -> Vec<&str> {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

fn upper_first(w: &str) -> String {
    let (first, rest) = w.split_at(1);
    first.to_ascii_uppercase() + rest
}

/// serbench's type name in the .capnp.
fn upper_camel(name: &str) -> String {
    let out: String = words(name).iter().map(|w| upper_first(w)).collect();
    match out.chars().next() {
        None => "T".into(),
        Some(c) if !c.is_ascii_alphabetic() => format!("T{out}"),
        _ => out,
    }
}

/// serbench's field names of one struct in the .capnp, in order.
fn field_names(keys: &[&str]) -> Vec<String> {
    let mut used = BTreeSet::new();
    keys.iter()
        .map(|k| {
            let ws = words(k);
            let mut name = match ws.split_first() {
                None => "field".to_string(),
                Some((first, rest)) => {
                    let (a, b) = first.split_at(1);
                    a.to_ascii_lowercase()
                        + b
                        + &rest.iter().map(|w| upper_first(w)).collect::<String>()
                }
            };
            if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
                name.insert(0, 'f');
            }
            let (base, mut n) = (name.clone(), 1);
            while !used.insert(name.clone()) {
                n += 1;
                name = format!("{base}{n}");
            }
            name
        })
        .collect()
}

/// capnpc's snake case: `_` before every upper-case letter but the first.
fn capnpc_snake(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// capnpc's module of a struct or group: snake case, a Rust keyword with `_` appended.
fn module_name(s: &str) -> String {
    let snake = capnpc_snake(s);
    const KEYWORDS: [&str; 38] = [
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true",
        "type", "unsafe", "use", "where", "while", "gen",
    ];
    if KEYWORDS.contains(&snake.as_str()) {
        snake + "_"
    } else {
        snake
    }
}

/// The code of one value: a statement setting it through builder `b`, an expression
/// reading it through reader `r`, and one folding it into the access rows' sum.
struct Code {
    build: String,
    read: String,
    touch: String,
}

impl Family {
    /// The `Capnp` impls of the family, or why capnpc's code cannot carry it (the first
    /// field path it cannot).
    pub(super) fn capnp_glue(&self) -> Result<String, String> {
        let mut out = String::new();
        let module = match &self.capnp {
            None => format!("crate::capnp_gen::{}_capnp", self.module),
            Some(Ok((_, module))) => module.clone(),
            Some(Err(e)) => return Err(e.clone()),
        };
        for (name, def) in &self.defs {
            let Def::Record(fields) = def else { continue };
            let names = self.rust_fields(fields);
            let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
            let (mut build, mut read, mut touch) = (String::new(), String::new(), String::new());
            let st = format!("{module}::{}", module_name(&upper_camel(name)));
            for (((k, t), f), c) in fields.iter().zip(&names).zip(field_names(&keys)) {
                let c = capnpc_snake(&c);
                let get = format!("r.get_{c}()");
                let code = self
                    .capnp_value(t, "b", &c, &get, &format!("self.{f}"), Some(&st))
                    .map_err(|e| format!("{name}.{k} {e}"))?;
                writeln!(build, "        {}", code.build).unwrap();
                write!(read, " {f}: {},", code.read).unwrap();
                write!(touch, "\n            .wrapping_add({})", code.touch).unwrap();
            }
            let ty = self.ty(&T::Named(name.clone()));
            let read = format!("Self {{{read} }}");
            capnp_impl(&mut out, &ty, &st, &build, &read, &format!("0u64{touch}"));
        }
        for (_, msg) in &self.datasets {
            if matches!(msg, T::Named(_)) {
                continue;
            }
            let (wrapper, field) = self.wrapper();
            let c = capnpc_snake(&field_names(&[field.as_str()])[0]);
            let st = format!("{module}::{}", module_name(&upper_camel(&wrapper)));
            let code = self
                .capnp_value(msg, "b", &c, &format!("r.get_{c}()"), "(*self)", None)
                .map_err(|e| format!("the message {e}"))?;
            let build = format!("        {}\n", code.build);
            capnp_impl(
                &mut out,
                &self.ty(msg),
                &st,
                &build,
                &code.read,
                &code.touch,
            );
        }
        Ok(out)
    }

    /// Field `c` of value `src` (a place) of type `t`, set through builder `b`; `get` yields
    /// what capnpc's getter of the field returns (a union member has none: `which()` yields
    /// it); `st` the module of the struct holding the field (where an optional's union is).
    fn capnp_value(
        &self,
        t: &T,
        b: &str,
        c: &str,
        get: &str,
        src: &str,
        st: Option<&str>,
    ) -> Result<Code, String> {
        let get = get.to_string();
        let code = |build: String, read: String, touch: String| Code { build, read, touch };
        Ok(match t {
            T::Null => code(
                format!("{b}.set_{c}(());"),
                "crate::types::Null".into(),
                "0u64".into(),
            ),
            // serbench's .capnp: a union of `null :Void` and `value :T` in the field's group.
            T::Opt(x) if st.is_some() => {
                let which = format!("{}::{}::Which", st.unwrap_or_default(), module_name(c));
                let v = self
                    .capnp_value(x, "g", "value", "x", "(*x)", None)
                    .map_err(|e| format!("? {e}"))?;
                code(
                    format!(
                        "{{
            let mut g = {b}.reborrow().init_{c}();
            match &{src} {{
                None => g.set_null(()),
                Some(x) => {{
                    {}
                }}
            }}
        }}",
                        v.build
                    ),
                    format!(
                        "{{
            let g = {get};
            match g.which()? {{
                {which}::Null(()) => None,
                {which}::Value(x) => Some({}),
            }}
        }}",
                        v.read
                    ),
                    format!(
                        "{{
            let g = {get};
            match g.which()? {{
                {which}::Null(()) => 0u64,
                {which}::Value(x) => {},
            }}
        }}",
                        v.touch
                    ),
                )
            }
            T::Bool | T::I32 | T::U32 | T::I64 | T::U64 | T::Ts => code(
                format!(
                    "{b}.set_{c}({});",
                    src.trim_start_matches('(').trim_end_matches(')')
                ),
                get.clone(),
                format!("{get} as u64"),
            ),
            T::F32 | T::F64 => code(
                format!(
                    "{b}.set_{c}({});",
                    src.trim_start_matches('(').trim_end_matches(')')
                ),
                get.clone(),
                format!("{get}.to_bits() as u64"),
            ),
            T::Str => code(
                format!("{b}.set_{c}({src}.as_str());"),
                format!("{CAPNP}::text({get}?)?"),
                format!("{CAPNP}::ttext({get}?)?"),
            ),
            T::Bytes => code(
                format!("{b}.set_{c}({src}.as_slice());"),
                format!("{get}?.to_vec()"),
                format!("{get}?.len() as u64"),
            ),
            T::Named(n) => match &self.defs[n] {
                Def::Enum(_) => code(
                    format!("{b}.set_{c}(::core::convert::TryFrom::try_from({src} as u16)?);"),
                    format!(
                        "{}::from_ordinal({get}? as i64).map_err(::capnp::Error::failed)?",
                        self.ty(t)
                    ),
                    format!("{get}? as u64"),
                ),
                Def::Record(_) => {
                    let tr = format!("<{} as {CAPNP}::Capnp>", self.ty(t));
                    code(
                        format!("{tr}::build(&{src}, {b}.reborrow().init_{c}())?;"),
                        format!("{tr}::read({get}?)?"),
                        format!("{tr}::touch({get}?)?"),
                    )
                }
            },
            T::List(x) => {
                let e = self.capnp_element(x)?;
                code(
                    if e.build.is_empty() {
                        format!("{b}.reborrow().init_{c}({src}.len() as u32);")
                    } else {
                        format!(
                            "{{\n            let mut l = {b}.reborrow().init_{c}({src}.len() as u32);\n            for (i, x) in {src}.iter().enumerate() {{\n                {}\n            }}\n        }}",
                            e.build
                        )
                    },
                    if e.read == "x" {
                        format!("{get}?.iter().collect()")
                    } else {
                        format!(
                            "{get}?.iter().map(|x| Ok({})).collect::<::capnp::Result<_>>()?",
                            e.read
                        )
                    },
                    format!(
                        "{{\n            let mut n = 0u64;\n            for x in {get}? {{\n                n = n.wrapping_add({});\n            }}\n            n\n        }}",
                        e.touch
                    ),
                )
            }
            T::Map(x) => {
                let v = self
                    .capnp_value(x, "e", "value", "e.get_value()", "(*x)", None)
                    .map_err(|e| format!("* {e}"))?;
                code(
                    format!(
                        "{{\n            let mut l = {b}.reborrow().init_{c}({src}.len() as u32);\n            for (i, (k, x)) in {src}.iter().enumerate() {{\n                let mut e = l.reborrow().get(i as u32);\n                e.set_key(k.as_str());\n                {}\n            }}\n        }}",
                        v.build
                    ),
                    format!(
                        "{get}?.iter().map(|e| Ok(({CAPNP}::text(e.get_key()?)?, {}))).collect::<::capnp::Result<_>>()?",
                        v.read
                    ),
                    format!(
                        "{{\n            let mut n = 0u64;\n            for e in {get}? {{\n                n = n.wrapping_add({CAPNP}::ttext(e.get_key()?)?).wrapping_add({});\n            }}\n            n\n        }}",
                        v.touch
                    ),
                )
            }
            t => {
                return Err(format!(
                    "is {}: the runner's Cap'n Proto glue does not carry it",
                    super::spell(t)
                ));
            }
        })
    }

    /// A list element `x` (a reference when building, what capnp's list iterator yields
    /// when reading) set at index `i` of list builder `l`.
    fn capnp_element(&self, t: &T) -> Result<Code, String> {
        let code = |build: &str, read: String, touch: &str| Code {
            build: build.to_string(),
            read,
            touch: touch.to_string(),
        };
        Ok(match t {
            // A list of Void holds its length only: nothing to set.
            T::Null => code(
                "",
                "{\n                let () = x;\n                crate::types::Null\n            }"
                    .into(),
                "{\n                let () = x;\n                0u64\n            }",
            ),
            T::Bool | T::I32 | T::U32 | T::I64 | T::U64 | T::Ts => {
                code("l.set(i as u32, *x);", "x".into(), "x as u64")
            }
            T::F32 | T::F64 => code("l.set(i as u32, *x);", "x".into(), "x.to_bits() as u64"),
            T::Str => code(
                "l.set(i as u32, x.as_str());",
                format!("{CAPNP}::text(x?)?"),
                &format!("{CAPNP}::ttext(x?)?"),
            ),
            T::Bytes => code(
                "l.set(i as u32, x.as_slice());",
                "x?.to_vec()".into(),
                "x?.len() as u64",
            ),
            T::Named(n) => match &self.defs[n] {
                Def::Enum(_) => code(
                    "l.set(i as u32, ::core::convert::TryFrom::try_from(*x as u16)?);",
                    format!(
                        "{}::from_ordinal(x? as i64).map_err(::capnp::Error::failed)?",
                        self.ty(t)
                    ),
                    "x? as u64",
                ),
                Def::Record(_) => {
                    let tr = format!("<{} as {CAPNP}::Capnp>", self.ty(t));
                    code(
                        &format!("{tr}::build(x, l.reborrow().get(i as u32))?;"),
                        format!("{tr}::read(x)?"),
                        &format!("{tr}::touch(x)?"),
                    )
                }
            },
            t => {
                return Err(format!(
                    "[*] is {}: the runner's Cap'n Proto glue does not carry it",
                    super::spell(t)
                ));
            }
        })
    }
}

fn capnp_impl(out: &mut String, ty: &str, st: &str, build: &str, read: &str, touch: &str) {
    writeln!(
        out,
        "impl {CAPNP}::Capnp for {ty} {{\n    type Builder<'a> = {st}::Builder<'a>;\n    type Reader<'a> = {st}::Reader<'a>;\n    #[allow(unused_mut)]\n    #[inline]\n    fn build(&self, mut b: Self::Builder<'_>) -> ::capnp::Result<()> {{\n{build}        Ok(())\n    }}\n    #[inline]\n    fn read(r: Self::Reader<'_>) -> ::capnp::Result<Self> {{\n        Ok({read})\n    }}\n    #[inline]\n    fn touch(r: Self::Reader<'_>) -> ::capnp::Result<u64> {{\n        Ok({touch})\n    }}\n}}"
    )
    .unwrap();
}

/// Compiles a user dataset's .capnp (`schemas.capnp` of its dataset.json) with capnpc into
/// `out/capnp/<module>/`: the `include!` path of capnpc's code and the Rust path of its
/// module (`crate::model::<module>::capnp_gen::<stem>_capnp`), or why the Cap'n Proto rows
/// cannot run on the dataset (serbench's reason, or capnp's first error line).
pub(super) fn user_capnp(
    fam: &Family,
    folder: &Path,
    meta: &J,
    capnp: &str,
    out: &Path,
) -> Result<(String, String), String> {
    let path = super::registered_schema(folder, meta, "capnp", ("Cap'n Proto", "capnproto"))?;
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    let [(_, T::Named(_))] = fam.datasets.as_slice() else {
        return Err("the runner's Cap'n Proto glue carries a record message only; this dataset's message is carried by a wrapper struct".into());
    };
    let dir = out.join("capnp").join(&fam.module);
    fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut cmd = capnpc::CompilerCommand::new();
    cmd.capnp_executable(capnp)
        .output_path(&dir)
        .src_prefix(folder)
        .file(&path)
        .default_parent_module(vec!["model".into(), fam.module.clone(), "capnp_gen".into()]);
    if let Err(e) = cmd.run() {
        let e = e.to_string();
        let first = e.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed");
        return Err(format!("capnp cannot compile {file}: {first}"));
    }
    let stem = path.file_stem().unwrap().to_string_lossy();
    Ok((
        format!("/capnp/{}/{stem}_capnp.rs", fam.module),
        format!("crate::model::{}::capnp_gen::{stem}_capnp", fam.module),
    ))
}

impl Family {
    /// A user dataset's capnpc code, as a module of the dataset's model.
    pub(super) fn emit_capnp_module(&self, out: &mut String) {
        let Some(Ok((include, module))) = &self.capnp else {
            return;
        };
        let stem = module.rsplit("::").next().unwrap_or_default();
        writeln!(
            out,
            "#[allow(clippy::all, clippy::pedantic, dead_code, unused_imports, non_snake_case, non_camel_case_types, unused_parens)]\npub mod capnp_gen {{\n    pub mod {stem} {{\n        include!(concat!(env!(\"OUT_DIR\"), {include:?}));\n    }}\n}}"
        )
        .unwrap();
    }
}
