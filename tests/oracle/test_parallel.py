"""Perft on several processes (issue 14): exactly the serial count, however the tree is split.

The split is checked on many positions with the tasks run in this process (cheap); a few tests
start real worker processes (``spawn``, about half a second each) to check that the tasks travel
and the counts come back.
"""

from __future__ import annotations

import multiprocessing.util
import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from oracle.moves import legal_moves
from oracle.parallel import (
    HeldSignals,
    PerftTask,
    divide_counts,
    parallel_divide,
    parallel_perft,
    run_task,
    run_tasks,
    split_perft,
    total,
)
from oracle.perft import divide, perft
from oracle.position import Position
from oracle.rules import INTERNATIONAL, CaptureChoice, Rules

START = "W:W31-50:B1-20"
KINGS = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
MIDGAME = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
BREAKTHROUGH = "W:W6,7,8,9,10:B41,42,43,44,45"
LOOP = "W:WK38:B18,19,32,33"  # one king, five moves, six routes (pydraughts)
ONE_MOVE = "W:W28,32:B23"  # a single (compulsory) capture, then Black has nothing: lost
FEW_MOVES = "W:W46:B5"  # one man a side: one or two moves a ply, for many plies

# rules.md, published (the same table as test_perft.py).
PUBLISHED = {
    START: [9, 81, 658, 4265, 27117],
    KINGS: [14, 55, 1168, 5432],
    MIDGAME: [6, 12, 30, 73, 215, 590, 1944],
    BREAKTHROUGH: [9, 81, 795, 7578],
}
POSITIONS = [*PUBLISHED, LOOP, ONE_MOVE, FEW_MOVES]


def split_and_run_here(position: Position, depth: int, at_least: int, *, by_route: bool = False) -> int:
    tasks = split_perft(position, depth, by_route=by_route, at_least=at_least)
    return total(tasks, [run_task(task) for task in tasks])


@pytest.mark.parametrize("at_least", [1, 2, 16, 500])
@pytest.mark.parametrize(
    ("fen", "depth", "nodes"),
    [(fen, depth, nodes) for fen, counts in PUBLISHED.items() for depth, nodes in enumerate(counts, 1)],
)
def test_any_split_adds_up_to_the_published_count(fen: str, depth: int, nodes: int, at_least: int) -> None:
    assert split_and_run_here(Position.from_fen(fen), depth, at_least) == nodes


@pytest.mark.parametrize("at_least", [1, 8, 64])
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 5, 8])
@pytest.mark.parametrize("fen", [LOOP, ONE_MOVE, FEW_MOVES])
def test_narrow_trees_split_deeper_and_still_add_up(fen: str, depth: int, at_least: int) -> None:
    position = Position.from_fen(fen)
    assert split_and_run_here(position, depth, at_least) == perft(position, depth)
    assert split_and_run_here(position, depth, at_least, by_route=True) == perft(
        position, depth, by_route=True
    )


def test_the_split_goes_deeper_until_there_are_enough_subtrees() -> None:
    position = Position.from_fen(FEW_MOVES)  # 2 moves, then 2 x 2, ...: narrow
    tasks = split_perft(position, 10, at_least=8)
    assert len(tasks) >= 8
    assert len({task.depth for task in tasks}) == 1
    assert tasks[0].depth < 10 - 1  # expanded more than one ply
    # Never down to the leaves: at least one ply is left to every task.
    assert all(task.depth >= 1 for task in split_perft(position, 3, at_least=10**6))


def test_transpositions_become_one_weighted_task() -> None:
    # From the start, 32-28 then 19-23 and ... the same four plies in another order meet again.
    tasks = split_perft(Position.initial(), 6, at_least=2000)
    positions = [task.position for task in tasks]
    assert len(positions) == len(set(positions))
    assert any(task.weight > 1 for task in tasks)


def test_the_split_is_deterministic() -> None:
    assert split_perft(Position.initial(), 6, at_least=100) == split_perft(
        Position.initial(), 6, at_least=100
    )


def test_divide_split_keeps_the_first_move() -> None:
    position = Position.from_fen(MIDGAME)
    tasks = split_perft(position, 5, at_least=40, divide=True)
    assert {task.first_move for task in tasks} <= set(legal_moves(position))
    counts = divide_counts(position, tasks, [run_task(task) for task in tasks])
    assert counts == divide(position, 5)
    assert list(counts) == list(divide(position, 5))  # the same order


def test_divide_lists_moves_without_leaves_with_zero() -> None:
    position = Position.from_fen(ONE_MOVE)  # the one capture wins: nothing below it
    tasks = split_perft(position, 3, divide=True)
    assert divide_counts(position, tasks, [run_task(task) for task in tasks]) == divide(position, 3)
    assert set(divide(position, 3).values()) == {0}


def test_a_split_under_other_rules() -> None:
    free_choice = Rules(capture_choice=CaptureChoice.FREE)
    position = Position.from_fen(KINGS)
    tasks = split_perft(position, 2, free_choice, at_least=30)
    assert all(task.rules == free_choice for task in tasks)
    assert total(tasks, [run_task(task) for task in tasks]) == perft(position, 2, free_choice)
    assert perft(position, 2, free_choice) != perft(position, 2, INTERNATIONAL)


def test_bad_arguments() -> None:
    position = Position.initial()
    with pytest.raises(ValueError, match="depth"):
        split_perft(position, -1)
    with pytest.raises(ValueError, match="divide depth"):
        split_perft(position, 0, divide=True)
    with pytest.raises(ValueError, match="workers"):
        parallel_perft(position, 2, workers=0)
    with pytest.raises(ValueError, match="workers"):
        run_tasks([PerftTask(position, 1)], workers=-3)
    with pytest.raises(ValueError, match="2 counts for 1 tasks"):
        total([PerftTask(position, 1)], [1, 2])


# -- real worker processes ---------------------------------------------------------------------


def test_tasks_run_on_worker_processes_give_the_serial_counts() -> None:
    # One pool for every position (starting processes is the slow part): the published ones,
    # and the narrow ones split deeper, by identity and by route.
    cases = [(fen, min(len(counts), 4), False) for fen, counts in PUBLISHED.items()]
    cases += [(fen, 6, by_route) for fen in (LOOP, ONE_MOVE, FEW_MOVES) for by_route in (False, True)]
    groups = [split_perft(Position.from_fen(fen), d, by_route=r, at_least=16) for fen, d, r in cases]
    counts = run_tasks([task for tasks in groups for task in tasks], workers=2)
    for (fen, depth, by_route), tasks in zip(cases, groups, strict=True):
        mine, counts = counts[: len(tasks)], counts[len(tasks) :]
        assert total(tasks, mine) == perft(Position.from_fen(fen), depth, by_route=by_route), fen
    assert counts == []


def test_parallel_perft_on_a_position_with_one_root_move() -> None:
    position = Position.from_fen(FEW_MOVES)
    assert parallel_perft(position, 8, workers=2) == perft(position, 8)


def test_parallel_divide_equals_serial_divide() -> None:
    position = Position.from_fen(KINGS)
    split = parallel_divide(position, 3, workers=2, by_route=True)
    assert split == divide(position, 3, by_route=True)
    assert list(split) == list(divide(position, 3))  # every legal move, in divide's order


def test_a_task_that_fails_fails_the_run() -> None:
    bad = PerftTask(Position.initial(), -1)  # perft refuses a negative depth, in the worker
    with pytest.raises(ValueError, match="depth"):
        run_tasks([PerftTask(Position.initial(), 2), bad], workers=2)


@pytest.mark.slow
def test_parallel_perft_depth_8_from_the_start() -> None:
    assert parallel_perft(Position.initial(), 8, workers=2) == 6483961  # published


def _workers() -> list[int]:
    """This process's live spawned workers (not zombies, not the resource tracker), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue  # ended meanwhile
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"--multiprocessing-fork" in command:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_while_a_worker_starts_stops_every_worker_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    # The signal arrives just after a worker's process is created and before it has been handed
    # its start-up data: the moment where a stop used to leave that worker outside the pool.
    spawn = multiprocessing.util.spawnv_passfds
    signalled: list[int] = []

    def spawn_then_interrupt(path: str, args: Sequence[str], passfds: Sequence[int]) -> int:
        pid = spawn(path, args, passfds)
        if "--multiprocessing-fork" in args and not signalled:
            signalled.append(pid)
            os.kill(os.getpid(), signal.SIGINT)
        return pid

    monkeypatch.setattr(multiprocessing.util, "spawnv_passfds", spawn_then_interrupt)
    tasks = split_perft(Position.initial(), 9, at_least=16)  # minutes of work: only a stop ends it
    with pytest.raises(KeyboardInterrupt):
        run_tasks(tasks, workers=2)
    assert signalled, "a worker was started"
    for _ in range(200):
        if not _workers():
            break
        time.sleep(0.05)
    assert _workers() == []
    assert "Traceback" not in capfd.readouterr().err


def _stop_twice_inside_the_block(reached: list[str]) -> None:
    with HeldSignals():
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)  # the same stop asked twice: acted on once
        time.sleep(0.01)
        reached.append("end of the block")


def test_held_signals_wait_for_the_end_of_the_block_and_the_handlers_come_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    reached: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        _stop_twice_inside_the_block(reached)
    assert reached == ["end of the block"]
    assert signal.getsignal(signal.SIGINT) is before
    with HeldSignals():
        pass  # nothing held: nothing raised
