"""Move text under every built-in rule set: reading is the inverse of writing (PDN 3.0 move
notation; FMJD Art. 8; oracle/notation.py).

Under free choice of capture (Russian 1.5.14, Pool, American 1.20) a shorter capture's full route
can be the waypoints of a longer capture's route: in ``W:W29:B11,18,19,25,26,27`` (Russian, the
8x8 numbering of rulesets/README.md) the man on 29 can take 25, 18 and 11 (29-22-15-8) or 25, 26,
27, 19 and 11 (29-22-31-24-15-8), and ``29x22x15x8`` lists squares of both routes in order. A text
that is a route of one move names that move (between two landing squares exactly one piece is
jumped); only a text that is no move's route is read as waypoints.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.board import geometry
from oracle.errors import AmbiguousMoveError
from oracle.moves import Move, capture_routes, legal_moves
from oracle.notation import Notation, move_text, parse_move, pdn_text
from oracle.position import Color, Position
from oracle.rules import CaptureChoice, Rules
from oracle.ruleset import BUILTIN, builtin

SHORT_AND_LONG = "W:W29:B11,18,19,25,26,27"
SHORT = Move(29, 8, frozenset({11, 18, 25}))  # 29x25 -> 22, x18 -> 15, x11 -> 8
LONG = Move(29, 8, frozenset({11, 19, 25, 26, 27}))  # 29x25 -> 22, x26 -> 31, x27 -> 24, x19 -> 15, x11 -> 8


@pytest.mark.parametrize("name", ["russian", "pool"])
def test_a_shorter_captures_route_names_it_beside_a_longer_one(name: str) -> None:
    rules = builtin(name)
    position = Position.from_fen(SHORT_AND_LONG, rules)
    assert {SHORT, LONG} <= set(legal_moves(position, rules))
    assert pdn_text(position, SHORT, rules) == "29x22x15x8"
    assert pdn_text(position, LONG, rules) == "29x22x31x24x15x8"
    assert parse_move(position, "29x22x15x8", rules=rules) == SHORT
    assert parse_move(position, "29x22x31x24x15x8", rules=rules) == LONG
    # Waypoints that are no move's route still read as before.
    assert parse_move(position, "29x31x8", rules=rules) == LONG
    with pytest.raises(AmbiguousMoveError):
        parse_move(position, "29x22x8", rules=rules)
    with pytest.raises(AmbiguousMoveError):
        parse_move(position, "29x8", rules=rules)


# -- the property: parse(write(move)) == move, every legal move, every built-in rule set --------


@st.composite
def positions(draw: st.DrawFn, rules: Rules) -> Position:
    """Positions of the rule set's board: a few pieces of the side to move among many of the
    other's, kings drawn often, so that long and branching captures (and free-choice ones) arise."""
    board = geometry(rules.board_size)
    squares = list(board.squares)
    taken: set[int] = set()

    def pick(white: bool, kings: bool, most: int) -> set[int]:
        far = board.far_row(white)
        allowed = [s for s in squares if s not in taken and (kings or board.row_of(s) != far)]
        chosen = draw(st.sets(st.sampled_from(allowed), max_size=most))
        taken.update(chosen)
        return chosen

    turn = draw(st.sampled_from(Color))
    mover_white = turn is Color.WHITE
    mover_men, mover_kings = pick(mover_white, False, 3), pick(mover_white, True, 2)
    other_men, other_kings = pick(not mover_white, False, 9), pick(not mover_white, True, 3)
    white = (mover_men, mover_kings) if mover_white else (other_men, other_kings)
    black = (other_men, other_kings) if mover_white else (mover_men, mover_kings)
    return Position.from_squares(turn, white[0], white[1], black[0], black[1], rules)


def _is_proper_subsequence(short: tuple[int, ...], long: tuple[int, ...]) -> bool:
    remaining = iter(long)
    return len(short) < len(long) and all(square in remaining for square in short)


@pytest.mark.parametrize("name", BUILTIN)
@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_legal_move_reads_back_from_its_text(name: str, data: st.DataObject) -> None:
    rules = builtin(name)
    position = data.draw(positions(rules))
    moves = legal_moves(position, rules)
    for move in moves:
        for notation in Notation:
            assert parse_move(position, move_text(position, move, notation, rules), notation, rules) == move
    if rules.capture_choice is CaptureChoice.MAXIMUM:
        # Maximum capture: the legal captures take equally many pieces, so no route of one is a
        # proper subsequence of a route of another, and a route read exactly or as waypoints names
        # the same move (international texts and readings are unchanged).
        routes = [route for every in capture_routes(position, rules).values() for route in every]
        assert not any(_is_proper_subsequence(a, b) for a, b in itertools.permutations(routes, 2))
