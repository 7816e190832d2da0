"""protobuf (upb) with classes generated at first use from each dataset's .proto.

Users of protobuf hold the generated messages, so ``encode`` starts from a message
and ``decode`` ends with one; the conversion to and from the native model is
outside timing.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from types import ModuleType
from typing import Any

from serbench.datasets import get, schema_path
from serbench.paths import state_dir
from serbench.runner_py.model import EPOCH
from serbench.runner_py.serializers.base import Codec, NotApplicable, Serializer


@cache
def generated_module(dataset: str) -> ModuleType:
    """Compile the dataset's .proto with grpcio-tools' protoc (cached by content)."""
    from grpc_tools import protoc

    proto = schema_path(get(dataset), ".proto")
    digest = hashlib.sha256(proto.read_bytes()).hexdigest()[:12]
    out = state_dir() / "gen" / "python" / f"{proto.stem}-{digest}"
    module = f"{proto.stem}_pb2"
    if not (out / f"{module}.py").exists():
        out.mkdir(parents=True, exist_ok=True)
        args = ["protoc", f"-I{proto.parent}", f"--python_out={out}", proto.name]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {proto}")
    if str(out) not in sys.path:
        sys.path.insert(0, str(out))
    return importlib.import_module(module)


def _ms(value: datetime) -> int:
    return (value - EPOCH) // _MS


_MS = datetime(1970, 1, 1, 0, 0, 0, 1000, tzinfo=UTC) - EPOCH


def _converters(dataset: str, pb: ModuleType) -> tuple[type, Callable, Callable]:
    """(message class, native -> message, message -> native) per dataset."""
    if dataset == "android-users":

        def users_in(m: list[dict[str, Any]]) -> Any:
            return pb.SampleList(
                sampleData=[
                    pb.SampleData(
                        id=r["id"],
                        name=r["name"],
                        age=r["age"],
                        gender=r["gender"],
                        isMegane=int(r["isMegane"]),
                    )
                    for r in m
                ]
            )

        def users_out(msg: Any) -> list[dict[str, Any]]:
            return [
                {
                    "id": r.id,
                    "name": r.name,
                    "age": r.age,
                    "gender": r.gender,
                    "isMegane": bool(r.isMegane),
                }
                for r in msg.sampleData
            ]

        return pb.SampleList, users_in, users_out
    if dataset.startswith("pb-vs-msgpack-"):
        test = dataset[-5:]

        def t_in(m: dict[str, Any]) -> Any:
            if test == "test4":
                return pb.Test4(
                    t1=pb.Test1(**m["t1"]), t2=pb.Test2(**m["t2"]), t3=pb.Test3(**m["t3"])
                )
            return getattr(pb, test.capitalize())(**m)

        def t_out(msg: Any) -> dict[str, Any]:
            if test == "test4":
                return {
                    "t1": t_out_flat(msg.t1),
                    "t2": t_out_flat(msg.t2),
                    "t3": t_out_flat(msg.t3),
                }
            return t_out_flat(msg)

        def t_out_flat(msg: Any) -> dict[str, Any]:
            return {f.name: v for f, v in msg.ListFields()}

        return getattr(pb, test.capitalize()), t_in, t_out
    if dataset == "one-mb-dict":
        return pb.Dict, (lambda m: pb.Dict(entries=m)), (lambda msg: dict(msg.entries))
    if dataset == "click-maps":

        def cm_in(m: dict[str, Any]) -> Any:
            return pb.ClickMap(
                url=m["url"],
                day=m["day"],
                viewport=pb.Viewport(**m["viewport"]),
                clicks={k: pb.Click(**c) for k, c in m["clicks"].items()},
            )

        def cm_out(msg: Any) -> dict[str, Any]:
            return {
                "url": msg.url,
                "day": msg.day,
                "viewport": {"width": msg.viewport.width, "height": msg.viewport.height},
                "clicks": {
                    k: {
                        "x": c.x,
                        "y": c.y,
                        "count": c.count,
                        "lastClick": c.lastClick,
                        "selector": c.selector,
                    }
                    for k, c in msg.clicks.items()
                },
            }

        return pb.ClickMap, cm_in, cm_out
    if dataset == "log-records":

        def lr_in(m: list[dict[str, Any]]) -> Any:
            return pb.TestClassList(
                items=[
                    pb.TestClass(
                        MyProperty1=r["MyProperty1"],
                        MyProperty2=r["MyProperty2"],
                        MyProperty3=_ms(r["MyProperty3"]),
                        MyProperty4=r["MyProperty4"],
                        MyProperty5=[pb.Pair(**p) for p in r["MyProperty5"]],
                    )
                    for r in m
                ]
            )

        def lr_out(msg: Any) -> list[dict[str, Any]]:
            return [
                {
                    "MyProperty1": r.MyProperty1,
                    "MyProperty2": r.MyProperty2,
                    "MyProperty3": EPOCH + r.MyProperty3 * _MS,
                    "MyProperty4": r.MyProperty4,
                    "MyProperty5": [{"key": p.key, "value": p.value} for p in r.MyProperty5],
                }
                for r in msg.items
            ]

        return pb.TestClassList, lr_in, lr_out
    raise NotApplicable(f"no protobuf schema for dataset {dataset!r}")


class Protobuf(Serializer):
    name = "protobuf"
    format = "protobuf"
    distribution = "protobuf"
    labels = ("binary", "schema-required", "copying-decode", "generated")

    def codec(self, dataset: str) -> Codec:
        message_class, to_pb, from_pb = _converters(dataset, generated_module(dataset))
        return Codec(
            encode=message_class.SerializeToString,
            decode=message_class.FromString,
            prepare=to_pb,
            to_native=from_pb,
        )
