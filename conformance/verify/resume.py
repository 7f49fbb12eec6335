"""``verify --resume REPORT``: an interrupted or crashed campaign goes on where its report stops.

A campaign's report is a stream: its header, then for each span of positions the result lines of
its failures, errors and skips and the span's ``tally`` line (:mod:`conformance.core.tallies`). Every
position up to the last tally line is in the report, complete; what follows it (the result lines
of a span whose tally line was never written, a line cut short by a crash, the partial marker of a
write that failed) is not. So a campaign resumes after its last tally line: :func:`read_resumable`
reads the report up to there, every line's chain checked (:mod:`conformance.core.chain`), checks
that it is this run's (the same header but for the time it started) and that its spans cover the
run's first positions one after the other. The run then writes the report anew, beside its name as
every report is (:class:`~conformance.core.files.LineFile`): the kept lines first, chained again
(:meth:`Resumable.copy_into`; a chained report's lines come out byte for byte), then the positions
after the last span (:func:`conformance.verify.run.verify` with ``resume``): none twice, none
skipped, and the finished report is the one a run that never stopped writes (but for timings). The
interrupted report stays as it was until the new one takes its name.

A campaign killed outright (SIGKILL, a crash) never renamed its report: the lines are in
``REPORT.PID.partial`` beside it, which ``--resume REPORT`` finds (:func:`resume_source`).
"""

from __future__ import annotations

import dataclasses
import glob
from pathlib import Path
from typing import Any, Final

from conformance.core.chain import UNCHAINED_NOTE, ChainError, ChainReader
from conformance.core.errors import ReportError
from conformance.core.results import Result
from conformance.core.stream import UNCHAINED_MARK, Report, ReportWriter, header_differences
from conformance.core.tallies import TallyLine
from conformance.verify.generate import VerifyOptions

VOLATILE: Final = frozenset({"started", "report_format"})
"""Header fields a resumed run may differ in."""


class ResumeError(ReportError, ValueError):
    """The report cannot be resumed by this run: another run's, finished, or damaged."""


def resume_source(path: Path) -> Path:
    """The file holding the lines of the interrupted run whose report is ``path``: ``path`` itself
    (an interrupted run renames what it wrote), or the ``path.PID.partial`` file a killed run left
    beside it (the newest, when several)."""
    if path.is_file():
        return path
    partials = [p for p in path.parent.glob(f"{glob.escape(path.name)}.*.partial") if p.is_file()]
    if not partials:
        raise ResumeError(f"{path}: no report to resume there (nor a {path.name}.PID.partial file beside it)")
    return max(partials, key=lambda p: p.stat().st_mtime)


@dataclasses.dataclass(frozen=True)
class Resumable:
    """The part of an interrupted report a run goes on from."""

    report: Report
    """Its header, results and tally lines up to the last tally line (no footer)."""
    source: Path
    """The file it was read from."""
    lines: int
    """The lines of the file that part is (header to last tally line, blank ones included)."""
    offset: int
    """Where that part ends in the file, in bytes: what follows is dropped."""
    dropped: int
    """Lines after it (results of an unfinished span, a line cut short, a partial marker)."""
    chained: bool
    """Whether the report carried a digest chain (an older, unchained one is chained anew, and its
    header says it was rewritten)."""

    @property
    def positions(self) -> int:
        """The positions the kept part covers (the first ones of the run's shard)."""
        return sum(line.positions for line in self.report.tallies)

    def copy_into(self, writer: ReportWriter) -> None:
        """Write the kept lines again, chained, through ``writer`` (a new report's first lines)."""
        chain = ChainReader(str(self.source))
        with self.source.open("rb") as handle:
            for number, raw in enumerate(handle, start=1):
                if number > self.lines:
                    break
                text = raw.decode("utf-8").rstrip("\r\n")
                if not text.strip():
                    continue
                record = chain.record(number, text)
                if record.get("type") == "header" and not self.chained:
                    record[UNCHAINED_MARK] = UNCHAINED_NOTE
                if writer.write(record) and record.get("type") == "result":
                    writer.results += 1


def read_resumable(path: Path, header: dict[str, Any], options: VerifyOptions) -> Resumable:
    """The part of the report at ``path`` that the run with ``header`` and ``options`` goes on from."""
    try:
        return _read(path, header, options)
    except OSError as error:
        raise ResumeError(f"{path}: cannot read the report to resume: {error}") from None


def _read(path: Path, header: dict[str, Any], options: VerifyOptions) -> Resumable:
    chain = ChainReader(str(path))
    old_header: dict[str, Any] | None = None
    results: list[Result] = []
    tallies: list[TallyLine] = []
    kept_results = offset = kept_offset = kept_lines = total_lines = counted_lines = kept_counted = 0
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):  # a line cut short by a crash
                counted_lines += 1
                break
            offset += len(raw)
            total_lines = number
            if not raw.strip():
                continue
            counted_lines += 1
            try:
                record = chain.record(number, raw.decode("utf-8").rstrip("\r\n"))
                kind = record.get("type")
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
                elif kind == "partial":  # a write failed there: nothing follows
                    break
                else:
                    raise ResumeError(f"{path}:{number}: unknown record type {kind!r}")
            except ChainError as error:
                raise ResumeError(f"{error}: the report cannot be resumed") from None
            except (UnicodeDecodeError, KeyError, TypeError, ValueError, RecursionError) as error:
                if isinstance(error, ResumeError):
                    raise
                raise ResumeError(f"{path}:{number}: not a report line ({error})") from None
            if kind in ("header", "tally"):
                kept_results, kept_offset, kept_lines, kept_counted = (
                    len(results),
                    offset,
                    total_lines,
                    counted_lines,
                )
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
    kept_header = {k: v for k, v in old_header.items() if k != "report_format"}
    report = Report(kept_header, results[:kept_results], {}, str(path), tallies=tallies)
    return Resumable(
        report, path, kept_lines, kept_offset, counted_lines - kept_counted, chained=chain.chained is True
    )


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
