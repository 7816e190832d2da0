"""Exports of a run: JSON valid against the published schema (docs/report.schema.json),
Bencher's metric format and Go benchmark text for benchstat."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from test_compare import CELLS, synthetic_run
from typer.testing import CliRunner

from serbench import protocol, report
from serbench.cli import app
from serbench.paths import REPO_ROOT
from serbench.report import export
from serbench.store import Store

SCHEMA = json.loads((REPO_ROOT / "docs" / "report.schema.json").read_text())


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, report.RunReport]:
    store = Store(tmp_path_factory.mktemp("db") / "e.sqlite")
    times = {s: 1000.0 * (i + 1) for i, s in enumerate(CELLS[:4])}
    run_id = synthetic_run(store, 3, times, ng=("s0",), unsteady=("s1",))
    return store, report.build(store, run_id)


def validator() -> Draft202012Validator:
    registry = Registry().with_resource(
        protocol.schema()["$id"], Resource.from_contents(protocol.schema())
    )
    Draft202012Validator.check_schema(SCHEMA)
    return Draft202012Validator(SCHEMA, registry=registry)


def test_json_is_valid_against_the_published_schema(run: Any) -> None:
    doc = json.loads(export.as_json(run[1]))
    errors = list(validator().iter_errors(doc))
    assert not errors, errors[0].message
    rows = doc["datasets"]["android-users"]
    assert {r["check"] for r in rows} == {"ok", "NG"}
    estimate = SCHEMA["$defs"]["estimate"]["properties"]
    assert set(rows[0]["operations"]["encode"]) == set(estimate)  # every field documented


def test_the_schema_rejects_what_it_should(run: Any) -> None:
    doc = json.loads(export.as_json(run[1]))
    row = doc["datasets"]["android-users"][0]
    del row["operations"]["encode"]["headline_ns"]
    row["flags"] = ["fast"]  # not in the protocol's flag vocabulary
    messages = [e.message for e in validator().iter_errors(doc)]
    assert any("headline_ns" in m for m in messages) and len(messages) == 2


def test_bencher_metric_format(run: Any) -> None:
    bmf = json.loads(export.as_bencher(run[1]))
    assert "android-users syn/s2 encode" in bmf
    assert not any("syn/s0" in k or "syn/s1" in k for k in bmf)  # NG, not-steady: no number
    for measures in bmf.values():
        latency = measures["latency"]
        assert latency["lower_value"] <= latency["value"] <= latency["upper_value"]
    assert bmf["android-users syn/s2 encode"]["encoded-bytes"] == {"value": 100.0}


LINE = re.compile(r"^BenchmarkSerbench(/[a-z]+=[^\s/=]+)+\t\d+\t\d+\.\d\d ns/op$")


def test_benchstat_text(run: Any) -> None:
    lines = export.as_benchstat(run[1]).splitlines()
    config = [x for x in lines if not x.startswith(("Benchmark", "#"))]
    assert all(re.match(r"^[a-z][a-z-]*: \S", x) for x in config), config
    results = [x for x in lines if x.startswith("Benchmark")]
    assert all(LINE.match(x) for x in results), results[:3]
    name = "BenchmarkSerbench/dataset=android-users/runner=syn/serializer=s2/op=encode"
    ours = [x for x in results if x.startswith(name + "\t")]
    assert len(ours) == 3 * 8  # every slice of three processes
    assert {x.split("\t")[1] for x in ours} == {"30"}  # 3 samples of 10 operations
    assert not any("serializer=s0/" in x or "serializer=s1/" in x for x in results)


def test_cli_report_formats(run: Any, tmp_path: Path) -> None:
    db = str(run[0].path)
    for fmt in ("bencher", "benchstat", "json"):
        out = CliRunner().invoke(app, ["report", "--format", fmt, "--db", db])
        assert out.exit_code == 0 and out.stdout.strip(), out.output
    bad = CliRunner().invoke(app, ["report", "--format", "csv", "--db", db])
    assert bad.exit_code == 2 and "bencher, benchstat" in bad.stderr
