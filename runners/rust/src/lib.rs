//! serbench's Rust runner: protocol v2 (docs/runner-protocol.md) over the Rust
//! serializer libraries. One module per library under `serializers`, one registry line
//! per library in `registry`.

pub mod alloc;
pub mod cell;
pub mod compress;
pub mod generated;
pub mod registry;
pub mod serializers;
pub mod serve;
pub mod types;

pub mod build_info {
    include!(concat!(env!("OUT_DIR"), "/versions.rs"));
}
