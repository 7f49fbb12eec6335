"""A real DXP peer: pydraughts' DXPEngine (an initiator) plays games against our oracle follower.

None of the registry engines is a DXP *follower*, so the DXP adapter itself has no real peer here;
what a real initiator can show is that our reference follower speaks DXP as others read it.
pydraughts checks every ``MOVE`` it receives against its own legal moves (an unknown move is
dropped and it waits forever: the subprocess timeout catches that).

Where it is: ``$DRAUGHTS_PYDRAUGHTS_PYTHON`` (a Python with pydraughts installed), else
``.engines/pydraughts/bin/python`` in the repository; absent, the test skips.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from support import pydraughts_python

PYDRAUGHTS = pydraughts_python()

# One game per position: pydraughts moves first (its first legal move), then asks the follower
# (DXPEngine.play sends GAMEREQ with the initial position on its first call, then each MOVE).
# It never calls quit(): that sleeps 7 s closing the socket; os._exit ends its busy threads.
INITIATOR = """
import json, os, sys
import draughts
from draughts.engine import DXPEngine

port, fens, plies = json.loads(sys.argv[1])
games = []
for fen in fens:
    engine = DXPEngine(options={"engine-opened": True, "ip": "127.0.0.1", "port": str(port)})
    board = draughts.Board("standard", fen)
    played = []
    for _ in range(plies):
        if board.is_over():
            break
        board.push(board.legal_moves()[0])
        if board.is_over():
            break
        move = engine.play(board).move
        played.append([move.hub_move, move.hub_move in [m.hub_move for m in board.legal_moves()]])
        board.push(move)
    games.append({"follower": engine.id.get("name"), "moves": played})
print(json.dumps(games), flush=True)
os._exit(0)
"""


@pytest.mark.skipif(
    PYDRAUGHTS is None,
    reason="pydraughts not found: set DRAUGHTS_PYDRAUGHTS_PYTHON or install .engines/pydraughts (pip install pydraughts)",
)
def test_pydraughts_dxp_initiator_plays_games_against_the_oracle_follower(
    oracle_dxp_server: str, tmp_path: Path
) -> None:
    assert PYDRAUGHTS is not None
    port = int(oracle_dxp_server.rsplit(":", 1)[1])
    script = tmp_path / "initiator.py"
    script.write_text(INITIATOR, encoding="utf-8")
    # the start, and a few men in the middle (captures come up within a few moves)
    fens = ["W:W31-50:B1-20", "W:W32,33,34,38:B17,18,19,22"]
    done = subprocess.run(
        [PYDRAUGHTS, str(script), json.dumps([port, fens, 6])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    games = json.loads(done.stdout.splitlines()[-1])
    assert len(games) == len(fens)
    for game in games:
        assert game["follower"] == "oracle (draughts-conformance)"
        assert game["moves"], game
        assert all(legal for _, legal in game["moves"]), game
    assert len(games[0]["moves"]) == 6  # no game ends within 12 plies of the start
