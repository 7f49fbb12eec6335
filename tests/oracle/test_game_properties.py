"""Properties of games on generated positions and random legal play (Hypothesis).

* undo restores the exact game state, and replaying the same move gives the same state again;
* the counters never go negative and stay below their limits while the game goes on;
* the 6.2 count goes up by one exactly on king moves without capture, and is 0 otherwise;
* a 6.3/6.4 count starts (at 0) only at the setup position, on a capture or on a promotion, and
  otherwise goes up by one each ply;
* the live counters of a game that goes on are valid setup counters for its current position.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.board import SQUARES
from oracle.counters import Counters
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Color, Kind, Position


@st.composite
def small_positions(draw: st.DrawFn) -> Position:
    """One to four pieces a side, kings likely: the Art. 6.3/6.4 endings come up often."""
    order = draw(st.permutations(SQUARES))
    counts = {
        (color, kind): draw(st.integers(0, 2 if kind is Kind.MAN else 3)) for color in Color for kind in Kind
    }
    for color in Color:
        if counts[(color, Kind.MAN)] + counts[(color, Kind.KING)] == 0:
            counts[(color, Kind.KING)] = 1
    placed: dict[tuple[Color, Kind], set[int]] = {key: set() for key in counts}
    free = list(order)
    for (color, kind), count in counts.items():
        for square in list(free):
            if len(placed[(color, kind)]) == count:
                break
            far_row = range(1, 6) if color is Color.WHITE else range(46, 51)
            if kind is Kind.MAN and square in far_row:
                continue  # a man never stands on its own promotion row
            placed[(color, kind)].add(square)
            free.remove(square)
    return Position.from_squares(
        draw(st.sampled_from(list(Color))),
        white_men=placed[(Color.WHITE, Kind.MAN)],
        white_kings=placed[(Color.WHITE, Kind.KING)],
        black_men=placed[(Color.BLACK, Kind.MAN)],
        black_kings=placed[(Color.BLACK, Kind.KING)],
    )


def random_play(game: Game, data: st.DataObject, plies: int) -> list[Move]:
    played = []
    for _ in range(plies):
        if game.is_over:
            break
        played.append(game.play(data.draw(st.sampled_from(game.legal_moves()))))
    return played


@settings(max_examples=150, deadline=None)
@given(small_positions(), st.data())
def test_undo_restores_the_exact_state(position: Position, data: st.DataObject) -> None:
    game = Game(position)
    states = [game.snapshot()]
    for _ in range(data.draw(st.integers(0, 60))):
        if game.is_over:
            break
        move = game.play(data.draw(st.sampled_from(game.legal_moves())))
        states.append(game.snapshot())
        assert game.undo() == move
        assert game.snapshot() == states[-2]
        game.play(move)
        assert game.snapshot() == states[-1]
    while game.ply:
        states.pop()
        game.undo()
        assert game.snapshot() == states[-1]
    assert game.occurrences == 1


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_undo_from_the_initial_position(data: st.DataObject) -> None:
    game = Game()
    start = game.snapshot()
    random_play(game, data, 40)
    while game.ply:
        game.undo()
    assert game.snapshot() == start


def _is_promotion(before: Position, after: Position, move: Move) -> bool:
    piece_before, piece_after = before.piece_at(move.from_square), after.piece_at(move.to_square)
    assert piece_before is not None
    assert piece_after is not None
    return piece_before.kind is Kind.MAN and piece_after.kind is Kind.KING


@settings(max_examples=200, deadline=None)
@given(small_positions(), st.data())
def test_counters_follow_the_rules(position: Position, data: st.DataObject) -> None:
    game = Game(position)
    clock = game.endgame_clock
    assert clock is None or clock.plies == 0  # at setup, the ending arises now
    for _ in range(80):
        if game.is_over:
            break
        before, count_before, clock_before = game.position, game.no_progress_plies, game.endgame_clock
        move = game.play(data.draw(st.sampled_from(game.legal_moves())))
        after, clock = game.position, game.endgame_clock
        piece = before.piece_at(move.from_square)
        assert piece is not None

        assert game.occurrences >= 1
        king_quiet = piece.kind is Kind.KING and not move.is_capture
        assert game.no_progress_plies == (count_before + 1 if king_quiet else 0)

        if clock is not None:
            assert 0 <= clock.plies <= clock.limit
            if clock.plies == 0:
                assert move.is_capture or _is_promotion(before, after, move), (
                    "a count started on a quiet move"
                )
            else:
                assert clock_before is not None
                assert clock_before.article == clock.article
                assert clock.plies == clock_before.plies + 1
            assert game.no_progress_plies <= clock.plies

        if not game.is_over:
            # the live counters describe a reachable state: a game can be set up with them
            Game(after, game.counters())
        assert all(value >= 0 for value in game.counters().to_dict().values())


@settings(max_examples=100, deadline=None)
@given(small_positions())
def test_default_counters_fit_any_position(position: Position) -> None:
    game = Game(position, Counters())
    assert game.counters() == Counters()
