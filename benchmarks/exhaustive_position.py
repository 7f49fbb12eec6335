"""What one position of an exhaustive campaign costs, next to the oracle listing its own moves.

    python benchmarks/exhaustive_position.py [--pieces 3] [--positions 20000] [--start 200000]
                                             [--engine oracle --engine dame-rs] [--repeat 3]

On one stretch of ``--positions`` consecutive positions of the ``--pieces`` campaign (from index
``--start``), in one process (one core), in turn and ``--repeat`` times (so that a change in the
machine's load hits every figure alike; the best round is kept):

* **oracle listing** -- :func:`oracle.moves.legal_moves` of each position, the positions built
  beforehand: what the rules alone cost, the yardstick;
* **campaign, fast path** -- :func:`conformance.verify.chunk.check_positions` as a campaign runs it
  (positions stepped in index order, the engine asked once, answers compared as sets of packed
  moves, passes counted), for each ``--engine``;
* **campaign, general path** -- the same positions with every result listed (``--all-results``):
  each check builds its result object, as every position did before the fast path.

Each figure is CPU time in microseconds per position -- per core: this process's and, for an
engine in a process of its own (``dame-rs``), that process's too, its start taken off --, as a
multiple of the oracle listing, with the wall-clock time beside it and what the whole ``--pieces``
campaign and the next two cost at that rate on 2 cores. CPU time stays the same on a busy machine,
where wall-clock time grows with the load; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.protocol import EngineError
from conformance.engines.adapters.specs import EngineRecipe, SpecError
from conformance.verify import exhaustive
from conformance.verify.chunk import Listed
from conformance.verify.driver import Driver
from conformance.verify.generate import VerifyOptions
from conformance.verify.sweep import check_positions
from oracle.moves import legal_moves


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def cpu() -> float:
    """CPU seconds of this process and of its children that ended (a subprocess engine, once closed)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def best_of(repeat: int, work: Callable[[], object]) -> tuple[float, float]:
    """The fastest of ``repeat`` runs of ``work``: (CPU seconds, wall-clock seconds)."""
    times = []
    for _ in range(repeat):
        started, used = time.perf_counter(), cpu()
        work()
        times.append((cpu() - used, time.perf_counter() - started))
    return min(times)


def campaign(recipe: EngineRecipe, options: VerifyOptions, indices: range) -> Callable[[], object]:
    """A run of the positions ``indices`` with an engine of its own, started and closed (its process's
    CPU time is then counted; the start's is taken off: :func:`start_up`)."""

    def run() -> object:
        engine = recipe()
        try:
            checked = check_positions(Driver(engine, options), options, indices)
        finally:
            engine.close()
        listed = [item for item in checked if isinstance(item, tuple)]
        if not options.all_results and listed:
            first: Listed = listed[0]
            raise SystemExit(
                f"{engine.info.name}: position {first[0].index} does not pass: not a speed figure"
            )
        return checked

    return run


def start_up(recipe: EngineRecipe, repeat: int) -> tuple[float, float]:
    """What starting and closing the engine alone costs: (CPU, wall-clock) seconds."""
    return best_of(repeat, lambda: recipe().close())


def costs(us: float, pieces: int) -> str:
    """What the campaigns of ``pieces`` .. ``pieces + 2`` take on 2 cores at ``us`` per position."""
    texts = []
    for k in range(pieces, pieces + 3):
        hours = exhaustive.count(k) * us / 1e6 / 2 / 3600
        texts.append(f"K={k} {hours:,.1f} h" if hours >= 1 else f"K={k} {hours * 60:,.1f} min")
    return ", ".join(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--pieces", type=int, default=3)
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--start", type=int, default=200_000)
    parser.add_argument("--engine", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    total = exhaustive.count(args.pieces)
    start = min(args.start, max(0, total - args.positions))
    indices = range(start, min(total, start + args.positions))
    print(load())
    print(
        f"== {len(indices):,} consecutive positions of the K={args.pieces} campaign ({total:,} positions), "
        f"from index {indices.start:,}; one process, best of {args.repeat}"
    )
    built = list(exhaustive.positions(args.pieces, indices.start, indices.stop, 1))
    listing, listing_wall = best_of(args.repeat, lambda: [legal_moves(position) for position in built])
    yardstick = listing / len(indices) * 1e6
    print(
        f"  {'oracle listing its moves':34} {yardstick:8.1f} us/position   1.0x   "
        f"(wall {listing_wall / len(indices) * 1e6:6.1f} us)"
    )
    options = VerifyOptions(pieces=args.pieces, plays=0)
    for spec in args.engine or ["oracle", "dame-rs"]:
        recipe = EngineRecipe(spec)
        try:
            start_cpu, start_wall = start_up(recipe, args.repeat)
        except (SpecError, EngineError, OSError) as error:
            print(f"  {spec}: not available ({error}); skipped")
            continue
        for label, these in (
            ("fast path", options),
            ("general path (--all-results)", dataclasses.replace(options, all_results=True)),
        ):
            used, wall = best_of(args.repeat, campaign(recipe, these, indices))
            us = (used - start_cpu) / len(indices) * 1e6
            wall_us = (wall - start_wall) / len(indices) * 1e6
            print(
                f"  {spec + ', ' + label:34} {us:8.1f} us/position {us / yardstick:5.1f}x   "
                f"(wall {wall_us:6.1f} us)   on 2 cores: {costs(us, args.pieces)}"
            )
    print(load())


if __name__ == "__main__":
    main()
