//! The layouts some rows write instead of the serde derives' (their adaptors are in
//! src/views.rs): per record or enum a layout writes differently, a serde `remote` mirror
//! of the native type, in a module named after the layout, and per message type the
//! adaptor the row uses (`crate::views::Derived` when the layout changes nothing in it).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{Def, Family, T};

#[derive(Clone, Copy, PartialEq)]
pub enum Layout {
    /// rmp-serde's positional rows: a record of one field is that field's bare value (the
    /// convention the runners share: S2's string message is a bare string).
    Positional,
    /// flexbuffers: enums by their symbol.
    Symbols,
}

impl Layout {
    fn module(self) -> &'static str {
        match self {
            Layout::Positional => "positional",
            Layout::Symbols => "symbols",
        }
    }
    /// Whether the layout writes a named type itself differently from its derive.
    fn changes_def(self, def: &Def) -> bool {
        match (self, def) {
            (Layout::Positional, Def::Record(fields)) => fields.len() == 1,
            (Layout::Symbols, Def::Enum(_)) => true,
            _ => false,
        }
    }
}

/// `Path<A>` as an expression (`Path::<A>`), for `with = "..."`.
fn expr(ty: &str) -> String {
    ty.replacen('<', "::<", 1)
}

impl Family {
    /// Whether the layout writes a value of `t` differently from the derives.
    pub fn changes(&self, layout: Layout, t: &T) -> bool {
        fn walk(f: &Family, layout: Layout, t: &T, seen: &mut BTreeSet<String>) -> bool {
            match t {
                T::List(x) | T::Map(x) | T::Opt(x) => walk(f, layout, x, seen),
                T::Named(n) if seen.insert(n.clone()) => {
                    let def = &f.defs[n];
                    layout.changes_def(def)
                        || match def {
                            Def::Record(fields) => {
                                fields.iter().any(|(_, t)| walk(f, layout, t, seen))
                            }
                            Def::Enum(_) => false,
                        }
                }
                _ => false,
            }
        }
        walk(self, layout, t, &mut BTreeSet::new())
    }

    /// The adaptor that writes and reads `t` in the layout (`borrowed`: its borrowed
    /// mirror), or None where the derive does.
    pub fn adaptor(&self, layout: Layout, t: &T, borrowed: bool) -> Option<String> {
        if !self.changes(layout, t) {
            return None;
        }
        // A type that borrows nothing is its own borrowed mirror.
        let borrowed = borrowed && self.borrows(t);
        let inner = |x: &T| self.adaptor(layout, x, borrowed).unwrap();
        Some(match t {
            T::List(x) => format!("crate::views::VecOf<{}>", inner(x)),
            T::Opt(x) => format!("crate::views::OptOf<{}>", inner(x)),
            T::Map(x) => format!("crate::views::MapOf<{}>", inner(x)),
            T::Named(n) if borrowed => format!(
                "crate::model::{}::{}_ref::{}<'a>",
                self.module,
                layout.module(),
                self.idents[n]
            ),
            T::Named(n) => format!(
                "crate::model::{}::{}::{}",
                self.module,
                layout.module(),
                self.idents[n]
            ),
            _ => unreachable!("only named types are changed"),
        })
    }

    /// The mirrors of every named type each layout changes.
    pub fn emit_views(&self, out: &mut String) {
        for layout in [Layout::Positional, Layout::Symbols] {
            let changed: Vec<&String> = self
                .defs
                .keys()
                .filter(|n| self.changes(layout, &T::Named(n.to_string())))
                .collect();
            if changed.is_empty() {
                continue;
            }
            writeln!(out, "pub mod {} {{", layout.module()).unwrap();
            for n in &changed {
                match &self.defs[*n] {
                    Def::Record(fields) => self.emit_mirror(out, layout, n, fields),
                    Def::Enum(symbols) => self.emit_enum_mirror(out, n, symbols),
                }
            }
            out.push_str("}\n");
            if layout == Layout::Positional {
                // The borrowed rows read the borrowed mirrors (`XRef<'a>`) the same way.
                writeln!(out, "pub mod {}_ref {{", layout.module()).unwrap();
                for n in changed
                    .iter()
                    .filter(|n| self.borrows(&T::Named(n.to_string())))
                {
                    let Def::Record(fields) = &self.defs[*n] else {
                        continue;
                    };
                    self.emit_ref_mirror(out, layout, n, fields);
                }
                out.push_str("}\n");
            }
        }
    }

    fn emit_mirror(&self, out: &mut String, layout: Layout, name: &str, fields: &[(String, T)]) {
        let id = &self.idents[name];
        let bare = layout == Layout::Positional && fields.len() == 1;
        let transparent = if bare { ", transparent" } else { "" };
        writeln!(
            out,
            "#[derive(::serde::Serialize, ::serde::Deserialize)]\n#[serde(remote = \"super::{id}\"{transparent})]\npub struct {id} {{"
        )
        .unwrap();
        for ((k, t), f) in fields.iter().zip(self.rust_fields(fields)) {
            let mut attrs = Vec::new();
            if !bare {
                attrs.push(format!("rename = {k:?}"));
            }
            if let Some(a) = self.adaptor(layout, t, false) {
                attrs.push(format!("with = {:?}", expr(&a)));
            }
            if !attrs.is_empty() {
                writeln!(out, "    #[serde({})]", attrs.join(", ")).unwrap();
            }
            writeln!(out, "    pub {f}: {},", self.ty(t)).unwrap();
        }
        out.push_str("}\n");
        self.emit_via(out, id);
    }

    fn emit_ref_mirror(
        &self,
        out: &mut String,
        layout: Layout,
        name: &str,
        fields: &[(String, T)],
    ) {
        let id = &self.idents[name];
        let bare = layout == Layout::Positional && fields.len() == 1;
        let transparent = if bare { ", transparent" } else { "" };
        writeln!(
            out,
            "#[derive(::serde::Deserialize)]\n#[serde(remote = \"super::{id}Ref\"{transparent})]\npub struct {id}<'a> {{"
        )
        .unwrap();
        for ((k, t), f) in fields.iter().zip(self.rust_fields(fields)) {
            let mut attrs = Vec::new();
            if !bare {
                attrs.push(format!("rename = {k:?}"));
            }
            if self.borrows(t) {
                attrs.push("borrow".to_string());
            }
            if let Some(a) = self.adaptor(layout, t, true) {
                attrs.push(format!("deserialize_with = \"{}::deserialize\"", expr(&a)));
            }
            if !attrs.is_empty() {
                writeln!(out, "    #[serde({})]", attrs.join(", ")).unwrap();
            }
            writeln!(out, "    pub {f}: {},", self.ref_ty(t)).unwrap();
        }
        out.push_str("}\n");
        writeln!(
            out,
            "impl<'de: 'a, 'a> crate::views::ViaDe<'de, super::{id}Ref<'a>> for {id}<'a> {{\n    #[inline]\n    fn de<D: ::serde::Deserializer<'de>>(d: D) -> Result<super::{id}Ref<'a>, D::Error> {{\n        {id}::deserialize(d)\n    }}\n}}"
        )
        .unwrap();
    }

    fn emit_enum_mirror(&self, out: &mut String, name: &str, symbols: &[String]) {
        let id = &self.idents[name];
        writeln!(
            out,
            "#[derive(::serde::Serialize, ::serde::Deserialize)]\n#[serde(remote = \"super::{id}\")]\npub enum {id} {{"
        )
        .unwrap();
        for (s, v) in symbols.iter().zip(super::variants(symbols)) {
            writeln!(out, "    #[serde(rename = {s:?})]\n    {v},").unwrap();
        }
        out.push_str("}\n");
        self.emit_via(out, id);
    }

    fn emit_via(&self, out: &mut String, id: &str) {
        writeln!(
            out,
            "impl crate::views::Via<super::{id}> for {id} {{\n    #[inline]\n    fn ser<S: ::serde::Serializer>(v: &super::{id}, s: S) -> Result<S::Ok, S::Error> {{\n        {id}::serialize(v, s)\n    }}\n}}\nimpl<'de> crate::views::ViaDe<'de, super::{id}> for {id} {{\n    #[inline]\n    fn de<D: ::serde::Deserializer<'de>>(d: D) -> Result<super::{id}, D::Error> {{\n        {id}::deserialize(d)\n    }}\n}}"
        )
        .unwrap();
    }

    /// Per message type: the adaptors of rmp-serde's positional rows and flexbuffers.
    pub fn emit_message_layouts(&self, out: &mut String, ty: &str, message: &T) {
        let derived = || "crate::views::Derived".to_string();
        let pos = self.adaptor(Layout::Positional, message, false);
        let pos_ref = self.adaptor(Layout::Positional, message, true);
        let symbols = self.adaptor(Layout::Symbols, message, false);
        writeln!(
            out,
            "impl crate::serializers::rmp_serde_rs::Positional for {ty} {{\n    type Pos = {};\n    type PosRef<'a> = {};\n}}\nimpl crate::serializers::flexbuffers_rs::Symbols for {ty} {{\n    type Layout = {};\n}}",
            pos.unwrap_or_else(derived),
            pos_ref.unwrap_or_else(derived),
            symbols.unwrap_or_else(derived),
        )
        .unwrap();
    }
}
