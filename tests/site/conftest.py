"""Fixtures for the documentation tests: real run reports and a site built from them.

The reports come from real runs of the corpus, in process: the oracle, and a deliberately
broken oracle whose men do not capture backward (Art. 4.1), so that failures exist to draw.
They are written as canonical JSON-lines files and read back, as the ``docs`` command does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from conformance.core.corpus import Capability, Corpus, MoveSpec, load_corpus
from conformance.core.corpus.load import corpus_root_for
from conformance.core.protocol import BaseEngine, Engine, EngineInfo
from conformance.core.rule_sets import rule_set
from conformance.engines.mutants import mutant
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, header, run, select_cases
from conformance.report import Report, ReportWriter, read_report
from conformance.site.build import write_site
from oracle.moves import legal_moves
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL

BROKEN_NAME = "no-backward"
KEEPER_NAME = "keeps-captured"
CHOOSER_NAME = "chooser"
NO_BACKWARD = dataclasses.replace(INTERNATIONAL, men_capture_backward=False)


class ChoosesWithoutBackwardCaptures(BaseEngine):
    """A broken move-choice engine (as through Hub or DXP): it plays the first move of a generator
    whose men do not capture backward."""

    @property
    def info(self) -> EngineInfo:
        return EngineInfo(
            CHOOSER_NAME, "1.0", frozenset({Capability.CHOOSE_MOVE}), "in-process", "move-choice"
        )

    def choose_move(self, fen: str) -> MoveSpec | None:
        moves = legal_moves(Position.from_fen(fen), NO_BACKWARD)
        return MoveSpec(moves[0].from_square, moves[0].to_square, moves[0].captured) if moves else None


class KeepsCapturedPieces(OracleEngine):
    """A broken engine: after playing, the opponent's captured pieces are still on the board."""

    def play(self, fen: str, moves: Sequence[str]) -> str:
        start = Position.from_fen(fen)
        after = Position.from_fen(super().play(fen, moves))
        victim = start.turn.opponent
        kept = {
            (square, kind)
            for kind in Kind
            for square in start.squares(victim, kind)
            if after.piece_at(square) is None
        }
        squares = {(color, kind): set(after.squares(color, kind)) for color in Color for kind in Kind}
        for square, kind in kept:
            squares[victim, kind].add(square)
        return Position.from_squares(
            after.turn,
            white_men=squares[Color.WHITE, Kind.MAN],
            white_kings=squares[Color.WHITE, Kind.KING],
            black_men=squares[Color.BLACK, Kind.MAN],
            black_kings=squares[Color.BLACK, Kind.KING],
        ).fen()


def run_to_report(corpus: Corpus, factory: Callable[[], Engine], path: Path) -> Report:
    options = RunOptions()
    cases = select_cases(corpus, options)
    engine = factory()
    with path.open("w", encoding="utf-8") as handle:
        writer = ReportWriter(handle)
        writer.write(header(corpus, engine.info, options, cases))
        summary = run(cases, factory, options, writer.result, engine=engine)
        writer.write(summary.to_json())
    return read_report(path)


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="session")
def oracle_report(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Report:
    path = tmp_path_factory.mktemp("reports") / "oracle.jsonl"
    return run_to_report(corpus, OracleEngine, path)


@pytest.fixture(scope="session")
def broken_report(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Report:
    path = tmp_path_factory.mktemp("reports") / "broken.jsonl"
    report = run_to_report(corpus, lambda: OracleEngine(NO_BACKWARD, name=BROKEN_NAME), path)
    assert any(r.status.value == "fail" for r in report.results), "the broken engine must fail somewhere"
    return report


@pytest.fixture(scope="session")
def keeper_report(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Report:
    path = tmp_path_factory.mktemp("reports") / "keeper.jsonl"
    report = run_to_report(corpus, lambda: KeepsCapturedPieces(name=KEEPER_NAME), path)
    assert any(r.status.value == "fail" and r.question.startswith("after") for r in report.results)
    return report


@pytest.fixture(scope="session")
def chooser_report(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Report:
    path = tmp_path_factory.mktemp("reports") / "chooser.jsonl"
    report = run_to_report(corpus, ChoosesWithoutBackwardCaptures, path)
    assert any(r.status.value == "fail" for r in report.results)
    return report


@pytest.fixture(scope="session")
def reports(
    oracle_report: Report, broken_report: Report, keeper_report: Report, chooser_report: Report
) -> list[Report]:
    return [oracle_report, broken_report, keeper_report, chooser_report]


@pytest.fixture(scope="session")
def russian_corpus() -> Corpus:
    played = rule_set("russian")
    return load_corpus(corpus_root_for(played), played)


@pytest.fixture(scope="session")
def russian_reports(russian_corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> list[Report]:
    """The oracle and a mutant playing maximum capture, each run on the Russian corpus."""
    folder = tmp_path_factory.mktemp("russian")
    played = rule_set("russian")
    return [
        run_to_report(
            russian_corpus,
            lambda: OracleEngine(played.rules, rule_sets=frozenset({"*"})),
            folder / "oracle.jsonl",
        ),
        run_to_report(russian_corpus, lambda: mutant("maximum-capture-choice", played), folder / "max.jsonl"),
    ]


@pytest.fixture(scope="session")
def site_dir(
    corpus: Corpus,
    reports: list[Report],
    russian_corpus: Corpus,
    russian_reports: list[Report],
    tmp_path_factory: pytest.TempPathFactory,
) -> Path:
    """The site of the international corpus and reports, with Russian draughts' pages (its corpus
    and two runs of it) in ``russian/``."""
    out = tmp_path_factory.mktemp("site")
    write_site(out, corpus, [*reports, *russian_reports], {"russian": russian_corpus})
    return out
