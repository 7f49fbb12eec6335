"""Telling the user's Ctrl-C apart from an engine that raises KeyboardInterrupt.

An in-process engine runs in the harness's own process: a ``KeyboardInterrupt`` (or
``SystemExit``) raised inside one of its methods must become an ``error`` for that question,
never end the run with a report that looks complete. A real Ctrl-C must still stop the run.
The command line installs :func:`install`: its SIGINT handler records the request before raising,
so :func:`requested` says which one it was. Without the handler (the harness used as a library),
a KeyboardInterrupt in the main thread is taken as the user's.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

_requested = threading.Event()
_installed = False


def _handler(signum: int, frame: FrameType | None) -> None:
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
