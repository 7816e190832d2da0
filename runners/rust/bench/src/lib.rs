//! Criterion versions of serbench cells: see benches/cells.rs.
