"""The Game API: outcomes, setup counters and their checks, history, undo, errors (Art. 6, 7)."""

from __future__ import annotations

import dataclasses

import pytest

from oracle import (
    INTERNATIONAL,
    AmbiguousMoveError,
    Color,
    Counters,
    EndgameClock,
    Game,
    GameOverError,
    IllegalMoveError,
    Move,
    MoveSyntaxError,
    Notation,
    Outcome,
    Position,
    Result,
    Rules,
    SetupError,
)
from oracle.counters import check_counters
from oracle.rules import ARTICLE_6_3, Ending

P6 = "W:WK50,48:BK1,3"  # a king and a man each: no 6.3/6.4 ending
E2 = "W:WK48,K50:BK1"  # 2K v K (6.4)
E3 = "W:WK46,K48,K50:BK1"  # 3K v K (6.3)


def game_at(fen: str, counters: Counters | None = None, rules: Rules = INTERNATIONAL) -> Game:
    return Game(Position.from_fen(fen), counters, rules)


# -- Outcome ------------------------------------------------------------------------------


def test_outcome_json_round_trip() -> None:
    for outcome in (
        Outcome(Result.ONGOING),
        Outcome(Result.DRAW, "6.1", 8),
        Outcome(Result.WHITE_WINS, "7.2.3", 3),
        Outcome(Result.BLACK_WINS, "7.2.2", 0),
    ):
        assert Outcome.from_json(outcome.to_json()) == outcome
    assert Outcome(Result.DRAW, "6.2", 50).to_json() == {"result": "draw", "rule": "6.2", "ply": 50}
    assert Outcome.from_json({"result": "ongoing"}) == Outcome(Result.ONGOING)


def test_outcome_winner() -> None:
    assert Outcome(Result.WHITE_WINS, "7.2.2", 1).winner is Color.WHITE
    assert Outcome(Result.BLACK_WINS, "7.2.3", 1).winner is Color.BLACK
    assert Outcome(Result.DRAW, "6.4", 10).winner is None
    assert Outcome(Result.ONGOING).winner is None
    assert not Outcome(Result.ONGOING).is_over


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"result": "won"}, "not one of"),
        ({"result": "draw", "rule": "6.1", "ply": 3, "why": "x"}, "unknown outcome field"),
        ({"rule": "6.1"}, "needs a 'result'"),
        ({"result": "draw", "ply": 3}, "needs a rule"),
        ({"result": "ongoing", "rule": "6.1"}, "ongoing game has no"),
        ({"result": "draw", "rule": "6.1", "ply": -1}, "0 or more"),
    ],
)
def test_outcome_from_json_rejects(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Outcome.from_json(data)


def test_outcome_text_names_rule_and_ply() -> None:
    assert (
        str(Outcome(Result.DRAW, "6.3", 32)) == "draw (Art. 6.3, three pieces against a lone king) at ply 32"
    )
    assert str(Outcome(Result.BLACK_WINS, "7.2.2", 5)).startswith("black wins (Art. 7.2.2")


# -- Counters -----------------------------------------------------------------------------


def test_counters_dict_format() -> None:
    counters = Counters.from_dict({"occurrences": 2, "no_progress_plies": 10, "endgame_plies": 10})
    assert counters == Counters(2, 10, 10)
    assert counters.to_dict() == {"occurrences": 2, "no_progress_plies": 10, "endgame_plies": 10}
    assert Counters.from_dict({}) == Counters() == Counters.from_dict(None)
    assert Counters.from_dict({"no_progress_plies": 4}) == Counters(1, 4, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"moves": 3}, "unknown counter.*moves.*occurrences, no_progress_plies, endgame_plies"),
        ({"occurrences": 0}, "occurrences must be 1 or more"),
        ({"no_progress_plies": -1}, "no_progress_plies must be 0 or more"),
        ({"endgame_plies": -2}, "endgame_plies must be 0 or more"),
        ({"occurrences": "2"}, "whole number"),
        ({"occurrences": True}, "whole number"),
        ({"no_progress_plies": 1.5}, "whole number"),
        ([("occurrences", 2)], "must be a mapping"),
    ],
)
def test_counters_from_dict_rejects(data: object, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        Counters.from_dict(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fen", "counters"),
    [
        ("W:W31-50:B1-20", Counters()),
        (P6, Counters(occurrences=2, no_progress_plies=4)),
        (P6, Counters(occurrences=2, no_progress_plies=49)),
        (E3, Counters(no_progress_plies=10, endgame_plies=31)),
        (E2, Counters(endgame_plies=9)),
        ("W:W48:BK1,3", Counters(no_progress_plies=1)),  # Black just moved its king
        ("B:WK50:B3", Counters(no_progress_plies=1)),  # White just moved its king
    ],
)
def test_valid_setup_counters(fen: str, counters: Counters) -> None:
    game = game_at(fen, counters)
    assert game.counters() == counters
    assert game.setup_counters == counters
    assert not game.is_over
    position = Position.from_fen(fen)
    check_counters(position, counters, game.endgame_group(position))  # the same check, standalone


@pytest.mark.parametrize(
    ("fen", "counters", "message"),
    [
        (P6, Counters(occurrences=3, no_progress_plies=8), "occurrences=3 reaches the repetition limit"),
        (P6, Counters(no_progress_plies=50), "no_progress_plies=50 reaches the limit of 50"),
        (P6, Counters(endgame_plies=5), "not an ending"),
        (E3, Counters(endgame_plies=32), "endgame_plies=32 reaches the limit of Art. 6.3"),
        (E2, Counters(endgame_plies=10), "endgame_plies=10 reaches the limit of Art. 6.4"),
        ("B:W48:BK1", Counters(no_progress_plies=1), "white, who played it, has no king"),
        ("W:W48:BK1,3", Counters(no_progress_plies=2), "white, who played it, has no king"),
        (P6, Counters(occurrences=2, no_progress_plies=3), "occurrences=2 needs at least 4 plies"),
        (P6, Counters(occurrences=2), "occurrences=2 needs at least 4 plies"),
        (E3, Counters(no_progress_plies=6, endgame_plies=5), "exceeds endgame_plies=5"),
    ],
)
def test_invalid_setup_counters(fen: str, counters: Counters, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        game_at(fen, counters)
    position = Position.from_fen(fen)
    with pytest.raises(SetupError, match=message):  # the same check, standalone
        check_counters(position, counters, Game().endgame_group(position))


def test_counter_limits_follow_the_rules() -> None:
    # Counts valid under one configuration are refused under another, and the other way round.
    rules = Rules(repetition_draw=4, no_progress_moves=30, endgame_counts=INTERNATIONAL.endgame_counts)
    game_at(P6, Counters(occurrences=3, no_progress_plies=59), rules)
    with pytest.raises(SetupError, match="reaches the limit of 60"):
        game_at(P6, Counters(no_progress_plies=60), rules)
    off = Rules(repetition_draw=None, no_progress_moves=None, endgame_counts=INTERNATIONAL.endgame_counts)
    game_at(P6, Counters(occurrences=9, no_progress_plies=400), off)
    no_6_3 = Rules(endgame_counts=INTERNATIONAL.endgame_counts[1:])
    with pytest.raises(SetupError, match="not an ending"):
        game_at(E3, Counters(endgame_plies=3), no_6_3)
    longer = Rules(endgame_counts=(dataclasses.replace(ARTICLE_6_3, moves_each=20),))
    game_at(E3, Counters(endgame_plies=39), longer)
    removed = Rules(
        endgame_counts=(dataclasses.replace(ARTICLE_6_3, endings=ARTICLE_6_3.endings - {Ending(3, 0)}),)
    )
    with pytest.raises(SetupError, match="not an ending"):
        game_at(E3, Counters(endgame_plies=3), removed)


def test_game_accepts_counters_as_mapping() -> None:
    game = Game(Position.from_fen(P6), {"occurrences": 2, "no_progress_plies": 4})
    assert game.occurrences == 2
    assert game.no_progress_plies == 4
    with pytest.raises(SetupError, match="unknown counter"):
        Game(Position.from_fen(P6), {"repetitions": 2})


def test_rules_with_meaningless_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="repetition_draw must be 2 or more"):
        Game(rules=Rules(repetition_draw=1))
    with pytest.raises(ValueError, match="no_progress_moves must be 1 or more"):
        Game(rules=Rules(no_progress_moves=0))


# -- the game: history and live counters --------------------------------------------------


def test_new_game_starts_at_the_initial_position() -> None:
    game = Game()
    assert game.position == Position.from_fen("W:W31-50:B1-20")
    assert game.ply == 0
    assert game.outcome() == Outcome(Result.ONGOING)
    assert game.moves == ()
    assert game.positions == (game.position,)
    assert game.occurrences == 1
    assert game.no_progress_plies == 0
    assert game.endgame_clock is None
    assert len(game.legal_moves()) == 9


def test_history_and_move_texts() -> None:
    game = Game()
    played = [game.play("32-28"), game.play("19-23"), game.play("28x19"), game.play("14x23")]
    assert [str(move) for move in played] == ["32-28", "19-23", "28x19 {23}", "14x23 {19}"]
    assert game.moves == tuple(played)
    assert len(game.positions) == 5
    assert game.positions[0] == game.setup_position
    assert game.positions[-1] == game.position
    assert game.move_texts() == ["32-28", "19-23", "28x19", "14x23"]
    assert game.move_texts(Notation.HUB) == ["32-28", "19-23", "28x19x23", "14x23x19"]
    # Man moves and captures only: the 6.2 count stays at 0.
    assert game.no_progress_plies == 0


def test_play_accepts_move_objects_and_hub_text() -> None:
    game = Game()
    played = game.play(Move(32, 28))
    assert played.route == (32, 28)
    game.play("19-23", Notation.HUB)
    assert game.play("28x19x23", Notation.HUB) == Move(28, 19, frozenset({23}))


def test_a_game_reads_text_with_its_own_reading_step() -> None:
    """The legal moves a game generated for the position are read among only when neither rule step
    (``moves_in``, ``read_move``) is overridden: a subclass's reading is asked, as before."""

    class ReadsFirstStep(Game):
        def read_move(self, position: Position, text: str, notation: Notation) -> Move:
            return next(move for move in self.legal_moves() if not move.captured)

    class KeepsToOneMan(Game):  # its moves are those of the man on 32; text is read by the rules
        def moves_in(self, position: Position) -> list[Move]:
            return [move for move in super().moves_in(position) if move.from_square in (32, 19)]

    assert ReadsFirstStep().play("35-30") == Game().legal_moves()[0] != Move(35, 30)
    assert KeepsToOneMan().play("35-30") == Move(35, 30)
    with pytest.raises(IllegalMoveError):
        Game().play("35-25")


def test_counters_of_the_current_position() -> None:
    game = game_at(E3, Counters(no_progress_plies=2, endgame_plies=5))
    for text in ("50-44", "1-7", "44-50", "7-1"):
        game.play(text)
    assert game.counters() == Counters(occurrences=2, no_progress_plies=6, endgame_plies=9)
    assert game.endgame_clock == EndgameClock("6.3", 9, 32)
    # A game set up there with those counters is accepted.
    Game(game.position, game.counters())


def test_game_over_at_setup() -> None:
    no_pieces = game_at("W:W:B3")
    assert no_pieces.outcome() == Outcome(Result.BLACK_WINS, "7.2.2", 0)
    blocked = game_at("W:W46:B37,41")  # the man on 46 cannot step to 41 nor take it (37 behind)
    assert blocked.outcome() == Outcome(Result.BLACK_WINS, "7.2.3", 0)
    assert blocked.legal_moves() == []


def test_win_by_capturing_the_last_piece() -> None:
    game = game_at("W:W28,32:B23")
    game.play("28x19")
    assert game.outcome() == Outcome(Result.WHITE_WINS, "7.2.2", 1)
    assert game.outcome().winner is Color.WHITE


# -- errors leave the game unchanged --------------------------------------------------------


def test_illegal_move_changes_nothing() -> None:
    game = Game()
    game.play("32-28")
    before = game.snapshot()
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        game.play("32-27")
    with pytest.raises(IllegalMoveError):
        game.play(Move(18, 24))  # 24 is not next to 18
    with pytest.raises(MoveSyntaxError):
        game.play("e3-e4")
    assert game.snapshot() == before


def test_ambiguous_move_changes_nothing() -> None:
    game = game_at("W:WK47:B14,19,29,31,42")  # two different 47x36 (sources.md, pydraughts)
    before = game.snapshot()
    with pytest.raises(AmbiguousMoveError):
        game.play("47x36")
    assert game.snapshot() == before
    game.play("47x38x24x13x36")  # takes 42 (to 38), 29 (to 24), 19 (to 13), 31 (to 36)
    assert game.moves[0].captured == frozenset({19, 29, 31, 42})


def test_playing_after_the_end_raises_game_over() -> None:
    game = game_at(P6, Counters(occurrences=2, no_progress_plies=4))
    for text in ("50-44", "1-7", "44-50", "7-1"):
        game.play(text)
    over = game.outcome()
    assert over == Outcome(Result.DRAW, "6.1", 4)
    before = game.snapshot()
    with pytest.raises(GameOverError, match=r"draw \(Art. 6.1.*at ply 4") as caught:
        game.play("50-44")
    assert caught.value.outcome == over
    with pytest.raises(GameOverError):
        game.play("99-98")  # even nonsense: the game is over first
    assert game.snapshot() == before


def test_undo_restores_and_resumes() -> None:
    game = game_at(P6, Counters(occurrences=2, no_progress_plies=4))
    states = [game.snapshot()]
    for text in ("50-44", "1-7", "44-50", "7-1"):
        game.play(text)
        states.append(game.snapshot())
    assert game.is_over
    for expected in reversed(states[:-1]):
        undone = game.undo()
        assert game.snapshot() == expected
        assert isinstance(undone, Move)
    assert game.ply == 0
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    game.play("50-39")  # after the undo the game goes on another way
    assert not game.is_over
