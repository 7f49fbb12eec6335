"""Hypothesis properties of the oracle (FMJD Art. 2-4; rules.md).

* FEN round trip: parse(format(p)) == p.
* Colour-flip symmetry: turning the board half round (square s <-> 51 - s) and swapping the
  colours and the side to move mirrors the legal-move set.
* Piece conservation: after a move the mover keeps its pieces, the opponent loses exactly the
  captured ones, and nothing else changes.
* No man is left on its own promotion row after a move (3.5).
* The FEN parser fails on any text with FenError and nothing else.
"""

from __future__ import annotations

import contextlib
import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.board import row_of
from oracle.errors import FenError
from oracle.moves import Move, count_legal_moves, legal_moves, play
from oracle.position import Color, Kind, Piece, Position
from oracle.rules import INTERNATIONAL, CaptureChoice, MidCaptureCrowning, Rules

PROPERTY = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Valid positions: men off their own promotion row, at most 20 pieces a side.

    Kings are drawn often (up to six a side) so that flying captures get exercised.
    """
    taken: set[int] = set()

    def pick(candidates: range, most: int) -> set[int]:
        squares = draw(st.sets(st.sampled_from([s for s in candidates if s not in taken]), max_size=most))
        taken.update(squares)
        return squares

    white_men = pick(range(6, 51), 12)
    black_men = pick(range(1, 46), 12)
    white_kings = pick(range(1, 51), 6)
    black_kings = pick(range(1, 51), 6)
    turn = draw(st.sampled_from(Color))
    return Position.from_squares(turn, white_men, white_kings, black_men, black_kings)


def _fen_text(turn: Color, men: set[int], kings: set[int], black_men: set[int], black_kings: set[int]) -> str:
    def section(letter: str, m: set[int], k: set[int]) -> str:
        return letter + ",".join([str(s) for s in sorted(m)] + [f"K{s}" for s in sorted(k)])

    return f"{turn.value}:{section('W', men, kings)}:{section('B', black_men, black_kings)}"


# -- FEN ------------------------------------------------------------------------------------------


@PROPERTY
@given(positions())
def test_fen_round_trip(position: Position) -> None:
    text = position.fen()
    assert Position.from_fen(text) == position
    assert Position.from_fen(text).fen() == text  # canonical output is a fixed point


@PROPERTY
@given(positions(), st.booleans())
def test_fen_sections_in_either_order(position: Position, black_first: bool) -> None:
    side, white, black = position.fen().split(":")
    text = f"{side}:{black}:{white}" if black_first else f"{side}:{white}:{black}"
    assert Position.from_fen(text) == position


@PROPERTY
@given(positions())
def test_fen_describes_every_square(position: Position) -> None:
    # Reading the canonical FEN by hand gives back exactly the placement.
    side, white, black = position.fen().split(":")
    assert side == position.turn.value
    for color, section in ((Color.WHITE, white), (Color.BLACK, black)):
        assert section[0] == color.value
        items = section[1:].split(",") if section[1:] else []
        for item in items:
            kind = Kind.KING if item.startswith("K") else Kind.MAN
            assert position.piece_at(int(item.lstrip("K"))) == Piece(color, kind)
        assert len(items) == position.count(color)


@settings(max_examples=300, deadline=None, database=None)
@given(st.text())
def test_fen_parser_on_arbitrary_text_raises_only_fen_error(text: str) -> None:
    with contextlib.suppress(FenError):
        Position.from_fen(text)


@settings(max_examples=1000, deadline=None, database=None)
@given(st.text(alphabet="WBK0123456789,:- ", max_size=40))
def test_fen_parser_on_fen_like_text_raises_only_fen_error(text: str) -> None:
    try:
        position = Position.from_fen(text)
    except FenError:
        return
    # Whatever it accepts is a valid position that formats and parses back.
    assert Position.from_fen(position.fen()) == position
    assert position.count(Color.WHITE) <= 20
    assert position.count(Color.BLACK) <= 20


@settings(max_examples=300, deadline=None, database=None)
@given(
    st.sampled_from("WB"),
    st.lists(st.tuples(st.sampled_from("WB"), st.booleans(), st.integers(-3, 55), st.integers(-3, 55))),
)
def test_fen_parser_on_structured_fen_like_text(side: str, items: list[tuple[str, bool, int, int]]) -> None:
    sections: dict[str, list[str]] = {"W": [], "B": []}
    for letter, king, a, b in items:
        sections[letter].append(("K" if king else "") + (str(a) if a == b else f"{a}-{b}"))
    text = f"{side}:W{','.join(sections['W'])}:B{','.join(sections['B'])}"
    message = None
    try:
        Position.from_fen(text)
    except FenError as error:
        message = str(error)
    assert message is None or message  # when it fails, with a message, never an empty one


# -- mirror and colour-flip symmetry --------------------------------------------------------------


@PROPERTY
@given(positions())
def test_mirror_is_an_involution(position: Position) -> None:
    assert position.mirror().mirror() == position


@PROPERTY
@given(positions())
def test_mirror_moves_each_piece_to_51_minus_s_with_the_other_colour(position: Position) -> None:
    mirrored = position.mirror()
    assert mirrored.turn is position.turn.opponent
    for square in range(1, 51):
        piece = position.piece_at(square)
        flipped = mirrored.piece_at(51 - square)
        assert (flipped is None) == (piece is None)
        if piece is not None and flipped is not None:
            assert flipped == Piece(piece.color.opponent, piece.kind)


RULE_VARIANTS = [
    INTERNATIONAL,
    dataclasses.replace(INTERNATIONAL, men_capture_backward=False),
    dataclasses.replace(INTERNATIONAL, flying_kings=False),
    dataclasses.replace(INTERNATIONAL, capture_choice=CaptureChoice.FREE),
    dataclasses.replace(INTERNATIONAL, mid_capture_crowning=MidCaptureCrowning.CROWNS),
]


@PROPERTY
@given(positions(), st.sampled_from(RULE_VARIANTS))
def test_colour_flip_symmetry_of_the_legal_moves(position: Position, rules: Rules) -> None:
    def flip(key: tuple[int, int, frozenset[int]]) -> tuple[int, int, frozenset[int]]:
        from_square, to_square, captured = key
        return 51 - from_square, 51 - to_square, frozenset(51 - s for s in captured)

    moves = {m.key for m in legal_moves(position, rules)}
    assert {m.key for m in legal_moves(position.mirror(), rules)} == {flip(k) for k in moves}
    for move in legal_moves(position, rules):
        mirrored = Move(*flip(move.key))
        assert play(position.mirror(), mirrored, rules) == play(position, move, rules).mirror()


# -- playing moves --------------------------------------------------------------------------------


@PROPERTY
@given(positions())
def test_piece_conservation_and_no_man_on_its_promotion_row(position: Position) -> None:
    mover, other = position.turn, position.turn.opponent
    for move in legal_moves(position):
        after = play(position, move)
        assert after.turn is other
        # Pieces after = before - captured; the mover keeps all of its own.
        assert after.count(mover) == position.count(mover)
        assert after.count(other) == position.count(other) - len(move.captured)
        for square in move.captured:
            piece = position.piece_at(square)
            assert piece is not None
            assert piece.color is other
            assert after.piece_at(square) is None or square == move.to_square
        # The piece went from -> to; a man is crowned exactly when it ends on the far row.
        moved = position.piece_at(move.from_square)
        assert moved is not None
        assert moved.color is mover
        landed = after.piece_at(move.to_square)
        crowned = moved.kind is Kind.MAN and row_of(move.to_square) == mover.promotion_row
        assert landed == Piece(mover, Kind.KING if crowned or moved.kind is Kind.KING else Kind.MAN)
        if move.from_square != move.to_square:
            assert after.piece_at(move.from_square) is None
        # Every other square is untouched.
        touched = {move.from_square, move.to_square} | move.captured
        for square in range(1, 51):
            if square not in touched:
                assert after.piece_at(square) == position.piece_at(square)
        # No man on its own promotion row (Art. 3.5): the result is a valid FEN.
        for color in Color:
            assert all(row_of(s) != color.promotion_row for s in after.squares(color, Kind.MAN))
        assert Position.from_fen(after.fen()) == after


@PROPERTY
@given(positions())
def test_capture_is_compulsory_and_the_maximum(position: Position) -> None:
    moves = legal_moves(position)
    counts = {len(m.captured) for m in moves}
    assert len(counts) <= 1  # all steps, or captures all taking the same number (4.13)


@settings(max_examples=40, deadline=None, database=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=40))
def test_random_games_from_the_start_keep_every_invariant(choices: list[int]) -> None:
    position = Position.initial()
    for choice in choices:
        moves = legal_moves(position)
        if not moves:
            break
        move = moves[choice % len(moves)]
        after = play(position, move)
        assert after.count(position.turn.opponent) == position.count(position.turn.opponent) - len(
            move.captured
        )
        assert after.count(position.turn) == position.count(position.turn)
        assert Position.from_fen(after.fen()) == after
        assert {m.key for m in legal_moves(after.mirror())} == {
            (51 - m.from_square, 51 - m.to_square, frozenset(51 - s for s in m.captured))
            for m in legal_moves(after)
        }
        position = after


@given(positions(), st.sampled_from(RULE_VARIANTS))
def test_counting_the_moves_agrees_with_listing_them(position: Position, rules: Rules) -> None:
    """perft's last ply counts steps without building them: the count must be the list's length."""
    assert count_legal_moves(position, rules) == len(legal_moves(position, rules))


@PROPERTY
@given(positions(), st.sampled_from(RULE_VARIANTS))
def test_the_quick_king_jump_test_agrees_with_the_capture_search(position: Position, rules: Rules) -> None:
    """``raw_captures`` skips the kings' search when no king has a first jump: that test must say
    "no jump" exactly when the full search of every king finds no capture (4.1, 4.3)."""
    from oracle.captures import CaptureSearch, _a_king_can_jump

    turn = position.turn
    kings, enemies = position.kings(turn), position.pieces(turn.opponent)
    empty = rules.geometry.all_squares & ~position.occupied
    search = CaptureSearch(position, rules)
    found = any(search.captures_from(square, True) for square in rules.geometry.squares_of(kings))
    assert _a_king_can_jump(kings, enemies, empty, rules.flying_kings, rules.geometry) == found
