//! `footprint_bytes`: what a library adds to this statically linked binary, from the
//! binary's own symbol table (`nm --size-sort -C`): the sizes of the code and data symbols
//! whose path belongs to the library's crate or to a crate only it brings in (build.rs
//! works those out from Cargo.lock). Library code inlined into the runner's own functions
//! is counted as the runner's, so the figure is a lower bound.

use std::collections::HashMap;
use std::process::Command;
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/footprint.rs"));

/// The crates of the standard library, looked through to the type a symbol serves
/// (`core::ptr::drop_in_place<apache_avro::types::Value>` is apache-avro's).
const STD: [&str; 3] = ["core", "alloc", "std"];

/// The crate a demangled symbol belongs to: the first path that is not the standard
/// library's, else `std`.
pub fn crate_of(symbol: &str) -> &str {
    let b = symbol.as_bytes();
    let mut first_std = None;
    let mut i = 0;
    while i < b.len() {
        let starts = i == 0 || matches!(b[i - 1], b'<' | b' ' | b'&' | b'(' | b'[' | b',' | b'*');
        if starts && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
            let end = i + b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            if symbol[end..].starts_with("::") {
                let name = &symbol[i..end];
                if !STD.contains(&name) {
                    return name;
                }
                first_std.get_or_insert(name);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    first_std.unwrap_or("std")
}

/// Bytes of symbols per crate in the running binary; `None` if `nm` cannot read it.
fn by_crate() -> Option<&'static HashMap<String, u64>> {
    static SIZES: OnceLock<Option<HashMap<String, u64>>> = OnceLock::new();
    SIZES
        .get_or_init(|| {
            let exe = std::env::current_exe().ok()?;
            let out = Command::new("nm")
                .args(["--size-sort", "-C", "--defined-only"])
                .arg(exe)
                .output()
                .ok()
                .filter(|o| o.status.success())?;
            let mut sizes = HashMap::new();
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let mut parts = line.splitn(3, ' ');
                let (Some(size), Some(_kind), Some(name)) =
                    (parts.next(), parts.next(), parts.next())
                else {
                    continue;
                };
                if let Ok(n) = u64::from_str_radix(size, 16) {
                    *sizes.entry(crate_of(name).to_string()).or_insert(0) += n;
                }
            }
            (!sizes.is_empty()).then_some(sizes)
        })
        .as_ref()
}

/// The library's footprint in bytes: 0 for the runner's own rows, `None` when the binary
/// has no symbol table (stripped) or `nm` is missing.
pub fn footprint_bytes(library: &str) -> Option<u64> {
    if library == "serbench" {
        return Some(0);
    }
    let sizes = by_crate()?;
    // A crate the runner names directly but only as part of a library (rmp-serde's
    // seed layout writes S2's bare string with rmp).
    let companion: &[&str] = match library {
        "rmp-serde" => &["rmp"],
        _ => &[],
    };
    Some(
        std::iter::once(library)
            .chain(companion.iter().copied())
            .flat_map(footprint_crates)
            .map(|c| sizes.get(*c).copied().unwrap_or(0))
            .sum(),
    )
}
