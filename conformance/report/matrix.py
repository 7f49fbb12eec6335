"""The conformance matrix: every engine's standing on every rule, computed from saved reports.

A pure function of the reports (:func:`build_matrix`): each report's certificate gives its
engine's column, and :func:`cell` -- the one place that decides what a cell says -- turns a
certificate row into a cell. The Markdown table (:func:`matrix_markdown`) goes into the README
between :data:`BEGIN` and :data:`END` (:func:`replace_block`); the site's index draws the same
cells (:func:`conformance.site.blocks.standing_cell`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Final

from conformance.core.certificate import Row, Standing
from conformance.core.errors import UsageError
from conformance.core.stream import Report, rule_order
from conformance.report.markdown import escape_cell
from conformance.report.text import engine_title

BEGIN: Final = "<!-- conformance-matrix:begin (written by draughts-conformance matrix; do not edit) -->"
END: Final = "<!-- conformance-matrix:end -->"


class MatrixError(UsageError, ValueError):
    """A text has no (or a broken) matrix block between :data:`BEGIN` and :data:`END`."""


@dataclasses.dataclass(frozen=True)
class Cell:
    """An engine's standing on one rule, as every view of the matrix shows it."""

    standing: Standing | None
    """None when the engine was asked no question of the rule."""
    passed: int = 0
    questions: int = 0
    notes: tuple[str, ...] = ()
    """What else counts: ``2 failed``, ``3 blocked``, ``5 not answered``..."""

    @property
    def word(self) -> str:
        return self.standing.value if self.standing is not None else "-"

    @property
    def coverage(self) -> str:
        """``9/13 pass``, or the empty string when no question of the rule was asked."""
        return f"{self.passed}/{self.questions} pass" if self.questions else ""

    @property
    def markdown(self) -> str:
        if self.standing is None:
            return "-"
        word = f"**{self.word}**" if self.standing is Standing.FAILED else self.word
        if not self.questions:  # a rule with no question of its own, charged from others'
            return f"{word} ({', '.join(self.notes)})"
        return f"{word} {self.passed}/{self.questions}"


def cell(row: Row | None) -> Cell:
    """What a matrix cell says of an engine's row of a certificate (None: no question of the rule)."""
    if row is None:
        return Cell(None)
    notes = tuple(
        f"{value} {name}"
        for name, value in (
            ("failed", row.failed),
            ("found in other rules' questions", row.charged),
            ("erred", row.errored),
            ("known", row.known),
            ("blocked", row.blocked),
            ("not answered", row.skipped + row.unsupported),
        )
        if value
    )
    if len({standing for _, standing in _scope_standings(row)}) > 1:
        notes += (row.scope_text(),)  # e.g. certified for moves; not covered for notation
    return Cell(row.standing, row.passed, row.questions, notes)


def _scope_standings(row: Row) -> list[tuple[str, Standing]]:
    return [(scope.value, tally.standing) for scope, tally in row.scopes]


@dataclasses.dataclass(frozen=True)
class Matrix:
    engines: tuple[str, ...]
    """Column titles: ``name version``."""
    verdicts: tuple[str, ...]
    """Each engine's one-line certificate summary, in column order."""
    rules: tuple[tuple[str, bool], ...]
    """Rows: (rule, whether it is one of the project's readings), in reading order."""
    cells: Mapping[tuple[str, str], Cell]
    """(rule, engine title) -> cell."""
    corpus_digest: str = ""

    def cell(self, rule: str, engine: str) -> Cell:
        return self.cells.get((rule, engine), Cell(None))


def build_matrix(reports: Sequence[Report]) -> Matrix:
    """The matrix of ``reports``, one column per report, one row per rule any of them has."""
    engines, verdicts = [], []
    cells: dict[tuple[str, str], Cell] = {}
    readings: set[str] = set()
    results = [result for report in reports for result in report.results]
    for report in reports:
        title = engine_title(report)
        certificate = report.certificate()
        engines.append(title)
        verdicts.append(certificate.summary())
        for row in certificate.rows:
            cells[(row.key, title)] = cell(row)
            if row.reading:
                readings.add(row.key)
    digests = {str(report.header.get("corpus_digest", "")) for report in reports}
    return Matrix(
        engines=tuple(engines),
        verdicts=tuple(verdicts),
        rules=tuple((rule, rule in readings) for rule in rule_order(results)),
        cells=cells,
        corpus_digest=digests.pop() if len(digests) == 1 else "",
    )


def matrix_markdown(matrix: Matrix) -> str:
    """The matrix as a Markdown table (rules down, engines across), with each engine's verdict."""
    lines = [
        "| rule | " + " | ".join(escape_cell(engine) for engine in matrix.engines) + " |",
        "|---|" + "---|" * len(matrix.engines),
    ]
    for rule, reading in matrix.rules:
        label = escape_cell(f"reading {rule}" if reading else rule)
        row = " | ".join(matrix.cell(rule, engine).markdown for engine in matrix.engines)
        lines.append(f"| {label} | {row} |")
    lines.append("")
    lines += [
        f"- **{escape_cell(e)}**: {escape_cell(v)}"
        for e, v in zip(matrix.engines, matrix.verdicts, strict=True)
    ]
    if matrix.corpus_digest:
        lines.append(f"- corpus `{matrix.corpus_digest[:12]}`")
    return "\n".join(lines) + "\n"


def _bounds(text: str) -> tuple[int, int]:
    begin, end = text.find(BEGIN), text.find(END)
    if begin < 0 or end < 0 or end < begin or text.count(BEGIN) != 1 or text.count(END) != 1:
        raise MatrixError(f"no matrix block: the text needs one line {BEGIN!r} and, below it, one {END!r}")
    return begin + len(BEGIN), end


def read_block(text: str) -> str:
    """What stands between the markers (without the line breaks next to them)."""
    begin, end = _bounds(text)
    return text[begin:end].strip("\n") + "\n"


def replace_block(text: str, block: str) -> str:
    """``text`` with ``block`` between the markers."""
    begin, end = _bounds(text)
    return f"{text[:begin]}\n{block.strip(chr(10))}\n{text[end:]}"
