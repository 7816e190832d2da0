"""Reports of a stored run: the model (model.py) and its renderings, one module each."""

from serbench.report.export import as_json
from serbench.report.markdown import markdown, overhead_markdown
from serbench.report.model import Row, RunReport, build, overhead
from serbench.report.terminal import print_noise, print_summary, print_tables
from serbench.report.text import fmt_bytes, fmt_est, fmt_kib, fmt_ns

__all__ = [
    "Row",
    "RunReport",
    "as_json",
    "build",
    "fmt_bytes",
    "fmt_est",
    "fmt_kib",
    "fmt_ns",
    "markdown",
    "overhead",
    "overhead_markdown",
    "print_noise",
    "print_summary",
    "print_tables",
]
