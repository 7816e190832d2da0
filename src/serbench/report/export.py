"""Machine-readable exports of the report model."""

from __future__ import annotations

import json

from serbench.report.model import RunReport


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
