//! One module per library. Each exposes `entries()`, the rows it adds to the registry.

/// A `make` function for a codec that handles every built-in dataset.
#[macro_export]
macro_rules! every_dataset {
    ($make:expr) => {
        |ds: $crate::types::Ds| -> $crate::types::Res<Box<dyn $crate::cell::CellOps>> {
            use $crate::cell::cell;
            use $crate::types::*;
            Ok(match ds {
                Ds::Users => cell::<Users, _>($make),
                Ds::Test1 => cell::<Test1, _>($make),
                Ds::Test2 => cell::<Test2, _>($make),
                Ds::Test3 => cell::<Test3, _>($make),
                Ds::Test4 => cell::<Test4, _>($make),
                Ds::Dict => cell::<Dict, _>($make),
                Ds::Clicks => cell::<ClickMap, _>($make),
                Ds::Logs => cell::<Logs, _>($make),
            })
        }
    };
}

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
