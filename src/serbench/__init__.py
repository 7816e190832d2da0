"""serbench: a multi-language serializer benchmark that checks correctness first."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 2
