"""How fast is the z3 verification? Time per position, next to the oracle's, on seeded position sets.

    python benchmarks/verify_speed.py [--seed 2026] [--random 300] [--rich 300] [--chains 150]
                                      [--workers 2] [--timeout-ms 10000]
                                      [--driver 2000] [--mutant-seeds 20]
    python benchmarks/verify_speed.py --cli 600 [--versus /work/wt/land2] [--cli-workers 1 2]
                                      [--rounds 2] [--cli-engine oracle] [--cli-seed 7]

Three fixed, seeded sets (conformance.verify.strategies with a seeded chooser): random valid
positions, capture-rich positions (pieces en prise, kings on the long diagonals) and long-chain
positions (a capture of 8-12 pieces built in). For each position, each measured on a fresh solver:

* optimality -- build the formula and prove the maximum capture ``m`` (a capture of ``m``, UNSAT
  for ``m + 1``);
* full check -- the same, then enumerate every maximum capture with blocking clauses;
* verify -- ``verify_position`` on the oracle's answer: the full check plus soundness of every
  listed capture, completeness, compulsory capture, quiet moves, captured squares;
* oracle -- ``oracle.moves.legal_moves`` on the same position.

Prints median, 95th percentile, maximum and mean per set (wall-clock milliseconds, and the
median CPU time of the process: the machine may be busy with other work, the load average is
printed), the verified positions per minute of one process, and, with ``--workers N``, of N
processes over all the sets. Every z3
answer is also compared with the oracle's captures; a disagreement is printed and fails the run.

Opt-in, the ``verify`` driver (conformance.verify.run) end to end: ``--driver N`` runs the oracle
through N generated positions without z3 and N/5 with z3 (every check: legal moves, invariants,
symmetry, positions after moves, endgame outcomes) and prints positions per second;
``--mutant-seeds K`` prints, for each capture mutant, how many positions z3 and the invariants
alone (no oracle) need to catch it, over seeds 0..K-1.

``--cli N`` measures the command a user types instead, ``draughts-conformance verify --engine
oracle -n N --seed S --workers W`` (every kind, z3 on every position, the draw-rule table at the
end), for each ``--cli-workers`` W, as a child process: its wall-clock time and the CPU time of it
and its worker processes. CPU per position is the primary figure (the machine may be loaded: CPU
time barely depends on the load, wall time does); positions per minute (wall) comes second.
``--versus DIR`` runs the same command from another checkout with a venv (``DIR/.venv``, e.g. a
worktree of main) in the same run, alternating round by round, and prints the ratio; the two
reports are compared result by result, clocks aside.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.engines.mutants import CAPTURE_MUTANTS, mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify import strategies as gen
from conformance.verify.capture_formula import DEFAULT_TIMEOUT_MS
from conformance.verify.checks import verify_position
from conformance.verify.choices import RandomChooser
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify
from conformance.verify.smt import CaptureSolver
from oracle.moves import legal_moves
from oracle.position import Position

TARGET_MEDIAN_MS = 20.0
TARGET_MAX_MS = 2000.0
TARGET_PER_MINUTE = 1000


def position_sets(
    seed: int, random_count: int, rich_count: int, chain_count: int
) -> dict[str, list[Position]]:
    """The fixed sets: the same seed gives the same positions on every machine."""
    return {
        "random": [gen.random_position(RandomChooser(seed * 100_003 + i)) for i in range(random_count)],
        "capture-rich": [
            gen.capture_rich_position(RandomChooser(seed * 200_003 + i)) for i in range(rich_count)
        ],
        "long-chain": [
            gen.long_chain_position(RandomChooser(seed * 300_007 + i)) for i in range(chain_count)
        ],
    }


def timed(function: Callable[[], object]) -> tuple[float, float, object]:
    """Wall-clock and CPU seconds of one call (z3 runs in this process, on one thread)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def measure(position: Position, timeout_ms: int) -> dict[str, float | int | bool]:
    """Seconds (wall and CPU) for each measured task on one position, its maximum, the agreement."""
    oracle_wall, oracle_cpu, moves = timed(lambda: legal_moves(position))
    assert isinstance(moves, list)
    optimality_wall, optimality_cpu, _ = timed(lambda: CaptureSolver(position, timeout_ms).maximum())

    def full() -> tuple[int, set[tuple[int, int, frozenset[int]]]]:
        solver = CaptureSolver(position, timeout_ms)
        m, _ = solver.maximum()
        return m, {capture.key for capture in solver.maximal_captures()}

    full_wall, full_cpu, result = timed(full)
    assert isinstance(result, tuple)
    m, found = result
    verify_wall, verify_cpu, findings = timed(lambda: verify_position(position, moves, timeout_ms=timeout_ms))
    agree = found == {move.key for move in moves if move.captured} and findings == []
    return {
        "oracle": oracle_wall,
        "oracle-cpu": oracle_cpu,
        "optimality": optimality_wall,
        "optimality-cpu": optimality_cpu,
        "full": full_wall,
        "full-cpu": full_cpu,
        "verify": verify_wall,
        "verify-cpu": verify_cpu,
        "m": m,
        "agree": agree,
    }


def _verify_only(fen: str) -> bool:
    position = Position.from_fen(fen)
    return verify_position(position, legal_moves(position)) == []


def driver_figures(seed: int, examples: int) -> bool:
    """The oracle through the verify driver, without and with z3: positions per second."""
    print()
    print(f"the verify driver on the oracle (seed {seed}; every check of every position)")
    ok = True
    for z3, count in ((False, examples), (True, max(1, examples // 5))):
        start = time.perf_counter()
        run = verify(OracleEngine, VerifyOptions(examples=count, seed=seed, z3=z3))
        elapsed = time.perf_counter() - start
        ok = ok and run.exit_status == 0
        print(
            f"  z3 {'on ' if z3 else 'off'}: {count} positions, {len(run.results)} results in {elapsed:.1f} s: "
            f"{count / elapsed:,.0f} positions/s ({run.summary.counts['pass']} pass)"
        )
    return ok


def mutant_figures(seeds: int, examples: int = 200) -> None:
    """Positions until each capture mutant is caught by z3 and the invariants alone."""
    print()
    print(
        f"capture mutants: positions until caught by z3 + invariants alone (no oracle), seeds 0..{seeds - 1}"
    )
    for name in CAPTURE_MUTANTS:
        firsts: list[int] = []
        for seed in range(seeds):
            options = VerifyOptions(
                examples=examples, seed=seed, differential=False, plays=0, shrink=0, engine_timeout=2
            )
            run = verify(functools.partial(mutant, name), options)
            failing = [
                int(r.case.rsplit("-", 1)[1])
                for r in run.results
                if r.status.value == "fail" and r.question != "initial_position"
            ]
            firsts.append(min(failing) + 1 if failing else examples + 1)
        missed = sum(1 for first in firsts if first > examples)
        print(
            f"  {name:<30} median {statistics.median(firsts):>5.1f}  max {max(firsts):>4}"
            + (f"  NOT CAUGHT in {missed} seed(s) of {examples} positions" if missed else "")
        )


CLOCKS = frozenset({"duration_ms", "duration_s", "started", "finished", "chain", "elapsed_s"})


def _comparable(report: Path) -> list[dict[str, object]]:
    """The report's lines, clocks (and the hash chain, which covers them) aside."""
    lines = [json.loads(line) for line in report.read_text().splitlines() if line.strip()]
    return [{k: v for k, v in line.items() if k not in CLOCKS} for line in lines]


def cli_run(checkout: Path, args: Sequence[str], report: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the command and its worker processes) of ``verify`` from
    ``checkout``'s venv."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [str(checkout / ".venv" / "bin" / "draughts-conformance"), "verify", *args, "--report", str(report)],
        cwd=checkout,
        stdout=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def cli_figures(
    examples: int, seed: int, engine: str, workers: Sequence[int], versus: Path | None, rounds: int
) -> bool:
    """``verify`` as typed, from this checkout and ``versus``: CPU ms per position, positions/min."""
    here = Path(__file__).resolve().parent.parent
    checkouts = {"this": here} | ({"versus": versus.resolve()} if versus else {})
    print()
    print(f"verify --engine {engine} -n {examples} --seed {seed} (every kind, z3 on), {rounds} round(s)")
    if versus:
        print(f"  versus: {versus}")
    print(f"  {load_text()}")
    print(
        f"  {'checkout':<9}{'workers':>8}{'CPU ms/pos':>12}{'CPU pos/min/core':>18}{'wall s':>9}{'pos/min':>9}"
    )
    same = True
    with tempfile.TemporaryDirectory() as scratch:
        for count in workers:
            figures: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
            args = ["--engine", engine, "-n", str(examples), "--seed", str(seed), "--workers", str(count)]
            args += ["--no-progress"]
            for _ in range(rounds):
                for name, checkout in checkouts.items():
                    figures[name].append(cli_run(checkout, args, Path(scratch) / f"{name}-{count}.jsonl"))
            for name in checkouts:
                wall = statistics.median(w for w, _ in figures[name])
                cpu = statistics.median(c for _, c in figures[name])
                print(
                    f"  {name:<9}{count:>8}{1000 * cpu / examples:>12.1f}{60 * examples / cpu:>18,.0f}"
                    f"{wall:>9.1f}{60 * examples / wall:>9,.0f}"
                )
            if versus:
                cpu_ratio = statistics.median(c for _, c in figures["versus"]) / statistics.median(
                    c for _, c in figures["this"]
                )
                wall_ratio = statistics.median(w for w, _ in figures["versus"]) / statistics.median(
                    w for w, _ in figures["this"]
                )
                agree = _comparable(Path(scratch) / f"this-{count}.jsonl") == _comparable(
                    Path(scratch) / f"versus-{count}.jsonl"
                )
                same = same and agree
                print(
                    f"  {count} worker(s): {cpu_ratio:.2f}x less CPU per position, {wall_ratio:.2f}x the wall "
                    f"rate; the two reports {'are the same' if agree else 'DIFFER'} result by result, clocks aside"
                )
    print(f"  {load_text()}")
    return same


def load_text() -> str:
    return f"load average {', '.join(f'{load:.2f}' for load in os.getloadavg())} ({os.cpu_count()} CPUs)"


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--random", type=int, default=300, help="random valid positions")
    parser.add_argument("--rich", type=int, default=300, help="capture-rich positions")
    parser.add_argument("--chains", type=int, default=150, help="long-chain positions (8-12 pieces)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the throughput run (0: skip)")
    parser.add_argument("--timeout-ms", type=int, default=DEFAULT_TIMEOUT_MS)
    parser.add_argument("--driver", type=int, default=0, help="positions through the verify driver (0: skip)")
    parser.add_argument("--mutant-seeds", type=int, default=0, help="seeds per capture mutant (0: skip)")
    parser.add_argument("--cli", type=int, default=0, help="positions of the verify command alone (0: skip)")
    parser.add_argument("--cli-workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--cli-engine", default="oracle")
    parser.add_argument("--cli-seed", type=int, default=7)
    parser.add_argument("--versus", type=Path, help="another checkout with a .venv, measured alike")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of the --cli measurement")
    args = parser.parse_args(argv)
    if args.cli > 0:
        same = cli_figures(
            args.cli, args.cli_seed, args.cli_engine, args.cli_workers, args.versus, args.rounds
        )
        return 0 if same else 1

    sets = position_sets(args.seed, args.random, args.rich, args.chains)
    measure(Position.from_fen("W:WK38:B18,19,32,33"), args.timeout_ms)  # warm z3 up
    print(f"z3 verification speed, seed {args.seed}, timeout {args.timeout_ms} ms per solver call")
    print(
        f"load average at start: {', '.join(f'{load:.2f}' for load in os.getloadavg())} ({os.cpu_count()} CPUs)"
    )
    print("wall-clock milliseconds per position; 'cpu med' = median CPU time of this process")
    header = f"{'set':<13}{'n':>5}{'capt.':>7}{'mean m':>8}{'max m':>7}  {'task':<11}"
    header += f"{'median':>9}{'p95':>9}{'max':>9}{'mean':>9}{'cpu med':>9}"
    print(header)
    all_results: list[dict[str, float | int | bool]] = []
    disagreements = 0
    for name, positions in sets.items():
        results = [measure(position, args.timeout_ms) for position in positions]
        all_results += results
        for position, result in zip(positions, results, strict=True):
            if not result["agree"]:
                disagreements += 1
                print(f"  DISAGREEMENT with the oracle: {position.fen()}")
        ms = [int(result["m"]) for result in results]
        capturing = sum(1 for m in ms if m > 0)
        first = True
        for task in ("optimality", "full", "verify", "oracle"):
            times = [1000 * float(result[task]) for result in results]
            cpu = [1000 * float(result[f"{task}-cpu"]) for result in results]
            label = (
                f"{name:<13}{len(results):>5}{capturing:>7}{statistics.mean(ms):>8.2f}{max(ms):>7}"
                if first
                else " " * 40
            )
            first = False
            print(
                f"{label}  {task:<11}{statistics.median(times):>9.2f}{percentile(times, 0.95):>9.2f}"
                f"{max(times):>9.2f}{statistics.mean(times):>9.2f}{statistics.median(cpu):>9.2f}"
            )
    full_times = [1000 * float(result["full"]) for result in all_results]
    verify_times = [float(result["verify"]) for result in all_results]
    verify_cpu = [float(result["verify-cpu"]) for result in all_results]
    oracle_times = [float(result["oracle"]) for result in all_results]
    random_full = [1000 * float(result["full"]) for result in all_results[: len(sets["random"])]]
    per_minute = 60 / statistics.mean(verify_times)
    print()
    print(f"all sets: full check median {statistics.median(full_times):.2f} ms, max {max(full_times):.1f} ms")
    print(
        f"z3 verify / oracle legal_moves, mean time ratio: {statistics.mean(verify_times) / statistics.mean(oracle_times):.0f}x"
    )
    print(
        f"one process: {per_minute:,.0f} verified positions per minute (verify_position on the oracle's "
        f"answer); {60 / statistics.mean(verify_cpu):,.0f} by CPU time, i.e. on an otherwise idle core"
    )
    ok = disagreements == 0
    if args.workers > 0:
        fens = [position.fen() for positions in sets.values() for position in positions]
        with multiprocessing.Pool(args.workers) as pool:
            start = time.perf_counter()
            passed = pool.map(_verify_only, fens, chunksize=8)
            elapsed = time.perf_counter() - start
        rate = 60 * len(fens) / elapsed
        print(
            f"{args.workers} processes: {rate:,.0f} verified positions per minute ({len(fens)} positions, {elapsed:.1f} s)"
        )
        ok = ok and all(passed)
        per_minute = max(per_minute, rate)
    print()
    print(
        f"goals: random median < {TARGET_MEDIAN_MS:.0f} ms: {statistics.median(random_full):.2f} ms; "
        f"no position > {TARGET_MAX_MS / 1000:.0f} s: max {max(full_times + [1000 * t for t in verify_times]):.0f} ms; "
        f">= {TARGET_PER_MINUTE} per minute: {per_minute:,.0f}"
    )
    if disagreements:
        print(f"{disagreements} disagreement(s) between z3 and the oracle")
    if args.driver > 0:
        ok = driver_figures(args.seed, args.driver) and ok
    if args.mutant_seeds > 0:
        mutant_figures(args.mutant_seeds)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
