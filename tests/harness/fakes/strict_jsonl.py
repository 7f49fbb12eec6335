"""A correct but strict JSON-lines engine: the oracle, refusing every position where a side has no
pieces, as Scan does (a game reaches one only at its end): it answers ``illegal`` about the position
(protocol 1.1) to every request with such a FEN, ``valid: false`` to ``fen`` for an invalid one.
Not standard library only: it wraps the oracle's server."""

import sys
from collections.abc import Mapping, Sequence

from conformance.core.protocol import FenAnswer, MoveSpec, MoveTextAnswer, OutcomeAnswer, PositionRefused
from conformance.engines.oracle_engine import OracleEngine
from conformance.servers.oracle_jsonl import serve
from oracle.errors import FenError
from oracle.position import Color, Position


def refuse_lone_sides(fen: str) -> None:
    """PositionRefused when a side of the (valid) position has no pieces; an invalid FEN passes on."""
    try:
        position = Position.from_fen(fen)
    except FenError:
        return
    for colour in Color:
        if not position.squares(colour):
            raise PositionRefused(f"bad position: {colour.name.lower()} has no pieces")


class StrictOracle(OracleEngine):
    def fen(self, fen: str) -> FenAnswer:
        refuse_lone_sides(fen)
        return super().fen(fen)

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        refuse_lone_sides(fen)
        return super().legal_moves(fen)

    def move_count(self, fen: str) -> int:
        refuse_lone_sides(fen)
        return super().move_count(fen)

    def perft(self, fen: str, depth: int) -> int:
        refuse_lone_sides(fen)
        return super().perft(fen, depth)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        refuse_lone_sides(fen)
        return super().play(fen, moves)

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        refuse_lone_sides(fen)
        return super().parse_move(fen, text, notation)

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        refuse_lone_sides(fen)
        return super().format_move(fen, move, notation)

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        refuse_lone_sides(fen)
        return super().outcome(fen, counters, moves)


sys.exit(serve(StrictOracle(name="strict"), sys.stdin.buffer, sys.stdout.buffer, sys.stderr))
