"""The verifier's own model of the draw rules (Art. 6) and the game end (Art. 7.2), in one place.

* :mod:`conformance.core.draw_events` -- abstract move events, :class:`DrawRules` (the rules
  and every reading as fields), the bookkeeping read in plain Python (:class:`DrawBook`);
* :mod:`conformance.verify.draw_smt` -- any event sequence in z3 (the raw history);
* :mod:`conformance.verify.draw_machine` -- the bookkeeping as a transition system over it;
* :mod:`conformance.verify.draw_spec` -- the rules stated over the history, with helpers of its own;
* :mod:`conformance.verify.draw_bmc` -- bounded model checking of the machine against the spec, a
  property per reading and switch, with negative controls and witnesses
  (:func:`prove`; the properties are :data:`~conformance.verify.draw_properties.PROPERTIES`);
* :mod:`conformance.verify.draw_machine_mutants` and :mod:`conformance.verify.draw_mutation` -- the
  machine's mutants and the mutation score of the proofs: every piece of the machine broken in
  turn must fail one;
* :mod:`conformance.core.draw_games` -- concrete games as events, the readings as
  :class:`~oracle.game.Game` subclasses (the bridge to the oracle);
* :mod:`conformance.verify.draw_readings`, :mod:`conformance.verify.draw_search`,
  :mod:`conformance.verify.draw_realise` and :mod:`conformance.verify.draw_synthesis` -- the other
  readings, the z3 search for the events that tell one apart, the game on the board, and the
  shortest games that tell two readings apart (:func:`synthesise`, :func:`synthesise_all`,
  :func:`~conformance.verify.readings.case_yaml`).

The first six never import :mod:`oracle`: the model is written from rules.md, independently of
``oracle/game.py``. Try it::

    python -m conformance.verify.draw_model prove [--small] [--depth 64] [NAME ...]
    python -m conformance.verify.draw_model mutate [--depth 17] [--full]
    python -m conformance.verify.draw_model readings [--steps-only] [--yaml] [NAME ...]
        (the same as ``draughts-conformance verify --kind readings``)
    python -m conformance.verify.draw_model list
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from conformance.core.certificate import ExitStatus
from conformance.core.draw_events import PROJECT, DrawBook, DrawRules, outcomes
from conformance.verify.draw_bmc import SMALL, prove
from conformance.verify.draw_properties import PROPERTIES, property_named

__all__ = ["PROJECT", "PROPERTIES", "SMALL", "DrawBook", "DrawRules", "main", "outcomes", "prove"]


def _prove(args: argparse.Namespace) -> int:
    rules = SMALL if args.small else PROJECT
    chosen = [property_named(name) for name in args.names] if args.names else list(PROPERTIES)
    counts = "short counts: " if args.small else ""
    print(
        f"{counts}6.2 {rules.no_progress_moves} moves each, "
        + ", ".join(f"{g.article} {g.moves_each}" for g in rules.groups)
        + f"; every game of up to {args.depth} plies from a game start"
    )
    failed = 0
    for prop in chosen:
        result = prove(prop, args.depth, rules)
        status = f"proved to {result.depth} plies" if result.proved else f"FAILS: {result.counterexample}"
        failed += not result.proved or bool(result.unwitnessed)
        print(f"{prop.name} ({prop.reading}): {status} in {result.seconds:.1f}s")
        print(f"  {prop.statement(rules)}")
        for name, ply in result.witnesses:
            print(
                f"  witness '{name}': "
                + (f"ply {ply}" if ply is not None else f"NOT reached in {args.depth} plies")
            )
        for control in prop.controls:
            flipped = prove(prop, args.depth, rules, control, witnesses=False)
            if flipped.counterexample is None:
                failed += 1
                print(f"  control '{control.name}': NO counterexample to {args.depth} plies")
            else:
                print(f"  control '{control.name}': counterexample at ply {flipped.counterexample.ply}")
    return ExitStatus.FAILED if failed else ExitStatus.OK


def _mutate(args: argparse.Namespace) -> int:
    from conformance.verify.draw_mutation import score, table

    rules = PROJECT if args.real_counts else SMALL
    found = score(args.depth, rules, full=args.full)
    print("\n".join(table(found)))
    return ExitStatus.FAILED if found.survivors else ExitStatus.OK


def _readings(args: argparse.Namespace) -> int:
    """The same as ``draughts-conformance verify --kind readings`` (:mod:`conformance.verify.readings`)."""
    from conformance.verify.readings import ReadingsOptions, run_readings

    return run_readings(
        ReadingsOptions(tuple(args.names), args.steps_only, args.seed, args.yaml, args.write_cases)
    )


def _list(args: argparse.Namespace) -> int:
    from conformance.verify.draw_readings import READINGS

    print("properties (prove):")
    for prop in PROPERTIES:
        print(f"  {prop.name}: {prop.statement(PROJECT)}")
    print("readings (readings):")
    for reading in READINGS.values():
        print(f"  {reading.name}: {reading.concerns}")
    return ExitStatus.OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.verify.draw_model", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    prove_parser = commands.add_parser("prove", help="bounded model checking of the readings of Art. 6")
    prove_parser.add_argument("names", nargs="*", help="properties (default: all)")
    prove_parser.add_argument("--depth", type=int, default=64, help="plies (default 64)")
    prove_parser.add_argument(
        "--small", action="store_true", help="short counts (6.2: 8, 6.3: 5, 6.4: 4 moves each)"
    )
    prove_parser.set_defaults(run=_prove)
    mutate_parser = commands.add_parser(
        "mutate",
        help="break each piece of the machine in turn: some proof must fail (the mutant x property table)",
    )
    mutate_parser.add_argument("--depth", type=int, default=17, help="plies (default 17)")
    mutate_parser.add_argument("--full", action="store_true", help="every property against every mutant")
    mutate_parser.add_argument(
        "--real-counts", action="store_true", help="the real counts (default: short ones, as prove --small)"
    )
    mutate_parser.set_defaults(run=_mutate)
    readings_parser = commands.add_parser("readings", help="games that tell two readings of Art. 6 apart")
    readings_parser.add_argument("names", nargs="*", help="readings (default: all)")
    readings_parser.add_argument("--steps-only", action="store_true", help="kings step one square at a time")
    readings_parser.add_argument("--yaml", action="store_true", help="print a proposed corpus case for each")
    readings_parser.add_argument(
        "--write-cases", type=Path, metavar="DIR", help="write a proposed case file per reading into DIR"
    )
    readings_parser.add_argument("--seed", type=int, default=0)
    readings_parser.set_defaults(run=_readings)
    list_parser = commands.add_parser("list", help="the properties and the readings")
    list_parser.set_defaults(run=_list)
    args = parser.parse_args(argv)
    if getattr(args, "depth", 1) < 0:
        parser.error(f"--depth must be 0 or more, not {args.depth}")
    try:
        return int(args.run(args))
    except KeyError as error:
        print(error.args[0], file=sys.stderr)
        return ExitStatus.USAGE


if __name__ == "__main__":
    sys.exit(main())
