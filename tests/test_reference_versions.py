"""`serbench reference` with the seeds' own library versions: each S1 and S4 claim checked
on the seed's versions beside today's, on stored synthetic runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_compare import synthetic_run

from serbench import reference, reference_versions
from serbench.report import build
from serbench.store import Store

S1_TODAY = {
    "java-serialization": 5000.0,
    "handwritten": 1000.0,
    "msgpack-core": 1000.0,
    "protobuf": 2000.0,  # today: msgpack decodes faster than protobuf
    "kryo-unregistered": 1000.0,
}
S1_SEED = {
    "msgpack@0.6.12": 4000.0,  # in 2016's libraries protobuf decoded 4x faster
    "protobuf@2.6.1": 1000.0,
    "kryo-unregistered@3.0.3": 2000.0,
}
PB_MP = "Protobuf deserializes faster than MessagePack"
JS_KRYO = "Java serialization deserializes slower than Kryo"
JS_HAND = "Java serialization serializes slower than a hand-written writer"


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "v.sqlite")


def _by_claim(verdicts: list[reference.Verdict]) -> dict[str, list[reference.Verdict]]:
    out: dict[str, list[reference.Verdict]] = {}
    for v in verdicts:
        out.setdefault(v.claim, []).append(v)
    return out


def test_each_claim_on_the_seeds_versions_follows_todays(store: Store) -> None:
    rep = build(store, synthetic_run(store, 1, S1_TODAY | S1_SEED))
    claims = _by_claim(reference.check_claims("S1", rep))

    today, then = claims[PB_MP]
    assert (today.runner, today.verdict) == ("syn", "does not hold")
    assert today.evidence == "syn/msgpack-core / syn/protobuf"
    assert then.runner == "syn, 2016's libraries" and then.verdict == "holds"
    assert then.evidence == (
        "syn/msgpack@0.6.12 / syn/protobuf@2.6.1; held in 2016's libraries, no longer holds today"
    )
    assert then.measured == pytest.approx(4.0, rel=0.1)

    today, then = claims[JS_KRYO]
    assert today.verdict == then.verdict == "holds"
    assert then.evidence.startswith("syn/java-serialization / syn/kryo-unregistered@3.0.3; ")
    assert then.evidence.endswith("held in 2016's libraries, still holds today")

    # no version of Java serialization or of a hand-written writer: today's verdict alone
    assert [v.runner for v in claims[JS_HAND]] == ["syn"]


def test_the_measured_table_shows_each_seed_version_after_todays_row(store: Store) -> None:
    rep = build(store, synthetic_run(store, 2, S1_TODAY | S1_SEED))
    rows = [(label, row.serializer) for _, label, row in reference.measured_rows("S1", rep)]
    assert rows == [
        ("Java Serializable", "java-serialization"),
        ("Parcelable (hand-written)", "handwritten"),
        ("MessagePack", "msgpack-core"),
        ("MessagePack", "msgpack@0.6.12"),
        ("Protocol Buffers", "protobuf"),
        ("Protocol Buffers", "protobuf@2.6.1"),
        ("Kryo", "kryo-unregistered"),
        ("Kryo", "kryo-unregistered@3.0.3"),
    ]


def test_a_run_without_version_rows_reads_as_before(store: Store) -> None:
    rep = build(store, synthetic_run(store, 3, S1_TODAY))
    verdicts = reference.check_claims("S1", rep)
    assert [v.runner for v in verdicts] == ["syn"] * 4
    assert all(reference_versions.VERSION_MARK not in v.evidence for v in verdicts)


def test_a_seed_verdict_without_todays_row_comes_last(store: Store) -> None:
    times = S1_TODAY | S1_SEED
    rep = build(store, synthetic_run(store, 4, times, ng=("protobuf",)))
    verdicts = reference.check_claims("S1", rep)
    protobuf_claims = [PB_MP, "MessagePack output is smaller than Protobuf's"]
    assert [v.claim for v in verdicts[-2:]] == protobuf_claims
    assert {v.runner for v in verdicts[-2:]} == {"syn, 2016's libraries"}
    assert verdicts[-2].evidence.endswith("holds in 2016's libraries; today's rows not measured")
    assert not set(protobuf_claims) & {v.claim for v in verdicts if v.runner == "syn"}


def test_s4_names_kryo_3_as_a_stand_in_for_its_unpublished_version(store: Store) -> None:
    times = {
        "java-serialization": 40000.0,
        "kryo-unregistered": 1000.0,
        "kryo-deflate": 2000.0,
        "bson": 3000.0,
        "kryo-unregistered@3.0.3": 30000.0,  # only 1.3x faster: short of S4's 40x
        "kryo-deflate@3.0.3": 3000.0,
    }
    rep = build(store, synthetic_run(store, 5, times, datasets={"click-maps": 1.0}))
    claims = _by_claim(reference.check_claims("S4", rep))
    today, then = claims["Kryo deserializes 40x faster than Java serialization"]
    assert today.verdict == "holds" and then.verdict == "direction only"
    era = "S1's Kryo 3.0.3"
    assert then.runner == f"syn, {era}"
    assert then.evidence.endswith(f"did not hold in {era} (direction only), holds today")
    _, then = claims["Kryo+Deflate deserializes 9x faster than Java serialization"]
    assert then.evidence.startswith("syn/java-serialization / syn/kryo-deflate@3.0.3; ")


@pytest.mark.parametrize(
    ("then", "now", "words"),
    [
        ("holds", "holds", "held in E, still holds today"),
        ("holds", "direction only", "held in E, no longer holds today"),
        ("holds", "undecided", "holds in E, undecided today"),
        ("does not hold", "holds", "did not hold in E (does not hold), holds today"),
        ("does not hold", "does not hold", "did not hold in E (does not hold), nor today"),
        ("direction only", "does not hold", "direction only in E, does not hold today"),
        ("undecided", "holds", "undecided in E, holds today"),
        ("holds", None, "holds in E; today's rows not measured"),
    ],
)
def test_then_and_now_in_words(then: str, now: str | None, words: str) -> None:
    assert reference_versions.then_and_now(then, now, "E") == words


def test_other_seeds_have_no_versions() -> None:
    for scenario in ("S2", "S3", "S5"):
        assert reference_versions.stand_ins(scenario, reference.STAND_INS) is None
    seed = reference_versions.stand_ins("S1", reference.STAND_INS)
    assert seed is not None
    assert seed["Kryo"] == ["kryo-unregistered@3.0.3", "kryo@3.0.3"]
    assert seed["Java Serializable"] == reference.STAND_INS["Java Serializable"]
