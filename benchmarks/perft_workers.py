"""Perft on 1, 2, ... worker processes: seconds, leaves per second, speed-up and efficiency.

    python benchmarks/perft_workers.py [--depth 9] [--workers 1 2] [--fen FEN] [--balance]

The default is perft(9) from the start, 41,022,423 leaves (rules.md, published). One worker is
the serial ``oracle.perft.perft`` in this process; N > 1 is ``oracle.parallel.parallel_perft``
(the tree split into subtrees, run on N spawned processes), start-up of the processes included.
Speed-up is the serial time over the parallel one, efficiency the speed-up over N. The figures
are wall-clock and depend on what else the machine runs: the load average is printed with them.

``--balance`` adds a figure that does not depend on the load: each subtree of the N-worker split
(one ply shallower, to save time) is counted alone and its CPU time measured, then the workers'
dispatch (the next subtree to the first free worker) is replayed on those times; balance is the
ideal time (the sum over N) over the replayed one.
"""

from __future__ import annotations

import argparse
import heapq
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from oracle.parallel import TASKS_PER_WORKER, parallel_perft, run_task, split_perft
from oracle.perft import perft
from oracle.position import Position

START = "W:W31-50:B1-20"
PUBLISHED_START = {8: 6_483_961, 9: 41_022_423, 10: 258_895_763}  # rules.md


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=9)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--fen", default=START)
    parser.add_argument("--balance", action="store_true", help="replay the dispatch on measured task times")
    args = parser.parse_args()
    position = Position.from_fen(args.fen)

    print(f"perft({args.depth}) of {position.fen()}")
    print(f"{os.cpu_count()} CPUs, load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for workers in args.workers:
        if workers > 1:
            tasks = split_perft(position, args.depth, at_least=workers * TASKS_PER_WORKER)
            plies = args.depth - tasks[0].depth if tasks else args.depth
            print(f"  {workers} workers: {len(tasks)} subtrees, split {plies} plies down")
    print()
    print(f"{'workers':>7} {'leaves':>14} {'seconds':>9} {'leaves/s':>12} {'speed-up':>9} {'efficiency':>10}")
    serial_seconds = None
    counts = set()
    for workers in args.workers:
        began = time.perf_counter()
        if workers == 1:
            leaves = perft(position, args.depth)
        else:
            leaves = parallel_perft(position, args.depth, workers=workers)
        seconds = time.perf_counter() - began
        counts.add(leaves)
        if workers == 1:
            serial_seconds = seconds
        speed_up = f"{serial_seconds / seconds:.2f}x" if serial_seconds else "-"
        efficiency = f"{serial_seconds / seconds / workers:.0%}" if serial_seconds else "-"
        print(
            f"{workers:>7} {leaves:>14,} {seconds:>9.1f} {leaves / seconds:>12,.0f} {speed_up:>9} {efficiency:>10}"
        )
    print(f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.balance:
        for workers in (w for w in args.workers if w > 1):
            print(balance(position, args.depth - 1, workers))
    expected = PUBLISHED_START.get(args.depth) if position == Position.from_fen(START) else None
    if len(counts) != 1 or (expected is not None and counts != {expected}):
        print(f"MISMATCH: counts {sorted(counts)}, published {expected}", file=sys.stderr)
        return 1
    return 0


def balance(position: Position, depth: int, workers: int) -> str:
    tasks = split_perft(position, depth, at_least=workers * TASKS_PER_WORKER)
    seconds = []
    for task in tasks:
        began = time.process_time()
        run_task(task)
        seconds.append(time.process_time() - began)
    free_at = [0.0] * workers
    for cost in seconds:  # in order, each to the first free worker
        heapq.heappush(free_at, heapq.heappop(free_at) + cost)
    ideal = sum(seconds) / workers
    return (
        f"balance of the {workers}-worker split at depth {depth}: {len(tasks)} subtrees of "
        f"{min(seconds):.3f}-{max(seconds):.3f} s CPU; replayed {max(free_at):.2f} s against an ideal "
        f"{ideal:.2f} s: {ideal / max(free_at):.1%}"
    )


if __name__ == "__main__":
    sys.exit(main())
