"""One TCP connection to a DXP follower, read message by message with deadlines.

On the wire each DXP message is ASCII followed by one NUL byte: :class:`Connection` sends a
message with its NUL and reads the next one (at most :data:`~conformance.engines.adapters.dxp_messages.MAX_MESSAGE`
characters before the NUL, else :class:`ProtocolViolation`), waits for it until a deadline
(:class:`ProcessTimeout`; through the engine process when the harness started it, so what it prints
is kept meanwhile), and records every message in the trace. :class:`ConnectionClosed` when the
follower closes the connection. What a message says is :mod:`conformance.engines.adapters.dxp_messages`'s,
what the harness does with it :mod:`conformance.engines.adapters.dxp_session`'s and
:mod:`conformance.engines.adapters.dxp`'s.
"""

from __future__ import annotations

import contextlib
import select
import socket

from conformance.core.errors import EngineFailure
from conformance.engines.adapters import clock
from conformance.engines.adapters.dxp_messages import MAX_MESSAGE
from conformance.engines.adapters.process import EngineProcess, ProcessTimeout, ProtocolViolation
from conformance.engines.adapters.trace import EVENT, RECEIVED, SENT, Trace


class ConnectionClosed(EngineFailure):
    """The engine closed the connection."""


class Connection:
    """A TCP connection to the follower, read message by message with deadlines."""

    def __init__(
        self, sock: socket.socket, process: EngineProcess | None, trace: Trace | None = None, name: str = ""
    ) -> None:
        self.sock = sock
        self.process = process
        self.buffer = bytearray()
        self.trace = trace
        self.name = name
        if trace is not None:
            trace.record(name, EVENT, f"connected to {_where(sock)}")
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, text: str) -> None:
        if self.trace is not None:
            self.trace.record(self.name, SENT, text)
        try:
            self.sock.sendall(text.encode("ascii") + b"\0")
        except OSError as error:
            raise ConnectionClosed(str(error)) from error

    def _wait(self, deadline: float) -> None:
        if self.process is not None:
            self.process.wait_readable(self.sock.fileno(), deadline)
            return
        remaining = deadline - clock.now()
        if remaining <= 0:
            raise ProcessTimeout
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        if not poller.poll(max(1, int(remaining * 1000))):
            raise ProcessTimeout

    def _fill(self) -> None:
        try:
            chunk = self.sock.recv(4096)
        except (ConnectionError, OSError) as error:
            raise ConnectionClosed(str(error)) from error
        if not chunk:
            raise ConnectionClosed("end of stream")
        self.buffer += chunk

    def receive(self, deadline: float) -> str:
        """The next message (without its NUL)."""
        while True:
            end = self.buffer.find(b"\0")
            if end >= 0:
                raw = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                if self.trace is not None:
                    self.trace.record(self.name, RECEIVED, raw.decode("ascii", errors="replace"))
                try:
                    return raw.decode("ascii")
                except UnicodeDecodeError:
                    raise ProtocolViolation(
                        f"the engine sent a message that is not ASCII: {raw[:80]!r}", lose=True
                    ) from None
            if len(self.buffer) > MAX_MESSAGE:
                raise ProtocolViolation(
                    f"the engine sent {len(self.buffer)} bytes without a NUL (a DXP message is at most "
                    f"{MAX_MESSAGE} characters): {bytes(self.buffer[:80])!r}",
                    lose=True,
                )
            self._wait(deadline)
            self._fill()

    def unasked(self) -> list[str]:
        """The complete messages that arrived unasked (between games), without waiting; an
        incomplete one stays in the buffer. :class:`ConnectionClosed` if the engine closed the connection."""
        poller = select.poll()
        poller.register(self.sock.fileno(), select.POLLIN)
        if poller.poll(0):
            self._fill()
        messages = []
        while b"\0" in self.buffer:
            raw, _, rest = bytes(self.buffer).partition(b"\0")
            self.buffer = bytearray(rest)
            messages.append(raw.decode("ascii", errors="replace"))
            if self.trace is not None:
                self.trace.record(self.name, RECEIVED, messages[-1])
        return messages

    def close(self) -> None:
        if self.trace is not None and self.sock.fileno() >= 0:
            self.trace.record(self.name, EVENT, "disconnected")
        with contextlib.suppress(OSError):
            self.sock.close()


def _where(sock: socket.socket) -> str:
    try:
        host, port = sock.getpeername()[:2]
    except OSError:
        return "the engine"
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
