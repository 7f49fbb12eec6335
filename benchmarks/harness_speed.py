"""How fast is the harness? Certifying the oracle on the whole corpus, and the JSON-lines overhead.

    python benchmarks/harness_speed.py [--requests 2000] [--repeat 3] [--slow]

1. the whole corpus (default run; ``--slow`` adds the cases tagged slow) certified in-process,
   and over the JSON-lines protocol against the reference server (``python -m
   conformance.servers.oracle_jsonl``), engine start-up excluded and shown apart;
2. per-request overhead of the JSON-lines adapter: the time of a request over the protocol minus
   the time of the same call in-process, for ``fen`` (tiny answer) and ``legal_moves`` (a
   position with 18 moves).

Goals (issue 5): the full corpus in under 5 s in-process, under 1 ms overhead per request.
Figures are best-of-``--repeat`` wall-clock times.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.adapters.jsonl import JsonlEngine
from conformance.corpus import Case, load_corpus
from conformance.engine import Engine
from conformance.oracle_engine import OracleEngine
from conformance.runner import RunOptions, run, select_cases

SERVER = [sys.executable, "-m", "conformance.servers.oracle_jsonl"]
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
    remote = JsonlEngine(SERVER, timeout=60)
    startup = time.perf_counter() - started
    try:
        counts = certify(remote, cases, options)
        seconds = best_of(args.repeat, lambda: certify(remote, cases, options))
        print(f"  over JSON-lines  {seconds:7.3f} s   {dict(counts)}   (+ {startup:.3f} s engine start-up)")

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


if __name__ == "__main__":
    main()
