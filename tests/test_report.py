"""Reports render every stored run: tables, Markdown, JSON, HTML and the reference view."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from serbench import orchestrate, reference, report
from serbench.report import html as report_html
from serbench.runners import PYTHON
from serbench.store import Store


@pytest.fixture(scope="module")
def s1_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, int]:
    store = Store(tmp_path_factory.mktemp("db") / "r.sqlite")
    config = orchestrate.RunConfig.for_scale("quick")
    config.datasets = ["android-users"]
    the_plan = orchestrate.plan(config, {"python": PYTHON})
    run_id = store.new_run(orchestrate.config_json(config), {"cpu_model": "test"})
    for name, d in the_plan.describes.items():
        store.save_serializers(run_id, name, d)
    orchestrate.execute(config, the_plan, store, run_id, lambda *_: None)
    store.finish_run(run_id)
    return store, run_id


def test_tables_have_every_serializer_and_the_check(s1_run: tuple[Store, int]) -> None:
    rep = report.build(*s1_run)
    rows = {r.serializer: r for r in rep.tables["android-users"]}
    assert {"noop", "protobuf", "msgpack-positional", "handwritten"} <= set(rows)
    assert rows["protobuf"].sizes["encoded"] == 560 and rows["protobuf"].status == "ok"
    assert rows["protobuf"].ops["encode"].headline_ns > 0
    md = report.markdown(rep)
    assert "| python/protobuf | protobuf" in md and "Harness overhead" in md
    # the runtime as the runner described it, so a reader knows which configuration ran
    assert rep.runtimes["python"] and f"  - python: {rep.runtimes['python']}" in md
    assert "## Summary: the fastest and the smallest" in md and "  - encode: `python/" in md
    data = json.loads(report.as_json(rep))
    ops = data["datasets"]["android-users"][0]["operations"]
    assert {"headline_ns", "ci_low_ns", "min_ns", "p10_ns", "slow_fraction"} <= set(ops["encode"])
    assert 'id="serbench-data"' in report_html.render(rep)


def test_reference_marks_claims(s1_run: tuple[Store, int]) -> None:
    rep = report.build(*s1_run)
    verdicts = reference.check_claims("S1", rep)
    sizes = [v for v in verdicts if "smaller" in v.claim]
    assert sizes and sizes[0].measured == pytest.approx(560 / 383)
    assert sizes[0].low == sizes[0].high == sizes[0].measured  # exact sizes: no interval
    assert sizes[0].verdict == "holds"
    decided = ("holds", "direction only", "does not hold")
    assert all(v.verdict in (*decided, "undecided") for v in verdicts)
    for v in verdicts:
        assert v.low is not None and v.low <= v.measured <= v.high
        assert (v.verdict == "undecided") == bool(v.why), v
    assert [label for _, label, _ in reference.measured_rows("S1", rep)][:2] == [
        "Java Serializable",
        "Parcelable (hand-written)",
    ]


def test_verdicts_follow_the_whole_interval() -> None:
    v = reference.decide
    assert v(2.1, 2.5, 2.0) == "holds"
    assert v(1.2, 1.8, 2.0) == "direction only"
    assert v(0.5, 0.9, 2.0) == "does not hold"
    assert v(1.8, 2.2, 2.0) == "undecided"  # straddles the claimed factor
    assert v(0.9, 1.1, 2.0) == "undecided"  # straddles 1: not even the direction is known
    assert v(0.9, 1.1, 0.8, upper=1.25) == "holds"
    assert v(0.7, 1.1, 0.8, upper=1.25) == "undecided"


def test_cli_report_formats_and_bad_input(s1_run: tuple[Store, int], tmp_path: Path) -> None:
    store, run_id = s1_run
    base = [sys.executable, "-m", "serbench"]
    for fmt in ("md", "json", "html"):
        out = tmp_path / f"r.{fmt}"
        subprocess.run(
            [*base, "report", str(run_id), "-f", fmt, "-o", str(out), "--db", str(store.path)],
            check=True,
            capture_output=True,
        )
        assert out.stat().st_size > 1000
    bad = subprocess.run(
        [*base, "report", "-f", "pdf", "--db", str(store.path)], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "valid: table, md, html, json, bencher, benchstat" in bad.stderr
    ref = subprocess.run(
        [*base, "reference", "S1", "--db", str(store.path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Protocol Buffers" in ref.stdout and "holds" in ref.stdout
    bad = subprocess.run(
        [*base, "run", "-d", "nope", "--db", str(store.path)], capture_output=True, text=True
    )
    assert bad.returncode == 2 and "android-users" in bad.stderr


@pytest.mark.parametrize("width", [80, 220])
def test_terminal_output_fits_the_width(s1_run: tuple[Store, int], width: int) -> None:
    from rich.console import Console

    rep = report.build(*s1_run)
    console = Console(width=width, record=True, force_terminal=False)
    report.print_summary(rep, console)
    summary = console.export_text().splitlines()
    # one dataset: the first three per operation (encode, decode, bytes), not a table of every
    # row; how many lines they take depends on how many show a range and wrap at this width
    named = {w for line in summary for w in line.split() if w.startswith("python/")}
    assert len(named) <= 9 < len(rep.tables["android-users"]), summary
    assert all(len(line) <= width for line in summary), summary
    rows = [r for r in rep.tables["android-users"] if r.status == "ok" and r.ops.get("encode")]

    def place(row: report.Row) -> float:  # a figure, or a range's low end (no single figure)
        e = row.ops["encode"]
        return e.headline_ns if e.has_figure else e.process_min_ns

    fastest = min((r for r in rows if "baseline" not in r.labels), key=place)
    encode_line = next(line for line in summary if line.strip().startswith("encode"))
    assert encode_line.split()[1] == fastest.name
    console = Console(width=width, record=True, force_terminal=False)
    report.print_tables(rep, console)
    tables = console.export_text().splitlines()
    assert all(len(line) <= width for line in tables)
    # every row, unwrapped: its name whole in the first column of one line
    assert sum(line.split()[:1] == ["python/protobuf"] for line in tables) == 1
    header = next(line for line in tables if "serializer" in line)
    assert "encode" in header and "decode" in header
    shown = set(header.split())
    assert ({"library", "zlib"} <= shown) == (width >= 220)  # chosen by width, not wrapped
    assert ("not shown at this width" in "\n".join(tables)) == (width < 220)


def test_the_html_report_has_a_tab_of_the_latest_untrusted_reports(
    s1_run: tuple[Store, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from serbench import crosscheck
    from serbench.report import untrusted as untrusted_report
    from serbench.report import untrusted_tab

    monkeypatch.setenv("SERBENCH_HOME", str(tmp_path))
    assert untrusted_tab.payload()["sections"] == []  # no report yet: no tab
    row = {
        "runner": "python",
        "serializer": "pickle",
        "format": "pickle",
        "dataset": "android-users",
        "labels": ["unsafe-untrusted-input"],
        "counts": {"rejected": 8, "crash": 2},
        "inputs": 10,
        "skipped": None,
        "failures": [{"case": "c1", "class": "crash", "detail": "<b>x</b>", "replay": "serbench"}],
    }
    folder = tmp_path / "untrusted"
    for stamp, crashes in (("20260101T000000Z", 9), ("20260102T000000Z", 2)):
        rows = [{**row, "counts": {"rejected": 10 - crashes, "crash": crashes}}]
        untrusted_report.write_json(
            folder / f"robustness-{stamp}.json", "robustness", f"robustness-{stamp}", rows
        )
    (folder / "conformance-20260103T000000Z.json").write_text('{"command": "conformance"}')
    a = crosscheck.Library("go", "json", "json", ("map-layout", "enum-as-ordinal"))
    b = crosscheck.Library("java", "jackson-json", "json", ("map-layout", "enum-as-name"))
    crosscheck.write_json([crosscheck.outcome("android-users", b, a, False, "gender")])
    tab = untrusted_tab.payload()
    titles = [s["title"] for s in tab["sections"]]
    assert titles[0] == "conformance-20260103T000000Z.json"  # unreadable: said, not a crash
    robustness, interop = tab["sections"][1], tab["sections"][2]
    assert "robustness-20260102T000000Z" in robustness["source"]  # the latest one
    assert robustness["tables"][0]["rows"][0][:4] == [
        "python/pickle",
        "unsafe-untrusted-input",
        "android-users",
        "10",
    ]
    assert {
        "text": "evidence [unsafe-untrusted-input]: python/pickle: 2 crashes in 10",
        "flag": False,
    } in robustness["lines"]
    assert interop["tables"][0]["rows"][0][2] == "enum-as-name vs enum-as-ordinal"
    store, run_id = s1_run
    page = report_html.render(report.build(store, run_id))
    assert "drawUntrusted" in page and "enum-as-name vs enum-as-ordinal" in page
    assert "<b>x</b>" not in page  # a detail reaches the page as escaped JSON text
