"""Fuzzing every parser of the oracle (issue 12): only the documented narrow errors, ever.

Each parser gets text shaped like its input (tokens of the right kinds, wrongly put together,
with numbers of up to 5,000 digits) and arbitrary text, and must either accept it or raise its
own error: :class:`FenError` (``Position.from_fen``), a :class:`MoveError` subclass
(``parse_move``, PDN and Hub), :class:`PdnError` (the PDN game reader), :class:`SetupError`
(``Counters.from_dict`` and a game's check of them), :class:`ValueError` (``Outcome.from_json``,
as documented). What is accepted is checked too, and valid input round-trips.

The default run tries a few dozen inputs per parser; the ``_long`` variants (``--run-slow``) try
thousands. ``pytest --hypothesis-show-statistics`` prints how many inputs were accepted and how
many were refused, by error class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from oracle.counters import Counters
from oracle.errors import (
    AmbiguousMoveError,
    FenError,
    IllegalMoveError,
    MoveSyntaxError,
    PdnError,
    SetupError,
    SquareRangeError,
)
from oracle.game import Game
from oracle.moves import legal_moves, play
from oracle.notation import Notation, move_text, parse_move
from oracle.outcome import Outcome, Result
from oracle.pdn import read_game, read_games, write_game
from oracle.position import Position

QUICK = settings(
    max_examples=40,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(QUICK, max_examples=3000)


def quick_and_long(
    check: Callable[..., None], *strategies: st.SearchStrategy[Any]
) -> tuple[Callable[[], None], Callable[[], None]]:
    """Two tests of ``check`` on inputs drawn from ``strategies``: QUICK, and LONG marked slow."""

    def test_with(chosen: settings) -> Callable[[], None]:
        @chosen
        @given(st.tuples(*strategies))
        def test(arguments: tuple[Any, ...]) -> None:
            check(*arguments)

        return test

    return test_with(QUICK), pytest.mark.slow(test_with(LONG))


def refused(error: Exception, longest: int = 2_000) -> None:
    """A refusal: one message naming the problem, not a copy of megabytes of input."""
    assert str(error)
    assert len(str(error)) < longest
    assert "integer string conversion" not in str(error)  # Python's, not the parser's
    event(f"refused: {type(error).__name__}")


# -- material ----------------------------------------------------------------------------------


def huge_numbers() -> st.SearchStrategy[str]:
    """Numbers of more than 4,300 digits (Python's limit for ``int(text)``), or that many zeros."""
    return st.builds(
        lambda digit, count, tail: digit * count + tail,
        st.sampled_from("0139"),
        st.sampled_from([4301, 5000, 20_000]),
        st.sampled_from(["", "7", "31"]),
    )


class Big(int):
    """An integer of more than 4,300 digits, which ``repr`` refuses: Hypothesis prints this one."""

    def __repr__(self) -> str:
        return f"Big({'-' if self < 0 else ''}10**{len(str(abs(self) // 10**4000)) + 4000 - 1})"


def bigs() -> st.SearchStrategy[int]:
    return st.builds(
        lambda exponent, sign: Big(sign * 10**exponent), st.integers(4301, 6000), st.sampled_from([1, -1])
    )


def numbers() -> st.SearchStrategy[str]:
    """Decimal numbers as text: squares, out-of-range ones, leading zeros, and huge ones."""
    return st.one_of(
        st.integers(0, 60).map(str),
        st.integers(0, 10**30).map(str),
        st.tuples(st.integers(1, 8), st.integers(0, 60)).map(lambda zn: "0" * zn[0] + str(zn[1])),
        huge_numbers(),
        st.text("0123456789", max_size=12),
    )


NOISE = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
"""A few arbitrary characters (any code point, digits of other scripts included)."""

FENS = [
    "W:W31-50:B1-20",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:WK47:B14,19,29,31,42",  # two captures 47x36 (ambiguous without the route)
    "W:WK38:B18,19,32,33",  # a king loop: one move, two routes
    "W:W28,32:B23",
]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A few plies of random play from one of FENS."""
    position = Position.from_fen(draw(st.sampled_from(FENS)))
    for choice in draw(st.lists(st.integers(0, 10_000), max_size=12)):
        moves = legal_moves(position)
        if not moves:
            break
        position = play(position, moves[choice % len(moves)])
    return position


def joined(parts: st.SearchStrategy[str], separators: list[str], most: int = 8) -> st.SearchStrategy[str]:
    """Parts joined by separators drawn from a list, one separator per gap."""

    @st.composite
    def build(draw: st.DrawFn) -> str:
        items = draw(st.lists(parts, max_size=most))
        text = ""
        for index, item in enumerate(items):
            text += (draw(st.sampled_from(separators)) if index else "") + item
        return text

    return build()


# -- FEN ---------------------------------------------------------------------------------------


def fen_items() -> st.SearchStrategy[str]:
    return st.one_of(
        numbers(),
        numbers().map(lambda n: "K" + n),
        st.tuples(numbers(), numbers()).map(lambda ab: f"{ab[0]}-{ab[1]}"),
        st.tuples(numbers(), numbers()).map(lambda ab: f"K{ab[0]}-{ab[1]}"),
        NOISE,
    )


def fen_texts() -> st.SearchStrategy[str]:
    section = st.tuples(
        st.sampled_from(["W", "B", "", "K", "w", "X"]), joined(fen_items(), [",", ", ", ",,"])
    )
    structured = st.tuples(
        st.sampled_from(["W", "B", "", " W ", "x"]), st.lists(section.map("".join), max_size=3)
    ).map(lambda sides: ":".join([sides[0], *sides[1]]))
    return st.one_of(structured, st.text(max_size=40), positions().map(Position.fen))


def _fen_parser_raises_only_fen_error(text: str) -> None:
    try:
        position = Position.from_fen(text)
    except FenError as error:
        refused(error)
        return
    event("accepted")
    assert Position.from_fen(position.fen()) == position


test_fen_parser_raises_only_fen_error, test_fen_parser_raises_only_fen_error_long = quick_and_long(
    _fen_parser_raises_only_fen_error, fen_texts()
)


# -- move text ---------------------------------------------------------------------------------

MOVE_ERRORS = (MoveSyntaxError, SquareRangeError, IllegalMoveError, AmbiguousMoveError)


def move_texts() -> st.SearchStrategy[str]:
    structured = st.tuples(
        st.sampled_from(["", " ", "K"]), joined(numbers(), ["-", "x", "--", "X", " x ", ""], most=24)
    ).map("".join)
    return st.one_of(structured, st.text(max_size=20))


@st.composite
def positions_and_move_texts(draw: st.DrawFn) -> tuple[Position, str, Notation]:
    """A position and a move text for it: any, or a legal move's text, as is or altered a little
    (a square dropped, doubled or changed, zeros put in front, the other notation)."""
    position, notation = draw(positions()), draw(st.sampled_from(Notation))
    moves = legal_moves(position)
    if not moves or draw(st.booleans()):
        return position, draw(move_texts()), notation
    written_in = draw(st.sampled_from(Notation))
    squares = move_text(position, draw(st.sampled_from(moves)), written_in).replace("-", "x").split("x")
    separator = "-" if len(squares) == 2 and draw(st.booleans()) else "x"
    alteration = draw(st.sampled_from(["none", "drop", "double", "change", "zeros"]))
    at = draw(st.integers(0, len(squares) - 1))
    if alteration == "drop":
        del squares[at]
    elif alteration == "double":
        squares.insert(at, squares[at])
    elif alteration == "change":
        squares[at] = draw(numbers())
    elif alteration == "zeros":
        squares[at] = "0" * draw(st.integers(1, 5000)) + squares[at]
    return position, separator.join(squares), notation


def _move_parser_raises_only_move_errors(position: Position, text: str, notation: Notation) -> None:
    try:
        move = parse_move(position, text, notation)
    except MOVE_ERRORS as error:
        refused(error, longest=5_000)  # it may list the legal moves
        return
    event("accepted")
    assert move in legal_moves(position)
    assert parse_move(position, move_text(position, move, notation), notation) == move


test_move_parser_raises_only_move_errors, test_move_parser_raises_only_move_errors_long = quick_and_long(
    lambda args: _move_parser_raises_only_move_errors(*args), positions_and_move_texts()
)


def _every_legal_move_round_trips_through_its_text(position: Position, notation: Notation) -> None:
    for move in legal_moves(position):
        assert parse_move(position, move_text(position, move, notation), notation) == move


test_every_legal_move_round_trips, test_every_legal_move_round_trips_long = quick_and_long(
    _every_legal_move_round_trips_through_its_text, positions(), st.sampled_from(Notation)
)


# -- PDN games ---------------------------------------------------------------------------------


def tag_values() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=12), fen_texts(), numbers(), st.sampled_from(['\\"', "\\\\", "\\"]))


def counters_values() -> st.SearchStrategy[str]:
    pair = st.tuples(st.sampled_from([*Counters.KEYS, "x", ""]), st.sampled_from(["=", "", "=="]), numbers())
    return joined(pair.map("".join), [",", ", ", ",,"], most=4)


def pdn_tokens() -> st.SearchStrategy[str]:
    tag = st.tuples(
        st.sampled_from(["Event", "FEN", "Counters", "GameType", "Result", "x y", ""]), tag_values()
    ).map(lambda nv: f'[{nv[0]} "{nv[1]}"]')
    counters_tag = counters_values().map(lambda v: f'[Counters "{v}"]')
    number = st.tuples(numbers(), st.sampled_from([".", "...", ". ", "…"])).map("".join)
    return st.one_of(
        tag,
        counters_tag,
        number,
        move_texts(),
        st.sampled_from(["32-28", "19-23", "28x19", "14x23", "1-0", "2-0", "0-2", "1-1", "*", "!", "?!"]),
        st.sampled_from(["{a comment}", "{", "}", "(", ")", "; to the end\n", "\n% escape\n", "$3", "["]),
        NOISE,
    )


def pdn_texts() -> st.SearchStrategy[str]:
    return st.one_of(joined(pdn_tokens(), [" ", "\n", ""], most=16), st.text(max_size=60))


def _pdn_reader_raises_only_pdn_error(text: str) -> None:
    try:
        games = read_games(text)
    except PdnError as error:
        refused(error, longest=10_000)  # it may quote a move error listing the legal moves
        return
    event("accepted")
    for game in games:
        assert game.to_json()["plies"] == game.game.ply


test_pdn_reader_raises_only_pdn_error, test_pdn_reader_raises_only_pdn_error_long = quick_and_long(
    _pdn_reader_raises_only_pdn_error, pdn_texts()
)


def _written_games_read_back(start: Position, choices: list[int], event_name: str) -> None:
    game = Game(start)
    for choice in choices:
        if game.is_over:
            break
        moves = game.legal_moves()
        game.play(moves[choice % len(moves)])
    read = read_game(write_game(game, {"Event": event_name}))
    assert read.tags["Event"] == event_name
    assert read.game.setup_position == start
    assert read.game.moves == game.moves
    assert read.game.position == game.position
    assert read.game.outcome() == game.outcome()


test_written_games_read_back, test_written_games_read_back_long = quick_and_long(
    _written_games_read_back, positions(), st.lists(st.integers(0, 10_000), max_size=30), st.text(max_size=20)
)


# -- counters and outcomes (data from case files) ------------------------------------------------

ANY_VALUE = st.one_of(
    st.integers(),
    bigs(),
    st.sampled_from([10**9, 10**9 - 1, -(10**9)]),
    st.text(max_size=10),
    st.floats(),
    st.none(),
    st.booleans(),
    st.lists(st.integers(), max_size=3),
)


def counter_data() -> st.SearchStrategy[Any]:
    keys = st.one_of(st.sampled_from(Counters.KEYS), st.text(max_size=10), st.integers(), bigs())
    values = st.one_of(st.integers(0, 60), ANY_VALUE)
    return st.one_of(st.dictionaries(keys, values, max_size=4), ANY_VALUE)


def _counters_raise_only_setup_error(data: Any, position: Position) -> None:
    try:
        counters = Counters.from_dict(data)
    except SetupError as error:
        refused(error)
        return
    assert Counters.from_dict(counters.to_dict()) == counters
    try:
        Game(position, counters)
    except SetupError as error:
        refused(error)
        return
    event("accepted")


test_counters_raise_only_setup_error, test_counters_raise_only_setup_error_long = quick_and_long(
    _counters_raise_only_setup_error, counter_data(), positions()
)


def outcome_data() -> st.SearchStrategy[Any]:
    fields = st.fixed_dictionaries(
        {},
        optional={
            "result": st.one_of(st.sampled_from([r.value for r in Result]), ANY_VALUE),
            "rule": st.one_of(st.sampled_from(["6.1", "7.2.2"]), ANY_VALUE),
            "ply": st.one_of(st.integers(0, 100), ANY_VALUE),
        },
    )
    extra = st.dictionaries(st.one_of(st.text(max_size=5), st.integers(), bigs()), ANY_VALUE)
    valid = st.one_of(
        st.just(Outcome(Result.ONGOING)),
        st.builds(
            Outcome,
            st.sampled_from([r for r in Result if r is not Result.ONGOING]),
            st.sampled_from(["6.1", "6.2", "6.3", "6.4", "7.2.2", "7.2.3"]),
            st.integers(0, 10**6),
        ),
    ).map(Outcome.to_json)
    return st.one_of(valid, fields, st.tuples(fields, extra).map(lambda fe: {**fe[1], **fe[0]}), ANY_VALUE)


def _outcomes_raise_only_value_error(data: Any) -> None:
    try:
        outcome = Outcome.from_json(data)
    except ValueError as error:
        refused(error)
        return
    event("accepted")
    assert Outcome.from_json(outcome.to_json()) == outcome


test_outcomes_raise_only_value_error, test_outcomes_raise_only_value_error_long = quick_and_long(
    _outcomes_raise_only_value_error, outcome_data()
)
