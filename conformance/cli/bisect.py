"""``draughts-conformance bisect ENGINE``: walk a wrong perft down to the first wrong position.

    draughts-conformance bisect jsonl:"node engine.js"                  # from the start, depth 6
    draughts-conformance bisect mutant:short-kings --fen "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
    draughts-conformance bisect py-draughts --fen "W:W31-50:B1-20" --depth 8
    draughts-conformance bisect mutant:kings-step-one-square --playouts 2000 --seed 7

When no line within the depth differs, random games from the position are played (``--playouts``,
1,000 by default) and every position on the way compared: bugs that need kings on the board are
found from the start position that way, on a line that is real but not necessarily the shortest.

Prints the shortest line (PDN, from the FEN) after which the engine's legal moves differ from the
oracle's, the board, the missing and extra moves, and a case for ``cases/`` whose expectation is
to be worked out by hand (see :mod:`conformance.bisect`). ``run`` prints this command, with the
FEN and depth of the shallowest wrong perft, under its defects.

Exit status: 0 when nothing differs within the depth, 1 when something does (or the engine broke
while asked), 2 on usage errors (unknown engine spec, an engine that does not start or lacks the
capabilities, a bad FEN or depth).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable

from conformance.bisect.describe import describe
from conformance.bisect.playouts import DEFAULT_GAMES, DEFAULT_PLIES
from conformance.bisect.search import DEFAULT_DEPTH, BisectError, EngineProblem, bisect
from conformance.cli import config
from conformance.cli.commands import subcommand
from conformance.cli.start import (
    StartError,
    add_rules_option,
    chosen_rule_set,
    engine_factories,
    start_engine,
)
from conformance.core.arguments import count, positive, seconds
from conformance.core.certificate import ExitStatus
from conformance.core.protocol import Engine
from conformance.core.rule_sets import RuleSetError, plays
from conformance.engines.adapters.specs import (
    DEFAULT_TIMEOUT,
    SpecError,
    add_engine_options,
    trace_problem,
)


@subcommand(
    "bisect",
    order=60,
    help="find the shortest line after which an engine's legal moves differ from the oracle's",
    description="Compare the engine's perft divide (or, without perft, its legal-move sets) with the "
    "oracle's and descend to the shortest move sequence after which the legal moves differ; print the "
    "line, the board, the missing and extra moves and a case for cases/ (its expectation to be worked "
    "out by hand).",
    starts_engine=True,
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``bisect`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument(
        "engine",
        nargs="?",
        help="engine spec, as for run: oracle, python:MOD:ATTR, jsonl:CMD, mutant:NAME... (default: the "
        "settings file's)",
    )
    parser.add_argument("--fen", help="the position to start from (default: the start position)")
    add_rules_option(parser)
    parser.add_argument(
        "--depth",
        type=positive,
        default=DEFAULT_DEPTH,
        help=f"the deepest perft compared: lines of up to DEPTH - 1 plies (default {DEFAULT_DEPTH})",
    )
    parser.add_argument(
        "--playouts",
        type=count,
        default=DEFAULT_GAMES,
        metavar="GAMES",
        help="when no line within the depth differs, play up to GAMES random games from the position and "
        f"compare every position on the way (default {DEFAULT_GAMES}; 0: none)",
    )
    parser.add_argument(
        "--plies",
        type=positive,
        default=DEFAULT_PLIES,
        help=f"the longest random game, in plies (default {DEFAULT_PLIES})",
    )
    parser.add_argument("--seed", type=int, default=0, help="the random games' seed (default 0)")
    parser.add_argument(
        "--timeout", type=seconds, default=DEFAULT_TIMEOUT, help="seconds per request (subprocess engines)"
    )
    parser.add_argument("--no-case", action="store_true", help="do not write the ready-to-paste case")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines on standard error")
    add_engine_options(parser)  # --trace FILE, --engine-cwd DIR...
    config.bind(parser, config.ENGINE_KEYS)
    parser.set_defaults(handler=run_bisect)


def _error(message: str) -> int:
    print(f"draughts-conformance bisect: {message}", file=sys.stderr)
    return int(ExitStatus.USAGE)


def run_bisect(args: argparse.Namespace) -> int:
    """The ``bisect`` command: the report on standard output, progress on standard error."""
    config.settle(args)
    try:
        args.rule_set = chosen_rule_set(args)
    except RuleSetError as error:
        return _error(str(error))
    with contextlib.ExitStack() as stack:  # the trace file, if any, is closed once the engine is
        try:
            factory, _, chosen = engine_factories(args, stack)
        except SpecError as error:
            return _error(str(error))
        status = _bisect(args, factory)
    unwritten = trace_problem(chosen)
    return _error(unwritten) if unwritten else status


def _bisect(args: argparse.Namespace, factory: Callable[[], Engine]) -> int:
    try:
        engine = start_engine(args, factory)
    except StartError as error:
        return _error(str(error))

    if not plays(engine.info.rule_sets, args.rule_set):
        engine.close()
        declared = ", ".join(sorted(engine.info.rule_sets))
        return _error(f"the engine does not play {args.rule_set.name} (it declares {declared})")

    def progress(text: str) -> None:
        if not args.quiet:
            print(f"bisect: {text}", file=sys.stderr, flush=True)

    try:
        bisection = bisect(
            engine,
            args.fen,
            args.depth,
            games=args.playouts,
            plies=args.plies,
            seed=args.seed,
            progress=progress,
            rules=args.rule_set.rules,
        )
    except BisectError as error:
        return _error(str(error))
    except EngineProblem as problem:
        print(f"draughts-conformance bisect: the engine broke: {problem}", file=sys.stderr)
        return int(ExitStatus.FAILED)
    finally:
        engine.close()
    print(describe(bisection, args.engine, with_case=not args.no_case))
    return int(ExitStatus.FAILED if bisection.found else ExitStatus.CERTIFIED)
