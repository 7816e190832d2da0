//! What a library implements for one native type, and the dataset as the prepare command
//! names it: the two things a serializer module sees of a cell.

use std::hint::black_box;

use crate::types::Res;

/// What a library implements for one native type `T`. Encoders append to `out`.
/// `i` is the index of the dataset item being encoded or decoded (only the baselines
/// use it).
pub trait Codec<T>: 'static {
    /// Called first with the prepare command's dataset.
    fn source(&mut self, _src: &Source) -> Res<()> {
        Ok(())
    }
    /// Called once with the dataset's items before anything else; an error starting
    /// with `not applicable: ` says the library cannot represent them.
    fn prepare(&mut self, _items: &[T]) -> Res<()> {
        Ok(())
    }
    fn encode(&mut self, i: usize, v: &T, out: &mut Vec<u8>) -> Res<()>;
    /// Full decode into the native type (what the check compares).
    fn decode(&mut self, i: usize, bytes: &[u8]) -> Res<T>;
    /// The timed decode: by default the full decode, its result through the sink.
    /// Rows that borrow or access in place override it.
    #[inline]
    fn decode_sink(&mut self, i: usize, bytes: &[u8]) -> Res<()> {
        black_box(self.decode(i, bytes)?);
        Ok(())
    }
    /// Self-delimiting encodings are concatenated in streams without a length prefix;
    /// `decode_front` then returns the value and the bytes it used.
    fn self_delimiting(&self) -> bool {
        false
    }
    fn decode_front(&mut self, _i: usize, _bytes: &[u8]) -> Res<(T, usize)> {
        Err("not self-delimiting".into())
    }
    #[inline]
    fn decode_front_sink(&mut self, i: usize, bytes: &[u8]) -> Res<usize> {
        let (v, n) = self.decode_front(i, bytes)?;
        black_box(v);
        Ok(n)
    }
}

/// The dataset as the prepare command names it.
pub struct Source<'a> {
    pub data: &'a str,
    pub check_data: &'a str,
    pub decode_from: Option<&'a str>,
    /// A user dataset's types file.
    pub types: Option<&'a str>,
    /// A user dataset's `schemas` object (protocol section 7).
    pub schemas: Option<&'a serde_json::Value>,
}
