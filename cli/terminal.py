"""Text that fits the terminal: the width to fit, and wrapping that never cuts.

Output to a terminal fits its width; piped output fits ``PIPED_WIDTH`` columns; ``COLUMNS`` set in
the environment wins over both. Long text is wrapped with a hanging indent under its column, never
truncated. Light on purpose (no numpy, no polars): the light commands import it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import textwrap
from collections.abc import Iterator

#: Width of output that does not go to a terminal, when ``COLUMNS`` is not set.
PIPED_WIDTH = 100
#: Narrowest width fitted: below it wrapped columns would hold a word or two.
MIN_WIDTH = 40


def terminal_width() -> int:
    """The width to fit: ``COLUMNS`` when set, else the terminal's, else ``PIPED_WIDTH`` (at
    least ``MIN_WIDTH``)."""
    text = os.environ.get("COLUMNS", "")
    if text.isdigit() and int(text) > 0:
        width = int(text)
    elif sys.stdout.isatty():
        width = shutil.get_terminal_size((PIPED_WIDTH, 24)).columns
    else:
        width = PIPED_WIDTH
    return max(MIN_WIDTH, width)


def wrap(text: str, width: int, indent: int | str = 0, hanging: int | str | None = None) -> str:
    """``text`` in lines of at most ``width`` characters: the first starts with ``indent``
    (spaces, or the text given), the others with ``hanging`` (default: ``indent`` + 4 spaces).
    Words break only where one is longer than a line; nothing is dropped."""
    first = " " * indent if isinstance(indent, int) else indent
    if hanging is None:
        hanging = len(first) + 4
    rest = " " * hanging if isinstance(hanging, int) else hanging
    return textwrap.fill(text, width=max(width, len(rest) + 10, len(first) + 10),
                         initial_indent=first, subsequent_indent=rest,
                         break_on_hyphens=False, replace_whitespace=True, drop_whitespace=True)


def wrap_lines(text: str, width: int) -> list[str]:
    """``text`` split into lines of at most ``width`` characters (at least 10)."""
    return textwrap.wrap(text, width=max(width, 10), break_on_hyphens=False) or [""]


def games_bar(quiet: bool, label: str = "games"):  # noqa: ANN201
    """(bar, update): a progress bar of games on stderr, titled ``label``, that appears on the
    first ``update(done, total)`` (a tournament's: after the options are checked), with the
    games a second and the elapsed and remaining time labelled; (None, None) with ``quiet``."""
    if quiet:
        return None, None
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class GamesPerSecond(TextColumn):
        def __init__(self) -> None:
            super().__init__("")

        def render(self, task):  # noqa: ANN001, ANN201
            from rich.text import Text

            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "… games/s")

    bar = Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
                   GamesPerSecond(), TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("left"),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=False)
    task_id = bar.add_task("games", total=None)
    started = []

    def update(done: int, total: int) -> None:
        if not started:
            bar.start()
            started.append(True)
        bar.update(task_id, completed=done, total=total)

    return bar, update


#: Games below which summing a run's rows shows no progress bar (a second or two)
SUMMING_BAR_GAMES = 200_000


@contextlib.contextmanager
def summing_bar() -> Iterator[None]:
    """Within it, a progress bar of games on stderr while a run's rows are summed into its totals
    (``analysis.dataset.summing``): a run written before its runner kept its sums, summed once;
    none for fewer than ``SUMMING_BAR_GAMES`` games."""
    from raspis.analysis.dataset import summing

    bar, update = games_bar(False, "summing the run's games once")
    shown = []

    def told(done: int, total: int) -> None:
        if update is not None and total >= SUMMING_BAR_GAMES:
            update(done, total)
            shown.append(True)

    try:
        with summing(told):
            yield
    finally:
        if bar is not None and shown:  # (a bar never shown would still print a blank line)
            bar.stop()
