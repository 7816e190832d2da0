"""The Python runner: times Python serializer libraries per docs/runner-protocol.md."""
