"""A live `serve` process of one runner: send a command, get its one reply (protocol v2)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
from typing import IO, Any

from serbench import protocol
from serbench.client import CommandError, RunnerClient
from serbench.runners import RunnerSpec
from serbench.timing import QUIT_TIMEOUT_S

Reply = dict[str, Any]


def line_queue(proc: subprocess.Popen[str]) -> queue.Queue[str | None]:
    """The process's stdout lines as they come, read by a daemon thread (so a reply can be
    awaited with a deadline); None once the process closed its stdout."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


class SessionFault(RuntimeError):
    """The runner process died, hung or printed something that is not a reply."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # crashed | timeout | malformed_output


class RunnerSession:
    """One runner process in `serve` mode; every reply is validated against the schema."""

    def __init__(self, spec: RunnerSpec, timeout: float, validate: str = "full") -> None:
        """validate: "full" checks every reply against the schema (tests); "fast" checks
        `samples` replies structurally only (a full check costs about a sample's time)."""
        self.spec, self.timeout, self.validate = spec, timeout, validate
        # closed in close(): the file outlives this method, as the process does
        self._stderr: IO[str] = tempfile.TemporaryFile("w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [*spec.command, "serve"],
            cwd=spec.directory,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            bufsize=1,
            start_new_session=True,
        )
        self._lines = line_queue(self.proc)

    def stderr_tail(self, lines: int = 3) -> str:
        self._stderr.flush()
        self._stderr.seek(0)
        return " | ".join(self._stderr.read().strip().splitlines()[-lines:])

    def _fault(self, code: str, message: str) -> SessionFault:
        self.kill()
        tail = self.stderr_tail()
        return SessionFault(code, f"{message}{': ' + tail if tail else ''}"[:600])

    def send_raw(self, line: str, timeout: float | None = None) -> Reply:
        """Send one line, return the reply (not validated: for protocol tests)."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise self._fault("crashed", f"runner exited {self.proc.poll()}: {exc}") from exc
        wait = self.timeout if timeout is None else timeout
        try:
            got = self._lines.get(timeout=wait)
        except queue.Empty as exc:
            raise self._fault("timeout", f"no reply for {wait:.0f} s; killed") from exc
        if got is None:
            code = self.proc.wait()
            raise self._fault("crashed", f"runner exited {code} mid-command")
        try:
            reply = json.loads(got)
            if not isinstance(reply, dict):
                raise ValueError("not an object")
        except ValueError as exc:
            raise self._fault("malformed_output", f"runner printed {got.strip()[:200]!r}") from exc
        return reply

    def call(self, command: Reply, timeout: float | None = None) -> Reply:
        reply = self.send_raw(json.dumps(command), timeout)
        problem = self._check(command, reply)
        if problem:
            raise self._fault("malformed_output", f"invalid reply {problem}")
        if reply.get("event") != "error" and reply.get("cell", command.get("cell")) != command.get(
            "cell"
        ):
            raise self._fault("malformed_output", f"reply for another cell: {reply}")
        return reply

    def _check(self, command: Reply, reply: Reply) -> str | None:
        event = reply.get("event")
        if event == "samples" and self.validate == "fast":
            wall = reply.get("wall_ns")
            ok = (
                isinstance(wall, list)
                and len(wall) == command.get("samples")
                and all(isinstance(w, int) and w > 0 for w in wall)
                and reply.get("iterations") == command.get("iterations")
            )
            return None if ok else f"samples reply does not match {command}: {reply}"[:400]
        definition = {
            "prepared": "prepared",
            "samples": "samples",
            "peak_alloc": "peak_alloc_reply",
            "released": "released",
            "bye": "bye",
            "error": "error_reply",
        }.get(str(event), "reply")
        return protocol.problem(definition, reply)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                RunnerClient(self).quit(QUIT_TIMEOUT_S)
                self.proc.wait(timeout=QUIT_TIMEOUT_S)
            except (SessionFault, CommandError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self._stderr.close()

    def kill(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def __enter__(self) -> RunnerSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
