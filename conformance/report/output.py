"""Printing a report in any format, and the progress bar of long runs (``run`` and ``verify``)."""

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

from conformance.corpus.model import Corpus
from conformance.report.badge import render_badge
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.report.stream import Report, ReportWriter, write_stream
from conformance.report.terminal import DEFAULT_SHOWN, render_terminal

FORMATS = ("terminal", "json", "junit", "markdown", "badge", "html")


@contextlib.contextmanager
def open_output(path: Path | None) -> Iterator[IO[str]]:
    """A file to write to, or standard output."""
    if path is None:
        yield sys.stdout
        return
    with path.open("w", encoding="utf-8") as handle:
        yield handle


def terminal_console(stream: IO[str], to_file: bool) -> Console:
    """A console for the terminal format: the terminal's width, or 120 columns into a pipe or file."""
    interactive = not to_file and stream.isatty()
    return Console(file=stream, width=None if interactive else 120, no_color=to_file)


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
    """Write ``report`` in ``fmt`` to ``output`` (standard output when None); OSError if unwritable."""
    if articles is None and corpus is not None:
        articles = dict(corpus.articles)
    with open_output(output) as stream:
        if fmt == "terminal":
            console = terminal_console(stream, output is not None)
            render_terminal(
                report, console, articles=articles, max_failures=DEFAULT_SHOWN if show is None else show
            )
            if epilogue:
                console.print(epilogue, markup=False, highlight=False)
        elif fmt == "json":
            write_stream(report, ReportWriter(stream))
        elif fmt == "junit":
            stream.write(render_junit(report))
        elif fmt == "markdown":
            stream.write(
                render_markdown(report, articles=articles, max_failures=50 if show is None else show)
            )
        elif fmt == "badge":
            stream.write(render_badge(report))
        elif fmt == "html":
            from conformance.site.build import render_html  # the site is heavy: import it when asked

            stream.write(render_html(report, corpus))
        else:
            raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")


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
