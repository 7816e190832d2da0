"""Two runs compared cell operation by cell operation: the ratio B / A of the headlines,
its 95% interval and a verdict (faster, slower, no difference) from a test that allows for
the variation between runs (docs/method.md, "Comparing runs").

What moves a headline between identical runs is mostly which fresh processes a run got:
two processes of the same code differ by 5-10% on this project's machines, and a quick
run has two of them. So each run's variance of its log headline is the variance between
its processes' figures divided by their number, a random-effects mean. With two or three
processes one cell's own variance is a poor estimate (one or two degrees of freedom), so
it is moderated towards what the same runner's other cells in that run show: the
empirical-Bayes t-test of Smyth (2004), whose prior (d0, s0^2) is fitted by moments to
all of the runner's cells (``stats.moderated_process_var``; the reports widen every
interval by the same quantity). A one-process run falls back to its hierarchical
bootstrap.

Two more things the processes cannot show, and the test adds them:

- a floor, ``RUN_FLOOR``: a run-to-run variation of the headline that no interval made
  inside one run can see (the machine's load drifting between runs);
- an inflation factor measured on the comparison itself, per block (one runner on one
  dataset: what one stretch of the run measured side by side): if a block's cells
  disagree more than the test allows (robustly: their median squared z-score, which a
  minority of cells that truly changed cannot move), its intervals are widened by that
  factor. This is "genomic control" (Devlin & Roeder 1999) applied to benchmark cells; it
  assumes most cells of a block did not change. Blocks run minutes apart, and a block
  whose machine phase moved (every cell of it a few percent off, alike) is what most
  false differences between identical runs came from.

- the tails of the null, fitted to the comparison: identical quick runs' z-scores are
  normal in their middle but not in their far tails (on three identical pairs 0.8% of cells
  beyond |z| = 3, the normal's 0.27%: a cell whose processes all spent its measurement in
  one slow phase), and the gate's q-values over thousands of cells live in those tails. So
  p-values and intervals read z on a Student t whose degrees of freedom are fitted by
  maximum likelihood to all tested cells' z (scale 1: the block factor has fitted the
  middle). Light tails give a large df, i.e. the normal, and change nothing. This is an
  empirical null in the sense of Efron (2004), with its shape, not its centre, estimated.

Verdicts are per cell at 95%. The CI gate (``regressions``) makes one decision over all
cells, so it also asks for a Benjamini-Hochberg q-value of at most ``ALPHA``: among
thousands of unchanged cells, 5% per cell would fail every build.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import special, stats
from scipy.optimize import minimize_scalar

from serbench import baseline
from serbench.report.model import Row, RunReport, build
from serbench.stats import Z95, Estimate, Prior, moderated_process_var
from serbench.store import Store

RUN_FLOOR = 0.005  # relative SD of a headline between runs that one run cannot see
MIN_CELLS_FOR_INFLATION = 8  # fewer tested cells: the factor is not estimated (1)
MEDIAN_CHI2_1 = 0.454936  # median of a chi-square with one degree of freedom
ALPHA = 0.05  # the gate's false discovery rate over all tested cells
MIN_CELLS_FOR_TAILS = 30  # fewer tested cells: the null's tails are not fitted (normal)
TAIL_DF_RANGE = (3.0, 1000.0)  # the fitted df's bounds; the upper one is the normal

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
    q: float | None = None  # p adjusted for all tested cells (Benjamini-Hochberg)
    sigma: float = 0.0  # SD of log(B / A) used by the test, before inflation
    df: float = math.inf  # its degrees of freedom (Welch-Satterthwaite)
    inflation: float = 1.0  # the factor its block's interval was widened by

    @property
    def block(self) -> tuple[str, str]:
        """The runner and dataset: the cells measured side by side in one stretch."""
        return _runner(self.cell), self.dataset

    @property
    def change(self) -> float | None:
        """B against A in percent (+5.0: B is 5% slower)."""
        return None if self.ratio is None else 100 * (self.ratio - 1)


@dataclass
class Comparison:
    a_label: str
    b_label: str
    cells: list[CellComparison] = field(default_factory=list)
    inflation: float = 1.0  # over all tested cells (a block with too few cells uses it)
    block_inflation: dict[tuple[str, str], float] = field(default_factory=dict)
    floor: float = RUN_FLOOR
    tail_df: float = math.inf  # the null's tails: a t with this df (inf: the normal)
    unit: str = "ns"  # or "instructions": both runs measured the same

    def counts(self) -> dict[str, int]:
        c = Counter(x.verdict for x in self.cells)
        return {v: c[v] for v in VERDICTS if c[v]}

    def regressions(self, above_pct: float) -> list[CellComparison]:
        """Cells slower beyond ``above_pct`` that stay significant over all tested cells
        (q <= ALPHA): the gate's one decision for the whole comparison."""
        return [
            x
            for x in self.cells
            if x.verdict == "slower"
            and x.change is not None
            and x.change > above_pct
            and x.q is not None
            and x.q <= ALPHA
        ]

    def datasets(self) -> list[str]:
        return list(dict.fromkeys(x.dataset for x in self.cells))


def _log_sd(e: Estimate) -> float:
    """The SD of log(headline) implied by a run's 95% interval (normal approximation)."""
    if e.ci_low_ns <= 0 or e.headline_ns <= 0:
        return math.inf
    return math.log(e.ci_high_ns / e.ci_low_ns) / (2 * Z95)


def _runner(cell: str) -> str:
    return cell.split("/", 1)[0]


@dataclass(frozen=True)
class _Spread:
    var: float  # of the log headline
    df: float


def _spread(e: Estimate, prior: Prior | None) -> _Spread:
    """A run's variance of one log headline: its processes' moderated variance over their
    number; a one-process run has only its bootstrap interval."""
    moderated = moderated_process_var(e, prior)
    if moderated is None:
        return _Spread(_log_sd(e) ** 2, math.inf)
    return _Spread(*moderated)


def _welch(parts: list[_Spread]) -> tuple[float, float]:
    """The SD of a sum of independent parts and its Welch-Satterthwaite degrees of freedom."""
    total = sum(p.var for p in parts)
    den = sum(p.var**2 / p.df for p in parts if math.isfinite(p.df) and p.var > 0)
    return math.sqrt(total), math.inf if den == 0 else total**2 / den


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


Priors = dict[str, Prior | None]


def _pair(
    dataset: str, ra: Row | None, rb: Row | None, pa: Priors, pb: Priors
) -> list[CellComparison]:
    name = (ra or rb).name  # type: ignore[union-attr]
    ops = list(dict.fromkeys([*(ra.ops if ra else {}), *(rb.ops if rb else {})]))
    if not ops:  # a row without timings (NG, n/a, error) in one or both runs
        ops = ["-"]
    out = []
    floor = _Spread(RUN_FLOOR**2, math.inf)
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
            runner = _runner(name)
            parts = [_spread(a, pa.get(runner)), _spread(b, pb.get(runner)), floor, floor]  # type: ignore[arg-type]
            sigma, df = _welch(parts)
            ratio = b.headline_ns / a.headline_ns  # type: ignore[union-attr]
            out.append(CellComparison(dataset, name, op, a, b, "", ratio=ratio, sigma=sigma, df=df))
    return out


def _z(x: CellComparison, inflation: float = 1.0) -> float:
    """|log ratio| over its SD as a normal deviate of the same p (a t value made normal)."""
    t = abs(math.log(x.ratio)) / (x.sigma * inflation)  # type: ignore[arg-type]
    return t if math.isinf(x.df) else -float(special.ndtri(special.stdtr(x.df, -t)))  # inf at p=0


def _inflation(tested: list[CellComparison]) -> float:
    """How much wider the intervals must be for the runs' disagreement over all cells to be
    typical: sqrt(median z^2 / median of chi-square(1)), at least 1."""
    z2 = [_z(x) ** 2 for x in tested if x.ratio and x.sigma]
    if len(z2) < MIN_CELLS_FOR_INFLATION:
        return 1.0
    return max(1.0, math.sqrt(float(np.median(z2)) / MEDIAN_CHI2_1))


def fit_tails(z: list[float]) -> float:
    """The df of the Student t that fits these |z| best (maximum likelihood, scale 1), or
    inf when there are too few of them to fit or the fit reaches the normal."""
    finite = np.asarray([v for v in z if math.isfinite(v)], float)
    if len(finite) < MIN_CELLS_FOR_TAILS:
        return math.inf
    lo, hi = np.log(TAIL_DF_RANGE)
    fit = minimize_scalar(
        lambda log_df: -float(np.sum(stats.t.logpdf(finite, math.exp(log_df)))),
        bounds=(lo, hi),
        method="bounded",
    )
    df = math.exp(float(fit.x))
    return math.inf if df >= 0.99 * TAIL_DF_RANGE[1] else df


def _decide(x: CellComparison, inflation: float, tail_df: float = math.inf) -> None:
    """Interval, p and verdict of one cell: its t value made normal (``_z``) read on the
    null's fitted tails, and the interval's half-width taken back to the cell's own t."""
    d = math.log(x.ratio)  # type: ignore[arg-type]
    s = x.sigma * inflation
    z95 = Z95 if math.isinf(tail_df) else float(stats.t.ppf(0.975, tail_df))
    quantile = z95 if math.isinf(x.df) else -float(special.stdtrit(x.df, special.ndtr(-z95)))
    x.low, x.high = math.exp(d - quantile * s), math.exp(d + quantile * s)
    z = _z(x, inflation) if s > 0 else math.inf
    x.p = 2 * (float(special.ndtr(-z)) if math.isinf(tail_df) else float(stats.t.sf(z, tail_df)))
    x.verdict = "slower" if x.low > 1 else "faster" if x.high < 1 else "no difference"


def compare(
    a: RunReport,
    b: RunReport,
    a_label: str = "A",
    b_label: str = "B",
    given: tuple[Priors, Priors] | None = None,
) -> Comparison:
    """Every cell operation of either run, matched by dataset, runner/serializer, operation.
    ``given``: the runs' priors when a and b are parts of runs (``versions``)."""
    if a.unit != b.unit:
        raise ValueError(
            f"run {a.run['id']} measured {a.unit}, run {b.run['id']} {b.unit}: "
            "compare runs of one measure"
        )
    result = Comparison(a_label, b_label, unit=a.unit)
    pa, pb = given or (a.priors, b.priors)
    for dataset in dict.fromkeys([*a.tables, *b.tables]):
        rows_a = {r.name: r for r in a.tables.get(dataset, [])}
        rows_b = {r.name: r for r in b.tables.get(dataset, [])}
        for name in dict.fromkeys([*rows_a, *rows_b]):
            result.cells += _pair(dataset, rows_a.get(name), rows_b.get(name), pa, pb)
    tested = [x for x in result.cells if x.verdict == ""]
    result.inflation = _inflation(tested)
    blocks: dict[tuple[str, str], list[CellComparison]] = defaultdict(list)
    for x in tested:
        blocks[x.block].append(x)
    for key, cells in blocks.items():
        factor = _inflation(cells) if len(cells) >= MIN_CELLS_FOR_INFLATION else result.inflation
        result.block_inflation[key] = factor
        for x in cells:
            x.inflation = factor
    result.tail_df = fit_tails([_z(x, x.inflation) for x in tested if x.sigma > 0])
    for x in tested:
        _decide(x, x.inflation, result.tail_df)
    if tested:
        from scipy.stats import false_discovery_control  # a second of import: only here

        qs = false_discovery_control([x.p for x in tested])
        for x, q in zip(tested, qs, strict=True):
            x.q = float(q)
    return result


VERSION_MARK = "@"  # `java/kryo@3.0.3`: a library's older version beside today's `java/kryo`


def today(name: str) -> str:
    """The row a version row is lined up with: `java/kryo@3.0.3` -> `java/kryo`."""
    return name.split(VERSION_MARK, 1)[0]


def versions(rep: RunReport) -> Comparison:
    """Within one run, every version row (A: `lib@version`) against today's row of the same
    library (B), cell operation by cell operation, with the run's own priors."""
    old: dict[str, list[Row]] = {}
    now: dict[str, list[Row]] = {}
    pinned_names: set[str] = set()
    for dataset, rows in rep.tables.items():
        names = {r.name for r in rows}
        pinned = [r for r in rows if VERSION_MARK in r.name and today(r.name) in names]
        pinned_names |= {r.name for r in pinned}
        old[dataset] = [replace(r, serializer=today(r.serializer)) for r in pinned]
        now[dataset] = [r for r in rows if r.name in {today(p.name) for p in pinned}]
    prior = rep.priors
    label = f"run {rep.run['id']}"
    return compare(
        replace(rep, tables=old),
        replace(rep, tables=now),
        f"{label}: {', '.join(sorted(pinned_names)) or 'no version rows'}",
        f"{label}: today's versions",
        given=(prior, prior),
    )


def load_versions(store: Store, ref: str, db: str) -> Comparison:
    """`compare.versions` of one stored run named by run id, baseline name or `latest`."""
    return versions(build(store, baseline.resolve(ref, db)))


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
