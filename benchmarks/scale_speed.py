"""How far does ``verify`` scale? Positions per minute on 1 and 2 worker processes, and exhaustive campaigns.

    python benchmarks/scale_speed.py [--examples 3000] [--seed 7] [--repeat 3]
                                     [--kinds all --kinds positions --kinds draws]
                                     [--exhaustive-shard 21] [--engine oracle --engine dame-rs]
                                     [--skip-workers] [--skip-exhaustive] [--quiet-below 0.5]

* **workers** -- ``verify`` of the oracle on ``--examples`` generated positions (z3 on, every
  check), with 1 and then 2 worker processes, ``--repeat`` times in turn (so that a change in the
  machine's load hits both alike), for each ``--kinds``: ``all`` (every kind, the default run),
  ``positions`` (every kind but ``draws``: one position each) and ``draws`` (the setups of
  steered draw-rule games: a game of up to 150 plies searched, then its outcome asked after 8-16
  of its prefixes and its control games'), by default all three. Prints the wall-clock time
  (start-up of the workers included), positions per minute, the speed-up of each pair and the
  efficiency (speed-up / 2), and checks that the two runs gave the same report (results,
  certificate, disagreements). Each run searches its draw games afresh (the in-process cache of
  games is emptied before a run).
* **exhaustive** -- ``verify --exhaustive --pieces 3`` on 2 workers, on shard 1 of
  ``--exhaustive-shard`` (an odd count, so that both sides to move are in it), for each
  ``--engine`` installed (``dame-rs`` comes from ``draughts-conformance engines install dame-rs``):
  positions per minute and the time the whole campaign (1,630,290 positions) takes at that rate.
  ``--exhaustive-shard 1`` runs the whole campaign.

The machine may be busy with other work: the load average is printed before and after, and
``--quiet-below L`` waits (up to an hour) before each measurement until the 1-minute load average
is below ``L``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.protocol import EngineError
from conformance.core.shards import Shard
from conformance.engines.adapters.specs import EngineRecipe, SpecError
from conformance.verify import KINDS, exhaustive
from conformance.verify.draw_campaigns import draw_game
from conformance.verify.generate import DRAWS, VerifyOptions
from conformance.verify.run import VerifyRun, verify

TIMINGS = ("duration_ms", "duration_s", "started", "finished")


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def wait_for_quiet(below: float | None) -> None:
    """Wait until the 1-minute load average is below ``below`` (at most an hour)."""
    if below is None:
        return
    deadline = time.monotonic() + 3600
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(15)


def fingerprint(run: VerifyRun) -> Any:
    results = [{k: v for k, v in r.to_json().items() if k not in TIMINGS} for r in run.results]
    footer = {k: v for k, v in run.footer.items() if k not in TIMINGS}
    return results, [line.to_json() for line in run.tallies], footer, [d.text() for d in run.disagreements]


KIND_SETS: Final = {
    "all": KINDS,
    "positions": tuple(kind for kind in KINDS if kind != DRAWS),
    "draws": (DRAWS,),
}
"""The kinds of each ``--kinds`` set."""


def timed(recipe: EngineRecipe, options: VerifyOptions, workers: int) -> tuple[float, VerifyRun]:
    draw_game.cache_clear()  # a run in this process would find the games of the last one remembered
    started = time.perf_counter()
    run = verify(recipe, options, workers=workers)
    return time.perf_counter() - started, run


def bench_workers(examples: int, seed: int, repeat: int, quiet: float | None, kinds: str) -> None:
    print(
        f"== verify of the oracle, {examples} generated positions (seed {seed}, kinds {kinds}: "
        f"{', '.join(KIND_SETS[kinds])}; z3 on)"
    )
    options = VerifyOptions(examples=examples, seed=seed, kinds=KIND_SETS[kinds])
    recipe = EngineRecipe("oracle")
    ratios = []
    rates: dict[int, list[float]] = {1: [], 2: []}
    for round_ in range(1, repeat + 1):
        wait_for_quiet(quiet)
        print(f"  round {round_}: {load()}")
        runs = {}
        for workers in (1, 2):
            if workers == 2:
                wait_for_quiet(quiet)
            seconds, run = timed(recipe, options, workers)
            runs[workers] = run
            rate = run.positions / seconds * 60
            rates[workers].append(rate)
            print(f"    --workers {workers}: {seconds:6.1f} s, {rate:8,.0f} positions/min ({load()} after)")
        same = fingerprint(runs[1]) == fingerprint(runs[2])
        ratio = rates[2][-1] / rates[1][-1]
        ratios.append(ratio)
        print(
            f"    speed-up {ratio:.2f}x (efficiency {ratio / 2:.0%}); same report: {'yes' if same else 'NO'}"
        )
        if not same:
            raise SystemExit("the two runs disagree: a determinism bug")
    print(
        f"  median: {statistics.median(rates[1]):,.0f} -> {statistics.median(rates[2]):,.0f} positions/min, "
        f"speed-up {statistics.median(ratios):.2f}x (best {max(ratios):.2f}x, worst {min(ratios):.2f}x)"
    )


def bench_exhaustive(engines: list[str], shards: int, quiet: float | None) -> None:
    total = exhaustive.count(3)
    shard = Shard(1, shards)
    options = VerifyOptions(pieces=3, plays=0, shard=shard)
    positions = len(options.indices())
    print(
        f"== exhaustive, at most 3 pieces: {total:,} positions; shard {shard}: {positions:,} of them, 2 workers"
    )
    for spec in engines:
        recipe = EngineRecipe(spec)
        try:
            recipe().close()
        except (SpecError, EngineError, OSError) as error:
            print(f"  {spec}: not available ({error}); skipped")
            continue
        wait_for_quiet(quiet)
        print(f"  {spec}: {load()}")
        seconds, run = timed(recipe, options, 2)
        rate = run.positions / seconds * 60
        problems = run.summary.counts["fail"] + run.summary.counts["error"]
        z3_rows = sum(
            n for (question, _), n in run.report.by_question().items() if question == "legal_moves[z3]"
        )
        print(
            f"    {seconds:7.1f} s, {rate:9,.0f} positions/min ({z3_rows:,} with z3); "
            f"{problems} failures or errors; the whole campaign at this rate: {total / rate:5.1f} min"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--exhaustive-shard", type=int, default=21)
    parser.add_argument("--engine", action="append", default=[])
    parser.add_argument("--kinds", action="append", choices=sorted(KIND_SETS), default=[])
    parser.add_argument("--skip-workers", action="store_true")
    parser.add_argument("--skip-exhaustive", action="store_true")
    parser.add_argument("--quiet-below", type=float, help="wait for a 1-minute load average below this")
    args = parser.parse_args()
    print(load())
    if not args.skip_workers:
        for kinds in args.kinds or list(KIND_SETS):
            bench_workers(args.examples, args.seed, args.repeat, args.quiet_below, kinds)
    if not args.skip_exhaustive:
        bench_exhaustive(args.engine or ["oracle", "dame-rs"], args.exhaustive_shard, args.quiet_below)
    print(load())


if __name__ == "__main__":
    main()
