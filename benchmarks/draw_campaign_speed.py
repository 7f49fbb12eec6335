"""How fast are the draw-rule campaigns of ``verify`` (``--kind draws``)? Figures, never a verdict.

    python benchmarks/draw_campaign_speed.py [--seed 11] [--games 64] [--mutant 6.3-fifteen-moves]
                                             [--default-run] [--versus DIR [--rounds 2]]

Three measurements, each printed with the load average (the machine may be busy):

* **search** -- the steered games of ``--games`` draws positions (every template in turn): games
  found per minute and the time per game (median, maximum), by template;
* **asked outcomes** -- the same games through ``verify --kind draws`` (no z3, no moves played:
  only the outcome questions), against the oracle and against ``--mutant``: draw-rule positions
  checked per minute and outcome questions answered per minute (the search is remembered per
  process, so this is the checking alone);
* with ``--versus DIR`` (another checkout with a venv, ``DIR/.venv``), the search alone, first:
  the same games searched in a fresh process of each checkout, in turn for ``--rounds`` rounds,
  CPU seconds (the machine may be shared) and the ratio of the medians;
* with ``--default-run``: ``verify --engine mutant:NAME --examples 300 --seed SEED`` (the default
  ``--kind all``) for the mutant and the oracle, wall-clock seconds and failing results.
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.protocol import Engine
from conformance.core.results import Status
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify.draw_campaigns import draw_game
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def search(seed: int, games: int) -> None:
    by_scenario: dict[str, list[float]] = collections.defaultdict(list)
    started = time.perf_counter()
    for round_ in range(games):
        before = time.perf_counter()
        game = draw_game(seed, round_, round_)
        by_scenario[game.scenario].append(time.perf_counter() - before)
    total = time.perf_counter() - started
    print(
        f"search: {games} steered games in {total:.1f} s, {60 * games / total:.0f} games per minute ({_load()})"
    )
    for name, times in by_scenario.items():
        print(
            f"  {name:30} {len(times):3} games  median {1000 * statistics.median(times):6.1f} ms"
            f"  max {1000 * max(times):6.1f} ms"
        )


_SEARCH_CPU = """
import sys, time
from conformance.verify.draw_campaigns import draw_game
seed, games = int(sys.argv[1]), int(sys.argv[2])
started = time.process_time()
for round_ in range(games):
    draw_game(seed, round_, round_)
print(time.process_time() - started)
"""


def versus(seed: int, games: int, other: Path, rounds: int) -> None:
    """The search's CPU seconds in a fresh process of this checkout and of ``other``, in turn."""
    checkouts = {"this": Path(__file__).resolve().parent.parent, "versus": other.resolve()}
    seconds: dict[str, list[float]] = {label: [] for label in checkouts}
    for _ in range(rounds):
        for label, root in checkouts.items():
            done = subprocess.run(
                [str(root / ".venv" / "bin" / "python"), "-c", _SEARCH_CPU, str(seed), str(games)],
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            )
            seconds[label].append(float(done.stdout.split()[-1]))
    this, that = (statistics.median(seconds[label]) for label in checkouts)
    print(
        f"search, {games} games of seed {seed}, CPU (median of {rounds}): this {this:.1f} s"
        f" ({60 * games / this:.0f} games per CPU minute), versus {other} {that:.1f} s"
        f" ({60 * games / that:.0f}); {that / this:.2f}x ({_load()})"
    )


def asked(seed: int, games: int, name: str) -> None:
    options = VerifyOptions(examples=games, seed=seed, kinds=("draws",), z3=False, plays=0, shrink=0)
    for label in ("oracle", f"mutant:{name}"):

        def factory(label: str = label) -> Engine:
            return OracleEngine() if label == "oracle" else mutant(name)

        started = time.perf_counter()
        run = verify(factory, options)
        seconds = time.perf_counter() - started
        # the passes are counted per span (tally lines), the failures listed
        failing = sum(r.status is Status.FAIL and r.question == "outcome[draws]" for r in run.results)
        questions = sum(len(draw_game(seed, i, i).questions()) for i in range(games))
        print(
            f"asked outcomes, {label}: {run.positions} draw-rule positions in {seconds:.1f} s ="
            f" {60 * run.positions / seconds:.0f} per minute; at most {questions} outcome questions"
            f" ({60 * questions / seconds:.0f} per minute); {failing} failing ({_load()})"
        )


def default_run(seed: int, name: str) -> None:
    for label in ("oracle", f"mutant:{name}"):

        def factory(label: str = label) -> Engine:
            return OracleEngine() if label == "oracle" else mutant(name)

        draw_game.cache_clear()  # as the command line: the search included
        started = time.perf_counter()
        run = verify(factory, VerifyOptions(examples=300, seed=seed))
        seconds = time.perf_counter() - started
        failing = collections.Counter(r.article for r in run.results if r.status is Status.FAIL)
        print(
            f"verify --engine {label} --examples 300 --seed {seed}: {seconds:.1f} s,"
            f" failing by rule {dict(failing) or '{}'} ({_load()})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--mutant", default="6.3-fifteen-moves")
    parser.add_argument("--default-run", action="store_true")
    parser.add_argument("--versus", type=Path, help="another checkout with a .venv: the search side by side")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each checkout with --versus")
    args = parser.parse_args()
    if args.versus:
        versus(args.seed, args.games, args.versus, args.rounds)
    search(args.seed, args.games)
    asked(args.seed, args.games, args.mutant)
    if args.default_run:
        default_run(args.seed, args.mutant)


if __name__ == "__main__":
    main()
