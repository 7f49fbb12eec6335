"""``verify`` alone, without the corpus, catches every capture mutant of the gallery.

Each mutant (conformance.engines.mutants.CAPTURE_MUTANTS: the oracle with one capture rule broken) is run
through :func:`conformance.verify.run.verify` on generated positions, twice: with everything
(z3, invariants, the oracle), and with the oracle left out -- so that the SMT encoding and the
invariants are shown to catch it on their own, the oracle playing no part in the verdict. The
control: the plain capture search the mutants share, with no bug, passes.

Measured with ``benchmarks/verify_speed.py --mutant-seeds 20``: over seeds 0-19, z3 and the
invariants alone catch every mutant within 67 positions (median 1-18); here each run stops at its
first failing position, well within ``EXAMPLES``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from conformance.core.protocol import MoveRefused, OutcomeAnswer
from conformance.core.results import Result, Status
from conformance.engines.draw_mutants import DRAW_READINGS
from conformance.engines.mutants import (
    BREAKS,
    CAPTURE_MUTANTS,
    MUTANTS,
    mutant,
    unmutated_capture_search,
)
from conformance.engines.oracle_engine import OracleEngine
from conformance.engines.reading_mutants import READING_MUTANTS
from conformance.verify import KINDS
from conformance.verify import strategies as gen
from conformance.verify.asking import Asker, EngineFailed
from conformance.verify.choices import RandomChooser
from conformance.verify.findings import FindingKind
from conformance.verify.generate import VerifyOptions
from conformance.verify.jumps import capture_graph
from conformance.verify.run import verify
from oracle.board import row_of
from oracle.counters import Counters
from oracle.moves import legal_moves
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL

SEED = 2026
EXAMPLES = 300
"""At most this many positions per mutant; a run stops at the first failing position."""
CONTROL_EXAMPLES = 70
"""The positions the control checks: every capture mutant's run stops within them (the last, start-square-occupied,
at position 69 of seed 2026), so each kill is on a position where the plain search passes. The mutants' tests
check that they stop within it."""

ORACLE_FREE = {
    "legal_moves[z3]",
    "legal_moves[invariants]",
    "symmetry",
    "after[invariants]",
    "initial_position",
}
"""The checks that never consult the oracle."""

CAPTURE_ARTICLES = {
    "4.1",
    "4.2",
    "4.3",
    "4.5",
    "4.6",
    "4.8",
    "4.11",
    "4.13",
    "4.14",
    "4.15",
    "8",
    "start-square-empty",
}
"""Where a capture mutant's failures must be filed: the capture articles (8: a move listed twice)
and the capture reading start-square-empty."""


def _filed_under_captures(results: list[Result]) -> bool:
    articles = {article for result in results for article in result.articles}
    return bool(articles) and articles <= CAPTURE_ARTICLES


@pytest.mark.parametrize("name", CAPTURE_MUTANTS)
def test_verify_catches_the_capture_mutant(name: str) -> None:
    options = VerifyOptions(examples=EXAMPLES, seed=SEED, max_fail=1, shrink=1, engine_timeout=5)
    run = verify(lambda: mutant(name), options)
    failing = [result for result in run.results if result.status is Status.FAIL]
    assert failing, f"verify did not catch {name} in {run.positions} positions"
    assert run.positions <= CONTROL_EXAMPLES, "caught beyond the control's positions: raise CONTROL_EXAMPLES"
    assert run.exit_status == 1
    assert run.disagreements, "the disagreement was not shrunk"
    shrunk = run.disagreements[0]
    assert sum(shrunk.position.count(color) for color in Color) <= sum(
        shrunk.original.count(color) for color in Color
    )
    assert _filed_under_captures(failing), {article for result in failing for article in result.articles}


@pytest.mark.parametrize("name", CAPTURE_MUTANTS)
def test_z3_and_the_invariants_alone_catch_the_capture_mutant(name: str) -> None:
    options = VerifyOptions(
        examples=EXAMPLES, seed=SEED, differential=False, max_fail=1, shrink=0, engine_timeout=5
    )
    run = verify(lambda: mutant(name), options)
    failing = [result for result in run.results if result.status is Status.FAIL]
    assert failing, f"z3 and the invariants did not catch {name} in {run.positions} positions"
    assert run.positions <= CONTROL_EXAMPLES, "caught beyond the control's positions: raise CONTROL_EXAMPLES"
    assert {result.question for result in run.results} <= ORACLE_FREE
    assert _filed_under_captures(failing)


def test_the_mutants_shared_search_without_a_bug_passes_verify() -> None:
    """The control: a kill means the bug was noticed, not that the plain search differs anyway (on every
    position where a mutant was caught)."""
    options = VerifyOptions(examples=CONTROL_EXAMPLES, seed=SEED, engine_timeout=5)
    run = verify(unmutated_capture_search, options)
    problems = [(r.case, r.question, r.message) for r in run.results if r.status is not Status.PASS]
    assert not problems, problems[:3]


@pytest.mark.slow
@pytest.mark.parametrize("name", CAPTURE_MUTANTS)
def test_z3_alone_catches_the_capture_mutant_on_many_seeds(name: str) -> None:
    for seed in range(20):
        # No max_fail: a time-out (piece-jumped-twice explodes on some positions) must not end the run.
        options = VerifyOptions(
            examples=100, seed=seed, differential=False, plays=0, shrink=0, engine_timeout=1
        )
        run = verify(lambda: mutant(name), options)
        assert any(result.status is Status.FAIL for result in run.results), (name, seed)


# -- the positions the mutants need ----------------------------------------------------------------


def test_far_row_positions_let_a_man_capture_onto_its_far_row() -> None:
    """The generator behind crowned-mid-capture's quick kill (4.15): it keeps its promise."""
    onward = 0
    for seed in range(200):
        position = gen.far_row_capture_position(RandomChooser(seed))
        assert position.fen() == type(position).from_fen(position.fen()).fen()
        men = position.squares(position.turn, Kind.MAN)
        far = position.turn.promotion_row
        graphs = [capture_graph(position, man) for man in men]
        landings = [jump for graph in graphs for jump in graph.jumps if row_of(jump.land) == far]
        assert landings, position.fen()
        if any(
            jump.start == landing.land for graph in graphs for jump in graph.jumps for landing in landings
        ):
            onward += 1
    assert onward >= 60, onward  # often the capture goes on from the far row, the man uncrowned


def test_the_far_row_positions_separate_the_crowning_mutant() -> None:
    crowning = mutant("crowned-mid-capture")
    differing = 0
    for seed in range(100):
        position = gen.far_row_capture_position(RandomChooser(seed))
        got = {(m.from_square, m.to_square, m.captured) for m in crowning.legal_moves(position.fen())}
        differing += got != {move.key for move in legal_moves(position)}
    assert differing >= 25, differing


def test_the_z3_findings_of_a_mutant_name_what_is_wrong() -> None:
    run = verify(
        lambda: mutant("captures-not-compulsory"),
        VerifyOptions(examples=20, seed=SEED, kinds=("captures",), differential=False, max_fail=1, shrink=1),
    )
    assert run.disagreements[0].kind is FindingKind.COMPULSORY_CAPTURE
    assert run.disagreements[0].check == "legal_moves[z3]"
    assert set(KINDS) >= {"captures"}


# -- the draw-rule and game-end mutants: the draws campaigns (``--kind draws``, part of ``all``) ----

MOVE_RULE_MUTANTS = frozenset({"three-rows-of-men", "kings-step-one-square", "short-kings"})
"""Mutants of the gallery that break a rule of the board or of the moves, not of Art. 6 / 7.2."""

DRAW_MUTANTS = tuple(
    name
    for name in MUTANTS
    if name not in CAPTURE_MUTANTS and name not in MOVE_RULE_MUTANTS and name not in READING_MUTANTS
)
"""Every draw-rule and game-end mutant of the gallery (Art. 6, 7.2 and their readings)."""

DRAW_IN_DEFAULT_RUN = frozenset(
    {
        "repetition-on-second",  # 6.1
        "6.2-off-by-1-ply",
        "6.3-off-by-1-ply",
        "6.4-off-by-1-ply",
        "win-beats-draw@7.2",
        "draw-precedence@6.1",  # a reading broken on one article
        "endgame-no-restart@6.4",
    }
)
"""One mutant per draw article and two of the readings in the default test run (about 12 s each);
every mutant of the gallery with ``--run-slow``."""


def _some_in_default_run(names: Sequence[str], default: frozenset[str]) -> list[Any]:
    """``names`` as parameters, those outside ``default`` marked slow."""
    assert default <= set(names), default - set(names)
    return [pytest.param(name, marks=() if name in default else pytest.mark.slow) for name in names]


DRAW_OPTIONS = VerifyOptions(examples=300, seed=11)
"""The command line's default run: ``verify --engine mutant:NAME --examples 300 --seed 11``."""


def test_the_draw_mutants_are_those_breaking_art_6_or_its_readings() -> None:
    draw_rules = {"6.1", "6.2", "6.3", "6.4", "7.2", "7.2.2", "7.2.3", *(r for r, _ in DRAW_READINGS)}
    assert len(DRAW_MUTANTS) >= 35
    for name in DRAW_MUTANTS:
        assert set(BREAKS[name]) <= draw_rules, name
    for name in MOVE_RULE_MUTANTS:
        assert not set(BREAKS[name]) & draw_rules, name
    reading_mutants = {f"{reading}@{article}" for reading, articles in DRAW_READINGS for article in articles}
    assert reading_mutants <= set(DRAW_MUTANTS)


@pytest.mark.parametrize("name", _some_in_default_run(DRAW_MUTANTS, DRAW_IN_DEFAULT_RUN))
def test_the_default_verify_run_catches_the_draw_mutant_under_its_rule_only(name: str) -> None:
    """Caught, and filed under the rule it breaks: the certificate fails exactly its rules. A
    failure the draw model cannot tell from a plain mistake about an article is filed under the
    reading that explains it and relies on that article (blocked by it where the engine fails the
    article directly, as here): the draw campaigns catch the mutant either way."""
    run = verify(lambda: mutant(name), DRAW_OPTIONS)
    blocked = run.summary.certificate.blocked  # relying on a rule the engine fails directly
    wrong = [
        r
        for r in run.results
        if r.status in (Status.FAIL, Status.ERROR) and (r.case, r.question) not in blocked
    ]
    assert wrong, f"verify --examples 300 --seed 11 did not catch {name}"
    assert run.exit_status == 1
    broken = set(BREAKS[name])
    failed = {row.key for row in run.summary.certificate.rows if row.standing.value == "failed"}
    assert failed, f"{name}: nothing failed, all blocked"
    assert failed <= broken, (name, failed, [r.message for r in wrong if r.article not in broken][:2])
    astray = [r for r in wrong if r.article not in broken and not broken & set(r.requires)]
    assert not astray, (name, [(r.article, r.requires, r.message) for r in astray][:2])
    assert all(r.status is Status.FAIL for r in wrong), [
        r.message for r in wrong if r.status is Status.ERROR
    ][:2]
    by_campaigns = [r for r in run.results if r.question == "outcome[draws]" and r.status is Status.FAIL]
    assert any(r.article in broken or broken & set(r.requires) for r in by_campaigns), (
        "not by the draw campaigns"
    )
    draw_disagreements = [d for d in run.disagreements if d.check == "outcome[draws]"]
    assert draw_disagreements, "the disagreement was not described"
    assert "outcome:" in draw_disagreements[0].case_yaml


def test_the_oracle_has_no_finding_on_the_default_run() -> None:
    run = verify(OracleEngine, DRAW_OPTIONS)
    problems = [(r.case, r.question, r.message) for r in run.results if r.status is not Status.PASS]
    assert not problems, problems[:3]
    assert run.report.by_question()["outcome[draws]", "pass"] == 50


def test_a_king_bug_is_charged_to_the_king_rule_not_to_the_draw_rules() -> None:
    """kings-step-one-square gets its kings' moves wrong; its draw rules are the oracle's."""
    run = verify(lambda: mutant("kings-step-one-square"), dataclasses.replace(DRAW_OPTIONS, all_results=True))
    wrong = [r for r in run.results if r.status in (Status.FAIL, Status.ERROR)]
    assert wrong
    assert {r.article for r in wrong} == {"3.9"}, {r.article for r in wrong}
    draws = [r for r in run.results if r.question == "outcome[draws]"]
    assert draws
    # its own moves refuse the long king moves of some draw games: charged to 3.9, never to Art. 6
    assert all(r.status is Status.PASS or r.article == "3.9" for r in draws)
    assert any(r.status is Status.PASS for r in draws)


class RefusesMovesAfterItsEnd(OracleEngine):
    """A strict engine: once its game is over, the next move is illegal (the protocol allows it)."""

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        game = self.game_factory(Position.from_fen(fen), Counters.from_dict(counters), self.rules)
        for ply, text in enumerate(moves, start=1):
            if game.is_over:
                raise MoveRefused(text, ply, "the game is over")
            game.play(text)
        found = game.outcome()
        return OutcomeAnswer(found.result.value, found.rule, found.ply)


def _strict(name: str) -> OracleEngine:
    loose = mutant(name)
    return RefusesMovesAfterItsEnd(loose.rules, name=f"strict {name}", game_factory=loose.game_factory)


@pytest.mark.parametrize(
    "name",
    # the first two take 25-70 s: their early draws are rare in 48 draw games
    [
        pytest.param("repetition-on-second", marks=pytest.mark.slow),
        pytest.param("6.4-four-moves", marks=pytest.mark.slow),
        "no-progress-24-moves",
    ],
)
def test_an_engine_refusing_moves_after_its_early_end_is_charged_its_draw_rule(name: str) -> None:
    """Its draw comes too early and it refuses the moves after it: the defect is the draw rule,
    not the rule of the king move it refuses."""
    run = verify(lambda: _strict(name), VerifyOptions(examples=48, seed=11, kinds=("draws",)))
    blocked = run.summary.certificate.blocked
    wrong = [
        r
        for r in run.results
        if r.status in (Status.FAIL, Status.ERROR) and (r.case, r.question) not in blocked
    ]
    assert wrong
    assert {r.article for r in wrong} <= set(BREAKS[name]), [r.message for r in wrong][:3]
    assert all(r.charged_to is None for r in wrong)


def test_a_correct_engine_refusing_moves_after_the_end_passes_verify() -> None:
    run = verify(
        lambda: RefusesMovesAfterItsEnd(name="strict"), VerifyOptions(examples=48, seed=11, kinds=("draws",))
    )
    assert [r.message for r in run.results if r.status is not Status.PASS] == []


def test_the_asker_reads_a_move_refused_after_the_engines_end_as_that_end() -> None:
    cycle = ["44-17", "2-19", "17-44", "19-2", "44-17", "2-19", "17-44", "19-2"]
    asker = Asker(_strict("repetition-on-second"), None)
    assert asker.outcome("W:WK44:BK2", cycle) == {"result": "draw", "rule": "6.1", "ply": 4}
    # a refusal inside a game still going on is the move's: the failure carries it
    short = Asker(OracleEngine(dataclasses.replace(INTERNATIONAL, flying_kings=False)), None)
    with pytest.raises(EngineFailed) as failed:
        short.outcome("W:WK44:BK2", cycle)
    assert failed.value.refused is not None
    assert failed.value.refused.ply == 1


# -- the certificate of a move-rule or capture mutant: failed under its broken rule only ------------

FILED_PRECISELY = (
    "men-capture-forward-only",
    "short-kings",
    "free-capture-choice",
    "three-rows-of-men",
    "king-counts-two",
    "prefers-taking-kings",
    "prefers-capturing-with-king",
    "king-lands-right-behind",
    "captures-not-compulsory",
    "kings-step-one-square",
)
"""The mutants whose default verify run fails exactly the rules they break; a failure that rests on
a rule the engine fails elsewhere (a missed long king capture, then a shorter one listed as the
maximum) is blocked by that rule. The others (a capture no route makes: 4.8, 4.11, 4.15) are filed
under 4.13 too, because one position does not tell which rule an unsound capture breaks."""


@pytest.mark.parametrize(
    "name",
    _some_in_default_run(
        FILED_PRECISELY,
        frozenset(
            {"men-capture-forward-only", "short-kings", "free-capture-choice", "captures-not-compulsory"}
        ),
    ),
)
def test_the_default_verify_run_fails_the_mutant_under_the_rules_it_breaks_only(name: str) -> None:
    run = verify(lambda: mutant(name), VerifyOptions(examples=300, seed=11, z3_examples=100))
    certificate = run.summary.certificate
    failed = {row.key for row in certificate.rows if row.standing.value == "failed"}
    assert failed, f"{name} not caught"
    assert failed <= set(BREAKS[name]), (name, failed)
    assert run.exit_status == 1, "a blocked failure is still a problem"


def test_a_missed_long_king_capture_is_charged_to_the_king_rule_not_to_4_13() -> None:
    """Kings that cannot capture from a distance list shorter captures as the maximum: the answers
    go under 4.3 (what the missed captures need and the engine shows it cannot do), never 4.13."""
    run = verify(lambda: mutant("short-kings"), VerifyOptions(examples=300, seed=11, z3_examples=100))
    rows = {row.key: row for row in run.summary.certificate.rows}
    assert rows["4.3"].failed > 0
    assert "4.13" not in rows or rows["4.13"].failed == 0
    optimality = [r for r in run.results if r.status is Status.FAIL and "optimality" in r.message]
    assert optimality
    blocked = run.summary.certificate.blocked
    elsewhere = [r for r in optimality if r.article not in ("4.3", "4.6")]
    assert all("4.3" in blocked.get((r.case, r.question), ()) for r in elsewhere), [
        (r.article, r.requires) for r in elsewhere
    ]


def test_the_suggested_case_is_filed_as_the_result_is() -> None:
    run = verify(
        lambda: mutant("king-lands-right-behind"), VerifyOptions(examples=40, seed=11, z3_examples=20)
    )
    assert run.disagreements
    landing = [d for d in run.disagreements if d.kind is FindingKind.COMPLETENESS]
    assert landing, [d.kind for d in run.disagreements]
    assert landing[0].filed_under == ("4.3",)
    assert '    article: "4.3"' in landing[0].case_yaml
    assert "(Art. 4.3)" in landing[0].text().splitlines()[0]
    narrowed = verify(
        lambda: mutant("prefers-taking-kings"), VerifyOptions(examples=40, seed=11, z3_examples=20)
    )
    relying = [d for d in narrowed.disagreements if d.filed_under[1:]]
    assert relying
    assert relying[0].filed_under[0] == "4.14"
    assert "4.13" in relying[0].filed_under[1:]
    assert "    requires: [" in relying[0].case_yaml
    assert ", relying on Art. " in relying[0].text().splitlines()[0]
