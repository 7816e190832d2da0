//! serbench's Rust runner: protocol v2 (docs/runner-protocol.md) over the Rust
//! serializer libraries. One module per library under `serializers`, one registry line
//! per library in `registry`.

pub mod alloc;
pub mod avro_container;
pub mod canonical;
pub mod cell;
pub mod codec;
pub mod compress;
pub mod entry;
pub mod footprint;
pub mod generated;
#[macro_use]
pub mod model;
pub mod registry;
pub mod serializers;
pub mod serve;
pub mod transport;
pub mod types;
pub mod untrusted;
pub mod user;
pub mod views;

pub mod build_info {
    include!(concat!(env!("OUT_DIR"), "/versions.rs"));
}

/// capnpc, from datasets/*/*.capnp (the generated code names itself `crate::capnp_gen`).
#[allow(clippy::all, clippy::pedantic, dead_code, unused_imports)]
pub mod capnp_gen {
    // `<stem>_capnp` per built-in dataset, listed by build.rs.
    include!(concat!(env!("OUT_DIR"), "/capnp_modules.rs"));
}
