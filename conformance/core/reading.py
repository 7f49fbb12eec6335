"""Reading a saved report back, as evidence: every line checked before any view trusts it.

:func:`read_report` reads the canonical JSON-lines report line by line (never the whole file at
once) and refuses, with :class:`ReportError` naming the file, the line and what is wrong:

* a line whose counter or digest chain does not follow (:mod:`conformance.core.chain`): a line
  copied, moved, removed or edited;
* a second result for one question (a copy of a pass put in place of a failure, chain or not);
* ``tally`` lines (a campaign's counted passes, :mod:`conformance.core.tallies`) that cannot all be
  true: two for one span, one claiming more positions than its span holds, a question counted more
  often than its positions, one of another shard (:func:`conformance.core.tallies.problem`);
* a header that is not first or comes twice, a line after the footer, a record of an unknown
  type, a field of the wrong type (a shard header claiming more than :data:`MAX_SHARDS` shards is
  refused before anything is built from it).

What it accepts but every view says (:attr:`Report.notes`): a report without a chain (*unchained
(older format)*, or rewritten from one), a report cut short (no footer: interrupted, or a write
that failed -- its partial marker gives the reason -- or a last line cut in the middle, dropped),
and names (rules, cases, questions, the engine's) holding control characters, which are escaped
(``\\x1b``) as they are read, as is every text of the header and the footer: a hostile report
cannot drive a terminal through ``render``, ``merge``, ``diff`` or ``docs``. The footer read is
never trusted for counts or the verdict: :meth:`Report.certificate` and
:meth:`Report.recomputed_footer` derive them from the results.

The results are held compactly (the repeated names shared, :class:`~conformance.core.results.Result`
has slots), duplicates found from one 8-byte key per result line. The views whose memory must not
grow with the report (``render --format html``, ``docs``) read it summarised
(:mod:`conformance.core.summary`): a campaign's positions beyond the first are counted rather than
kept, with the same checks (the tally lines checked against the position and question of every
result line, 10 bytes each; a duplicate named by reading the file again).
"""

from __future__ import annotations

import itertools
import json
import stat
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from conformance.core.chain import ChainError, ChainReader
from conformance.core.errors import ReportError
from conformance.core.results import Result
from conformance.core.safe_text import printable
from conformance.core.scopes import Requirement, RequirementError
from conformance.core.stream import UNCHAINED_MARK, Report
from conformance.core.summary import Summariser
from conformance.core.tallies import TallyLine, position_index, report_problem

MAX_SHARDS: Final = 1_000_000
"""The most shards a report may say its run was split into."""
REWRITTEN_NOTE: Final = (
    "rewritten from an unchained report (older format): its chain proves nothing of the lines it came from"
)
ESCAPED_NOTE: Final = "control characters in the report's names and texts were escaped (\\x1b...)"
_INTEGERS: Final = ("questions", "corpus_questions", "corpus_cases", "selected_cases", "seed", "examples")


class _Strings:
    """One instance of each name read (a million results share a few hundred names), escaped."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}
        self.escaped = False

    def __call__(self, text: str) -> str:
        known = self._known.get(text)
        if known is None:
            known = printable(text)
            self.escaped = self.escaped or known != text
            if len(self._known) > 200_000:  # cases and positions recur close together: forget old ones
                self._known.clear()
            self._known[text] = known
        return known


def _escaped(value: Any, strings: _Strings) -> Any:
    """``value`` (JSON data) with every text escaped."""
    if isinstance(value, str):
        return strings(value)
    if isinstance(value, list):
        return [_escaped(item, strings) for item in value]
    if isinstance(value, dict):
        return {strings(str(key)): _escaped(item, strings) for key, item in value.items()}
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def header_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with a header's fields, for the views that read them (None: nothing)."""
    engine = header.get("engine", {})
    if not isinstance(engine, dict) or not all(isinstance(v, str | list) for v in engine.values()):
        return "header: 'engine' must be an object of text fields"
    for key in _INTEGERS:
        value = header.get(key)
        if value is not None and not _is_int(value):
            return f"header: {key!r} must be an integer"
    filters = header.get("filters", {})
    if not isinstance(filters, dict):
        return "header: 'filters' must be an object"
    require = filters.get("require", [])
    if not isinstance(require, list) or not all(isinstance(r, str) for r in require):
        return "header: 'filters.require' must be a list of text"
    for text in require:
        try:
            Requirement.parse(text)
        except RequirementError as error:
            return f"header: 'filters.require': {error}"
    baseline = filters.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        return "header: 'filters.baseline' must be text (the baseline's file) or null"
    shard = header.get("shard")
    if shard is not None:
        index = shard.get("index") if isinstance(shard, dict) else None
        count = shard.get("count") if isinstance(shard, dict) else None
        if not (isinstance(index, int) and isinstance(count, int) and _is_int(index) and _is_int(count)):
            return "header: 'shard' must be an object with integers 1 <= index <= count"
        if not 1 <= index <= count:
            return "header: 'shard' must be an object with integers 1 <= index <= count"
        if count > MAX_SHARDS:
            return (
                f"header: 'shard' says the run was split into {count} shards; at most {MAX_SHARDS} are read"
            )
    merged = header.get("merged_shards")
    if merged is not None and not (_is_int(merged) and 1 <= merged <= MAX_SHARDS):
        return f"header: 'merged_shards' must be an integer from 1 to {MAX_SHARDS}"
    return None


def footer_problem(footer: dict[str, Any]) -> str | None:
    unexpected = footer.get("unexpected_passes", [])
    if not isinstance(unexpected, list) or not all(isinstance(u, str) for u in unexpected):
        return "footer: 'unexpected_passes' must be a list of text"
    counts = footer.get("counts", {})
    if not isinstance(counts, dict):
        return "footer: 'counts' must be an object"
    return None


def _key(case: str, question: str) -> int:
    return hash((case, question))


def _repeated(keys: array[int]) -> set[int]:
    """The keys found more than once."""
    repeated = set()
    previous = None
    for key in sorted(keys):
        if key == previous:
            repeated.add(key)
        previous = key
    return repeated


def _first_pair(
    keys: array[int], repeated: set[int], pairs: Iterable[tuple[str, str]]
) -> tuple[int, int] | None:
    """The positions of the first two of ``pairs`` (every result's, in order) that are equal, looked
    for among those whose key is ``repeated``."""
    seen: dict[tuple[str, str], int] = {}
    for index, (key, pair) in enumerate(zip(keys, pairs, strict=True)):
        if key in repeated:
            if pair in seen:
                return seen[pair], index
            seen[pair] = index
    return None  # equal hashes of different questions


def first_duplicate(results: Sequence[Result]) -> tuple[int, int] | None:
    """The positions of the first two results for one (case, question), or None when each
    question has one result. Memory: one 8-byte key per result, sorted."""
    keys = array("q", (_key(r.case, r.question) for r in results))
    repeated = _repeated(keys)
    if not repeated:
        return None
    return _first_pair(keys, repeated, ((r.case, r.question) for r in results))


def _result_pairs(path: Path) -> Iterator[tuple[str, str]]:
    """(case, question) of each result line of ``path`` (read again: a summarised reading keeps
    only their keys), escaped as they were when first read."""
    strings = _Strings()
    for _, text, _ in _lines(path):
        if text is None:
            return
        if '"result"' not in text:
            continue
        record = json.loads(text)
        if record.get("type") == "result":
            yield strings(str(record.get("case"))), strings(str(record.get("question")))


def _lines(path: Path) -> Iterable[tuple[int, str | None, int]]:
    """(line number, text without its end of line, bytes) for each line; ``None`` for a last line
    cut before its end of line."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                yield number, None, len(raw)
                return
            try:
                text = raw[:-1].removesuffix(b"\r").decode("utf-8")
            except UnicodeDecodeError as error:
                raise ReportError(f"{path}:{number}: not UTF-8 ({error})") from None
            yield number, text, len(raw)


def read_report(path: Path | str, *, summarise: bool = False) -> Report:
    """Read a saved report, every line checked (see the module's docstring); a report without a
    footer (interrupted, or cut short) is read as partial, its footer recomputed from the results.
    With ``summarise``, a campaign's positions beyond the first are counted rather than kept
    (:mod:`conformance.core.summary`: for the views whose memory must not grow with the report;
    such a report cannot be written back)."""
    path = Path(path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ReportError(f"{path}: cannot read the report: not a regular file")
        return _read(path, summarise)
    except OSError as error:
        raise ReportError(f"{path}: cannot read the report: {error}") from None


def _read(path: Path, summarise: bool) -> Report:
    chain = ChainReader(str(path))
    strings = _Strings()
    header: dict[str, Any] | None = None
    footer: dict[str, Any] | None = None
    results: list[Result] = []
    summariser = Summariser(results) if summarise else None
    keys = array("q")  # one per result line: (case, question) hashed, for duplicates
    listed = _Listed()  # the positions and questions of the result lines, for the tally lines
    tallies: list[TallyLine] = []
    notes: list[str] = []
    for number, text, size in _lines(path):
        where = f"{path}:{number}"
        if text is None:
            notes.append(
                f"its last line ({size} bytes) is cut before its end: dropped; the report is partial"
            )
            break
        if not text.strip():
            continue
        if footer is not None:
            raise ReportError(f"{where}: a line after the report's last line (its footer or partial marker)")
        try:
            record = chain.record(number, text)
        except ChainError as error:
            raise ReportError(str(error)) from None
        except (ValueError, RecursionError) as error:
            raise ReportError(f"{where}: not a report line ({error})") from None
        kind = record.get("type")
        if header is None and kind != "header":
            raise ReportError(f"{where}: the first line is not a header: not a draughts-conformance report")
        if kind == "header":
            if header is not None:
                raise ReportError(f"{where}: a second header")
            header = _escaped(record, strings)
            problem = header_problem(header)
            if problem:
                raise ReportError(f"{path}: {problem}")
        elif kind == "result":
            try:
                result = Result.from_json(record, strings=strings)
            except (KeyError, TypeError, ValueError) as error:
                raise ReportError(f"{where}: not a report line ({error})") from None
            keys.append(_key(result.case, result.question))
            if summariser is None:
                results.append(result)
            else:
                listed.add(result)
                summariser.add(result)
        elif kind == "tally":
            try:
                tallies.append(TallyLine.from_json(_escaped(record, strings)))
            except (KeyError, TypeError, ValueError) as error:
                raise ReportError(f"{where}: not a tally line ({error})") from None
        elif kind == "footer":
            footer = _escaped(record, strings)
            problem = footer_problem(footer)
            if problem:
                raise ReportError(f"{path}: {problem}")
        elif kind == "partial":
            notes.append(
                f"the report was cut short: {printable(str(record.get('reason', 'no reason given')))}"
            )
            footer = {}
        else:
            raise ReportError(f"{where}: unknown record type {printable(repr(kind))}")
    if header is None:
        raise ReportError(f"{path}: no header line: not a draughts-conformance report")
    repeated = _repeated(keys)
    if repeated:
        pairs = ((r.case, r.question) for r in results) if summariser is None else _result_pairs(path)
        duplicate = _first_pair(keys, repeated, pairs)
        if duplicate is not None:
            case, question = next(itertools.islice(_result_pairs(path), duplicate[0], None))
            raise ReportError(
                f"{path}: two results for {case} [{question}] (results {duplicate[0] + 1} and "
                f"{duplicate[1] + 1}): a report has one result per question"
            )
    summary = summariser.close() if summariser is not None else None
    if summary is None:
        problem = report_problem(header, tallies, results)
    else:
        problem = report_problem(header, tallies, listed=listed.pairs())
    if problem is not None:
        raise ReportError(f"{path}: {problem}")
    if chain.note:
        notes.insert(0, chain.note)
    elif header.get(UNCHAINED_MARK):
        notes.insert(0, REWRITTEN_NOTE)
    if strings.escaped:
        notes.append(ESCAPED_NOTE)
    report = Report(header, results, footer or {}, str(path), tuple(notes), tallies, summary)
    if not footer:  # interrupted, cut short, or its partial marker: recomputed from what was written
        partial = Report(header, results, {"interrupted": True}, tallies=tallies, summary=summary)
        report.footer = partial.partial_footer()
    return report


class _Listed:
    """The position index and question of each result line of a campaign's position, compactly
    (10 bytes a line): what :func:`conformance.core.tallies.report_problem` checks the tally lines
    against when the results themselves are not all kept."""

    def __init__(self) -> None:
        self.indices = array("q")
        self.questions = array("H")
        self.names: dict[str, int] = {}

    def add(self, result: Result) -> None:
        index = position_index(result.case)
        if index is None or index < 0:
            return
        number = self.names.setdefault(result.question, len(self.names))
        if number >= 1 << 16:
            raise ReportError(f"more than {1 << 16} kinds of question: not a report of this suite")
        self.indices.append(index)
        self.questions.append(number)

    def pairs(self) -> Iterator[tuple[int, str]]:
        names = list(self.names)
        return ((index, names[number]) for index, number in zip(self.indices, self.questions, strict=True))
