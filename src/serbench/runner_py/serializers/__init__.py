"""The Python runner's serializers: one module per library, one line each here."""

from serbench.runner_py.serializers.base import Serializer
from serbench.runner_py.serializers.bson_ import Bson
from serbench.runner_py.serializers.cbor2_ import Cbor2
from serbench.runner_py.serializers.fastavro_ import Fastavro
from serbench.runner_py.serializers.flexbuffers_ import Flexbuffers
from serbench.runner_py.serializers.handwritten import Handwritten
from serbench.runner_py.serializers.json_stdlib import StdlibJson
from serbench.runner_py.serializers.msgpack_ import Msgpack
from serbench.runner_py.serializers.msgpack_positional import MsgpackPositional
from serbench.runner_py.serializers.msgspec_ import MsgspecJson, MsgspecMsgpack
from serbench.runner_py.serializers.noop import Noop
from serbench.runner_py.serializers.orjson_ import Orjson
from serbench.runner_py.serializers.pickle_ import Pickle
from serbench.runner_py.serializers.protobuf_ import Protobuf
from serbench.runner_py.serializers.pycapnp_ import Pycapnp

REGISTRY: dict[str, Serializer] = {
    s.name: s
    for s in (
        Noop(),
        StdlibJson(),
        Orjson(),
        MsgspecJson(),
        Msgpack(),
        MsgpackPositional(),
        MsgspecMsgpack(),
        Cbor2(),
        Bson(),
        Protobuf(),
        Fastavro(),
        Pycapnp(),
        Flexbuffers(),
        Pickle(),
        Handwritten(),
    )
}
