"""``python -m oracle``: the oracle on the command line, answering in JSON.

    python -m oracle moves FEN [--rules NAME|FILE]
    python -m oracle perft FEN DEPTH [--rules NAME|FILE] [--divide] [--by-route] [--workers N]
    python -m oracle play FEN MOVE... [--rules NAME|FILE] [--notation pdn|hub]
    python -m oracle game FILE.pdn [--rules NAME|FILE]      (FILE "-" reads standard input)

``--rules`` names the game: a built-in rule set (international, the default; brazilian, canadian,
russian, pool, american) or a rules file (YAML or JSON, :mod:`oracle.ruleset`). FEN ``start`` is
the rule set's initial position. Every answer under another rule set names it (``"rules"``).

Bad input prints one line on stderr and exits with status 2. A reader that closes the output
early (``| head``) ends the command quietly with status 141, as a command killed by SIGPIPE
(128 + 13) ends in the shell: nothing is printed, and ``set -o pipefail`` still sees that the
output was cut. Ctrl-C ends it with status 130 and SIGTERM with 143, also without a traceback
(and with ``--workers``, after stopping the worker processes).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any, Final, NoReturn

from oracle.errors import FenError, GameOverError, MoveError, PdnError, RulesError, SetupError, excerpt
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, hub_text, parse_move, pdn_text
from oracle.parallel import parallel_divide, parallel_perft
from oracle.pdn import read_file, read_games
from oracle.perft import check_depth, divide, perft
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules
from oracle.ruleset import load_rules

START: Final = "start"
"""The FEN argument that means the rule set's initial position."""

USAGE_ERROR = 2
CLOSED_OUTPUT = 128 + signal.SIGPIPE
INTERRUPTED = 128 + signal.SIGINT
TERMINATED = 128 + signal.SIGTERM
MAX_WORKERS = 1024


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def move_json(position: Position, move: Move, rules: Rules = INTERNATIONAL) -> dict[str, Any]:
    """A move as JSON: from, to, sorted captured squares, PDN and Hub text."""
    return {
        "from": move.from_square,
        "to": move.to_square,
        "captured": sorted(move.captured),
        "pdn": pdn_text(position, move, rules),
        "hub": hub_text(move),
    }


def _sorted_moves(position: Position, rules: Rules) -> list[Move]:
    moves = legal_moves(position, rules)
    return sorted(moves, key=lambda m: (m.from_square, m.to_square, sorted(m.captured)))


def _named(rules: Rules) -> dict[str, str]:
    """``{"rules": name}`` for a game other than international (whose answers stay as they were)."""
    return {} if rules == INTERNATIONAL and rules.name == INTERNATIONAL.name else {"rules": rules.name}


def _position(args: argparse.Namespace) -> tuple[Position, Rules]:
    """The rule set of ``--rules`` and the position of the FEN argument read under it."""
    rules = load_rules(args.rules)
    if args.fen == START:
        return Position.initial(rules), rules
    return Position.from_fen(args.fen, rules), rules


def _moves(args: argparse.Namespace) -> dict[str, Any]:
    position, rules = _position(args)
    moves = _sorted_moves(position, rules)
    answer: dict[str, Any] = {
        **_named(rules),
        "fen": position.fen(),
        "turn": str(position.turn),
        "count": len(moves),
        "moves": [move_json(position, move, rules) for move in moves],
    }
    if not moves:
        answer["lost"] = "the side to move has no legal move (Art. 7.2)"
    return answer


def _perft(args: argparse.Namespace) -> dict[str, Any]:
    position, rules = _position(args)
    check_depth(args.depth)
    answer: dict[str, Any] = {
        **_named(rules),
        "fen": position.fen(),
        "depth": args.depth,
        "by_route": args.by_route,
    }
    workers, by_route = args.workers, args.by_route
    if args.divide and args.depth >= 1:
        if workers > 1:
            split = parallel_divide(position, args.depth, rules, workers=workers, by_route=by_route)
        else:
            split = divide(position, args.depth, rules, by_route=by_route)
        answer["divide"] = {pdn_text(position, move, rules): count for move, count in split.items()}
        answer["nodes"] = sum(split.values())
    elif workers > 1:
        answer["nodes"] = parallel_perft(position, args.depth, rules, workers=workers, by_route=by_route)
    else:
        answer["nodes"] = perft(position, args.depth, rules, by_route=by_route)
    return answer


def _play(args: argparse.Namespace) -> dict[str, Any]:
    position, rules = _position(args)
    notation = Notation(args.notation)
    played = []
    for number, text in enumerate(args.moves, start=1):
        try:
            move = parse_move(position, text, notation, rules)
        except MoveError as error:
            raise MoveError(f"move {number} ({excerpt(text)}): {error}") from error
        played.append(move_json(position, move, rules))
        position = play(position, move, rules)
    return {**_named(rules), "fen": position.fen(), "moves": played}


def _game(args: argparse.Namespace) -> dict[str, Any]:
    """Replay every game of a PDN file: tags, plies, outcome (Art. 6, 7) and final FEN of each."""
    rules = load_rules(args.rules)
    games = read_games(sys.stdin.read(), rules) if args.file == "-" else read_file(args.file, rules)
    if not games:
        raise PdnError(f"{args.file}: no PDN game found")
    return {
        **_named(rules),
        "file": args.file,
        "count": len(games),
        "games": [game.to_json() for game in games],
    }


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m oracle",
        description="The draughts reference oracle (FMJD rules, or another game's rule set with --rules).",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    rules_help = "the game: a built-in rule set (default international) or a rules file (YAML/JSON)"
    fen_help = "PDN FEN, e.g. W:W31-50:B1-20, or 'start': the rule set's initial position"

    moves = commands.add_parser("moves", help="list the legal moves of a position")
    moves.add_argument("fen", help=fen_help)
    moves.set_defaults(handler=_moves)

    counting = commands.add_parser("perft", help="count leaf nodes to a depth")
    counting.add_argument("fen", help=fen_help)
    counting.add_argument("depth", type=int)
    counting.add_argument("--divide", action="store_true", help="split the count by first move")
    counting.add_argument("--by-route", action="store_true", help="count every capture route as a move")
    counting.add_argument(
        "--workers",
        type=_workers,
        default=1,
        metavar="N",
        help="count on N processes, the tree split into subtrees (default 1: this process)",
    )
    counting.set_defaults(handler=_perft)

    playing = commands.add_parser("play", help="play moves from a position and print the result")
    playing.add_argument("fen", help=fen_help)
    playing.add_argument("moves", nargs="+", metavar="MOVE")
    playing.add_argument("--notation", choices=[n.value for n in Notation], default="pdn")
    playing.set_defaults(handler=_play)

    replaying = commands.add_parser("game", help="replay the games of a PDN file and print their outcomes")
    replaying.add_argument(
        "file", metavar="FILE", help="a PDN file of one or more games ('-': standard input)"
    )
    replaying.set_defaults(handler=_game)
    for command in (moves, counting, playing, replaying):
        command.add_argument("--rules", default="international", metavar="NAME|FILE", help=rules_help)
    return parser


def _workers(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and 1 <= int(text) <= MAX_WORKERS):
        raise argparse.ArgumentTypeError(
            f"{excerpt(text)}: the number of worker processes must be 1 to {MAX_WORKERS}"
        )
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    in_main_thread = threading.current_thread() is threading.main_thread()  # signals need it
    previous = signal.signal(signal.SIGTERM, _exit_on_sigterm) if in_main_thread else None
    try:
        answer = args.handler(args)
        json.dump(answer, sys.stdout, indent=2)
        sys.stdout.write("\n")
        sys.stdout.flush()  # here, where a closed pipe can still be caught
    except BrokenPipeError:
        # Nothing more can be written; point stdout at /dev/null so that the interpreter's
        # final flush does not complain again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return CLOSED_OUTPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    except (
        FenError,
        MoveError,
        PdnError,
        RulesError,
        SetupError,
        GameOverError,
        ValueError,
        OSError,
    ) as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
    return 0


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """SIGTERM unwinds like Ctrl-C does, so that worker processes are stopped on the way out."""
    raise SystemExit(TERMINATED)
