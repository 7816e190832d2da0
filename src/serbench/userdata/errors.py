"""The one error a user's data can raise: file, line, column, field path and what is wrong."""

from __future__ import annotations

from collections.abc import Sequence

PathPart = str | int
MAX_DEPTH = 64  # nesting deeper than this is refused (schema libraries stop near 100)


def format_path(parts: Sequence[PathPart]) -> str:
    """``$``, ``$.user.name``, ``$.ids[3]``, ``$["a b"]``; ``*`` stands for any list index."""
    out = ["$"]
    for p in parts:
        if isinstance(p, int):
            out.append(f"[{p}]")
        elif p == "[*]":
            out.append("[*]")
        elif p.isidentifier() and p.isascii():
            out.append(f".{p}")
        else:
            escaped = p.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'["{escaped}"]')
    return "".join(out)


class UserDataError(ValueError):
    """Bad input: names the file, the line and column (1-based) and the field path."""

    def __init__(
        self,
        file: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        self.file, self.line, self.column, self.path = file, line, column, path
        self.message = message
        where = file
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        field = f" at {path}" if path else ""
        super().__init__(f"{where}:{field} {message}" if field else f"{where}: {message}")


class ValueProblem(ValueError):
    """A value that does not fit its type; ``parts`` is filled in as it propagates up."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.parts: list[PathPart] = []

    def at(self, part: PathPart) -> ValueProblem:
        self.parts.insert(0, part)
        return self
