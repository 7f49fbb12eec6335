"""py-draughts (distribution ``py-draughts``, module ``draughts``) as an engine over JSON-lines.

    <engines dir>/py-draughts/bin/python -I -m conformance.servers.py_draughts_jsonl

Run with the Python of py-draughts's own venv (``draughts-conformance engines install
py-draughts``): pydraughts installs a module named ``draughts`` too, so the two never share one.

Every question is answered by py-draughts's own API (``from draughts import StandardBoard``),
and nothing of its answer is corrected here. It numbers squares from 0 inside ``Move``
(``square_list``, ``captured_list``); the protocol's 1..50 are those plus one.

- ``fen``: ``StandardBoard.from_fen(text)`` on the raw text; ``ValueError`` = not accepted; else
  the position it read is ``board.fen`` (which py-draughts writes as a PDN tag, ``[FEN "..."]``:
  the tag is taken off)
- ``initial_position``: ``StandardBoard().fen`` (tag taken off)
- ``legal_moves``: ``board.legal_moves``
- ``move_count``: ``len(board.legal_moves)``
- ``perft``: ``draughts.engines.turbo.perft_from_board(board, depth)``, the library's own perft
  (it runs on the turbo engine's move generator, not on ``legal_moves``)
- ``play``: ``board.push_uci(text)`` for each PDN text, then ``board.fen``
- ``parse_move``: PDN: ``Move.from_uci(text, board.legal_moves)`` (what ``push_uci`` uses); Hub:
  ``draughts.engines.hub.parse_hub_move(text, board.legal_moves)``
- ``format_move``: PDN: ``str(move)``; Hub: ``draughts.engines.hub.move_to_hub_notation(move)``
- ``outcome``: ``board.push_uci(text)``; after each ply ``board.game_over``, ``board.result``
  and the flags ``is_threefold_repetition`` (6.1), ``is_25_moves_rule`` (6.2),
  ``is_16_moves_rule`` (6.3), ``is_5_moves_rule`` (6.4)

Normalisation: for every question but ``fen`` py-draughts gets the canonical FEN
(:func:`conformance.servers.library.canonical_fen`): its FEN reader refuses a missing section and a
``B`` section written first, which are valid PDN (the ``fen`` cases score that).

Other games (protocol 1.2): py-draughts plays American checkers (``AmericanBoard``), Brazilian
(``BrazilianBoard``) and Russian draughts (``RussianBoard``) besides international
(``StandardBoard``); the server declares ``american``, ``brazilian`` and ``russian`` and, given one
in ``start``, answers every question with that board class (its squares are the 8x8 numbering of
the rule sets, 1-32 from b8, so positions and moves go through unchanged). Two things differ
from international: ``perft`` counts over ``board.legal_moves`` with ``push``/``pop`` (the turbo
perft plays the international rules whatever the board: 9 moves from the 8x8 start, where there
are 7), and a draw names the game's own article -- ``is_threefold_repetition`` its repetition
article, ``is_15_moves_rule`` its kings-only article, ``is_3_kings_vs_1_rule`` its count of three
kings against one, and American's ``is_draw`` at ``halfmove_clock >= 40`` (it has no flag) its
kings-only article (acf 1.32.2). Setup counters are not taken in another game (declined).

Counters: ``no_progress_plies`` is ``board.halfmove_clock`` (public, plies of king moves without
capture); ``endgame_plies`` goes into ``board._endgame_start``, the plies each endgame clock had
left when the board's move stack began (the attribute ``board.copy()`` fills): for the setup
material, the library's own limits (``draughts.boards._draw.endgame_limits``) minus the plies
already played. ``occurrences`` above 1 cannot be given (repetitions are found in the move
stack only): such requests are declined. The server declares ``counters``: the library takes
two of the three, and the outcome questions that need the third are reported skipped.

A move of a ``play`` or ``outcome`` sequence that ``push_uci`` refuses is answered ``illegal``
with its ply and the first line of py-draughts's message.

Verdicts of the readers (``ValueError`` messages): ``... is ambiguous ...`` -> ``ambiguous``;
``... is correct format, but not legal ...`` and ``No legal move matches Hub move`` ->
``illegal``; ``Invalid move format``, ``Invalid Hub move format`` and ``invalid literal for int()``
(a square that is not a number) -> ``malformed``. Game end: no legal move is Art. 7.2 (7.2.2 with
no piece left, else 7.2.3; py-draughts gives the loss precedence over a draw flag raised on the
same ply); a draw names the lowest article among the flags raised.
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
    default_counters,
    loss_rule,
    lowest_article,
    perft_by_moves,
    serve_main,
    unwrap_fen_tag,
)
from oracle.rules import Ending

NAME: Final = "py-draughts"
MAX_PERFT_LEAVES: Final = 3_000_000
"""The turbo perft counts about 1.4 million leaves a second (start position, depth 7 in 0.65 s)."""

_VERDICTS: Final = (
    ("is ambiguous", Verdict.AMBIGUOUS),
    ("is correct format, but not legal", Verdict.ILLEGAL),
    ("No legal move matches Hub move", Verdict.ILLEGAL),
    ("Invalid move format", Verdict.MALFORMED),
    ("Invalid Hub move format", Verdict.MALFORMED),
    ("invalid literal for int()", Verdict.MALFORMED),
)
_FLAGS: Final = (
    ("is_threefold_repetition", "6.1"),
    ("is_25_moves_rule", "6.2"),
    ("is_16_moves_rule", "6.3"),
    ("is_5_moves_rule", "6.4"),
)
_RESULTS: Final = {"1-0": "white_wins", "0-1": "black_wins", "1/2-1/2": "draw"}
VARIANTS: Final = {
    "international": "StandardBoard",
    "american": "AmericanBoard",
    "brazilian": "BrazilianBoard",
    "russian": "RussianBoard",
}
"""The rule sets py-draughts plays, by the board class of each."""
_VARIANT_FLAGS: Final = (
    ("is_threefold_repetition", "repetition", None),
    ("is_15_moves_rule", "kings_only", None),
    ("is_3_kings_vs_1_rule", "ending", Ending(3, 0)),
)


class PyDraughtsEngine(LibraryEngine):
    """py-draughts behind the Engine interface (in the venv of py-draughts)."""

    def __init__(self) -> None:
        # Imported by name: the module is installed in its own venv, and pydraughts's module has
        # the same name, so the harness is never type-checked against either.
        draughts: Any = importlib.import_module("draughts")
        self._draughts: Any = draughts
        self._board_class: Any = draughts.StandardBoard
        self._move_class: Any = draughts.Move
        self._hub: Any = importlib.import_module("draughts.engines.hub")
        self._turbo: Any = importlib.import_module("draughts.engines.turbo")
        self._limits: Any = importlib.import_module("draughts.boards._draw").endgame_limits
        super().__init__(NAME, str(draughts.__version__), MAX_PERFT_LEAVES, counters=True, variants=VARIANTS)

    def _select(self, variant: str) -> None:
        self._board_class = getattr(self._draughts, variant)

    def fen(self, fen: str) -> FenAnswer:
        try:
            board = self._board_class.from_fen(fen)
        except ValueError:
            return FenAnswer(False)
        return FenAnswer(True, unwrap_fen_tag(str(board.fen)))

    def initial_position(self) -> str:
        return unwrap_fen_tag(str(self._board_class().fen))

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        board = self._board(fen)
        try:
            if notation == "hub":
                move = self._hub.parse_hub_move(text, board.legal_moves)
            else:
                move = self._move_class.from_uci(text, board.legal_moves)
        except ValueError as error:
            message = str(error)
            for phrase, verdict in _VERDICTS:
                if phrase in message:
                    return MoveTextAnswer(verdict)
            raise EngineError(
                "exception", f"py-draughts: ValueError with an unknown message: {message}"
            ) from None
        return MoveTextAnswer(Verdict.LEGAL, self._spec(move))

    def _board(self, fen: str) -> Any:
        return self._board_class.from_fen(self.canonical(fen))

    def _moves(self, board: Any) -> Any:
        return board.legal_moves

    def _spec(self, move: Any) -> MoveSpec:
        squares = move.square_list
        return MoveSpec(
            squares[0] + 1, squares[-1] + 1, frozenset(square + 1 for square in move.captured_list)
        )

    def _write(self, move: Any, notation: str) -> str:
        return str(self._hub.move_to_hub_notation(move) if notation == "hub" else move)

    def _count(self, fen: str, depth: int) -> int:
        if self.international:
            return int(self._turbo.perft_from_board(self._board(fen), depth))
        # the turbo perft plays international rules whatever the board: counted on the board itself
        return perft_by_moves(self._board(fen), lambda board: list(board.legal_moves), depth)

    def _push(self, board: Any, ply: int, text: str) -> None:
        try:
            board.push_uci(text)
        except ValueError as error:
            first_line = str(error).splitlines()[0] if str(error) else ""
            raise MoveRefused(text, ply, f"py-draughts: {first_line}") from None

    def _board_fen(self, board: Any) -> str:
        return unwrap_fen_tag(str(board.fen))

    def _setup(self, fen: str, counters: Mapping[str, int]) -> Any:
        if not self.international and not default_counters(counters):
            raise EngineDeclined(f"py-draughts cannot be given draw-rule counters in {self.rules.name}")
        if counters.get("occurrences", 1) != 1:
            raise EngineDeclined("py-draughts cannot be told that the setup position occurred before (6.1)")
        board = self._board(fen)
        board.halfmove_clock = counters.get("no_progress_plies", 0)
        endgame_plies = counters.get("endgame_plies", 0)
        if endgame_plies:
            material = (board.white_men, board.white_kings, board.black_men, board.black_kings)
            limits = self._limits(*(bits.bit_count() for bits in material))
            board._endgame_start = tuple(limit - endgame_plies if limit >= 0 else -1 for limit in limits)
        return board

    def _ended(self, board: Any, ply: int) -> OutcomeAnswer | None:
        if not board.game_over:
            return None
        result = _RESULTS.get(str(board.result))
        if result is None:
            raise EngineError("exception", f"py-draughts: game over with result {board.result!r}")
        if result != "draw":
            own = (
                (board.white_men | board.white_kings)
                if result == "black_wins"
                else (board.black_men | board.black_kings)
            )
            return OutcomeAnswer(result, loss_rule(own.bit_count(), self.rules), ply)
        if not self.international:
            return OutcomeAnswer("draw", self._variant_draw(board), ply)
        flags = [article for flag, article in _FLAGS if getattr(board, flag)]
        if not flags:
            raise EngineError("exception", "py-draughts: a draw without any of its draw flags")
        return OutcomeAnswer("draw", lowest_article(flags), ply)

    def _variant_draw(self, board: Any) -> str:
        """The article of a draw in another game than international, from the board's own flags."""
        articles = [
            self.draw_article(kind, ending)
            for flag, kind, ending in _VARIANT_FLAGS
            if getattr(board, flag, False)
        ]
        if not articles and self.variant == "AmericanBoard" and board.halfmove_clock >= 40:
            articles.append(self.draw_article("kings_only"))  # its 40-move rule, which has no flag
        if not articles:
            raise EngineError("exception", "py-draughts: a draw without any of its draw flags")
        return lowest_article(articles)


def main(argv: Sequence[str] | None = None) -> int:
    return serve_main(PyDraughtsEngine, NAME, argv)


if __name__ == "__main__":
    sys.exit(main())
