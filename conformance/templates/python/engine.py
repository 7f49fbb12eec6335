"""A starter in-process engine for draughts-conformance: it declines every question until you answer it.

    draughts-conformance run      # in this folder: draughts-conformance.toml names this engine
    draughts-conformance run python:engine:Engine           # the same, without the settings file

A declined question is a ``skip``: never scored, never certified. Answer one (plug your library in
where the comments say) and the suite starts scoring it. The contract: docs/engines-python.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from conformance.core.protocol import BaseEngine, EngineDeclined, EngineInfo
from conformance.core.protocol import Capability as C

# import mydraughts  # <- your library

# Remove the capabilities you will never answer: their questions become 'unsupported', not 'skip'.
CAPABILITIES = frozenset({C.FEN, C.INITIAL_POSITION, C.LEGAL_MOVES, C.MOVE_COUNT, C.PERFT, C.PLAY})
CAPABILITIES |= {C.PARSE_MOVE, C.FORMAT_MOVE, C.OUTCOME, C.COUNTERS}


class Engine(BaseEngine):
    """One instance per worker. Every method not written here is declined by BaseEngine
    (fen, move_count, perft, format_move, initial_position, choose_move)."""

    info = EngineInfo("my-engine", "0.1", CAPABILITIES, adapter="in-process")

    def legal_moves(self, fen: str) -> Sequence[Any]:
        # board = mydraughts.Board(fen)  # a position you do not take: raise PositionRefused(why)
        # return [(m.start, m.end, m.captured) for m in board.legal_moves()]  # (from, to, captured)
        raise EngineDeclined("legal_moves is not implemented yet")

    def play(self, fen: str, moves: Sequence[str]) -> str:
        # board = mydraughts.Board(fen)
        # for ply, text in enumerate(moves, start=1):  # PDN move texts
        #     if not board.is_legal(text):
        #         raise MoveRefused(text, ply)  # you hold it illegal: a fail of its rule if it is not
        #     board.push(text)
        # return board.fen()
        raise EngineDeclined("play is not implemented yet")

    def parse_move(self, fen: str, text: str, notation: str) -> Any:
        # return {"verdict": "legal", "move": (32, 28, ())}  # or illegal / ambiguous / malformed
        raise EngineDeclined("parse_move is not implemented yet")

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> Any:
        # counters: occurrences, no_progress_plies, endgame_plies of the setup position (Art. 6)
        # return {"result": "draw", "rule": "6.1", "ply": 8}  # or {"result": "ongoing"}
        raise EngineDeclined("outcome is not implemented yet")

    def close(self) -> None:
        pass  # release what __init__ took (a process, a file): called once, when the worker is done
