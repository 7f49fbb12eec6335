"""How fast is the harness? Certifying the oracle on the whole corpus, and the JSON-lines overhead.

    python benchmarks/harness_speed.py [--requests 2000] [--repeat 3] [--slow] [--pipeline 16]

1. the whole corpus (default run; ``--slow`` adds the cases tagged slow) certified in-process,
   and over the JSON-lines protocol against the reference server (``python -m
   conformance.servers.oracle_jsonl``), one request at a time and pipelined, engine start-up
   excluded and shown apart;
2. per-request overhead of the JSON-lines adapter: the time of a request over the protocol minus
   the time of the same call in-process, for ``fen`` (tiny answer) and ``legal_moves`` (a
   position with many moves);
3. per-request overhead against a fast engine (``benchmarks/fast_engine.py``, which does almost
   no work: a request's time is the harness's and the protocol's), one request at a time and
   pipelined, side by side: the requests are sent ahead as the runner sends them, up to twice the
   pipeline.

Goals: the full corpus in under 5 s in-process, under 1 ms overhead per request (issue 5);
pipelining cuts the per-request overhead against a fast engine by at least 3x (issue 14).
Figures are best-of-``--repeat`` wall-clock times, the two ways of each pair measured in turn.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.corpus import Case, load_corpus
from conformance.core.protocol import Engine
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, run, select_cases

SERVER = [sys.executable, "-m", "conformance.servers.oracle_jsonl"]
FAST = [sys.executable, str(Path(__file__).resolve().parent / "fast_engine.py")]
BUSY = "W:WK28,K47:B1"  # two kings on open diagonals: many quiet moves


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def certify(engine: Engine, cases: list[Case], options: RunOptions) -> Counter[str]:
    counts: Counter[str] = Counter()

    class _Keep:  # the runner closes the engine it is given; keep it alive between repeats
        info = engine.info

        def __getattr__(self, name: str) -> object:
            return getattr(engine, name)

        def close(self) -> None:
            return None

    run(cases, lambda: _Keep(), options, lambda result: counts.update([result.status.value]), engine=_Keep())  # type: ignore[arg-type, return-value]
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--slow", action="store_true", help="include the cases tagged slow")
    parser.add_argument(
        "--pipeline", type=int, default=16, help="requests in flight when pipelined (default 16)"
    )
    args = parser.parse_args()
    options = RunOptions(exclude_tags=() if args.slow else ("slow",))
    corpus = load_corpus()
    cases = select_cases(corpus, options)
    questions = sum(len(case.questions) for case in cases)
    print(
        f"corpus: {len(cases)} cases, {questions} questions ({'with' if args.slow else 'without'} slow cases)"
    )

    oracle = OracleEngine()
    counts = certify(oracle, cases, options)
    seconds = best_of(args.repeat, lambda: certify(oracle, cases, options))
    print(f"  in-process       {seconds:7.3f} s   {dict(counts)}")

    started = time.perf_counter()
    remote = JsonlEngine([*SERVER, "--pipeline", "1"], timeout=60)
    startup = time.perf_counter() - started
    piped = JsonlEngine([*SERVER, "--pipeline", str(args.pipeline)], timeout=60)
    try:
        counts = certify(remote, cases, options)
        certify(piped, cases, options)
        alone, ahead = best_of_pair(
            args.repeat, lambda: certify(remote, cases, options), lambda: certify(piped, cases, options)
        )
        print(f"  over JSON-lines  {alone:7.3f} s   {dict(counts)}   (+ {startup:.3f} s engine start-up)")
        print(
            f"  pipelined ({piped.pipeline:2})  {ahead:7.3f} s   (most in flight: {piped.most_in_flight}; "
            "the reference server's own work bounds it)"
        )

        print(f"\nper-request overhead over {args.requests} requests (protocol minus in-process):")
        for label, call_remote, call_local in (
            ("fen", lambda: remote.fen("W:W31-50:B1-20"), lambda: oracle.fen("W:W31-50:B1-20")),
            (
                f"legal_moves ({len(oracle.legal_moves(BUSY))})",
                lambda: remote.legal_moves(BUSY),
                lambda: oracle.legal_moves(BUSY),
            ),
        ):
            over = best_of(args.repeat, lambda call=call_remote: [call() for _ in range(args.requests)])
            local = best_of(args.repeat, lambda call=call_local: [call() for _ in range(args.requests)])
            per_remote, per_local = over / args.requests * 1e6, local / args.requests * 1e6
            print(
                f"  {label:17} {per_remote:7.1f} us round trip, {per_local:6.1f} us in-process, "
                f"overhead {per_remote - per_local:6.1f} us"
            )
    finally:
        remote.close()
        piped.close()

    print(
        f"\nagainst a fast engine ({FAST[-1].rsplit('/', 1)[-1]}), per request, over {args.requests} requests "
        "(wall clock; in brackets the CPU of the harness + the engine):"
    )
    for method in ("fen", "legal_moves"):
        alone, ahead = fast_engine_figures(args.pipeline, method, args.requests, args.repeat)
        print(
            f"  {method:12} one at a time {alone[0]:6.1f} us ({alone[1]:5.1f} + {alone[2]:5.1f}),  "
            f"pipelined ({args.pipeline}) {ahead[0]:6.1f} us ({ahead[1]:5.1f} + {ahead[2]:5.1f}):  "
            f"{alone[0] / ahead[0]:4.1f}x less overhead"
        )


Figures = tuple[float, float, float]


def fast_engine_figures(pipeline: int, method: str, count: int, repeat: int) -> tuple[Figures, Figures]:
    """Microseconds per request against the fast engine, one at a time and pipelined, measured in
    turn: the best wall clock of ``repeat`` rounds, with the CPU the harness and the engine spent in
    that round (a fresh engine each round: its CPU is read when it exits)."""
    best: list[Figures] = [(float("inf"), 0.0, 0.0), (float("inf"), 0.0, 0.0)]
    warm = min(count, 200)
    for _ in range(repeat):
        for index, declared in enumerate((1, pipeline)):
            work = pipelined if declared > 1 else one_at_a_time
            idle = engine_cpu(declared, lambda engine, work=work: work(engine, method, (START,), warm))
            timed: list[float] = []

            def measured(
                engine: JsonlEngine, work: Callable[..., None] = work, timed: list[float] = timed
            ) -> None:
                work(engine, method, (START,), warm)
                cpu, started = time.process_time(), time.perf_counter()
                work(engine, method, (START,), count)
                timed += [time.perf_counter() - started, time.process_time() - cpu]

            spent = engine_cpu(declared, measured) - idle  # the engine's start-up and warm-up taken off
            wall, cpu = timed
            if wall / count * 1e6 < best[index][0]:
                best[index] = (wall / count * 1e6, cpu / count * 1e6, spent / count * 1e6)
    return best[0], best[1]


def engine_cpu(pipeline: int, work: Callable[[JsonlEngine], None]) -> float:
    """The CPU seconds a fast engine spends, from its start to its end, while ``work`` uses it."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    engine = JsonlEngine([*FAST, "--pipeline", str(pipeline)], timeout=60)
    try:
        work(engine)
    finally:
        engine.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime


START = "W:W31-50:B1-20"


def best_of_pair(
    repeat: int, first: Callable[[], object], second: Callable[[], object]
) -> tuple[float, float]:
    """Best-of-``repeat`` times of two ways of doing the same work, measured in turn (a busy machine
    slows both alike)."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for index, work in enumerate((first, second)):
            started = time.perf_counter()
            work()
            best[index] = min(best[index], time.perf_counter() - started)
    return best[0], best[1]


def one_at_a_time(engine: JsonlEngine, method: str, arguments: tuple[str, ...], count: int) -> None:
    call = getattr(engine, method)
    for _ in range(count):
        call(*arguments)


def pipelined(engine: JsonlEngine, method: str, arguments: tuple[str, ...], count: int) -> None:
    """``count`` calls, their requests sent ahead as the runner does (up to twice the pipeline)."""
    call = getattr(engine, method)
    ahead = min(count, 2 * engine.pipeline)
    engine.send_ahead([(method, arguments)] * ahead)
    for done in range(count):
        call(*arguments)
        if done + ahead < count:
            engine.send_ahead([(method, arguments)])


if __name__ == "__main__":
    main()
