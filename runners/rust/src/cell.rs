//! One prepared cell: a serializer on a dataset. Framing (section 6 of the protocol),
//! the round-trip check, sizes, and the timed operation bodies.

use std::hint::black_box;

pub use crate::codec::{Codec, Source};
use crate::compress::{CODECS, Codec as Compression, Compressors};
use crate::types::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Encode,
    Decode,
    EncodeC(Compression),
    CDecode(Compression),
}

impl Op {
    pub fn parse(s: &str) -> Option<Op> {
        match s {
            "encode" => Some(Op::Encode),
            "decode" => Some(Op::Decode),
            _ => {
                if let Some(c) = s.strip_prefix("encode+") {
                    Compression::parse(c).map(Op::EncodeC)
                } else if let Some(c) = s.strip_suffix("+decode") {
                    Compression::parse(c).map(Op::CDecode)
                } else {
                    None
                }
            }
        }
    }
}

/// An error that starts with `not applicable: ` is that status; others are `as_other`.
fn classify(e: String, as_other: fn(String) -> PrepareError) -> PrepareError {
    match e.strip_prefix("not applicable: ") {
        Some(r) => PrepareError::NotApplicable(r.to_string()),
        None => as_other(e),
    }
}

/// Whether a prepare checks the round trip (the prepare command's `verify`).
#[derive(Debug, Clone, Copy)]
pub enum Verify<'a> {
    /// Decode, compare with the check data, and measure every codec's size.
    Check,
    /// An earlier process of the run checked this cell and holds its sizes, so checking
    /// again would only delay the measuring: encode once, and compress only the inputs
    /// of the `c+decode` among these operations.
    Skip(&'a [Op]),
}

/// The outcome of a prepare that got as far as a check.
pub struct Prepared {
    /// `true`, with an empty detail, when the prepare skipped the check.
    pub check_ok: bool,
    pub detail: String,
    pub messages: usize,
    pub sizes: Vec<(&'static str, usize)>,
}

pub enum PrepareError {
    BadData(String),
    NotApplicable(String),
    Exception(String),
}

/// A cell with its types erased, as the serve loop holds it.
pub trait CellOps {
    fn prepare(&mut self, src: &Source, verify: Verify) -> Result<Prepared, PrepareError>;
    fn run(&mut self, op: Op, iterations: u64) -> Res<()>;
    /// The bytes the check decoded (for `dump_path`).
    fn encoded(&self) -> &[u8];
    /// One encode of the whole dataset into `out` (transport).
    fn encode_once(&mut self, out: &mut Vec<u8>) -> Res<()>;
    /// One timed-style decode of `bytes` (transport).
    fn decode_once(&mut self, bytes: &[u8]) -> Res<()>;
    /// Decodes `bytes` and compares them with the dataset (transport, outside timing).
    fn check_bytes(&mut self, bytes: &[u8]) -> Result<String, String>;
    /// Whether stream messages go back to back without a length prefix (the codec's flag).
    fn self_delimiting(&self) -> bool;
}

fn load<T: Item>(path: &str, types: Option<&str>) -> Result<DatasetFile<T>, PrepareError> {
    let f = T::read(path, types).map_err(PrepareError::BadData)?;
    if f.items.is_empty() || f.count == 0 {
        return Err(PrepareError::BadData(format!("{path}: no items")));
    }
    if f.framing != "single" && f.framing != "stream" {
        return Err(PrepareError::BadData(format!(
            "{path}: framing {:?}",
            f.framing
        )));
    }
    Ok(f)
}

#[inline]
pub fn put_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[inline]
fn varint_len(mut n: usize) -> usize {
    let mut k = 1;
    while n >= 0x80 {
        n >>= 7;
        k += 1;
    }
    k
}

#[inline]
pub fn get_varint(b: &[u8]) -> Res<(usize, usize)> {
    let mut n = 0usize;
    for (k, &byte) in b.iter().enumerate().take(10) {
        n |= ((byte & 0x7f) as usize) << (7 * k);
        if byte < 0x80 {
            return Ok((n, k + 1));
        }
    }
    Err("truncated length prefix".into())
}

/// Splits the next varint-prefixed frame off `rest`.
#[inline]
pub fn next_frame<'a>(rest: &mut &'a [u8]) -> Res<&'a [u8]> {
    let (len, n) = get_varint(rest)?;
    if rest.len() - n < len {
        return Err(format!("frame of {len} bytes with {} left", rest.len() - n));
    }
    let frame = &rest[n..n + len];
    *rest = &rest[n + len..];
    Ok(frame)
}

pub struct Cell<T, C> {
    codec: C,
    items: Vec<T>,
    count: usize,
    stream: bool,
    prefix_guess: usize,
    encoded: Vec<u8>,
    out: Vec<u8>,
    scratch: Vec<u8>,
    scratch2: Vec<u8>,
    compressors: Option<Compressors>,
    /// The `c+decode` inputs, by codec index.
    compressed: [Option<Vec<u8>>; 3],
}

pub fn cell<T, C>(codec: C) -> Box<dyn CellOps>
where
    T: Item,
    C: Codec<T>,
{
    Box::new(Cell {
        codec,
        items: Vec::new(),
        count: 0,
        stream: false,
        prefix_guess: 1,
        encoded: Vec::new(),
        out: Vec::new(),
        scratch: Vec::new(),
        scratch2: Vec::new(),
        compressors: None,
        compressed: Default::default(),
    })
}

impl<T, C: Codec<T>> Cell<T, C> {
    /// One message, varint-framed unless the codec is self-delimiting.
    #[inline]
    fn encode_framed(&mut self, it: usize, out: &mut Vec<u8>) -> Res<()> {
        if self.codec.self_delimiting() {
            return self.codec.encode(it, &self.items[it], out);
        }
        let start = out.len();
        let guess = self.prefix_guess;
        out.resize(start + guess, 0);
        self.codec.encode(it, &self.items[it], out)?;
        let len = out.len() - start - guess;
        let need = varint_len(len);
        if need != guess {
            // The length needs another prefix width: move the message once.
            let body = out.split_off(start + guess);
            out.truncate(start);
            put_varint(out, len);
            out.extend_from_slice(&body);
            self.prefix_guess = need;
        } else {
            let mut p = start;
            let mut n = len;
            while n >= 0x80 {
                out[p] = (n as u8) | 0x80;
                n >>= 7;
                p += 1;
            }
            out[p] = n as u8;
        }
        Ok(())
    }

    #[inline]
    fn encode_all(&mut self, out: &mut Vec<u8>) -> Res<()> {
        out.clear();
        if !self.stream {
            return self.codec.encode(0, &self.items[0], out);
        }
        let n = self.items.len();
        for i in 0..self.count {
            self.encode_framed(i % n, out)?;
        }
        Ok(())
    }

    #[inline]
    fn decode_all(&mut self, bytes: &[u8]) -> Res<()> {
        if !self.stream {
            return self.codec.decode_sink(0, bytes);
        }
        let n = self.items.len();
        let mut rest = bytes;
        if self.codec.self_delimiting() {
            for i in 0..self.count {
                let used = self.codec.decode_front_sink(i % n, rest)?;
                rest = &rest[used..];
            }
        } else {
            for i in 0..self.count {
                let frame = next_frame(&mut rest)?;
                self.codec.decode_sink(i % n, frame)?;
            }
        }
        Ok(())
    }

    fn encode_compressed(&mut self, c: Compression, out: &mut Vec<u8>) -> Res<()> {
        let comp = self.compressors.as_mut().ok_or("no compressors")?;
        out.clear();
        if !self.stream {
            self.scratch.clear();
            self.codec.encode(0, &self.items[0], &mut self.scratch)?;
            return comp.compress(c, &self.scratch, out);
        }
        let n = self.items.len();
        for i in 0..self.count {
            let it = i % n;
            self.scratch.clear();
            self.codec.encode(it, &self.items[it], &mut self.scratch)?;
            comp.compress(c, &self.scratch, &mut self.scratch2)?;
            put_varint(out, self.scratch2.len());
            out.extend_from_slice(&self.scratch2);
        }
        Ok(())
    }

    /// The `encode+c` output, built once for the `c+decode` input: a stream repeats its
    /// distinct items, so each item is encoded and compressed once and its frame
    /// repeated (the same bytes the timed operation produces, message by message).
    fn compressed_once(&mut self, c: Compression, out: &mut Vec<u8>) -> Res<()> {
        if !self.stream {
            return self.encode_compressed(c, out);
        }
        let comp = self.compressors.as_mut().ok_or("no compressors")?;
        let mut frames = Vec::with_capacity(self.items.len());
        for (it, item) in self.items.iter().enumerate() {
            self.scratch.clear();
            self.codec.encode(it, item, &mut self.scratch)?;
            comp.compress(c, &self.scratch, &mut self.scratch2)?;
            let mut frame = Vec::with_capacity(self.scratch2.len() + 5);
            put_varint(&mut frame, self.scratch2.len());
            frame.extend_from_slice(&self.scratch2);
            frames.push(frame);
        }
        out.clear();
        let n = frames.len();
        for i in 0..self.count {
            out.extend_from_slice(&frames[i % n]);
        }
        Ok(())
    }

    fn decode_compressed(&mut self, c: Compression) -> Res<()> {
        let comp = self.compressors.as_mut().ok_or("no compressors")?;
        let input = self.compressed[c.index()]
            .as_deref()
            .ok_or("not prepared for this operation")?;
        if !self.stream {
            comp.decompress(c, input, &mut self.scratch)?;
            return self.codec.decode_sink(0, &self.scratch);
        }
        let n = self.items.len();
        let mut rest = input;
        for i in 0..self.count {
            let frame = next_frame(&mut rest)?;
            comp.decompress(c, frame, &mut self.scratch)?;
            if self.codec.self_delimiting() {
                self.codec.decode_front_sink(i % n, &self.scratch)?;
            } else {
                self.codec.decode_sink(i % n, &self.scratch)?;
            }
        }
        Ok(())
    }

    /// Decodes `bytes` message by message and compares each with `check`.
    fn check(&mut self, bytes: &[u8], check: &[T]) -> Result<String, String>
    where
        T: Diff,
    {
        let n = check.len();
        let mut rest = bytes;
        for i in 0..self.count {
            let it = i % n;
            let got = if !self.stream {
                let v = self
                    .codec
                    .decode(0, rest)
                    .map_err(|e| format!("cannot decode: {e}"))?;
                rest = &[];
                v
            } else if self.codec.self_delimiting() {
                let (v, used) = self
                    .codec
                    .decode_front(it, rest)
                    .map_err(|e| format!("cannot decode: message {i}: {e}"))?;
                rest = &rest[used..];
                v
            } else {
                let frame = next_frame(&mut rest)
                    .map_err(|e| format!("cannot decode: message {i}: {e}"))?;
                self.codec
                    .decode(it, frame)
                    .map_err(|e| format!("cannot decode: message {i}: {e}"))?
            };
            if let Some(d) = got.diff(&check[it], &format!("$[{i}]")) {
                return Err(d);
            }
        }
        if !rest.is_empty() {
            return Err(format!("cannot decode: {} trailing bytes", rest.len()));
        }
        Ok(format!(
            "{} message{} equal",
            self.count,
            if self.count == 1 { "" } else { "s" }
        ))
    }
}

impl<T, C> CellOps for Cell<T, C>
where
    T: Item,
    C: Codec<T>,
{
    fn self_delimiting(&self) -> bool {
        self.codec.self_delimiting()
    }
    fn prepare(&mut self, src: &Source, verify: Verify) -> Result<Prepared, PrepareError> {
        self.codec
            .source(src)
            .map_err(|e| classify(e, PrepareError::Exception))?;
        let file: DatasetFile<T> = load(src.data, src.types)?;
        self.stream = file.framing == "stream";
        self.count = if self.stream { file.count } else { 1 };
        self.items = file.items;
        if !self.stream {
            self.items.truncate(1);
        }
        let check: Option<Vec<T>> = match verify {
            Verify::Skip(_) => None,
            Verify::Check if src.check_data == src.data => Some(self.items.clone()),
            Verify::Check => Some(load::<T>(src.check_data, src.types)?.items),
        };
        self.codec
            .prepare(&self.items)
            .map_err(|e| classify(e, PrepareError::Exception))?;
        let mut encoded = Vec::new();
        let foreign = src.decode_from.is_some();
        if let Some(path) = src.decode_from {
            encoded =
                std::fs::read(path).map_err(|e| PrepareError::BadData(format!("{path}: {e}")))?;
        } else {
            self.encode_all(&mut encoded)
                .map_err(|e| classify(e, |e| PrepareError::Exception(format!("encode: {e}"))))?;
        }
        let mut sizes = vec![("encoded", encoded.len())];
        let (check_ok, detail) = match check.map(|check| self.check(&encoded, &check)) {
            None => (true, String::new()),
            Some(Ok(d)) => (true, d),
            Some(Err(d)) => (false, d),
        };
        if check_ok && !foreign {
            self.compressors = Some(Compressors::new().map_err(PrepareError::Exception)?);
            for c in CODECS {
                if let Verify::Skip(ops) = verify
                    && !ops.contains(&Op::CDecode(c))
                {
                    continue;
                }
                let mut buf = Vec::new();
                self.compressed_once(c, &mut buf)
                    .map_err(PrepareError::Exception)?;
                if let Verify::Check = verify {
                    sizes.push((c.name(), buf.len()));
                }
                self.compressed[c.index()] = Some(buf);
            }
        }
        self.encoded = encoded;
        Ok(Prepared {
            check_ok,
            detail,
            messages: self.count,
            sizes,
        })
    }

    fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    fn encode_once(&mut self, out: &mut Vec<u8>) -> Res<()> {
        self.encode_all(out)
    }

    fn decode_once(&mut self, bytes: &[u8]) -> Res<()> {
        self.decode_all(bytes)
    }

    fn check_bytes(&mut self, bytes: &[u8]) -> Result<String, String> {
        let check = self.items.clone();
        self.check(bytes, &check)
    }

    fn run(&mut self, op: Op, iterations: u64) -> Res<()> {
        match op {
            Op::Encode => {
                let mut out = std::mem::take(&mut self.out);
                let mut r = Ok(());
                for _ in 0..iterations {
                    r = self.encode_all(black_box(&mut out));
                    black_box(&out);
                    if r.is_err() {
                        break;
                    }
                }
                self.out = out;
                r
            }
            Op::Decode => {
                let input = std::mem::take(&mut self.encoded);
                let mut r = Ok(());
                for _ in 0..iterations {
                    r = self.decode_all(black_box(&input));
                    if r.is_err() {
                        break;
                    }
                }
                self.encoded = input;
                r
            }
            Op::EncodeC(c) => {
                let mut out = std::mem::take(&mut self.out);
                let mut r = Ok(());
                for _ in 0..iterations {
                    r = self.encode_compressed(c, black_box(&mut out));
                    black_box(&out);
                    if r.is_err() {
                        break;
                    }
                }
                self.out = out;
                r
            }
            Op::CDecode(c) => {
                for _ in 0..iterations {
                    self.decode_compressed(black_box(c))?;
                }
                Ok(())
            }
        }
    }
}
