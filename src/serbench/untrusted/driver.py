"""Feeding inputs to one runner's decoder in batches: a batch that kills or hangs the
process is split in halves, each run by a fresh process, until the input to blame is
alone; every other input keeps the outcome its runner gave (docs/runner-protocol.md
section 11). Outcomes go to the caller's callback as each batch answers."""

from __future__ import annotations

import base64
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench.runners import RunnerSpec
from serbench.untrusted.process import DEFAULT_LIMITS, LIMITS, Fault, Limits, RunnerProcess

INLINE_MAX = 64 * 1024  # larger inputs go by file path, not base64 in the command line
BATCH_BYTES = 4 << 20
BATCH_MAX = 64
_OOM_SIGNS = ("memoryerror", "out of memory", "memory allocation of", "cannot allocate memory")


@dataclass
class Outcome:
    """What became of one input: the runner's answer, or the fault it caused alone."""

    kind: str  # accepted | rejected | error | crash | hang | excessive_allocation
    value: Any = None
    error: str | None = None
    ns: int | None = None


class Unavailable(RuntimeError):
    """The runner cannot decode with this serializer here (its `error` reply)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _oom(text: str | None) -> bool:
    low = (text or "").lower()
    return any(sign in low for sign in _OOM_SIGNS)


def from_reply(item: dict[str, Any]) -> Outcome:
    kind = item["outcome"]
    if kind == "error" and _oom(item.get("error")):
        kind = "excessive_allocation"
    return Outcome(kind, item.get("value"), item.get("error"), item.get("ns"))


class Driver:
    """A runner process respawned after every fault, and the batches it decodes."""

    def __init__(self, spec: RunnerSpec, deadline_s: float, limits: Limits | None = None):
        self.spec, self.deadline_s = spec, deadline_s
        self.limits = limits or LIMITS.get(spec.language, DEFAULT_LIMITS)
        self.proc: RunnerProcess | None = None
        self.respawns = 0
        self.batch_size = BATCH_MAX
        self._tmp = tempfile.TemporaryDirectory(prefix="serbench-untrusted-")
        self._cell = 0

    def _process(self) -> RunnerProcess:
        if self.proc is None or self.proc.proc.poll() is not None:
            if self.proc is not None:
                self.respawns += 1
            self.proc = RunnerProcess(self.spec, self.limits)
        return self.proc

    def command(self, cmd: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        self._cell += 1
        reply = self._process().call({**cmd, "cell": f"u{self._cell}"}, timeout or 60.0)
        if reply.get("event") == "error":
            raise Unavailable(reply.get("code", "error"), reply.get("message", ""))
        return reply

    def _inputs(self, batch: list[tuple[str, bytes]]) -> list[dict[str, str]]:
        out = []
        for key, data in batch:
            if len(data) > INLINE_MAX:
                path = Path(self._tmp.name) / f"{len(out)}.bin"
                path.write_bytes(data)
                out.append({"id": key, "path": str(path)})
            else:
                out.append({"id": key, "b64": base64.b64encode(data).decode()})
        return out

    def decode(
        self,
        serializer: str,
        dataset: dict[str, Any] | None,
        inputs: list[tuple[str, bytes]],
        sink: Callable[[dict[str, Outcome]], None],
        container: bool = False,
    ) -> None:
        """Decode every input; sink gets each batch's outcomes as soon as they are known
        (`container`: each input is an Avro object container file, section 11).

        Batches shrink after a fault and grow back after clean answers: a decoder that
        dies on most inputs then costs one respawn per killer, not a bisection each."""
        pos = 0
        while pos < len(inputs):
            batch, size = [], 0
            while pos < len(inputs) and len(batch) < self.batch_size:
                if batch and size + len(inputs[pos][1]) > BATCH_BYTES:
                    break
                batch.append(inputs[pos])
                size += len(inputs[pos][1])
                pos += 1
            clean = self._batch(serializer, dataset, batch, sink, container)
            grown = min(BATCH_MAX, self.batch_size * 2)
            self.batch_size = grown if clean else max(1, self.batch_size // 4)

    def _batch(
        self,
        serializer: str,
        dataset: dict[str, Any] | None,
        batch: list[tuple[str, bytes]],
        sink: Callable[[dict[str, Outcome]], None],
        container: bool = False,
    ) -> bool:
        """Whether the batch answered without a fault (after bisecting one that did not)."""
        cmd = {
            "cmd": "untrusted_decode",
            "serializer": serializer,
            "dataset": dataset,
            "inputs": self._inputs(batch),
            **({"container": True} if container else {}),
        }
        # the deadline is per input; a batch may take it once plus a little per input
        timeout = self.deadline_s + 0.05 * len(batch) + sum(len(d) for _, d in batch) / 2e6
        try:
            reply = self.command(cmd, timeout)
        except Fault as fault:
            if len(batch) == 1:
                kind = "excessive_allocation" if _oom(fault.detail) else fault.kind
                sink({batch[0][0]: Outcome(kind, error=fault.detail)})
                return False
            half = len(batch) // 2
            self._batch(serializer, dataset, batch[:half], sink, container)
            self._batch(serializer, dataset, batch[half:], sink, container)
            return False
        sink({item["id"]: from_reply(item) for item in reply["outcomes"]})
        return True

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
        self._tmp.cleanup()
