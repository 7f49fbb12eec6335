"""One case writer (``conformance/core/corpus/write.py``), the inverse of the loader: the case each
of ``bisect``, ``verify`` and ``verify --kind readings`` proposes reads back as it was written, and,
its TODOs worked out, loads through the corpus loader as the case it describes."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conformance.bisect.describe import case_draft as bisect_case
from conformance.bisect.search import Difference, spec_of
from conformance.core.corpus.load import (
    CORPUS_ROOT,
    REGISTRY_NAME,
    SCHEMA_NAME,
    load_case_file,
    load_registry,
)
from conformance.core.corpus.write import TODO, CaseDraft, case_file_yaml, case_yaml
from conformance.core.safe_yaml import parse
from conformance.verify import casefile, readings
from conformance.verify.draw_synthesis import DistinguishingGame
from conformance.verify.findings import FindingKind
from conformance.verify.judgement import AFTER_INVARIANTS, DRAWS, INVARIANTS, Judgement
from oracle.moves import legal_moves
from oracle.position import Position

CAPTURE = Position.from_fen("W:W32,33:B28,19,9")  # white must capture 32x23 or 33x22 then on
QUIET = Position.from_fen("W:W31,K45:B10")


def _first_capture() -> Any:
    return next(iter(legal_moves(CAPTURE)))


def _bisect_missing() -> CaseDraft:
    missing = spec_of(_first_capture())
    difference = Difference(root=CAPTURE, line=(), position=CAPTURE, missing=(missing,))
    return bisect_case(difference, "mutant:forgets-captures")


def _bisect_played() -> CaseDraft:
    move = _first_capture()
    difference = Difference(
        root=CAPTURE, line=(), position=CAPTURE, compared="play", played=move, engine_after=CAPTURE.fen()
    )
    return bisect_case(difference, "python:engine:Keeps")


def _verify_legal_moves() -> CaseDraft:
    judgement = Judgement((), ("4.13",))
    return casefile.case_draft(INVARIANTS, FindingKind.COMPLETENESS, judgement, CAPTURE, 7, 5_000)


def _verify_after() -> CaseDraft:
    move = _first_capture()
    key = (move.from_square, move.to_square, tuple(sorted(move.captured)))
    judgement = Judgement((), ("4.11",), subject=key)
    return casefile.case_draft(
        AFTER_INVARIANTS, FindingKind.PIECE_COUNT, judgement, CAPTURE, 7, 5_000, articles=("4.11", "4.1")
    )


def _verify_draws() -> CaseDraft:
    judgement = Judgement((), ("6.3",), subject=("45-50", "10-14"))
    return casefile.case_draft(DRAWS, FindingKind.OUTCOME, judgement, QUIET, 7, 5_000)


def _readings() -> CaseDraft:
    game = DistinguishingGame(
        reading="endgame-count-carried",
        fen=QUIET.fen(),
        counters={"no_progress_plies": 3},
        moves=("45-50", "10-14"),
        ours={"result": "draw", "rule": "6.3", "ply": 2},
        theirs={"result": "ongoing", "rule": None, "ply": None},
        steps_only=False,
        seconds=0.0,
        events=(),
    )
    return readings.case_draft(game)


CALLERS: dict[str, Callable[[], CaseDraft]] = {
    "bisect legal_moves": _bisect_missing,
    "bisect play": _bisect_played,
    "verify legal_moves": _verify_legal_moves,
    "verify after": _verify_after,
    "verify outcome": _verify_draws,
    "verify --kind readings": _readings,
}


@pytest.mark.parametrize("caller", CALLERS)
def test_a_proposed_case_reads_back_as_it_was_written(caller: str) -> None:
    draft = CALLERS[caller]()
    text = case_yaml(draft)
    assert [line for line in text.splitlines() if line.strip().startswith("#")]  # its TODOs are said
    data, _ = parse(f"cases:\n{text}\n", caller)
    assert data["cases"] == [draft.data()]


def _worked(value: Any, moves: int) -> Any:
    """The draft's TODOs as an author might fill them (to load: not an expectation we certify)."""
    if isinstance(value, dict):
        if value.get("result") == TODO:
            return {**value, "result": "draw", "rule": "6.3", "ply": moves}
        return {key: _worked(item, moves) for key, item in value.items()}
    return value


@pytest.mark.parametrize("caller", CALLERS)
def test_a_proposed_case_with_its_todos_worked_out_loads_as_the_case_written(
    caller: str, tmp_path: Path
) -> None:
    draft = CALLERS[caller]()
    outcome = draft.expect.get("outcome", {})
    draft = dataclasses.replace(
        draft,
        description="what an engine must get right here",
        notes=None if draft.notes is None else "the derivation",
        expect=_worked(dict(draft.expect), len(outcome.get("moves", ()))),
        article=draft.article or "4.13",
    )
    for name in (SCHEMA_NAME, REGISTRY_NAME):  # a corpus of the one proposed case
        shutil.copy(CORPUS_ROOT / name, tmp_path / name)
    path = tmp_path / "proposed.yaml"
    path.write_text(case_file_yaml([draft], topic="proposed", article="4"), encoding="utf-8")
    articles, known_readings = load_registry(tmp_path)
    (case,) = load_case_file(path, tmp_path, articles, known_readings)
    assert (case.id, case.article, case.requires, case.reading) == (
        draft.id,
        draft.article,
        draft.requires,
        draft.reading,
    )
    assert (case.description, case.source, case.position, dict(case.counters)) == (
        draft.description,
        draft.source,
        draft.position,
        dict(draft.counters),
    )
    assert [question.kind for question in case.questions] == list(draft.expect)
