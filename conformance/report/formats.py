"""The report formats, each declared once: a name, and a function from the report to its text.

Every command that prints a report (``run``, ``render``, ``merge``, ``verify``) takes its
``--format`` choices from this registry and renders through it (:func:`conformance.report.output.print_report`).
A format is one module that registers itself::

    @report_format("toml", order=60)
    def render_toml(report: Report, out: Rendering) -> None:
        out.stream.write(...)

A module of this package (``conformance/report/*.py``) is found by itself: :func:`formats` imports
them all the first time it is asked. A room above ``report`` registers its format when it is
imported (the site's ``html``, :mod:`conformance.site.build`, imported by the command line), so
that ``report`` never imports the site.

The formats of ``diff`` (the changes between two reports, :mod:`conformance.report.diff`) are
declared here too, with :func:`diff_format`, and ``diff --format`` takes its choices from
:func:`diff_formats`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import IO, Any, Final, Protocol, TypeVar

from conformance.core.chain import UNCHAINED_NOTE
from conformance.core.corpus.model import Corpus
from conformance.core.discovery import import_modules_of
from conformance.core.stream import UNCHAINED_MARK, Report, ReportWriter, write_lines


@dataclasses.dataclass(frozen=True)
class Rendering:
    """Where a report goes and what a format may use besides it."""

    stream: IO[str]
    to_file: bool
    """Written to a file (no colours, a fixed width), not to a terminal."""
    corpus: Corpus | None = None
    articles: Mapping[str, str] | None = None
    """Each article's one-line summary, for the formats that name the rules."""
    epilogue: str = ""
    """A last line some formats print (the command to rerun, say)."""
    show: int | None = None
    """How many failures to show in full (None: the format's own default)."""


class Renderer(Protocol):
    def __call__(self, report: Report, out: Rendering) -> None: ...


@dataclasses.dataclass(frozen=True)
class Format:
    """A report format: its ``--format`` name, its renderer, where it stands in the list of
    choices, and whether it can render a ``verify`` report (a page per rule of the corpus cannot)."""

    name: str
    render: Renderer
    order: int
    verify: bool = True
    summarised: bool = False
    """Renders a report read summarised (:mod:`conformance.core.summary`): its memory does not grow
    with the report's passes."""


_FORMATS: dict[str, Format] = {}


def report_format(
    name: str, *, order: int, verify: bool = True, summarised: bool = False
) -> Callable[[Renderer], Renderer]:
    """Register the decorated function as the renderer of the format ``name`` (ValueError if
    another renderer has the name already); ``summarised``: it renders a report read summarised."""

    def register(render: Renderer) -> Renderer:
        _declare(_FORMATS, Format(name, render, order, verify, summarised), "report formats")
        return render

    return register


def _declare(table: dict[str, Any], entry: Format | DiffFormat, what: str) -> None:
    """Put ``entry`` in ``table`` under its name (ValueError if another renderer has it)."""
    known = table.get(entry.name)
    if known is not None and known.render is not entry.render:
        raise ValueError(f"two {what} named {entry.name!r}")
    table[entry.name] = entry


def formats(*, verify: bool = False) -> tuple[str, ...]:
    """The names of the registered formats, in the order of ``--format``'s choices (``verify``:
    only those that can render a verify report)."""
    import_modules_of("conformance.report")
    chosen = (each for each in _FORMATS.values() if each.verify or not verify)
    return tuple(each.name for each in sorted(chosen, key=lambda each: (each.order, each.name)))


def get_format(name: str) -> Format:
    """The format called ``name``; ValueError naming the known ones."""
    import_modules_of("conformance.report")
    if name not in _FORMATS:
        raise ValueError(f"unknown report format {name!r}; expected one of {', '.join(formats())}")
    return _FORMATS[name]


def unregister(name: str) -> None:
    """Forget the format ``name`` (a test's own format, once it is done)."""
    _FORMATS.pop(name, None)


@report_format("json", order=10)
def render_json(report: Report, out: Rendering) -> None:
    """The canonical JSON-lines stream itself, chained anew (:func:`write_canonical`)."""
    write_canonical(report, ReportWriter(out.stream))


def write_canonical(report: Report, writer: ReportWriter) -> None:
    """``report`` as a canonical report, chained anew: its footer recomputed from its results (never
    copied), its header marked when it was read without a chain (the new chain vouches for nothing
    before it)."""
    header = dict(report.header)
    if report.unchained:
        header[UNCHAINED_MARK] = UNCHAINED_NOTE
    writer.write(header)
    write_lines(report, writer)
    writer.write(report.recomputed_footer())


Subject = TypeVar("Subject")


@dataclasses.dataclass(frozen=True)
class DiffFormat:
    """A format of ``diff``: its ``--format`` name, and a function from the changes between two
    reports (a :class:`conformance.report.diff.ReportDiff`) to their text."""

    name: str
    render: Callable[[Any], str]
    order: int


_DIFF_FORMATS: dict[str, DiffFormat] = {}


def diff_format(name: str, *, order: int) -> Callable[[Callable[[Subject], str]], Callable[[Subject], str]]:
    """Register the decorated function as the ``diff`` format ``name`` (ValueError if taken)."""

    def register(render: Callable[[Subject], str]) -> Callable[[Subject], str]:
        _declare(_DIFF_FORMATS, DiffFormat(name, render, order), "diff formats")
        return render

    return register


def diff_formats() -> tuple[str, ...]:
    """The names of the ``diff`` formats, in the order of ``diff --format``'s choices."""
    import_modules_of("conformance.report")
    return tuple(
        each.name for each in sorted(_DIFF_FORMATS.values(), key=lambda each: (each.order, each.name))
    )


def get_diff_format(name: str) -> DiffFormat:
    """The ``diff`` format called ``name``; ValueError naming the known ones."""
    import_modules_of("conformance.report")
    if name not in _DIFF_FORMATS:
        raise ValueError(f"unknown diff format {name!r}; expected one of {', '.join(diff_formats())}")
    return _DIFF_FORMATS[name]


def unregister_diff(name: str) -> None:
    """Forget the ``diff`` format ``name`` (a test's own)."""
    _DIFF_FORMATS.pop(name, None)


DEFAULT: Final = "terminal"
"""The format every command prints unless told otherwise."""
