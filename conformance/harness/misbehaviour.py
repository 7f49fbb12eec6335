"""What an engine did instead of answering, as a result says it: the one function from an exception
raised while asking to a result's status, message and error, for ``run`` (:func:`conformance.harness.
evaluate.ask`) and ``verify`` (:class:`conformance.verify.asking.Asker`) alike.

A decline is a ``skip``; a crash, a time-out, garbage (an answer of the wrong type) or an exception
raised by an in-process engine is an ``error`` of that question, with its :class:`ErrorKind`; the
user's Ctrl-C alone goes through. What a refusal means depends on the question (a refused valid
position, a legal move held illegal): each caller judges refusals before asking this module.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import threading
import traceback
from collections.abc import Iterator
from types import FrameType

from conformance.core import interrupts
from conformance.core.errors import ErrorKind, Signal
from conformance.core.protocol import EngineDeclined, EngineError
from conformance.core.results import ErrorInfo, Status
from conformance.harness.failures import Malformed


class EngineTimeout(Signal):
    """An in-process engine ran past its time (raised by the alarm of :func:`deadline`; a Signal,
    not an Exception, so that an engine's own ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`EngineTimeout` in the block after ``seconds`` (main thread, POSIX; else no limit)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not seconds or seconds <= 0 or not usable:
        yield
        return

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise EngineTimeout(f"no answer within {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclasses.dataclass(frozen=True)
class Misbehaviour:
    """A question's result when the engine did not answer it: ``skip`` or ``error``."""

    status: Status
    message: str
    error: ErrorInfo | None = None

    @property
    def defect(self) -> str | None:
        """The defect a report groups the result under (``error: timeout``), None for a skip."""
        return f"error: {self.error.kind}" if self.error is not None else None


def misbehaviour(error: BaseException, what: str = "") -> Misbehaviour:
    """The result of a question the engine answered with ``error`` instead (``what`` names the
    request in the message, as ``verify`` does: ``legal_moves: ...``). Re-raises a KeyboardInterrupt
    that is the user's Ctrl-C (:func:`conformance.core.interrupts.requested`)."""
    prefix = f"{what}: " if what else ""
    if isinstance(error, EngineDeclined):
        return Misbehaviour(Status.SKIP, f"{prefix}the engine declined: {error}")
    if isinstance(error, EngineError):
        return Misbehaviour(
            Status.ERROR, prefix + error.message, ErrorInfo(error.kind, error.message, error.stderr)
        )
    if isinstance(error, Malformed):  # garbage: an answer that is not of the question's type
        message = prefix + str(error)
        return Misbehaviour(Status.ERROR, message, ErrorInfo(ErrorKind.PROTOCOL, message))
    if isinstance(error, EngineTimeout):
        message = prefix + str(error)
        return Misbehaviour(Status.ERROR, message, ErrorInfo(ErrorKind.TIMEOUT, message))
    if isinstance(error, KeyboardInterrupt) and interrupts.requested():
        raise error  # the user's Ctrl-C: stop (the report says it is partial)
    # an in-process engine raised (or exited): its bug, reported with its traceback, never fatal
    if isinstance(error, SystemExit):
        message = f"{prefix}the engine called exit ({error.code!r}) while answering"
    else:
        message = f"{prefix}{type(error).__name__}: {error}"
    trace = "".join(traceback.format_exception(error))
    return Misbehaviour(Status.ERROR, message, ErrorInfo(ErrorKind.EXCEPTION, message, trace))
