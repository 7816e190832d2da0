"""The runner conformance test of docs/runner-protocol.md section 10, for every runner.

Every line a runner prints is validated against docs/runner-protocol.schema.json (the
session does it), so a runner passes only if it speaks protocol v2 to the letter.
"""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import available_runners, dataset, prepare, runner_or_skip, sample, serving

from serbench import datasets, protocol, runners, transport
from serbench.untrusted import avro_interop, values

NATIVE = ("cpp", "rust", "go")  # runners whose memcpy floors must agree
NOOP_BOUND_NS = 1_000  # docs/method.md: the harness may add at most this per operation
# ±15% of each other, per byte copied: each runner copies with its platform's bulk copy, and
# Go's runtime memmove of 1 MB ran 1.23-1.28x glibc's memcpy on this machine's host on
# 2026-11-25 (spread 0.10-0.12) in 7 of 8 tries, in every process; a harness that allocated
# or copied twice inside the loop would be 2x
MEMCPY_AGREEMENT = 0.15


def _describe(runner: str) -> tuple[runners.RunnerSpec, dict]:
    spec = runner_or_skip(runner)
    return spec, runners.describe(spec)


def _reference_serializer(d: dict) -> dict:
    """A real (non-baseline) serializer applicable to every dataset, else the broadest one."""
    real = [s for s in d["serializers"] if "baseline" not in s["labels"]]
    return max(real, key=lambda s: sum(v["applicable"] for v in s["datasets"].values()))


runner_names = pytest.mark.parametrize("runner", available_runners())


@runner_names
def test_describe(runner: str) -> None:
    _, d = _describe(runner)
    assert protocol.problem("describe", d) is None, protocol.problem("describe", d)
    assert d["runner"] == runner
    names = [s["name"] for s in d["serializers"]]
    assert "noop" in names and len(names) == len(set(names))
    for s in d["serializers"]:
        assert set(s["datasets"]) == set(datasets.DATASETS), s["name"]
        if "user_datasets" in d["capabilities"]:
            assert "user_datasets" in s, s["name"]
    if runner in NATIVE:
        assert "memcpy" in names


@runner_names
def test_a_cell_on_every_dataset(runner: str) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    with serving(spec) as session:
        for ds in datasets.DATASETS:
            r = session.call(prepare(ds, ser["name"], dataset(ds)))
            if not ser["datasets"][ds]["applicable"]:
                assert r["status"] == "not_applicable" and r["error"]["message"]
                continue
            assert r["status"] == "ok", r
            assert r["check"]["ok"] is True
            assert r["sizes"]["encoded"] > 0 and r["messages"] >= 1
            for op in ("encode", "decode"):
                got = session.call(sample(ds, op, iterations=2, samples=3))
                assert got["event"] == "samples" and got["iterations"] == 2
                assert len(got["wall_ns"]) == 3 and len(got["cpu_ns"]) == 3
            assert session.call({"cmd": "release", "cell": ds})["event"] == "released"
            gone = session.call(sample(ds, "encode"))
            assert gone["event"] == "error" and gone["code"] == "unknown_cell"


def _tampered(original: dict, tmp_path: Path) -> Path:
    """The dataset's file with one person's age changed: check data a round trip fails."""
    doc = json.loads(Path(original["data"]).read_text())
    doc["items"][0][17]["age"] = (doc["items"][0][17]["age"] + 1) % 50
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    return tampered


@runner_names
def test_tampered_check_data_fails_the_check(runner: str, tmp_path: Path) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    original = dataset("android-users")
    tampered = _tampered(original, tmp_path)
    with serving(spec) as session:
        r = session.call(prepare("t", ser["name"], {**original, "check_data": str(tampered)}))
        assert r["status"] == "check_failed"
        assert r["check"]["ok"] is False and "age" in r["check"]["detail"]
        refused = session.call(sample("t", "encode"))
        assert refused["event"] == "error" and refused["code"] == "unknown_cell"


@runner_names
def test_a_prepare_that_skips_the_check(runner: str, tmp_path: Path) -> None:
    """`verify: false` (section 4): the bytes encoded once, no decode, no comparison and no
    codec sizes; tampered check data cannot fail a check that is not made."""
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    original = dataset("android-users")
    tampered = _tampered(original, tmp_path)
    with serving(spec) as session:
        full = session.call(prepare("v", ser["name"], original))
        light = session.call(
            prepare("w", ser["name"], {**original, "check_data": str(tampered)}, verify=False)
        )
        assert light["status"] == "ok" and light["check"] is None, light
        assert light["sizes"] == {"encoded": full["sizes"]["encoded"]}
        assert light["messages"] == full["messages"]
        for op in ("encode", "decode"):
            got = session.call(sample("w", op, iterations=2, samples=3))
            assert got["event"] == "samples" and len(got["wall_ns"]) == 3


@runner_names
def test_unknown_names_and_bad_commands_keep_it_serving(runner: str) -> None:
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    with serving(spec) as session:
        r = session.call(prepare("a", "no-such-lib", dataset("android-users")))
        assert r["status"] == "error" and r["error"]["code"] == "unknown_serializer"
        assert "noop" in r["error"]["message"]
        bogus = {**dataset("android-users"), "name": "no-such-dataset"}
        r = session.call(prepare("b", ser["name"], bogus))
        assert r["status"] == "error" and r["error"]["code"] == "unknown_dataset"
        assert "android-users" in r["error"]["message"]
        for line in ("{not json", json.dumps({"cmd": "fly"}), json.dumps({"cmd": "sample"})):
            reply = session.send_raw(line)
            assert protocol.problem("reply", reply) is None, reply
            assert reply["event"] == "error" and reply["code"] == "bad_request", reply
        r = session.call(prepare("c", "noop", dataset("android-users")))
        assert r["status"] == "ok"
        got = session.call(sample("c", "decode", iterations=7, samples=4))
        assert got["iterations"] == 7 and len(got["wall_ns"]) == 4
        assert session.call({"cmd": "quit"}) == {"event": "bye"}


@runner_names
def test_untimed_operations_run_before_the_samples(runner: str) -> None:
    # about 0.3 s of warm operations asked for untimed: the command takes at least a third of
    # that (slow phases only lengthen it); a runner that skipped them would answer at once
    spec, d = _describe(runner)
    ser = _reference_serializer(d)
    with serving(spec) as session:
        assert session.call(prepare("u", ser["name"], dataset("android-users")))["status"] == "ok"
        cold_ns = min(session.call(sample("u", "encode", iterations=1, samples=5))["wall_ns"])
        batch = max(1, int(0.1e9 / cold_ns))  # 0.1 s at first, less once compiled
        warm = session.call(sample("u", "encode", iterations=batch, samples=5))["wall_ns"]
        op_ns = min(warm) / batch
        untimed = max(1, int(0.3e9 / op_ns))
        start = time.perf_counter_ns()
        got = session.call({**sample("u", "encode", iterations=1, samples=2), "untimed": untimed})
        spent_ns = time.perf_counter_ns() - start
        assert got["event"] == "samples" and len(got["wall_ns"]) == 2, got
        assert spent_ns > untimed * op_ns / 3, (spent_ns, untimed, op_ns)
        refused = session.call({**sample("u", "encode"), "untimed": -1})
        assert refused["event"] == "error" and refused["code"] == "bad_request", refused
        assert session.call(sample("u", "encode"))["event"] == "samples"


def _noop_ns(spec: runners.RunnerSpec) -> dict[str, float]:
    """Best per-operation time of noop encode and decode on S1 (after a short warm-up)."""
    out = {}
    with serving(spec) as session:
        assert session.call(prepare("n", "noop", dataset("android-users")))["status"] == "ok"
        for op in ("encode", "decode"):
            best = []
            for _ in range(30):
                got = session.call(sample("n", op, iterations=20_000, samples=1))
                best.append(got["wall_ns"][0] / 20_000)
            out[op] = min(best)
    return out


@runner_names
def test_noop_overhead_is_within_bounds(runner: str) -> None:
    spec, _ = _describe(runner)
    got = _noop_ns(spec)
    assert max(got.values()) < NOOP_BOUND_NS, got


def test_memcpy_floors_agree_across_native_runners() -> None:
    """The same 1 MB copy timed by every native runner: the harnesses must agree."""
    present = [r for r in NATIVE if r in available_runners()]
    if len(present) < 2:
        pytest.skip(f"needs two native runners; found {present}")
    specs = {r: runner_or_skip(r) for r in present}
    per_byte: dict[str, list[float]] = {r: [] for r in present}
    sessions = {r: serving(s) for r, s in specs.items()}
    live = {r: cm.__enter__() for r, cm in sessions.items()}
    try:
        for r, session in live.items():
            reply = session.call(prepare("m", "memcpy", dataset("one-mb-dict")))
            assert reply["status"] == "ok", reply
            size = reply["sizes"]["encoded"]
            assert 1_000_000 <= size < 1_001_000, (r, size)
        for _ in range(20):  # alternate, so the machine's phases fall on all of them
            for r, session in live.items():
                got = session.call(sample("m", "decode", iterations=8, samples=3))
                per_byte[r].append(min(got["wall_ns"]) / 8 / 1_000_000)
    finally:
        for cm in sessions.values():
            cm.__exit__(None, None, None)
    best = {r: float(np.min(v)) for r, v in per_byte.items()}
    spread = (max(best.values()) - min(best.values())) / (max(best.values()) + min(best.values()))
    assert spread <= MEMCPY_AGREEMENT, best


@runner_names
def test_decode_from_when_declared(runner: str, tmp_path: Path) -> None:
    spec, d = _describe(runner)
    if "decode_from" not in d["capabilities"]:
        pytest.skip(f"{runner} does not declare decode_from")
    ser = _reference_serializer(d)
    dump = tmp_path / "s1.bin"
    with serving(spec) as session:
        r = session.call(prepare("w", ser["name"], dataset("android-users"), dump_path=str(dump)))
        assert r["status"] == "ok" and dump.stat().st_size == r["sizes"]["encoded"]
        r = session.call(prepare("r", ser["name"], dataset("android-users"), decode_from=str(dump)))
        assert r["status"] == "ok" and r["check"]["ok"]
        assert "encode" in r["unsupported"] and "decode" not in r["unsupported"]
        assert session.call(sample("r", "decode"))["event"] == "samples"
        dump.write_bytes(b"\xc1\xff\x00 not a valid encoding of anything")
        r = session.call(prepare("x", ser["name"], dataset("android-users"), decode_from=str(dump)))
        assert r["status"] == "check_failed" and r["check"]["detail"].startswith("cannot decode:")


@runner_names
def test_transport_when_declared(runner: str) -> None:
    _, d = _describe(runner)
    if "transport" not in d.get("capabilities", []):
        pytest.skip(f"{runner} does not declare the optional transport capability")
    ser = _reference_serializer(d)
    side = transport.Side(runner, ser["name"])
    result = transport.transfer(side, side, runners.discover(), "one-mb-dict", "quick", 2, 1)
    assert result["receive"]["check"]["ok"] is True


FIXTURES = Path(__file__).parent / "fixtures" / "userdata"


@runner_names
def test_user_datasets_when_declared(runner: str, state: Path) -> None:
    """Every serializer that takes user datasets answers a typed one with OK, a failed check
    naming a path, or not-applicable with a reason; the schemaless ones mostly OK."""
    spec, d = _describe(runner)
    if "user_datasets" not in d["capabilities"]:
        pytest.skip(f"{runner} does not declare user_datasets")
    from serbench import orchestrate, userdata

    userdata.add(
        "conformance-typed", FIXTURES / "typed.jsonl", types_file=FIXTURES / "typed.types.json"
    )
    data = orchestrate.on_the_wire(orchestrate.descriptor("conformance-typed", "quick"))
    takers = [s for s in d["serializers"] if s["user_datasets"]["applicable"]]
    assert any(s["name"] == "noop" for s in takers)
    statuses = {}
    with serving(spec) as session:
        for s in takers:
            r = session.call(prepare(s["name"], s["name"], data))
            statuses[s["name"]] = r["status"]
            if r["status"] == "ok":
                assert session.call(sample(s["name"], "decode"))["event"] == "samples"
            elif r["status"] == "check_failed":
                assert "$" in r["check"]["detail"], r
            else:
                assert r["status"] == "not_applicable" and r["error"]["message"], r
    assert statuses["noop"] == "ok"
    assert sum(v == "ok" for v in statuses.values()) >= 2, statuses


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()


UNTRUSTED_PROBES = {  # format: (a valid input, its canonical value, an invalid input)
    "json": (b'[1,"a",{"b":null}]', [1, "a", {"b": None}], b"[1,"),
    "msgpack": (bytes.fromhex("93 01 a1 61 81 a1 62 c0"), [1, "a", {"b": None}], b"\x93\x01"),
    "cbor": (bytes.fromhex("83 01 61 61 a1 61 62 f6"), [1, "a", {"b": None}], b"\x83\x01"),
}


@runner_names
def test_untrusted_when_declared(runner: str) -> None:
    """Section 11: generic decodes answer accepted with the canonical value or rejected with
    the library's text; a typed row decodes its own encoding of a dataset; unknown names
    and rows without the command answer clean errors and the runner keeps serving."""
    spec, d = _describe(runner)
    if "untrusted" not in d["capabilities"]:
        pytest.skip(f"{runner} does not declare untrusted (protocol 2.1)")
    assert d.get("protocol_minor", 0) >= 1
    answered = 0
    with serving(spec) as session:
        for s in d["serializers"]:
            if s["format"] not in UNTRUSTED_PROBES:
                continue
            good, value, bad = UNTRUSTED_PROBES[s["format"]]
            inputs = [{"id": "good", "b64": _b64(good)}, {"id": "bad", "b64": _b64(bad)}]
            cmd = {"cmd": "untrusted_decode", "cell": "u", "serializer": s["name"]}
            r = session.call({**cmd, "dataset": None, "inputs": inputs})
            if r["event"] == "error":
                assert r["code"] == "unsupported", r
                continue
            answered += 1
            got = {o["id"]: o for o in r["outcomes"]}
            assert got["good"]["outcome"] == "accepted" and got["good"]["value"] == value, r
            assert got["bad"]["outcome"] == "rejected" and got["bad"]["error"], r
        assert answered >= 1, "no serializer decodes generic values"
        ser = _reference_serializer(d)
        data = dataset("android-users")
        enc = {"cmd": "untrusted_encode", "cell": "e", "serializer": ser["name"], "dataset": data}
        r = session.call(enc)
        if r["event"] != "error":
            inputs = [{"id": "own", "b64": r["b64"]}]
            dec = {"cmd": "untrusted_decode", "cell": "d", "serializer": ser["name"]}
            r = session.call({**dec, "dataset": data, "inputs": inputs})
            assert r["outcomes"][0]["outcome"] == "accepted", r
        else:
            assert r["code"] in ("unsupported", "not_applicable"), r
        bad = {"cmd": "untrusted_decode", "cell": "x", "serializer": "no-such", "inputs": []}
        assert session.call(bad)["code"] == "unknown_serializer"
        assert session.call({"cmd": "release", "cell": "x"})["event"] == "released"


@runner_names
def test_avro_container_when_declared(runner: str) -> None:
    """Section 11, `avro_container`: every Avro row writes interop.avsc's records as an
    object container file with each codec and reads its own file back as the datum."""
    spec, d = _describe(runner)
    if avro_interop.CAPABILITY not in d["capabilities"]:
        pytest.skip(f"{runner} does not declare {avro_interop.CAPABILITY}")
    rows = [s["name"] for s in d["serializers"] if s["format"] == "avro"]
    assert rows, "avro_container declared without an Avro row"
    with serving(spec) as session:
        for name in rows:
            for codec in avro_interop.CODECS:
                r = session.call({**avro_interop.encode_command(name, codec), "cell": "w"})
                assert r["event"] == "untrusted_encoded", r
                data = base64.b64decode(r["b64"])
                assert data[:4] == b"Obj\x01", f"{name} {codec}: not a container file"
                r = session.call(
                    {**avro_interop.decode_command(name, [("own", data)]), "cell": "r"}
                )
                outcome = r["outcomes"][0]
                assert outcome["outcome"] == "accepted", (name, codec, outcome)
                diff = values.first_difference(avro_interop.records(), outcome["value"])
                assert diff is None, f"{name} {codec}: {diff}"
