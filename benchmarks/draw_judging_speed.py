"""How fast is the judging of ``verify``'s steered draw games (``--kind draws``), the search left out?
Figures, never a verdict.

    python benchmarks/draw_judging_speed.py [--seed 7] [--positions 120] [--engine oracle]
                                            [--rounds 3] [--versus MAIN_CHECKOUT]

The games of ``--positions`` draws positions of seed ``--seed`` are searched first (not timed: the
search is :mod:`conformance.verify.draw_campaigns`'s, remembered per process); then, ``--rounds``
times, each position's ``outcome[draws]`` row is judged as ``verify`` does it
(:meth:`conformance.verify.driver.Driver.row` with the game's questions: the oracle's outcome of
every asked prefix and the engine's, ``--engine`` ``oracle`` or a mutant's name). Printed: the
milliseconds per position (mean, median, maximum: a full collection of the garbage collector lands
on a few positions) and the outcome questions per second, with the load average (the machine may be
busy). A row that disagrees stops at its first disagreement and is filed (the reading that explains
it, :mod:`conformance.core.filing.outcomes`): a mutant's figures include that filing.

``--versus DIR`` measures another checkout too (its ``DIR/.venv``, e.g. a worktree of main), in the
same run (each checkout in a process of its own), and prints the ratio of the mean times.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min: {five:.2f})"


def measure(seed: int, positions: int, engine_name: str, rounds: int) -> dict[str, object]:
    """The figures of the checkout on ``sys.path`` (one process: the search once, then the rounds)."""
    from conformance.core.protocol import Capability
    from conformance.engines.mutants import mutant
    from conformance.engines.oracle_engine import OracleEngine
    from conformance.verify.driver import Driver
    from conformance.verify.generate import VerifyOptions, generate
    from conformance.verify.judgement import DRAWS

    options = VerifyOptions(examples=positions, seed=seed, kinds=("draws",))
    generated = [generate(seed, index, ("draws",)) for index in range(positions)]
    engine = OracleEngine() if engine_name == "oracle" else mutant(engine_name)
    driver = Driver(engine, options)
    questions = sum(len(g.game.questions()) for g in generated if g.game is not None)
    rows: list[list[float]] = []
    for _ in range(rounds):
        gc.collect()
        times = []
        for item in generated:
            assert item.game is not None
            started = time.perf_counter()
            driver.checks.new_position()
            driver.row(item, DRAWS, Capability.OUTCOME, item.game.questions())
            times.append(time.perf_counter() - started)
        rows.append(times)
    every = [t for times in rows for t in times]
    return {
        "mean_ms": 1000 * statistics.mean(every),
        "median_ms": 1000 * statistics.median(every),
        "max_ms": 1000 * max(every),
        "questions_per_s": questions * rounds / sum(every),
        "questions": questions,
    }


def _child(tree: Path, args: argparse.Namespace) -> dict[str, object]:
    command = [
        str(tree / ".venv" / "bin" / "python"),
        str(Path(__file__).resolve()),
        "--tree",
        str(tree),
        "--json",
        "--seed",
        str(args.seed),
        "--positions",
        str(args.positions),
        "--engine",
        args.engine,
        "--rounds",
        str(args.rounds),
    ]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=True)
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _line(label: str, figures: dict[str, object]) -> str:
    return (
        f"{label}: {figures['mean_ms']:.2f} ms per draws position (median {figures['median_ms']:.2f},"
        f" max {figures['max_ms']:.1f}); up to {figures['questions_per_s']:.0f} outcome questions per second"
        f" ({figures['questions']} per round, fewer where a row stops at its first disagreement)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--engine", default="oracle", help="oracle, or the name of a mutant")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--versus", type=Path, help="another checkout with a .venv, measured alike")
    parser.add_argument("--tree", type=Path, default=HERE, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.tree))
    if args.json:
        print(json.dumps(measure(args.seed, args.positions, args.engine, args.rounds)))
        return
    if args.versus is None:
        print(
            f"{_line(str(args.tree), measure(args.seed, args.positions, args.engine, args.rounds))} ({_load()})"
        )
        return
    this, other = HERE, args.versus.resolve()
    figures = {tree: _child(tree, args) for tree in (other, this)}
    for tree, found in figures.items():
        print(f"  {_line(str(tree), found)}")
    ratio = float(str(figures[other]["mean_ms"])) / float(str(figures[this]["mean_ms"]))
    print(f"{this} judges a draws position {ratio:.1f}x as fast as {other} (mean times; {_load()})")


if __name__ == "__main__":
    main()
