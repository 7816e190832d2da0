"""The protocol's compression codecs (zlib level 6, zstd level 3, lz4 frame)."""

from __future__ import annotations

import zlib
from collections.abc import Callable

import lz4.frame
import zstandard

Transform = Callable[[bytes], bytes]
_ZSTD_C = zstandard.ZstdCompressor(level=3)
_ZSTD_D = zstandard.ZstdDecompressor()
COMPRESSORS: dict[str, tuple[Transform, Transform]] = {
    "zlib": (lambda b: zlib.compress(b, 6), zlib.decompress),
    "zstd": (_ZSTD_C.compress, _ZSTD_D.decompress),
    "lz4": (lz4.frame.compress, lz4.frame.decompress),
}
# encode, decode, and each codec after encode / before decode (section 4)
OPERATIONS = (
    "encode",
    "decode",
    *(f"encode+{c}" for c in COMPRESSORS),
    *(f"{c}+decode" for c in COMPRESSORS),
)
