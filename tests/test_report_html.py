"""The HTML report, opened in headless Chromium: filters, sorting, % of best, escaping.

A real run of the fake runner is stored, then a second runner's rows are added to it
through the store (a fast and a slow serializer, an NG one whose detail is hostile markup, a
not-applicable one, and a dataset whose name is markup). Screenshots of every dataset's view
are written to .serbench/test-artifacts/html/.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serbench import orchestrate, report
from serbench.paths import REPO_ROOT
from serbench.report import html as report_html
from serbench.runners import RunnerSpec
from serbench.store import CellKey, Store

FIXTURES = Path(__file__).parent / "fixtures"
FAKE = RunnerSpec(
    name="fake",
    language="python",
    directory=FIXTURES,
    command=[sys.executable, str(FIXTURES / "fake_runner.py")],
)
CHROMIUM = "/usr/bin/chromium"  # Debian's; scripts/apt-packages.txt installs it
ARTEFACTS = REPO_ROOT / ".serbench" / "test-artifacts" / "html"
HOSTILE = "<script>alert(1)</script> & </script><!-- \u2028"
HOSTILE_LIBRARY = "</script><script>window.pwned = 1</script>"
HOSTILE_DATASET = "<img src=x onerror='window.pwned = 2'>"
HOSTILE_NAME = "<i>slanted</i> &amp;"  # markup plotly would read in a chart label


def _timing(ns: int, steady: bool = True) -> dict[str, Any]:
    wall = [ns, ns + ns // 100, ns - ns // 100] * 3
    return {
        "iterations": 1,
        "wall_ns": wall,
        "slice_sizes": [3, 3, 3],
        "warmup": {"steady": steady},
    }


def _serializer(name: str, fmt: str, library: str, labels: list[str]) -> dict[str, Any]:
    return {"name": name, "format": fmt, "library": library, "version": "1", "labels": labels}


def _add_beta(store: Store, run_id: int) -> None:
    """A second runner's rows: fast, slow, NG (hostile detail), n/a, and a hostile dataset."""
    serializers = [
        _serializer("fast", "fmt-a", HOSTILE_LIBRARY, ["binary", "zero-copy-decode"]),
        _serializer("slow", "fmt-b", "slowlib", ["text"]),
        _serializer("broken", "fmt-a", "brokenlib", ["binary"]),
        _serializer("absent", "fmt-b", "absentlib", ["text"]),
        _serializer("drifty", "fmt-b", "driftlib", ["text"]),
    ]
    store.save_serializers(run_id, "beta", {"runtime": {}, "serializers": serializers})
    ok = {"status": "ok", "check": {"ok": True, "detail": "equal"}, "messages": 1}
    cells = {
        "fast": {**ok, "sizes": {"encoded": 5}, "ns": (1_000_000, 1_000_000)},
        "slow": {**ok, "sizes": {"encoded": 40}, "ns": (4_000_000, 8_000_000)},
        "broken": {**ok, "check": {"ok": False, "detail": HOSTILE}, "sizes": {"encoded": 7}},
        "absent": {
            "status": "not_applicable",
            "error": {"code": "not_applicable", "message": "no <b>schema</b> for this"},
        },
    }
    for name, cell in cells.items():
        times = cell.pop("ns", (3_000_000, 3_000_000))
        for op, ns in zip(("encode", "decode"), times, strict=True):
            result = {**cell, "timing": _timing(ns) if cell["status"] == "ok" else None}
            store.save_result(run_id, CellKey("beta", name, "android-users", op, 0), result)
    # drifty's encode never reached steady state: no number, no bar; its decode has both
    for op, steady in (("encode", False), ("decode", True)):
        result = {**ok, "sizes": {"encoded": 20}, "timing": _timing(500_000, steady)}
        store.save_result(run_id, CellKey("beta", "drifty", "android-users", op, 0), result)
    for name in ("fast", HOSTILE_NAME):
        for op in ("encode", "decode"):
            result = {**ok, "sizes": {"encoded": 5}, "timing": _timing(1_000_000)}
            store.save_result(run_id, CellKey("beta", name, HOSTILE_DATASET, op, 0), result)


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("html")
    store = Store(tmp / "r.sqlite")
    config = orchestrate.RunConfig.for_scale("quick")
    config.datasets = ["android-users", "log-records"]  # fake is n/a on log-records
    config.serializers = ["noop", "good", "crash"]
    config.cell_timeout = 3.0
    the_plan = orchestrate.plan(config, {"fake": FAKE})
    env = {
        "cpu_model": "Test CPU",
        "cpu_count": 2,
        "git_commit": "0123456789abcdef",
        "noise": {"expected_spread": 0.012},  # a quiet probe; drifty contradicts it
    }
    run_id = store.new_run(orchestrate.config_json(config), env)
    for name, d in the_plan.describes.items():
        store.save_serializers(run_id, name, d)
    orchestrate.execute(config, the_plan, store, run_id, lambda *_: None)
    _add_beta(store, run_id)
    store.finish_run(run_id)
    path = tmp / "report.html"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SERBENCH_HOME", str(tmp / "home"))
        _write_untrusted_report(tmp / "home")
        path.write_text(report_html.render(report.build(store, run_id)), encoding="utf-8")
    return path


def _write_untrusted_report(home: Path) -> None:
    """A robustness report whose decoder (labelled safe) crashed on a hostile input."""
    from serbench.report import untrusted

    row = {
        "runner": "beta",
        "serializer": HOSTILE_NAME,
        "format": "fmt-a",
        "dataset": "android-users",
        "labels": ["validated"],
        "counts": {"rejected": 9, "crash": 1},
        "inputs": 10,
        "skipped": None,
        "failures": [{"case": "c", "class": "crash", "detail": HOSTILE, "replay": "serbench"}],
    }
    stamp = "robustness-20260101T000000Z"
    untrusted.write_json(home / "untrusted" / f"{stamp}.json", "robustness", stamp, [row])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/setup.sh installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Watched:
    """A page with every request, dialog and script error it causes recorded."""

    def __init__(self, browser: Any, path: Path) -> None:
        self.page = browser.new_page(viewport={"width": 1400, "height": 900})
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = path.as_uri()
        self.page.goto(self.url)

    def names(self) -> list[str]:
        return self.page.locator("#results tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.name)"
        )

    def cell(self, name: str, col: str) -> str:
        row = self.page.locator(f'#results tr[data-name="{name}"]')
        return row.locator(f'td[data-col="{col}"]').inner_text()

    def column(self, col: str) -> list[str]:
        return self.page.locator(f'#results tbody td[data-col="{col}"]').all_inner_texts()

    def facet(self, facet: str, value: str) -> Any:
        return self.page.locator(f'fieldset[data-facet="{facet}"] input[value="{value}"]')


@pytest.fixture
def view(browser: Any, page_file: Path) -> Iterator[Watched]:
    w = Watched(browser, page_file)
    yield w
    assert w.errors == [], "script errors on the page"
    assert w.dialogs == [], "a user string ran as script"
    assert w.requests == [w.url], "the report must need no network"
    assert w.page.evaluate("window.pwned") is None
    w.page.close()


def test_data_blob_cannot_end_its_script_element() -> None:
    value = {"s": HOSTILE, "t": "a\u2029b"}
    text = report_html.script_json(value)
    assert not re.search("[<>&\u2028\u2029]", text)
    assert json.loads(text) == value
    assert json.loads(report_html.script_json({"x": [float("nan"), 1.5]})) == {"x": [None, 1.5]}


def test_hostile_strings_are_shown_as_text(view: Watched) -> None:
    assert view.cell("beta/broken", "check") == "NG"
    assert HOSTILE.replace("\u2028", "") in view.cell("beta/broken", "reason").replace("\u2028", "")
    assert view.cell("beta/fast", "library") == HOSTILE_LIBRARY + " 1"
    assert view.cell("beta/absent", "check") == "n/a"
    assert view.cell("beta/absent", "reason") == "no <b>schema</b> for this"
    tabs = view.page.locator("#datasets button").all_inner_texts()
    assert tabs == ["android-users", "log-records", HOSTILE_DATASET, "untrusted"]
    assert view.page.locator("#results img, #results script, #facts script").count() == 0


def test_the_untrusted_tab_shows_outcomes_and_flags_as_text(view: Watched) -> None:
    view.page.locator("#datasets button", has_text="untrusted").click()
    assert view.page.locator("main").is_hidden() and view.page.locator("#filters").is_hidden()
    tab = view.page.locator("#untrusted")
    assert tab.locator("td").first.inner_text() == f"beta/{HOSTILE_NAME}"
    flag = tab.locator(".flag-line").inner_text()
    assert flag == f"FLAG beta/{HOSTILE_NAME} [validated]: labelled safe, but 1 crash"
    tab.locator("details summary").click()
    assert HOSTILE.replace("\u2028", "") in tab.inner_text().replace("\u2028", "")
    assert tab.locator("script, img, i").count() == 0
    view.page.locator("#datasets button", has_text="android-users").click()
    assert view.page.locator("#untrusted").is_hidden() and view.names()


def test_filters_and_percent_of_best_follow_the_rows_in_view(view: Watched) -> None:
    names = view.names()
    assert {"fake/noop", "fake/good", "fake/crash", "beta/fast", "beta/broken"} <= set(names)
    assert view.cell("fake/crash", "check") == "ERR" and view.cell("fake/crash", "reason")
    # beta/fast (1 ms, 5 bytes) is the best in view; fake/good takes 2 ms and 10 bytes
    assert view.cell("beta/fast", "encode%") == "100%"
    assert view.cell("fake/good", "encode%") == "50%"
    assert view.cell("fake/good", "bytes%") == "50%"
    assert view.cell("beta/slow", "decode%") == "6.3%"  # drifty's 0.5 ms / 8 ms
    assert view.cell("fake/noop", "encode%") == ""  # a baseline is not ranked
    view.facet("runner", "beta").uncheck()
    assert {n.split("/")[0] for n in view.names()} == {"fake"}
    assert view.cell("fake/good", "encode%") == "100%"
    assert "hidden by the filters" in view.page.locator("#shown").inner_text()
    view.facet("runner", "beta").check()
    view.facet("status", "OK").uncheck()
    assert set(view.column("check")) == {"NG", "ERR", "n/a"}
    view.page.locator(".reset").click()
    assert len(view.names()) == len(names)
    # a label: only rows with it, then only rows without it
    chip = view.page.locator('button[data-label="zero-copy-decode"]')
    chip.click()
    assert view.names() == ["beta/fast"]
    view.page.locator('button[data-label="zero-copy-decode"]').click()
    assert "beta/fast" not in view.names() and "beta/slow" in view.names()


def _bytes(texts: list[str]) -> list[int]:
    return [int(t.replace(",", "")) for t in texts if t != "-"]


def test_sorting_by_a_column(view: Watched) -> None:
    header = view.page.locator('th[data-col="bytes"] button')
    header.click()
    texts = view.column("bytes")
    values = _bytes(texts)
    assert values == sorted(values) and len(values) >= 4
    assert texts[: len(values)] == [t for t in texts if t != "-"]  # rows without bytes last
    header.click()
    assert _bytes(view.column("bytes")) == sorted(values, reverse=True)
    assert view.page.locator('th[data-col="bytes"]').get_attribute("aria-sort") == "descending"
    view.page.locator('th[data-col="encode%"] button').click()  # best first
    pct = [float(t.rstrip("%")) for t in view.column("encode%") if t]
    assert pct == sorted(pct, reverse=True) and pct[0] == 100
    assert view.page.locator('th[data-col="encode%"]').get_attribute("aria-sort") == "descending"
    view.page.locator('th[data-col="name"] button').click()
    assert view.names() == sorted(view.names())


def test_a_cell_that_is_not_steady_has_no_number_and_no_bar(view: Watched) -> None:
    assert view.cell("beta/drifty", "encode") == "not steady"
    assert view.cell("beta/drifty", "encode%") == ""
    assert view.cell("beta/drifty", "decode%") == "100%"  # 0.5 ms: the fastest decode
    assert "not-steady" in view.cell("beta/drifty", "notes")
    bars = view.page.evaluate(
        "() => document.getElementById('chart-time').data"
        ".filter(t => !t.xaxis).map(t => [t.name, t.y, t.x, t.base || null])"
    )
    by_op = {op: dict(zip(y, x, strict=True)) for op, y, x, _ in bars}
    drifty = "beta/drifty (no single figure)"
    assert by_op["encode"][drifty] is None
    assert by_op["decode"][drifty] == pytest.approx(500_000)  # ns
    assert by_op["encode"]["beta/fast"] == pytest.approx(1_000_000)
    # its range instead: a bar from the range's low end, not from zero
    base = next(dict(zip(y, b, strict=True)) for op, y, _, b in bars if op == "encode, range")
    assert base[drifty] == pytest.approx(500_000, rel=0.05)
    assert by_op["encode, range"][drifty] is not None  # 0 here: its slices are all alike
    assert by_op["encode, range"]["beta/fast"] is None
    # beta/fast is zero-copy: its decode is an access, not among the decode bars
    assert by_op["decode"]["beta/fast"] is None
    assert by_op["access"]["beta/fast"] == pytest.approx(1_000_000)


def test_a_link_opens_its_dataset(browser: Any, page_file: Path) -> None:
    page = browser.new_page()
    page.goto(page_file.as_uri() + "#log-records")
    assert "log-records" in page.locator("#dataset-title").inner_text()
    assert page.locator('#datasets button[aria-pressed="true"]').inner_text() == "log-records"
    page.close()


def test_header_reports_cells_without_a_figure_not_the_noise_promise(view: Watched) -> None:
    facts = view.page.locator("#facts").inner_text()
    assert "1 of 7 rows: not steady" in facts  # drifty's encode: 1 of 14 cell operations
    assert "±1.2%" not in facts and "expected" not in facts


def test_charts_time_on_a_log_axis_and_every_dataset_is_shown(view: Watched) -> None:
    if ARTEFACTS.exists():
        shutil.rmtree(ARTEFACTS)
    ARTEFACTS.mkdir(parents=True)
    tabs = view.page.locator("#datasets button")
    for i in range(tabs.count()):
        name = tabs.nth(i).inner_text()
        tabs.nth(i).click()
        if name == "untrusted":  # not a dataset: its own test
            view.page.screenshot(path=str(ARTEFACTS / "untrusted.png"), full_page=True)
            continue
        assert name in view.page.locator("#dataset-title").inner_text()
        if name == HOSTILE_DATASET:
            ticks = view.page.locator("#chart-time .ytick text").all_text_contents()
            assert sorted(ticks) == sorted(["beta/fast", f"beta/{HOSTILE_NAME}"])
        charted = view.page.locator("#chart-time").is_visible()
        assert charted == (name != "log-records")  # all n/a there: nothing to chart
        if charted:
            axes = view.page.evaluate(
                "() => { const l = document.getElementById('chart-time')._fullLayout;"
                " return [l.xaxis.type, l.xaxis.ticktext, l.xaxis2.type, l.xaxis2.range[0]]; }"
            )
            assert axes[0] == "log" and all(t.endswith(("ns", "µs", "ms")) for t in axes[1])
            assert axes[2:] == ["linear", 0]  # sizes within 100x of each other: linear
        shot = ARTEFACTS / (re.sub(r"[^\w.-]+", "_", name).strip("_") + ".png")
        view.page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert view.page.locator("#results tbody tr").count() > 0
