"""The summary and the HTML report do not mislead: every cell is ranked (a cell without a
single figure by its range), access rows apart from full decodes, equal sizes as `=`, time
on a log axis, and no machine-noise promise the run itself contradicts.

A run is stored through the real store with crafted timings, one runner on one dataset:

    encode: kryo's processes disagree (3.1 and 4.9 µs, the lowest low end), fury 4 µs,
            protobuf 4.5 µs, avro's processes disagree (4.6 and 9 µs), flatbuffers-lazy 5 µs
    decode: flatbuffers-lazy 20 ns (lazy-access: an access), protobuf 5 µs, jackson not
            steady (5.4 to 5.8 µs), fury 6 µs, kryo 7.1 µs
    bytes:  kryo 280 < fury 300 = protobuf 300 < avro 310
    xml at 2 and 4 ms stretches the time range to 1,000x; noop is the baseline.

3 of 8 rows (3 of 16 cell operations) have no single figure: far over 5%, so the machine
noise probe's reading (±1.2%) must not be shown as what identical runs would do.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from serbench import report
from serbench.report import html as report_html
from serbench.report.model import (
    PODIUM_MAX,
    Podium,
    Row,
    RunReport,
    figure_count,
    size_podium,
    time_podium,
)
from serbench.stats import estimate
from serbench.store import CellKey, Store

CHROMIUM = "/usr/bin/chromium"
OK = {"status": "ok", "check": {"ok": True, "detail": "equal"}, "messages": 1}


def _timing(centres: list[float], steady: bool = True) -> dict[str, Any]:
    """One process: a slice of 3 samples around each centre."""
    wall = [round(v) for c in centres for v in (c, c * 1.01, c * 0.99)]
    return {
        "iterations": 1,
        "wall_ns": wall,
        "slice_sizes": [3] * len(centres),
        "warmup": {"steady": steady},
    }


def _flat(ns: float) -> dict[str, Any]:
    """Ten slices within ±0.4%: enough for the processes' agreement test to tell 1.5x."""
    return _timing([ns * (1 + 0.004 * (i % 3 - 1)) for i in range(10)])


def _rows(settled: bool) -> dict[str, tuple[list[str], int, list[Any], list[Any]]]:
    """serializer -> (labels, encoded bytes, encode timings, decode timings), one a process.
    ``settled``: every cell with a single figure (the processes agree, all steady)."""
    kryo_second, avro_second = (3200, 4700) if settled else (4900, 9000)
    jackson = _flat(5600) if settled else _timing([5400, 5600, 5800], steady=False)
    return {
        "noop": (["baseline"], 0, [_flat(50)], [_flat(40)]),
        "kryo": (["binary"], 280, [_flat(3100), _flat(kryo_second)], [_flat(7000), _flat(7200)]),
        "fury": (["binary"], 300, [_flat(4000)], [_flat(6000)]),
        "protobuf": (["binary"], 300, [_flat(4500)], [_flat(5000)]),
        "avro": (["binary"], 310, [_flat(4600), _flat(avro_second)], [_flat(8000)]),
        "jackson": (["text"], 900, [_flat(9000)], [jackson]),
        "flatbuffers-lazy": (["binary", "lazy-access"], 400, [_flat(5000)], [_flat(20)]),
        "xml": (["text"], 2000, [_flat(2_000_000)], [_flat(4_000_000)]),
    }


def _stored(path: Path, settled: bool = False) -> RunReport:
    store = Store(path)
    noise = {"expected_spread": 0.012, "slow_share": 0.43, "seconds": 2.0}
    noise |= {"fast_ns": 3500.0, "slow_ns": 7000.0, "phase_seconds_median": 0.07}
    env = {"cpu_model": "Test CPU", "cpu_count": 2, "noise": noise}
    run_id = store.new_run({"scale": "quick", "operations": ["encode", "decode"]}, env)
    rows = _rows(settled)
    serializers = [
        {"name": n, "format": n, "library": f"{n}lib", "version": "1", "labels": labels}
        for n, (labels, *_) in rows.items()
    ]
    store.save_serializers(run_id, "java", {"runtime": {}, "serializers": serializers})
    for name, (_, size, encodes, decodes) in rows.items():
        for op, timings in (("encode", encodes), ("decode", decodes)):
            for process, timing in enumerate(timings):
                key = CellKey("java", name, "android-users", op, process)
                store.save_result(run_id, key, {**OK, "sizes": {"encoded": size}, "timing": timing})
    store.finish_run(run_id)
    return report.build(store, run_id)


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> RunReport:
    return _stored(tmp_path_factory.mktemp("wide") / "r.sqlite")


@pytest.fixture(scope="module")
def settled(tmp_path_factory: pytest.TempPathFactory) -> RunReport:
    return _stored(tmp_path_factory.mktemp("settled") / "r.sqlite", settled=True)


def _names(podium: Podium) -> list[str]:
    return [p.row.serializer for p in podium.places]


def test_podiums_rank_every_cell_access_apart(rep: RunReport) -> None:
    rows = rep.tables["android-users"]
    encode = time_podium(rows, "encode")
    # kryo's range starts lowest: first; avro's could still be third: listed after the three
    assert _names(encode) == ["kryo", "fury", "protobuf", "avro"]
    assert [p.joint for p in encode.places] == ["", "≈", "<", "≈"]
    kryo = encode.places[0]
    assert kryo.figure is None and kryo.why == "processes disagree"
    assert kryo.low == pytest.approx(3100, rel=0.01) and kryo.high == pytest.approx(4900, rel=0.01)
    decode = time_podium(rows, "decode")
    assert _names(decode) == ["protobuf", "jackson", "fury"]  # no lazy access among decodes
    assert decode.places[1].why == "not steady" and decode.places[1].figure is None
    assert _names(time_podium(rows, "decode", access=True)) == ["flatbuffers-lazy"]
    sizes = size_podium(rows)
    assert _names(sizes) == ["kryo", "fury", "protobuf"]
    assert [p.joint for p in sizes.places] == ["", "<", "="]


def test_a_range_past_the_third_figure_is_left_out_and_many_ranges_are_counted() -> None:
    def row(name: str, encode: list[dict[str, Any]]) -> Row:
        est = estimate(encode)
        assert est is not None
        return Row("r", name, ops={"encode": est})

    figured = [row(f"f{i}", [_flat(1000 * (i + 1))]) for i in range(3)]
    late = row("late", [_flat(3200), _flat(6000)])  # low end above the third's high end
    assert "late" not in _names(time_podium([*figured, late], "encode"))
    # no figure anywhere: every range could be among the first three; past PODIUM_MAX counted
    ranges = [row(f"v{i}", [_flat(100 * (i + 1)), _flat(300 * (i + 1))]) for i in range(8)]
    podium = time_podium(ranges, "encode")
    assert len(podium.places) == PODIUM_MAX and podium.more == 8 - PODIUM_MAX
    assert all(p.joint == "≈" for p in podium.places[1:])


def test_figure_count_in_one_place(rep: RunReport, settled: RunReport) -> None:
    count = figure_count(rep)
    assert (count.operations, count.without, count.rows, count.rows_without) == (16, 3, 8, 3)
    assert count.many
    assert count.sentence() == (
        "3 of 8 rows: processes disagree (2), not steady (1) — no single figure"
    )
    calm = figure_count(settled)
    assert calm.without == 0 and not calm.many


def _summary(rep: RunReport, width: int) -> list[str]:
    console = Console(record=True, width=width, file=io.StringIO())
    report.print_summary(rep, console)
    return console.export_text().splitlines()


def _line(lines: list[str], head: str) -> str:
    """A podium line, its continuation lines joined to it."""
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(head + " "))
    rest = lines[at + 1 :]
    more = next((i for i, line in enumerate(rest) if not line.startswith(" " * 9)), len(rest))
    return " ".join(" ".join([lines[at], *rest[:more]]).split())


def test_terminal_summary(rep: RunReport) -> None:
    lines = _summary(rep, 200)
    text = "\n".join(lines)
    encode = _line(lines, "encode")
    assert encode.startswith(
        "encode java/kryo varies 3.1–4.9 µs (processes disagree) ≈ java/fury 4 µs "
        "< java/protobuf 4.5 µs ≈ java/avro varies 4.6–9 µs (processes disagree)"
    )
    decode = _line(lines, "decode")
    assert decode.startswith("decode java/protobuf 5 µs ≈ java/jackson varies 5.4")
    assert "(not steady) ≈ java/fury 6 µs" in decode
    assert "flatbuffers" not in decode
    assert _line(lines, "access") == "access java/flatbuffers-lazy 20 ns"
    assert _line(lines, "bytes") == "bytes java/kryo 280 B < java/fury 300 B = java/protobuf 300 B"
    assert "3 of 8 rows: processes disagree (2), not steady (1)" in text
    note = " ".join(lines[-4:])
    assert "ranked apart from full decodes" in note and "shows its range" in note
    assert "left out" not in note.replace("baselines left out", "")
    # narrow: wrapped at a place's boundary, every place still there
    narrow = _summary(rep, 60)
    assert all(len(line) <= 60 for line in narrow)
    assert "java/avro varies 4.6–9 µs (processes disagree)" in _line(narrow, "encode")


def test_terminal_summary_of_a_settled_run_has_no_access_line_without_access_rows(
    settled: RunReport,
) -> None:
    rows = [r for r in settled.tables["android-users"] if not r.access]
    only = RunReport(settled.run, {"android-users": rows}, settled.operations)
    lines = _summary(only, 200)
    assert not any(line.strip().startswith("access") for line in lines)
    assert not any("of 7 rows" in line for line in lines)  # nothing to warn about
    assert _line(lines, "encode").startswith("encode java/kryo 3.1")  # a figure now


def test_markdown_summary(rep: RunReport, settled: RunReport) -> None:
    md = report.markdown(rep)
    assert (
        "  - encode: `java/kryo` varies 3.1–4.9 µs (processes disagree) ≈ `java/fury` 4 µs"
        " < `java/protobuf` 4.5 µs ≈ `java/avro` varies" in md
    )
    decode = next(line for line in md.splitlines() if line.startswith("  - decode: "))
    assert "`java/jackson` varies" in decode and "flatbuffers" not in decode
    assert "  - access: `java/flatbuffers-lazy` 20 ns" in md
    assert "  - bytes: `java/kryo` 280 B < `java/fury` 300 B = `java/protobuf` 300 B" in md
    assert "ranked apart from full decodes" in md
    assert "- without a single figure: 3 of 8 rows" in md
    assert "±1.2%" not in md and "expected" not in md
    calm = report.markdown(settled)
    noise = "machine noise before the run: in its slow phase 43% of a 2 s probe, 2.0x slower"
    assert noise in calm and "phases of 70 ms" in calm
    assert "±1.2%" not in calm and "- without a single figure:" not in calm


def test_html_header_does_not_promise_what_the_run_contradicts(
    rep: RunReport, settled: RunReport
) -> None:
    facts = dict(report_html.payload(rep)["run"]["facts"])
    assert facts["without a single figure"].startswith("3 of 8 rows: processes disagree (2)")
    page = report_html.render(rep)
    assert "±1.2%" not in page and "expected within" not in page
    facts = dict(report_html.payload(settled)["run"]["facts"])
    assert facts["machine noise before the run"].startswith("in its slow phase 43%")
    assert "±1.2%" not in str(facts) and "without a single figure" not in facts


@pytest.fixture(scope="module")
def page(rep: RunReport, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    path = tmp_path_factory.mktemp("page") / "report.html"
    path.write_text(report_html.render(rep), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri())
        yield page
        assert errors == []
        browser.close()


# per bar trace, per row name: the drawn bar's left and right edge, in pixels from the time
# axis's start (a bar from zero starts far left of the axis, clipped)
_BARS = """() => {
  const gd = document.getElementById('chart-time');
  const left = gd.querySelector('.main-svg').getBoundingClientRect().left
    + gd._fullLayout.xaxis._offset;
  const out = {};
  for (const t of gd.querySelectorAll('.barlayer .trace')) {
    const trace = t.__data__[0].trace;
    out[trace.name] = {};
    for (const p of t.querySelectorAll('.point')) {
      const r = p.querySelector('path').getBoundingClientRect();
      out[trace.name][trace.y[p.__data__.i]] = [r.left - left, r.right - left, r.width];
    }
  }
  return out;
}"""


def test_html_time_on_a_log_axis_access_apart(page: Any) -> None:
    axis = page.evaluate(
        "() => { const a = document.getElementById('chart-time')._fullLayout.xaxis;"
        " return [a.type, a.ticktext]; }"
    )
    assert axis[0] == "log"
    assert {"1 µs", "10 µs", "1 ms"} <= set(axis[1])
    bars = page.evaluate(_BARS)
    # fury's 4 µs beside xml's 2 ms (500x): a linear axis would give it 0.2% of xml's length
    fury, xml = bars["encode"]["java/fury"][1], bars["encode"]["java/xml"][1]
    assert fury > 0.3 * xml > 0
    # no single figure: no bar from zero, a bar over the range instead
    kryo = "java/kryo (no single figure)"
    assert bars["encode"][kryo][2] == 0
    low, high, width = bars["encode, range"][kryo]
    assert 0 < low < fury < high and width > 0
    # the lazy access is no decode bar; its own series starts hidden
    data = page.evaluate(
        "() => document.getElementById('chart-time').data.map(t => [t.name, t.visible, t.y, t.x])"
    )
    series = {name: (visible, dict(zip(y, x, strict=True))) for name, visible, y, x in data}
    assert series["decode"][1]["java/flatbuffers-lazy"] is None
    assert series["access"] == ("legendonly", series["access"][1])
    assert series["access"][1]["java/flatbuffers-lazy"] == pytest.approx(20, rel=0.05)
    # % of best: protobuf is the best full decode, the access row is compared with its own
    row = 'tr[data-name="{}"] td[data-col="decode%"]'
    assert page.locator(row.format("java/protobuf")).inner_text() == "100%"
    lazy = page.locator(row.format("java/flatbuffers-lazy"))
    assert lazy.inner_text() == "100%" and "access" in (lazy.get_attribute("class") or "")
    assert "access" in page.locator('tr[data-name="java/flatbuffers-lazy"]').inner_text()
    assert "3 of 8 rows" in page.locator("#facts").inner_text()


def test_a_noise_flag_on_nearly_every_row_is_said_once_in_the_header(tmp_path: Path) -> None:
    """On a busy machine every row can be imprecise and slow-mode: the header says so once
    with the counts, the rows' notes keep the flags that set a row apart; a run where such
    a flag marks a few rows keeps it on those rows."""
    store = Store(tmp_path / "r.sqlite")
    env = {"cpu_model": "Test CPU", "cpu_count": 2}
    run_id = store.new_run({"scale": "quick", "operations": ["encode", "decode"]}, env)
    busy = _timing([900, 2000, 2100, 1000, 2050, 1990, 1080, 2000])
    names = [f"s{k}" for k in range(10)]
    serializers = [{"name": n, "format": n, "library": n, "version": "1"} for n in names]
    store.save_serializers(run_id, "java", {"runtime": {}, "serializers": serializers})
    for name in names:
        for op in ("encode", "decode"):
            steady = name != "s0"  # one row also flagged for itself: not-steady
            timing = busy if steady else {**busy, "warmup": {"steady": False}}
            key = CellKey("java", name, "android-users", op, 0)
            store.save_result(run_id, key, {**OK, "sizes": {"encoded": 9}, "timing": timing})
    store.finish_run(run_id)
    rep = report.build(store, run_id)
    assert set(rep.run_wide) == {"imprecise", "slow-mode"}
    md = report.markdown(rep)
    assert "- on nearly every row, so said here once: imprecise (10 of 10 measured rows)" in md
    rows = [line for line in md.splitlines() if line.startswith("| java/")]
    assert len(rows) == 10
    assert not any("imprecise" in line or "slow-mode" in line for line in rows)
    assert sum("not-steady" in line for line in rows) == 1
    facts = dict(report_html.payload(rep)["run"]["facts"])
    assert facts["on nearly every row, so said here once"].startswith("imprecise (10 of 10")
    page_rows = report_html.payload(rep)["datasets"][0]["rows"]
    assert all("imprecise" not in r["flag_words"] for r in page_rows)


def test_a_noise_flag_on_a_few_rows_stays_on_them(rep: RunReport) -> None:
    flagged = [r for rows in rep.tables.values() for r in rows if "imprecise" in r.flags]
    assert flagged and not rep.run_wide
    md = report.markdown(rep)
    assert "so said here once" not in md
    assert all(f"| {r.name} |" in md for r in flagged)
    line = next(x for x in md.splitlines() if x.startswith(f"| {flagged[0].name} |"))
    assert "imprecise" in line


def test_a_run_whose_processes_never_confirmed_says_so_and_why(tmp_path: Path) -> None:
    """A machine in its slow phase for most of the run: processes that never reached their
    fast mode are counted on their dataset's line, and the count of rows without a single
    figure says what the run's own slices saw of the machine (the probe before it saw 2 s)."""
    store = Store(tmp_path / "r.sqlite")
    env = {"cpu_model": "Test CPU", "cpu_count": 2}
    run_id = store.new_run({"scale": "quick", "operations": ["encode", "decode"]}, env)
    slow = _timing([900, 2000, 2100, 1000, 2050, 1990, 2080, 2000])  # 6 of 8 slow
    names = [f"s{k}" for k in range(4)]
    serializers = [{"name": n, "format": n, "library": n, "version": "1"} for n in names]
    store.save_serializers(run_id, "java", {"runtime": {}, "serializers": serializers})
    for name in names:
        for op in ("encode", "decode"):
            # three of four rows: the fast mode never confirmed
            timing = {**slow, "confirmed": name == "s0"}
            key = CellKey("java", name, "android-users", op, 0)
            store.save_result(run_id, key, {**OK, "sizes": {"encoded": 9}, "timing": timing})
    store.finish_run(run_id)
    rep = report.build(store, run_id)
    lines = _summary(rep, 200)
    assert "4 OK  3 unconfirmed" in lines[1]
    closing = "3 of 4 rows: unconfirmed — shown as ranges; the machine: 75% of the run's"
    assert any(line.startswith(closing) for line in lines)
    md = report.markdown(rep)
    assert "- machine noise during the run: 75% of the run's measured slices outside" in md
