"""Rule sets other than international: draw switches left unsettled, algebraic squares, boards.

Every expectation is worked by hand on the 8x8 board of rulesets/README.md (its table of rays).
"""

from __future__ import annotations

import pytest

from oracle.counters import Counters
from oracle.errors import PdnError, RulesError, SetupError, UnsettledRuleError
from oracle.game import Game
from oracle.moves import legal_moves
from oracle.notation import Notation, parse_move
from oracle.outcome import Result
from oracle.pdn import read_game, write_game
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules
from oracle.ruleset import builtin, describe, rules_from_data

# White king 29 (a1) and man 21 (a3), Black king 1 (b8) and man 12 (h6). Nothing can be taken:
# 29's only ray runs 25-22-18-15-11-8-4, 1's run 5 and 6-10-15-19-24-28, neither meets a piece.
# Not an ending against a lone king (each side has two pieces).
KINGS_AND_MEN = "W:WK29,21:BK1,12"
SHUFFLE = ["29-25", "1-5", "25-29", "5-1"]  # the position recurs after the fourth ply


def _variant(**switches: object) -> Rules:
    data = describe(builtin("russian")) | {"name": "test-variant"} | switches
    return rules_from_data(data)


def test_unsettled_kings_only_count_refuses_the_second_king_ply() -> None:
    pool = builtin("pool")
    game = Game(Position.from_fen(KINGS_AND_MEN, pool), rules=pool)
    game.play("29-25")
    with pytest.raises(UnsettledRuleError, match=r"'pool' does not settle .*kingsOnlyDraw"):
        game.play("1-5")
    assert game.ply == 1  # the refused move changed nothing
    game.play("12-16")  # a man move: no count can run out
    assert game.outcome().result is Result.ONGOING


def test_unsettled_repetition_refuses_the_second_occurrence() -> None:
    rules = _variant(repetitionDraw=None, kingsOnlyDraw=15)
    game = Game(Position.from_fen(KINGS_AND_MEN, rules), rules=rules)
    for text in SHUFFLE[:3]:
        game.play(text)
    with pytest.raises(UnsettledRuleError, match=r"second time \(repetitionDraw\)"):
        game.play(SHUFFLE[3])
    settled = _variant(repetitionDraw=2, kingsOnlyDraw=15)  # the same line with a settled count
    judged = Game(Position.from_fen(KINGS_AND_MEN, settled), rules=settled)
    for text in SHUFFLE:
        judged.play(text)
    assert (judged.outcome().result, judged.outcome().rule, judged.outcome().ply) == (
        Result.DRAW,
        "fmjd64:7.2.3",
        4,
    )


def test_unsettled_endgame_counts_refuse_the_second_ply_of_an_ending() -> None:
    rules = _variant(endgameCounts=None)
    game = Game(Position.from_fen("W:WK29:BK1", rules), rules=rules)  # king against king
    game.play("29-25")
    with pytest.raises(UnsettledRuleError, match="endgameCounts"):
        game.play("1-5")


def test_unsettled_counters_are_refused_at_setup() -> None:
    pool = builtin("pool")
    with pytest.raises(SetupError, match="repetitionDraw is not settled"):
        Game(Position.from_fen(KINGS_AND_MEN, pool), Counters(occurrences=2, no_progress_plies=4), pool)


def test_russian_squares_may_be_written_algebraically() -> None:
    russian = builtin("russian")
    # White man c3 (22); Black d4 (18) and f6 (11): c3 jumps d4 to e5 (15), then f6 to g7 (8).
    position = Position.from_fen("W:Wc3:Bd4,f6", russian)
    assert position == Position.from_fen("W:W22:B11,18", russian)
    assert position.pdn_fen(russian) == "W:Wc3:Bf6,d4"  # ascending square numbers: 11 before 18
    move = parse_move(position, "c3:e5:g7", Notation.PDN, russian)
    assert (move.from_square, move.to_square, move.captured) == (22, 8, frozenset({11, 18}))
    assert parse_move(position, "c3xg7", Notation.PDN, russian) == move
    assert parse_move(position, "22x8", Notation.PDN, russian) == move
    # International FEN stays numeric only.
    with pytest.raises(ValueError, match="not a square"):
        Position.from_fen("W:Wc3:Bd4")


def test_a_position_is_played_on_its_own_board() -> None:
    with pytest.raises(RulesError, match=r"10x10 board, but the rules 'russian' play on 8x8"):
        legal_moves(Position.initial(), builtin("russian"))
    assert Position.initial(builtin("russian")) != Position.initial(INTERNATIONAL)


def test_black_moves_first_in_american_and_pool() -> None:
    for name in ("american", "pool"):
        start = Position.initial(builtin(name))
        assert start.fen().startswith("B:")
        assert len(legal_moves(start, builtin(name))) == 7


def test_canadian_start_and_numbering() -> None:
    canadian = builtin("canadian")
    start = Position.initial(canadian)
    assert start == Position.from_fen("W:W43-72:B1-30", canadian)
    assert len(start.diagram().splitlines()) == 13  # twelve rows and the side to move
    with pytest.raises(ValueError, match="outside 1-72"):
        Position.from_fen("W:W73:B1", canadian)


def test_pdn_of_a_game_where_black_moves_first() -> None:
    american = builtin("american")
    # Black 9-13 (b6-a5), White 22-18 (c3-d4), Black 12-16 (h6-g5): no capture is ever possible.
    text = '[GameType "21"]\n1. 9-13 22-18 2. 12-16 *\n'
    game = read_game(text, american).game
    assert game.ply == 3
    assert game.position == Position.from_fen("W:W18,21,23-32:B1-8,10,11,13,16", american)
    assert write_game(game).endswith("1. 9-13 22-18 2. 12-16 *\n")  # a number starts Black's move
    with pytest.raises(PdnError, match=r"GameType '20' is not 'american' \(21\)"):
        read_game('[GameType "20"]\n1. 9-13 *\n', american)
