"""Datasets are deterministic and give the byte-exact sizes that follow from the seeds."""

from __future__ import annotations

import json

import pytest
from conftest import dataset as dataset_object
from conftest import prepare, serving

from serbench import datasets, runners

# sha256 of the canonical files: a change here changes every published comparison.
CANONICAL_SHA256 = {
    ("android-users", "full"): "4d312b3fb292517a",
    ("pb-vs-msgpack-test1", "full"): "d844823287665099",
    ("one-mb-dict", "full"): "f7c3b4ac4cb0b0d3",
    ("click-maps", "full"): "2cfc1ebeaec503fa",
    ("mesh", "quick"): "5d7f3746ee774a09",
}


@pytest.mark.parametrize(("name", "scale"), list(CANONICAL_SHA256))
def test_canonical_data_is_stable(name: str, scale: str) -> None:
    ds = datasets.get(name).build(scale)  # type: ignore[arg-type]
    assert ds.sha256()[:16] == CANONICAL_SHA256[(name, scale)]
    assert ds.canonical_bytes() == datasets.get(name).build(scale).canonical_bytes()  # type: ignore[arg-type]


def test_s1_matches_the_scenario() -> None:
    (records,), count = datasets.get("android-users").generate("full")
    assert count == 1 and len(records) == 30
    assert [r["id"] for r in records] == list(range(30))
    assert all(r["name"] == f"user {r['id']}" and 0 <= r["age"] < 50 for r in records)
    assert {r["gender"] for r in records} == {0, 1} and {r["isMegane"] for r in records} == {
        True,
        False,
    }


def test_s2_streams_use_the_seeds_n() -> None:
    counts = {n: datasets.get(n).build("full").count for n in datasets.DATASETS if "pb-vs" in n}
    assert counts == {
        "pb-vs-msgpack-test1": 2**23,
        "pb-vs-msgpack-test2": 2**23,
        "pb-vs-msgpack-test3": 2**15,
        "pb-vs-msgpack-test4": 2**15,
    }


def test_s3_and_s5_shapes() -> None:
    (d,), _ = datasets.get("one-mb-dict").generate("full")
    assert {k: len(v) for k, v in d.items()} == {"key1": 300_000, "key2": 300_000, "key3": 400_000}
    assert d["key1"].startswith("abcdefghijklmnopqrstuvwxyzabc")
    (log,), _ = datasets.get("log-records").generate("full")
    assert len(log) == 100_000 and log[0]["MyProperty1"] == "hoge1"
    assert log[0]["MyProperty3"] == 944_956_800_000  # 1999-12-12T00:00:00Z
    assert log[1]["MyProperty5"][9] == {"key": "10", "value": "2"}


def test_s4_is_long_tailed() -> None:
    docs, count = datasets.get("click-maps").generate("full")
    sizes = sorted(len(d["clicks"]) for d in docs)
    assert count == len(docs) == 2000
    assert sizes[0] >= 1 and sizes[len(sizes) // 2] < 20 and sizes[-1] >= 200


def test_s6_is_a_mesh_of_float32_vectors() -> None:
    (mesh,), count = datasets.get("mesh").generate("quick")
    assert count == 1 and len(mesh["triangles"]) == 1_000
    assert list(mesh["triangles"][0]) == ["v0", "v1", "v2", "normal"]
    values = [c for t in mesh["triangles"] for v in t.values() for c in v.values()]
    # exact float32 values in [0, 1): the canonical text reads back the same everywhere
    assert all(0 <= c < 1 and (c * 2**24).is_integer() for c in values)


def test_canonical_file_round_trips(state) -> None:
    path = datasets.get("android-users").build("quick").path()
    doc = datasets.load_canonical(path)
    assert doc["framing"] == "single" and doc["count"] == 1 and len(doc["items"][0]) == 30


def test_bad_dataset_file_is_named(tmp_path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"hello": 1}))
    with pytest.raises(ValueError, match="not a serbench dataset"):
        datasets.load_canonical(bad)


def test_unknown_dataset_lists_valid_names() -> None:
    with pytest.raises(datasets.UnknownName, match="android-users"):
        datasets.get("nope")


# Bytes per whole dataset output, from the seeds (scenarios.md): S1 protobuf 560 and the
# seed's MessagePack layout 383; S2 per message x N (PB with its varint32 prefix).
S2_N = {n: datasets.get(n).build("quick").count for n in datasets.DATASETS if "pb-vs" in n}
EXPECTED = [
    ("protobuf", "android-users", 560),
    ("msgpack-positional", "android-users", 383),
    ("msgspec-msgpack", "android-users", 383),
    ("protobuf", "pb-vs-msgpack-test1", 5),
    ("protobuf", "pb-vs-msgpack-test2", 23),
    ("protobuf", "pb-vs-msgpack-test3", 8197),
    ("protobuf", "pb-vs-msgpack-test4", 8230),
    ("msgpack-positional", "pb-vs-msgpack-test1", 3),
    ("msgpack-positional", "pb-vs-msgpack-test2", 3),
    ("msgpack-positional", "pb-vs-msgpack-test3", 8195),
    ("msgpack-positional", "pb-vs-msgpack-test4", 8202),
]


@pytest.mark.parametrize(("serializer", "dataset", "size"), EXPECTED)
def test_python_sizes_follow_from_the_seeds(serializer: str, dataset: str, size: int) -> None:
    with serving(runners.PYTHON) as runner:
        r = runner.call(prepare("c", serializer, dataset_object(dataset), ("encode",)))
    assert r["status"] == "ok" and r["check"]["ok"]
    assert r["sizes"]["encoded"] == size * S2_N.get(dataset, 1)
