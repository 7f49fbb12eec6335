"""A strict DXP follower: correct, but refusing every game whose position has a side without
pieces (``GAMEACC`` code 2), or aborting on one, as Scan does.

Over every legal-moves question of the default corpus it gets no error and no fail: its moves are
legal, and the positions it refuses are skips. A follower that aborts on such a position is
started again without spending its restart budget (here none at all).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import assert_only_lone_side_skips, certify, default_cases

from conformance.core.results import Status
from conformance.engines.adapters.dxp import DxpEngine
from conformance.engines.adapters.dxp_session import free_port
from conformance.harness.evaluate import has_both_colours

FAKES = Path(__file__).parent / "fakes"


@pytest.mark.parametrize(
    ("options", "said"), [([], "GAMEACC code 2"), (["--abort"], "closed the connection")]
)
def test_a_strict_dxp_follower_passes_every_legal_moves_question_with_skips_only_where_a_side_has_no_pieces(
    options: list[str], said: str
) -> None:
    cases = [case for case in default_cases() if any(q.kind == "legal_moves" for q in case.questions)]
    engines: list[DxpEngine] = []

    def start() -> DxpEngine:
        command = [sys.executable, str(FAKES / "strict_dxp.py"), *options]
        engines.append(DxpEngine(command=command, restart_budget=0))
        return engines[-1]

    results = certify(start, cases)
    asked = [r for r in results if r.question == "legal_moves"]
    assert len(asked) == len(cases)
    assert {r.status for r in results if r.question != "legal_moves"} <= {Status.UNSUPPORTED}
    skips = assert_only_lone_side_skips(asked)
    assert {r.case for r in skips} == {case.id for case in cases if not has_both_colours(case.position)}
    assert all(said in r.message for r in skips)
    assert all(engine.restarts == 0 for engine in engines)


@pytest.mark.parametrize("options", [[], ["--exit"]])
def test_a_follower_ending_every_session_after_one_game_is_no_crash(options: list[str]) -> None:
    """GAMEEND with stop code 1 after every game (issue 12): a new session for the next position,
    no restart spent, every legal-moves question answered."""
    cases = [case for case in default_cases() if any(q.kind == "legal_moves" for q in case.questions)][:6]
    cases += [case for case in default_cases() if case.id.startswith("7.2.2-white-to-move-without-pieces")]
    with DxpEngine(
        command=[sys.executable, str(FAKES / "dxp_stop.py"), *options], restart_budget=0
    ) as engine:
        results = certify(lambda: engine, cases)
        asked = [r for r in results if r.question == "legal_moves"]
        assert len(asked) == len(cases)
        assert [r for r in asked if r.status is not Status.PASS] == []
        assert engine.restarts == 0


def test_a_follower_at_an_address_ending_every_session_is_reconnected_without_spending_restarts() -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, str(FAKES / "dxp_stop.py")],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "DXP_PORT": str(port)},
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline().startswith("listening on ")
        cases = [case for case in default_cases() if any(q.kind == "legal_moves" for q in case.questions)][:5]
        with DxpEngine(("127.0.0.1", port), restart_budget=0) as engine:
            asked = [r for r in certify(lambda: engine, cases) if r.question == "legal_moves"]
            assert [r.status for r in asked] == [Status.PASS] * len(cases)
            assert engine.restarts == 0
    finally:
        server.kill()
        server.wait()
