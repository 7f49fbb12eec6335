"""``python -m oracle``: JSON answers, and one-line errors with exit status 2 (issue 2, item 7).

Every command runs in a fresh interpreter, from the repository root, exactly as a user types it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "oracle", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def answer(*args: str) -> Any:
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def csv(squares: list[int]) -> str:
    return ",".join(map(str, squares))


# -- moves -------------------------------------------------------------------------------------


def test_moves_of_a_compulsory_capture() -> None:
    assert answer("moves", "W:W28,32:B23") == {
        "fen": "W:W28,32:B23",
        "turn": "white",
        "count": 1,
        "moves": [{"from": 28, "to": 19, "captured": [23], "pdn": "28x19", "hub": "28x19x23"}],
    }


def test_moves_of_the_start() -> None:
    result = answer("moves", "W:B1-20:W31-50")
    assert result["fen"] == f"W:W{csv(list(range(31, 51)))}:B{csv(list(range(1, 21)))}"
    assert result["count"] == 9
    steps = {(m["from"], m["to"]) for m in result["moves"]}
    assert steps == {(31, 26), (31, 27), (32, 27), (32, 28), (33, 28), (33, 29), (34, 29), (34, 30), (35, 30)}
    assert all(
        m["captured"] == [] and m["pdn"] == m["hub"] == f"{m['from']}-{m['to']}" for m in result["moves"]
    )
    assert "lost" not in result


def test_moves_list_ambiguous_captures_with_full_routes() -> None:
    result = answer("moves", "W:WK47:B14,19,29,31,42")
    assert result["count"] == 2
    assert {(m["pdn"], m["hub"]) for m in result["moves"]} == {
        ("47x38x24x13x36", "47x36x19x29x31x42"),
        ("47x38x20x9x36", "47x36x14x29x31x42"),
    }
    assert sorted(m["captured"] for m in result["moves"]) == [[14, 29, 31, 42], [19, 29, 31, 42]]


def test_moves_of_a_lost_position() -> None:
    result = answer("moves", "B:W46:B")
    assert result["count"] == 0
    assert result["moves"] == []
    assert result["turn"] == "black"
    assert "7.2" in result["lost"]


# -- perft -------------------------------------------------------------------------------------


def test_perft() -> None:
    result = answer("perft", "W:W31-50:B1-20", "3")
    assert result["nodes"] == 658  # rules.md, published
    assert result["depth"] == 3


def test_perft_divide() -> None:
    result = answer("perft", "W:W31-50:B1-20", "2", "--divide")
    assert result["nodes"] == 81
    # No contact after one move each: every White first move has Black's nine answers.
    assert result["divide"] == dict.fromkeys(
        ("31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"), 9
    )


def test_perft_on_worker_processes() -> None:
    serial = answer("perft", "W:W31-50:B1-20", "4", "--divide")
    parallel = answer("perft", "W:W31-50:B1-20", "4", "--divide", "--workers", "2")
    assert parallel == serial
    assert list(parallel["divide"]) == list(serial["divide"])  # the same order
    assert parallel["nodes"] == 4265  # rules.md, published
    assert (
        answer("perft", "W:WK38:B18,19,32,33", "3", "--by-route", "--workers", "3")["nodes"]
        == answer("perft", "W:WK38:B18,19,32,33", "3", "--by-route")["nodes"]
    )


def test_perft_deeper_than_the_recursion_limit() -> None:
    # The one capture wins at once (Art. 7.2): no leaf 2,000 plies down (issue 12: was a
    # 2,482-line RecursionError).
    assert answer("perft", "W:W28:B23", "2000")["nodes"] == 0
    assert answer("perft", "W:W28:B23", "2000", "--divide")["divide"] == {"28x19": 0}


def test_perft_by_route() -> None:
    result = answer("perft", "W:WK38:B18,19,32,33", "1", "--by-route")
    assert result["nodes"] == 6  # pydraughts: 6 routes
    assert answer("perft", "W:WK38:B18,19,32,33", "1")["nodes"] == 5


# -- play --------------------------------------------------------------------------------------


def test_play_moves_in_pdn() -> None:
    result = answer("play", "W:W31-50:B1-20", "32-28", "19-23", "28x19")
    white = [19, 31, *range(33, 51)]
    black = [*range(1, 19), 20]
    assert result["fen"] == f"B:W{csv(white)}:B{csv(black)}"
    assert [(m["from"], m["to"], m["captured"]) for m in result["moves"]] == [
        (32, 28, []),
        (19, 23, []),
        (28, 19, [23]),
    ]
    assert result["moves"][2]["hub"] == "28x19x23"


def test_play_in_hub_notation() -> None:
    result = answer("play", "W:WK47:B14,19,29,31,42", "47x36x42x31x29x14", "--notation", "hub")
    assert result["fen"] == "B:WK36:B19"
    assert result["moves"][0]["pdn"] == "47x38x20x9x36"


def test_play_crowns_a_man() -> None:
    assert answer("play", "W:W8:BK50", "8-3")["fen"] == "B:WK3:BK50"


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        (["moves", "W:W0:B1"], "'0'"),  # bad FEN: square 0
        (["moves", "W:W3:B20"], "promotion row"),
        (["moves", "X:W31:B1"], "'X'"),
        (["moves", ""], "empty"),
        (["perft", "W:W31-50:B1-20", "x"], "'x'"),  # bad depth
        (["perft", "W:W31-50:B1-20", "2.5"], "'2.5'"),
        (["perft", "W:W31-50:B1-20", "-1"], "-1"),
        (["perft", "hello", "2"], "'hello'"),
        (["perft", "W:WK1:BK50", "1000000"], "0 to 10,000"),
        (["perft", "W:W31-50:B1-20", "2", "--workers", "0"], "'0'"),
        (["perft", "W:W31-50:B1-20", "2", "--workers", "two"], "'two'"),
        (["perft", "W:W31-50:B1-20", "2", "--workers", "99999999"], "1 to 1024"),
        (["moves", "W:W" + "1" * 5000 + ":B1"], "5,000 digits"),  # a number too long for int()
        (["play", "W:W31-50:B1-20", "32-" + "2" * 5000], "5,000 digits"),
        (["play", "--notation", "hub", "W:W31-50:B1-20", "32-28", "19-" + "9" * 5000], "outside 1-50"),
        (["play", "W:W31-50:B1-20", "32-27", "19-24", "27-22x"], "'27-22x'"),  # malformed move
        (["play", "W:W31-50:B1-20", "32-23"], "'32-23'"),  # no such move
        (["play", "W:W31-50:B1-20", "32-28", "32-27"], "'32-27'"),  # Black to move, no man on 32
        (["play", "W:W31-50:B1-20", "0-5"], "0"),  # square out of range
        (["play", "W:WK47:B14,19,29,31,42", "47x36"], "47x38x24x13x36"),  # ambiguous: lists them
        (["play", "W:W31-50:B1-20", "32-28", "--notation", "dxp"], "dxp"),
        (["frobnicate", "W:W31-50:B1-20"], "frobnicate"),  # unknown command
        ([], "command"),  # no command
        (["moves"], "fen"),  # missing argument
    ],
)
def test_bad_input_gives_one_line_and_status_2(args: list[str], mentions: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert mentions in lines[0]


def test_help_exits_cleanly() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "moves" in result.stdout
    assert "perft" in result.stdout
    assert "play" in result.stdout


# -- a closed output and signals ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["moves", "W:W31-50:B1-20"],
        ["perft", "W:W31-50:B1-20", "3", "--workers", "2"],
    ],
)
def test_a_closed_output_ends_quietly_with_status_141(args: list[str]) -> None:
    # As `python -m oracle moves FEN | head -0`: the reader is gone before anything is written.
    process = subprocess.Popen(
        [sys.executable, "-m", "oracle", *args],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    process.stdout.close()
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 141, stderr
    assert stderr == ""


def running_in_group(group: int) -> list[str]:
    """The processes of a process group that have not ended (zombies wait for their reaper)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state != "Z":
            found.append(stat.parent.name)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize(("signal_number", "status"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_workers_too(signal_number: int, status: int) -> None:
    # A perft that takes minutes on two workers, stopped as soon as its workers run.
    process = subprocess.Popen(
        [sys.executable, "-m", "oracle", "perft", "W:W31-50:B1-20", "11", "--workers", "2"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        for _ in range(2400):  # the parent, the spawn resource tracker and two workers
            if len(running_in_group(process.pid)) >= 4:
                break
            time.sleep(0.05)
        assert len(running_in_group(process.pid)) >= 4
        os.kill(process.pid, signal_number)  # the parent only: it must stop its workers itself
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == status, stderr
    assert stdout == ""
    assert "Traceback" not in stderr
    for _ in range(1200):  # the resource tracker ends when it sees its parent gone
        if not running_in_group(process.pid):
            break
        time.sleep(0.05)
    assert running_in_group(process.pid) == []
