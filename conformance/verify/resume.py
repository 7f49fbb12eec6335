"""``verify --resume REPORT``: an interrupted or crashed campaign goes on where its report stops.

A campaign's report is a stream: its header, then for each span of positions the result lines of
its failures, errors and skips and the span's ``tally`` line (:mod:`conformance.tallies`). Every
position up to the last tally line is in the report, complete; what follows it (the result lines
of a span whose tally line was never written, a line cut short by a crash) is not. So a campaign
resumes after its last tally line: :func:`read_resumable` reads the report up to there, checks that
it is this run's (the same header but for the time it started) and that its spans cover the run's
first positions one after the other, and :func:`cut` drops the rest of the file. The run then
checks the positions after the last span (:func:`conformance.verify.run.verify` with ``resume``):
none twice, none skipped, and the finished report is the one a run that never stopped writes
(but for timings).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, Final

from conformance.report import Report
from conformance.report.stream import ReportError, header_differences
from conformance.results import Result
from conformance.tallies import TallyLine
from conformance.verify.generate import VerifyOptions

VOLATILE: Final = frozenset({"started"})
"""Header fields a resumed run may differ in."""


class ResumeError(ValueError):
    """The report cannot be resumed by this run: another run's, finished, or damaged."""


@dataclasses.dataclass(frozen=True)
class Resumable:
    """The part of an interrupted report a run goes on from."""

    report: Report
    """Its header, results and tally lines up to the last tally line (no footer)."""
    offset: int
    """Where that part ends in the file, in bytes: what follows is dropped."""
    dropped: int
    """Lines after it (results of an unfinished span, a line cut short)."""

    @property
    def positions(self) -> int:
        """The positions the kept part covers (the first ones of the run's shard)."""
        return sum(line.positions for line in self.report.tallies)


def read_resumable(path: Path, header: dict[str, Any], options: VerifyOptions) -> Resumable:
    """The part of the report at ``path`` that the run with ``header`` and ``options`` goes on from."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ResumeError(f"{path}: cannot read the report to resume: {error}") from None
    lines = data.split(b"\n")
    ends_whole = data.endswith(b"\n")
    old_header: dict[str, Any] | None = None
    results: list[Result] = []
    tallies: list[TallyLine] = []
    kept_results = 0
    offset = kept_offset = 0
    kept_lines = total_lines = 0
    for number, raw in enumerate(lines, start=1):
        if number == len(lines):  # after the last newline: empty, or a line cut short by a crash
            if raw.strip():
                total_lines += 1
            break
        offset += len(raw) + 1
        if not raw.strip():
            continue
        total_lines += 1
        try:
            record = json.loads(raw.decode("utf-8"))
            kind = record["type"]
            if kind == "header":
                if old_header is not None:
                    raise ResumeError(f"{path}:{number}: a second header line")
                old_header = record
            elif old_header is None:
                raise ResumeError(f"{path}:{number}: a {kind} line before the header")
            elif kind == "result":
                results.append(Result.from_json(record))
            elif kind == "tally":
                tallies.append(TallyLine.from_json(record))
            elif kind == "footer":
                raise ResumeError(
                    f"{path}: the run finished (line {number} is its footer): there is nothing to resume"
                )
            else:
                raise ResumeError(f"{path}:{number}: unknown record type {kind!r}")
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError, ValueError) as error:
            if isinstance(error, ResumeError):
                raise
            if number == len(lines) - 1 and not ends_whole:
                break
            raise ResumeError(f"{path}:{number}: not a report line ({error})") from None
        if kind in ("header", "tally"):
            kept_results, kept_offset, kept_lines = len(results), offset, total_lines
    if old_header is None:
        raise ResumeError(f"{path}: no header line: not a draughts-conformance report")
    differ = header_differences(
        {k: v for k, v in old_header.items() if k not in VOLATILE},
        {k: v for k, v in header.items() if k not in VOLATILE},
        lambda mine, theirs: f"{mine!r} in the report, {theirs!r} now",
    )
    if differ:
        raise ResumeError(f"{path} is the report of another run: {'; '.join(differ[:3])}")
    _check_spans(path, tallies, options)
    report = Report(old_header, results[:kept_results], {}, str(path), tallies)
    return Resumable(report, kept_offset, total_lines - kept_lines)


def _check_spans(path: Path, tallies: list[TallyLine], options: VerifyOptions) -> None:
    """The tally lines cover the shard's first positions, span after span, none left out."""
    indices = options.indices()
    done = 0
    for line in tallies:
        if line.positions < 1 or done + line.positions > len(indices):
            raise ResumeError(
                f"{path}: a tally line covers positions the run does not have ({line.first}-{line.last})"
            )
        first, last = indices[done], indices[done + line.positions - 1]
        if (line.first, line.last) != (first, last) or line.span != first // options.span:
            raise ResumeError(
                f"{path}: the tally lines do not cover the run's positions in order: span {line.span} covers "
                f"{line.first}-{line.last}, where {first}-{last} comes next"
            )
        done += line.positions


def cut(path: Path, resumable: Resumable) -> None:
    """Drop what follows the kept part of the report at ``path`` (the run appends from there)."""
    try:
        with path.open("r+b") as stream:
            stream.truncate(resumable.offset)
    except OSError as error:
        raise ReportError(f"{path}: cannot cut the report to resume it: {error}") from None
