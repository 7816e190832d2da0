//! Generates, into OUT_DIR: the crate versions from Cargo.lock, the compiler version,
//! and the schema code of every built-in dataset (prost from the .proto files,
//! capnpc from the .capnp files), and the typed model of every dataset (codegen/model.rs;
//! it runs flatc on each dataset's .fbs, codegen/fbs.rs, and capnpc and prost-build on each
//! registered user dataset's .capnp and .proto, codegen/capnp.rs and prost.rs).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

#[path = "codegen/model.rs"]
mod model;

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let datasets = root
        .join("../../datasets")
        .canonicalize()
        .expect("../../datasets");
    println!("cargo:rerun-if-changed={}", datasets.display());
    println!("cargo:rerun-if-changed=Cargo.lock");

    versions(&root, &out);
    let schemas = schemas_dir(&root);
    model::generate(&root, &schemas, &out);
    footprint_crates(&root, &out);
    let builtins = builtins(&datasets, &schemas);
    schema_modules(&builtins, &out);
    protos(&builtins, &schemas);
    avscs(&builtins, &schemas, &out);
    capnps(&builtins, &schemas, &out);
}

/// The built-in datasets (the folders of datasets/ with a types.json) and the file stem of
/// the schemas `serbench build` wrote for each (its .proto's), so that no dataset is named
/// here: a new built-in is picked up from its types.json.
fn builtins(datasets: &Path, schemas: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = fs::read_dir(datasets)
        .expect("datasets")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("types.json").is_file())
        .map(|p| {
            let d = p.file_name().unwrap().to_string_lossy().to_string();
            let proto = fs::read_dir(schemas.join(&d))
                .unwrap_or_else(|e| panic!("{d}: no schemas ({e}): run `serbench build -r rust`"))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .find(|f| f.extension().is_some_and(|x| x == "proto"))
                .unwrap_or_else(|| panic!("{d}: no .proto: run `serbench build -r rust`"));
            let stem = proto.file_stem().unwrap().to_string_lossy().to_string();
            (d, stem)
        })
        .collect();
    v.sort();
    v
}

/// The `include!`s of the generated schema code, one module per built-in dataset:
/// `crate::generated::pb::<stem>` (schema_modules.rs) and
/// `crate::capnp_gen::<stem>_capnp` (capnp_modules.rs, where capnpc's code names itself).
fn schema_modules(builtins: &[(String, String)], out: &Path) {
    let mut pb = String::new();
    let mut capnp = String::new();
    for (_, f) in builtins {
        pb.push_str(&format!(
            "    pub mod {f} {{\n        include!(concat!(env!(\"OUT_DIR\"), \"/serbench.{f}.rs\"));\n    }}\n"
        ));
        capnp.push_str(&format!(
            "pub mod {f}_capnp {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{f}_capnp.rs\"));\n}}\n"
        ));
    }
    let code =
        format!("/// prost, from the built-in datasets' .proto files.\npub mod pb {{\n{pb}}}\n");
    fs::write(out.join("schema_modules.rs"), code).unwrap();
    fs::write(out.join("capnp_modules.rs"), capnp).unwrap();
}

fn versions(root: &Path, out: &Path) {
    let lock = fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let mut arms = String::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_string());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            arms.push_str(&format!("        {n:?} => {v},\n"));
        }
    }
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let rustc_version = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|_| "rustc".into());
    let details = format!(
        "profile={} opt-level={} target={} codegen-units=16 lto=off panic=unwind debug=off \
         target-cpu=generic; global allocator: the system malloc behind a counting wrapper",
        env::var("PROFILE").unwrap_or_default(),
        env::var("OPT_LEVEL").unwrap_or_default(),
        env::var("TARGET").unwrap_or_default(),
    );
    let code = format!(
        "/// The version Cargo.lock resolved for a crate.\n\
         #[allow(unreachable_patterns)]\n\
         pub fn crate_version(name: &str) -> &'static str {{\n    match name {{\n{arms}        _ => \"unknown\",\n    }}\n}}\n\
         pub const RUSTC_VERSION: &str = {rustc_version:?};\n\
         pub const BUILD_DETAILS: &str = {details:?};\n"
    );
    fs::write(out.join("versions.rs"), code).unwrap();
}

/// For each direct dependency, the crates it brings into the binary that nothing else
/// the runner links brings: itself plus the crates reachable only through it in
/// Cargo.lock's graph (build dependencies left out: they do not link). `footprint_bytes`
/// adds up these crates' symbols.
fn footprint_crates(root: &Path, out: &Path) {
    use std::collections::{BTreeMap, BTreeSet};
    let lock = fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for block in lock.split("[[package]]") {
        let Some(name) = block
            .lines()
            .find_map(|l| l.strip_prefix("name = "))
            .map(|n| n.trim_matches('"').to_string())
        else {
            continue;
        };
        let list = block
            .split_once("dependencies = [")
            .map(|(_, rest)| rest.split(']').next().unwrap_or(""))
            .unwrap_or("");
        let entry = deps.entry(name).or_default();
        for d in list.split(',') {
            let d = d.trim().trim_matches('"');
            if let Some(n) = d.split_whitespace().next() {
                entry.insert(n.to_string());
            }
        }
    }
    let closure = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![start.to_string()];
        while let Some(c) = todo.pop() {
            if seen.insert(c.clone()) {
                todo.extend(deps.get(&c).into_iter().flatten().cloned());
            }
        }
        seen
    };
    let build_only = ["capnpc", "prost-build"];
    let direct: Vec<String> = deps
        .get(env!("CARGO_PKG_NAME"))
        .into_iter()
        .flatten()
        .filter(|d| !build_only.contains(&d.as_str()))
        .cloned()
        .collect();
    let closures: Vec<BTreeSet<String>> = direct.iter().map(|d| closure(d)).collect();
    let mut arms = String::new();
    for (i, d) in direct.iter().enumerate() {
        let mine: Vec<String> = closures[i]
            .iter()
            .filter(|c| {
                *c == d
                    || closures
                        .iter()
                        .enumerate()
                        .all(|(j, o)| j == i || !o.contains(*c))
            })
            .map(|c| c.replace('-', "_"))
            .collect();
        arms.push_str(&format!("        {d:?} => &{mine:?},\n"));
    }
    let code = format!(
        "/// The crates (symbol-path names) a library brings into the binary alone.\n\
         pub fn footprint_crates(library: &str) -> &'static [&'static str] {{\n    match library {{\n{arms}        _ => &[],\n    }}\n}}\n"
    );
    fs::write(out.join("footprint.rs"), code).unwrap();
}

/// The built-in datasets' schemas, generated from datasets/*/types.json by `serbench build`,
/// which passes their folder as SERBENCH_SCHEMAS_DIR.
fn schemas_dir(root: &Path) -> PathBuf {
    println!("cargo:rerun-if-env-changed=SERBENCH_SCHEMAS_DIR");
    let dir = env::var_os("SERBENCH_SCHEMAS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../../.serbench/gen/schemas"));
    let Ok(dir) = dir.canonicalize() else {
        panic!(
            "no generated schemas in {}: run `serbench build -r rust`",
            dir.display()
        );
    };
    println!("cargo:rerun-if-changed={}", dir.display());
    dir
}

// Every schema compiler is called by its path whatever PATH holds (model::PROTOC, model::CAPNP,
// fbs::FLATC).
use model::{CAPNP, PROTOC};

fn protos(builtins: &[(String, String)], schemas: &Path) {
    let files: Vec<PathBuf> = builtins
        .iter()
        .map(|(d, f)| schemas.join(d).join(format!("{f}.proto")))
        .collect();
    let includes: Vec<PathBuf> = builtins.iter().map(|(d, _)| schemas.join(d)).collect();
    prost_build::Config::new()
        .protoc_executable(PROTOC)
        .compile_protos(&files, &includes)
        .expect("prost-build (needs protoc)");
}

/// The .avsc files, copied into OUT_DIR for apache-avro's rows to embed (`include_str!`).
fn avscs(builtins: &[(String, String)], schemas: &Path, out: &Path) {
    for (d, f) in builtins {
        let dir = out.join("avsc").join(d);
        fs::create_dir_all(&dir).unwrap();
        let name = format!("{f}.avsc");
        fs::copy(schemas.join(d).join(&name), dir.join(&name))
            .unwrap_or_else(|e| panic!("{d}/{name}: {e}"));
    }
}

fn capnps(builtins: &[(String, String)], schemas: &Path, out: &Path) {
    let mut cmd = capnpc::CompilerCommand::new();
    cmd.capnp_executable(CAPNP);
    cmd.output_path(out);
    for (d, f) in builtins {
        cmd.src_prefix(schemas.join(d));
        cmd.file(schemas.join(d).join(format!("{f}.capnp")));
    }
    cmd.default_parent_module(vec!["capnp_gen".into()]);
    cmd.run().expect("capnpc (needs the capnp compiler)");
}
