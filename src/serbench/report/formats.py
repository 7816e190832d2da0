"""`serbench report --format`: the renderer of each format written as text (the terminal's
tables are written to a file as Markdown tables)."""

from __future__ import annotations

from collections.abc import Callable

from serbench.report import html
from serbench.report.export import EXPORTS
from serbench.report.markdown import markdown
from serbench.report.model import RunReport

WRITTEN: dict[str, Callable[[RunReport], str]] = {
    "table": markdown,
    "md": markdown,
    "html": html.render,
    **EXPORTS,
}
FORMATS = tuple(WRITTEN)
