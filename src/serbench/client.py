"""The runner protocol, typed (docs/runner-protocol.md; field names and values are those of
docs/runner-protocol.schema.json): the requests serbench sends, the replies it reads, and
RunnerClient, which sends each `serve` command and returns its reply, raising
CommandError for an `error` reply."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, Protocol, TypedDict

from serbench import PROTOCOL_VERSION


class Dataset(TypedDict):
    """The dataset object of section 3 (a user dataset also has types and schemas)."""

    name: str
    kind: Literal["builtin", "user"]
    data: str
    check_data: NotRequired[str]
    types: NotRequired[str]
    schemas: NotRequired[dict[str, dict[str, str]]]


class Description(TypedDict):
    """`<command> describe`."""

    protocol: int
    runner: str
    language: str
    runtime: dict[str, str]
    capabilities: list[str]
    serializers: list[dict[str, Any]]


class Error(TypedDict):
    code: str
    message: str


class Check(TypedDict):
    ok: bool
    detail: str


class Prepared(TypedDict):
    event: Literal["prepared"]
    cell: str
    status: Literal["ok", "check_failed", "not_applicable", "error"]
    check: Check | None
    messages: int | None
    sizes: dict[str, int] | None
    unsupported: list[str]
    error: Error | None


class Samples(TypedDict):
    event: Literal["samples"]
    cell: str
    operation: str
    iterations: int
    wall_ns: list[int]
    cpu_ns: list[int]
    alloc_bytes: list[int] | None
    alloc_count: list[int] | None
    gc_count: list[int] | None
    gc_ns: list[int] | None
    compile_ns: int | None


class PeakAlloc(TypedDict):
    event: Literal["peak_alloc"]
    cell: str
    operation: str
    bytes: int | None


class Released(TypedDict):
    event: Literal["released"]
    cell: str


class PrepareRequest(TypedDict):
    cmd: Literal["prepare"]
    cell: str
    serializer: str
    dataset: Dataset
    operations: list[str]
    dump_path: str | None  # write the encoded bytes here (cross-checks)
    decode_from: str | None  # decode these bytes instead of encoding (cross-checks)
    verify: NotRequired[bool]  # False: an earlier process checked it (no check, no codec sizes)


class SampleRequest(TypedDict):
    cmd: Literal["sample"]
    cell: str
    operation: str
    iterations: int
    samples: int
    untimed: NotRequired[int]


class TransportRequest(TypedDict):
    """`<command> transport`'s one request (section 9)."""

    protocol: int
    role: Literal["send", "receive"]
    serializer: str
    dataset: Dataset
    host: str
    port: int
    repetitions: int
    warmup: int
    timeout: float


class CommandError(RuntimeError):
    """The runner answered a command with an `error` reply."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


class Caller(Protocol):
    """A live `serve` process: one command in, its (validated) reply out."""

    def call(self, command: Any, timeout: float | None = None) -> dict[str, Any]: ...


def prepare_request(
    cell: str,
    serializer: str,
    dataset: Dataset,
    operations: list[str],
    dump_path: str | None = None,
    decode_from: str | None = None,
    verify: bool = True,
) -> PrepareRequest:
    request: PrepareRequest = {
        "cmd": "prepare",
        "cell": cell,
        "serializer": serializer,
        "dataset": dataset,
        "operations": list(operations),
        "dump_path": dump_path,
        "decode_from": decode_from,
    }
    if not verify:
        request["verify"] = False
    return request


def sample_request(
    cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
) -> SampleRequest:
    request: SampleRequest = {
        "cmd": "sample",
        "cell": cell,
        "operation": operation,
        "iterations": iterations,
        "samples": samples,
    }
    if untimed:
        request["untimed"] = untimed
    return request


def transport_request(
    role: Literal["send", "receive"],
    serializer: str,
    dataset: Dataset,
    port: int,
    repetitions: int,
    warmup: int,
    timeout: float,
) -> TransportRequest:
    return {
        "protocol": PROTOCOL_VERSION,
        "role": role,
        "serializer": serializer,
        "dataset": dataset,
        "host": "127.0.0.1",
        "port": port,
        "repetitions": repetitions,
        "warmup": warmup,
        "timeout": timeout,
    }


class RunnerClient:
    """The `serve` commands of one runner process, one method each."""

    def __init__(self, process: Caller) -> None:
        self.process = process

    def _call(self, command: Any, timeout: float | None = None) -> Any:
        reply = self.process.call(command, timeout)
        if reply["event"] == "error":
            raise CommandError(reply["code"], reply["message"])
        return reply

    def prepare(self, request: PrepareRequest) -> Prepared:
        """Load, convert and check a cell (its status says whether it may be sampled)."""
        return self._call(request)

    def sample(
        self, cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
    ) -> Samples:
        """`samples` samples of `iterations` operations, after `untimed` operations that the
        runner does not time."""
        return self._call(sample_request(cell, operation, iterations, samples, untimed))

    def peak_alloc(self, cell: str, operation: str) -> PeakAlloc:
        return self._call({"cmd": "peak_alloc", "cell": cell, "operation": operation})

    def release(self, cell: str) -> Released:
        return self._call({"cmd": "release", "cell": cell})

    def quit(self, timeout: float | None = None) -> None:
        self._call({"cmd": "quit"}, timeout)
