"""The clock of engine deadlines: monotonic time, less the time in which the harness did not run.

A deadline charges an engine for the time it took to answer. Time in which the harness itself was
not running is nobody's answer time: a campaign whose process group was stopped (SIGSTOP, Ctrl-Z)
for an hour and then continued must not find that the request in flight "timed out", nor must a
paused virtual machine. ``CLOCK_MONOTONIC`` keeps counting through a stop, so :func:`now` subtracts
the stalls a watch thread sees (one per process; a forked child starts its own): it wakes every :data:`TICK` seconds, and a wake more than
:data:`STALL` seconds late means the process was not running for that time (stopped, or a machine
too loaded to schedule it at all: not the engine's doing either). A stall still in progress, seen
from a thread that resumed before the watch did, counts already (:func:`now` looks at how late the
watch is), so a deadline checked first thing after a stop is not missed.

Every deadline of :mod:`conformance.engines.adapters` is taken and checked on this clock.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Final

__all__ = ["STALL", "TICK", "now", "stalled"]

TICK: Final = 0.25
"""How often the watch thread wakes, in seconds."""

STALL: Final = 1.0
"""How late a wake must be, in seconds, to count as time the harness did not run."""


class _Watch:
    """The stalls of this process so far, kept by a daemon thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.beat = time.monotonic()
        self.lost = 0.0
        threading.Thread(target=self._run, name="deadline-clock", daemon=True).start()

    def _run(self) -> None:
        while True:
            time.sleep(TICK)
            with self.lock:
                at = time.monotonic()
                self.lost += _late(at - self.beat)
                self.beat = at

    def stalled(self) -> float:
        with self.lock:
            return self.lost + _late(time.monotonic() - self.beat)


def _late(since_beat: float) -> float:
    """The stall in a gap of ``since_beat`` seconds between two wakes (0 for an ordinary one)."""
    late = since_beat - TICK
    return late if late > STALL else 0.0


_watch: _Watch | None = None
_starting = threading.Lock()


def _forget_in_child() -> None:
    """A forked child has no watch thread, and the parent's locks may have been held at the fork:
    it starts afresh."""
    global _watch, _starting
    _watch = None
    _starting = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)


def stalled() -> float:
    """Seconds in which this process did not run since its clock started (see the module)."""
    global _watch
    if _watch is None:
        with _starting:
            if _watch is None:
                _watch = _Watch()
    return _watch.stalled()


def now() -> float:
    """The time of deadlines: ``time.monotonic()`` less :func:`stalled`."""
    return time.monotonic() - stalled()
