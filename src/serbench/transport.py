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
from typing import Any, Literal

import numpy as np

from serbench import environment, orchestrate, runners
from serbench.client import TransportRequest, transport_request
from serbench.runners import RunnerSpec
from serbench.store import Store
from serbench.timing import TRANSPORT_RECEIVER_GRACE_S, TRANSPORT_TIMEOUT_S, TRANSPORT_WARMUP


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


class BadPair(ValueError):
    """A --pair that is not runner/serializer, or names a runner without transport."""


@dataclass(frozen=True)
class Transfer:
    sender: Side
    receiver: Side
    result: dict[str, Any] | None  # both sides' raw timings (transfer)
    error: TransportError | None = None


def _start(
    spec: RunnerSpec, request: TransportRequest
) -> tuple[subprocess.Popen[str], queue.Queue]:
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
    warmup: int = TRANSPORT_WARMUP,
    timeout: float = TRANSPORT_TIMEOUT_S,
) -> dict[str, Any]:
    """Send the dataset's message `repetitions` times; both sides' raw timings."""
    wire = orchestrate.on_the_wire(orchestrate.descriptor(dataset, scale))

    def request(role: Literal["send", "receive"], side: Side, port: int) -> TransportRequest:
        return transport_request(role, side.serializer, wire, port, repetitions, warmup, timeout)

    rx, rx_lines = _start(specs[receiver.runner], request("receive", receiver, 0))
    procs = [rx]
    try:
        listening = _next(rx_lines, timeout, f"receiver {receiver}")
        tx, tx_lines = _start(specs[sender.runner], request("send", sender, listening["port"]))
        procs.append(tx)
        try:
            sent = _next(tx_lines, timeout, f"sender {sender}")
        except TransportError:
            # The sender sees a closed socket; the receiver knows why (a decode failure, say).
            _next(rx_lines, TRANSPORT_RECEIVER_GRACE_S, f"receiver {receiver}")
            raise
        received = _next(rx_lines, timeout, f"receiver {receiver}")
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
    return {"send": sent, "receive": received}


def pairs(texts: list[str], dataset: str, describes: dict[str, Any]) -> list[tuple[Side, Side]]:
    """SENDER:RECEIVER pairs as given, or every serializer of every runner with the transport
    capability that carries the dataset, to itself."""
    capable = {n: d for n, d in describes.items() if "transport" in d.get("capabilities", [])}
    out = []
    try:
        for text in texts:
            left, _, right = text.partition(":")
            out.append((Side.parse(left), Side.parse(right or left)))
    except ValueError as exc:
        raise BadPair(str(exc)) from None
    if not texts:
        for name, d in capable.items():
            for s in d["serializers"]:
                entry = orchestrate.applicability(d, s, dataset)
                if "baseline" not in s["labels"] and entry.get("applicable"):
                    out.append((Side(name, s["name"]), Side(name, s["name"])))
    for side in (side for pair in out for side in pair):
        if side.runner not in capable:
            raise BadPair(
                f"runner {side.runner!r} cannot do transport; capable: {', '.join(capable)}"
            )
    return out


def run(
    store: Store, dataset: str, texts: list[str], scale: str, repetitions: int
) -> list[Transfer]:
    """`serbench transport`: every pair's transfer, stored as one run of kind transport."""
    orchestrate.check_datasets([dataset])
    specs = runners.discover()
    describes, _ = runners.describe_all(specs)
    chosen = pairs(texts, dataset, describes)
    config = {"kind": "transport", "dataset": dataset, "scale": scale, "repetitions": repetitions}
    run_id = store.new_run(config, environment.collect())
    out = []
    for sender, receiver in chosen:
        try:
            result = transfer(sender, receiver, specs, dataset, scale, repetitions)
        except TransportError as exc:
            store.save_transfer(run_id, str(sender), str(receiver), dataset, None, str(exc))
            out.append(Transfer(sender, receiver, None, exc))
            continue
        store.save_transfer(run_id, str(sender), str(receiver), dataset, result)
        out.append(Transfer(sender, receiver, result))
    store.finish_run(run_id)
    return out


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
