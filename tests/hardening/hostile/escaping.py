"""A Python engine whose name, errors and answers carry terminal escape sequences (clear the screen,
set the window title, colour) and a bell: every view must show them escaped, never send them."""

from collections.abc import Sequence

from conformance.core.protocol import EngineError, MoveSpec
from conformance.engines.oracle_engine import OracleEngine

ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b[31m"


class Engine(OracleEngine):
    def __init__(self) -> None:
        super().__init__(name=f"escaping{ESCAPES}")

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        raise EngineError("exception", f"no moves{ESCAPES}", stderr=ESCAPES * 3)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        return f"W:W{ESCAPES}"
