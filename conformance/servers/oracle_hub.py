"""The reference oracle as a Hub engine: ``python -m conformance.servers.oracle_hub``.

It speaks the Hub protocol (version 2, Scan's ``protocol.txt``) on stdin and stdout and plays a
legal move of the oracle (:mod:`oracle.moves`): the first one in the oracle's order, or a random
one with ``--choice random`` (``--seed`` makes it repeatable). It does not search: ``level`` is
accepted and ignored, and ``go think``/``ponder``/``analyze`` answer at once. In a position
without a legal move (Art. 7.2) it answers a bare ``done``, as ``dame hub`` does (the protocol
says a GUI never asks that).

Lines understood: ``hub``, ``set-param`` (ignored: no parameters), ``init``, ``new-game``,
``pos pos=<51 chars> [moves="..."]`` (Hub move texts played from ``pos``), ``level``, ``go``,
``stop``, ``ponder-hit``, ``ping``, ``quit``; anything else is ignored. A refused ``pos`` answers
``error message="..."`` and clears the position; ``go`` without a position answers
``error message="..."`` and a bare ``done``. End of input quits. Standard library and oracle only.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable, Sequence
from typing import Final, TextIO

import oracle
from oracle.errors import FenError, MoveError
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, hub_text, parse_move
from oracle.position import Color, Position

Chooser = Callable[[list[Move]], Move]

_ARGUMENT: Final = re.compile(r'\s*([^\s="]+)(?:=(?:"([^"]*)"|([^\s"]*)))?(?=\s|$)')


def parse_line(text: str) -> tuple[str, dict[str, str]]:
    """``(command, arguments)`` of a Hub line (a flag maps to ``""``); ``ValueError`` if it is not Hub.

    (The harness's adapter, :mod:`conformance.engines.adapters.hub`, has the strict reader; this server
    stays standard library and oracle only.)
    """
    words = text.split(None, 1)
    if not words:
        raise ValueError("an empty line")
    command, rest = words[0], (words[1] if len(words) > 1 else "")
    args: dict[str, str] = {}
    position = 0
    rest = rest.rstrip()
    while position < len(rest):
        match = _ARGUMENT.match(rest, position)
        if match is None:
            raise ValueError(f"cannot read the arguments from column {position + 1}: {rest[position:]!r}")
        args[match.group(1)] = match.group(2) if match.group(2) is not None else match.group(3) or ""
        position = match.end()
    return command, args


def hub_value(value: str) -> str:
    """A value as Hub writes it: double-quoted if empty or holding a blank or ``=``."""
    if value == "" or any(character in value for character in ' \t="'):
        return '"' + value.replace('"', "'") + '"'
    return value


_PIECES = {"w": ("white", "man"), "b": ("black", "man"), "W": ("white", "king"), "B": ("black", "king")}


def position_from_hub(text: str) -> Position:
    """The position of a Hub ``pos=`` value; :class:`FenError` saying what is wrong with it."""
    if len(text) != 51:
        raise FenError(f"a Hub position is 51 characters (side to move + 50 squares), not {len(text)}")
    if text[0] not in "WB":
        raise FenError(f"the side to move must be 'W' or 'B', not {text[0]!r}")
    squares: dict[tuple[str, str], set[int]] = {kind: set() for kind in _PIECES.values()}
    for square, character in enumerate(text[1:], start=1):
        if character == "e":
            continue
        if character not in _PIECES:
            raise FenError(f"square {square}: {character!r} is not one of w, b, W, B, e")
        squares[_PIECES[character]].add(square)
    return Position.from_squares(
        Color.WHITE if text[0] == "W" else Color.BLACK,
        white_men=squares["white", "man"],
        white_kings=squares["white", "king"],
        black_men=squares["black", "man"],
        black_kings=squares["black", "king"],
    )


class HubServer:
    """The Hub engine loop over two text streams."""

    def __init__(self, choose: Chooser, output: TextIO) -> None:
        self.choose = choose
        self.output = output
        self.position: Position | None = None

    def send(self, line: str) -> None:
        self.output.write(line + "\n")
        self.output.flush()

    def handle(self, text: str) -> bool:
        """Answer one line; ``False`` once the engine should quit."""
        if not text.strip():
            return True
        try:
            command, args = parse_line(text)
        except ValueError as error:
            self.send(f"error message={hub_value(f'not a Hub line: {error}')}")
            return True
        if command == "hub":
            self.send(
                f"id name=oracle version={hub_value(oracle.__version__)} author={hub_value('draughts-conformance')}"
            )
            self.send("wait")
        elif command == "init":
            self.send("ready")
        elif command == "ping":
            self.send("pong")
        elif command == "new-game":
            self.position = None
        elif command == "pos":
            self._set_position(args.get("pos", ""), args.get("moves", ""))
        elif command == "go":
            self._go()
        elif command == "quit":
            return False
        # set-param, level, stop, ponder-hit and unknown commands: nothing to do
        return True

    def _set_position(self, text: str, moves: str) -> None:
        try:
            position = position_from_hub(text)
            for move_text in moves.split():
                position = play(position, parse_move(position, move_text, Notation.HUB))
        except (FenError, MoveError) as error:
            self.position = None
            self.send(f"error message={hub_value(str(error))}")
            return
        self.position = position

    def _go(self) -> None:
        if self.position is None:
            self.send(f"error message={hub_value('go without a valid position')}")
            self.send("done")
            return
        moves = legal_moves(self.position)
        if not moves:
            self.send("done")
            return
        self.send(f"done move={hub_text(self.choose(moves))}")


def chooser(choice: str, seed: int | None) -> Chooser:
    if choice == "first":
        return lambda moves: moves[0]
    generator = random.Random(seed)
    return generator.choice


def serve(choose: Chooser, input_stream: TextIO = sys.stdin, output: TextIO = sys.stdout) -> None:
    server = HubServer(choose, output)
    for line in input_stream:
        if not server.handle(line.rstrip("\r\n")):
            return


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.servers.oracle_hub",
        description="The reference oracle as a Hub engine (stdin/stdout): plays a legal move.",
    )
    parser.add_argument(
        "--choice", choices=("first", "random"), default="first", help="which legal move to play"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of --choice random")
    options = parser.parse_args(argv)
    try:
        serve(chooser(options.choice, options.seed))
    except (KeyboardInterrupt, BrokenPipeError):
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
