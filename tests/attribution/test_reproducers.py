"""The reproducers of issue 18, point 2: each files its defect under the rule broken only, in a run
of the one case as in a run of the whole corpus; a crash never blocks anything."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.bisect.describe import case_rule
from conformance.bisect.search import bisect
from conformance.core.certificate import Certificate
from conformance.core.corpus import load_corpus
from conformance.core.filing import file_answer
from conformance.core.filing.layers import suggested
from conformance.core.filing.registry import readings
from conformance.core.protocol import OutcomeAnswer
from conformance.core.results import Result, Status
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, run, select_cases
from oracle.game import Game
from oracle.moves import Move
from oracle.position import Color, Kind, Position


def subset(engine: Any, **filters: Any) -> tuple[Certificate, list[Result]]:
    """A run of some cases, as ``run ENGINE --case ...`` makes it: with its probes."""
    corpus = load_corpus()
    options = RunOptions(**filters)
    every = select_cases(corpus, RunOptions())
    results: list[Result] = []
    summary = run(
        select_cases(corpus, options),
        lambda: engine,
        options,
        results.append,
        engine=engine,
        probes_from=every,
    )
    return summary.certificate, results


def charged(certificate: Certificate) -> Counter[str]:
    return Counter(
        {row.key: row.failed + row.charged for row in certificate.rows if row.failed + row.charged}
    )


def test_a_piece_jumped_twice_in_a_4_2_case_is_4_8s() -> None:
    """`run mutant:piece-jumped-twice --case 4.2-capture-is-compulsory` said "4.2 failed"."""
    certificate, _ = subset(mutant("piece-jumped-twice"), ids=("4.2-capture-is-compulsory",))
    assert set(charged(certificate)) == {"4.8"}


def test_a_repetition_on_the_second_occurrence_in_a_6_2_case_is_6_1s() -> None:
    """`run mutant:repetition-on-second --case 6.2-steps-fifty-king-plies-draw` said "6.2 failed"."""
    certificate, _ = subset(mutant("repetition-on-second"), ids=("6.2-steps-fifty-king-plies-draw",))
    assert set(charged(certificate)) == {"6.1"}


def test_a_subset_run_asks_the_probes_its_failures_need() -> None:
    """`--article 4.3` on an engine whose kings step one square: its defect is 3.9's, nothing of 4.3's."""
    certificate, results = subset(mutant("kings-step-one-square"), articles=("4.3",))
    assert set(charged(certificate)) == {"3.9"}
    assert all(r.judged_under == "4.3" or r.probe for r in results)


def test_blocking_in_a_subset_run_asks_the_prerequisite_rules_cases() -> None:
    certificate, results = subset(mutant("short-kings"), ids=("4.6-king-turns-at-its-only-landing-square",))
    probes = {r.judged_under for r in results if r.probe}
    assert "4.3" in probes
    assert set(charged(certificate)) <= {"3.9", "4.3"}
    assert {rule for by in certificate.blocked.values() for rule in by} == {"4.3"}


class KingCapturesLeaveThePieces(OracleEngine):
    """A king's capture is played but leaves the pieces it took on the board (in play and in games)."""

    def apply(self, position: Position, move: Move) -> Position:
        return _leave(position, move, super().apply(position, move))


def _leave(position: Position, move: Move, after: Position) -> Position:
    piece = position.piece_at(move.from_square)
    if piece is None or piece.kind is not Kind.KING or not move.is_capture:
        return after
    them = position.turn.opponent
    squares = {kind: set(after.squares(them, kind)) for kind in Kind}
    for square in move.captured:
        taken = position.piece_at(square)
        assert taken is not None
        squares[taken.kind].add(square)
    men, kings = frozenset(squares[Kind.MAN]), frozenset(squares[Kind.KING])
    white = them is Color.WHITE
    return Position.from_squares(
        after.turn,
        white_men=men if white else frozenset(after.squares(Color.WHITE, Kind.MAN)),
        white_kings=kings if white else frozenset(after.squares(Color.WHITE, Kind.KING)),
        black_men=frozenset(after.squares(Color.BLACK, Kind.MAN)) if white else men,
        black_kings=frozenset(after.squares(Color.BLACK, Kind.KING)) if white else kings,
    )


class _LeavingGame(Game):
    def position_after(self, position: Position, move: Move) -> Position:
        return _leave(position, move, super().position_after(position, move))


def test_a_king_capture_played_wrongly_in_a_draw_game_is_not_the_draw_rules() -> None:
    engine = KingCapturesLeaveThePieces(
        name="leaves-pieces", game_factory=lambda p, c, r: _LeavingGame(p, c, r)
    )
    certificate, results = subset(engine)
    assert set(charged(certificate)) == {"4.11"}
    draws = [r for r in results if r.status is Status.FAIL and r.judged_under.startswith("6.")]
    assert draws, "the draw cases that play a king capture see it"
    assert all(r.charged_to == "4.11" for r in draws)


class RaisesOnce(OracleEngine):
    """mutant:endgame-no-restart@6.3 that also raises on one 6.3 question."""

    def __init__(self) -> None:
        restarts = mutant("endgame-no-restart@6.3")
        super().__init__(restarts.rules, name="raises-once")
        self.raised = False

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        first = tuple(moves[:3]) == ("15-4", "45-50", "4-36")  # 6.3-ending-at-setup-draws-at-ply-32
        if fen == "W:WK15,K48,K2:BK45" and first and not self.raised:
            self.raised = True
            raise RuntimeError("one exception")
        return super().outcome(fen, counters, moves)


def test_an_error_never_blocks_the_failures_of_a_reading() -> None:
    """One exception on a 6.3 question left six real endgame-no-restart failures "blocked"."""
    plain, _ = subset(mutant("endgame-no-restart@6.3"))
    certificate, results = subset(RaisesOnce())
    assert [r.judged_under for r in results if r.status is Status.ERROR] == ["6.3"]
    rows = {row.key: row for row in certificate.rows}
    before = {row.key: row for row in plain.rows}
    assert rows["endgame-no-restart"].failed == before["endgame-no-restart"].failed > 0
    assert rows["endgame-no-restart"].blocked == 0


def test_bisect_and_verify_file_one_defect_alike() -> None:
    """`bisect mutant:king-counts-two` suggested 4.14 relying on 4.1/4.2, verify 4.14 relying on 4.13."""
    # depth 1: straight to the random games (no line of a few plies from the start has a king), which meet
    # the same difference as after the full tree search, at 40% of its cost
    found = bisect(mutant("king-counts-two"), depth=1, games=1000)
    assert found.difference is not None
    position = found.difference.position
    answer = [
        (m.from_square, m.to_square, m.captured)
        for m in mutant("king-counts-two").legal_moves(position.fen())
    ]
    filing = file_answer(position, answer)
    assert filing is not None
    article, requires, _, _ = case_rule(found.difference)
    assert (article, requires) == suggested(filing.rule, filing.requires, readings())[:2]
    assert "4.13" in (article, *requires)
