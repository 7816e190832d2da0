"""A run's starting slow share beside the machine's earlier probes: a probe that ran wholly
in a slow stretch sees one phase and takes it for the fast one (only the fastest probe on
record tells), and a 2 s probe may catch a calm moment of a machine that was slow for 99% of
another probe minutes before (the last hour's highest share tells)."""

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


def probe(fast_ns: float, slow_share: float = 0.5) -> noise.Noise:
    return noise.Noise(2.0, 100, fast_ns, None, slow_share, 0.0, None, None, 0.0)


def test_a_probe_far_slower_than_the_machines_record_ran_in_a_slow_stretch(home: Path) -> None:
    first = noise.against_record("2c-abc", probe(9_000.0), now=0)
    assert first["fast_ns_on_record"] is None and not first["slow_stretch"]  # nothing to tell by
    faster = noise.against_record("2c-abc", probe(8_800.0), now=1)
    assert faster["fast_ns_on_record"] == 9_000.0 and not faster["slow_stretch"]
    # the machine's slow phase is about 2x: a probe that saw only it
    assert noise.against_record("2c-abc", probe(17_000.0), now=2)["slow_stretch"]
    assert not noise.against_record("2c-abc", probe(8_800.0 * 1.4), now=3)["slow_stretch"]
    # the record keeps the fastest, per machine class
    noise.against_record("4c-def", probe(3_000.0), now=4)
    kept = json.loads((home / noise.RECORD_FILE).read_text())
    assert {k: v["fast_ns"] for k, v in kept.items()} == {"2c-abc": 8_800.0, "4c-def": 3_000.0}


def test_the_highest_slow_share_of_the_last_hours_probes_is_kept(home: Path) -> None:
    hour = noise.RECENT_PROBES_S
    assert noise.against_record("2c-abc", probe(9_000.0, 0.99), now=0)["recent_slow_share"] is None
    assert noise.against_record("2c-abc", probe(9_000.0, 0.30), now=60)["recent_slow_share"] == 0.99
    # an hour on, the 99% probe is forgotten
    later = noise.against_record("2c-abc", probe(9_000.0, 0.20), now=hour + 30)
    assert later["recent_slow_share"] == 0.30


def test_an_unreadable_record_is_started_again(home: Path) -> None:
    (home / noise.RECORD_FILE).write_text("{not json")
    assert noise.against_record("2c-abc", probe(9_000.0))["fast_ns_on_record"] is None
    kept = json.loads((home / noise.RECORD_FILE).read_text())
    assert kept["2c-abc"]["fast_ns"] == 9_000.0


def test_a_run_starts_from_the_higher_of_its_probe_and_the_last_hours_shares() -> None:
    reading = {"slow_share": 0.31, "recent_slow_share": 0.99, "fast_ns": 8_600.0}
    assert noise.prior_share(reading) == pytest.approx(0.99)
    assert noise.prior_share({"slow_share": 0.31}) == pytest.approx(0.31)
    assert noise.prior_share({**reading, "slow_stretch": True}) == SlowShare.MOST
    assert noise.prior_share({}) is None
    # at the most, a process takes more slices than the quick profile allows before its
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
