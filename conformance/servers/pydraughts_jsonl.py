"""pydraughts (distribution ``pydraughts``, module ``draughts``) as an engine over JSON-lines.

    <engines dir>/pydraughts/bin/python -I -m conformance.servers.pydraughts_jsonl

Run with the Python of pydraughts's own venv (``draughts-conformance engines install
pydraughts``): py-draughts installs a module named ``draughts`` too, so the two never share one.

Every question is answered by pydraughts's own API (``draughts.Board("standard", fen)``,
``draughts.Move``), and nothing of its answer is corrected here:

- ``fen``: ``Board("standard", text)`` on the raw text; any exception = not accepted (it raises
  ``IndexError``, ``ValueError``... rather than one error type); else the position it read is
  ``board._game.get_li_fen()``, its FEN writer applied to the pieces it placed (``board.fen``
  echoes the text it was given until a move is played, so it would not show what was read)
- ``initial_position``: ``Board("standard")._game.get_li_fen()``
- ``legal_moves``: ``board.legal_moves()``: one entry per capture *route*, as pydraughts lists
  them, so the same (from, to, captured) can come twice; they are all reported
- ``move_count``: ``len(board.legal_moves())``, duplicates included
- ``perft``: pydraughts has none: a recursion over ``board.legal_moves()`` with
  ``board.push(move)``/``board.pop()``, counting the entries it lists
- ``play``: ``board.push(Move(board, pdn_move=text))`` for each text, then ``board.fen``
- ``parse_move``: ``Move(board, pdn_move=text)`` / ``Move(board, hub_move=text)``
- ``format_move``: ``move.pdn_move`` / ``move.hub_move`` of the first listed entry with that
  (from, to, captured)
- ``outcome``: ``board.push(...)``; after each ply ``board.winner()`` (None, 0 = draw,
  ``draughts.WHITE``, ``draughts.BLACK``)

Normalisation: for every question but ``fen`` pydraughts gets the canonical FEN
(:func:`conformance.servers.library.canonical_fen`): its reader takes the first section as White's
and the second as Black's whatever their letters, and fails on a missing section.

Perft is declined beyond about two seconds of work (the tree's leaves estimated from the two
shallower counts; :class:`~conformance.servers.library.PerftGuard`), and beyond
``MAX_PERFT_ENTRIES`` listed moves in one count: pydraughts generates every capture route, which
makes king positions cost seconds a ply.

Verdicts of the readers: a text pydraughts accepts is ``legal`` with the move it chose (it does not
report ambiguity: of several moves it silently takes one). It looks the text up in a table of its
legal moves keyed by the squares; a miss raises ``KeyError`` -- read as ``illegal``, since that is
what the lookup failing means (pydraughts has no error of its own for an illegal or malformed
move). A ``ValueError`` (a square that is not a number) is ``malformed``.

Counters: pydraughts keeps one counter for 6.2, 6.3 and 6.4, ``board._game.consecutive_noncapture_king_moves``
(king moves without capture in a row), and cannot be told that a position occurred before: it
cannot hold the counters of a setup position in general (``endgame_plies`` and
``no_progress_plies`` apart, ``occurrences``), so the server does not declare ``counters`` and
is asked only outcomes from default counters (a request with other counters would be declined).
A move of a ``play`` or ``outcome`` sequence that ``Move(board, pdn_move=...)`` cannot find is
answered ``illegal`` with its ply. Game end: a winner is Art. 7.2
(7.2.2 when the loser has no piece left, else 7.2.3); a draw names the rule of pydraughts's own
``Game.is_draw`` tests that hold (its counter against 50, 32 or 10 plies with the material of
6.2, 6.3 or 6.4, or ``Game.is_threefold()`` for 6.1), the lowest article if several do.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final

from conformance.core.errors import IncompleteError
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
    lowest_article,
    serve_main,
)

NAME: Final = "pydraughts"
MAX_PERFT_LEAVES: Final = 2_500
"""pydraughts lists about a thousand moves a second (start position, depth 3: 748 in 0.85 s)."""
MAX_PERFT_ENTRIES: Final = 20_000
"""A hard stop inside one count, whatever the estimate said."""


class _OverBudget(IncompleteError):
    pass


class PydraughtsEngine(LibraryEngine):
    """pydraughts behind the Engine interface (in the venv of pydraughts)."""

    def __init__(self) -> None:
        # Imported by name: the module is installed in its own venv, and py-draughts's module has
        # the same name, so the harness is never type-checked against either.
        self._draughts: Any = importlib.import_module("draughts")
        super().__init__(NAME, str(self._draughts.__version__), MAX_PERFT_LEAVES, counters=False)

    def fen(self, fen: str) -> FenAnswer:
        try:
            board = self._draughts.Board("standard", fen)
        except Exception:  # pydraughts has no error type of its own for a FEN it cannot read
            return FenAnswer(False)
        return FenAnswer(True, str(board._game.get_li_fen()))

    def initial_position(self) -> str:
        return str(self._draughts.Board("standard")._game.get_li_fen())

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        board = self._board(fen)
        try:
            if notation == "hub":
                move = self._draughts.Move(board, hub_move=text)
            else:
                move = self._draughts.Move(board, pdn_move=text)
        except KeyError:
            return MoveTextAnswer(Verdict.ILLEGAL)
        except ValueError:
            return MoveTextAnswer(Verdict.MALFORMED)
        return MoveTextAnswer(Verdict.LEGAL, self._spec(move))

    def _board(self, fen: str) -> Any:
        return self._draughts.Board("standard", canonical_fen(fen))

    def _moves(self, board: Any) -> Any:
        return board.legal_moves()

    def _spec(self, move: Any) -> MoveSpec:
        steps = move.board_move
        captured = frozenset(int(square) for square in (move.captures or ()) if square is not None)
        return MoveSpec(int(steps[0][0]), int(steps[-1][1]), captured)

    def _write(self, move: Any, notation: str) -> str:
        return str(move.hub_move if notation == "hub" else move.pdn_move)

    def _count(self, fen: str, depth: int) -> int:
        board = self._board(fen)
        budget = [MAX_PERFT_ENTRIES]

        def count(depth: int) -> int:
            moves = board.legal_moves()
            budget[0] -= len(moves)
            if budget[0] < 0:
                raise _OverBudget
            if depth == 1:
                return len(moves)
            total = 0
            for move in moves:
                board.push(move)
                total += count(depth - 1)
                board.pop()
            return total

        try:
            return count(depth)
        except _OverBudget:
            raise EngineDeclined(
                f"perft({depth}) lists more than {MAX_PERFT_ENTRIES} moves in pydraughts; not certified that deep"
            ) from None

    def _push(self, board: Any, ply: int, text: str) -> None:
        try:
            move = self._draughts.Move(board, pdn_move=text)
        except (KeyError, ValueError) as error:
            raise MoveRefused(text, ply, f"pydraughts: {error!r}") from None
        board.push(move)

    def _board_fen(self, board: Any) -> str:
        return str(board.fen)

    def _setup(self, fen: str, counters: Mapping[str, int]) -> Any:
        if not default_counters(counters):
            raise EngineDeclined(
                "pydraughts cannot take the draw-rule counters of a setup position (one counter of king "
                "moves in a row for 6.2-6.4, no record of earlier occurrences)"
            )
        return self._board(fen)

    def _ended(self, board: Any, ply: int) -> OutcomeAnswer | None:
        winner = board.winner()
        if winner is None:
            return None
        draughts = self._draughts
        pieces = {draughts.WHITE: 0, draughts.BLACK: 0}
        kings = {draughts.WHITE: 0, draughts.BLACK: 0}
        for piece in board._game.board.searcher.uncaptured_pieces:
            pieces[piece.player] += 1
            kings[piece.player] += bool(piece.king)
        if winner in (draughts.WHITE, draughts.BLACK):
            loser = draughts.BLACK if winner == draughts.WHITE else draughts.WHITE
            result = "white_wins" if winner == draughts.WHITE else "black_wins"
            return OutcomeAnswer(result, loss_rule(pieces[loser]), ply)
        if winner != 0:
            raise EngineError("exception", f"pydraughts: winner() gave {winner!r}")
        counter = board._game.consecutive_noncapture_king_moves
        rules = []
        if counter >= 50:
            rules.append("6.2")
        for strong, lone in ((draughts.WHITE, draughts.BLACK), (draughts.BLACK, draughts.WHITE)):
            if pieces[lone] == kings[lone] == 1 and kings[strong] >= 1:
                if pieces[strong] == 3 and counter >= 32:
                    rules.append("6.3")
                if pieces[strong] <= 2 and counter >= 10:
                    rules.append("6.4")
        if board._game.is_threefold():
            rules.append("6.1")
        if not rules:
            raise EngineError("exception", "pydraughts: a draw that none of its draw tests explains")
        return OutcomeAnswer("draw", lowest_article(rules), ply)


def main(argv: Sequence[str] | None = None) -> int:
    return serve_main(PydraughtsEngine, NAME, argv)


if __name__ == "__main__":
    sys.exit(main())
