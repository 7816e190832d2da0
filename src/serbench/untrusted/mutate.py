"""Seeded, deterministic corruptions of a decoder's own valid encoding.

Input k of a (seed, decoder, dataset) is the same bytes on every machine: the generator
is seeded from their names, so a reproducer's name says how to make it again.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

# bytes that often start a length or count: MessagePack str/bin/array/map headers with
# 1-4 byte lengths, CBOR major types with 1-8 byte arguments (ai 24-27)
_HEADERS = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4, 0xDC: 2, 0xDD: 4, 0xDE: 2}
_HEADERS |= {0xDF: 4}
for _major in range(8):
    for _ai, _n in ((24, 1), (25, 2), (26, 4), (27, 8)):
        _HEADERS.setdefault((_major << 5) | _ai, _n)
_BIG = (b"\xff", b"\x7f", b"\x80")
KINDS = ("bitflip", "truncate", "inflate", "varint", "insert", "delete", "splice", "overwrite")


def _rng(seed: int, *names: str) -> random.Random:
    digest = hashlib.sha256("\0".join([str(seed), *names]).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _inflate(data: bytearray, rng: random.Random) -> str:
    """Make a length or count field huge: a known header's argument, else any bytes."""
    heads = [i for i, b in enumerate(data) if b in _HEADERS and i + 1 < len(data)]
    if heads and rng.random() < 0.7:
        at = rng.choice(heads)
        width = _HEADERS[data[at]]
    else:
        at, width = rng.randrange(len(data)), rng.choice((1, 2, 4, 8))
    fill = rng.choice(_BIG)
    for i in range(at + 1, min(at + 1 + width, len(data))):
        data[i] = fill[0]
    return f"inflate@{at}x{width}:{fill.hex()}"


def mutate(valid: bytes, other: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One corruption of valid (other: a second valid message, for splices)."""
    data = bytearray(valid)
    if not data:
        return "empty", b""
    kind = rng.choice(KINDS)
    n = len(data)
    if kind == "bitflip":
        flips = [(rng.randrange(n), rng.randrange(8)) for _ in range(rng.choice((1, 1, 2, 4)))]
        for at, bit in flips:
            data[at] ^= 1 << bit
        return "bitflip@" + ",".join(f"{a}.{b}" for a, b in flips), bytes(data)
    if kind == "truncate":
        at = rng.randrange(n)
        return f"truncate@{at}", bytes(data[:at])
    if kind == "inflate":
        name = _inflate(data, rng)
        return name, bytes(data)
    if kind == "varint":  # a protobuf-style varint that never ends, or runs to 10 bytes
        at = rng.randrange(n)
        run = bytes([0xFF] * rng.choice((5, 10, 11))) + rng.choice((b"", b"\x01", b"\x7f"))
        return f"varint@{at}", bytes(data[:at] + run + data[at + len(run) :])
    if kind == "insert":
        at, count = rng.randrange(n + 1), rng.choice((1, 2, 7, 64))
        junk = bytes(rng.randrange(256) for _ in range(count))
        return f"insert@{at}+{count}", bytes(data[:at] + junk + data[at:])
    if kind == "delete":
        at = rng.randrange(n)
        count = min(rng.choice((1, 2, 7, 64)), n - at)
        return f"delete@{at}-{count}", bytes(data[:at] + data[at + count :])
    if kind == "splice":
        cut = rng.randrange(n)
        cut2 = rng.randrange(len(other)) if other else 0
        return f"splice@{cut}/{cut2}", bytes(data[:cut]) + other[cut2:]
    at = rng.randrange(n)  # overwrite: a run of random bytes
    count = min(rng.choice((1, 4, 16)), n - at)
    for i in range(at, at + count):
        data[i] = rng.randrange(256)
    return f"overwrite@{at}+{count}", bytes(data)


def corpus(
    valid: bytes, other: bytes, count: int, seed: int, *names: str
) -> Iterator[tuple[str, bytes]]:
    """count corruptions, named `k:how`; the same for the same seed and names."""
    rng = _rng(seed, *names)
    for k in range(count):
        how, data = mutate(valid, other, rng)
        yield f"{k}:{how}", data
