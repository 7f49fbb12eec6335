"""The host of a ``python:MODULE:ATTR`` engine: the engine, in a process of its own, over JSON lines.

    python -m conformance.servers.python_host MODULE:ATTR

A Python engine is certified in a child process of the harness, never in the harness's own: an
engine that ends its process (``os._exit``, a signal, a crash in C code) then ends only this
host, which the harness sees as the engine exiting -- an ``error`` result for the question it was
answering, the engine started again within the restart budget, the run going on -- instead of
ending ``run``, ``verify`` or a pytest session with exit status 0 and nothing said. The engine also
gets the per-request timeout of every engine started from a command.

The host imports ``MODULE`` as ``python -m`` would (from the current folder first: the harness
starts it with ``-m`` in its own folder, and gives it the harness's ``sys.path``), makes the
engine from ``ATTR`` (a class or factory is called, an object with ``info`` is used as it is),
reads its answers in every shape docs/engines-python.md allows
(:class:`~conformance.engines.adapters.inprocess.InProcessEngine`) and serves them with
:func:`conformance.servers.oracle_jsonl.serve`. An exception of the engine is answered ``error``
with its type and message, its traceback written to stderr (which the harness keeps with the
error); an exit the engine calls (``SystemExit``), a ``KeyboardInterrupt`` or a
``GeneratorExit`` it raises are answered ``error`` too, as in-process. What the engine prints goes
to stderr, whatever it writes to: the protocol uses descriptors of its own, and the engine's
stdin is empty.

When the engine cannot be made (the module does not import, has no ``ATTR``, ``ATTR()`` raises,
the object is not an engine) the host says why in one line on stderr and exits with status
:data:`NOT_AN_ENGINE` before answering ``start``: the harness reports it as the engine not starting.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

from conformance.engines.adapters.python_child import NOT_AN_ENGINE, PREFIX


class _Guarded:
    """The engine, each call of it guarded: what ends a call other than an answer becomes an
    answer of ``error`` (an exit or an interrupt too), the traceback written to stderr."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.info = engine.info

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._engine, name)
        if not callable(method):
            return method
        return _guard(method)


def _guard(method: Callable[..., Any]) -> Callable[..., Any]:
    from conformance.core.protocol import (
        EngineDeclined,
        EngineError,
        MoveRefused,
        PerftReached,
        PositionRefused,
    )

    answers = (EngineDeclined, MoveRefused, PerftReached, PositionRefused)

    def call(*args: Any) -> Any:
        try:
            return method(*args)
        except answers:
            raise
        except EngineError as error:  # an answer the adapter could not read: said as is
            print(f"{PREFIX}{error.message}", file=sys.stderr, flush=True)
            raise
        except Exception:
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            raise
        except BaseException as error:  # an exit or an interrupt: an error of this question only
            traceback.print_exc(file=sys.stderr)
            sys.stderr.flush()
            if isinstance(error, SystemExit):
                message = f"the engine called exit ({error.code!r}) while answering"
            else:
                message = f"{type(error).__name__}: {error}"
            raise EngineError("exception", message) from None

    return call


def make_engine(target: str) -> Any:
    """The engine of ``MODULE:ATTR``, read as the in-process adapter reads it; SystemExit with a
    one-line reason when it cannot be made."""
    from conformance.core.protocol import EngineError
    from conformance.engines.adapters.inprocess import InProcessEngine

    module_name, _, attribute = target.partition(":")

    def refuse(reason: str) -> SystemExit:
        print(f"{PREFIX}python:{target}: {reason}", file=sys.stderr, flush=True)
        return SystemExit(NOT_AN_ENGINE)

    if not module_name or not attribute:
        raise refuse("expected python:MODULE:ATTR, e.g. python:my_engine:Engine")
    try:
        module = __import__(module_name, fromlist=["*"])
    except ImportError as error:
        raise refuse(
            f"cannot import {module_name!r} (searched the current folder {os.getcwd()} first, then "
            f"sys.path): {error}"
        ) from None
    except BaseException as error:  # the module's own code failed, or exited, while importing
        raise refuse(f"importing {module_name!r} raised {type(error).__name__}: {error}") from None
    try:
        obj: Any = getattr(module, attribute)
    except AttributeError:
        raise refuse(f"module {module_name!r} has no attribute {attribute!r}") from None
    is_factory = isinstance(obj, type) or (callable(obj) and not hasattr(obj, "info"))
    try:
        engine = obj() if is_factory else obj
    except BaseException as error:
        raise refuse(f"{attribute}() raised {type(error).__name__}: {error}") from None
    if not hasattr(engine, "info"):
        raise refuse(
            f"{type(engine).__name__} is not an engine: it has no 'info' (see docs/engines-python.md)"
        )
    try:
        return InProcessEngine(_Guarded(engine), adapter=f"python:{target}")
    except EngineError as error:
        raise refuse(error.message) from None
    except Exception as error:  # its info raised, or is not what docs/engines-python.md describes
        raise refuse(f"cannot read the engine's info: {type(error).__name__}: {error}") from None


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) != 1:
        print("usage: python -m conformance.servers.python_host MODULE:ATTR", file=sys.stderr)
        return 2
    # The protocol keeps descriptors of its own; the engine's stdout is stderr, its stdin empty.
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    sys.stdout = sys.stderr
    engine = make_engine(arguments[0])
    from conformance.servers.oracle_jsonl import serve

    try:
        return serve(engine, requests, answers, sys.stderr)
    finally:
        close = getattr(engine, "close", None)
        if callable(close):
            close()


if __name__ == "__main__":
    sys.exit(main())
