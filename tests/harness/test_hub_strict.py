"""A strict Hub engine: correct, but refusing every position where a side has no pieces, as Scan
does (``error message="bad position"`` to ``pos``), or exiting on one.

Over every legal-moves question of the default corpus it gets no error and no fail: its moves are
legal, and the positions it refuses are skips. An engine that exits on such a position is started
again without spending its restart budget (here none at all).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import REPO, assert_only_lone_side_skips, certify, default_cases

from conformance.core.results import Status
from conformance.engines.adapters.hub import HubEngine
from conformance.harness.evaluate import has_both_colours

FAKES = Path(__file__).parent / "fakes"


@pytest.mark.parametrize(("options", "said"), [([], 'error message="bad position"'), (["--exit"], "exited")])
def test_a_strict_hub_engine_passes_every_legal_moves_question_with_skips_only_where_a_side_has_no_pieces(
    options: list[str], said: str
) -> None:
    cases = [case for case in default_cases() if any(q.kind == "legal_moves" for q in case.questions)]
    engines: list[HubEngine] = []

    def start() -> HubEngine:
        command = [sys.executable, str(FAKES / "strict_hub.py"), *options]
        engines.append(HubEngine(command, cwd=REPO, restart_budget=0))
        return engines[-1]

    results = certify(start, cases)
    asked = [r for r in results if r.question == "legal_moves"]
    assert len(asked) == len(cases)
    assert {r.status for r in results if r.question != "legal_moves"} <= {Status.UNSUPPORTED}
    skips = assert_only_lone_side_skips(asked)
    assert {r.case for r in skips} == {case.id for case in cases if not has_both_colours(case.position)}
    assert all(said in r.message for r in skips)
    assert all(engine.restarts == 0 for engine in engines)
