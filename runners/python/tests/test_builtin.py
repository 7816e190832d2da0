"""Every serializer on the built-in datasets (quick canonical files written by
`serbench datasets --scale quick --write`; SERBENCH_DATA overrides their folder), through
the typed models the build generated: the seeds' byte-exact sizes, round trips where
describe says applicable, and a check that fails on a tampered copy."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from serbench_runner_python import model
from serbench_runner_python.describe import describe
from serbench_runner_python.serve import Server

DATA = Path(
    os.environ.get("SERBENCH_DATA") or Path(__file__).resolve().parents[3] / ".serbench/data/quick"
)
# The seeds' sizes: S1 as one list, S2 per message (protobuf and handwritten with their
# varint prefix; MessagePack concatenated, msgspec's length-prefixed).
SIZES = {
    "android-users": {
        "protobuf": 560,
        "msgpack-positional": 383,
        "msgspec-msgpack": 383,
        "handwritten": 684,
    },
    "pb-vs-msgpack-test1": {"protobuf": 5, "msgpack-positional": 3, "handwritten": 9},
    "pb-vs-msgpack-test2": {"protobuf": 23, "msgpack-positional": 3, "handwritten": 9},
    "pb-vs-msgpack-test3": {"protobuf": 8197, "msgpack-positional": 8195, "handwritten": 8198},
    "pb-vs-msgpack-test4": {"protobuf": 8230, "msgpack-positional": 8202, "handwritten": 8214},
}
# The handwritten layout's whole quick files, the same bytes as the Node runner's.
HANDWRITTEN = {"click-maps": 99_741, "log-records": 147_827, "one-mb-dict": 1_000_040}


def canonical(name: str) -> Path:
    files = sorted(DATA.glob(f"{name}.*.json"))
    if not files:
        pytest.skip(
            f"no canonical {name} file in {DATA}: run `serbench datasets --scale quick --write`"
        )
    return files[0]


def prepare(serializer: str, name: str, check: Path | None = None) -> dict[str, Any]:
    dataset = {"name": name, "kind": "builtin", "data": str(canonical(name))}
    if check is not None:
        dataset["check_data"] = str(check)
    cmd = {
        "cmd": "prepare",
        "cell": "c",
        "serializer": serializer,
        "dataset": dataset,
        "operations": ["encode", "decode"],
    }
    return Server().handle(cmd)


def test_the_build_found_every_builtin() -> None:
    assert set(SIZES) <= set(model.builtin_names()), "run the build: `serbench build -r python`"


@pytest.mark.parametrize(
    ("name", "serializer", "size"),
    [
        (name, serializer, size)
        for name, sizes in SIZES.items()
        for serializer, size in sizes.items()
    ],
)
def test_seed_sizes(name: str, serializer: str, size: int) -> None:
    reply = prepare(serializer, name)
    assert reply["status"] == "ok", reply
    assert reply["sizes"]["encoded"] == size * reply["messages"]


@pytest.mark.parametrize("name", model.builtin_names())
def test_round_trips_where_describe_says(name: str) -> None:
    for entry in describe()["serializers"]:
        reply = prepare(entry["name"], name)
        want = "ok" if entry["datasets"][name]["applicable"] else "not_applicable"
        assert reply["status"] == want, (entry["name"], reply.get("error"), reply.get("check"))


@pytest.mark.parametrize(("name", "size"), HANDWRITTEN.items())
def test_handwritten_sizes(name: str, size: int) -> None:
    reply = prepare("handwritten", name)
    assert reply["status"] == "ok", reply
    assert reply["sizes"]["encoded"] == size


def test_positional_layout_is_the_seeds() -> None:
    users = model.builtin("android-users")
    rec = {"id": 3, "name": "user 3", "age": 7, "gender": 1, "isMegane": False}
    assert users.to_list([rec]) == [[3, "user 3", 7, 1, False]]
    assert users.from_list(users.to_list([rec])) == [rec]
    test4 = model.builtin("pb-vs-msgpack-test4")
    msg = {"t1": {"a": 1, "b": 2}, "t2": {"a": -1, "b": -2}, "t3": {"s": "aa"}}
    assert test4.to_list(msg) == [[1, 2], [-1, -2], "aa"]  # Test3 is a bare string
    assert test4.from_list(test4.to_list(msg)) == msg


def test_a_tampered_copy_fails_the_check(tmp_path: Path) -> None:
    doc = json.loads(canonical("android-users").read_text())
    doc["items"][0][17]["age"] += 1
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    for serializer in ("protobuf", "msgspec-json", "msgpack-positional", "fastavro", "handwritten"):
        reply = prepare(serializer, "android-users", tampered)
        assert reply["status"] == "check_failed", (serializer, reply)
        assert reply["check"]["detail"].startswith("$[17].age: "), reply["check"]
