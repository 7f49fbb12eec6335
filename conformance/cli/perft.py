"""Perft on a Dask cluster: ``draughts-conformance perft FEN DEPTH --scheduler tcp://HOST:PORT``.

The oracle splits the tree into subtree tasks (:func:`oracle.parallel.split_perft`, transpositions
merged into weighted tasks); each task -- :func:`oracle.parallel.run_task`, a top-level function of
picklable data -- runs on a Dask worker; the counts are added up as
:func:`oracle.parallel.total` and :func:`~oracle.parallel.divide_counts` do on one machine, so the
answer equals :func:`oracle.perft.perft` (and ``divide``) exactly. The oracle itself stays free of
Dask (standard library only): this is the harness's side, next to ``verify --scheduler``
(:mod:`conformance.verify.cluster`, whose :func:`~conformance.verify.cluster.connect` it shares).

Prints the JSON of ``python -m oracle perft``. Exit status 0, or 2 on bad input or a scheduler
that cannot be reached.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Final

from conformance.cli.commands import subcommand
from conformance.core.certificate import ExitStatus
from oracle.errors import FenError
from oracle.moves import Move
from oracle.notation import pdn_text
from oracle.parallel import PerftTask, divide_counts, run_task, split_perft, total
from oracle.perft import check_depth
from oracle.position import Position

TASKS_PER_THREAD: Final = 8
"""Subtrees per worker thread of the cluster: they differ in size, the surplus keeps all busy."""


def cluster_perft(
    position: Position, depth: int, scheduler: str, *, workers: int = 2, by_route: bool = False
) -> int:
    """:func:`oracle.perft.perft` on the Dask cluster ``scheduler`` (``local``: ``workers`` processes here)."""
    from conformance.verify.cluster import connect, threads

    with connect(scheduler, workers) as client:
        tasks = split_perft(position, depth, by_route=by_route, at_least=threads(client) * TASKS_PER_THREAD)
        return total(tasks, _gathered(client, tasks))


def cluster_divide(
    position: Position, depth: int, scheduler: str, *, workers: int = 2, by_route: bool = False
) -> dict[Move, int]:
    """:func:`oracle.perft.divide` on the Dask cluster ``scheduler``."""
    from conformance.verify.cluster import connect, threads

    with connect(scheduler, workers) as client:
        at_least = threads(client) * TASKS_PER_THREAD
        tasks = split_perft(position, depth, by_route=by_route, at_least=at_least, divide=True)
        return divide_counts(position, tasks, _gathered(client, tasks))


def _gathered(client: Any, tasks: list[PerftTask]) -> list[int]:
    """Every task's count, in order (``Client.gather`` is untyped)."""
    counts: list[int] = client.gather(client.map(run_task, tasks, pure=False))
    return counts


@subcommand(
    "perft",
    order=130,
    help="the oracle's perft on a Dask cluster (python -m oracle perft --workers N for this machine)",
    description="Count the leaves of the move tree (perft) with the oracle, its subtrees run on a Dask "
    "cluster. Needs pip install 'draughts-conformance[distributed]'.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``perft`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument("fen")
    parser.add_argument("depth", type=int)
    parser.add_argument(
        "--scheduler", required=True, metavar="tcp://HOST:PORT|local", help="the Dask scheduler, or local"
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="with --scheduler local: processes (default 2)"
    )
    parser.add_argument("--divide", action="store_true", help="the count under each root move")
    parser.add_argument("--by-route", action="store_true", help="count every capture route as a move")
    parser.set_defaults(handler=run_perft)


def run_perft(args: argparse.Namespace) -> int:
    from conformance.verify.cluster import ClusterError

    try:
        position = Position.from_fen(args.fen)
        check_depth(args.depth)
    except (FenError, ValueError) as error:
        print(f"draughts-conformance: {error}", file=sys.stderr)
        return ExitStatus.USAGE
    answer: dict[str, Any] = {"fen": position.fen(), "depth": args.depth, "by_route": args.by_route}
    options = {"workers": max(1, args.workers), "by_route": args.by_route}
    try:
        if args.divide and args.depth >= 1:
            split = cluster_divide(position, args.depth, args.scheduler, **options)
            answer["divide"] = {pdn_text(position, move): count for move, count in split.items()}
            answer["nodes"] = sum(split.values())
        else:
            answer["nodes"] = cluster_perft(position, args.depth, args.scheduler, **options)
    except ClusterError as error:
        print(f"draughts-conformance: {error}", file=sys.stderr)
        return ExitStatus.USAGE
    print(json.dumps(answer, indent=2))
    return ExitStatus.OK
