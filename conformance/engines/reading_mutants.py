"""The readings of cases/articles.yaml about captures, moves, positions and move text, read the
other way: one mutant per (non-draw) reading per article it lists (:data:`READING_ARTICLE_MUTANTS`),
joined to the gallery of :mod:`conformance.engines.mutants`. The draw readings' are in the gallery itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from conformance.core.protocol import FenAnswer, MoveSpec
from conformance.engines.capture_mutants import CaptureBugs, CaptureMutant
from conformance.engines.oracle_engine import OracleEngine
from oracle.errors import AmbiguousMoveError, IllegalMoveError, SquareRangeError
from oracle.moves import Move, capture_routes
from oracle.notation import Notation, parse_among
from oracle.position import Position
from oracle.rules import INTERNATIONAL


class FenNeedsBothSections(OracleEngine):
    """fen-missing-section broken (Art. 2): a FEN without one colour's section is refused."""

    def fen(self, fen: str) -> FenAnswer:
        return super().fen(fen) if fen.count(":") >= 2 else FenAnswer(False)


class FenRefusesWhitespace(OracleEngine):
    """fen-whitespace broken (Art. 2): a FEN with whitespace anywhere is refused."""

    def fen(self, fen: str) -> FenAnswer:
        return FenAnswer(False) if any(c.isspace() for c in fen) else super().fen(fen)


class PdnRoutesAsMoves(OracleEngine):
    """move-identity broken as PDN reads it: a capture text is matched against every route, so a
    text naming one move that has two routes is read as ambiguous."""

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        if notation is not Notation.PDN:
            return super().read_move(position, text, notation)
        routes = capture_routes(position, self.rules)
        moves = [
            Move(m.from_square, m.to_square, m.captured, route)
            for m in self.moves_in(position)
            for route in routes.get(m, [m.route])
        ]
        by_route = {m: [m.route] for m in moves}
        return parse_among(position, text, notation, moves, lambda: by_route)


class PdnShortForm(OracleEngine):
    """pdn-full-route broken: captures are written ``fromxto`` even when that names several moves,
    and such a bare text is read as the first of them."""

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        text = super().format_move(fen, move, notation)
        if Notation(notation) is Notation.PDN and move.captured:
            return f"{move.from_square}x{move.to_square}"
        return text

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        try:
            return super().read_move(position, text, notation)
        except AmbiguousMoveError:
            if notation is not Notation.PDN or text.count("x") != 1:
                raise
            ends = tuple(int(square) for square in text.split("x"))
            return next(m for m in self.moves_in(position) if (m.from_square, m.to_square) == ends)


class PdnNoPartialRoute(OracleEngine):
    """pdn-partial-route broken: a capture text gives no intermediate square or all of a route's."""

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        move = super().read_move(position, text, notation)
        squares = text.strip().split("x")
        routes = capture_routes(position, self.rules).get(move, [move.route])
        if notation is Notation.PDN and len(squares) > 2 and all(len(r) != len(squares) for r in routes):
            raise IllegalMoveError(f"{text}: give the full route or none of it")
        return move


def _square_range_illegal(reads: Notation) -> type[OracleEngine]:
    """move-text-square-range broken in ``reads`` notation: a square outside 1-50 is illegal."""

    class SquareRangeIllegal(OracleEngine):
        def read_move(self, position: Position, text: str, notation: Notation) -> Move:
            try:
                return super().read_move(position, text, notation)
            except SquareRangeError as error:
                if notation is not reads:
                    raise
                raise IllegalMoveError(str(error)) from None

    SquareRangeIllegal.__name__ = SquareRangeIllegal.__qualname__ = f"SquareRangeIllegal{reads.name.title()}"
    return SquareRangeIllegal


def _engine_mutant(name: str, engine: type[OracleEngine]) -> Callable[[], OracleEngine]:
    return lambda: engine(INTERNATIONAL, name=name)


READING_MUTANTS: Final[dict[str, Callable[[], OracleEngine]]] = {
    "start-square-no-loop": lambda: CaptureMutant("start-square-no-loop", CaptureBugs(no_loop=True)),
    "start-square-not-crossed": lambda: CaptureMutant(
        "start-square-not-crossed", CaptureBugs(start_not_crossed=True)
    ),
    "same-ends-one-move": lambda: CaptureMutant("same-ends-one-move", CaptureBugs(same_ends_one_move=True)),
    "pdn-routes-as-moves": _engine_mutant("pdn-routes-as-moves", PdnRoutesAsMoves),
    "fen-needs-both-sections": _engine_mutant("fen-needs-both-sections", FenNeedsBothSections),
    "fen-refuses-whitespace": _engine_mutant("fen-refuses-whitespace", FenRefusesWhitespace),
    "pdn-short-form": _engine_mutant("pdn-short-form", PdnShortForm),
    "pdn-no-partial-route": _engine_mutant("pdn-no-partial-route", PdnNoPartialRoute),
    "pdn-square-range-illegal": _engine_mutant(
        "pdn-square-range-illegal", _square_range_illegal(Notation.PDN)
    ),
    "hub-square-range-illegal": _engine_mutant(
        "hub-square-range-illegal", _square_range_illegal(Notation.HUB)
    ),
}
"""The (non-draw) readings of cases/articles.yaml read the other way: one mutant per reading per
article it lists (:data:`READING_ARTICLE_MUTANTS`)."""

READING_ARTICLE_MUTANTS: Final[dict[tuple[str, str], str]] = {
    ("start-square-empty", "4.8"): "start-square-no-loop",
    ("start-square-empty", "4.11"): "start-square-occupied",
    ("start-square-empty", "4.13"): "start-square-not-crossed",
    ("move-identity", "8"): "same-ends-one-move",
    ("move-identity", "PDN"): "pdn-routes-as-moves",
    ("fen-missing-section", "2"): "fen-needs-both-sections",
    ("fen-whitespace", "2"): "fen-refuses-whitespace",
    ("pdn-full-route", "PDN"): "pdn-short-form",
    ("pdn-partial-route", "PDN"): "pdn-no-partial-route",
    ("move-text-square-range", "PDN"): "pdn-square-range-illegal",
    ("move-text-square-range", "Hub"): "hub-square-range-illegal",
}
"""(reading, article) -> the mutant of the gallery that reads the reading the other way there; a
case filed under the article and resting on the reading tells it apart
(tests/corpus/test_readings_per_article.py)."""

READING_BREAKS: Final[dict[str, tuple[str, ...]]] = {
    "start-square-no-loop": ("start-square-empty",),
    "start-square-not-crossed": ("start-square-empty",),
    "same-ends-one-move": ("move-identity",),
    "pdn-routes-as-moves": ("move-identity",),
    "fen-needs-both-sections": ("fen-missing-section",),
    "fen-refuses-whitespace": ("fen-whitespace",),
    "pdn-short-form": ("pdn-full-route",),
    "pdn-no-partial-route": ("pdn-partial-route",),
    "pdn-square-range-illegal": ("move-text-square-range",),
    "hub-square-range-illegal": ("move-text-square-range",),
}
