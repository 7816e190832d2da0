"""Claim verdicts on crafted rows: the interval decides, a cell's imprecision alone does not,
and a cell with no single figure decides only on its whole range."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from serbench import reference
from serbench.report import Row, RunReport
from serbench.stats import Estimate

CLAIM = "Protobuf deserializes faster than MessagePack"  # S1: msgpack / protobuf >= 1


def estimate(
    headline: float,
    half_pct: float = 1.0,
    *,
    steady: bool | None = True,
    processes: tuple[float, ...] | None = None,
) -> Estimate:
    """A decode estimate: headline ± half_pct %, and each process's fastest slice (all of
    them agreeing with the headline unless given)."""
    fastest = processes or (headline,) * 3
    agreeing = sum(f <= 1.10 * min(fastest) for f in fastest)
    half = headline * half_pct / 100
    values: dict[str, Any] = {f.name: 0 for f in fields(Estimate)}
    values.update(
        n=300,
        slices=30,
        processes=len(fastest),
        headline_ns=headline,
        ci_low_ns=headline - half,
        ci_high_ns=headline + half,
        min_ns=min(fastest),
        median_ns=headline,
        mean_ns=headline,
        cpu_headline_ns=None,
        process_min_ns=min(fastest),
        process_max_ns=max(fastest),
        processes_agreeing=agreeing,
        alloc_bytes=None,
        alloc_count=None,
        peak_alloc_bytes=None,
        gc_per_op=None,
        steady=steady,
        iterations=1,
    )
    if "processes_confirmed" in values:  # every process reached its fast mode
        values["processes_confirmed"] = len(fastest)
    return Estimate(**values)


def s1_report(msgpack: Estimate, protobuf: Estimate) -> RunReport:
    rows = [
        Row("java", "msgpack-core", "msgpack", ops={"decode": msgpack}),
        Row("java", "protobuf", "protobuf", ops={"decode": protobuf}),
    ]
    return RunReport({"id": 1, "config": {}}, {"android-users": rows}, ["decode"])


def verdict(msgpack: Estimate, protobuf: Estimate) -> reference.Verdict:
    found = reference.check_claims("S1", s1_report(msgpack, protobuf))
    (v,) = [v for v in found if v.claim == CLAIM]
    assert (v.verdict == "undecided") == bool(v.why), v
    return v


def test_an_imprecise_cell_far_from_every_threshold_decides() -> None:
    # the java case: 0.34x [0.33, 0.36] while protobuf's decode is ±3.5%
    protobuf = estimate(1000, 3.5)
    assert not protobuf.precise
    v = verdict(estimate(340), protobuf)
    assert v.verdict == "does not hold" and v.why == ""
    assert v.low is not None and v.high is not None and v.high < 1
    assert v.evidence == "java/msgpack-core / java/protobuf"


def test_a_straddling_interval_names_the_imprecise_cell_when_that_is_why() -> None:
    # [0.99, 1.23] straddles 1; at ±3% protobuf's cell would put it wholly above 1
    v = verdict(estimate(1100), estimate(1000, 10.0))
    assert v.verdict == "undecided"
    assert "straddles 1.00x" in v.why
    assert "java/protobuf decode is imprecise (±10.0%)" in v.why


def test_a_ratio_on_the_threshold_is_not_blamed_on_imprecision() -> None:
    # 1.00x: no precision would decide it, so no cell is named
    v = verdict(estimate(1000), estimate(1000, 5.0))
    assert v.verdict == "undecided"
    assert "straddles 1.00x" in v.why and "imprecise" not in v.why


def test_processes_that_disagree_decide_on_the_whole_range() -> None:
    protobuf = estimate(1000, processes=(900.0, 1400.0, 1700.0))
    assert protobuf.processes_disagree
    v = verdict(estimate(3000), protobuf)  # 2970 / 1700 > 1 for every value in the range
    assert v.verdict == "holds" and v.why == ""
    assert "decided on the range of a cell whose processes disagree" in v.evidence
    assert "(java/protobuf decode)" in v.evidence


def test_processes_that_disagree_straddling_leave_it_undecided() -> None:
    # the interval alone ([1.18, 1.22]) would say holds, but the range reaches 0.70x
    v = verdict(estimate(1200), estimate(1000, processes=(900.0, 1400.0, 1700.0)))
    assert v.verdict == "undecided"
    assert "java/protobuf decode has no single figure (processes disagree)" in v.why
    assert "the range [" in v.why and "straddles 1.00x" in v.why


def test_a_cell_that_is_not_steady_decides_only_on_its_range() -> None:
    unsteady = estimate(1000, steady=False, processes=(800.0, 850.0, 1500.0))
    straddling = verdict(estimate(1200), unsteady)  # range ratio [0.79, 1.52]
    assert straddling.verdict == "undecided"
    assert "java/protobuf decode has no single figure (not steady)" in straddling.why
    decided = verdict(estimate(5000), unsteady)
    assert decided.verdict == "holds"
    assert "decided on the range of a cell that is not steady" in decided.evidence


def test_the_spread_claim_decides_with_an_imprecise_library() -> None:
    rows = [
        Row("dotnet", name, "json", ops={"encode": estimate(t, pct)})
        for name, t, pct in (("a", 1000, 4.0), ("b", 5000, 1.0), ("c", 40000, 6.0))
    ]
    rep = RunReport({"id": 1, "config": {}}, {"log-records": rows}, ["encode"])
    (v,) = [v for v in reference.check_claims("S5", rep) if "JSON encode" in v.claim]
    assert v.verdict == "holds" and v.why == ""
    assert v.evidence == "dotnet/c / dotnet/a"
