//! The typed model build.rs generates from every dataset's types.json (codegen/model.rs):
//! one module per types file with its records and enums, `Ds` (one variant per dataset),
//! `BUILTIN`, `USER` and the `every_dataset!` dispatch. Nothing here is per dataset.

#![allow(clippy::all, clippy::pedantic, non_camel_case_types)]

include!(concat!(env!("OUT_DIR"), "/model.rs"));

#[path = "../codegen/sha256.rs"]
mod sha256;

/// A built-in dataset by name.
pub fn builtin(name: &str) -> Option<Ds> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, d)| *d)
}

/// The typed model of a user dataset whose types file (as `prepare` names it) is the
/// one the runner was built with; otherwise why its typed rows cannot run.
pub fn user(name: &str, types: Option<&str>) -> Result<Ds, String> {
    let not_built = "typed model not built for this dataset's types: run `serbench build -r rust`";
    let Some((_, ds, sha)) = USER.iter().find(|(n, _, _)| *n == name) else {
        return Err(not_built.into());
    };
    let types = types.ok_or("a user dataset needs its types file")?;
    let text = std::fs::read(types).map_err(|e| format!("{types}: {e}"))?;
    if sha256::sha256_hex(&text) != *sha {
        return Err(not_built.into());
    }
    Ok(*ds)
}
