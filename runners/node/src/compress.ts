// The protocol's codecs: zlib (RFC 1950, level 6), zstd (level 3, zstd-napi) and
// lz4 (frame format, default level, lz4-napi).
import { deflateSync, inflateSync } from "node:zlib";
import { compressFrameSync, decompressFrameSync } from "lz4-napi";
import { compress as zstdCompress, decompress as zstdDecompress } from "zstd-napi";

export type Transform = (data: Uint8Array) => Uint8Array;

const asBuffer = (b: Uint8Array): Buffer =>
  Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export const COMPRESSORS: Record<string, [Transform, Transform]> = {
  zlib: [(b) => deflateSync(b, { level: 6 }), (b) => inflateSync(b)],
  zstd: [(b) => zstdCompress(b, { compressionLevel: 3 }), (b) => zstdDecompress(b)],
  lz4: [(b) => compressFrameSync(asBuffer(b)), (b) => decompressFrameSync(asBuffer(b))],
};
