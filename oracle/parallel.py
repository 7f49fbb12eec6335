"""Perft on several processes: the tree split into subtree tasks, the tasks run, the counts added.

Three steps, kept apart so that any executor can run the middle one:

1. :func:`split_perft` expands the tree breadth-first from the root, one ply at a time, until
   there are enough subtrees to keep every worker busy (``at_least``), never beyond the ply above
   the leaves. Subtrees that meet again by transposition become one :class:`PerftTask` with a
   weight (how many lines lead there, times their capture routes with ``by_route``). With
   ``divide`` the root is always expanded and each task remembers its first move.
2. :func:`run_task` counts one task: the serial :func:`oracle.perft.perft` times its weight. It
   is a plain top-level function of picklable data: :func:`run_tasks` maps it over processes of
   this machine, and an executor of a cluster (e.g. Dask's ``Client.map``) can map it just as well.
3. :func:`total` and :func:`divide_counts` add the counts up.

:func:`parallel_perft` and :func:`parallel_divide` do all three; they equal ``perft`` and
``divide`` of :mod:`oracle.perft` exactly.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import signal
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any, Final

from oracle.moves import Move
from oracle.perft import check_depth, perft, weighted_moves
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules

TASKS_PER_WORKER: Final = 8
"""Split until there are this many subtrees per worker: they differ in size, and the surplus
keeps every worker busy until the end."""


@dataclasses.dataclass(frozen=True)
class PerftTask:
    """One subtree: ``weight`` times the leaves ``depth`` plies below ``position``.

    ``first_move`` is the root move the subtree lies under (``divide`` only, else None).
    """

    position: Position
    depth: int
    weight: int = 1
    first_move: Move | None = None
    rules: Rules = INTERNATIONAL
    by_route: bool = False


def split_perft(
    position: Position,
    depth: int,
    rules: Rules = INTERNATIONAL,
    *,
    by_route: bool = False,
    at_least: int = 1,
    divide: bool = False,
) -> list[PerftTask]:
    """Subtree tasks whose weighted counts add up to ``perft(position, depth)``.

    The tree is expanded one ply at a time while there are fewer than ``at_least`` subtrees and
    more than one ply left below them; with ``divide`` the root is expanded in any case. Lines
    that end before the split depth (the side to move has lost) hold no leaf and no task.
    """
    if divide:
        check_depth(depth, 1, "divide")
    else:
        check_depth(depth)
    # (first move, position) -> weight; insertion order keeps the split deterministic
    level: dict[tuple[Move | None, Position], int] = {(None, position): 1}
    remaining = depth
    while level and ((remaining > 1 and len(level) < at_least) or (divide and remaining == depth)):
        deeper: dict[tuple[Move | None, Position], int] = {}
        for (first, node), weight in level.items():
            for move, child, routes in weighted_moves(node, rules, by_route=by_route):
                key = (move if divide and first is None else first, child)
                deeper[key] = deeper.get(key, 0) + weight * routes
        level = deeper
        remaining -= 1
    return [
        PerftTask(node, remaining, weight, first, rules, by_route) for (first, node), weight in level.items()
    ]


def run_task(task: PerftTask) -> int:
    """The leaves a task stands for: its subtree's perft times its weight."""
    return task.weight * perft(task.position, task.depth, task.rules, by_route=task.by_route)


def run_tasks(tasks: Sequence[PerftTask], workers: int = 1) -> list[int]:
    """:func:`run_task` of every task, in order, on ``workers`` processes (1: in this one).

    The processes are started with ``spawn`` (the same on every platform, safe with threads) and
    ignore Ctrl-C; if the wait is interrupted or a task fails, they are terminated before the
    exception goes on.
    """
    _check_workers(workers)
    if workers == 1 or len(tasks) <= 1:
        return [run_task(task) for task in tasks]
    executor: concurrent.futures.ProcessPoolExecutor | None = None
    try:
        with HeldSignals():  # a stop while a worker starts waits until it is in the pool
            executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=min(workers, len(tasks)),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_ignore_interrupts,
            )
            futures = [executor.submit(run_task, task) for task in tasks]  # starts every worker
        concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_EXCEPTION)
        return [future.result() for future in futures]
    except BaseException:
        if executor is not None:
            _terminate(executor)
        raise
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


class HeldSignals:
    """Ctrl-C and SIGTERM held for the length of a ``with`` block, then acted on.

    A signal that comes while a worker process is being started would leave that process
    half-started, outside the pool: it is never stopped, and dies with a traceback when its
    parent's pipe closes. Starting workers inside this block avoids that. Only the handlers of
    this program are held (in the main thread; not the default or ignore dispositions); on leaving
    the block they are put back and the first signal held is raised again (its handler runs then,
    e.g. ``KeyboardInterrupt``).
    """

    SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.held: list[int] = []
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> HeldSignals:
        if threading.current_thread() is threading.main_thread():
            for number in self.SIGNALS:
                if callable(signal.getsignal(number)):
                    self.previous[number] = signal.signal(number, self._hold)
        return self

    def _hold(self, number: int, frame: FrameType | None) -> None:
        self.held.append(number)

    def __exit__(self, *exc_info: object) -> None:
        for number, handler in self.previous.items():
            signal.signal(number, handler)
        self.previous = {}
        held, self.held = self.held, []
        if held:
            signal.raise_signal(held[0])


def _check_workers(workers: int) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number, 1 or more, not {workers!r}")


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: only the parent acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _terminate(executor: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop the workers now, not after their current task (Python 3.14 has terminate_workers)."""
    processes = list((executor._processes or {}).values())  # no public handle before 3.14
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()


def total(tasks: Sequence[PerftTask], counts: Sequence[int]) -> int:
    """The perft of the split tree: the counts of its tasks added up."""
    if len(counts) != len(tasks):
        raise ValueError(f"{len(counts)} counts for {len(tasks)} tasks")
    return sum(counts)


def divide_counts(
    position: Position, tasks: Sequence[PerftTask], counts: Sequence[int], rules: Rules = INTERNATIONAL
) -> dict[Move, int]:
    """The divide of a tree split with ``divide=True``: counts added up per first move.

    Every legal move appears, in :func:`oracle.perft.divide`'s order, with 0 where no leaf lies.
    """
    if len(counts) != len(tasks):
        raise ValueError(f"{len(counts)} counts for {len(tasks)} tasks")
    split = {move: 0 for move, _, _ in weighted_moves(position, rules)}
    for task, count in zip(tasks, counts, strict=True):
        if task.first_move not in split:
            raise ValueError(f"task {task} lies under no legal move of {position.fen()}")
        split[task.first_move] += count
    return split


def parallel_perft(
    position: Position, depth: int, rules: Rules = INTERNATIONAL, *, workers: int, by_route: bool = False
) -> int:
    """:func:`oracle.perft.perft` on ``workers`` processes."""
    _check_workers(workers)
    tasks = split_perft(position, depth, rules, by_route=by_route, at_least=workers * TASKS_PER_WORKER)
    return total(tasks, run_tasks(tasks, workers))


def parallel_divide(
    position: Position, depth: int, rules: Rules = INTERNATIONAL, *, workers: int, by_route: bool = False
) -> dict[Move, int]:
    """:func:`oracle.perft.divide` on ``workers`` processes."""
    _check_workers(workers)
    tasks = split_perft(
        position, depth, rules, by_route=by_route, at_least=workers * TASKS_PER_WORKER, divide=True
    )
    return divide_counts(position, tasks, run_tasks(tasks, workers), rules)
