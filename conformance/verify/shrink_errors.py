"""Shrinking an engine's *errors* under ``verify`` (issue 13), as disagreements are shrunk.

A check whose request the engine fails -- it crashed, hung, printed garbage, raised, or refused a
valid position or a legal move -- gives an ``error`` (or, for a refusal, a ``fail``) with no
finding of the rules to shrink. Its position is shrunk all the same (:func:`shrink_error`): pieces
taken off and kings turned into men (:func:`~conformance.verify.shrink.shrink_position`) while the
same check, asked of the candidate, fails *the same way* -- the same :class:`Fault`: the same
status, the same kind of error (``crash``, ``timeout``, ``protocol``, ``exception``...) and the
same message with its numbers (sequence numbers, exit statuses) and any quoted engine output left
out. What is not the engine's doing on that position is not shrunk: a decline, an engine whose
restart budget ran out earlier, a (re)start that failed.

Bounded: at most :data:`ERROR_SHRINK_TRIES` candidates, each asked once; the engine that shrinks
is a second one started for it (the run's engine keeps its own restart budget), given a restart
budget of as many restarts for each error it shrinks. A hang costs the engine's time-out per
candidate that hangs, so at most :data:`HANG_SECONDS` of time-outs are spent on one error: a
time-out is shrunk by ``HANG_SECONDS // timeout`` hanging candidates at most, and not at all
(with a note) when one time-out is longer than that.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, Final, Protocol

from conformance.core.errors import ErrorKind
from conformance.core.protocol import Engine
from conformance.core.results import Result, Status
from conformance.engines.adapters.restarts import RestartBudget
from conformance.verify.asking import Asker, EngineFailed
from conformance.verify.findings import move_text
from conformance.verify.generate import VerifyOptions
from conformance.verify.judgement import AFTER_CHECKS
from conformance.verify.judges import Checks
from conformance.verify.registry import check_named
from conformance.verify.shrink import Shrunk, shrink_position
from oracle.position import Color, Position

ERROR_SHRINK_TRIES: Final = 150
"""The most candidate positions asked about while shrinking one error."""
HANG_SECONDS: Final = 30.0
"""The most seconds of time-outs spent shrinking one error."""
REFUSED: Final = "refused"
"""The :attr:`Fault.kind` of a valid position or a legal move refused (a ``fail`` with no finding)."""

_NOT_THE_POSITION: Final = ("restart budget exhausted", "the engine was closed")
"""How errors that do not come from the position asked about begin (after the request's name)."""

_WHAT: Final = {
    ErrorKind.CRASH: "crashed (exited, or its connection ended)",
    ErrorKind.TIMEOUT: "did not answer in time (a hang)",
    ErrorKind.PROTOCOL: "answered outside the protocol (garbage, a malformed answer)",
    ErrorKind.EXCEPTION: "raised an exception",
    "error": "answered with an error",
    REFUSED: "refused what it was asked, though it is valid",
}


@dataclasses.dataclass(frozen=True)
class Fault:
    """How the engine failed a request: what a shrunk candidate must reproduce."""

    status: Status
    kind: str
    """The error's kind (``crash``, ``timeout``, ``protocol``, ``exception``...; ``refused``)."""
    stem: str
    """The message without its numbers (``N``) and without quoted engine output."""

    @classmethod
    def of(cls, failed: EngineFailed) -> Fault | None:
        """The fault of a failed request, or None when it is not the engine's doing on this
        position (a decline, an engine out of restarts, a start that failed)."""
        if failed.status is Status.SKIP:
            return None
        kind = failed.error.kind if failed.error is not None else REFUSED
        if kind == ErrorKind.START:
            return None
        _, _, detail = failed.message.partition(": ")
        if detail.startswith(_NOT_THE_POSITION):
            return None
        return cls(failed.status, kind, stem(failed.message))

    def describe(self) -> str:
        """What the engine did, in plain words."""
        return _WHAT.get(self.kind, f"failed ({self.kind})")


def stem(message: str, limit: int = 100) -> str:
    """``message`` up to its first quoted text or bracketed data, numbers as ``N``, at most ``limit``
    characters: what stays the same when the same request fails the same way on another position."""
    cut = re.split(r"(?:^|\s)['\"]|[{\[]", message, maxsplit=1)[0]  # not at an apostrophe ("engine's")
    return re.sub(r"\d+", "N", cut).rstrip()[:limit]


@dataclasses.dataclass(frozen=True)
class ShrunkError:
    """An engine error, its position shrunk while the same fault stays; for people, :meth:`text`."""

    case: str
    check: str
    fault: Fault
    original: Position
    shrunk: Shrunk
    message: str
    """What the engine did on the shrunk position (the harness's error message)."""
    output: str
    """The engine's output around the error (its stderr), if any."""
    subject: Any = None
    note: str = ""
    """Why the position was not shrunk, or not to the end."""

    @property
    def position(self) -> Position:
        return self.shrunk.position

    def text(self) -> str:
        """FEN, board, the request, what the engine did: plain text for a terminal or a file."""
        position = self.position
        pieces = sum(position.count(color) for color in Color)
        before = sum(self.original.count(color) for color in Color)
        if self.note and self.position == self.original:
            how = f"{self.note}:"
        else:
            tail = "" if self.shrunk.minimal else " (not minimal: the shrinker ran out of tries)"
            how = (
                f"shrunk in {self.shrunk.tries} tries to {pieces} pieces"
                f"{f' ({self.note})' if self.note else tail}, each kept position failing the same way:"
            )
        lines = [
            f"== engine error: {self.case} {self.check}: {self.fault.kind} -- the engine {self.fault.describe()}",
            f"generated position {self.original.fen()} ({before} pieces), {how}",
            f"FEN {position.fen()}",
            position.diagram(),
        ]
        if self.subject is not None:
            what = move_text(self.subject) if self.check in AFTER_CHECKS else " ".join(self.subject) or "-"
            lines.append(f"played: {what}")
        lines.append(f"the engine: {self.message}")
        if self.output.strip():
            shown = self.output.strip().splitlines()[-8:]
            lines.append("its output (last lines):")
            lines += [f"  {line}" for line in shown]
        lines.append(
            f"kept while shrinking: {self.fault.status.value}, {self.fault.kind}, {self.fault.stem!r}"
        )
        return "\n".join(lines)


def shrink_error(
    checks: Checks,
    engine: Engine | None,
    function: Callable[[Position, Any], object],
    position: Position,
    subject: Any,
    fault: Fault,
    timeout: float | None,
) -> tuple[Shrunk, EngineFailed | None, str]:
    """Shrink ``position`` while ``function(candidate, subject)`` (a check, asking the engine of
    ``checks``) fails with ``fault``: the shrunk position, the failure on it (None: not shrunk),
    and a note when the shrinking was skipped or stopped early."""
    hangs = 0
    allowed = int(HANG_SECONDS // timeout) if timeout else 0
    if fault.kind == ErrorKind.TIMEOUT and allowed == 0:
        note = (
            f"not shrunk: each try would wait the {timeout or 0:g} s time-out "
            f"(shrinking a hang spends at most {HANG_SECONDS:g} s)"
        )
        return Shrunk(position, 0, False), None, note
    share = getattr(engine, "share_budget", None)
    if callable(share):  # a fresh budget for each error: its restarts never touch the run's
        share(RestartBudget(ERROR_SHRINK_TRIES))
    last: EngineFailed | None = None

    def fails(candidate: Position) -> bool:
        nonlocal hangs, last
        checks.forget()
        try:
            function(candidate, subject)
        except EngineFailed as failed:
            if failed.error is not None and failed.error.kind == ErrorKind.TIMEOUT:
                hangs += 1
            if Fault.of(failed) == fault:
                last = failed
                return True
        return False

    shrunk = shrink_position(position, fails, max_tries=ERROR_SHRINK_TRIES, stop=lambda: hangs >= allowed)
    checks.forget()
    note = ""
    if hangs >= allowed and not shrunk.minimal:
        note = (
            f"not minimal: stopped after {hangs} time-outs of {timeout or 0:g} s, as shrinking a hang "
            f"spends at most {HANG_SECONDS:g} s"
        )
    if last is None:  # no smaller position fails the same way: the generated one is the example
        note = (
            note
            or f"not shrunk: none of the {shrunk.tries} candidates tried (a piece fewer, a king made a man) fails the same way"
        )
        return Shrunk(position, shrunk.tries, shrunk.minimal), None, note
    return shrunk, last, note


class Erred(Protocol):
    """What :meth:`ErrorShrinker.shrink` reads of an erring check's row (``conformance.verify.driver.Row``)."""

    @property
    def result(self) -> Result: ...

    @property
    def subject(self) -> Any: ...


class ErrorShrinker:
    """Shrinks a run's errors with a second engine from ``factory``, started when first needed
    (so the run's engine keeps its restart budget), closed by :meth:`close`."""

    def __init__(self, factory: Callable[[], Engine], options: VerifyOptions) -> None:
        self.factory = factory
        self.options = options
        self._checks: Checks | None = None

    def shrink(self, case: str, position: Position, check: str, fault: Fault, row: Erred) -> ShrunkError:
        """The erring ``row``'s ``position`` shrunk; not shrunk, with a note, if no engine starts."""
        result = row.result
        failed: EngineFailed | None = None
        note = ""
        if self._checks is None:
            try:
                self._checks = Checks(Asker(self.factory(), self.options.engine_timeout), self.options)
            except Exception as error:  # any engine's failure to start is reported, never fatal
                note = f"not shrunk: the engine started to shrink it did not start ({type(error).__name__}: {error})"
        if self._checks is None:
            shrunk = Shrunk(position, 0, False)
        else:
            checks = self._checks
            shrunk, failed, note = shrink_error(
                checks,
                checks.asker.engine,
                check_named(check).judge(checks),
                position,
                row.subject,
                fault,
                self.options.engine_timeout,
            )
        info = failed.error if failed is not None else result.error
        message = failed.message if failed is not None else result.message
        output = info.stderr if info is not None else ""
        return ShrunkError(case, check, fault, position, shrunk, message, output, row.subject, note)

    def close(self) -> None:
        checks, self._checks = self._checks, None
        if checks is not None:
            checks.asker.engine.close()
