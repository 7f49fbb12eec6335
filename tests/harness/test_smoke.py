"""``draughts-conformance smoke`` (issue 13): every misbehaviour of the fake engines gets its own
plain-words diagnosis; correct engines pass every check; the command's exit status and --trace."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import REPO

from conformance.cli.smoke import CAPTURE, Check, smoke
from conformance.engines.adapters.hub import hub_position
from oracle.position import Position

FAKES = Path(__file__).parent / "fakes"
PY = sys.executable
CAPTURE_HUB = hub_position(Position.from_fen(CAPTURE))
SILENT = f"{PY} -c 'import time; time.sleep(30)'"

# (engine spec, the check that finds the problem, a fragment of its hint)
MISBEHAVIOURS = [
    (f"jsonl:{PY} {FAKES}/crash.py", "legal_moves", "exited while working on the request"),
    (f"jsonl:{PY} {FAKES}/crash.py --op fen --signal", "fen", "killed by a signal while working"),
    (f"jsonl:{PY} {FAKES}/deaf.py", "play", "did not even read the request"),
    (f"jsonl:{PY} {FAKES}/hang.py", "legal_moves", "read the request but no answer came"),
    (f"jsonl:{PY} {FAKES}/garbage.py", "fen", "which is not JSON"),
    (f"jsonl:{PY} {FAKES}/garbage.py --at-start", "start", "printed text instead of its 'started' line"),
    (f"jsonl:{PY} {FAKES}/exit_at_start.py", "start", "cannot open the opening book"),
    (f"jsonl:{PY} {FAKES}/no_flush.py", "start", "does not flush stdout after each line"),
    (f"jsonl:{PY} {FAKES}/slow.py --delay 0", "move_count", "answered with an error on a simple position"),
    (f"jsonl:{PY} {FAKES}/wrong_captures.py", "legal_moves", "not those it lands on"),
    (f"jsonl:{PY} {FAKES}/recorder.py --log /dev/null", "fen", "always declined certifies nothing"),
    (f"jsonl:{PY} {FAKES}/protocol.py --violation wrong-seq", "fen", "copy the 'seq' of each request"),
    (
        f"jsonl:{PY} {FAKES}/protocol.py --violation missing-start",
        "start",
        "answered a request but not 'start'",
    ),
    (f"jsonl:{PY} {FAKES}/protocol.py --violation wrong-version", "start", "another protocol version"),
    (f"jsonl:{PY} {FAKES}/protocol.py --violation extra-line", "legal_moves", "nobody asked for"),
    (f"jsonl:{PY} {FAKES}/protocol.py --violation log-line", "fen", "on stdout before its answer"),
    (
        f"jsonl:{PY} {FAKES}/protocol.py --violation bad-schema",
        "legal_moves",
        "'captures' (did you mean 'captured'?)",
    ),
    (
        f"jsonl:{PY} {FAKES}/protocol.py --violation started-schema",
        "start",
        "'best_move', which is not a capability",
    ),
    (
        f"jsonl:{PY} {FAKES}/protocol.py --violation banner",
        "start",
        "a banner (or a log line) on stdout before",
    ),
    (
        f"jsonl:{PY} {FAKES}/protocol.py --violation deep-start",
        "start",
        "first line is JSON nested thousands deep",
    ),
    (f"jsonl:{PY} {FAKES}/protocol.py --violation deep-answer", "fen", "answers are small, flat objects"),
    (
        f"""jsonl:{PY} {FAKES}/scripted.py --reply 'legal_moves={{"moves": ["28x39"]}}'""",
        "legal_moves",
        "not the text '28x39'",
    ),
    (f"jsonl:{PY} {FAKES}/no_such_engine.py", "start", "ended before it finished its start"),
    (f"hub:{PY} {FAKES}/hub_crash.py", "choose_move", "exited during the search"),
    (f"hub:{PY} {FAKES}/hub_error.py", "choose_move", "with 'error' to 'pos'"),
    (
        f"hub:{PY} {FAKES}/hub_garbage.py",
        "choose_move",
        "not Hub (<command> <name>=<value> ...) during its search",
    ),
    (f"hub:{PY} {FAKES}/hub_garbage.py --kind move", "choose_move", "Hub writes a move as"),
    (f"hub:{PY} {FAKES}/hub_garbage.py --at-start", "start", "not a Hub line at the start"),
    (f"hub:{PY} {FAKES}/hub_hang.py", "choose_move", "No 'done' came after 'go think'"),
    (f"hub:{PY} {FAKES}/hub_hang.py --at hub", "start", "never answered 'hub' with 'wait'"),
    (f"hub:{PY} {FAKES}/hub_hang.py --at ping", "choose_move", "answer 'ping' with 'pong'"),
    (f"hub:{PY} {FAKES}/hub_illegal.py", "choose_move", "in its 'done move=', a move that is not legal"),
    (f"hub:{PY} {FAKES}/hub_folder.py", "start", "cannot find hub.ini"),
    (f"dxp:{PY} {FAKES}/dxp_crash.py", "choose_move", "in the middle of a game"),
    (f"dxp:{PY} {FAKES}/dxp_garbage.py", "choose_move", "a type DXP does not have"),
    (f"dxp:{PY} {FAKES}/dxp_garbage.py --kind move", "choose_move", "A DXP MOVE is 'M'"),
    (f"dxp:{PY} {FAKES}/dxp_garbage.py --kind flood", "choose_move", "ends with one NUL byte"),
    (f"dxp:{PY} {FAKES}/dxp_hang.py", "choose_move", "sent no move in time"),
    (f"dxp:{PY} {FAKES}/dxp_illegal.py", "choose_move", "in its MOVE, a move that is not legal"),
    (f"dxp:{PY} {FAKES}/dxp_refuse.py", "choose_move", "with GAMEACC code 2"),
    (f"dxp:{PY} {FAKES}/dxp_refuse.py --code 1", "choose_move", "GAMEACC code 1 or 3"),
    (f"dxp:{PY} {FAKES}/dxp_refuse.py --all", "start", "refused the first game"),
    (f"dxp:{SILENT}", "start", "Nothing listened on the port"),
]


@functools.cache
def smoked(spec: str) -> tuple[Check, ...]:
    """The checks of ``spec`` (each engine is smoke-tested once for all the tests below)."""
    return tuple(smoke(spec, timeout=1.0, start_timeout=2.0))


def run_smoke(spec: str) -> list[Check]:
    return list(smoked(spec))


def first_problem(checks: list[Check]) -> Check:
    """The first problem found, else the first note (a declined question)."""
    problems = [check for check in checks if check.state == "problem"]
    problems += [check for check in checks if check.state == "note"]
    assert problems, checks
    return problems[0]


@pytest.fixture(autouse=True, scope="module")
def _oracle_importable() -> Iterator[None]:
    """The strict fakes and the servers import the oracle: the engines see the repository."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", str(REPO))
        yield


@pytest.mark.parametrize(
    ("spec", "check", "hint"), MISBEHAVIOURS, ids=[spec.split("/")[-1] for spec, _, _ in MISBEHAVIOURS]
)
def test_each_misbehaviour_gets_its_diagnosis(spec: str, check: str, hint: str) -> None:
    checks = run_smoke(spec)
    found = [c for c in checks if c.name == check and c.state != "ok"]
    assert found, checks
    assert found[0].hint is not None
    assert hint in found[0].hint, found[0]


def test_the_diagnoses_of_the_misbehaviours_are_all_different() -> None:
    said: dict[str, str] = {}
    hints: dict[str, str] = {}
    for spec in dict.fromkeys(spec for spec, _, _ in MISBEHAVIOURS):
        problem = first_problem(run_smoke(spec))
        text = f"{problem.summary} -> {problem.hint}"
        text = text.replace(str(FAKES), "FAKES")
        assert text not in said, f"{spec} is told what {said.get(text)} is told"
        said[text] = spec
        hints.setdefault(problem.hint or "", spec)
    assert len(hints) >= len(said) * 3 // 4, "the hints themselves mostly differ too"


@pytest.mark.parametrize(
    "spec",
    [
        "oracle",
        f"jsonl:{PY} -m conformance.servers.oracle_jsonl",
        f"jsonl:{PY} {FAKES}/strict_jsonl.py",
        f"hub:{PY} -m conformance.servers.oracle_hub",
        f"hub:{PY} {FAKES}/strict_hub.py",
        f"hub:{PY} {FAKES}/hub_illegal.py --answer {CAPTURE_HUB}=28x39x33",
        f"dxp:{PY} -m conformance.servers.oracle_dxp --port {{port}} --single",
        f"dxp:{PY} {FAKES}/dxp_stop.py",
    ],
)
def test_a_correct_engine_passes_every_check(spec: str) -> None:
    checks = run_smoke(spec)
    assert [check for check in checks if check.state != "ok"] == []
    assert {check.name for check in checks} >= {"start", "capabilities"}
    assert len(checks) >= 3


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def test_the_command_exits_0_for_a_correct_engine_and_keeps_the_exchange(tmp_path: Path) -> None:
    trace = tmp_path / "exchange.txt"
    done = cli(
        "smoke", f"jsonl:{PY} -m conformance.servers.oracle_jsonl", "--trace", str(trace), cwd=tmp_path
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 problems" in done.stdout
    lines = trace.read_text(encoding="utf-8").splitlines()
    requests = [
        json.loads(line.split(" > ", 1)[1]) for line in lines if " > " in line and '"request"' in line
    ]
    assert {request["op"] for request in requests} >= {"fen", "legal_moves", "perft", "outcome"}


def test_the_command_exits_1_with_the_hint_for_a_misbehaving_engine(tmp_path: Path) -> None:
    done = cli("smoke", f"jsonl:{PY} {FAKES}/no_flush.py", "--start-timeout", "1", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "does it flush stdout after each line?" in done.stdout
    assert "print(..., flush=True)" in done.stdout


def test_the_command_refuses_bad_options_with_exit_2(tmp_path: Path) -> None:
    done = cli("smoke", "oracle", "--hub-param", "hash=1", cwd=tmp_path)
    assert done.returncode == 2
    assert "applies to hub: engines only" in done.stderr
    assert "Traceback" not in done.stderr


def test_run_says_what_a_silent_engine_may_have_forgotten() -> None:
    from conformance.core.protocol import EngineError
    from conformance.engines.adapters.jsonl import JsonlEngine

    with pytest.raises(EngineError) as raised:
        JsonlEngine([PY, str(FAKES / "no_flush.py")], start_timeout=1)
    assert raised.value.kind == "start"
    assert "the engine printed nothing in 1 s: does it flush stdout after each line?" in raised.value.message
    with pytest.raises(EngineError) as raised:
        JsonlEngine([PY, str(FAKES / "protocol.py"), "--violation", "banner"])
    assert "printed 'MyEngine 1.0, (c) A. Author' before its 'started' line" in raised.value.message


def test_a_missed_backward_capture_is_told_under_art_4_1_and_a_capture_not_made_under_4_2() -> None:
    """Smoke's capture probe is a man capturing backward (28x39): an engine that misses it is pointed
    to Art. 4.1 (men capture backward), one that lists it among steps to Art. 4.2 (capture is
    compulsory), neither to Art. 4 as a whole."""
    (check,) = [c for c in run_smoke("mutant:men-capture-forward-only") if c.name == "legal_moves"]
    assert check.state == "problem"
    assert check.hint is not None
    assert "28x39" in check.hint
    assert "(Art. 4.1)" in check.hint
    (check,) = [c for c in run_smoke("mutant:captures-not-compulsory") if c.name == "legal_moves"]
    assert check.hint is not None
    assert "28x39" not in check.hint
    assert "a capture is compulsory (Art. 4.2)" in check.hint
