//! The FlatBuffers glue generator (codegen/fbs.rs, run by build.rs): its unit tests, run
//! here because cargo does not test a build script's modules.

#[allow(dead_code)]
#[path = "../codegen/model.rs"]
mod model;
