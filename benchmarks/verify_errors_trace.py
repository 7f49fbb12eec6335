"""What do error shrinking and ``--trace`` cost ``verify``? Seconds with and without, and what the
shrinking gives (pieces before and after, tries).

    python benchmarks/verify_errors_trace.py [--examples 20] [--seed 0]

Engines: the misbehaving JSON-lines fakes of tests/harness/fakes/faulty.py (a crash on any position
with a king, garbage when a capture exists) and the oracle's JSON-lines server (a correct engine:
no error, nothing shrunk, so no cost). Each run once, with z3 off (the engine's cost is measured,
not z3's). The trace runs: the oracle's server on 1 and 2 workers, without and with ``--trace``.
Wall-clock seconds; the machine may be shared (the load average is printed).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.engines.adapters.specs import EngineRecipe, engine_factory
from conformance.engines.adapters.trace import Trace
from conformance.verify.generate import VerifyOptions
from conformance.verify.run import verify
from oracle.position import Color

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
FAULTY = ROOT / "tests" / "harness" / "fakes" / "faulty.py"
ENGINES = {
    "crash on a king": f"jsonl:{PY} {FAULTY} --crash-on-king",
    "garbage on a capture": f"jsonl:{PY} {FAULTY} --garbage-on-capture",
    "correct (oracle server)": f"jsonl:{PY} -m conformance.servers.oracle_jsonl",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ["PYTHONPATH"] = str(ROOT)
    options = VerifyOptions(examples=args.examples, seed=args.seed, z3=False)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.examples} positions, seed {args.seed}, z3 off")
    print("\nerror shrinking (--shrink 5 vs 0):")
    for name, spec in ENGINES.items():
        started = time.perf_counter()
        plain = verify(engine_factory(spec), dataclasses.replace(options, shrink=0))
        without = time.perf_counter() - started
        started = time.perf_counter()
        run = verify(engine_factory(spec), options)
        with_shrinking = time.perf_counter() - started
        shrunk = ", ".join(
            f"{sum(e.original.count(c) for c in Color)}->{sum(e.position.count(c) for c in Color)} pieces "
            f"in {e.shrunk.tries} tries"
            for e in run.errors
        )
        errors = sum(1 for r in plain.results if r.status.value == "error")
        print(
            f"  {name:24} {without:6.2f} s unshrunk, {with_shrinking:6.2f} s shrinking; "
            f"{errors} error results; {len(run.errors)} shrunk: {shrunk or '-'}"
        )
    print("\n--trace (the oracle's server):")
    spec = ENGINES["correct (oracle server)"]
    with tempfile.TemporaryDirectory() as folder:
        for workers in (1, 2):
            for traced in (False, True):
                path = Path(folder) / f"trace-{workers}.txt"
                started = time.perf_counter()
                if traced:
                    with Trace.open(path) as trace:
                        factory = (
                            engine_factory(spec, trace=trace)
                            if workers == 1
                            else EngineRecipe.of(spec, trace=trace)
                        )
                        verify(factory, options, engine=engine_factory(spec, trace=trace)(), workers=workers)
                else:
                    factory = engine_factory(spec) if workers == 1 else EngineRecipe(spec)
                    verify(factory, options, engine=engine_factory(spec)(), workers=workers)
                seconds = time.perf_counter() - started
                size = f", {len(path.read_text().splitlines())} lines" if traced else ""
                print(f"  {workers} worker(s), trace {'on ' if traced else 'off'}: {seconds:6.2f} s{size}")


if __name__ == "__main__":
    main()
