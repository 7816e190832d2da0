#!/usr/bin/env python3
"""Drive `serbench-cpp-runner serve` through every serializer x dataset and validate every
line against docs/runner-protocol.schema.json (a development aid; the project's conformance
test is tests/test_runner_conformance.py).

    ../../.venv/bin/python tests/drive.py [--scale quick] [--only SERIALIZER] [--user DIR]

--user DIR also prepares each hand-made user dataset in DIR/*/ (tests/user-data: types.json,
data.json, optional schema.proto compiled here to a descriptor set, optional schema.capnp
whose first struct is the root, optional schema.thrift whose last struct is, optional
schema.fbs with its root_type, expect.json naming the statuses expected other than ok:
{"serializer": "not_applicable", "*": ...}, or with part of the detail:
{"serializer": {"status": ..., "detail": ...}}, or an ok row's encoded size:
{"serializer": {"status": "ok", "size": 272}}); --user-only
skips the built-in datasets (the ctest `user_datasets`). Each cell is prepared again with
`verify: false`: the same reply without the check and the codec sizes, its operations sampled.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from jsonschema import Draft202012Validator

HERE = Path(__file__).resolve().parent
CPP = HERE.parent
ROOT = CPP.parent.parent
SCHEMA = json.loads((ROOT / "docs" / "runner-protocol.schema.json").read_text())


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{name}"})


REPLY = validator("reply")
OPS = ["encode", "decode", "encode+zlib", "zstd+decode", "encode+lz4", "lz4+decode"]


def data_paths(scale: str) -> dict[str, str]:
    folder = ROOT / ".serbench" / "data" / scale
    out = {}
    for p in sorted(folder.glob("*.json")):
        out[p.name.split(".")[0]] = str(p)
    return out


class Serve:
    def __init__(self) -> None:
        self.p = subprocess.Popen(
            [str(CPP / "build" / "serbench-cpp-runner"), "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, cmd: dict | str) -> dict:
        line = cmd if isinstance(cmd, str) else json.dumps(cmd)
        assert self.p.stdin and self.p.stdout
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = self.p.stdout.readline()
        reply = json.loads(out)
        REPLY.validate(reply)
        return reply

    def close(self) -> int:
        self.ask({"cmd": "quit"})
        return self.p.wait(timeout=30)


def unavailable(folder: Path, kind: str, fmt: str) -> str:
    """The reason the orchestrator would give for a kind the folder has no schema of: its own
    schema writer's where the types do not map, else that the folder has none."""
    try:
        from serbench.userdata.schemas.generate import generate
        from serbench.userdata.schemas.model import load

        got = generate(load(json.loads((folder / "types.json").read_text()), "usertest"))[kind]
    except Exception:  # types the writer cannot load (a recursive record)
        got = None
    if got is not None and not hasattr(got, "text"):
        return f"{fmt}: {got}"
    return f"{fmt}: no schema.{kind} in {folder.name}"


def user_cell(folder: Path) -> tuple[dict, str, dict]:
    """The dataset object of a hand-made user dataset, with the schemas the orchestrator
    would pass (an `unavailable` reason, named after the format, where the folder has none)."""
    types = json.loads((folder / "types.json").read_text())
    schemas: dict = {"proto": {"unavailable": f"protobuf: no schema.proto in {folder.name}"}}
    proto = folder / "schema.proto"
    if proto.exists():
        pb = CPP / "build" / f"user-{folder.name}.pb"
        subprocess.run(
            [
                "protoc",
                f"-I{folder}",
                "--include_imports",
                f"--descriptor_set_out={pb}",
                str(proto),
            ],
            check=True,
        )
        message = "Root" if "message Root" in proto.read_text() else types["message"]
        schemas["proto"] = {"path": str(proto), "descriptor_set": str(pb), "message": message}
    capnp = folder / "schema.capnp"
    if capnp.exists():  # the root struct is the first one declared
        struct = re.search(r"^struct (\w+)", capnp.read_text(), re.M)
        assert struct, f"{capnp}: no struct"
        schemas["capnp"] = {"path": str(capnp.resolve()), "struct": struct.group(1)}
    else:
        schemas["capnp"] = {"unavailable": f"capnproto: no schema.capnp in {folder.name}"}
    fbs = folder / "schema.fbs"
    if fbs.exists():
        root = re.search(r"^root_type (\w+);", fbs.read_text(), re.M)
        assert root, f"{fbs}: no root_type"
        schemas["fbs"] = {"path": str(fbs.resolve()), "root": root.group(1)}
    else:
        schemas["fbs"] = {"unavailable": unavailable(folder, "fbs", "flatbuffers")}
    thrift = folder / "schema.thrift"
    if thrift.exists():  # the root is the last struct declared (types before their use)
        structs = re.findall(r"^struct (\w+)", thrift.read_text(), re.M)
        assert structs, f"{thrift}: no struct"
        schemas["thrift"] = {"path": str(thrift.resolve()), "root": structs[-1]}
    else:
        schemas["thrift"] = {"unavailable": unavailable(folder, "thrift", "thrift")}
    ds = {
        "name": folder.name,
        "kind": "user",
        "data": str(folder / "data.json"),
        "types": str(folder / "types.json"),
        "schemas": schemas,
    }
    return ds, "user:" + folder.name, json.loads((folder / "expect.json").read_text())


def unexpected(reply: dict, want: str | dict) -> str | None:
    """Why a prepare reply differs from what expect.json says: a status, or
    {"status": ..., "detail": <part of the check detail or error message>}."""
    if isinstance(want, str):
        want = {"status": want}
    if reply["status"] != want["status"]:
        return f"EXPECTED {want['status']}"
    detail = (reply.get("check") or {}).get("detail") or (reply.get("error") or {}).get("message")
    if "detail" in want and want["detail"] not in (detail or ""):
        return f"EXPECTED detail {want['detail']!r}"
    if "size" in want and (reply.get("sizes") or {}).get("encoded") != want["size"]:
        return f"EXPECTED {want['size']} B"
    return None


def light_differs(s: Serve, full: dict, request: dict) -> str | None:
    """Why a `verify: false` prepare of the same cell differs from the verified one `full`:
    the same reply without the check and the codec sizes, and its operations sample."""
    cell = request["cell"] + "-light"
    light = s.ask({**request, "cell": cell, "verify": False})
    want = {**full, "cell": cell}
    if full["status"] == "ok":
        want.update(check=None, sizes={"encoded": full["sizes"]["encoded"]})
    why = None if light == want else f"verify false: {light}"
    ops = [op for op in OPS if op not in light["unsupported"]] if light["status"] == "ok" else []
    for op in ops:
        got = s.ask({"cmd": "sample", "cell": cell, "operation": op, "iterations": 1, "samples": 1})
        if got["event"] != "samples":
            why = why or f"verify false: {op}: {got}"
    s.ask({"cmd": "release", "cell": cell})
    # a check not made cannot fail: that cell is ok without it
    return None if full["status"] == "check_failed" else why


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--only")
    ap.add_argument("--user", type=Path)
    ap.add_argument("--user-only", action="store_true")
    a = ap.parse_args()
    desc = json.loads(
        subprocess.run(
            [str(CPP / "build" / "serbench-cpp-runner"), "describe"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    validator("describe").validate(desc)
    paths = data_paths(a.scale) if not a.user_only else {}
    s = Serve()
    bad = 0
    n = 0
    for ser in desc["serializers"]:
        if a.only and ser["name"] != a.only:
            continue
        cells = (
            []
            if a.user_only
            else [
                ({"name": d, "kind": "builtin", "data": paths[d]}, d, None) for d in ser["datasets"]
            ]
        )
        if a.user and ser.get("user_datasets", {}).get("applicable"):
            cells += [user_cell(d) for d in sorted(a.user.iterdir()) if d.is_dir()]
        for ds, label, expect in cells:
            n += 1
            cell = f"c{n}"
            request = {
                "cmd": "prepare",
                "cell": cell,
                "serializer": ser["name"],
                "dataset": ds,
                "operations": OPS,
                "dump_path": None,
                "decode_from": None,
            }
            r = s.ask(request)
            line = f"{ser['name']:20} {label:22} {r['status']:14}"
            want = None if expect is None else expect.get(ser["name"], expect.get("*", "ok"))
            why = None if want is None else unexpected(r, want)
            why = why or light_differs(s, r, request)
            if why:
                line += f" ({why})"
                bad += 1
            if r["status"] != "ok":
                detail = (r.get("check") or {}).get("detail") or (r.get("error") or {}).get(
                    "message"
                )
                print(f"{line} {detail}")
                bad += want is None and r["status"] in ("check_failed", "error")
                continue
            times = []
            for op in OPS:
                if op in r["unsupported"]:
                    continue
                smp = s.ask(
                    {"cmd": "sample", "cell": cell, "operation": op, "iterations": 1, "samples": 2}
                )
                assert len(smp["wall_ns"]) == 2, smp
                times.append(f"{op}={smp['wall_ns'][1] / 1000:.0f}us/{smp['alloc_count'][1]}a")
            pk = (
                s.ask({"cmd": "peak_alloc", "cell": cell, "operation": "decode"})
                if "decode" not in r["unsupported"]
                else {"bytes": None}
            )
            s.ask({"cmd": "release", "cell": cell})
            print(f"{line} {r['sizes']['encoded']:>9} B peak={pk['bytes']} {' '.join(times)}")
    # errors keep the runner serving
    for cmd in [
        "garbage",
        {"cmd": "nope"},
        {"cmd": "sample", "cell": "zz", "operation": "encode", "iterations": 1, "samples": 1},
    ]:
        r = s.ask(cmd)
        assert r["event"] == "error", r
    if a.user_only:
        code = s.close()
        print(f"exit {code}; {bad} unexpected status(es)")
        return 1 if bad or code else 0
    r = s.ask(
        {
            "cmd": "prepare",
            "cell": "n",
            "serializer": "noop",
            "dataset": {"name": "android-users", "kind": "builtin", "data": paths["android-users"]},
            "operations": ["encode"],
        }
    )
    rounds = 200
    t0 = time.perf_counter()
    for _ in range(rounds):
        s.ask({"cmd": "sample", "cell": "n", "operation": "encode", "iterations": 1, "samples": 1})
    per = (time.perf_counter() - t0) / rounds
    print(f"serve round trip, 1-sample noop command: {per * 1e6:.0f} us")
    code = s.close()
    print(f"exit {code}; {bad} failing cell(s)")
    return 1 if bad or code else 0


if __name__ == "__main__":
    sys.exit(main())
