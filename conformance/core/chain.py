"""The report's lines as evidence: a counter and a digest chain on every line (report format 2).

Every line of a canonical report -- header, results, footer -- ends with two fields the writer adds
(:class:`ChainWriter`) and the reader checks (:class:`ChainReader`)::

    {"type": "result", "case": "4.13-...", ..., "n": 7, "chain": "3f9a...e1"}

* ``n`` counts the lines from 0 (the header);
* ``chain`` is the SHA-256 (hex) of the previous line's ``chain`` (the empty string before the
  header) followed by this line's text up to ``, "chain"`` with the closing ``}`` -- the exact
  bytes written, so that reading needs no canonical re-encoding.

A line copied, moved, removed or edited after it was written breaks the count or the chain at
that line (and every line after it): :class:`ChainError` names the line and what broke. A report
cut short at a line boundary lacks its footer and reads as partial; a last line cut in the middle
(the write stopped there) is dropped and said. The header of a chained report says
``"report_format": 2``: a header that says so over lines without a chain is refused (the chain
was taken off), and a report without any chain is read as *unchained (older format)*, a note
every view shows -- never as a chained one.

The chain proves the lines are the ones the writer wrote, in its order, as long as nobody
recomputed it: it is a checksum of the whole report, not a signature (anyone with this module can
write a chain over lines of their own). Reports published as evidence should be signed on top
(a detached signature of the file, e.g. sigstore or GPG). What the lines say is checked besides,
chain or not: one result per question, and every count and verdict recomputed from the results.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from typing import Any, Final

from conformance.core.errors import ReportError

REPORT_FORMAT: Final = 2
"""The format of reports written with a chain (reports without ``report_format`` are format 1)."""
UNCHAINED_NOTE: Final = (
    "unchained (older format): its lines carry no digest chain, so edits cannot be detected"
)
"""What every view says of a report read without a chain."""

_TAIL: Final = re.compile(r', "chain": "([0-9a-f]{64})"\}$')


class ChainError(ReportError):
    """A report line whose counter or chain does not follow from the lines before it."""


def _digest(previous: str, text: str) -> str:
    data = (previous + text).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def _encode(record: Mapping[str, Any]) -> str:
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate from an engine: JSON escapes keep it
        text = json.dumps(record, ensure_ascii=True)
    return text


class ChainWriter:
    """Turns records into the lines of a chained report, in order (one writer per report)."""

    def __init__(self) -> None:
        self.count = 0
        """Lines made so far (the next line's ``n``)."""
        self.digest = ""
        """The last line's ``chain``."""

    def line(self, record: Mapping[str, Any]) -> str:
        """The next line (without its newline) for ``record``: its fields, ``n``, then ``chain``.
        A header gets ``report_format`` first."""
        if record.get("type") == "header":
            record = {**record, "report_format": REPORT_FORMAT}
        text = _encode({**record, "n": self.count})
        digest = _digest(self.digest, text)
        self.count += 1
        self.digest = digest
        return f'{text[:-1]}, "chain": "{digest}"}}'


class ChainReader:
    """Checks the lines of a report in order and gives back their records without ``n`` and ``chain``.

    The first line decides: with a chain, every line must carry the next count and the chain;
    without one, no line may carry a chain (and the header may not claim format 2 or later)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.chained: bool | None = None
        """Whether the report carries a chain (None before its first line)."""
        self.count = 0
        self.digest = ""

    @property
    def note(self) -> str:
        """:data:`UNCHAINED_NOTE` for a report read without a chain, else ``""``."""
        return UNCHAINED_NOTE if self.chained is False else ""

    def record(self, number: int, text: str) -> dict[str, Any]:
        """The record of line ``number`` (counted from 1 in the file), checked; :class:`ChainError`
        naming the line when its counter or chain is not the next one, ValueError (or
        RecursionError) when it is not JSON."""
        where = f"{self.source}:{number}"
        tail = _TAIL.search(text)
        record = json.loads(text)
        if not isinstance(record, dict):
            raise ValueError("a report line must be a JSON object")
        if self.chained is None:
            self.chained = tail is not None
        if not self.chained:
            if tail is not None or "chain" in record:
                raise ChainError(
                    f"{where}: this line carries a digest chain, but the report's first line does not"
                )
            if record.get("type") == "header" and _claims_chain(record):
                raise ChainError(
                    f"{where}: the header says the report is chained (report_format "
                    f"{record['report_format']}) but its lines carry no chain: it was taken off"
                )
            return record
        if tail is None:
            raise ChainError(f"{where}: this line carries no digest chain (a line written by hand, or cut)")
        counted = record.pop("n", None)
        record.pop("chain", None)
        if counted != self.count:
            raise ChainError(
                f"{where}: the line's counter is {counted!r} where {self.count} follows: a line was "
                "copied, moved or removed"
            )
        digest = _digest(self.digest, text[: tail.start()] + "}")
        if digest != tail.group(1):
            raise ChainError(
                f"{where}: the digest chain breaks here: the line was changed after it was written"
            )
        self.count += 1
        self.digest = digest
        return record


def _claims_chain(header: Mapping[str, Any]) -> bool:
    claimed = header.get("report_format")
    return isinstance(claimed, int) and not isinstance(claimed, bool) and claimed >= REPORT_FORMAT
