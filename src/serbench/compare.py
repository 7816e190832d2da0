"""Two runs compared cell operation by cell operation: the ratio B / A of the headlines,
its 95% interval and a verdict (faster, slower, no difference) from a test that allows for
the variation between runs (docs/method.md, "Comparing runs").

Each run's own 95% interval comes from the hierarchical bootstrap in stats.py (processes,
then slices), so the variation between processes of a run is inside it. Two things are
not, and the test adds them:

- a floor, ``RUN_FLOOR``: a run-to-run variation of the headline that no interval made
  inside one run can see (the machine's load drifting between runs, a one-process quick
  run that cannot sample the between-process luck);
- an inflation factor measured on the comparison itself: if the runs disagree on the
  cells more than their intervals say (robustly: the median squared z-score over all
  matched cells, which most cells that truly changed cannot move), every interval is
  widened by that factor. This is "genomic control" (Devlin & Roeder 1999) applied to
  benchmark cells; it assumes most cells did not change.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from statistics import NormalDist

from serbench import baseline
from serbench.report.model import Row, RunReport, build
from serbench.stats import Estimate
from serbench.store import Store

Z95 = NormalDist().inv_cdf(0.975)
RUN_FLOOR = 0.005  # relative SD of a headline between runs that one run cannot see
MIN_CELLS_FOR_INFLATION = 8  # fewer matched cells: the factor is not estimated (1)
MEDIAN_CHI2_1 = 0.454936  # median of a chi-square with one degree of freedom

VERDICTS = ("faster", "slower", "no difference", "no verdict", "added", "removed")


@dataclass
class CellComparison:
    dataset: str
    cell: str  # runner/serializer
    operation: str
    a: Estimate | None
    b: Estimate | None
    verdict: str  # one of VERDICTS
    why: str = ""  # for "no verdict": the reason
    ratio: float | None = None  # B / A
    low: float | None = None
    high: float | None = None
    p: float | None = None  # two-sided, against "no difference"
    sigma: float = 0.0  # SD of log(B / A) used by the test, before inflation

    @property
    def change(self) -> float | None:
        """B against A in percent (+5.0: B is 5% slower)."""
        return None if self.ratio is None else 100 * (self.ratio - 1)


@dataclass
class Comparison:
    a_label: str
    b_label: str
    cells: list[CellComparison] = field(default_factory=list)
    inflation: float = 1.0  # the factor every tested interval was widened by
    floor: float = RUN_FLOOR
    unit: str = "ns"  # or "instructions": both runs measured the same

    def counts(self) -> dict[str, int]:
        c = Counter(x.verdict for x in self.cells)
        return {v: c[v] for v in VERDICTS if c[v]}

    def regressions(self, above_pct: float) -> list[CellComparison]:
        """Cells significantly slower whose estimated slowdown exceeds ``above_pct``."""
        return [
            x
            for x in self.cells
            if x.verdict == "slower" and x.change is not None and x.change > above_pct
        ]

    def datasets(self) -> list[str]:
        return list(dict.fromkeys(x.dataset for x in self.cells))


def _log_sd(e: Estimate) -> float:
    """The SD of log(headline) implied by a run's 95% interval (normal approximation)."""
    if e.ci_low_ns <= 0 or e.headline_ns <= 0:
        return math.inf
    return math.log(e.ci_high_ns / e.ci_low_ns) / (2 * Z95)


def _unusable(row: Row | None, e: Estimate | None) -> str:
    if row is not None and row.status != "ok":
        return row.status + (f": {row.detail}" if row.detail else "")
    if e is not None and e.steady is False:
        return "not-steady"
    if e is not None and e.processes_disagree:
        return "processes-disagree (a range, no single figure)"
    if e is not None and e.unconfirmed:
        return "unconfirmed (a range, no single figure)"
    return ""


def _pair(dataset: str, ra: Row | None, rb: Row | None) -> list[CellComparison]:
    name = (ra or rb).name  # type: ignore[union-attr]
    ops = list(dict.fromkeys([*(ra.ops if ra else {}), *(rb.ops if rb else {})]))
    if not ops:  # a row without timings (NG, n/a, error) in one or both runs
        ops = ["-"]
    out = []
    for op in ops:
        a = ra.ops.get(op) if ra else None
        b = rb.ops.get(op) if rb else None
        reasons = [
            f"{side}: {why}"
            for side, row, e in (("A", ra, a), ("B", rb, b))
            if (why := _unusable(row, e))
        ]
        if ra is None or rb is None or (not reasons and (a is None or b is None)):
            out.append(CellComparison(dataset, name, op, a, b, "added" if a is None else "removed"))
        elif reasons:
            out.append(CellComparison(dataset, name, op, a, b, "no verdict", "; ".join(reasons)))
        else:
            sigma = math.sqrt(_log_sd(a) ** 2 + _log_sd(b) ** 2 + 2 * RUN_FLOOR**2)
            ratio = b.headline_ns / a.headline_ns
            out.append(CellComparison(dataset, name, op, a, b, "", ratio=ratio, sigma=sigma))
    return out


def _inflation(tested: list[CellComparison]) -> float:
    """How much wider the intervals must be for the runs' disagreement over all cells to be
    typical: sqrt(median z^2 / median of chi-square(1)), at least 1."""
    z2 = sorted((math.log(x.ratio) / x.sigma) ** 2 for x in tested if x.ratio and x.sigma)  # type: ignore[arg-type]
    if len(z2) < MIN_CELLS_FOR_INFLATION:
        return 1.0
    mid = len(z2) // 2
    median = z2[mid] if len(z2) % 2 else (z2[mid - 1] + z2[mid]) / 2
    return max(1.0, math.sqrt(median / MEDIAN_CHI2_1))


def _decide(x: CellComparison, inflation: float) -> None:
    d = math.log(x.ratio)  # type: ignore[arg-type]
    s = x.sigma * inflation
    x.low, x.high = math.exp(d - Z95 * s), math.exp(d + Z95 * s)
    x.p = 2 * (1 - NormalDist().cdf(abs(d) / s)) if s > 0 else 0.0
    x.verdict = "slower" if x.low > 1 else "faster" if x.high < 1 else "no difference"


def compare(a: RunReport, b: RunReport, a_label: str = "A", b_label: str = "B") -> Comparison:
    """Every cell operation of either run, matched by dataset, runner/serializer, operation."""
    if a.unit != b.unit:
        raise ValueError(
            f"run {a.run['id']} measured {a.unit}, run {b.run['id']} {b.unit}: "
            "compare runs of one measure"
        )
    result = Comparison(a_label, b_label, unit=a.unit)
    for dataset in dict.fromkeys([*a.tables, *b.tables]):
        rows_a = {r.name: r for r in a.tables.get(dataset, [])}
        rows_b = {r.name: r for r in b.tables.get(dataset, [])}
        for name in dict.fromkeys([*rows_a, *rows_b]):
            result.cells += _pair(dataset, rows_a.get(name), rows_b.get(name))
    tested = [x for x in result.cells if x.verdict == ""]
    result.inflation = _inflation(tested)
    for x in tested:
        _decide(x, result.inflation)
    return result


def load(store: Store, a_ref: str, b_ref: str, db: str) -> Comparison:
    """Compare two stored runs named by run id, baseline name or `latest`."""
    a, b = (build(store, baseline.resolve(ref, db)) for ref in (a_ref, b_ref))
    label = "run {}{}".format
    return compare(
        a,
        b,
        label(a.run["id"], "" if a_ref.isdigit() else f" ({a_ref})"),
        label(b.run["id"], "" if b_ref.isdigit() else f" ({b_ref})"),
    )
