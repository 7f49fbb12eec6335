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

Other games (protocol 1.2): pydraughts plays English checkers (``"english"``: American checkers,
the ``american`` rule set), Russian and Brazilian draughts (``"russian"``, ``"brazilian"``) besides
international (``"standard"``); the server declares them and, given one in ``start``, makes every
board with that variant name. pydraughts numbers the squares of its Russian and Brazilian boards
from a1 (c3 is 10), not as the rule sets do (b8 = 1): the server writes the position as the game's
PDN writes it (algebraic, :meth:`oracle.position.Position.pdn_fen`), the move texts of a question
with algebraic squares (``22x8`` -> ``c3xg7``), and reads the squares of its moves back through a
table it asks pydraughts for when the game is chosen (a lone king on each square, by name: the
square its moves start from). Its English board is numbered as the rule set. A draw names the
game's article of the test of ``Game.is_draw`` that holds: in Russian and Brazilian three kings or
more against one (its count for ``3K v K``), 15 king moves (kings only), two pieces against a king
(its count for ``2K v K``), the balance of 4-7 pieces (``fmjd64:7.2.6``, an article the rule set
does not have) and three pieces against a king on the long diagonal (``fmjd64:7.2.7``, idem); in
English 40 king moves (kings only); repetition everywhere.
"""

from __future__ import annotations

import importlib
import re
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
    perft_by_moves,
    serve_main,
)
from oracle.position import Position
from oracle.rules import Ending

NAME: Final = "pydraughts"
MAX_PERFT_LEAVES: Final = 2_500
"""pydraughts lists about a thousand moves a second (start position, depth 3: 748 in 0.85 s)."""
MAX_PERFT_ENTRIES: Final = 20_000
"""A hard stop inside one count, whatever the estimate said."""
VARIANTS: Final = {
    "international": "standard",
    "american": "english",
    "russian": "russian",
    "brazilian": "brazilian",
}
"""The rule sets pydraughts plays, by its name of each."""
_MOVE_NUMBERS: Final = re.compile(r"\d+")


class _OverBudget(IncompleteError):
    pass


class PydraughtsEngine(LibraryEngine):
    """pydraughts behind the Engine interface (in the venv of pydraughts)."""

    def __init__(self) -> None:
        # Imported by name: the module is installed in its own venv, and py-draughts's module has
        # the same name, so the harness is never type-checked against either.
        self._draughts: Any = importlib.import_module("draughts")
        self._convert: Any = importlib.import_module("draughts.convert")
        self._ours: dict[int, int] = {}
        """pydraughts's square -> the rule set's, where they differ (Russian, Brazilian)."""
        super().__init__(
            NAME, str(self._draughts.__version__), MAX_PERFT_LEAVES, counters=False, variants=VARIANTS
        )

    def _select(self, variant: str) -> None:
        self._ours = {}
        if not self.rules.algebraic:
            return
        geometry = self.rules.geometry
        for square in geometry.squares:  # a lone king on the square, by name: where its moves start
            board = self._draughts.Board(variant, f"W:WK{geometry.algebraic(square)}:B")
            self._ours[int(board.legal_moves()[0].board_move[0][0])] = square

    def _square(self, square: Any) -> int:
        return self._ours.get(int(square), int(square))

    def _text(self, text: str) -> str:
        """A PDN move text of the question as pydraughts reads it in the game played: algebraic
        squares on its Russian and Brazilian boards (``22x8`` -> ``c3xg7``)."""
        if not self._ours:
            return text
        geometry = self.rules.geometry
        named = _MOVE_NUMBERS.sub(
            lambda number: (
                geometry.algebraic(int(number.group()))
                if 1 <= int(number.group()) <= geometry.square_count
                else number.group()
            ),
            text,
        )
        return named.replace(":", "x")

    def fen(self, fen: str) -> FenAnswer:
        try:
            board = self._draughts.Board(self.variant, fen)
        except Exception:  # pydraughts has no error type of its own for a FEN it cannot read
            return FenAnswer(False)
        read = str(board._game.get_li_fen())
        if not self.international:  # its internal numbering, written as the game's own FEN
            read = str(self._convert.fen_to_variant(read, self.variant))
        return FenAnswer(True, read)

    def initial_position(self) -> str:
        if not self.international:
            return str(self._draughts.Board(self.variant).fen)
        return str(self._draughts.Board("standard")._game.get_li_fen())

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        board = self._board(fen)
        try:
            if notation == "hub":
                move = self._draughts.Move(board, hub_move=text)
            else:
                move = self._draughts.Move(board, pdn_move=self._text(text))
        except KeyError:
            return MoveTextAnswer(Verdict.ILLEGAL)
        except ValueError:
            return MoveTextAnswer(Verdict.MALFORMED)
        return MoveTextAnswer(Verdict.LEGAL, self._spec(move))

    def _board(self, fen: str) -> Any:
        if self.international:
            return self._draughts.Board("standard", canonical_fen(fen))
        return self._draughts.Board(self.variant, Position.from_fen(fen, self.rules).pdn_fen(self.rules))

    def _moves(self, board: Any) -> Any:
        return board.legal_moves()

    def _spec(self, move: Any) -> MoveSpec:
        steps = move.board_move
        captured = frozenset(self._square(square) for square in (move.captures or ()) if square is not None)
        return MoveSpec(self._square(steps[0][0]), self._square(steps[-1][1]), captured)

    def _write(self, move: Any, notation: str) -> str:
        return str(move.hub_move if notation == "hub" else move.pdn_move)

    def _count(self, fen: str, depth: int) -> int:
        budget = [MAX_PERFT_ENTRIES]

        def moves(board: Any) -> Sequence[Any]:
            listed = board.legal_moves()
            budget[0] -= len(listed)
            if budget[0] < 0:
                raise _OverBudget
            return list(listed)

        try:
            return perft_by_moves(self._board(fen), moves, depth)
        except _OverBudget:
            raise EngineDeclined(
                f"perft({depth}) lists more than {MAX_PERFT_ENTRIES} moves in pydraughts; not certified that deep"
            ) from None

    def _push(self, board: Any, ply: int, text: str) -> None:
        try:
            move = self._draughts.Move(board, pdn_move=self._text(text))
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
            return OutcomeAnswer(result, loss_rule(pieces[loser], self.rules), ply)
        if winner != 0:
            raise EngineError("exception", f"pydraughts: winner() gave {winner!r}")
        if not self.international:
            return OutcomeAnswer("draw", self._variant_draw(board, pieces, kings), ply)
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

    def _variant_draw(self, board: Any, pieces: dict[Any, int], kings: dict[Any, int]) -> str:
        """The article of the test of pydraughts's ``Game.is_draw`` that holds, in another game."""
        draughts, game = self._draughts, board._game
        king_moves, since_capture = game.consecutive_noncapture_king_moves, game.moves_since_last_capture
        rules: list[str] = []
        if self.variant == "english" and king_moves >= 80:
            rules.append(self.draw_article("kings_only"))
        if self.variant in ("russian", "brazilian"):
            for strong, lone in ((draughts.WHITE, draughts.BLACK), (draughts.BLACK, draughts.WHITE)):
                if pieces[lone] == kings[lone] == 1:
                    if pieces[strong] == kings[strong] >= 3 and king_moves >= 30:
                        rules.append(self.draw_article("ending", Ending(3, 0)))
                    if pieces[strong] == 2 and kings[strong] >= 1 and since_capture >= 10:
                        rules.append(self.draw_article("ending", Ending(2, 0)))
                    if pieces[strong] == 3 and kings[strong] >= 1 and since_capture >= 10:
                        rules.append("fmjd64:7.2.7")  # on the long diagonal: the rule set has no such count
            if king_moves >= 30:
                rules.append(self.draw_article("kings_only"))
            balanced = kings[draughts.WHITE] == kings[draughts.BLACK] >= 1
            even = pieces[draughts.WHITE] == pieces[draughts.BLACK] in (4, 5, 6, 7)
            if balanced and even and since_capture >= (60 if pieces[draughts.WHITE] <= 5 else 120):
                rules.append("fmjd64:7.2.6")  # the balance of forces: the rule set has no such count
        if game.is_threefold():
            rules.append(self.draw_article("repetition"))
        if not rules:
            raise EngineError("exception", "pydraughts: a draw that none of its draw tests explains")
        return lowest_article(rules)


def main(argv: Sequence[str] | None = None) -> int:
    return serve_main(PydraughtsEngine, NAME, argv)


if __name__ == "__main__":
    sys.exit(main())
