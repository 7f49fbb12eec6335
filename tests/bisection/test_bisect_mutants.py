"""bisect against the gallery: for each capture and king-move mutant it reports a line after which the
mutant's legal moves really differ from the oracle's, no prefix of it differs, and what differs is
the kind of move the mutant's broken rule concerns.

Where the mutant can be told apart from the start position within an exhaustive search, the test
starts there. The mutants that only go wrong once kings or long captures are on the board cannot:
no position up to 7 plies from the start separates them from the oracle (every such position was
compared; kings take longer to appear). bisect finds them from the start with random games
(``playouts``), and also from the perft position `run` points them to (a published middlegame with
kings on both sides), or the closed middlegame whose perft at depth 10 is the only one the corpus
sees crowned-mid-capture fail.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable

import pytest

from conformance.bisect import Bisection, Difference, bisect
from conformance.core.protocol import MoveSpec
from conformance.engines.mutants import CAPTURE_MUTANTS, MUTANTS, CaptureMutant
from conformance.engines.oracle_engine import OracleEngine
from oracle.board import RAYS, row_of
from oracle.moves import Move, capture_routes, legal_moves, play
from oracle.position import Kind, Position

KINGS_MIDDLEGAME = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
LOCKED_MIDDLEGAME = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"


def spec(move: Move) -> MoveSpec:
    return MoveSpec(move.from_square, move.to_square, move.captured)


def segment(start: int, end: int) -> tuple[int, ...]:
    """The squares passed from ``start`` to ``end`` along their diagonal, ``end`` included."""
    for ray in RAYS[start]:
        if end in ray:
            return ray[: ray.index(end) + 1]
    raise AssertionError(f"{start} and {end} are not on one diagonal")


def crossed(route: tuple[int, ...]) -> list[int]:
    """Every square a capture passes over or lands on, in order, with repeats."""
    squares: list[int] = []
    for start, end in itertools.pairwise(route):
        squares += segment(start, end)
    return squares


def kings_taken(position: Position, move: MoveSpec) -> int:
    return sum(1 for s in move.captured if (p := position.piece_at(s)) is not None and p.kind is Kind.KING)


def is_king(position: Position, square: int) -> bool:
    piece = position.piece_at(square)
    return piece is not None and piece.kind is Kind.KING


# -- what each broken rule looks like in a difference ---------------------------------------------
# Each predicate gets the position, the difference, the legal moves (oracle) and the mutant.

Check = Callable[[Position, Difference, dict[MoveSpec, Move], OracleEngine], bool]


def _routes(position: Position, move: MoveSpec) -> list[tuple[int, ...]]:
    return next(r for m, r in capture_routes(position).items() if spec(m) == move)


def _mutant_routes(engine: OracleEngine, position: Position, move: MoveSpec) -> list[tuple[int, ...]]:
    """The routes of ``move`` by the mutant's own capture search (none for a rules mutant)."""
    if not isinstance(engine, CaptureMutant):
        return []
    return [r for a, b, c, r in engine.bugs.legal_moves(position) if MoveSpec(a, b, c) == move]


def forward_only(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.1: a man's capture with a backward jump is missing."""
    forward = -1 if position.turn.name == "WHITE" else 1

    def backward(route: tuple[int, ...]) -> bool:
        return any((row_of(b) - row_of(a)) * forward < 0 for a, b in itertools.pairwise(route))

    return any(
        not is_king(position, m.from_square) and all(backward(r) for r in _routes(position, m))
        for m in d.missing
    )


def short_kings(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """3.9/4.3: the missing moves are a king's going further than one square (or jumping a piece
    from afar, or landing further behind it); the extra ones, a king's short captures."""

    def long(route: tuple[int, ...], capture: bool) -> bool:
        return any(len(segment(a, b)) > (2 if capture else 1) for a, b in itertools.pairwise(route))

    def routes(m: MoveSpec, rules_of: OracleEngine | None) -> list[tuple[int, ...]]:
        if not m.captured:
            return [(m.from_square, m.to_square)]
        found = capture_routes(position, rules_of.rules) if rules_of else capture_routes(position)
        return next((r for mm, r in found.items() if spec(mm) == m), [])

    def short(m: MoveSpec) -> bool:
        found = routes(m, e)
        return bool(found) and not any(long(r, bool(m.captured)) for r in found)

    return (
        bool(d.missing and d.extra)
        and all(
            is_king(position, m.from_square) and all(long(r, bool(m.captured)) for r in routes(m, None))
            for m in d.missing
        )
        and all(is_king(position, m.from_square) and short(m) for m in d.extra)
    )


def kings_step_one(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """3.9: the missing moves are a king's slides of more than one square; nothing is extra."""
    return (
        bool(d.missing)
        and not d.extra
        and all(
            is_king(position, m.from_square)
            and not m.captured
            and len(segment(m.from_square, m.to_square)) > 1
            for m in d.missing
        )
    )


def free_choice(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.13: the extra moves are captures of fewer pieces than the most; nothing is missing."""
    most = max(len(m.captured) for m in legal)
    return not d.missing and bool(d.extra) and all(0 < len(m.captured) < most for m in d.extra)


def crowned_mid_capture(
    position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine
) -> bool:
    """4.15: an extra capture by a man passes its far row and goes on (as a king, for the mutant)."""
    far = position.turn.promotion_row
    routes = capture_routes(position, e.rules)
    return any(
        not is_king(position, m.from_square)
        and any(
            any(row_of(s) == far for s in r[1:-1]) for mm, rs in routes.items() if spec(mm) == m for r in rs
        )
        for m in d.extra
    )


def removed_at_once(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.11: an extra capture passes over or lands on a piece it has already taken (each jump
    taking a new piece: not a piece jumped twice)."""

    def over_dead(route: tuple[int, ...]) -> bool:
        taken: set[int] = set()
        for a, b in itertools.pairwise(route):
            squares = segment(a, b)
            if taken & set(squares):
                return True
            taken |= {s for s in squares if position.piece_at(s) is not None and s != route[0]}
        return False

    return any(
        over_dead(r) and len(r) - 1 == len(m.captured)
        for m in d.extra
        for r in _mutant_routes(e, position, m)
    )


def jumped_twice(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.8: an extra capture takes fewer pieces than it makes jumps (one is jumped twice)."""
    return any(
        m.captured and len(r) - 1 > len(m.captured) for m in d.extra for r in _mutant_routes(e, position, m)
    )


def start_square(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """Reading start-square-empty: every route of a missing capture passes or ends on its start square."""
    return any(
        m.captured and all(m.from_square in crossed(r)[1:] or r[-1] == r[0] for r in _routes(position, m))
        for m in d.missing
    )


def no_recrossing(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.8 (empty squares may be crossed again): every route of a missing capture crosses one twice."""

    def recrosses(route: tuple[int, ...]) -> bool:
        squares = [route[0], *crossed(route)]
        return len(squares) != len(set(squares))

    return any(m.captured and all(recrosses(r) for r in _routes(position, m)) for m in d.missing)


def prefers_kings(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.13/4.14: missing captures take as many pieces as those kept, but fewer kings."""
    kept = [m for m in legal if m not in d.missing and m.captured]
    return bool(d.missing and kept) and all(
        len(m.captured) >= len(k.captured) and kings_taken(position, m) < kings_taken(position, k)
        for m in d.missing
        for k in kept
    )


def prefers_king_capturing(
    position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine
) -> bool:
    """4.14: the missing captures are a man's, as large as the kept ones, which are a king's."""
    kept = [m for m in legal if m not in d.missing and m.captured]
    return (
        bool(d.missing and kept)
        and all(
            not is_king(position, m.from_square) and len(m.captured) == len(kept[0].captured)
            for m in d.missing
        )
        and all(is_king(position, k.from_square) for k in kept)
    )


def lands_right_behind(
    position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine
) -> bool:
    """4.3: every route of a missing king capture lands further than right behind a piece."""

    def far(route: tuple[int, ...]) -> bool:
        for a, b in itertools.pairwise(route):
            squares = segment(a, b)
            jumped = next(
                i for i, s in enumerate(squares) if position.piece_at(s) is not None and s != route[0]
            )
            if len(squares) - 1 > jumped + 1:
                return True
        return False

    return bool(d.missing) and all(
        is_king(position, m.from_square) and m.captured and all(far(r) for r in _routes(position, m))
        for m in d.missing
    )


def duplicates(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """Art. 8 / move-identity: the same move listed twice, and nothing else wrong."""
    return bool(d.twice) and not d.missing and not d.extra


def short_or_step_kings(
    position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine
) -> bool:
    """3.9/4.3: as :func:`short_kings`, or, where no king can capture, as :func:`kings_step_one`."""
    return short_kings(position, d, legal, e) or kings_step_one(position, d, legal, e)


def not_compulsory(position: Position, d: Difference, legal: dict[MoveSpec, Move], e: OracleEngine) -> bool:
    """4.2: every legal move is a capture, and the extra moves are not."""
    return all(m.captured for m in legal) and bool(d.extra) and all(not m.captured for m in d.extra)


@dataclasses.dataclass(frozen=True)
class Scenario:
    mutant: str
    check: Check
    fen: str | None = None
    """None: the start position."""
    depth: int = 6
    slow: bool = False
    playouts: int = 0
    """Random games from the start when no line within the depth differs."""
    seed: int = 11


SCENARIOS = [
    Scenario("captures-not-compulsory", not_compulsory),
    Scenario("piece-jumped-twice", jumped_twice),
    Scenario("men-capture-forward-only", forward_only),
    Scenario("free-capture-choice", free_choice),
    Scenario("start-square-occupied", start_square, depth=8, slow=True),
    Scenario("no-recrossing-empty-squares", no_recrossing, depth=8, slow=True),
    Scenario("start-square-occupied", start_square, KINGS_MIDDLEGAME),
    Scenario("no-recrossing-empty-squares", no_recrossing, KINGS_MIDDLEGAME),
    Scenario("captured-removed-at-once", removed_at_once, KINGS_MIDDLEGAME),
    Scenario("king-lands-right-behind", lands_right_behind, KINGS_MIDDLEGAME),
    Scenario("short-kings", short_kings, KINGS_MIDDLEGAME),
    Scenario("duplicate-routes", duplicates, KINGS_MIDDLEGAME),
    Scenario("kings-step-one-square", kings_step_one, KINGS_MIDDLEGAME),
    Scenario("king-counts-two", prefers_kings, KINGS_MIDDLEGAME),
    Scenario("prefers-taking-kings", prefers_kings, KINGS_MIDDLEGAME),
    Scenario("prefers-capturing-with-king", prefers_king_capturing, KINGS_MIDDLEGAME, slow=True),
    Scenario("crowned-mid-capture", crowned_mid_capture, LOCKED_MIDDLEGAME, depth=10, slow=True),
    *(
        Scenario(name, check, depth=4, playouts=1000, seed=seed)
        for name, check, seed in (
            # A capture through its own start square is rare in random games: seeds 0-3 meet one
            # in game 1094, 201, 166 and 95 (seed 11: after 1000).
            ("start-square-occupied", start_square, 3),
            ("no-recrossing-empty-squares", no_recrossing, 11),
            ("captured-removed-at-once", removed_at_once, 11),
            ("king-lands-right-behind", lands_right_behind, 11),
            ("short-kings", short_or_step_kings, 11),
            ("duplicate-routes", duplicates, 11),
            ("kings-step-one-square", kings_step_one, 11),
            ("king-counts-two", prefers_kings, 11),
            ("prefers-taking-kings", prefers_kings, 11),
            ("prefers-capturing-with-king", prefers_king_capturing, 11),
            ("crowned-mid-capture", crowned_mid_capture, 11),
        )
    ),
]


def _id(scenario: Scenario) -> str:
    where = "start" if scenario.fen is None else "kings" if scenario.fen == KINGS_MIDDLEGAME else "locked"
    return f"{scenario.mutant}-from-{where}" + ("-by-random-games" if scenario.playouts else "")


def test_every_capture_and_king_move_mutant_has_a_scenario() -> None:
    assert {s.mutant for s in SCENARIOS} == {*CAPTURE_MUTANTS, "kings-step-one-square"}


def test_every_capture_and_king_move_mutant_is_found_from_the_start_position() -> None:
    assert {s.mutant for s in SCENARIOS if s.fen is None and not s.slow} == {
        *CAPTURE_MUTANTS,
        "kings-step-one-square",
    }


def _engine_moves(engine: OracleEngine, position: Position) -> list[MoveSpec]:
    return list(engine.legal_moves(position.fen()))


def _differs(engine: OracleEngine, position: Position) -> bool:
    got = _engine_moves(engine, position)
    return len(got) != len(set(got)) or set(got) != {spec(m) for m in legal_moves(position)}


@pytest.mark.parametrize(
    "scenario", [pytest.param(s, id=_id(s), marks=[pytest.mark.slow] if s.slow else []) for s in SCENARIOS]
)
def test_bisect_finds_the_line_where_the_mutant_goes_wrong(scenario: Scenario) -> None:
    engine = MUTANTS[scenario.mutant]()
    found: Bisection = bisect(
        engine, scenario.fen, scenario.depth, games=scenario.playouts, seed=scenario.seed
    )
    difference = found.difference
    assert difference is not None, found
    root = Position.initial() if scenario.fen is None else Position.from_fen(scenario.fen)
    assert difference.root == root
    if scenario.playouts:
        assert 0 < found.games <= scenario.playouts
        assert difference.plies >= scenario.depth  # no line within the depth differs
    else:
        assert difference.plies < scenario.depth

    # The line is legal, leads to the reported position, and the mutant differs there, not before.
    position = root
    for ply, move in enumerate(difference.line):
        assert not _differs(engine, position), f"the mutant already differs after {ply} plies"
        assert move in legal_moves(position)
        position = play(position, move)
    assert position == difference.position
    assert _differs(engine, position)

    # What bisect reports is what the mutant answers there.
    got = _engine_moves(engine, position)
    legal = {spec(m): m for m in legal_moves(position)}
    assert set(difference.missing) == legal.keys() - set(got)
    assert set(difference.extra) == set(got) - legal.keys()
    assert set(difference.twice) == {m for m in got if got.count(m) > 1}

    # And it is the kind of move the broken rule concerns.
    assert scenario.check(position, difference, legal, engine), difference


def test_a_short_line_is_the_shortest() -> None:
    """For lines of a few plies, every position fewer plies from the start agrees (checked here
    without bisect's search: every line, transpositions included)."""
    engine = MUTANTS["men-capture-forward-only"]()
    difference = bisect(engine).difference
    assert difference is not None
    level = [Position.initial()]
    for _ in range(difference.plies):
        assert not any(_differs(engine, p) for p in level)
        level = [play(p, m) for p in level for m in legal_moves(p)]
