"""The draw model agrees with ``oracle.game`` on concrete games, at every ply (Art. 6, 7.2): the
outcome, and the counters too (occurrences, the 6.2 count, the 6.3/6.4 group and its count).

Games are drawn with the oracle's move generator and steered toward each draw rule: king-only
shuffles that go back and forth (6.1) or wander (6.2), endings of three and of two pieces against
a lone king (6.3, 6.4), men on their way to the far row against a lone king or a lone man
(promotions making an ending arise), a few moves into a position where one side is hemmed in
(7.2.3), with default counters or with counters a game could have.
Each game is abstracted into the model's events (:func:`abstract_game`) and run through the
plain-Python reading -- which also checks the facts the z3 model assumes about every game --
and, for some, the z3 encoding. The test asserts that every draw rule and both losses were
reached in the sampled games: agreement on games that never reach a rule would prove little.
"""

from __future__ import annotations

import collections
import dataclasses
import random

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.core.draw_events import PROJECT, DrawBook, DrawRules, MoveKind
from conformance.core.draw_games import abstract_game, draw_rules_of
from conformance.verify.choices import Chooser, RandomChooser
from conformance.verify.draw_machine import DrawMachine
from conformance.verify.draw_readings import READINGS
from conformance.verify.draw_setups import blocked_position, take_back
from conformance.verify.draw_smt import LOGIC, EventTrace
from conformance.verify.strategies import HypothesisChooser
from oracle.counters import Counters
from oracle.errors import SetupError
from oracle.game import Game
from oracle.moves import Move, legal_moves, play
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL

FLAVOURS = ("back-and-forth", "wander", "three-v-king", "two-v-king", "promotion", "hemmed-in")


@dataclasses.dataclass(frozen=True)
class DrawnGame:
    flavour: str
    position: Position
    counters: Counters
    moves: tuple[Move, ...]


def _place(chooser: Chooser, taken: set[int], color: Color, kind: Kind, rows: range) -> int:
    squares = [s for s in range(1, 51) if s not in taken and (s - 1) // 5 in rows]
    if kind is Kind.MAN:
        squares = [
            s
            for s in squares
            if not (color is Color.WHITE and s <= 5) and not (color is Color.BLACK and s > 45)
        ]
    square = squares[chooser.integer(0, len(squares) - 1)]
    taken.add(square)
    return square


def _start(chooser: Chooser, flavour: str) -> Position:
    strong = Color.WHITE if chooser.integer(0, 1) == 0 else Color.BLACK
    weak = strong.opponent
    pieces: dict[Color, dict[Kind, int]] = {
        strong: {Kind.KING: 0, Kind.MAN: 0},
        weak: {Kind.KING: 0, Kind.MAN: 0},
    }
    if flavour in ("back-and-forth", "wander"):
        pieces[strong][Kind.KING] = chooser.integer(2, 3)
        pieces[weak][Kind.KING] = chooser.integer(2, 3)
        pieces[weak][Kind.MAN] = chooser.integer(0, 1)
    elif flavour == "three-v-king":
        kings = chooser.integer(1, 3)
        pieces[strong] = {Kind.KING: kings, Kind.MAN: 3 - kings}
        pieces[weak][Kind.KING] = 1
    elif flavour == "two-v-king":
        kings = chooser.integer(0, 2)
        pieces[strong] = {Kind.KING: kings, Kind.MAN: 2 - kings}
        pieces[weak][Kind.KING if chooser.integer(0, 3) else Kind.MAN] = 1
    elif flavour == "promotion":  # men near the far row against a lone king or man: endings arise
        pieces[strong] = {Kind.KING: chooser.integer(0, 1), Kind.MAN: chooser.integer(1, 3)}
        pieces[weak][Kind.KING if chooser.integer(0, 1) else Kind.MAN] = 1
    taken: set[int] = set()
    squares: dict[tuple[Color, Kind], set[int]] = collections.defaultdict(set)
    for color, kinds in pieces.items():
        for kind, count in kinds.items():
            near = range(1, 3) if color is Color.WHITE else range(7, 9)
            rows = near if flavour == "promotion" and kind is Kind.MAN and color is strong else range(10)
            for _ in range(count):
                squares[color, kind].add(_place(chooser, taken, color, kind, rows))
    turn = Color.WHITE if chooser.integer(0, 1) == 0 else Color.BLACK
    return Position.from_squares(
        turn,
        squares[Color.WHITE, Kind.MAN],
        squares[Color.WHITE, Kind.KING],
        squares[Color.BLACK, Kind.MAN],
        squares[Color.BLACK, Kind.KING],
    )


def _counters(chooser: Chooser, position: Position) -> Counters:
    """Default counters, or counters a game could have reached (the oracle's checks decide)."""
    if chooser.integer(0, 2):
        return Counters()
    endgame = chooser.integer(0, 31)
    no_progress = chooser.integer(0, min(endgame, 49) if chooser.integer(0, 1) else 49)
    occurrences = 2 if no_progress >= 4 and chooser.integer(0, 2) == 0 else 1
    for counters in (
        Counters(occurrences, no_progress, endgame),
        Counters(occurrences, no_progress),
        Counters(),
    ):
        try:
            Game(position, counters)
        except SetupError:
            continue
        return counters
    return Counters()


def _safe(position: Position, move: Move) -> bool:
    """After ``move`` the opponent has no capture."""
    return not any(m.captured for m in legal_moves(play(position, move)))


def _hemmed_in(chooser: Chooser) -> tuple[Position, list[Move]] | None:
    """A few moves that end in a blocked position (7.2.3): one is built (its pieces on the edge,
    the other side's next to them, backed), then moves are taken back from it."""
    rng = random.Random(chooser.integer(0, 1 << 30))
    side = Color.WHITE if rng.random() < 0.5 else Color.BLACK
    mine = (rng.randint(0, 1), rng.randint(0, 2))
    theirs = (rng.randint(0, 2), rng.randint(1, 3))
    counts = (*mine, *theirs) if side is Color.WHITE else (*theirs, *mine)
    if sum(mine) == 0:
        return None
    final = blocked_position(side, counts, rng)
    moves: list[Move] = []
    position = final
    for _ in range(rng.randint(1, 6)):
        if position is None:
            return None
        step = take_back(position, rng, [MoveKind.KING_MOVE, MoveKind.MAN_MOVE])
        if step is None:
            break
        position, move = step
        moves.insert(0, move)
    return (position, moves) if position is not None and moves else None


def drawn_game(chooser: Chooser) -> DrawnGame:
    """A game steered toward one draw rule (see the module docstring)."""
    flavour = FLAVOURS[chooser.integer(0, len(FLAVOURS) - 1)]
    planned: list[Move] = []
    built = _hemmed_in(chooser) if flavour == "hemmed-in" else None
    if built is not None:
        position, planned = built
    else:
        position = _start(chooser, "wander" if flavour == "hemmed-in" else flavour)
    counters = _counters(chooser, position)
    game = Game(position, counters)
    careful = chooser.integer(0, 9) > 0  # mostly avoid offering a capture, so that games last
    back = {"back-and-forth": 80, "wander": 0}.get(flavour, 20)
    for move in planned:
        if game.is_over:
            break
        game.play(move)
    while not game.is_over and game.ply < 110:
        legal = game.legal_moves()
        previous = game.moves[-2] if game.ply >= 2 else None
        undo = [
            m
            for m in legal
            if previous
            and not m.captured
            and (m.from_square, m.to_square) == (previous.to_square, previous.from_square)
        ]
        if undo and chooser.integer(0, 99) < back:
            move = undo[0]
        else:
            options = [m for m in legal if _safe(game.position, m)] if careful else legal
            options = options or legal
            move = options[chooser.integer(0, len(options) - 1)]
        game.play(move)
    return DrawnGame(flavour, position, counters, game.moves)


@st.composite
def drawn_games(draw: st.DrawFn) -> DrawnGame:
    """Games from :func:`drawn_game`. Examples from this strategy shrink toward the first flavour,
    fewer pieces on lower squares, default counters and the first legal moves."""
    return drawn_game(HypothesisChooser(draw))


State = tuple[object, ...]


def _oracle_state(game: Game) -> State:
    """The outcome and the Art. 6 counters of a game, as the model keeps them."""
    clock = game.endgame_clock
    endgame = (clock.article, clock.plies) if clock else None
    return (game.outcome().to_json(), game.occurrences, game.no_progress_plies, endgame)


def _model_states(drawn: DrawnGame, plies: int, rules: DrawRules = PROJECT) -> list[State]:
    start, events = abstract_game(drawn.position, drawn.moves[:plies], drawn.counters)
    book = DrawBook(start, rules)

    def state() -> State:
        endgame = (book.group.article, book.endgame_plies) if book.group else None
        return (book.outcome.to_json(), book.occurrences, book.no_progress_plies, endgame)

    found = [state()]
    for event in events:
        book.play(event)
        found.append(state())
    return found


def _oracle_states(game: Game, moves: tuple[Move, ...]) -> list[State]:
    """The states of ``game`` after each of ``moves``, up to the end of the game."""
    found = [_oracle_state(game)]
    for move in moves:
        if game.is_over:
            break
        game.play(move)
        found.append(_oracle_state(game))
    return found


def _oracle_outcomes(drawn: DrawnGame) -> list[dict[str, str | int | None]]:
    game = Game(drawn.position, drawn.counters)
    found = [game.outcome().to_json()]
    for move in drawn.moves:
        game.play(move)
        found.append(game.outcome().to_json())
    return found


SAMPLES = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def test_model_agrees_with_the_oracle_at_every_ply_and_reaches_every_rule() -> None:
    reached: collections.Counter[str] = collections.Counter()
    with_counters: collections.Counter[str] = collections.Counter()

    @SAMPLES
    @given(drawn_games())
    def run(drawn: DrawnGame) -> None:
        oracle = _oracle_states(Game(drawn.position, drawn.counters), drawn.moves)
        model = _model_states(drawn, len(drawn.moves))
        assert model == oracle, (drawn.position.fen(), drawn.counters, drawn.moves)
        final = model[-1][0]
        assert isinstance(final, dict)
        rule = final["rule"]
        reached[str(rule)] += 1
        if not drawn.counters.is_default:
            with_counters[str(rule)] += 1

    run()
    for rule in ("6.1", "6.2", "6.3", "6.4", "7.2.2", "7.2.3"):
        assert reached[rule] >= 1, f"no sampled game ended by {rule}: {dict(reached)}"
    assert sum(with_counters[r] for r in ("6.1", "6.2", "6.3", "6.4")) >= 1, dict(with_counters)


def test_z3_encoding_agrees_with_the_oracle_on_drawn_games() -> None:
    reached: set[str] = set()

    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(drawn_games())
    def run(drawn: DrawnGame) -> None:
        moves = drawn.moves[:60]
        start, events = abstract_game(drawn.position, moves, drawn.counters)
        solver = z3.SolverFor(LOGIC)
        trace = EventTrace(solver, default_counters=False)
        machine = DrawMachine(trace, draw_rules_of(INTERNATIONAL))
        for _ in events:
            trace.grow()
            machine.grow()
        solver.add(*trace.fix(start, events))
        assert solver.check() == z3.sat, (drawn.position.fen(), drawn.counters, moves)
        decoded = [o.to_json() for o in machine.decode(solver.model())]
        oracle = _oracle_outcomes(dataclasses.replace(drawn, moves=moves))
        assert decoded == oracle
        reached.add(str(oracle[-1]["rule"]))

    run()
    assert len(reached - {"None"}) >= 3, reached


GAMES = [drawn_game(RandomChooser(seed)) for seed in range(36)]
"""A fixed sample of steered games (seeds 0-35) for the readings and the setup checks."""


@pytest.mark.parametrize("name", list(READINGS))
def test_each_reading_of_the_model_agrees_with_its_oracle_game(name: str) -> None:
    """The model with one reading flipped and the oracle's game for that reading (a rules switch,
    a mutant of the gallery or a Game subclass) agree at every ply: the synthesis relies on it."""
    reading = READINGS[name]
    for drawn in GAMES:
        try:
            game = reading.new_game(drawn.position, drawn.counters)
        except SetupError:
            continue  # counters this reading's rules refuse
        theirs = _oracle_states(game, drawn.moves)
        assert _model_states(drawn, len(theirs) - 1, reading.model) == theirs, drawn


def test_setup_checks_of_the_model_are_the_oracles() -> None:
    """:meth:`DrawMachine.setup_valid` accepts exactly the counters the oracle accepts."""
    rng = random.Random(5)
    rules = draw_rules_of(INTERNATIONAL)
    verdicts: collections.Counter[bool] = collections.Counter()
    for drawn in GAMES:
        for _ in range(8):
            counters = Counters(
                rng.randint(1, 3),
                rng.choice([0, 1, 2, 3, 4, 8, 9, 30, 49, 50]),
                rng.choice([0, 1, 9, 10, 31, 32]),
            )
            try:
                Game(drawn.position, counters)
                accepted = True
            except SetupError:
                accepted = False
            start, _ = abstract_game(drawn.position, (), counters)
            solver = z3.SolverFor(LOGIC)
            trace = EventTrace(solver, default_counters=False)
            machine = DrawMachine(trace, rules)
            solver.add(*trace.fix(start, []), machine.setup_valid())
            assert (solver.check() == z3.sat) == accepted, (drawn.position.fen(), counters)
            verdicts[accepted] += 1
    assert verdicts[True] >= 20, verdicts
    assert verdicts[False] >= 20, verdicts


@pytest.mark.slow  # about 45 s
def test_each_reading_broken_on_one_article_agrees_with_the_gallerys_mutant_on_the_campaign_games() -> None:
    """The gallery's ``READING@ARTICLE`` (an oracle game written apart) and the model's
    :meth:`~conformance.core.draw_events.DrawRules.read_otherwise` agree at every ply of the draw
    campaigns' games, which place every event at every phase of its count -- where the readings
    bite: on them the filing of ``verify`` rests."""
    from conformance.engines.draw_mutants import DRAW_READING_MUTANTS
    from conformance.verify import KINDS
    from conformance.verify.draw_campaigns import draw_game
    from conformance.verify.draw_templates import TEMPLATES
    from oracle.notation import Notation, parse_move

    kinds = KINDS  # the games of the default run (seed 11), remembered per process
    games = [draw_game(11, kinds.index("draws") + r * len(kinds), r) for r in range(len(TEMPLATES))]
    differing = collections.Counter()
    for name, factory in DRAW_READING_MUTANTS.items():
        engine = factory()
        reading, article = name.split("@")
        rules = PROJECT.read_otherwise(reading, article)
        for game in games:
            for texts in (game.moves, *(control.moves for control in game.controls)):
                position, moves = game.position, []
                for text in texts:
                    move = parse_move(position, text, Notation.PDN)
                    moves.append(move)
                    position = play(position, move)
                drawn = DrawnGame("campaign", game.position, Counters(), tuple(moves))
                theirs = _oracle_states(
                    engine.game_factory(game.position, Counters(), engine.rules), drawn.moves
                )
                model = _model_states(drawn, len(theirs) - 1, rules)
                assert model == theirs, (name, game.scenario, game.position.fen(), texts)
                ours = _oracle_states(Game(game.position), drawn.moves)
                differing[name] += ours != theirs
    assert all(differing[name] for name in DRAW_READING_MUTANTS), differing
