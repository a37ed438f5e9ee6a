"""Progress of a long command on standard error, drawn by rich: a bar when the amount of
work is known, else a status line that is cleared at the end. Shown only when standard
error is a terminal, so that pipes and log files get none of it."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is loaded only when a display is shown
    from rich.progress import Progress, ProgressColumn, TaskID


class Bar:
    """What a command tells its progress display; does nothing when none is shown."""

    def __init__(self, label: str = "", shown: tuple[Progress, TaskID] | None = None, line: bool = False):
        """:param shown: the display and its task; None when no display is shown."""
        self._label, self._shown = label, shown
        self._line = line  # a status line, no bar

    def advance(self, steps: int = 1) -> None:
        """``steps`` more units of the work done."""
        if self._shown is not None:
            progress, task = self._shown
            progress.advance(task, steps)

    def status(self, text: str) -> None:
        """Words on what is being done now: after the label of a status line, after a bar."""
        if self._shown is None:
            return
        progress, task = self._shown
        if self._line:
            progress.update(task, description=f"{self._label}: {text}")
        else:
            progress.update(task, status=text)


class Rate:
    """Work a second between reports at least ``gap`` seconds apart, so that set-up before
    the first report does not weigh on it (a status line's "nodes/s")."""

    def __init__(self, gap: float = 0.2):
        self._gap = gap
        self._last: tuple[int, float] | None = None   # count and seconds at the last rate
        self.value: float | None = None                 # None until two reports

    def update(self, count: int, seconds: float) -> float | None:
        """The rate after a report of ``count`` units done in ``seconds`` (both so far);
        a count below the last one starts anew (a new search counting from 0)."""
        if self._last is None or count < self._last[0]:
            self._last, self.value = (count, seconds), None
        elif seconds - self._last[1] >= self._gap:
            self.value = (count - self._last[0]) / (seconds - self._last[1])
            self._last = (count, seconds)
        return self.value


def on_terminal() -> bool:
    """True when standard error is a terminal (a progress display is shown there)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def progress_bar(label: str, total: int | None = None, eta: bool = True) -> Iterator[Bar]:
    """A progress display on standard error for the ``with`` block, if it is a terminal.

    :param label: what is counted or done (``"levels"``, ``"searching"``).
    :param total: units of work in all; None for a status line, which is cleared when the
        block ends (a bar stays, to show how far the work went).
    :param eta: show the time left at the rate so far (False where units of work differ
        in size, as the levels of a board do).
    """
    if not on_terminal():
        yield Bar()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: list[ProgressColumn] = [TextColumn("{task.description}", markup=False)]
    if total is not None:
        columns += [BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), *([TimeRemainingColumn()] if eta else []),
                    TextColumn("{task.fields[status]}", markup=False)]
    # Standard output is never drawn through the display: it may be a pipe while standard error is not.
    with Progress(*columns, console=Console(file=sys.stderr), transient=total is None,
                  redirect_stdout=False) as progress:
        task = progress.add_task(label, total=total, status="")
        yield Bar(label, (progress, task), line=total is None)
