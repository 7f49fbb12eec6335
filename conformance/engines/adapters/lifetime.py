"""No engine process outlives the harness: one registry of the engine process groups it started.

Every engine the harness starts runs in a process group of its own (:mod:`conformance.engines.adapters.process`)
and is registered here until its group has been killed and the engine reaped. :func:`kill_all`
sends SIGKILL to every registered group; it runs when the interpreter exits (always) and, once the
command line has called :func:`install`, on SIGTERM and SIGHUP too, which then stop the run the way
the user's Ctrl-C does (a partial report, exit status 128 + the signal's number). The command line
also sweeps, at exit and on those signals, every child of the harness that leads a process group
of its own: an engine whose start was interrupted before it could be registered is one.

Limits (POSIX): a process that leaves its group (``setsid``) escapes the group kill; nothing runs
when the harness itself is killed with SIGKILL.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import threading
from pathlib import Path
from types import FrameType

from conformance.core import interrupts

_lock = threading.RLock()  # re-entrant: a signal handler may run while its own thread holds it
_groups: set[int] = set()
_closed = False
"""Set by the last :func:`kill_all` at exit: no engine may start after it."""
_sweep = False
"""Whether :func:`kill_all` also kills the children of the harness that lead a group of their own."""


def register(pgid: int) -> bool:
    """Record a new engine process group; ``False`` when the harness is exiting (kill it at once)."""
    with _lock:
        if _closed:
            return False
        _groups.add(pgid)
        return True


def unregister(pgid: int) -> None:
    """The group was killed and its leader reaped."""
    with _lock:
        _groups.discard(pgid)


def live_groups() -> frozenset[int]:
    """The engine process groups started and not yet killed and reaped."""
    with _lock:
        return frozenset(_groups)


def kill_all() -> None:
    """SIGKILL every engine process group the harness started and has not yet killed."""
    with _lock:
        groups = set(_groups)
    if _sweep:
        groups |= _own_group_leaders()
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def _at_exit() -> None:
    global _closed
    with _lock:
        _closed = True
    kill_all()


def _own_group_leaders() -> set[int]:
    """The children of this process that lead a process group of their own (from ``/proc``)."""
    found: set[int] = set()
    me = os.getpid()
    with contextlib.suppress(OSError):
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[-1].split()
            if len(fields) > 2 and fields[1] == str(me) and fields[2] == entry.name:
                found.add(int(entry.name))
    return found


def _terminate(signum: int, frame: FrameType | None) -> None:
    kill_all()
    interrupts.stop(signum)


def install() -> None:
    """Kill every engine group on SIGTERM and SIGHUP (then stop as Ctrl-C does), and sweep the
    harness's own group-leading children at exit and on those signals (main thread only)."""
    global _sweep
    _sweep = True
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, _terminate)


atexit.register(_at_exit)
