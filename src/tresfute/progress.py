"""Progress of long commands (games played), drawn on stderr, and only when it is a terminal:
a log file, a pipe or a test then gets no bar-drawing characters, and stdout (``--json``, a
script's report) is never touched."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click

Progress = Callable[[int], None]  # told how many more steps are done


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Progress | None]:
    """A bar of ``total`` steps with the count and the time left; ``None`` when stderr is not
    a terminal (callers then report nothing)."""
    if not stderr_is_terminal():
        yield None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True) as bar:
        yield bar.update
