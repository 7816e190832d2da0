"""What an outcome means: per conformance case, and per corrupted input."""

from __future__ import annotations

from typing import Any

from serbench.timing import UNTRUSTED_SLOW_FACTOR, UNTRUSTED_SLOW_FLOOR_NS
from serbench.untrusted.driver import Outcome
from serbench.untrusted.suites import Case
from serbench.untrusted.values import first_difference

CONFORMANCE = (
    "passed",
    "should_have_accepted",
    "should_have_rejected",
    "wrong_value",
    "crash",
    "timeout",
)
ROBUSTNESS = (
    "rejected",
    "accepted_same",
    "accepted_different",
    "crash",
    "hang",
    "excessive_allocation",
    "slow",
)
# the robustness classes a user must see: each has a reproducer and a replay command
FAILURES = ("crash", "hang", "excessive_allocation", "slow")


def conformance(case: Case, outcome: Outcome) -> tuple[str, str]:
    """(class, detail) of one decode case."""
    if outcome.kind in ("crash", "error", "excessive_allocation"):
        return "crash", outcome.error or outcome.kind
    if outcome.kind == "hang":
        return "timeout", outcome.error or "hang"
    if case.expect == "either":
        return "passed", outcome.kind  # i_ cases: which way the library went
    if outcome.kind == "rejected":
        if case.expect == "accept":
            return "should_have_accepted", outcome.error or ""
        return "passed", "rejected"
    if case.expect == "reject":
        return "should_have_rejected", "accepted"
    if case.has_value:
        diff = first_difference(case.value, outcome.value)
        if diff:
            return "wrong_value", diff
    return "passed", "accepted"


def encoding(case: Case, produced: bytes | None, error: str | None) -> tuple[str, str]:
    """(class, detail) of encoding a case's value: one of its listed encodings, or not."""
    if produced is None:
        return "crash", error or "no answer"
    if produced in case.encodings:
        return "passed", produced.hex()
    return "wrong_value", f"{produced.hex()[:40]} not among {[e.hex() for e in case.encodings]}"


def robustness(outcome: Outcome, reference: Any, reference_ns: int | None) -> str:
    """The class of one corrupted input, against the decode of the valid one."""
    if outcome.kind == "error":
        return "crash"
    if outcome.kind in ("crash", "hang", "excessive_allocation"):
        return outcome.kind
    if (
        reference_ns
        and outcome.ns is not None
        and outcome.ns > max(UNTRUSTED_SLOW_FACTOR * reference_ns, UNTRUSTED_SLOW_FLOOR_NS)
    ):
        return "slow"
    if outcome.kind == "rejected":
        return "rejected"
    same = first_difference(reference, outcome.value) is None
    return "accepted_same" if same else "accepted_different"
