"""What a Python serializer provides: a codec per dataset, or a reason it has none."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, ClassVar


def _identity(value: Any) -> Any:
    return value


# The first value of a tree a format cannot carry: (path, reason), or None.
Limits = Callable[[Any], tuple[str, str] | None]


class NotApplicable(Exception):
    """The serializer cannot represent the dataset; the message says why."""


@dataclass
class Codec:
    """One serializer bound to one dataset.

    ``prepare`` turns a native message into what ``encode`` takes (outside timing);
    ``decode`` returns what users of the library hold; ``to_native`` turns that back
    into the native model for the check (outside timing). ``decode_stream`` is set by
    self-delimiting formats, which concatenate stream messages with no length prefix.
    """

    encode: Callable[[Any], bytes]
    decode: Callable[[bytes | memoryview], Any]
    prepare: Callable[[Any], Any] = _identity
    to_native: Callable[[Any], Any] = _identity
    decode_stream: Callable[[bytes], Iterable[Any]] | None = field(default=None)


class Serializer:
    """Subclasses set the class attributes and implement ``codec``."""

    name: ClassVar[str]
    format: ClassVar[str]
    distribution: ClassVar[str | None] = None  # the PyPI package, for version and footprint
    labels: ClassVar[tuple[str, ...]] = ()

    def codec(self, dataset: str) -> Codec:
        raise NotImplementedError

    def user_codec(self, types: Any, schemas: dict[str, Any]) -> tuple[Codec, Limits, str] | None:
        """A serializer with its own user-dataset codec returns (codec, limits, format name);
        None: user_codecs.py's shared handling applies."""
        return None

    @property
    def library(self) -> str:
        return self.distribution or "python-stdlib"

    def version(self) -> str:
        if self.distribution is None:
            import platform

            return platform.python_version()
        return metadata.version(self.distribution)

    def footprint_bytes(self) -> int | None:
        """Installed size of the library's files (0 for the standard library)."""
        if self.distribution is None:
            return 0
        files = metadata.distribution(self.distribution).files or []
        total = 0
        for f in files:
            try:
                total += f.locate().stat().st_size
            except OSError:
                continue
        return total
