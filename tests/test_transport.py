"""S3 over a real loopback socket between two runner processes."""

from __future__ import annotations

import pytest

from serbench import runners, transport


def test_python_to_python_over_a_socket() -> None:
    side = transport.Side("python", "msgpack")
    result = transport.transfer(side, side, runners.discover(), "one-mb-dict", "quick", 3, 1)
    assert result["receive"]["check"]["ok"] is True
    assert result["send"]["bytes"] == result["receive"]["bytes"] > 1_000_000
    assert len(result["send"]["total_ns"]) == len(result["receive"]["decode_ns"]) == 3
    s = transport.summary(result)
    assert s["total_min"] >= s["encode_min"] + s["decode_min"]


def test_a_receiver_that_cannot_read_the_bytes_says_why() -> None:
    sender, receiver = transport.Side("python", "json"), transport.Side("python", "msgpack")
    with pytest.raises(transport.TransportError, match="receiver python/msgpack"):
        transport.transfer(
            sender, receiver, runners.discover(), "one-mb-dict", "quick", 2, 0, timeout=30
        )


def test_sides_parse() -> None:
    assert str(transport.Side.parse("java/kryo")) == "java/kryo"
    with pytest.raises(ValueError):
        transport.Side.parse("kryo")
