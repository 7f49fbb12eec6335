"""PDN FEN in and out, and position validation (FMJD Art. 2; PDN 3.0 FEN tag; rules.md).

A valid position has no White man on 1-5, no Black man on 46-50, at most 20 pieces a side, each
square at most once and squares only 1..50; an empty side is legal. Every rejection is a
FenError whose message names the offending token.
"""

from __future__ import annotations

import pytest

from oracle.board import BIT
from oracle.errors import FenError
from oracle.moves import play
from oracle.notation import parse_move
from oracle.position import Color, Kind, Piece, Position

WHITE_MAN = Piece(Color.WHITE, Kind.MAN)
WHITE_KING = Piece(Color.WHITE, Kind.KING)
BLACK_MAN = Piece(Color.BLACK, Kind.MAN)
BLACK_KING = Piece(Color.BLACK, Kind.KING)


def csv(squares: range | list[int]) -> str:
    return ",".join(str(s) for s in squares)


START_CANONICAL = f"W:W{csv(range(31, 51))}:B{csv(range(1, 21))}"


# -- parsing forms ---------------------------------------------------------------------------


def test_start_position_with_ranges() -> None:
    position = Position.from_fen("W:W31-50:B1-20")
    assert position.turn is Color.WHITE
    assert position.squares(Color.WHITE, Kind.MAN) == list(range(31, 51))
    assert position.squares(Color.BLACK, Kind.MAN) == list(range(1, 21))
    assert position.squares(Color.WHITE, Kind.KING) == position.squares(Color.BLACK, Kind.KING) == []
    assert position == Position.initial()


@pytest.mark.parametrize(
    "fen",
    [
        "W:B1-20:W31-50",  # sections in either order
        f"W:W{csv(range(31, 51))}:B{csv(range(1, 21))}",  # no ranges
        "W:W31-35,36-40,41-50:B1-10,11-15,16-20",  # several ranges
        "  W:W31-50:B1-20\n",  # surrounding whitespace
        "\tW:W31-50:B1-20  ",
    ],
)
def test_equivalent_spellings_of_the_start(fen: str) -> None:
    assert Position.from_fen(fen) == Position.initial()


def test_side_letter() -> None:
    assert Position.from_fen("B:W31-50:B1-20").turn is Color.BLACK
    assert Position.from_fen("W:W31-50:B1-20").turn is Color.WHITE
    assert Position.from_fen("B:W31-50:B1-20") != Position.from_fen("W:W31-50:B1-20")


def test_king_prefix_and_king_range() -> None:
    position = Position.from_fen("B:WK31-35,K1,40:B12,K46")
    assert position.squares(Color.WHITE, Kind.KING) == [1, 31, 32, 33, 34, 35]
    assert position.squares(Color.WHITE, Kind.MAN) == [40]
    assert position.squares(Color.BLACK, Kind.MAN) == [12]
    assert position.squares(Color.BLACK, Kind.KING) == [46]
    assert position.piece_at(1) == WHITE_KING
    assert position.piece_at(40) == WHITE_MAN
    assert position.piece_at(12) == BLACK_MAN
    assert position.piece_at(46) == BLACK_KING
    assert position.piece_at(2) is None


def test_k_applies_to_its_own_item_only() -> None:
    # "WK41,49": 41 is a king, 49 a man (dctl FFJD position of sources.md).
    position = Position.from_fen("W:WK41,49:B9,10,12,19,38")
    assert position.piece_at(41) == WHITE_KING
    assert position.piece_at(49) == WHITE_MAN


@pytest.mark.parametrize(
    ("fen", "white", "black"),
    [
        ("W:W31-50:B", 20, 0),  # an empty side
        ("W:W31-50", 20, 0),  # a missing section
        ("B:B1-20", 0, 20),
        ("W:W:B", 0, 0),
        ("W", 0, 0),
    ],
)
def test_empty_side_and_missing_section(fen: str, white: int, black: int) -> None:
    position = Position.from_fen(fen)
    assert position.count(Color.WHITE) == white
    assert position.count(Color.BLACK) == black


def test_twenty_pieces_a_side_is_allowed() -> None:
    position = Position.from_fen("W:W11-30:BK31-50")
    assert position.count(Color.WHITE) == position.count(Color.BLACK) == 20


def test_kings_may_stand_on_any_row() -> None:
    position = Position.from_fen("W:WK1-5:BK46-50")
    assert position.squares(Color.WHITE, Kind.KING) == [1, 2, 3, 4, 5]
    assert position.squares(Color.BLACK, Kind.KING) == [46, 47, 48, 49, 50]


def test_men_on_the_opponents_promotion_row_are_allowed() -> None:
    # White men on 46-50 and Black men on 1-5 are their own back rows: legal.
    position = Position.from_fen("W:W46-50:B1-5")
    assert position.count(Color.WHITE, Kind.MAN) == position.count(Color.BLACK, Kind.MAN) == 5


# -- canonical output ------------------------------------------------------------------------


def test_canonical_output_of_the_start() -> None:
    assert Position.from_fen("W:B1-20:W31-50").fen() == START_CANONICAL
    assert str(Position.initial()) == START_CANONICAL


def test_a_position_remembers_its_own_fen_only() -> None:
    # The FEN is written once and kept; positions derived from one (another side to move, a
    # move played, the mirror) get their own, and the kept FEN is no part of equality.
    start = Position.initial()
    assert start.fen() == START_CANONICAL
    assert start.fen() is start.fen()  # written once
    assert start.with_turn(Color.BLACK).fen() == START_CANONICAL.replace("W:", "B:", 1)
    assert start.mirror().fen() == START_CANONICAL.replace("W:", "B:", 1)
    after = play(start, parse_move(start, "32-28"))  # built by the move generator's fast path
    assert after.fen() == f"B:W28,31,{csv(range(33, 51))}:B{csv(range(1, 21))}"
    fresh = Position.initial()
    assert fresh == start
    assert hash(fresh) == hash(start)
    assert repr(fresh) == repr(start)


@pytest.mark.parametrize(
    ("fen", "canonical"),
    [
        # Kings sorted in with the men, side to move first, W section before B.
        (
            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
            "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        ),
        ("W:B38,K25:WK41-43,6", "W:W6,K41,K42,K43:BK25,38"),
        ("W:W31-50", f"W:W{csv(range(31, 51))}:B"),
        ("B:B", "B:W:B"),
        (" B:B12,13:W50 ", "B:W50:B12,13"),
    ],
)
def test_canonical_output(fen: str, canonical: str) -> None:
    position = Position.from_fen(fen)
    assert position.fen() == canonical
    assert Position.from_fen(canonical) == position


def test_positions_are_hashable_and_compare_by_value() -> None:
    a = Position.from_fen("W:W31-50:B1-20")
    b = Position.from_fen("W:B1-20:W31-50")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, a.with_turn(Color.BLACK)}) == 2


def test_from_squares_builds_the_same_position() -> None:
    position = Position.from_squares(
        Color.BLACK, white_men={32}, white_kings={5}, black_men={12}, black_kings={46}
    )
    assert position == Position.from_fen("B:W32,K5:B12,K46")


def test_from_squares_validates_like_a_fen() -> None:
    with pytest.raises(FenError, match="'3'"):
        Position.from_squares(Color.WHITE, white_men={3})


def test_mirror_of_a_hand_built_position() -> None:
    # s -> 51 - s, colours and side swapped: W man 31 -> B man 20, W king 45 -> B king 6, ...
    position = Position.from_fen("W:W31,K45:B1,K2")
    assert position.mirror() == Position.from_fen("B:W50,K49:B20,K6")
    assert position.mirror().mirror() == position


def test_start_position_is_its_own_mirror() -> None:
    start = Position.initial()
    assert start.mirror() == start.with_turn(Color.BLACK)


def test_placement_bitboards_use_the_board_bits() -> None:
    position = Position.from_fen("W:W31,K45:B1,K2")
    assert (position.white_men, position.white_kings) == (BIT[31], BIT[45])
    assert (position.black_men, position.black_kings) == (BIT[1], BIT[2])


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "token"),
    [
        # Men on their own promotion row (Art. 3.5): White on 1-5, Black on 46-50.
        ("W:W3:B20", "'3'"),
        ("W:W31,1:B20", "'1'"),
        ("W:W1-5:B20", "'1-5'"),
        ("W:W31:B46", "'46'"),
        ("B:W31:B20,50", "'50'"),
        ("B:W31:B45-47", "'45-47'"),
    ],
)
def test_man_on_its_own_promotion_row(fen: str, token: str) -> None:
    with pytest.raises(FenError, match="promotion row") as error:
        Position.from_fen(fen)
    assert token in str(error.value)


@pytest.mark.parametrize(
    ("fen", "token"),
    [
        ("W:W0:B20", "'0'"),
        ("W:W31:B51", "'51'"),
        ("W:WK0:B20", "'K0'"),
        ("W:W31:BK51", "'K51'"),
        ("W:W45-51:B1", "'45-51'"),
        ("W:W0-3:B9", "'0-3'"),
        ("W:W31:B99999999999999999999", "'99999999999999999999'"),
    ],
)
def test_square_outside_1_to_50(fen: str, token: str) -> None:
    with pytest.raises(FenError, match="outside 1-50") as error:
        Position.from_fen(fen)
    assert token in str(error.value)


@pytest.mark.parametrize(
    ("fen", "square"),
    [
        ("W:W31,31:B1", "31"),  # within a side
        ("W:W31,K31:B1", "31"),  # as a man and as a king
        ("W:W31-35,33:B1", "33"),  # inside a range
        ("W:W31:B31", "31"),  # across sides
        ("W:W31:BK31", "31"),
        ("W:B20:W20", "20"),
    ],
)
def test_square_listed_twice(fen: str, square: str) -> None:
    with pytest.raises(FenError, match="twice") as error:
        Position.from_fen(fen)
    assert f"square {square}" in str(error.value)


@pytest.mark.parametrize(
    ("fen", "color"),
    [
        ("W:W21-41:B1", "white"),  # 21 men
        ("W:W31:BK1-21", "black"),  # 21 kings
        ("W:W11-30,K31:B1", "white"),  # 20 men and a king
    ],
)
def test_more_than_twenty_pieces_a_side(fen: str, color: str) -> None:
    with pytest.raises(FenError, match="21 pieces") as error:
        Position.from_fen(fen)
    assert color in str(error.value)


@pytest.mark.parametrize(
    ("fen", "token"),
    [
        ("hello", "'hello'"),  # not a side letter at all
        ("X:W31:B1", "'X'"),  # bad side letter
        ("w:W31:B1", "'w'"),  # side letters are capitals
        ("WB:W31:B1", "'WB'"),
        ("W:W31:X1", "'X1'"),  # a section that is neither W nor B
        ("W:W31:B1:Q", "'Q'"),
        ("W:W31:B1:", "''"),  # an empty section after a trailing colon
        ("W:Wa:B1", "'a'"),  # not a square
        ("W:W31;32:B1", "'31;32'"),
        ("W:W3 1:B1", "'3 1'"),
        ("W:W31,,32:B1", "''"),  # two commas in a row
        ("W:W31-:B1", "'31-'"),  # a range without its end
        ("W:W-31:B1", "'-31'"),
        ("W:WK:B1", "'K'"),
        ("W:W31-35-40:B1", "'31-35-40'"),
        ("W:WKK31:B1", "'KK31'"),
        ("W:W31x:B1", "'31x'"),
        ("W:W31:W32", "white section appears twice"),  # a section twice
    ],
)
def test_garbage(fen: str, token: str) -> None:
    with pytest.raises(FenError) as error:
        Position.from_fen(fen)
    assert token in str(error.value)


@pytest.mark.parametrize(("fen", "token"), [("W:W35-31:B1", "'35-31'"), ("W:WK40-36:B1", "'K40-36'")])
def test_backward_range(fen: str, token: str) -> None:
    with pytest.raises(FenError, match="backward") as error:
        Position.from_fen(fen)
    assert token in str(error.value)


@pytest.mark.parametrize("fen", ["", "   ", "\n\t"])
def test_empty_string(fen: str) -> None:
    with pytest.raises(FenError, match="empty"):
        Position.from_fen(fen)


def test_a_non_string_is_a_fen_error() -> None:
    with pytest.raises(FenError, match="string"):
        Position.from_fen(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("fen", ["W:W\uff13\uff11:B1", "W:W31:B\u0661\u0662"])
def test_non_ascii_digits_are_garbage(fen: str) -> None:
    # PDN FEN is ASCII: fullwidth or Arabic-Indic digits are not squares.
    with pytest.raises(FenError, match="not a square"):
        Position.from_fen(fen)


def test_fen_error_is_a_value_error() -> None:
    assert issubclass(FenError, ValueError)
