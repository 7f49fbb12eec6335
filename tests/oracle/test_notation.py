"""Move text in and out: PDN 3.0 and the Hub protocol (FMJD Art. 8; rules.md "Move identity and
notation"; the notation table of sources.md).

PDN: ``32-28``, ``28x19``, and the full route -- one square per captured piece, where the
capture turns or right behind the piece when it goes straight on -- when ``fromxto`` is
ambiguous. Hub: ``from-to`` or ``fromxto`` followed by every captured square.
"""

from __future__ import annotations

import pytest

from oracle.errors import AmbiguousMoveError, IllegalMoveError, MoveError, MoveSyntaxError, SquareRangeError
from oracle.moves import Move, legal_moves
from oracle.notation import Notation, hub_text, move_text, parse_move, pdn_text
from oracle.position import Position

PDN, HUB = Notation.PDN, Notation.HUB

TWO_47x36 = "W:WK47:B14,19,29,31,42"  # pydraughts
TWO_4x15 = "W:WK4:B13,32,37,20"  # py-draughts
KING_LOOP = "W:WK38:B18,19,32,33"  # pydraughts
MAN_LOOP = "W:W38:B22,23,32,33"
TURKISH = "B:W27,28,38,39,42:BK25"  # dctl IT


def m(from_square: int, to_square: int, *captured: int) -> Move:
    return Move(from_square, to_square, frozenset(captured))


def pos(fen: str) -> Position:
    return Position.from_fen(fen)


# -- out ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "move", "pdn", "hub"),
    [
        ("W:W31-50:B1-20", m(32, 28), "32-28", "32-28"),
        ("B:BK1", m(1, 45), "1-45", "1-45"),
        ("W:W28,32:B23", m(28, 19, 23), "28x19", "28x19x23"),
        # sources.md notation table (PDN as pydraughts / py-draughts assert it, Hub by its spec).
        (TWO_47x36, m(47, 36, 19, 29, 31, 42), "47x38x24x13x36", "47x36x19x29x31x42"),
        (TWO_47x36, m(47, 36, 14, 29, 31, 42), "47x38x20x9x36", "47x36x14x29x31x42"),
        (TWO_4x15, m(4, 15, 13, 20, 32), "4x27x38x15", "4x15x13x20x32"),
        (TWO_4x15, m(4, 15, 13, 20, 37), "4x31x42x15", "4x15x13x20x37"),
        # One move, two routes: 38x38 is not ambiguous, so PDN needs no route.
        (KING_LOOP, m(38, 38, 18, 19, 32, 33), "38x38", "38x38x18x19x32x33"),
        (MAN_LOOP, m(38, 38, 22, 23, 32, 33), "38x38", "38x38x22x23x32x33"),
        (TURKISH, m(25, 33, 27, 28, 39, 42), "25x33", "25x33x27x28x39x42"),
        ("B:WK2,28,31,44:B20,K50", m(50, 36, 28, 31, 44), "50x36", "50x36x28x31x44"),
        # A man capture that ends on the far row reads like any other.
        ("W:W15:B8,19,20", m(15, 2, 8, 19, 20), "15x2", "15x2x8x19x20"),
    ],
)
def test_text_out(fen: str, move: Move, pdn: str, hub: str) -> None:
    position = pos(fen)
    assert pdn_text(position, move) == pdn
    assert move_text(position, move, PDN) == pdn
    assert move_text(position, move, HUB) == hub
    assert hub_text(move) == hub


@pytest.mark.parametrize("notation", [PDN, HUB])
def test_text_out_of_an_illegal_move(notation: Notation) -> None:
    with pytest.raises(IllegalMoveError):
        move_text(pos("W:W28,32:B23"), m(32, 27), notation)


# -- in: the accepted forms --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "text", "notation", "move"),
    [
        ("W:W31-50:B1-20", "32-28", PDN, m(32, 28)),
        ("W:W31-50:B1-20", "32-28", HUB, m(32, 28)),
        ("W:W31-50:B1-20", " 35-30 ", PDN, m(35, 30)),
        ("W:W28,32:B23", "28x19", PDN, m(28, 19, 23)),
        ("W:W28,32:B23", "28x19x23", HUB, m(28, 19, 23)),
        # Full PDN routes of the sources.md table.
        (TWO_47x36, "47x38x24x13x36", PDN, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x38x20x9x36", PDN, m(47, 36, 14, 29, 31, 42)),
        (TWO_4x15, "4x27x38x15", PDN, m(4, 15, 13, 20, 32)),
        (TWO_4x15, "4x31x42x15", PDN, m(4, 15, 13, 20, 37)),
        (KING_LOOP, "38x27x13x24x38", PDN, m(38, 38, 18, 19, 32, 33)),
        (KING_LOOP, "38x24x13x27x38", PDN, m(38, 38, 18, 19, 32, 33)),
        (KING_LOOP, "38x38", PDN, m(38, 38, 18, 19, 32, 33)),
        (KING_LOOP, "38x42", PDN, m(38, 42, 18, 19, 32, 33)),
        (MAN_LOOP, "38x27x18x29x38", PDN, m(38, 38, 22, 23, 32, 33)),
        (MAN_LOOP, "38x29x18x27x38", PDN, m(38, 38, 22, 23, 32, 33)),
        (TURKISH, "25x48x31x22x33", PDN, m(25, 33, 27, 28, 39, 42)),
        (TURKISH, "25x33", PDN, m(25, 33, 27, 28, 39, 42)),
        ("B:WK2,28,31,44:B20,K50", "50x39x22x36", PDN, m(50, 36, 28, 31, 44)),
        # Partial PDN routes: enough squares, in order, to tell the moves apart.
        (TWO_47x36, "47x24x36", PDN, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x13x36", PDN, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x24x13x36", PDN, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x20x36", PDN, m(47, 36, 14, 29, 31, 42)),
        (TWO_47x36, "47x38x9x36", PDN, m(47, 36, 14, 29, 31, 42)),
        (TWO_4x15, "4x38x15", PDN, m(4, 15, 13, 20, 32)),
        (TWO_4x15, "4x27x15", PDN, m(4, 15, 13, 20, 32)),
        (TWO_4x15, "4x42x15", PDN, m(4, 15, 13, 20, 37)),
        # Hub lists captured squares in any order.
        (TWO_47x36, "47x36x19x29x31x42", HUB, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x36x42x31x29x19", HUB, m(47, 36, 19, 29, 31, 42)),
        (TWO_47x36, "47x36x31x14x42x29", HUB, m(47, 36, 14, 29, 31, 42)),
        (TWO_4x15, "4x15x37x20x13", HUB, m(4, 15, 13, 20, 37)),
        (KING_LOOP, "38x38x33x32x19x18", HUB, m(38, 38, 18, 19, 32, 33)),
        (TURKISH, "25x33x42x39x28x27", HUB, m(25, 33, 27, 28, 39, 42)),
    ],
)
def test_text_in(fen: str, text: str, notation: Notation, move: Move) -> None:
    parsed = parse_move(pos(fen), text, notation)
    assert parsed == move
    assert parsed.key == move.key


def test_parse_defaults_to_pdn() -> None:
    assert parse_move(pos(TWO_47x36), "47x38x20x9x36") == m(47, 36, 14, 29, 31, 42)


@pytest.mark.parametrize(
    "fen",
    [
        "W:W31-50:B1-20",
        TWO_47x36,
        TWO_4x15,
        KING_LOOP,
        MAN_LOOP,
        TURKISH,
        "W:W23:B7,8,9,10,17,18,19,20,27,28,29,30,37,38,39,40",  # twelve 10-piece moves, 4 ends
        "W:WK47:B9,12,33",
        "W:W34,K46:B29,41",
    ],
)
@pytest.mark.parametrize("notation", [PDN, HUB])
def test_every_legal_move_reads_back_from_its_text(fen: str, notation: Notation) -> None:
    position = pos(fen)
    moves = legal_moves(position)
    assert moves
    for move in moves:
        text = move_text(position, move, notation)
        assert parse_move(position, text, notation) == move
        same_ends = [o for o in moves if (o.from_square, o.to_square) == (move.from_square, move.to_square)]
        if notation is PDN and move.captured and len(same_ends) == 1:
            assert text == f"{move.from_square}x{move.to_square}"  # no route unless ambiguous


def test_ambiguous_pdn_text_out_is_a_full_route() -> None:
    # 23x1 names three different moves: each gets a route with one square per captured piece.
    position = pos("W:W23:B7,8,9,10,17,18,19,20,27,28,29,30,37,38,39,40")
    texts = [pdn_text(position, move) for move in legal_moves(position) if move.to_square == 1]
    assert len(texts) == len(set(texts)) == 3
    for text in texts:
        squares = text.split("x")
        assert len(squares) == 11
        assert squares[0] == "23"
        assert squares[-1] == "1"


# -- in: the four errors ----------------------------------------------------------------------


@pytest.mark.parametrize("notation", [PDN, HUB])
@pytest.mark.parametrize(
    "text",
    [
        "32--28",
        "e3-d4",
        "",
        "   ",
        "28x",
        "x19",
        "28-22-17",
        "28 x 19",
        "28:19",
        "32-28!",
        "K32-28",
        "28-x19",
    ],
)
def test_malformed_text(text: str, notation: Notation) -> None:
    with pytest.raises(MoveSyntaxError) as error:
        parse_move(pos("W:W28,32:B23"), text, notation)
    assert repr(text) in str(error.value)


def test_non_string_text() -> None:
    with pytest.raises(MoveSyntaxError):
        parse_move(pos("W:W31-50:B1-20"), 3228)  # type: ignore[arg-type]


@pytest.mark.parametrize("notation", [PDN, HUB])
@pytest.mark.parametrize(
    ("text", "square"),
    [("0-5", "0"), ("51-46", "51"), ("28x99", "99"), ("47x38x0x36", "0"), ("32-280", "280"), ("00-5", "0")],
)
def test_square_out_of_range(text: str, square: str, notation: Notation) -> None:
    with pytest.raises(SquareRangeError) as error:
        parse_move(pos(TWO_47x36), text, notation)
    assert f"square {square}," in str(error.value)


@pytest.mark.parametrize(
    ("fen", "text", "notation"),
    [
        ("W:W31-50:B1-20", "36-31", PDN),  # 31 is occupied
        ("W:W31-50:B1-20", "32-23", PDN),  # not one square
        ("W:W31-50:B1-20", "19-23", PDN),  # Black's man, White to move
        ("W:W31-50:B1-20", "26-21", HUB),  # no piece on 26
        ("W:W31-50:B1-20", "32x23", PDN),  # there is no capture
        ("W:W28,32:B23", "32-27", PDN),  # a step while a capture is compulsory (4.2)
        ("W:W28,32:B23", "28-19", PDN),  # the capture written as a step
        ("W:W28,32:B23", "28x19x24", HUB),  # wrong captured square
        (TWO_47x36, "47x36x19x29x31", HUB),  # a captured square missing
        (TWO_47x36, "47x25x36", PDN),  # 25 is on no route
        (TWO_47x36, "47x13x24x36", PDN),  # right squares, wrong order
        ("W:W48:B24,K31,34,K42,43", "48x26", PDN),  # not the maximum capture (4.13)
        ("W:W15:B9,10", "15x4", PDN),  # stopping on the far row (4.15)
        ("W:B1", "32-28", PDN),  # no legal move at all (7.2)
    ],
)
def test_no_such_legal_move(fen: str, text: str, notation: Notation) -> None:
    with pytest.raises(IllegalMoveError) as error:
        parse_move(pos(fen), text, notation)
    assert repr(text) in str(error.value)


@pytest.mark.parametrize(
    ("fen", "text", "notation", "candidates"),
    [
        (TWO_47x36, "47x36", PDN, {"47x38x24x13x36", "47x38x20x9x36"}),
        (TWO_47x36, "47x38x36", PDN, {"47x38x24x13x36", "47x38x20x9x36"}),  # 38 is on both routes
        (TWO_47x36, "47x36", HUB, {"47x38x24x13x36", "47x38x20x9x36"}),
        (TWO_4x15, "4x15", PDN, {"4x27x38x15", "4x31x42x15"}),
        (TWO_4x15, "4x15", HUB, {"4x27x38x15", "4x31x42x15"}),
    ],
)
def test_ambiguous_text_lists_the_candidates(
    fen: str, text: str, notation: Notation, candidates: set[str]
) -> None:
    with pytest.raises(AmbiguousMoveError) as error:
        parse_move(pos(fen), text, notation)
    assert {candidate.split()[0] for candidate in error.value.candidates} == candidates
    for candidate in candidates:
        assert candidate in str(error.value)


def test_the_four_errors_are_distinct() -> None:
    errors = [MoveSyntaxError, SquareRangeError, IllegalMoveError, AmbiguousMoveError]
    for a in errors:
        assert issubclass(a, MoveError)
        for b in errors:
            assert a is b or not issubclass(a, b)
