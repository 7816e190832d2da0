"""S3's real transport: a sender and a receiver runner process over a loopback TCP socket.

Runners that list the "transport" capability implement `<command> transport`
(docs/runner-protocol.md section 10); any two of them can be paired, so the
encoding and decoding sides may be written in different languages.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from serbench import PROTOCOL_VERSION, orchestrate
from serbench.runners import RunnerSpec


@dataclass(frozen=True)
class Side:
    runner: str
    serializer: str

    @classmethod
    def parse(cls, text: str) -> Side:
        runner, _, serializer = text.partition("/")
        if not serializer:
            raise ValueError(f"{text!r} is not runner/serializer")
        return cls(runner, serializer)

    def __str__(self) -> str:
        return f"{self.runner}/{self.serializer}"


class TransportError(RuntimeError):
    pass


class NotApplicable(TransportError):
    """A side's serializer cannot carry the dataset: not applicable, not a failure."""


def _start(spec: RunnerSpec, request: dict[str, Any]) -> tuple[subprocess.Popen[str], queue.Queue]:
    proc = subprocess.Popen(
        [*spec.command, "transport"],
        cwd=spec.directory,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(request))
    proc.stdin.close()
    lines: queue.Queue[dict[str, Any] | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            try:
                lines.put(json.loads(line))
            except ValueError:
                lines.put({"event": "error", "message": f"malformed output {line[:100]!r}"})
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


def _next(lines: queue.Queue, timeout: float, who: str) -> dict[str, Any]:
    try:
        event = lines.get(timeout=timeout)
    except queue.Empty:
        raise TransportError(f"{who} said nothing for {timeout:.0f} s") from None
    if event is None:
        raise TransportError(f"{who} exited without a result")
    if event.get("event") == "error":
        kind = NotApplicable if event.get("code") == "not_applicable" else TransportError
        raise kind(f"{who}: {event.get('message')}")
    return event


def transfer(
    sender: Side,
    receiver: Side,
    specs: dict[str, RunnerSpec],
    dataset: str,
    scale: str,
    repetitions: int,
    warmup: int = 2,
    timeout: float = 120,
) -> dict[str, Any]:
    """Send the dataset's message `repetitions` times; both sides' raw timings."""
    wire = orchestrate.on_the_wire(orchestrate.descriptor(dataset, scale))
    base = {
        "protocol": PROTOCOL_VERSION,
        "dataset": wire,
        "repetitions": repetitions,
        "warmup": warmup,
        "host": "127.0.0.1",
        "timeout": timeout,
    }
    rx, rx_lines = _start(
        specs[receiver.runner],
        {**base, "role": "receive", "serializer": receiver.serializer, "port": 0},
    )
    procs = [rx]
    try:
        listening = _next(rx_lines, timeout, f"receiver {receiver}")
        tx, tx_lines = _start(
            specs[sender.runner],
            {**base, "role": "send", "serializer": sender.serializer, "port": listening["port"]},
        )
        procs.append(tx)
        try:
            sent = _next(tx_lines, timeout, f"sender {sender}")
        except TransportError:
            # The sender sees a closed socket; the receiver knows why (a decode failure, say).
            _next(rx_lines, 5, f"receiver {receiver}")
            raise
        received = _next(rx_lines, timeout, f"receiver {receiver}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
    return {"send": sent, "receive": received}


def summary(result: dict[str, Any]) -> dict[str, float]:
    """Mean (the seed's method: 5 repetitions averaged) and minimum of each phase, in ns."""
    out: dict[str, float] = {}
    phases = (
        ("send", "encode_ns"),
        ("send", "send_ns"),
        ("receive", "receive_ns"),
        ("receive", "decode_ns"),
        ("send", "total_ns"),
    )
    for side, key in phases:
        values = np.asarray(result[side][key], dtype=float)
        name = key.removesuffix("_ns")
        out[f"{name}_mean"] = float(values.mean())
        out[f"{name}_min"] = float(values.min())
    return out
