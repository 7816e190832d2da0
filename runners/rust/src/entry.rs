//! One row of the runner's list: what `describe` says of a serializer and how to make its
//! cells. Every serializer module builds its rows; `registry` lists them.

use crate::build_info::crate_version;
use crate::cell::CellOps;
use crate::model::{BUILTIN, Ds};
use crate::types::Res;

pub struct Entry {
    pub name: &'static str,
    pub format: &'static str,
    /// The crate (`None` for the runner's own code).
    pub library: &'static str,
    pub labels: &'static [&'static str],
    /// A fresh, unprepared cell of this serializer on a dataset of the generated model,
    /// or why it cannot represent it.
    pub make: fn(Ds) -> Res<Box<dyn CellOps>>,
    /// Whether `make` takes user datasets (through their generated model, once built for
    /// the dataset's types).
    pub typed: bool,
    /// A fresh cell on a user dataset through the generic value tree, or why not.
    pub user: Result<fn() -> Box<dyn CellOps>, &'static str>,
}

pub const TYPED_ROW: &str = "a typed row: user datasets run through their generated model";

/// `make` of a row that runs on user datasets only.
pub fn user_only(_: Ds) -> Res<Box<dyn CellOps>> {
    Err("user datasets only: the built-in datasets run on the typed row of the same library".into())
}

/// The label of a row whose stream messages are concatenated without a length prefix
/// (protocol section 6).
pub const STREAM_CONCATENATED: &str = "stream-concatenated";

impl Entry {
    /// The labels `describe` lists: the declared ones, plus `stream-concatenated` when the
    /// row's codec is self-delimiting (the same flag its stream framing follows).
    pub fn labels(&self) -> Vec<&'static str> {
        let mut labels = self.labels.to_vec();
        if self.self_delimiting() {
            labels.push(STREAM_CONCATENATED);
        }
        labels
    }

    /// Asks the row's cells (built-in datasets, else the generic user row): making one
    /// loads nothing.
    fn self_delimiting(&self) -> bool {
        let builtin = BUILTIN.iter().filter_map(|(_, ds)| (self.make)(*ds).ok());
        let user = self.user.ok().map(|make| make());
        builtin.chain(user).any(|cell| cell.self_delimiting())
    }

    pub fn version(&self) -> &'static str {
        match crate_version(self.library) {
            "unknown" => env!("CARGO_PKG_VERSION"),
            v => v,
        }
    }
}
