"""The suite's errors: one hierarchy (after python-chess), each class under one base the command
line turns into its exit status (``conformance.cli.commands.exit_status_of``).

::

    ConformanceError
    ├── UsageError        what the user gave: arguments, settings, an engine spec, a path, a FEN  (exit 2)
    ├── CaseError         a case file, the corpus, the rulebook, a YAML file                      (exit 2)
    ├── ReportError       a report file that is not a draughts-conformance report                 (exit 2)
    ├── EngineFailure     an engine's lifecycle went wrong: install, start, speak, answer in time (exit 1)
    ├── EngineRefusal     the engine declined a request or refused a move or position: an answer
    ├── WrongAnswer       an answer judged wrong (a finding about the engine)
    └── IncompleteError   the suite could not finish a job of its own (a solver, a budget, a worker)
    Signal                not an error: control flow that an engine's ``except Exception`` must not stop

A module raises its own narrow class (``SpecError``, ``CorpusError``...), defined where it is raised,
under one of these bases; which kind of error a result records is an :class:`ErrorKind`.
"""

from __future__ import annotations

import enum


class ErrorKind(enum.StrEnum):
    """Why a question has no answer, as reports record it (``error.kind``): the engine's lifecycle
    from start to answer, and the harness's own failure. A ``str``: reports keep the bare word."""

    START = "start"
    """The engine did not start, or its start exchange failed."""
    CRASH = "crash"
    """The engine exited, or its connection ended."""
    TIMEOUT = "timeout"
    """No answer in time (a hang)."""
    PROTOCOL = "protocol"
    """An answer that is not the protocol's (garbage, a malformed message)."""
    EXCEPTION = "exception"
    """The engine said it failed (an exception in an in-process engine, an ``error`` message)."""
    HARNESS = "harness"
    """The harness could not ask the question (a worker died): not the engine's fault."""


class ConformanceError(Exception):
    """The base of every error the suite raises."""


class UsageError(ConformanceError):
    """Bad input from the user: command-line arguments, the settings file, an engine spec, a path, a
    FEN or a name given to a command. Reported in one line, exit status 2."""


class CaseError(ConformanceError):
    """A file of cases or rules is malformed: a case file, the corpus, the rulebook, a YAML file."""


class ReportError(ConformanceError, ValueError):
    """A report file is not a draughts-conformance JSON-lines report (or not one this command takes)."""


class EngineFailure(ConformanceError):
    """An engine's lifecycle went wrong: it did not install, start, speak the protocol, or answer in
    time. Raised while asking, it becomes an ``error`` result for that question and the run goes on."""


class EngineRefusal(ConformanceError):
    """Not an error of the engine: it declined a request (``skip``) or refused a move or position,
    which its judge weighs (a ``fail`` charged to that move's rule, when the move was legal)."""


class WrongAnswer(ConformanceError):
    """An engine's answer judged wrong, or partly right: a finding about the engine."""


class IncompleteError(ConformanceError):
    """The suite could not finish a job of its own (a solver that answered ``unknown``, a search over
    its budget, a worker that died): no finding about an engine either way."""


class Signal(BaseException):
    """Control flow that must pass through an engine's own ``except Exception``: an alarm, a plan."""


BASES: tuple[type[BaseException], ...] = (
    UsageError,
    CaseError,
    ReportError,
    EngineFailure,
    EngineRefusal,
    WrongAnswer,
    IncompleteError,
    Signal,
)
"""The bases every exception class of the suite derives from (one of them)."""
