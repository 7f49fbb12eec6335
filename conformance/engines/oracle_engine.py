"""The reference oracle as an engine: certified by the same corpus, through the same interface.

``OracleEngine(rules)`` answers every question with :mod:`oracle`; with another rule
configuration it becomes a *mutant* (one rule switched), which is how the project shows
that its corpus notices each rule. It declares the rule sets it is told to (``rule_sets``:
international unless told more); the ``oracle`` spec plays the run's rule set and declares ``*``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import oracle
from conformance.core.game_replay import GameReplay
from conformance.core.protocol import (
    BaseEngine,
    Capability,
    EngineDeclined,
    EngineInfo,
    FenAnswer,
    MoveRefused,
    MoveSpec,
    MoveTextAnswer,
    OutcomeAnswer,
    Verdict,
)
from conformance.core.rule_sets import DEFAULT
from oracle.counters import Counters
from oracle.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    MoveSyntaxError,
    SetupError,
    SquareRangeError,
)
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.notation import Notation, hub_text, parse_move, pdn_text_among
from oracle.perft import perft
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules
from oracle.ruleset import rules_from_data

GameFactory = Callable[[Position, Counters, Rules], Game]


def _default_game(position: Position, counters: Counters, rules: Rules) -> Game:
    return Game(position, counters=counters, rules=rules)


def _reading(rules: Rules) -> Rules:
    """The rules a FEN is read under: the game's own, except for a mutant of international draughts
    (its switches changed, its name kept), which reads positions as international draughts does --
    a position with 20 men a side stays valid for a mutant with three rows of men."""
    return INTERNATIONAL if rules.name == "international" else rules


def to_spec(move: Move) -> MoveSpec:
    return MoveSpec(move.from_square, move.to_square, move.captured)


def to_move(spec: MoveSpec) -> Move:
    return Move(spec.from_square, spec.to_square, spec.captured)


class OracleEngine(BaseEngine):
    """The oracle behind the :class:`~conformance.core.protocol.Engine` interface."""

    def __init__(
        self,
        rules: Rules = INTERNATIONAL,
        *,
        name: str = "oracle",
        game_factory: GameFactory = _default_game,
        rule_sets: frozenset[str] = frozenset({DEFAULT}),
    ) -> None:
        self.rules = rules
        self.reading = _reading(rules)
        self.game_factory = game_factory
        self._replay = GameReplay()
        self._info = EngineInfo(
            name=name,
            version=oracle.__version__,
            capabilities=frozenset(Capability) - {Capability.CHOOSE_MOVE},
            adapter="in-process",
            rule_sets=rule_sets,
        )

    @property
    def info(self) -> EngineInfo:
        return self._info

    def use_rules(self, rules: Mapping[str, Any]) -> None:
        """Play the rule set of the protocol's ``start`` (the full object of a rules file)."""
        self.rules = rules_from_data(rules, "the rule set of 'start'")
        self.reading = _reading(self.rules)

    def fen(self, fen: str) -> FenAnswer:
        try:
            return FenAnswer(True, Position.from_fen(fen, self.reading).fen())
        except FenError:
            return FenAnswer(False)

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [to_spec(move) for move in legal_moves(Position.from_fen(fen, self.reading), self.rules)]

    def move_count(self, fen: str) -> int:
        return len(legal_moves(Position.from_fen(fen, self.reading), self.rules))

    def perft(self, fen: str, depth: int) -> int:
        return perft(Position.from_fen(fen, self.reading), depth, self.rules)

    # -- the moves and their text: one generator for every capability (a mutant overrides these) --

    def moves_in(self, position: Position) -> list[Move]:
        """The legal moves of ``position`` (each once, with a route)."""
        return legal_moves(position, self.rules)

    def read_move(self, position: Position, text: str, notation: Notation) -> Move:
        """The legal move ``text`` names (raises the notation errors of :mod:`oracle.notation`)."""
        return parse_move(position, text, notation, self.rules)

    def apply(self, position: Position, move: Move) -> Position:
        """The position after the legal ``move``."""
        return play(position, move, self.rules)

    def play(self, fen: str, moves: Sequence[str]) -> str:
        position = Position.from_fen(fen, self.reading)
        for ply, text in enumerate(moves, start=1):
            try:
                move = self.read_move(position, text, Notation.PDN)
            except (IllegalMoveError, AmbiguousMoveError) as error:
                raise MoveRefused(text, ply, str(error)) from None
            position = self.apply(position, move)
        return position.fen()

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        position = Position.from_fen(fen, self.reading)
        try:
            move = self.read_move(position, text, Notation(notation))
        except (MoveSyntaxError, SquareRangeError):
            return MoveTextAnswer(Verdict.MALFORMED)
        except AmbiguousMoveError:
            return MoveTextAnswer(Verdict.AMBIGUOUS)
        except IllegalMoveError:
            return MoveTextAnswer(Verdict.ILLEGAL)
        return MoveTextAnswer(Verdict.LEGAL, to_spec(move))

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        position = Position.from_fen(fen, self.reading)
        moves = self.moves_in(position)
        if to_move(move) not in moves:
            raise MoveRefused(str(move), None, "not a legal move here")
        if Notation(notation) is Notation.HUB:
            return hub_text(to_move(move))
        return pdn_text_among(position, to_move(move), moves)

    def initial_position(self) -> str:
        return Position.initial(self.rules).fen()

    def choose_move(self, fen: str) -> MoveSpec | None:
        """The first legal move (the oracle has no preference)."""
        moves = legal_moves(Position.from_fen(fen, self.reading), self.rules)
        return to_spec(moves[0]) if moves else None

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        """The outcome of ``moves`` from ``fen``; the last game asked goes on when ``moves`` extends
        its moves from the same setup (:class:`~conformance.core.game_replay.GameReplay`: the same
        game as a replay, for any ``game_factory``; one game kept)."""
        # the counters as given (a copy: the caller's mapping may change), refused below if they must be
        given = dict(counters) if isinstance(counters, Mapping) else counters
        setup = (fen, given, self.rules, self.reading, self.game_factory)
        game = self._replay.take(setup, moves)
        if game is None:
            try:
                game = self.game_factory(
                    Position.from_fen(fen, self.reading), Counters.from_dict(counters), self.rules
                )
            except SetupError as error:  # counters no game reaches under these rules (a mutant's count)
                raise EngineDeclined(f"counters out of reach under these rules: {error}") from None
        for ply, text in enumerate(moves[game.ply :], start=game.ply + 1):
            if game.is_over:  # moves after the end: the first ply the game is over is reported
                break
            try:
                game.play(text)
            except (IllegalMoveError, AmbiguousMoveError) as error:
                raise MoveRefused(text, ply, str(error)) from None
        self._replay.keep(setup, moves, game)
        result = game.outcome()
        return OutcomeAnswer(result.result.value, result.rule, result.ply)
