"""The Python runner's serializers: one module per library, one line each here."""

from serbench_runner_python.serializers.base import Serializer
from serbench_runner_python.serializers.bson_ import Bson
from serbench_runner_python.serializers.cbor2_ import Cbor2
from serbench_runner_python.serializers.fastavro_ import Fastavro
from serbench_runner_python.serializers.flexbuffers_ import Flexbuffers
from serbench_runner_python.serializers.handwritten import Handwritten
from serbench_runner_python.serializers.json_stdlib import StdlibJson
from serbench_runner_python.serializers.msgpack_ import Msgpack
from serbench_runner_python.serializers.msgpack_positional import MsgpackPositional
from serbench_runner_python.serializers.msgspec_ import (
    MsgspecJson,
    MsgspecJsonDynamic,
    MsgspecMsgpack,
    MsgspecMsgpackDynamic,
)
from serbench_runner_python.serializers.noop import Noop
from serbench_runner_python.serializers.orjson_ import Orjson
from serbench_runner_python.serializers.pickle_ import Pickle
from serbench_runner_python.serializers.protobuf_ import Protobuf
from serbench_runner_python.serializers.protobuf_dynamic import ProtobufDynamic
from serbench_runner_python.serializers.pycapnp_ import Pycapnp

REGISTRY: dict[str, Serializer] = {
    s.name: s
    for s in (
        Noop(),
        StdlibJson(),
        Orjson(),
        MsgspecJson(),
        MsgspecJsonDynamic(),
        Msgpack(),
        MsgpackPositional(),
        MsgspecMsgpack(),
        MsgspecMsgpackDynamic(),
        Cbor2(),
        Bson(),
        Protobuf(),
        ProtobufDynamic(),
        Fastavro(),
        Pycapnp(),
        Flexbuffers(),
        Pickle(),
        Handwritten(),
    )
}
