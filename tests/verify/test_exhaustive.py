"""The exhaustive campaigns: every position with at most K pieces, numbered densely, counted exactly."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from conformance.core.results import Status
from conformance.core.shards import Shard
from conformance.engines.oracle_engine import OracleEngine
from conformance.verify import exhaustive
from conformance.verify.generate import EXHAUSTIVE, VerifyOptions, positions
from conformance.verify.judgement import CAPTURE_ARTICLES, INVARIANTS, ORACLE, Z3, filed
from conformance.verify.jumps import capture_graphs
from conformance.verify.run import verify
from oracle.board import row_of
from oracle.position import Color, Kind, Position


def _brute_force(pieces: int) -> set[Position]:
    """Every placement of at most ``pieces`` pieces, straight from the definition (Art. 2, 3.5)."""
    kinds = [
        (Color.WHITE, Kind.MAN),
        (Color.WHITE, Kind.KING),
        (Color.BLACK, Kind.MAN),
        (Color.BLACK, Kind.KING),
    ]
    found: set[Position] = set()
    for count in range(2, pieces + 1):
        for squares in itertools.combinations(range(1, 51), count):
            for labels in itertools.product(kinds, repeat=count):
                if {color for color, _ in labels} != set(Color):
                    continue
                if any(
                    kind is Kind.MAN and row_of(square) == color.promotion_row
                    for square, (color, kind) in zip(squares, labels, strict=True)
                ):
                    continue
                groups: dict[tuple[Color, Kind], set[int]] = {label: set() for label in kinds}
                for square, label in zip(squares, labels, strict=True):
                    groups[label].add(square)
                for turn in Color:
                    found.add(
                        Position.from_squares(
                            turn,
                            white_men=groups[Color.WHITE, Kind.MAN],
                            white_kings=groups[Color.WHITE, Kind.KING],
                            black_men=groups[Color.BLACK, Kind.MAN],
                            black_kings=groups[Color.BLACK, Kind.KING],
                        )
                    )
    return found


def test_two_pieces_are_every_position_of_a_man_or_king_against_one() -> None:
    listed = list(exhaustive.positions(2))
    assert set(listed) == _brute_force(2)
    assert len(listed) == len(set(listed)) == exhaustive.count(2)
    # By hand: 45 squares for a white man (not 1-5) + 50 for a king, the same for Black: 95 x 95,
    # less the pairs on one square (4 on each of 6-45, 2 on each of 1-5 and of 46-50): twice, a side to move.
    assert exhaustive.count(2) == 2 * (95 * 95 - (40 * 4 + 5 * 2 + 5 * 2)) == 17_690


@pytest.mark.slow
def test_three_pieces_are_every_position_of_the_definition() -> None:
    assert set(exhaustive.positions(3)) == _brute_force(3)


def test_the_counts_are_exact_and_each_campaign_extends_the_smaller() -> None:
    assert [exhaustive.count(k) for k in (2, 3, 4)] == [17_690, 1_630_290, 85_572_690]
    assert list(exhaustive.positions(3, 0, exhaustive.count(2))) == list(exhaustive.positions(2))


def test_every_position_is_valid_and_sides_alternate() -> None:
    chooser = random.Random(14)
    total = exhaustive.count(4)
    for index in [0, 1, total - 1, *chooser.sample(range(total), 200)]:
        position = exhaustive.position(4, index)
        assert Position.from_fen(position.fen()) == position  # FEN validation: no man on its far row
        assert position.turn is (Color.WHITE if index % 2 == 0 else Color.BLACK)
        assert all(position.count(color) >= 1 for color in Color)
        assert sum(position.count(color) for color in Color) <= 4


def test_any_stretch_can_be_reached_directly() -> None:
    walked = list(exhaustive.positions(3, 20_000, 23_000))
    chooser = random.Random(3)
    for index in chooser.sample(range(20_000, 23_000), 40):
        assert exhaustive.position(3, index) == walked[index - 20_000]
    assert list(exhaustive.positions(3, 20_001, 23_000, 5)) == walked[1::5]
    assert list(exhaustive.positions(3, 20_001, 23_000, 97)) == walked[1::97]  # found by counting


@pytest.mark.parametrize("bad", [0, 1, 41])
def test_a_bad_number_of_pieces_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match="pieces must be a whole number from 2 to 40"):
        exhaustive.count(bad)
    with pytest.raises(ValueError, match="pieces must be"):
        VerifyOptions(pieces=bad)


def test_positions_of_a_shard_are_named_by_their_index() -> None:
    options = VerifyOptions(pieces=3, shard=Shard(2, 1000))
    got = list(positions(options, options.indices()))
    assert len(got) == len(range(1, exhaustive.count(3), 1000))
    assert got[3].index == 3001
    assert got[3].case == "exhaustive-3001"
    assert got[3].kind == EXHAUSTIVE
    assert got[3].position == exhaustive.position(3, 3001)


def test_the_oracle_passes_a_slice_of_the_three_piece_campaign_on_the_lean_path() -> None:
    options = VerifyOptions(pieces=3, plays=0, shard=Shard(1, 1500))
    run = verify(OracleEngine, options)
    assert run.exit_status == 0
    assert run.positions == len(options.indices())
    assert run.results == []  # every check passed: counted, not listed
    checks = run.report.by_question()
    # Invariants and the oracle everywhere; z3 nowhere (it is asked where the engine disagrees);
    # no symmetry, nothing played.
    assert checks[INVARIANTS, "pass"] == checks[ORACLE, "pass"] == run.positions
    assert set(checks) == {(INVARIANTS, "pass"), (ORACLE, "pass")}


def test_proving_puts_z3_to_every_capture_position_and_the_own_steps_to_the_others() -> None:
    options = VerifyOptions(pieces=3, plays=0, shard=Shard(1, 3000), prove=True)
    run = verify(OracleEngine, options)
    assert run.exit_status == 0
    capturing = sum(bool(capture_graphs(g.position)) for g in positions(options, options.indices()))
    z3_rows = Counter(
        {kind.article: count for kind, count in run.report.tallied().items() if kind.question == Z3}
    )
    assert sum(z3_rows.values()) == run.positions  # one z3 row per position
    assert 0 < z3_rows[filed(CAPTURE_ARTICLES)["article"]] == capturing < run.positions


def test_a_wrong_engine_is_caught_on_few_pieces() -> None:
    from conformance.engines.mutants import mutant

    run = verify(
        lambda: mutant("short-kings"),
        VerifyOptions(pieces=2, plays=0, z3=False, shrink=1, shard=Shard(1, 10)),
    )
    assert run.exit_status == 1
    failing = [r for r in run.results if r.status is Status.FAIL]
    assert failing
    assert {r.article for r in failing} <= {"3.4", "3.9", "4.3", "4.13", "4.2"}  # king moves, captures
    assert run.disagreements
