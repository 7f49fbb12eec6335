"""The draw-rule campaigns of ``verify`` (``--kind draws``): steered games, their filing, shrinking,
engines with short kings, and the same report whatever the workers."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import random
import weakref

import pytest

from conformance.core.draw_events import DrawBook, MoveKind, Side
from conformance.core.filing.base import Filing
from conformance.core.filing.outcomes import explaining_reading, explaining_readings, outcome_filing
from conformance.core.filing.played import refused_move_filing
from conformance.core.results import Status
from conformance.core.tallies import total
from conformance.engines.adapters.specs import EngineRecipe
from conformance.engines.mutants import mutant
from conformance.verify import KINDS
from conformance.verify.disagreement import shrink_row
from conformance.verify.draw_campaigns import AskedGame, DrawGame, asked_plies, draw_game
from conformance.verify.draw_phases import GRID, Cell, phase_of
from conformance.verify.draw_plans import plan
from conformance.verify.draw_realise import SHORT_KINGS
from conformance.verify.draw_templates import TEMPLATES, Template
from conformance.verify.driver import Driver
from conformance.verify.generate import VerifyOptions, draw_timings, generate
from conformance.verify.run import verify
from oracle.board import row_of
from oracle.game import Game
from oracle.notation import Notation, parse_move
from oracle.position import Position

from .test_workers import same_run

DRAWS_ONLY = VerifyOptions(examples=len(TEMPLATES), seed=5, kinds=("draws",), shrink=2)
"""One round of the templates."""

DEFAULT_RUN = VerifyOptions(examples=300, seed=11)
"""The command line's default run: ``verify --examples 300 --seed 11``."""


def _games(rounds: int) -> list[tuple[int, DrawGame]]:
    """The games of the default run's first ``rounds`` draws positions (remembered per process:
    the default run's tests search them once)."""
    kinds = DEFAULT_RUN.kinds
    first = kinds.index("draws")
    return [(r, draw_game(DEFAULT_RUN.seed, first + r * len(kinds), r)) for r in range(rounds)]


def test_draws_is_a_kind_of_the_default_run() -> None:
    assert "draws" in KINDS
    assert VerifyOptions().kinds == KINDS
    assert generate(11, KINDS.index("draws"), KINDS).game is not None
    assert generate(11, 0, KINDS).game is None


def test_every_template_gives_a_game_from_default_counters_that_ends_on_its_last_ply() -> None:
    found = set()
    for _, game in _games(len(TEMPLATES)):
        assert isinstance(game.position, Position)
        found.add(game.scenario)
        for asked in (AskedGame(game.moves, game.asked), *game.controls):
            replay = Game(game.position)  # default counters: the setup is the first occurrence
            for text in asked.moves[:-1]:
                replay.play(text)
                assert not replay.is_over, (game.scenario, replay.ply)
            replay.play(asked.moves[-1])
            assert replay.is_over, (game.scenario, game.position.fen(), asked.moves)
            assert list(asked.asked) == sorted(set(asked.asked))
            assert asked.asked[-1] == len(asked.moves)
            assert all(1 <= ply <= len(asked.moves) for ply in asked.asked)
    assert found == {template.name for template in TEMPLATES}


def test_the_templates_ask_every_cell_of_the_grid() -> None:
    asked = {cell for template in TEMPLATES for cell in plan(template, random.Random(template.name)).cells}
    assert asked == set(GRID)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_a_cell_is_where_the_event_falls_in_its_count(template: Template) -> None:
    """Each cell a plan claims, derived again from its events: the count each event falls in,
    kept by the draw model's own bookkeeping (the count before the event, plus one)."""
    for seed in range(3):
        planned = plan(template, random.Random(seed))
        book = DrawBook(planned.start)
        derived = set()
        lone_man = planned.start.material.men(Side.WHITE) + planned.start.material.men(
            Side.BLACK
        ) == 1 and any(
            planned.start.material.pieces(side) == 1 and not planned.start.material.kings(side)
            for side in Side
        )
        for ply, event in enumerate(planned.events, start=1):
            group_before, count_before, run_before = book.group, book.endgame_plies, book.no_progress_plies
            book.play(event)
            rule = template.rule
            if rule == "6.2":
                kind = {
                    MoveKind.MAN_MOVE: "man move",
                    MoveKind.PROMOTION: "promotion",
                    MoveKind.CAPTURE: "capture",
                }
                if event.kind in kind:
                    derived.add(Cell("6.2", kind[event.kind], phase_of("6.2", run_before + 1)))
                if event.blocked:
                    derived.add(Cell("6.2", "win", phase_of("6.2", run_before + 1)))
                if book.outcome.rule == "6.1":
                    derived.add(Cell("6.2", "repetition", phase_of("6.2", run_before + 1)))
                continue
            if group_before is None and event.kind is MoveKind.PROMOTION and lone_man:
                derived.add(Cell(rule, "lone man crowned", phase_of(rule, ply)))
                continue
            if group_before is None or group_before.article != rule:
                continue
            phase = phase_of(rule, count_before + 1)
            if book.outcome.rule == "6.1":
                derived.add(Cell(rule, "repetition", phase))
            elif book.outcome.rule == "7.2.2":
                derived.add(Cell(rule, "win", phase))
            elif event.kind is MoveKind.CAPTURE:
                derived.add(Cell(rule, "capture" if book.group is group_before else "group change", phase))
            elif event.kind in (MoveKind.MAN_MOVE, MoveKind.PROMOTION):
                derived.add(Cell(rule, event.kind.value, phase))
            if event.long_diagonal and not any(c.event == "long diagonal" for c in derived):
                derived.add(Cell(rule, "long diagonal", phase))
        assert derived == set(planned.cells), (template.name, seed)


def test_the_default_run_asks_every_timing() -> None:
    table = draw_timings(DEFAULT_RUN, DEFAULT_RUN.examples)
    print("\n".join(table))
    assert table[-1] == f"{len(GRID)} of {len(GRID)} timings asked"
    rows = table[1:-1]
    assert len(rows) == len({(cell.rule, cell.event) for cell in GRID})
    assert all(" 0 " not in f"{row} " for row in rows)


class _Cycle:
    """An object in a reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_a_run_of_draw_games_freezes_the_heap_only_while_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heap is frozen after each steered game (full collections walked the search's memory
    again and again) and thawed at the end of a run in this process, so that a cycle made before
    the run is still freed."""
    from conformance.verify import sweep

    frozen_during: list[int] = []
    settle = sweep.settle_heap

    def settled() -> None:
        settle()
        frozen_during.append(gc.get_freeze_count())

    monkeypatch.setattr(sweep, "settle_heap", settled)
    old = _Cycle()
    gc.collect()  # now in the oldest generation, which the run's collections before a freeze leave
    assert gc.get_freeze_count() == 0
    before = weakref.ref(old)
    del old  # old garbage: a cycle nothing else refers to
    options = VerifyOptions(examples=3, seed=5, kinds=("draws",), z3=False, plays=0)
    run = verify(EngineRecipe("oracle"), options)
    assert run.positions == 3
    assert len(frozen_during) == 3
    assert all(count > 0 for count in frozen_during)
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert before() is None


def test_worker_processes_hand_back_the_timings_their_games_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of a run on worker processes comes from the cells the workers handed back: the
    parent does not search every game again after the run (that doubled the draw searches' CPU)."""
    from conformance.verify import generate as generate_module

    options = VerifyOptions(examples=5, seed=5, kinds=("draws",), z3=False, plays=0)
    run = verify(EngineRecipe("oracle"), options, workers=2)
    games = [generate(options.seed, index, options.kinds).game for index in range(5)]  # searched here
    expected = draw_timings(options, run.positions)
    assert sorted(run.draw_cells) == sorted(cell for game in games if game for cell in game.cells)
    assert run.draw_cells_from == 0

    def searched_again(*args: object) -> DrawGame:
        raise AssertionError(f"draw game searched again: {args}")

    monkeypatch.setattr(generate_module, "draw_game", searched_again)
    assert draw_timings(options, run.positions, run.draw_cells, run.draw_cells_from) == expected
    monkeypatch.undo()
    resumed = [cell for game in games[2:] if game for cell in game.cells]  # as if resumed at 2
    assert draw_timings(options, run.positions, resumed, 2) == expected


def test_a_game_is_the_same_for_the_same_seed_and_index_and_differs_with_the_seed() -> None:
    draw_game.cache_clear()
    first = draw_game(7, 3, 3)
    draw_game.cache_clear()
    assert draw_game(7, 3, 3) == first
    assert draw_game(8, 3, 3) != first


@pytest.mark.slow  # 30-45 s; the draw mutants of test_verify_mutants file readings and short kings too
def test_games_with_steps_only_are_legal_alike_with_short_kings() -> None:
    steps = [game for _, game in _games(len(TEMPLATES)) if game.steps_only]
    assert len(steps) >= 10
    for game in steps:
        for moves in (game.moves, *(control.moves for control in game.controls)):
            flying, short = Game(game.position), Game(game.position, rules=SHORT_KINGS)
            for text in moves:
                move = parse_move(flying.position, text, Notation.PDN)
                hops = zip(move.route, move.route[1:], strict=False)
                assert all(abs(row_of(a) - row_of(b)) <= 2 for a, b in hops), text
                flying.play(text)
                short.play(text)
            assert short.outcome() == flying.outcome()


def test_asked_plies_surround_each_boundary() -> None:
    assert asked_plies((50, 62), 62) == (48, 49, 50, 51, 60, 61, 62)
    assert asked_plies((2,), 3) == (1, 2, 3)


# -- filing ----------------------------------------------------------------------------------------


def _outcome(result: str, rule: str | None = None, ply: int | None = None) -> dict[str, object]:
    return {"result": result, "rule": rule, "ply": ply}


@pytest.mark.parametrize(
    ("expected", "got", "rule"),
    [
        (_outcome("draw", "6.3", 32), _outcome("ongoing"), "6.3"),  # a missed draw
        (_outcome("ongoing"), _outcome("draw", "6.1", 9), "6.1"),  # a draw where there is none
        (_outcome("white_wins", "7.2.3", 32), _outcome("draw", "6.3", 32), "7.2.3"),  # a win expected
        (_outcome("white_wins", "7.2.2", 15), _outcome("draw", "6.4", 8), "6.4"),  # ended early
        (_outcome("draw", "6.2", 50), _outcome("draw", "6.2", 49), "6.2"),
        (_outcome("draw", "6.1", 10), _outcome("draw", "6.4", 10), "6.1"),
        (_outcome("draw", "6.4", 10), _outcome("black_wins", "7.2.3", 10), "7.2.3"),
    ],
)
def test_a_disagreement_is_filed_under_the_rule_it_concerns(
    expected: dict[str, object], got: dict[str, object], rule: str
) -> None:
    position = Position.from_fen("W:WK1,K2:BK45")
    assert outcome_filing(position, (), expected, got, "6.1", readings=False) == Filing(rule)


def test_a_refused_move_is_charged_to_its_rule() -> None:
    position = Position.from_fen("W:WK46,31:BK5")
    filings = [refused_move_filing(position, (move, "5-10"), 1) for move in ("46-28", "31-27")]
    assert [(f.rule, f.requires) for f in filings if f is not None] == [("3.9", ()), ("3.4", ())]
    assert refused_move_filing(position, ("46-28",), 3) is None


@pytest.mark.slow  # 30-45 s; the draw mutants of test_verify_mutants file readings and short kings too
def test_the_reading_explaining_an_answer_is_filed_when_the_control_passed() -> None:
    run = verify(lambda: mutant("win-beats-draw@7.2"), DRAWS_ONLY)
    wrong = [r for r in run.results if r.status is not Status.PASS]
    assert wrong
    assert {r.article for r in wrong} == {"win-beats-draw"}
    assert all("7.2.2" in (r.message or "") or "7.2.3" in (r.message or "") for r in wrong)


def test_a_count_carried_into_6_4_is_filed_under_its_reading() -> None:
    run = verify(lambda: mutant("endgame-group-change@6.4"), DRAWS_ONLY)
    wrong = {r.article for r in run.results if r.status is not Status.PASS}
    assert wrong == {"endgame-group-change"}


# -- engines with short kings ----------------------------------------------------------------------


def test_short_kings_are_judged_on_steps_and_their_refusals_charged_to_the_move() -> None:
    run = verify(lambda: mutant("short-kings"), dataclasses.replace(DRAWS_ONLY, z3=False, all_results=True))
    rows = [r for r in run.results if r.question == "outcome[draws]"]
    passed = [r for r in rows if r.status is Status.PASS]
    failed = [r for r in rows if r.status is Status.FAIL]
    assert passed, "the games of one-square steps were not judged"
    assert failed
    for result in failed:
        assert result.article in {"3.9", "4.3", "4.6"}, (result.article, result.message)
        assert "charged to Art." in (result.message or "")


# -- shrinking and the case -------------------------------------------------------------------------


def test_a_draw_disagreement_is_shrunk_to_the_shortest_disagreeing_prefix() -> None:
    engine = mutant("6.3-fifteen-moves")
    run = verify(lambda: mutant("6.3-fifteen-moves"), DRAWS_ONLY)
    disagreement = next(d for d in run.disagreements if d.check == "outcome[draws]")
    moves = disagreement.judgement.subject
    fen = disagreement.position.fen()

    def differs(prefix: tuple[str, ...]) -> bool:
        game = Game(disagreement.position)
        for text in prefix:
            game.play(text)
        got = engine.outcome(fen, {}, list(prefix))
        return (got.result, got.rule, got.ply) != (
            game.outcome().result.value,
            game.outcome().rule,
            game.outcome().ply,
        )

    assert differs(moves)
    assert not differs(moves[:-1])
    text = disagreement.text()
    assert "after ply" in text
    assert 'article: "6.3"' in disagreement.case_yaml
    assert "result: TODO" in disagreement.case_yaml


def test_a_case_for_a_reading_names_the_reading() -> None:
    engine = mutant("endgame-no-restart@6.3")
    driver = Driver(engine, DRAWS_ONLY)
    for index in DRAWS_ONLY.indices():
        generated = generate(DRAWS_ONLY.seed, index, DRAWS_ONLY.kinds)
        row = next(
            (r for r in driver.rows(generated) if r.judgement and r.result.article == "endgame-no-restart"),
            None,
        )
        if row is not None:
            break
    assert row is not None, "no game filed under the reading"
    disagreement = shrink_row(driver, generated, row)
    assert "interpretation: {reading: endgame-no-restart}" in disagreement.case_yaml
    assert 'article: "6.3"' in disagreement.case_yaml


# -- determinism -------------------------------------------------------------------------------------


@pytest.mark.slow  # about 45 s
def test_two_workers_and_shards_give_the_same_draw_results() -> None:
    recipe = EngineRecipe("mutant:endgame-no-restart@6.3")
    options = dataclasses.replace(DRAWS_ONLY, z3=False)
    one = verify(recipe, options)
    assert one.exit_status == 1
    assert same_run(verify(recipe, options, workers=2)) == same_run(one)
    from conformance.core.shards import Shard

    runs = [verify(recipe, dataclasses.replace(options, shard=Shard(k, 2))) for k in (1, 2)]
    halves = [run.results for run in runs]
    assert total(line for run in runs for line in run.tallies) == total(one.tallies)  # the counted passes
    merged = sorted(itertools.chain(*halves), key=lambda r: (int(r.case.rsplit("-", 1)[1]), r.question))
    whole = sorted(one.results, key=lambda r: (int(r.case.rsplit("-", 1)[1]), r.question))
    strip = ("duration_ms",)
    assert [{k: v for k, v in r.to_json().items() if k not in strip} for r in merged] == [
        {k: v for k, v in r.to_json().items() if k not in strip} for r in whole
    ]


# -- filing by the draw model, knowing what the engine got right ------------------------------------


def _lone_man_game() -> tuple[Position, tuple[str, ...]]:
    """Three kings against a lone man crowned on ply 3 (the corpus case
    6.3-steps-no-count-against-a-lone-man): 6.3 arises at ply 3, draws at ply 35."""
    moves = [
        "13-8",
        "33-38",
        "8-2",
        "38-42",
        "2-7",
        "42-48",
        "7-12",
        "48-43",
        "12-18",
        "43-49",
        "18-13",
        "49-44",
        "13-8",
        "44-39",
        "8-2",
        "39-33",
        "2-7",
        "33-38",
        "7-12",
        "38-42",
        "12-18",
        "42-48",
        "18-13",
        "48-43",
        "13-8",
        "43-49",
        "8-2",
        "49-44",
        "2-7",
        "44-39",
        "7-12",
        "39-33",
    ]
    return Position.from_fen("W:W13:BK33,K46,K47"), tuple(moves)


def test_a_count_against_a_lone_man_is_filed_under_its_reading_where_the_model_can_tell() -> None:
    position, moves = _lone_man_game()
    got = {"result": "draw", "rule": "6.3", "ply": 32}
    assert explaining_reading(position, moves, got) == "endgame-lone-king-only"
    filing = outcome_filing(position, moves, {"result": "ongoing"}, got, "6.3")
    assert (filing.rule, filing.requires) == ("endgame-lone-king-only", ())


def test_a_reading_is_not_filed_where_an_answer_right_before_contradicts_it() -> None:
    """The engine answered the 32-ply game right earlier in the row: a count against the lone man
    would have drawn there, so that reading cannot explain its later answer."""
    position, moves = _lone_man_game()
    got = {"result": "draw", "rule": "6.3", "ply": 32}
    assert explaining_reading(position, moves, got, agreed=[moves[:32]]) is None


def test_where_a_plain_mistake_explains_it_too_the_reading_relies_on_its_article() -> None:
    """A lone man crowned on ply 2: a count against it expires on the ply a count two plies short
    does -- the model cannot tell, so the result is filed under the one reading that explains it,
    relying on the article of the plain mistake (blocked where the engine fails 6.4 directly), as a
    corpus case resting on the reading requires its article."""
    position = Position.from_fen("W:WK33,K50:B41")  # 6.4-steps-ending-arises-by-promotion, crowned at ply 2
    moves = ("33-38", "41-46", "38-42", "46-41", "42-48", "41-46", "48-43", "46-41", "43-49", "41-46")
    got = {"result": "draw", "rule": "6.4", "ply": 10}
    assert "endgame-lone-king-only" in explaining_readings(position, moves, got)
    assert explaining_reading(position, moves, got) is None
    filing = outcome_filing(position, moves, {"result": "ongoing"}, got, "6.4")
    assert (filing.rule, filing.requires) == ("endgame-lone-king-only", ("6.4",))


def test_verify_prints_the_table_of_the_timings_it_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.cli.main import main

    status = main(
        ["verify", "--engine", "oracle", "--kind", "draws", "--examples", "4", "--seed", "5", "--no-z3"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "== draw-rule timings asked: games per (rule, event, phase of its count) ==" in out
    table = out[out.index("== draw-rule timings") :].splitlines()
    assert table[1].split() == ["first", "early", "middle", "late", "boundary"]
    assert table[-1].endswith("not asked")  # four games cannot ask them all: the gap shows
