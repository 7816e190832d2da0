"""Machine-readable exports of the report model: serbench's own JSON (its schema is
docs/report.schema.json), Bencher's metric format, and Go benchmark text for benchstat."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from serbench.report.model import Row, RunReport
from serbench.stats import Estimate, slice_medians


def as_json(report: RunReport) -> str:
    out = {
        "run": report.run,
        "datasets": {
            ds: [
                {
                    "runner": r.runner,
                    "serializer": r.serializer,
                    "format": r.format,
                    "library": r.library,
                    "version": r.version,
                    "labels": r.labels,
                    "footprint_bytes": r.footprint_bytes,
                    "check": r.status,
                    "detail": r.detail,
                    "sizes": r.sizes,
                    "flags": r.flags,
                    "operations": {op: e.as_dict() for op, e in r.ops.items()},
                }
                for r in rows
            ]
            for ds, rows in report.tables.items()
        },
    }
    return json.dumps(out, indent=2)


def _measured(report: RunReport) -> Iterator[tuple[str, Row, str, Estimate]]:
    """(dataset, row, operation, estimate) for every operation with a number to show:
    checked OK with a figure (a not-steady, processes-disagree or unconfirmed cell has no
    number in any rendering)."""
    for dataset, rows in report.tables.items():
        for row in rows:
            if row.status != "ok":
                continue
            for op, est in row.ops.items():
                if est.has_figure:
                    yield dataset, row, op, est


def as_bencher(report: RunReport) -> str:
    """Bencher Metric Format: {benchmark: {measure: {value, lower_value, upper_value}}}.
    One benchmark per cell operation, "<dataset> <runner>/<serializer> <operation>", with
    Bencher's built-in `latency` measure in nanoseconds (the headline and its 95% interval);
    encode benchmarks also carry the encoded size as `encoded-bytes`."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for dataset, row, op, est in _measured(report):
        metrics: dict[str, dict[str, float]] = {
            "latency": {
                "value": est.headline_ns,
                "lower_value": est.ci_low_ns,
                "upper_value": est.ci_high_ns,
            }
        }
        if op == "encode" and "encoded" in row.sizes:
            metrics["encoded-bytes"] = {"value": float(row.sizes["encoded"])}
        out[f"{dataset} {row.name} {op}"] = metrics
    return json.dumps(out, indent=2)


def _bench_key(value: str) -> str:
    """A sub-benchmark value without the characters the Go format gives a meaning to."""
    return re.sub(r"[\s/=]", "_", value)


def as_benchstat(report: RunReport) -> str:
    """Go benchmark text (golang.org/design/14313-benchmark-format), one result line per
    slice: `BenchmarkSerbench/dataset=D/runner=R/serializer=S/op=O  N  X ns/op`, N the
    operations in the slice's samples and X the slice's median per operation. Two such
    files feed `benchstat old.txt new.txt`. benchstat treats the slices as independent
    draws; they are not (docs/method.md), so its intervals are narrower than
    `serbench compare`'s."""
    env = report.run.get("environment", {})
    lines = [
        "goos: linux",
        f"cpu: {env.get('cpu_model') or 'unknown'}",
        f"scale: {report.run['config'].get('scale', '')}",
        # Not a configuration line: benchstat would put two runs in different tables.
        f"# serbench run {report.run['id']}",
    ]
    for dataset, row, op, _ in _measured(report):
        name = "BenchmarkSerbench/" + "/".join(
            f"{k}={_bench_key(v)}"
            for k, v in (
                ("dataset", dataset),
                ("runner", row.runner),
                ("serializer", row.serializer),
                ("op", op),
            )
        )
        for timing in row.raw.get(op, []):
            sizes = timing.get("slice_sizes") or [1] * len(timing["wall_ns"])
            n = int(timing["iterations"])
            for size, median in zip(sizes, slice_medians(timing), strict=True):
                lines.append(f"{name}\t{n * size}\t{median:.2f} ns/op")
    return "\n".join(lines)


EXPORTS: dict[str, Callable[[RunReport], str]] = {
    "json": as_json,
    "bencher": as_bencher,
    "benchstat": as_benchstat,
}
