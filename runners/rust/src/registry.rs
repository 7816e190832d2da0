//! Every serializer the runner lists: one line per library.

use crate::entry::Entry;
use crate::serializers::*;

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
