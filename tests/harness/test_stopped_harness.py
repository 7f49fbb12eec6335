"""Time in which the harness did not run is not the engine's: a campaign stopped (SIGSTOP, Ctrl-Z)
and continued must not charge the request in flight as a timeout (the 4-piece campaign of issue 22
lost a shard that way), while an engine that really takes too long still times out."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from support import REPO

from conformance.core.protocol import EngineError
from conformance.engines.adapters import clock
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.process import EngineProcess, ProcessTimeout

SLOW = REPO / "tests" / "harness" / "fakes" / "slow.py"
START = "W:W31-50:B1-20"

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="POSIX job control")


def _stop_later(pids: list[int], after: float, seconds: float) -> subprocess.Popen[bytes]:
    """A process that stops ``pids`` ``after`` seconds from now and continues them ``seconds`` later
    (returned once it has started)."""
    script = (
        "import os, signal, sys, time\n"
        "pids = [int(p) for p in sys.argv[3:]]\n"
        "print('ready', flush=True)\n"
        "time.sleep(float(sys.argv[1]))\n"
        "[os.kill(p, signal.SIGSTOP) for p in pids]\n"
        "time.sleep(float(sys.argv[2]))\n"
        "[os.kill(p, signal.SIGCONT) for p in pids]\n"
    )
    stopper = subprocess.Popen(
        [sys.executable, "-c", script, str(after), str(seconds), *map(str, pids)], stdout=subprocess.PIPE
    )
    assert stopper.stdout is not None
    assert stopper.stdout.readline() == b"ready\n"
    return stopper


def _slow_engine(delay: float, timeout: float) -> JsonlEngine:
    command = [sys.executable, str(SLOW), "--delay", str(delay), "--steps", "40"]
    return JsonlEngine(command, timeout=timeout, env={"PYTHONPATH": str(REPO)})


def test_the_clock_of_deadlines_does_not_count_a_stop() -> None:
    clock.now()  # the watch is running
    time.sleep(2 * clock.TICK)
    stopper = _stop_later([os.getpid()], 0.2, 2.5)
    began, began_wall = clock.now(), time.monotonic()
    time.sleep(0.5)  # stopped within this
    assert stopper.wait(10) == 0
    time.sleep(2 * clock.TICK)  # the watch has woken since
    assert time.monotonic() - began_wall >= 2.5
    assert clock.now() - began < 1.5


def test_a_request_in_flight_through_a_stop_of_harness_and_engine_is_answered() -> None:
    """Both stopped for 4 s (a suspended job, a paused machine) while the engine thinks (2 s of its
    own time, of a 3 s timeout): the answer counts. Before the clock of deadlines: a timeout, the
    engine killed."""
    engine = _slow_engine(delay=2.0, timeout=3.0)
    try:
        assert engine.fen(START).valid  # started, and timed once
        process = engine._process
        assert process is not None
        stopper = _stop_later([os.getpid(), process.pid], 0.5, 4.0)
        began = time.monotonic()
        answer = engine.fen(START)
        assert time.monotonic() - began >= 4.0  # the stop was within the request
        assert stopper.wait(10) == 0
        assert answer.valid
        assert engine._process is process  # not restarted
    finally:
        engine.close()


def test_an_engine_that_takes_too_long_still_times_out() -> None:
    engine = _slow_engine(delay=3.0, timeout=1.0)
    try:
        with pytest.raises(EngineError, match=r"no answer to .* within 1 s"):
            engine.fen(START)
    finally:
        engine.close()


def test_an_answer_already_in_the_pipe_at_the_deadline_is_read() -> None:
    """The harness was late to look (busy, or stopped alone): what the engine wrote before is its
    answer, not a timeout."""
    process = EngineProcess(
        [sys.executable, "-c", "print('answer', flush=True); import time; time.sleep(30)"]
    )
    try:
        time.sleep(1.0)  # written by now, not read
        assert process.read_line(clock.now() - 5) == b"answer"
        with pytest.raises(ProcessTimeout):
            process.read_line(clock.now() + 0.2)
    finally:
        process.kill_group()


def test_a_forked_child_keeps_its_own_clock() -> None:
    """A worker forked while the parent's watch held its lock starts a watch of its own."""
    clock.now()
    with clock._starting:  # held by the parent at the fork
        pid = os.fork()
        if pid == 0:  # the child: its clock runs, with a watch thread of its own
            began = clock.now()
            time.sleep(0.6)
            ticking = 0.5 < clock.now() - began < 1.0
            os._exit(0 if ticking and "deadline-clock" in [t.name for t in threading.enumerate()] else 1)
    deadline = time.monotonic() + 10
    while (ended := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if ended[0] == 0:  # stuck on the parent's lock
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert ended[0] == pid, "the forked child's clock hung"
    assert os.waitstatus_to_exitcode(ended[1]) == 0
