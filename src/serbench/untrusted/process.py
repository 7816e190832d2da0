"""One runner process under the limits the orchestrator sets (docs/runner-protocol.md
section 11): rlimits applied in the child before it starts, a deadline per command.

Which limits apply per language (LIMITS): RLIMIT_AS caps the address space of native and
CPython runners, so an allocation past it fails inside the library (MemoryError, Rust's
allocation abort, Go's "out of memory" fatal error); RLIMIT_CPU is a backstop for a
process the deadline missed; RLIMIT_CORE 0 keeps crashes from writing core files. Go also
gets GOMEMLIMIT (a soft limit that makes its collector work harder before the hard one).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from serbench.runners import RunnerSpec
from serbench.session import line_queue
from serbench.timing import UNTRUSTED_START_TIMEOUT_S

Reply = dict[str, Any]
MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    address_space: int | None  # bytes, RLIMIT_AS of the whole process
    cpu_s: int | None  # RLIMIT_CPU
    env: dict[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        parts = []
        if self.address_space:
            parts.append(f"address space {self.address_space // MiB} MiB")
        if self.cpu_s:
            parts.append(f"CPU {self.cpu_s} s")
        parts += [f"{k}={v}" for k, v in self.env.items()]
        return ", ".join(parts) or "none"


# Per language (runner.json "language"): what the runtime itself needs plus the 256 MiB an
# input may make it take.
LIMITS: dict[str, Limits] = {
    "python": Limits(address_space=1536 * MiB, cpu_s=600),
    "rust": Limits(address_space=1024 * MiB, cpu_s=600),
    "go": Limits(address_space=2048 * MiB, cpu_s=600, env={"GOMEMLIMIT": "768MiB"}),
    # managed runtimes reserve far more address space than they use: their heap is capped
    # by the runtime's own setting instead
    "cpp": Limits(address_space=1024 * MiB, cpu_s=600),
    "objective-c": Limits(address_space=1024 * MiB, cpu_s=600),
    "java": Limits(
        address_space=None,
        cpu_s=600,
        env={"JAVA_TOOL_OPTIONS": "-Xmx512m -XX:+ExitOnOutOfMemoryError"},
    ),
    "javascript": Limits(
        address_space=None, cpu_s=600, env={"NODE_OPTIONS": "--max-old-space-size=512"}
    ),
    "csharp": Limits(address_space=None, cpu_s=600, env={"MONO_GC_PARAMS": "max-heap-size=512m"}),
}
DEFAULT_LIMITS = Limits(address_space=None, cpu_s=600)


class Fault(RuntimeError):
    """The process died (kind "crash") or went silent past the deadline (kind "hang")."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def _preexec(limits: Limits) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limits.address_space:
            resource.setrlimit(resource.RLIMIT_AS, (limits.address_space, limits.address_space))
        if limits.cpu_s:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 5))

    return apply


class RunnerProcess:
    """A `serve` process; `call` sends one command and returns its reply or a Fault."""

    def __init__(self, spec: RunnerSpec, limits: Limits) -> None:
        self.spec, self.limits = spec, limits
        self._stderr: IO[str] = tempfile.TemporaryFile("w+")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [*spec.command, "serve"],
            cwd=spec.directory,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            bufsize=1,
            start_new_session=True,
            env={**os.environ, **limits.env},
            preexec_fn=_preexec(limits),  # noqa: PLW1509 - rlimits must be set in the child
        )
        self._lines = line_queue(self.proc)
        # a cheap command proves the runner is up before any input's deadline starts
        self.call({"cmd": "release", "cell": "start"}, UNTRUSTED_START_TIMEOUT_S)

    def stderr_tail(self, lines: int = 3) -> str:
        """The first and last lines: Go and Rust put the reason first, Python last."""
        self._stderr.flush()
        self._stderr.seek(0)
        text = self._stderr.read().strip().splitlines()
        kept = text if len(text) <= 2 * lines else [*text[:lines], "...", *text[-lines:]]
        return " | ".join(line.strip()[:200] for line in kept)

    def _fault(self, kind: str, what: str) -> Fault:
        self.kill()
        code = self.proc.returncode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
        tail = self.stderr_tail()
        return Fault(kind, f"{what} ({how}){': ' + tail if tail else ''}")

    def call(self, command: Reply, timeout: float) -> Reply:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(command) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fault("crash", "runner died before the command") from None
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise self._fault("hang", f"no answer within {timeout:.1f} s") from None
        if line is None:
            self.proc.wait()
            raise self._fault("crash", "runner died mid-command")
        try:
            reply = json.loads(line)
        except ValueError:
            raise self._fault("crash", f"runner printed {line.strip()[:200]!r}") from None
        if not isinstance(reply, dict):
            raise self._fault("crash", f"runner printed {line.strip()[:200]!r}")
        return reply

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(Fault):
                self.call({"cmd": "quit"}, 5.0)
        self.kill()
        self._stderr.close()
