//! The orchestrator's codecs: zlib (RFC 1950) level 6, zstd level 3, lz4 frame format
//! at its default level. Contexts are reused across operations.

use std::io::{Read, Write};

use crate::types::Res;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Zlib,
    Zstd,
    Lz4,
}

pub const CODECS: [Codec; 3] = [Codec::Zlib, Codec::Zstd, Codec::Lz4];

impl Codec {
    pub fn name(self) -> &'static str {
        match self {
            Codec::Zlib => "zlib",
            Codec::Zstd => "zstd",
            Codec::Lz4 => "lz4",
        }
    }
    pub fn parse(s: &str) -> Option<Codec> {
        CODECS.into_iter().find(|c| c.name() == s)
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

pub struct Compressors {
    zstd_c: zstd::bulk::Compressor<'static>,
    zstd_d: zstd::bulk::Decompressor<'static>,
    zlib_c: flate2::Compress,
    zlib_d: flate2::Decompress,
}

impl Compressors {
    pub fn new() -> Res<Self> {
        Ok(Compressors {
            zstd_c: zstd::bulk::Compressor::new(3).map_err(|e| e.to_string())?,
            zstd_d: zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?,
            zlib_c: flate2::Compress::new(flate2::Compression::new(6), true),
            zlib_d: flate2::Decompress::new(true),
        })
    }

    /// Replaces `dst` with `src` compressed.
    pub fn compress(&mut self, c: Codec, src: &[u8], dst: &mut Vec<u8>) -> Res<()> {
        dst.clear();
        match c {
            Codec::Zlib => {
                self.zlib_c.reset();
                dst.reserve(src.len() + src.len() / 1000 + 64);
                loop {
                    let before = self.zlib_c.total_in() as usize;
                    let st = self
                        .zlib_c
                        .compress_vec(&src[before..], dst, flate2::FlushCompress::Finish)
                        .map_err(|e| e.to_string())?;
                    if st == flate2::Status::StreamEnd {
                        break;
                    }
                    dst.reserve(dst.capacity().max(64));
                }
            }
            Codec::Zstd => {
                dst.reserve(zstd::zstd_safe::compress_bound(src.len()));
                self.zstd_c
                    .compress_to_buffer(src, dst)
                    .map_err(|e| e.to_string())?;
            }
            Codec::Lz4 => {
                let mut enc = lz4_flex::frame::FrameEncoder::new(std::mem::take(dst));
                enc.write_all(src).map_err(|e| e.to_string())?;
                *dst = enc.finish().map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// Replaces `dst` with `src` decompressed.
    pub fn decompress(&mut self, c: Codec, src: &[u8], dst: &mut Vec<u8>) -> Res<()> {
        dst.clear();
        match c {
            Codec::Zlib => {
                self.zlib_d.reset(true);
                dst.reserve(src.len() * 4 + 64);
                loop {
                    let before = self.zlib_d.total_in() as usize;
                    let st = self
                        .zlib_d
                        .decompress_vec(&src[before..], dst, flate2::FlushDecompress::Finish)
                        .map_err(|e| e.to_string())?;
                    if st == flate2::Status::StreamEnd {
                        break;
                    }
                    if self.zlib_d.total_in() as usize == src.len() && dst.len() < dst.capacity() {
                        return Err("zlib: truncated stream".into());
                    }
                    dst.reserve(dst.capacity());
                }
            }
            Codec::Zstd => {
                let n = zstd::zstd_safe::get_frame_content_size(src)
                    .map_err(|_| "zstd: bad frame".to_string())?
                    .ok_or("zstd: frame without content size")?;
                dst.reserve(n as usize);
                self.zstd_d
                    .decompress_to_buffer(src, dst)
                    .map_err(|e| e.to_string())?;
            }
            Codec::Lz4 => {
                lz4_flex::frame::FrameDecoder::new(src)
                    .read_to_end(dst)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}
