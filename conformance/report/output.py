"""Printing a report in any format, and the progress bar of long runs (``run`` and ``verify``)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from conformance.corpus.model import Corpus
from conformance.report.badge import render_badge
from conformance.report.chain import UNCHAINED_NOTE
from conformance.report.files import atomic_text
from conformance.report.junit import render_junit
from conformance.report.markdown import render_markdown
from conformance.report.stream import UNCHAINED_MARK, Report, ReportWriter
from conformance.report.terminal import DEFAULT_SHOWN, render_terminal

FORMATS = ("terminal", "json", "junit", "markdown", "badge", "html")


@contextlib.contextmanager
def open_output(path: Path | None) -> Iterator[IO[str]]:
    """A file to write to (written beside it and renamed once complete: a failure leaves it as it
    was), or standard output."""
    if path is None:
        yield sys.stdout
        return
    with atomic_text(path) as handle:
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
            write_canonical(report, ReportWriter(stream))
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


def write_canonical(report: Report, writer: ReportWriter) -> None:
    """``report`` as a canonical report, chained anew: its footer recomputed from its results (never
    copied), its header marked when it was read without a chain (the new chain vouches for nothing
    before it)."""
    header = dict(report.header)
    if report.unchained:
        header[UNCHAINED_MARK] = UNCHAINED_NOTE
    writer.write(header)
    for result in report.results:
        writer.result(result)
    writer.write(report.recomputed_footer())


@contextlib.contextmanager
def progress_bar(total: int, label: str, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A transient progress bar on standard error (None when disabled or not a terminal)."""
    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)
