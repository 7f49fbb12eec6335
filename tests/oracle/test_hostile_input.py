"""Hostile input to the oracle (issue 12, point 4): each reproducer, and what it must give now.

* numbers of more than 4,300 digits (Python's limit for ``int(text)``) in a FEN, a move text
  (PDN and Hub), a PDN move number or a Counters tag: the parser's own error, naming the token
  and where, in a message of reasonable length;
* a PDN tag value, move or comment of megabytes: memory about the size of the text (the tag
  pattern used to keep ~260 bytes per character);
* perft deeper than Python's recursion limit, and refused beyond MAX_DEPTH.
The command-line reproducers (a closed pipe, ``perft FEN 2000``) are in test_cli.py.
"""

from __future__ import annotations

import contextlib
import tracemalloc

import pytest

from oracle.counters import Counters
from oracle.errors import FenError, MoveSyntaxError, PdnError, SetupError, SquareRangeError, excerpt
from oracle.game import Game
from oracle.notation import Notation, parse_move
from oracle.outcome import Outcome
from oracle.pdn import read_game, read_games
from oracle.perft import MAX_DEPTH, divide, perft
from oracle.position import Position

DIGITS = "1" * 5000  # over Python's 4,300-digit limit for int(text)


# -- numbers too long for int() ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "token"),
    [
        (f"W:W{DIGITS}:B1", f"'{DIGITS[:50]}"),
        (f"W:WK{DIGITS}:B1", f"'K{DIGITS[:50]}"),
        (f"W:W31-{DIGITS}:B1", f"'31-{DIGITS[:50]}"),
        (f"W:W{DIGITS}-31:B1", f"'{DIGITS[:50]}"),
    ],
    ids=["square", "king", "range-end", "range-start"],
)
def test_a_fen_square_of_thousands_of_digits_is_a_fen_error(fen: str, token: str) -> None:
    with pytest.raises(FenError, match="outside 1-50") as error:
        Position.from_fen(fen)
    assert token in str(error.value)
    assert len(str(error.value)) < 1000


def test_leading_zeros_are_read_as_before_however_many() -> None:
    assert Position.from_fen("W:W031,0032:B01") == Position.from_fen("W:W31,32:B1")
    assert Position.from_fen(f"W:W{'0' * 5000}31:B1") == Position.from_fen("W:W31:B1")


@pytest.mark.parametrize("notation", list(Notation))
@pytest.mark.parametrize(
    "text",
    [f"{DIGITS}-28", f"32-{DIGITS}", f"28x{DIGITS}", f"28x19x{DIGITS}"],
    ids=["from", "to", "capture-to", "route"],
)
def test_a_square_of_thousands_of_digits_in_a_move_is_a_square_range_error(
    text: str, notation: Notation
) -> None:
    with pytest.raises(SquareRangeError, match="outside 1-50") as error:
        parse_move(Position.from_fen("W:W28,32:B23"), text, notation)
    assert "1111111111" in str(error.value)
    assert "(5,000 digits)" in str(error.value)
    assert len(str(error.value)) < 1000


@pytest.mark.parametrize("notation", list(Notation))
def test_a_move_text_naming_more_squares_than_any_move_is_a_syntax_error(notation: Notation) -> None:
    text = "x".join(["28", *["19"] * 100_000])
    with pytest.raises(MoveSyntaxError, match="100,001 squares") as error:
        parse_move(Position.from_fen("W:W28,32:B23"), text, notation)
    assert len(str(error.value)) < 1000


def test_the_longest_move_texts_are_still_read() -> None:
    # A king taking 20 pieces is not needed: 22 squares of Hub text are allowed, 23 are not.
    position = Position.from_fen("W:W28,32:B23")
    with pytest.raises(MoveSyntaxError, match="23 squares"):
        parse_move(position, "x".join(["28", "19", *["23"] * 21]), Notation.HUB)
    with pytest.raises(MoveSyntaxError, match="twice"):  # read as far as the captured squares
        parse_move(position, "x".join(["28", "19", *["23"] * 20]), Notation.HUB)


def test_a_pdn_move_number_of_thousands_of_digits_is_a_pdn_error() -> None:
    with pytest.raises(PdnError, match="move number 1111") as error:
        read_games(f"{DIGITS}. 32-28 *")
    assert error.value.line == 1
    assert "(5,000 digits)" in str(error.value)
    assert len(str(error.value)) < 1000


def test_leading_zeros_of_move_numbers_and_counters_are_read_however_many() -> None:
    zeros = "0" * 5000
    game = read_game(
        f'[FEN "W:WK1,K2,K3,K4:BK47,K48,K49,K50"]\n[Counters "occurrences={zeros}2,no_progress_plies=04"]\n{zeros}7. 1-6 *'
    )
    assert game.game.setup_counters == Counters(occurrences=2, no_progress_plies=4)
    assert game.game.ply == 1


def test_move_numbers_up_to_nine_digits_are_kept() -> None:
    game = read_game('[FEN "W:W28,32:B23"]\n999999999. 28x19 *')
    assert game.game.ply == 1
    with pytest.raises(PdnError, match="move number 1000000000 is too large"):
        read_games("1000000000. 32-28 *")


def test_a_pdn_move_of_thousands_of_digits_is_a_pdn_error() -> None:
    with pytest.raises(PdnError, match="outside 1-50") as error:
        read_games(f"1. 32-{DIGITS} *")
    assert error.value.move_number == "1."
    assert len(str(error.value)) < 1000


@pytest.mark.parametrize("value", [DIGITS, "²", "٣", "1" * 10], ids=["5000-digits", "²", "٣", "10-digits"])
def test_a_counters_tag_with_a_huge_or_foreign_number_is_a_pdn_error(value: str) -> None:
    with pytest.raises(PdnError, match="bad Counters tag") as error:
        read_games(f'[Counters "occurrences={value}"]\n*')
    assert len(str(error.value)) < 1000


@pytest.mark.parametrize(
    "value", [10**5000, -(10**5000), 10**9, -(10**9)], ids=["1e5000", "-1e5000", "1e9", "-1e9"]
)
def test_counters_of_huge_values_are_a_setup_error(value: int) -> None:
    with pytest.raises(SetupError, match="must be below 10\\*\\*9") as error:
        Counters(no_progress_plies=value)
    assert len(str(error.value)) < 1000
    with pytest.raises(SetupError, match="unknown counter"):
        Counters.from_dict({10**5000: 1})


def test_counters_just_below_the_bound_reach_the_game_check() -> None:
    with pytest.raises(SetupError, match="no_progress_plies"):
        Game(Position.from_fen("W:WK1:BK50"), Counters(no_progress_plies=10**9 - 1))


def test_an_outcome_with_huge_numbers_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="0 or more") as error:
        Outcome.from_json({"result": "draw", "rule": "6.1", "ply": -(10**5000)})
    assert "integer of about 5,000 digits" in str(error.value)
    assert Outcome.from_json({"result": "draw", "rule": 6.1, "ply": 3}).rule == "6.1"


def test_excerpt_shows_short_values_whole_and_cuts_long_ones() -> None:
    assert excerpt("32-28") == "'32-28'"
    assert excerpt("a" * 1000) == repr("a" * 200) + "... (1,000 characters)"
    assert excerpt(10**5000) == "an integer of about 5,000 digits"
    assert excerpt([10**5000]) == "a list too large to show"


# -- memory ------------------------------------------------------------------------------------


def peak_memory_of_reading(text: str) -> int:
    tracemalloc.start()
    with contextlib.suppress(PdnError):
        read_games(text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


SIZE = 200_000


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('[Event "' + "a" * SIZE + '"]\n*', id="tag-value"),
        pytest.param('[Event "' + '\\"' * (SIZE // 2) + '"]\n*', id="tag-value-of-escapes"),
        pytest.param('[Event "' + "a" * SIZE, id="unclosed-tag"),
        pytest.param("1-" * (SIZE // 2) + "1 *", id="move"),
        pytest.param("1x" * (SIZE // 2) + "1 *", id="capture"),
        pytest.param("{" + "a" * SIZE + "} *", id="comment"),
    ],
)
def test_a_long_token_takes_memory_of_its_size(text: str) -> None:
    # Before: about 290 bytes per character of a tag value, 280 of a move (the patterns kept
    # backtracking state for every character); now a few bytes.
    assert peak_memory_of_reading(text) < 10 * len(text)


# -- depth ---------------------------------------------------------------------------------------


def test_perft_deeper_than_the_recursion_limit() -> None:
    # White's one capture wins at once (Art. 7.2): nothing lies 2,000 or 5,000 plies below.
    position = Position.from_fen("W:W28:B23")
    assert perft(position, 2000) == 0
    assert perft(position, 5000, by_route=True) == 0
    assert divide(position, 5000) == dict.fromkeys(divide(position, 1), 0)


def test_perft_deeper_than_the_walk_keeps_is_refused() -> None:
    # About 3 KB a ply: a king position at depth 10**6 went to gigabytes before; now refused.
    position = Position.from_fen("W:WK1,K2:BK49,K50")
    with pytest.raises(ValueError, match="perft depth must be 0 to 10,000, not 1000000"):
        perft(position, 10**6)
    with pytest.raises(ValueError, match="divide depth must be 1 to 10,000"):
        divide(position, MAX_DEPTH + 1)
    assert perft(Position.from_fen("W:W28:B23"), MAX_DEPTH) == 0
