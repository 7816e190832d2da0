"""serbench's Python runner: Python serializers behind the runner protocol
(docs/runner-protocol.md), knowing nothing of the orchestrator but the protocol."""

PROTOCOL_VERSION = 2
PROTOCOL_MINOR = 1  # 2.1: untrusted input (section 11)
