//! One module per library. Each exposes `entries()`, the rows it adds to the registry.

pub mod apache_avro_rs;
pub mod baselines;
pub mod bincode_rs;
pub mod bitcode_rs;
pub mod borsh_rs;
pub mod bson_rs;
pub mod capnp_rs;
pub mod ciborium_rs;
pub mod flatbuffers_rs;
pub mod flexbuffers_rs;
pub mod handwritten;
pub mod postcard_rs;
pub mod prost_reflect_rs;
pub mod prost_rs;
pub mod rkyv_rs;
pub mod rmp_serde_rs;
pub mod serde_json_rs;
pub mod simd_json_rs;
pub mod sonic_rs_rs;
pub mod speedy_rs;
