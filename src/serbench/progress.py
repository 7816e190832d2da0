"""A run's progress bar and its estimate of the time left.

The estimate is the run's own pace: the time since it started over the cell operations it
has measured since. Sequential sampling ends every operation on a bounded number of
slices, so one operation costs about as much in one block as in another, and the pace
after a tenth of the run holds for the rest (benchmarks/eta_accuracy.py checks it on
stored runs). Tie-break processes, decided as the run goes, add to the total when they
are.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


@dataclass
class Eta:
    total: int  # operations to measure in this session
    finished: int = 0
    started: float = field(default_factory=time.monotonic)

    def advance(self, finished: int, more: int = 0) -> None:
        self.finished += finished
        self.total += more

    def remaining(self, now: float | None = None) -> float | None:
        """Seconds left at the pace so far; None before the first operation is done."""
        if self.finished <= 0:
            return None
        elapsed = (now if now is not None else time.monotonic()) - self.started
        return elapsed * max(self.total - self.finished, 0) / self.finished


class EtaColumn(ProgressColumn):
    def __init__(self, eta: Eta) -> None:
        super().__init__()
        self.eta = eta

    def render(self, task: Task) -> Text:
        left = self.eta.remaining()
        if left is None or task.finished:
            return Text("")
        minutes, seconds = divmod(int(left), 60)
        return Text(f"~{minutes}:{seconds:02d} left", style="progress.remaining")


def bar(run_id: int, eta: Eta, console: Console) -> Progress:
    return Progress(
        TextColumn(f"[bold]run {run_id}[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        EtaColumn(eta),
        TextColumn("{task.description}"),
        console=console,
        transient=False,
    )
