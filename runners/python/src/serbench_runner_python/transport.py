"""`transport`: one side of a real loopback socket, as S3's sender or receiver.

Frames are a 4-byte big-endian length and the encoded bytes; the receiver answers
each frame with one byte as soon as it has decoded it (the sender's round trip ends
there), then compares the decoded message with the original, outside every timing.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Callable
from typing import Any

from serbench_runner_python.cell import Bound
from serbench_runner_python.tree import first_difference

LENGTH = struct.Struct(">I")


def _recv_exactly(conn: socket.socket, n: int) -> bytes:
    buf = bytearray(n)
    view, got = memoryview(buf), 0
    while got < n:
        k = conn.recv_into(view[got:], n - got)
        if k == 0:
            raise ConnectionError(f"peer closed after {got} of {n} bytes")
        got += k
    return bytes(buf)


def receive(
    bound: Bound, request: dict[str, Any], emit: Callable[[dict[str, Any]], None]
) -> dict[str, Any]:
    codec, expected = bound.codec, bound.expected
    frames = int(request.get("warmup", 1)) + int(request["repetitions"])
    with socket.create_server(
        (request.get("host", "127.0.0.1"), int(request.get("port", 0)))
    ) as srv:
        emit({"event": "listening", "port": srv.getsockname()[1]})
        srv.settimeout(float(request.get("timeout", 60)))
        conn, _ = srv.accept()
        with conn:
            receive_ns, decode_ns, check = [], [], {"ok": True, "detail": "all frames equal"}
            for i in range(frames):
                head = _recv_exactly(conn, LENGTH.size)
                t0 = time.perf_counter_ns()
                payload = _recv_exactly(conn, LENGTH.unpack(head)[0])
                t1 = time.perf_counter_ns()
                value = codec.decode(payload)
                t2 = time.perf_counter_ns()
                conn.sendall(b"\x01")
                diff = first_difference(expected[0], codec.to_native(value))
                if diff and check["ok"]:
                    check = {"ok": False, "detail": f"frame {i}: {diff}"}
                receive_ns.append(t1 - t0)
                decode_ns.append(t2 - t1)
    skip = frames - int(request["repetitions"])
    return {
        "role": "receive",
        "receive_ns": receive_ns[skip:],
        "decode_ns": decode_ns[skip:],
        "check": check,
        "bytes": len(payload),
    }


def send(bound: Bound, request: dict[str, Any]) -> dict[str, Any]:
    codec = bound.codec
    message = codec.prepare(bound.items[0])
    frames = int(request.get("warmup", 1)) + int(request["repetitions"])
    encode_ns, send_ns, total_ns = [], [], []
    address = (request.get("host", "127.0.0.1"), int(request["port"]))
    with socket.create_connection(address, timeout=float(request.get("timeout", 60))) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for _ in range(frames):
            t0 = time.perf_counter_ns()
            payload = codec.encode(message)
            t1 = time.perf_counter_ns()
            conn.sendall(LENGTH.pack(len(payload)) + payload)
            t2 = time.perf_counter_ns()
            _recv_exactly(conn, 1)
            t3 = time.perf_counter_ns()
            encode_ns.append(t1 - t0)
            send_ns.append(t2 - t1)
            total_ns.append(t3 - t0)
    skip = frames - int(request["repetitions"])
    return {
        "role": "send",
        "encode_ns": encode_ns[skip:],
        "send_ns": send_ns[skip:],
        "total_ns": total_ns[skip:],
        "bytes": len(payload),
    }
