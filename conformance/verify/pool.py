"""``verify`` on every core: chunks of positions checked by worker processes, taken back in order.

Processes, not threads: z3 and the oracle are CPU-bound Python. Each worker process starts its
own engine from the factory (engines hold pipes, sockets and solvers: the factory is sent, never
the engine, so it must pickle -- :class:`conformance.engines.adapters.specs.EngineRecipe`) the first time it gets a
chunk, keeps it for every later chunk (:func:`check_chunk`, a per-process cache keyed by the
factory), and closes it when the process ends. z3 lives in each process too.

The positions are cut into chunks of consecutive indices (of the run's shard); at most a few
chunks per worker are in flight, and :func:`in_order` hands them on in position order whatever
order they finish in (a reorder buffer). So the rows, and everything the parent does with them
(shrinking, the report, ``max_fail``), are those of a run on one process. The same functions
serve the Dask scheduler (:mod:`conformance.verify.cluster`).

Worker processes are started with ``spawn``: forking a parent that runs threads (the progress
bar) and holds a z3 context is not safe.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import pickle
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol, TypeVar

from conformance.core.errors import IncompleteError
from conformance.core.protocol import Engine
from conformance.engines.adapters.specs import close_traces
from conformance.verify.chunk import Checked, Listed, Passed, spans_cut
from conformance.verify.driver import Driver
from conformance.verify.generate import VerifyOptions
from conformance.verify.sweep import check_positions
from oracle.parallel import HeldSignals

GENERATED_CHUNK: Final = 16
"""Positions per chunk when they are drawn (about 10 ms each with z3)."""
EXHAUSTIVE_CHUNK: Final = 5000
"""Positions per chunk in an exhaustive campaign (tens of microseconds each)."""
IN_FLIGHT: Final = 4
"""Chunks per worker submitted ahead of the one the parent waits for."""


class WorkerError(IncompleteError, RuntimeError):
    """A worker could not check its positions: its engine did not start, or the process died."""


class _Future(Protocol):
    def result(self) -> Any: ...


F = TypeVar("F", bound=_Future)


def picklable(factory: Callable[[], Engine]) -> None:
    """Refuse, clearly, a factory that cannot be sent to a worker process."""
    try:
        pickle.dumps(factory)
    except (pickle.PicklingError, AttributeError, TypeError) as error:
        raise ValueError(
            f"workers need an engine factory that can be pickled, e.g. EngineRecipe('oracle'); "
            f"{factory!r} cannot be: {error}"
        ) from None


class Chunks(Iterable[range]):
    """``indices`` cut into consecutive chunks of at most ``size``, never across the end of a
    ``tally`` span of ``span`` indices, each made when it is asked for: a campaign of 10**9
    positions is ten million chunks, which a list would hold all at once."""

    def __init__(self, indices: range, size: int, span: int) -> None:
        self.indices = indices
        self.size = size
        self.span = span

    def __iter__(self) -> Iterator[range]:
        return spans_cut(self.indices, self.size, self.span)


def chunks(indices: range, workers: int, size: int, span: int) -> Chunks:
    """``indices`` cut into consecutive chunks of ``size`` (smaller when there are few: 4 per worker),
    never across the end of a ``tally`` span of ``span`` indices."""
    size = max(1, min(size, len(indices) // (IN_FLIGHT * max(1, workers)) or 1))
    return Chunks(indices, size, span)


def chunk_size(options: VerifyOptions) -> int:
    return EXHAUSTIVE_CHUNK if options.pieces is not None else GENERATED_CHUNK


# -- in the worker ------------------------------------------------------------------------------

_engines: dict[tuple[Callable[[], Engine], int], Engine] = {}
_lock = threading.Lock()


def _engine(factory: Callable[[], Engine]) -> Engine:
    """This process's (and thread's) engine for ``factory``: started once, closed at exit."""
    key = (factory, threading.get_ident())
    with _lock:
        if key not in _engines:
            if not _engines:
                multiprocessing.util.Finalize(None, close_engines, exitpriority=10)
            _engines[key] = factory()
        return _engines[key]


def close_engines() -> None:
    """Close every engine this process started (at exit, or when a cluster run ends), then the
    traces they appended to."""
    with _lock:
        engines = list(_engines.values())
        _engines.clear()
    for engine in engines:
        with contextlib.suppress(Exception):
            engine.close()
    close_traces()  # after the engines: their last lines (killed, ended) are traced


def check_chunk(factory: Callable[[], Engine], options: VerifyOptions, chunk: range) -> Checked:
    """Check the positions ``chunk`` of the run ``options`` with this process's engine."""
    try:
        engine = _engine(factory)
    except Exception as error:  # reported by the parent, which stops the run
        raise WorkerError(f"the engine did not start in a worker: {type(error).__name__}: {error}") from None
    return check_positions(Driver(engine, options), options, chunk)


# -- in the parent ------------------------------------------------------------------------------


def in_order(
    pieces: Iterable[range],
    submit: Callable[[range], F],
    first_done: Callable[[set[F]], Iterable[F]],
    ahead: int,
) -> Iterator[Checked]:
    """The results of ``submit(piece)`` for every piece, in order, with at most ``ahead`` pieces
    submitted and not yet handed on (the reorder buffer)."""
    pending: dict[F, int] = {}
    finished: dict[int, Checked] = {}
    submitted = handed = 0
    waiting = iter(pieces)
    exhausted = False
    while True:
        while not exhausted and len(pending) + len(finished) < max(1, ahead):
            piece = next(waiting, None)
            if piece is None:
                exhausted = True
                break
            pending[submit(piece)] = submitted
            submitted += 1
        if handed == submitted and exhausted:
            return
        if handed in finished:
            yield finished.pop(handed)
            handed += 1
            continue
        for future in first_done(set(pending)):
            finished[pending.pop(future)] = future.result()


def flatten(checked: Iterable[Checked]) -> Iterator[Passed | Listed]:
    for chunk in checked:
        yield from chunk


def _leave_interrupts() -> None:
    """A worker ignores Ctrl-C: the parent, which gets it too, stops the run and the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _first_done(futures: set[Future[Checked]]) -> set[Future[Checked]]:
    done, _ = wait(futures, return_when=FIRST_COMPLETED)
    return done


@contextlib.contextmanager
def pool_rows(
    factory: Callable[[], Engine], options: VerifyOptions, workers: int, indices: range | None = None
) -> Iterator[Iterator[Passed | Listed]]:
    """The run's positions (``indices``, by default all of its shard's), checked by ``workers``
    local processes, in order: counted passes and positions listed with their rows."""
    picklable(factory)
    pieces = chunks(
        options.indices() if indices is None else indices, workers, chunk_size(options), options.span
    )
    executor = ProcessPoolExecutor(
        max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_leave_interrupts
    )

    def submit(piece: range) -> Future[Checked]:
        with HeldSignals():  # a submit may start a worker: a stop waits until it is in the pool
            return executor.submit(check_chunk, factory, options, piece)

    try:
        yield flatten(in_order(pieces, submit, _first_done, IN_FLIGHT * workers))
    except BrokenProcessPool as error:
        raise WorkerError(f"a worker process died: {error}") from None
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
