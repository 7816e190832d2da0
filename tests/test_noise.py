"""A noise probe that ran wholly in a slow stretch: it sees one phase and takes it for the
fast one; only the machine's earlier probes tell, and then the run assumes the most slow
share the schedule allows instead of the probe's reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from serbench import noise
from serbench.report.text import agreement_facts
from serbench.schedule import SlowShare


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SERBENCH_HOME", str(tmp_path))
    return tmp_path


def test_a_probe_far_slower_than_the_machines_record_ran_in_a_slow_stretch(home: Path) -> None:
    first = noise.against_record("2c-abc", 9_000.0)
    assert first == {"fast_ns_on_record": None, "slow_stretch": False}  # nothing to tell by
    faster = noise.against_record("2c-abc", 8_800.0)
    assert faster == {"fast_ns_on_record": 9_000.0, "slow_stretch": False}
    # the machine's slow phase is about 2x: a probe that saw only it
    stretch = noise.against_record("2c-abc", 17_000.0)
    assert stretch == {"fast_ns_on_record": 8_800.0, "slow_stretch": True}
    assert not noise.against_record("2c-abc", 8_800.0 * 1.4)["slow_stretch"]
    # the record keeps the fastest, per machine class
    noise.against_record("4c-def", 3_000.0)
    kept = json.loads((home / noise.RECORD_FILE).read_text())
    assert kept == {"2c-abc": 8_800.0, "4c-def": 3_000.0}


def test_an_unreadable_record_is_started_again(home: Path) -> None:
    (home / noise.RECORD_FILE).write_text("{not json")
    assert noise.against_record("2c-abc", 9_000.0)["fast_ns_on_record"] is None
    assert json.loads((home / noise.RECORD_FILE).read_text()) == {"2c-abc": 9_000.0}


def test_a_run_after_a_slow_stretch_probe_starts_from_the_most_slow_share() -> None:
    reading = {"slow_share": 0.05, "fast_ns": 17_000.0, "fast_ns_on_record": 8_800.0}
    assert noise.prior_share(reading) == pytest.approx(0.05)
    assert noise.prior_share({**reading, "slow_stretch": True}) == SlowShare.MOST
    assert noise.prior_share({}) is None
    # at that share, a process takes more slices than the quick profile allows before its
    # fastest counts as the fast mode: its operations run to the cap, unconfirmed, unless
    # the run's own slices show the fast phase
    assert SlowShare(prior=SlowShare.MOST).slices_needed(0.02) > 2 * 60


def test_the_report_header_says_the_probe_ran_in_a_slow_stretch() -> None:
    class Run:  # the part of a RunReport agreement_facts reads
        tables: dict[str, list[object]] = {}
        run_wide: dict[str, tuple[int, int]] = {}
        run = {
            "environment": {
                "noise": {
                    "slow_share": 0.05,
                    "fast_ns": 17_600.0,
                    "slow_ns": 20_000.0,
                    "fast_ns_on_record": 8_800.0,
                    "slow_stretch": True,
                }
            }
        }

    facts = dict(agreement_facts(Run()))  # type: ignore[arg-type]
    before = facts["machine noise before the run"]
    assert "a slow stretch: the probe's fastest phase ran 2.0x slower" in before
