"""How fast is the draw model? BMC depth reached per minute, and synthesis time per reading.

    python benchmarks/draw_model_speed.py [--depth 64] [--minute 60] [--small]
                                          [--properties NAME ...] [--readings NAME ...]
                                          [--no-bmc] [--no-controls] [--no-readings] [--steps-only]

Bounded model checking (conformance.verify.draw_bmc, the project's counts unless --small): each
property is checked ply by ply to --depth; printed are the seconds to reach depths 16, 32, 48 and
64 (cumulative), the depth reached within one minute (--minute), the total, the CPU time, the
ply by which every witness was reached, and the seconds its negative controls take to find their
counterexamples (each stops there; --no-controls leaves them out).

Synthesis (conformance.verify.draw_synthesis): for each reading, the seconds z3 needs to offer the
first distinguishing event sequence (the shortest), and the seconds to the confirmed concrete game
(``synthesise``, measured apart: z3 again, the realisation with the oracle's move generator, the
replay), with its length in plies and its counters.

Wall-clock seconds, with the process's CPU seconds next to them: the machine may be shared (the
load average is printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.core.draw_events import PROJECT
from conformance.verify.draw_bmc import SMALL, prove
from conformance.verify.draw_properties import PROPERTIES

MARKS = (16, 32, 48, 64)


def bmc(args: argparse.Namespace) -> None:
    rules = SMALL if args.small else PROJECT
    chosen = [p for p in PROPERTIES if not args.properties or p.name in args.properties]
    print(f"BMC to {args.depth} plies ({'short counts' if args.small else 'the real counts'}):")
    header = "".join(f"{'to ' + str(m):>9}" for m in MARKS if m <= args.depth)
    print(f"  {'property':34}{header}{'total':>9}{'cpu':>8}{'depth/min':>10}{'controls':>10}  witnesses")
    grand_wall = grand_cpu = 0.0
    for prop in chosen:
        cpu = time.process_time()
        result = prove(prop, args.depth, rules)
        cpu = time.process_time() - cpu
        cumulative, total, reached = [], 0.0, 0
        for depth, seconds in enumerate(result.seconds_per_depth):
            total += seconds
            cumulative.append(total)
            if total <= args.minute:
                reached = depth
        marks = "".join(f"{cumulative[m]:>8.1f}s" for m in MARKS if m < len(cumulative))
        status = "" if result.proved else f"  FAILS at ply {result.depth}"
        missing = f" (not reached: {', '.join(result.unwitnessed)})" if result.unwitnessed else ""
        per_minute = f"{reached}" if total > args.minute else f">={reached}"
        controls = 0.0
        for control in () if args.no_controls else prop.controls:
            flipped = prove(prop, args.depth, rules, control, witnesses=False)
            controls += flipped.seconds
            if flipped.proved:
                status += f"  control '{control.name}' NOT refuted"
        print(
            f"  {prop.name:34}{marks}{result.seconds:>8.1f}s{cpu:>7.1f}s{per_minute:>10}{controls:>9.1f}s  "
            f"by ply {result.witness_ply}{missing}{status}"
        )
        grand_wall += result.seconds
        grand_cpu += cpu
    print(f"  all {len(chosen)} properties: {grand_wall:.1f}s wall, {grand_cpu:.1f}s CPU")


def readings(args: argparse.Namespace) -> None:
    from conformance.verify.draw_readings import READINGS
    from conformance.verify.draw_search import abstract_differences
    from conformance.verify.draw_synthesis import SynthesisError, synthesise

    names = args.readings or list(READINGS)
    kind = "one-square king steps" if args.steps_only else "flying kings"
    print(f"synthesis ({kind}):")
    print(f"  {'reading':34}{'z3 first':>10}{'game':>10}{'cpu':>8}{'plies':>7}  counters")
    total_wall = total_cpu = 0.0
    for name in names:
        began = time.perf_counter()
        first = next(abstract_differences(READINGS[name]), None)
        z3_seconds = time.perf_counter() - began
        began, cpu = time.perf_counter(), time.process_time()
        try:
            game = synthesise(name, steps_only=args.steps_only)
            found = f"{game.plies:>7}  {game.counters or '-'}"
        except SynthesisError as error:
            found = f"  FAILED: {error}"
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        total_wall += wall
        total_cpu += cpu
        shortest = "-" if first is None else f"{z3_seconds:.1f}s"
        print(f"  {name:34}{shortest:>10}{wall:>9.1f}s{cpu:>7.1f}s{found}")
    print(f"  all {len(names)} readings: {total_wall:.1f}s wall, {total_cpu:.1f}s CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=64)
    parser.add_argument("--minute", type=float, default=60.0, help="seconds in the 'depth per minute' figure")
    parser.add_argument("--small", action="store_true", help="BMC with short counts")
    parser.add_argument("--properties", nargs="*", default=[])
    parser.add_argument("--readings", nargs="*", default=[])
    parser.add_argument("--no-bmc", action="store_true")
    parser.add_argument("--no-controls", action="store_true", help="do not time the negative controls")
    parser.add_argument("--no-readings", action="store_true")
    parser.add_argument("--steps-only", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if not args.no_bmc:
        bmc(args)
    if not args.no_readings:
        readings(args)


if __name__ == "__main__":
    main()
