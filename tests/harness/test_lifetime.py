"""No engine process outlives the harness (issue 12, point 2): the real command line, in a
subprocess, with an engine that ignores SIGTERM, stops reading its stdin and has a child in its
process group (``fakes/stubborn.py``). After Ctrl-C with two workers, SIGTERM, Ctrl-C during the
start exchange, or --max-fail reached while another worker waits on a hung engine, no process of
any engine's group is left (``/proc``), the run stops at once with the right exit status, and
the report says it is partial. A process that leaves its group (``setsid``) escapes: a documented
limit, not tested. A start line nested 100,000 deep is a one-line error, not a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import REPO

FAKES = Path(__file__).parent / "fakes"
WAIT_SECONDS = 60.0
"""Bounds every wait of these tests: an engine timeout longer than this shows a harness that waits."""
STOP_SECONDS = 20.0
"""A run stopped early ends well within this (a few seconds), even on a loaded machine."""


def only(kind: str) -> list[str]:
    """The ids of the default run's cases that ask one kind of question only, in corpus order."""
    from conformance.core.corpus import load_corpus

    cases = load_corpus().select(exclude_tags=("slow",))
    return [case.id for case in cases if {question.kind for question in case.questions} == {kind}]


def failing_then_hanging() -> list[str]:
    """``--case`` options: a fen case, then two legal-moves cases after it in corpus order."""
    from conformance.core.corpus import load_corpus

    order = [case.id for case in load_corpus().select(exclude_tags=("slow",))]
    fen = only("fen")[0]
    later = [case for case in only("legal_moves") if order.index(case) > order.index(fen)][:2]
    assert len(later) == 2
    return [option for case in (fen, *later) for option in ("--case", case)]


def harness(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "conformance", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def stubborn(pids: Path, *options: str) -> str:
    return f"jsonl:{sys.executable} {FAKES / 'stubborn.py'} --pids {pids} --child {' '.join(options)}"


def notes(pids: Path) -> list[list[str]]:
    if not pids.exists():
        return []
    return [line.split() for line in pids.read_text(encoding="ascii").splitlines() if line.strip()]


def wait_until_waiting(pids: Path, engines: int) -> set[int]:
    """The process groups of the stubborn engines, once ``engines`` of them wait forever."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        lines = notes(pids)
        if sum(line[0] == "waiting" for line in lines) >= engines:
            return {int(line[1]) for line in lines if line[0] != "waiting"}
        time.sleep(0.05)
    raise AssertionError(f"the engines did not start: {notes(pids)}")


def left_in(groups: set[int]) -> list[str]:
    """Every live (not zombie) process whose process group is one of ``groups``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[2]) in groups:
            found.append(f"{entry.name} ({stat.split(' ', 1)[1].rsplit(')', 1)[0]})")
    return found


def assert_all_gone(groups: set[int]) -> None:
    assert groups
    deadline = time.monotonic() + 5  # the kernel may take a moment to tear a killed process down
    while left_in(groups) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left_in(groups) == [], "engine processes survived the harness"
    for pgid in groups:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            continue
        except PermissionError:  # pragma: no cover - not ours
            continue
        assert left_in({pgid}) == []  # only zombies waiting to be reaped by init


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        stdout, stderr = process.communicate(timeout=WAIT_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()  # a harness that hangs fails the test; its engines go with the fixture below
        process.communicate()
        raise
    return process.returncode, stdout, stderr


@pytest.fixture(autouse=True)
def no_leftovers(tmp_path: Path) -> Iterator[None]:
    """Whatever a failing test leaves behind is killed (the engines note their groups in ``pids``)."""
    yield
    for line in notes(tmp_path / "pids"):
        if line[0] != "waiting":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(int(line[1]), signal.SIGKILL)


def partial_report(path: Path) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header"
    assert lines[-1]["type"] == "footer"
    assert lines[-1].get("interrupted") is True or lines[-1].get("partial") is True, lines[-1]
    return lines


@pytest.mark.parametrize(
    ("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_a_signal_during_a_parallel_run_kills_every_engine_and_leaves_a_partial_report(
    tmp_path: Path, signum: int, status: int
) -> None:
    pids = tmp_path / "pids"
    report = tmp_path / "run.jsonl"
    process = harness(
        "run", stubborn(pids), "--workers", "2", "--timeout", "300",
        "--report", str(report), "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    groups = wait_until_waiting(pids, 2)
    process.send_signal(signum)
    code, _, stderr = finish(process)
    assert code == status, stderr
    assert "Traceback" not in stderr
    assert "interrupted; the report is partial" in stderr
    partial_report(report)
    assert_all_gone(groups)


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_during_the_start_exchange_kills_the_engine(
    tmp_path: Path, signum: int, status: int
) -> None:
    pids = tmp_path / "pids"
    process = harness("run", stubborn(pids, "--at", "start"), cwd=tmp_path)
    groups = wait_until_waiting(pids, 1)
    process.send_signal(signum)
    code, _, stderr = finish(process)
    assert code == status, stderr
    assert "Traceback" not in stderr
    assert_all_gone(groups)


def test_max_fail_stops_at_once_killing_the_engine_another_worker_waits_on(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    report = tmp_path / "run.jsonl"
    started = time.monotonic()
    process = harness(
        "run", stubborn(pids, "--error-delay", "3"),
        *failing_then_hanging(),
        "--workers", "2", "--max-fail", "1", "--timeout", "300", "--report", str(report), cwd=tmp_path,
    )  # fmt: skip
    code, _, stderr = finish(process)  # an engine timeout of 300 s: waiting for it would fail here
    assert code == 1, stderr  # an error, and the run stopped early
    assert time.monotonic() - started < STOP_SECONDS  # not a fixed join of 30 s, nor the engine's timeout
    lines = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert lines[-1]["stopped_early"] is True
    assert [line["status"] for line in lines[1:-1]] == ["error"]
    assert "waiting" in {line[0] for line in notes(pids)}, "a worker was waiting on the hung engine"
    assert_all_gone({int(line[1]) for line in notes(pids) if line[0] != "waiting"})


def test_a_start_line_nested_100000_deep_is_a_one_line_start_error(tmp_path: Path) -> None:
    engine = f"jsonl:{sys.executable} {FAKES / 'protocol.py'} --violation deep-start"
    code, _, stderr = finish(harness("run", engine, cwd=tmp_path))
    assert code == 2, stderr
    assert "Traceback" not in stderr
    assert "RecursionError" not in stderr
    assert "nested too deeply" in stderr.splitlines()[0]


def test_an_answer_nested_100000_deep_is_a_protocol_error_of_that_question(tmp_path: Path) -> None:
    from conformance.engines.adapters.jsonl import JsonlEngine

    with JsonlEngine([sys.executable, str(FAKES / "protocol.py"), "--violation", "deep-answer"]) as engine:
        with pytest.raises(Exception, match="nested too deeply") as raised:
            engine.fen("W:W31-50:B1-20")
        assert getattr(raised.value, "kind", None) == "protocol"
