"""What a serializer provides: a codec bound to a dataset, or the reason it has none."""

from __future__ import annotations

import platform
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING, Any, ClassVar

from serbench_runner_python.errors import NotApplicable

__all__ = ["Codec", "Limits", "NotApplicable", "Serializer"]

if TYPE_CHECKING:
    from serbench_runner_python.dataset import Dataset


def _identity(value: Any) -> Any:
    return value


# The first value of a tree a format cannot carry: (path, reason), or None.
Limits = Callable[[Any], tuple[str, str] | None]


@dataclass
class Codec:
    """One serializer bound to one dataset.

    ``prepare`` turns a tree into what ``encode`` takes (outside timing); ``decode``
    returns what users of the library hold; ``to_native`` turns that back into the tree
    for the check (outside timing). ``decode_stream`` is set by self-delimiting formats,
    which concatenate stream messages with no length prefix. ``limits`` finds the first
    value of a user's tree the format cannot carry; ``fmt`` names the format in reasons.
    """

    encode: Callable[[Any], bytes]
    decode: Callable[[bytes | memoryview], Any]
    prepare: Callable[[Any], Any] = _identity
    to_native: Callable[[Any], Any] = _identity
    decode_stream: Callable[[bytes], Iterable[Any]] | None = field(default=None)
    limits: Limits | None = None
    fmt: str = ""


class Serializer:
    """Subclasses set the class attributes and implement ``codec``."""

    name: ClassVar[str]
    format: ClassVar[str]
    distribution: ClassVar[str | None] = None  # the PyPI package, for version and footprint
    labels: ClassVar[tuple[str, ...]] = ()
    no_user_data: ClassVar[str | None] = None  # why it takes no user dataset at all

    def codec(self, dataset: Dataset) -> Codec:
        raise NotImplementedError

    @property
    def library(self) -> str:
        return self.distribution or "python-stdlib"

    def version(self) -> str:
        if self.distribution is None:
            return platform.python_version()
        return metadata.version(self.distribution)

    def footprint_bytes(self) -> int | None:
        """Installed size of the library's files (0 for the standard library)."""
        if self.distribution is None:
            return 0
        total = 0
        for f in metadata.distribution(self.distribution).files or []:
            try:
                total += f.locate().stat().st_size
            except OSError:
                continue
        return total
