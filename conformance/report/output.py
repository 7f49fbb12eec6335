"""Printing a report in any registered format, and the progress bar of long runs (``run`` and ``verify``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from conformance.core.corpus.model import Corpus
from conformance.core.files import atomic_text
from conformance.core.stream import Report
from conformance.report.formats import Rendering, get_format


@contextlib.contextmanager
def open_output(path: Path | None) -> Iterator[IO[str]]:
    """A file to write to (written beside it and renamed once complete: a failure leaves it as it
    was), or standard output."""
    if path is None:
        yield sys.stdout
        return
    with atomic_text(path) as handle:
        yield handle


def print_report(
    report: Report,
    fmt: str,
    output: Path | None,
    *,
    corpus: Corpus | None = None,
    articles: Mapping[str, str] | None = None,
    epilogue: str = "",
    show: int | None = None,
) -> None:
    """Write ``report`` in the format ``fmt`` (:mod:`conformance.report.formats`) to ``output``
    (standard output when None); ValueError for an unknown format, OSError if unwritable."""
    if articles is None and corpus is not None:
        articles = dict(corpus.articles)
    chosen = get_format(fmt)
    with open_output(output) as stream:
        chosen.render(report, Rendering(stream, output is not None, corpus, articles, epilogue, show))


@contextlib.contextmanager
def progress_bar(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A transient progress bar on standard error (None when disabled or not a terminal)."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)
