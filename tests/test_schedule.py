"""The schedule's stopping rules on a fake runner whose operations take a fixed time: how
many slices and warm-up slices each process takes (docs/method.md, "Timing in v2")."""

from __future__ import annotations

import math
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from serbench import schedule
from serbench.client import Dataset
from serbench.runners import RunnerSpec
from serbench.store import CellKey
from serbench.timing import LONG_FINAL_WINDOW, QUICK

SLOW_SHARE = 0.9  # the probe's reading: 38 slices in all at a 2% miss probability


class FakeClient:
    """A runner process whose operation takes `op_ns` per iteration, always."""

    def __init__(self, op_ns: int) -> None:
        self.op_ns = op_ns

    def prepare(self, request: Any) -> dict[str, Any]:
        return {
            "status": "ok",
            "check": {"ok": True},
            "messages": 1,
            "sizes": {"encoded": 10},
            "unsupported": [],
            "error": None,
        }

    def sample(
        self, cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
    ) -> dict[str, Any]:
        wall = [iterations * self.op_ns] * samples
        return {
            "iterations": iterations,
            "wall_ns": wall,
            "cpu_ns": wall,
            "alloc_bytes": None,
            "alloc_count": None,
            "gc_count": None,
            "gc_ns": None,
            "compile_ns": None,
        }

    def release(self, cell: str) -> dict[str, Any]:
        return {"event": "released", "cell": cell}


def run_block(
    processes: int, op_ns: int, client: Any = None, timing: Any = QUICK, spec: Any = None
) -> dict[CellKey, dict[str, Any]]:
    spec = spec or RunnerSpec(name="fake", language="c", directory=Path("."), command=["true"])
    results: dict[CellKey, dict[str, Any]] = {}
    block = schedule.Block(
        [schedule.Cell("fake", "lib", "ds", p) for p in range(processes)],
        ["encode"],
        {"fake": spec},
        {"ds": Dataset(name="ds", kind="builtin", data="/dev/null")},
        replace(timing, processes=processes),
        60.0,
        lambda key, result: results.__setitem__(key, result),
        lambda _description, _n: None,
        random.Random(0),
        time.monotonic_ns(),
        slow_share=schedule.SlowShare(prior=SLOW_SHARE, prior_weight=10**9),
    )
    client = client or FakeClient(op_ns)
    by_slot = getattr(client, "for_slot", lambda _slot: client)
    block._client = by_slot  # type: ignore[method-assign]
    block.sessions = {}
    block.run()
    return results


def slices(result: dict[str, Any]) -> int:
    return len(result["timing"]["slice_sizes"])


@pytest.mark.parametrize("processes", [1, 2])
def test_processes_side_by_side_share_the_slices_the_slow_share_asks_for(processes: int) -> None:
    needed = math.ceil(math.log(QUICK.miss_probability) / math.log(SLOW_SHARE))
    results = run_block(processes, op_ns=1_000)
    assert len(results) == processes
    for result in results.values():
        assert result["status"] == "ok" and result["timing"]["confirmed"]
        assert slices(result) == max(QUICK.min_slices, math.ceil(needed / processes))


def test_a_long_operation_of_final_code_warms_up_in_one_slice_windows() -> None:
    # one operation lasts 20 samples' worth: calibration has run it whole already
    (result,) = run_block(1, op_ns=20 * QUICK.min_sample_ns).values()
    assert result["timing"]["warmup"]["steady"] is True
    assert result["timing"]["warmup"]["slices"] == 2 * LONG_FINAL_WINDOW


def test_a_short_operation_of_final_code_warms_up_in_its_profile_windows() -> None:
    (result,) = run_block(1, op_ns=1_000).values()
    assert result["timing"]["warmup"]["slices"] == 2 * QUICK.final_code_window


class ColdCacheClient(FakeClient):
    """Runner processes whose first operation of a command costs `cold` times more when the
    command before it was another process's: that process's work evicted this one's data
    (an untimed operation first takes that cost)."""

    def __init__(self, op_ns: int, cold: float, shared: Any = None, slot: Any = None) -> None:
        super().__init__(op_ns)
        self.cold, self.slot = cold, slot
        self.shared = shared if shared is not None else {"last": None, "commands": []}

    @property
    def commands(self) -> list[tuple[Any, int, int, int]]:
        return self.shared["commands"]

    def for_slot(self, slot: Any) -> ColdCacheClient:
        return ColdCacheClient(self.op_ns, self.cold, self.shared, slot)

    def sample(
        self, cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
    ) -> dict[str, Any]:
        reply = super().sample(cell, operation, iterations, samples)
        if self.shared["last"] != self.slot and not untimed:
            reply["wall_ns"][0] += int((self.cold - 1) * self.op_ns)
        self.shared["last"] = self.slot
        self.commands.append((self.slot, iterations, samples, untimed))
        return reply


@pytest.mark.parametrize("rewarm", [True, False])
def test_a_one_sample_slice_is_timed_after_an_untimed_operation(rewarm: bool) -> None:
    # 100 µs per operation: 12 in a 1 ms sample, each slice after the other process's slice
    client = ColdCacheClient(op_ns=100_000, cold=3.0)
    results = run_block(2, op_ns=100_000, client=client, timing=replace(QUICK, rewarm=rewarm))
    timings = [r["timing"] for r in results.values()]
    per_op = [w / t["iterations"] for t in timings for w in t["wall_ns"]]
    if rewarm:  # one command per slice, its first operation untimed
        assert per_op and all(op == pytest.approx(100_000) for op in per_op)
        measured = [c for c in client.commands if c[1] > 1 and c[3]]
        assert measured and all(c[3] == 1 for c in measured)
        # no command of its own for the untimed operation: one-operation commands are the
        # calibration's first probe, one per process
        assert len([c for c in client.commands if c[1] == 1]) == 2
    else:  # the cold first operation shows in the slices taken after the other process's
        assert max(per_op) > 110_000


@pytest.mark.parametrize("rewarm", [True, False])
def test_a_one_operation_sample_is_timed_second_in_its_command(rewarm: bool) -> None:
    # 2 ms per operation: a sample is one operation, and the first of a command is cold
    client = ColdCacheClient(op_ns=2_000_000, cold=1.5)
    results = run_block(2, op_ns=2_000_000, client=client, timing=replace(QUICK, rewarm=rewarm))
    timings = [r["timing"] for r in results.values()]
    assert all(t["iterations"] == 1 for t in timings)
    walls = [w for t in timings for w in t["wall_ns"]]
    assert all(n == 1 for t in timings for n in t["slice_sizes"])
    if rewarm:  # two operations per command, the cold one dropped
        assert walls and all(w == pytest.approx(2_000_000) for w in walls)
        assert {c[2] for c in client.commands if c[1] == 1} >= {2}
    else:
        assert max(walls) > 2_500_000


def test_a_one_operation_sample_too_long_for_a_lead_is_timed_as_it_comes() -> None:
    # 30 ms: two per slice would not fit QUICK's 3 slices into its 120 ms budget
    client = ColdCacheClient(op_ns=30_000_000, cold=1.5)
    results = run_block(2, op_ns=30_000_000, client=client)
    assert all(c[2] == 1 for c in client.commands)
    assert all(r["status"] == "ok" for r in results.values())


class PhasedClient(FakeClient):
    """Processes of one operation of 5 ms whose measured slices (the commands of a timed
    sample after a dropped one) take 1.5x but for those `fast` lists per process."""

    def __init__(self, fast: dict[int, set[int]], slot: Any = None) -> None:
        super().__init__(5 * QUICK.min_sample_ns)
        self.fast, self.slot, self.measured = fast, slot, 0

    def for_slot(self, slot: Any) -> PhasedClient:
        return self.__dict__.setdefault(f"slot {slot}", PhasedClient(self.fast, slot))

    def sample(
        self, cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
    ) -> dict[str, Any]:
        reply = super().sample(cell, operation, iterations, samples, untimed)
        if samples == 2:  # a measured slice: warm-up takes 3, calibration 1
            if self.measured not in self.fast[self.slot[1]]:
                reply["wall_ns"] = reply["cpu_ns"] = [w * 3 // 2 for w in reply["wall_ns"]]
            self.measured += 1
        return reply


@pytest.mark.parametrize("budgets", [1, 3])
def test_a_cell_no_process_confirmed_measures_on_until_one_does(budgets: int) -> None:
    """Each slice costs 10-15 ms (the dropped operation too): the 0.12 s budget ends after
    9; process 0 reaches its fast mode in its 16th slice, process 1 never does."""
    client = PhasedClient({0: {0, 12, 13, 14, 15}, 1: {0}})
    timing = replace(QUICK, unconfirmed_budgets=budgets)
    results = run_block(2, op_ns=0, client=client, timing=timing)
    first, second = (results[CellKey("fake", "lib", "ds", "encode", p)] for p in (0, 1))
    if budgets == 1:  # both stop at the budget, unconfirmed: a tie-break process follows
        assert [slices(first), slices(second)] == [9, 9]
        assert not first["timing"]["confirmed"] and not second["timing"]["confirmed"]
    else:  # both measure on; process 1 stops once process 0 is confirmed
        assert slices(first) == 16 and first["timing"]["confirmed"]
        assert slices(second) in (16, 17) and not second["timing"]["confirmed"]


class QueuedCompileClient(FakeClient):
    """A tiered JIT whose optimised code arrives after `compiled_at_ns` of the process's
    operations: until then each operation takes twice as long, and the runtime says a
    compilation is still queued (`compile_ns` 1) when `signal` is on."""

    def __init__(self, op_ns: int, compiled_at_ns: int, signal: bool) -> None:
        super().__init__(op_ns)
        self.compiled_at_ns, self.signal, self.spent_ns = compiled_at_ns, signal, 0

    def sample(
        self, cell: str, operation: str, iterations: int, samples: int, untimed: int = 0
    ) -> dict[str, Any]:
        queued = self.spent_ns < self.compiled_at_ns
        reply = super().sample(cell, operation, iterations, samples)
        if queued:
            reply["wall_ns"] = reply["cpu_ns"] = [2 * w for w in reply["wall_ns"]]
        self.spent_ns += sum(reply["wall_ns"])
        reply["compile_ns"] = int(queued and self.signal)
        return reply


@pytest.mark.parametrize("signal", [True, False])
def test_warm_up_waits_for_a_compilation_the_runtime_says_is_queued(signal: bool) -> None:
    # 100 µs an operation: the invocation count would take 2 s, so the JIT minimum ends the
    # count; the optimised code arrives at twice that minimum, within the backlog cap
    op_ns, compiled_at = 100_000, 2 * QUICK.jit_warmup_min_ns
    client = QueuedCompileClient(op_ns, compiled_at, signal)
    spec = RunnerSpec(
        name="fake", language="c", directory=Path("."), command=["true"], jit="tiered"
    )
    (result,) = run_block(1, op_ns, client=client, spec=spec).values()
    per_op = min(result["timing"]["wall_ns"]) / result["timing"]["iterations"]
    if signal:  # the queue kept warm-up going until the code was final
        assert result["timing"]["warmup"]["spent_ns"] >= compiled_at
        assert per_op == op_ns
    else:  # without it, a flat stretch of the earlier tier reads as steady
        assert per_op == 2 * op_ns


class VerifyingClient(FakeClient):
    """A runner that honours `verify: false`: no check and no codec sizes in its reply."""

    def __init__(self, op_ns: int) -> None:
        super().__init__(op_ns)
        self.requests: list[dict[str, Any]] = []

    def prepare(self, request: Any) -> dict[str, Any]:
        self.requests.append(request)
        if request.get("verify", True):
            detail = {"ok": True, "detail": "1 message equal"}
            return {
                **super().prepare(request),
                "check": detail,
                "sizes": {"encoded": 10, "zstd": 7},
            }
        return {**super().prepare(request), "check": None, "sizes": {"encoded": 10}}


def test_a_cells_other_processes_skip_the_check_its_first_one_made() -> None:
    spec = RunnerSpec(name="fake", language="c", directory=Path("."), command=["true"])
    checked = schedule.Checked()
    results: dict[CellKey, dict[str, Any]] = {}
    client = VerifyingClient(50_000)
    # the rounds' block (two processes side by side), then a tie-break process's block
    for processes in ([0, 1], [2]):
        block = schedule.Block(
            [schedule.Cell("fake", "lib", "ds", p) for p in processes],
            ["encode"],
            {"fake": spec},
            {"ds": Dataset(name="ds", kind="builtin", data="/dev/null")},
            QUICK,
            60.0,
            lambda key, result: results.__setitem__(key, result),
            lambda _description, _n: None,
            random.Random(0),
            time.monotonic_ns(),
            checked=checked,
        )
        block._client = lambda _slot: client  # type: ignore[method-assign]
        block.run()
    # process 1 waited for process 0's prepare and did not check again
    assert [r.get("verify", True) for r in client.requests] == [True, False, False]
    first, *later = (results[CellKey("fake", "lib", "ds", "encode", p)] for p in range(3))
    assert first["check"] == {"ok": True, "detail": "1 message equal"}
    for r in later:
        assert r["check"] == {"ok": True, "detail": "1 message equal (checked by process 0)"}
        assert r["sizes"] == first["sizes"] == {"encoded": 10, "zstd": 7}
        assert r["status"] == "ok" and r["timing"]["wall_ns"]
