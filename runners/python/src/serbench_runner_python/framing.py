"""Stream framing (section 6): unsigned LEB128 length prefixes, one per message."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from serbench_runner_python.compress import Transform
from serbench_runner_python.serializers.base import Codec

_SMALL = [bytes([n]) for n in range(128)]


def varint(n: int) -> bytes:
    if n < 128:
        return _SMALL[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def read_varint(view: memoryview, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        byte = view[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def split_frames(buf: bytes) -> Iterator[memoryview]:
    view, pos, end = memoryview(buf), 0, len(buf)
    while pos < end:
        length, pos = read_varint(view, pos)
        yield view[pos : pos + length]
        pos += length


# The label a serializer whose codecs concatenate stream messages declares (section 6).
CONCATENATED = "stream-concatenated"


def concatenates(codec: Codec) -> bool:
    """Whether streams go back to back with no length prefix: a self-delimiting format."""
    return codec.decode_stream is not None


def encode_stream(
    codec: Codec, messages: list[Any], count: int, compress: Transform | None = None
) -> bytes:
    """Message i = messages[i % len]; each framed, compressed one by one when asked."""
    out = bytearray()
    encode, k = codec.encode, len(messages)
    bare = concatenates(codec) and compress is None
    for i in range(count):
        data = encode(messages[i % k])
        if compress is not None:
            data = compress(data)
        if not bare:
            out += varint(len(data))
        out += data
    return bytes(out)


def decode_stream(codec: Codec, buf: bytes, decompress: Transform | None = None) -> Iterator[Any]:
    if decompress is None and concatenates(codec):
        return iter(codec.decode_stream(buf))
    decode = codec.decode
    if decompress is None:
        return (decode(frame) for frame in split_frames(buf))
    return (decode(decompress(frame)) for frame in split_frames(buf))
