//! Every serializer the runner lists: one line per library.

use crate::build_info::crate_version;
use crate::cell::CellOps;
use crate::serializers::*;
use crate::types::{Ds, Res};

pub struct Entry {
    pub name: &'static str,
    pub format: &'static str,
    /// The crate (`None` for the runner's own code).
    pub library: &'static str,
    pub labels: &'static [&'static str],
    /// A fresh, unprepared cell of this serializer on a dataset, or why it cannot
    /// represent it.
    pub make: fn(Ds) -> Res<Box<dyn CellOps>>,
    /// A fresh cell on a user dataset (the generic value tree), or why not.
    pub user: Result<fn() -> Box<dyn CellOps>, &'static str>,
}

pub const NOT_SELF_DESCRIBING: &str = "not self-describing: it decodes only into Rust types known at \
     compile time, and user datasets have no generated Rust types (use a schemaless format)";
pub const BORROWED_ROW: &str = "borrowed rows decode into the built-in datasets' borrowed types; on \
     user datasets use the owned row (the generic value tree owns its strings)";
pub const NO_USER_SCHEMA: &str = "serbench does not generate this schema kind for user datasets";
pub const CAPNP_NO_RUNTIME_SCHEMA: &str = "capnproto: the Rust capnp crate cannot load a schema at \
     run time (its reflection API needs schemas compiled into the program, capnproto-rust issue \
     #543), so it cannot read the user dataset's .capnp; use cpp/capnproto-dynamic (capnp \
     SchemaParser + DynamicStruct)";

impl Entry {
    pub fn version(&self) -> &'static str {
        match crate_version(self.library) {
            "unknown" => env!("CARGO_PKG_VERSION"),
            v => v,
        }
    }
}

pub fn registry() -> Vec<Entry> {
    let mut v = Vec::new();
    v.extend(baselines::entries());
    v.extend(handwritten::entries());
    v.extend(serde_json_rs::entries());
    v.extend(rmp_serde_rs::entries());
    v.extend(simd_json_rs::entries());
    v.extend(sonic_rs_rs::entries());
    v.extend(ciborium_rs::entries());
    v.extend(bson_rs::entries());
    v.extend(prost_rs::entries());
    v.extend(prost_reflect_rs::entries());
    v.extend(bincode_rs::entries());
    v.extend(postcard_rs::entries());
    v.extend(borsh_rs::entries());
    v.extend(speedy_rs::entries());
    v.extend(bitcode_rs::entries());
    v.extend(apache_avro_rs::entries());
    v.extend(rkyv_rs::entries());
    v.extend(flatbuffers_rs::entries());
    v.extend(flexbuffers_rs::entries());
    v.extend(capnp_rs::entries());
    v
}
