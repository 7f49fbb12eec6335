"""dame-rs (module ``dame``) as an engine over the JSON-lines protocol.

    <engines dir>/dame-rs/bin/python -I -m conformance.servers.dame_jsonl

Run with the Python of dame-rs's own venv (``draughts-conformance engines install dame-rs``);
``draughts-conformance run dame-rs`` does that for you (:mod:`conformance.engines.thirdparty`).

Every question is answered by dame's own API, and nothing of dame's answer is corrected here:

- ``fen``: ``dame.Board(text)`` on the raw text; ``ValueError`` = not accepted; else the
  position it read is ``board.fen()``
- ``initial_position``: ``dame.Board().fen()`` (a board made without a FEN)
- ``legal_moves``: ``board.legal_moves`` (``from_square``, ``to_square``, ``captured``)
- ``move_count``: ``len(board.legal_moves)``
- ``perft``: ``dame.perft(board, depth)`` (native)
- ``play``: ``board.push(text)`` for each PDN text, then ``board.fen()``
- ``parse_move``: ``board.parse_move(text)``: dame has one reader for PDN and Hub text alike
- ``format_move``: PDN: ``str(move)``; Hub: ``move.hub()``
- ``outcome``: ``board.push(text)``, ``board.outcome()`` after each ply

Normalisation: for every question but ``fen`` dame gets the position as the canonical FEN
(:func:`conformance.servers.library.canonical_fen`); dame reads every PDN FEN the corpus uses, so
this changes nothing but keeps all three real engines on the same footing.

dame cannot take draw-rule counters (no counter fields in its FEN, no setters), so the server
does not declare ``counters``: the harness asks it only outcomes from default counters (an
``outcome`` request with other counters would be declined). A move of a ``play`` or ``outcome``
sequence that ``board.push`` refuses is answered ``illegal`` with its ply and dame's message. ``dame.IllegalMoveError`` is read by
its message, which says which of three things went wrong: ``invalid move`` (the text is not move
text: ``malformed``), ``ambiguous move`` (``ambiguous``), ``illegal move`` (``illegal``).
Game end: ``Termination.NO_MOVES`` is Art. 7.2 (7.2.2 when the side to move has no piece left,
else 7.2.3), ``REPETITION`` 6.1, ``TWENTY_FIVE_MOVES`` 6.2, ``SIXTEEN_MOVES`` 6.3, ``FIVE_MOVES``
6.4. dame also has a search (``dame.Engine``), but this server answers the rules questions, so it
does not declare ``choose_move`` (the harness never asks it of an engine that lists its moves).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from conformance.core.protocol import (
    EngineDeclined,
    EngineError,
    FenAnswer,
    MoveRefused,
    MoveSpec,
    MoveTextAnswer,
    OutcomeAnswer,
    Verdict,
)
from conformance.servers.library import (
    LibraryEngine,
    canonical_fen,
    default_counters,
    loss_rule,
    serve_main,
)

NAME: Final = "dame-rs"
MAX_PERFT_LEAVES: Final = 50_000_000
"""dame counts about 17 million leaves a second (start position, depth 9: 41 million in 2.5 s)."""

_DRAW_RULES: Final = (
    ("REPETITION", "6.1"),
    ("TWENTY_FIVE_MOVES", "6.2"),
    ("SIXTEEN_MOVES", "6.3"),
    ("FIVE_MOVES", "6.4"),
)
_VERDICTS: Final = (
    ("invalid move", Verdict.MALFORMED),
    ("ambiguous move", Verdict.AMBIGUOUS),
    ("illegal move", Verdict.ILLEGAL),
)


class DameEngine(LibraryEngine):
    """dame-rs behind the Engine interface (in the venv of dame-rs)."""

    def __init__(self) -> None:
        # Imported by name: dame is installed in its own venv, not where the harness is type-checked.
        self._dame: Any = importlib.import_module("dame")
        super().__init__(NAME, str(self._dame.__version__), MAX_PERFT_LEAVES, counters=False)

    def fen(self, fen: str) -> FenAnswer:
        try:
            board = self._dame.Board(fen)
        except ValueError:
            return FenAnswer(False)
        return FenAnswer(True, str(board.fen()))

    def initial_position(self) -> str:
        return str(self._dame.Board().fen())

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        try:
            move = self._board(fen).parse_move(text)
        except self._dame.IllegalMoveError as error:
            message = str(error)
            for prefix, verdict in _VERDICTS:
                if message.startswith(prefix):
                    return MoveTextAnswer(verdict)
            raise EngineError(
                "exception", f"dame.IllegalMoveError with an unknown message: {message}"
            ) from None
        return MoveTextAnswer(Verdict.LEGAL, self._spec(move))

    def _board(self, fen: str) -> Any:
        return self._dame.Board(canonical_fen(fen))

    def _moves(self, board: Any) -> Any:
        return board.legal_moves

    def _spec(self, move: Any) -> MoveSpec:
        return MoveSpec(int(move.from_square), int(move.to_square), frozenset(int(s) for s in move.captured))

    def _write(self, move: Any, notation: str) -> str:
        return str(move.hub() if notation == "hub" else str(move))

    def _count(self, fen: str, depth: int) -> int:
        return int(self._dame.perft(self._board(fen), depth))

    def _push(self, board: Any, ply: int, text: str) -> None:
        try:
            board.push(text)
        except ValueError as error:  # dame.IllegalMoveError
            raise MoveRefused(text, ply, f"dame: {error}") from None

    def _board_fen(self, board: Any) -> str:
        return str(board.fen())

    def _setup(self, fen: str, counters: Mapping[str, int]) -> Any:
        if not default_counters(counters):
            raise EngineDeclined("dame cannot take draw-rule counters (its games count from the FEN)")
        return self._board(fen)

    def _ended(self, board: Any, ply: int) -> OutcomeAnswer | None:
        result = board.outcome()
        if result is None:
            return None
        termination = result.termination
        if termination == self._dame.Termination.NO_MOVES:
            winner = "white_wins" if result.winner == self._dame.Color.WHITE else "black_wins"
            pieces = sum(1 for piece in board.piece_map().values() if piece.color == board.turn)
            return OutcomeAnswer(winner, loss_rule(pieces), ply)
        for name, article in _DRAW_RULES:
            if termination == getattr(self._dame.Termination, name) and result.winner is None:
                return OutcomeAnswer("draw", article, ply)
        raise EngineError("exception", f"dame ended the game in a way this adapter does not know: {result!r}")


def main(argv: Sequence[str] | None = None) -> int:
    return serve_main(DameEngine, NAME, argv)


if __name__ == "__main__":
    sys.exit(main())
