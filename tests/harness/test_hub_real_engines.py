"""Real Hub peers: ``dame hub`` (dame-rs) certified through the Hub adapter, and pydraughts'
HubEngine (a real Hub client) driving our oracle Hub server.

Where they are: ``$DRAUGHTS_DAME_HUB`` (the ``dame`` executable, or a full Hub command line),
else ``.engines/dame-rs/bin/dame`` in the repository; ``$DRAUGHTS_PYDRAUGHTS_PYTHON`` (a Python
with pydraughts installed), else ``.engines/pydraughts/bin/python``. Absent: the tests skip.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from support import legal_moves_cases, pydraughts_python

from conformance.core.results import Result, Status
from conformance.engines.adapters.hub import HubEngine
from conformance.harness.runner import RunOptions, run

REPO = Path(__file__).resolve().parents[2]
ORACLE_HUB = [sys.executable, "-m", "conformance.servers.oracle_hub"]


def dame_hub_command() -> list[str] | None:
    configured = os.environ.get("DRAUGHTS_DAME_HUB", "").strip()
    if configured:
        if Path(configured).is_file():
            return [configured, "hub"]
        return shlex.split(configured)
    default = REPO / ".engines" / "dame-rs" / "bin" / "dame"
    return [str(default), "hub"] if default.is_file() else None


DAME = dame_hub_command()
PYDRAUGHTS = pydraughts_python()
needs_dame = pytest.mark.skipif(
    DAME is None,
    reason="dame-rs not found: set DRAUGHTS_DAME_HUB or install .engines/dame-rs (pip install dame-rs)",
)
needs_pydraughts = pytest.mark.skipif(
    PYDRAUGHTS is None,
    reason="pydraughts not found: set DRAUGHTS_PYDRAUGHTS_PYTHON or install .engines/pydraughts (pip install pydraughts)",
)


@needs_dame
def test_dame_hub_passes_every_legal_moves_case_at_the_move_choice_level() -> None:
    assert DAME is not None
    cases = legal_moves_cases()
    results: list[Result] = []
    engine = HubEngine(DAME, params={"hash": "1"})
    assert engine.info.name == "dame"
    assert engine.info.level == "move-choice"
    run(cases, lambda: engine, RunOptions(exclude_tags=()), results.append, engine=engine)
    chosen = [r for r in results if r.question == "legal_moves"]
    assert len(chosen) == len(cases)
    not_passed = [f"{r.case}: {r.status.value} {r.message}" for r in chosen if r.status is not Status.PASS]
    assert not_passed == []
    assert engine.restarts == 0


@needs_dame
def test_dame_hub_at_a_deeper_level_still_plays_legal_moves() -> None:
    assert DAME is not None
    cases = legal_moves_cases()
    results: list[Result] = []
    run(cases, lambda: HubEngine(DAME, level="depth=4"), RunOptions(exclude_tags=()), results.append)
    counts = Counter(r.status for r in results if r.question == "legal_moves")
    assert counts == Counter({Status.PASS: len(cases)})


# pydraughts' HubEngine plays a game against itself through our server: it sends the start position
# and the moves so far (``pos pos=... moves="..."``) and reads each ``done move=`` back with its own
# rules (an unknown move raises), so each reply is checked by an independent implementation.
CLIENT = """
import json, sys
import draughts
from draughts.engine import HubEngine, Limit

command, cwd, fens, plies = json.loads(sys.argv[1])
engine = HubEngine(command, cwd=cwd)
engine.init()
games = []
for fen in fens:
    board = draughts.Board("standard", fen)
    played = []
    for _ in range(plies):
        if board.is_over():
            break
        move = engine.play(board, Limit(depth=1), ponder=False).move
        legal = [m.hub_move for m in board.legal_moves()]
        played.append([move.hub_move, move.hub_move in legal])
        board.push(move)
    games.append(played)
engine.quit()
engine.kill_process()
print(json.dumps({"id": engine.id, "games": games}))
"""


@needs_pydraughts
def test_pydraughts_hub_client_plays_games_against_the_oracle_hub_server(tmp_path: Path) -> None:
    assert PYDRAUGHTS is not None
    script = tmp_path / "client.py"
    script.write_text(CLIENT, encoding="utf-8")
    fens = ["W:W31-50:B1-20", "W:WK47:B14,19,29,31,42", "B:W27,28,32,33,37,38:BK3,12,13"]
    payload = json.dumps([ORACLE_HUB, str(REPO), fens, 12])
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [PYDRAUGHTS, str(script), payload], capture_output=True, text=True, env=env, timeout=60, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["id"]["name"] == "oracle"
    games = answer["games"]
    assert len(games) == len(fens)
    assert len(games[0]) == 12  # no game ends within 12 plies of the start
    for game in games:
        assert game, "the client got no move"
        assert all(legal for _, legal in game), game
