"""Python engines that end their own process in the middle of a question: ``os._exit(0)`` (no
exception, no ``atexit``, status 0), a ``SIGKILL`` sent to themselves, and ``os._exit(0)`` at one
position only. Run as ``python:exiting:ATTR``: each must end in errors, never exit 0."""

import os
import signal

from conformance.engines.oracle_engine import OracleEngine


class ExitsZero(OracleEngine):
    def legal_moves(self, fen):  # type: ignore[no-untyped-def]
        os._exit(0)


class KillsItself(OracleEngine):
    def legal_moves(self, fen):  # type: ignore[no-untyped-def]
        os.kill(os.getpid(), signal.SIGKILL)


class ExitsAtOnePosition(OracleEngine):
    """Ends its process (status 0) when asked the legal moves of ``$EXIT_AT_FEN``; right elsewhere."""

    def legal_moves(self, fen):  # type: ignore[no-untyped-def]
        if fen == os.environ.get("EXIT_AT_FEN"):
            os._exit(0)
        return super().legal_moves(fen)
