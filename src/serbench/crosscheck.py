"""Bytes written by one language's library, read back by another's.

Every runner writes each dataset with each of its serializers (the protocol's
`dump_dir`); every runner with the `decode_from` capability then decodes the files of
the *other* runners' serializers of the same format and layout, and checks the result
against the original data. A reader that cannot read a writer's bytes is NG with the
reason: the same format name does not make two libraries interoperable.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from serbench import datasets
from serbench.runners import RunnerSpec, run_cells

# Just enough timing to run each operation once: this is a correctness check.
ONCE = {
    "min_sample_ns": 1,
    "min_samples": 1,
    "max_samples": 1,
    "max_measure_ns": 1,
    "warmup_window": 1,
    "warmup_tolerance": 1.0,
    "warmup_max_ns": 1,
    "peak_alloc": False,
}


@dataclass(frozen=True)
class Library:
    runner: str
    serializer: str
    format: str
    positional: bool

    @property
    def name(self) -> str:
        return f"{self.runner}/{self.serializer}"

    def reads(self, other: Library) -> bool:
        """Same format and layout, another runner."""
        return (
            self.runner != other.runner
            and self.format == other.format
            and self.positional == other.positional
        )


@dataclass
class Outcome:
    dataset: str
    writer: str
    reader: str
    ok: bool
    detail: str


def libraries(describes: dict[str, dict[str, Any]], dataset: str) -> list[Library]:
    out = []
    for runner, d in describes.items():
        for s in d["serializers"]:
            if "baseline" in s["labels"] or not s["datasets"].get(dataset, {}).get("applicable"):
                continue
            out.append(Library(runner, s["name"], s["format"], "positional" in s["labels"]))
    return out


def run(
    specs: dict[str, RunnerSpec],
    describes: dict[str, dict[str, Any]],
    wanted: list[str],
    scale: str,
    workdir: Path,
) -> list[Outcome]:
    readers = {r for r, d in describes.items() if "decode_from" in d.get("capabilities", [])}
    paths = {ds: str(datasets.get(ds).build(scale).path()) for ds in wanted}  # type: ignore[arg-type]
    libs = {ds: libraries(describes, ds) for ds in wanted}
    written: dict[tuple[str, str], Path] = {}
    for runner in describes:
        cells = [
            {
                "serializer": lib.serializer,
                "dataset": ds,
                "data": paths[ds],
                "operations": ["encode"],
            }
            for ds in wanted
            for lib in libs[ds]
            if lib.runner == runner and any(r.reads(lib) for r in libs[ds] if r.runner in readers)
        ]
        if not cells:
            continue
        run_cells(specs[runner], cells, ONCE, dump_dir=str(workdir))
        for c in cells:
            f = workdir / f"{runner}.{c['serializer']}.{c['dataset']}.bin"
            if f.exists():
                written[(f"{runner}/{c['serializer']}", c["dataset"])] = f
    outcomes = []
    for runner in sorted(readers):
        cells, pairs = [], []
        for ds in wanted:
            for reader in (lib for lib in libs[ds] if lib.runner == runner):
                for writer in libs[ds]:
                    f = written.get((writer.name, ds))
                    if f is not None and reader.reads(writer):
                        cells.append(
                            {
                                "serializer": reader.serializer,
                                "dataset": ds,
                                "data": paths[ds],
                                "decode_from": str(f),
                                "operations": ["decode"],
                            }
                        )
                        pairs.append((ds, writer.name, reader.name))
        if not cells:
            continue
        _, events = run_cells(specs[runner], cells, ONCE)
        results = [e for e in events if e.get("event") == "result"]
        for (ds, writer, reader), r in zip(pairs, results, strict=False):
            check = r.get("check") or {}
            detail = check.get("detail") or (r.get("error") or {}).get("message", "")
            outcomes.append(Outcome(ds, writer, reader, bool(check.get("ok")), detail))
        for ds, writer, reader in pairs[len(results) :]:
            outcomes.append(Outcome(ds, writer, reader, False, "reader gave no result"))
    return outcomes
