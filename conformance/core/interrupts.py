"""Telling the user's Ctrl-C apart from an engine that raises KeyboardInterrupt.

An in-process engine runs in the harness's own process: a ``KeyboardInterrupt`` (or
``SystemExit``) raised inside one of its methods must become an ``error`` for that question,
never end the run with a report that looks complete. A real Ctrl-C must still stop the run.
The command line installs :func:`install`: its SIGINT handler records the request before raising,
so :func:`requested` says which one it was. Without the handler (the harness used as a library),
a KeyboardInterrupt in the main thread is taken as the user's. SIGTERM and SIGHUP stop a run the
same way (:func:`stop`, from :mod:`conformance.engines.adapters.lifetime`), with their own exit status.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_requested = threading.Event()
_installed = False
_signal = int(signal.SIGINT)


def _handler(signum: int, frame: FrameType | None) -> None:
    stop(signum)


def stop(signum: int = signal.SIGINT) -> None:
    """Record that the run must stop because of signal ``signum`` and raise KeyboardInterrupt."""
    global _signal
    if not _requested.is_set():
        _signal = int(signum)
    _requested.set()
    raise KeyboardInterrupt


def install() -> None:
    """Record every SIGINT before raising KeyboardInterrupt (main thread only)."""
    global _installed
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _handler)
        _installed = True


def requested() -> bool:
    """True when the user asked to stop (always True in the main thread without the handler)."""
    if _requested.is_set():
        return True
    return not _installed and threading.current_thread() is threading.main_thread()


def exit_status() -> int:
    """The exit status of a run stopped by a signal: 128 + its number (130 for Ctrl-C)."""
    return 128 + _signal
