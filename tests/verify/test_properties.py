"""Generated positions: the SMT encoding agrees with the oracle, the checks pass the oracle's
answers and catch mutated ones, and the generators keep their promises.

The default run checks a few hundred generated positions with z3; ``--run-slow`` runs thousands.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.verify import strategies as gen
from conformance.verify.after import check_result
from conformance.verify.checks import check_symmetry, verify_position
from conformance.verify.choices import RandomChooser
from conformance.verify.findings import FindingKind
from conformance.verify.smt import CaptureSolver
from oracle.board import row_of
from oracle.moves import Move, legal_moves, play
from oracle.position import Color, Kind, Position

from .test_smt import assert_valid_route

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEEP = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

STRATEGIES = {
    "random": gen.positions(),
    "capture-rich": gen.capture_rich_positions(),
    "long-chain": gen.long_chain_positions(),
    "endgame": gen.endgame_positions(),
    "playout": gen.playouts(),
}


def _agree(position: Position) -> None:
    """z3 and the oracle give the same captures; the checks pass the oracle's whole answer."""
    moves = legal_moves(position)
    solver = CaptureSolver(position)
    oracle_captures = {move.key for move in moves if move.captured}
    found = solver.maximal_captures()
    assert {capture.key for capture in found} == oracle_captures, position.fen()
    assert len(found) == len(oracle_captures)
    for capture in found:
        assert_valid_route(position, solver.realise(*capture.key) or pytest.fail(f"{capture} not realisable"))
    assert verify_position(position, moves, solver=solver) == []
    assert check_symmetry(position, moves, legal_moves(position.mirror())) == []
    for move in moves[:4]:
        assert check_result(position, move, play(position, move).fen()) == []


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_z3_agrees_with_the_oracle(name: str) -> None:
    @QUICK
    @given(STRATEGIES[name])
    def run(position: Position) -> None:
        _agree(position)

    run()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_z3_agrees_with_the_oracle_deep(name: str) -> None:
    @DEEP
    @given(STRATEGIES[name])
    def run(position: Position) -> None:
        _agree(position)

    run()


# -- the checks catch mutated answers ------------------------------------------------------------


def _mutants(position: Position, moves: Sequence[Move]) -> list[tuple[str, list[object], set[FindingKind]]]:
    """Wrong answers derived from a right one, each with the findings it must raise (one at least)."""
    captures = [move for move in moves if move.captured]
    if not captures:
        if moves:
            return [("missing quiet move", list(moves[1:]), {FindingKind.QUIET_MOVES})]
        return [("move in a lost position", [Move(1, 2)], {FindingKind.QUIET_MOVES})]
    first = captures[0]
    mutants: list[tuple[str, list[object], set[FindingKind]]] = [
        ("missing capture", [move for move in moves if move != first], {FindingKind.COMPLETENESS}),
    ]
    smaller = first.captured - {min(first.captured)}
    if smaller:
        wrong_set = Move(first.from_square, first.to_square, smaller)
        mutants.append(
            ("wrong captured set", [*moves, wrong_set], {FindingKind.SOUNDNESS, FindingKind.OPTIMALITY})
        )
    moved_end = Move(first.from_square, (first.to_square % 50) + 1, first.captured)
    if moved_end not in moves:
        mutants.append(("wrong end square", [*moves, moved_end], {FindingKind.SOUNDNESS}))
    if len(first.captured) > 1:
        # The first jump of the capture, as if the piece could stop there (4.5, 4.6).
        prefix = Move(first.from_square, first.route[1], frozenset({_jumped(first)}))
        mutants.append(("partial capture", [*moves, prefix], {FindingKind.OPTIMALITY, FindingKind.SOUNDNESS}))
    return mutants


def _jumped(move: Move) -> int:
    """The piece the first jump of ``move``'s route takes: the one captured square on that line."""
    start, land = move.route[0], move.route[1]
    between = {s for s in move.captured if _on_segment(start, land, s)}
    assert len(between) == 1, (move, between)
    return between.pop()


def _on_segment(a: int, b: int, s: int) -> bool:
    from oracle.board import column_of

    ra, ca, rb, cb, rs, cs = row_of(a), column_of(a), row_of(b), column_of(b), row_of(s), column_of(s)
    if (rs - ra) * (cb - ca) != (cs - ca) * (rb - ra):
        return False
    return min(ra, rb) < rs < max(ra, rb) and min(ca, cb) < cs < max(ca, cb)


@QUICK
@given(st.one_of(gen.capture_rich_positions(), gen.long_chain_positions(4, 10), gen.positions()))
def test_every_mutant_is_caught(position: Position) -> None:
    moves = legal_moves(position)
    solver = CaptureSolver(position)
    for name, answer, expected in _mutants(position, moves):
        found = {finding.kind for finding in verify_position(position, answer, solver=solver)}
        assert found & expected, f"{name} not caught in {position.fen()}: {found}"


# -- the generators -----------------------------------------------------------------------------


def _assert_valid(position: Position) -> None:
    assert Position.from_fen(position.fen()) == position
    for color in Color:
        assert position.count(color) <= 20
        for square in position.squares(color, Kind.MAN):
            assert row_of(square) != color.promotion_row


@QUICK
@given(gen.any_positions())
def test_generated_positions_are_valid(position: Position) -> None:
    _assert_valid(position)


@QUICK
@given(gen.long_chains(8, 12))
def test_a_long_chain_is_a_capture_of_its_length(chain: gen.Chain) -> None:
    _assert_valid(chain.position)
    solver = CaptureSolver(chain.position)
    witness = solver.realise(chain.route[0], chain.route[-1], chain.taken)
    assert witness is not None, chain
    assert solver.maximum()[0] >= len(chain.taken)


def test_long_chains_reach_their_length() -> None:
    lengths = [len(gen.long_chain(RandomChooser(seed)).taken) for seed in range(200)]
    assert sum(8 <= n <= 12 for n in lengths) >= 190, lengths


def test_seeded_generators_are_reproducible() -> None:
    for make in (
        gen.random_position,
        gen.capture_rich_position,
        gen.long_chain_position,
        gen.endgame_position,
    ):
        assert make(RandomChooser(7)) == make(RandomChooser(7))
    assert gen.playout(RandomChooser(7), 30) == gen.playout(RandomChooser(7), 30)


def test_capture_rich_positions_mostly_capture() -> None:
    positions = [gen.capture_rich_position(RandomChooser(seed)) for seed in range(200)]
    capturing = sum(CaptureSolver(position).can_capture for position in positions)
    assert capturing >= 150, capturing


def test_endgames_have_small_material() -> None:
    for seed in range(100):
        position = gen.endgame_position(RandomChooser(seed))
        counts = sorted(position.count(color) for color in Color)
        assert counts[0] in (1, 2), position.fen()
        assert counts[1] <= 3, position.fen()


def test_chain_dataclass_is_frozen() -> None:
    chain = gen.long_chain(RandomChooser(1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        chain.route = ()  # type: ignore[misc]
