"""An engine process: a command in a process group of its own, talked to with deadlines (POSIX only).

Shared by every adapter that starts a program: JSON-lines, Hub, and DXP's ``COMMAND`` form. The
program runs with ``start_new_session=True``, so killing its process group also kills whatever it
started; its stderr (and, when it talks over a socket instead of stdout, its stdout too) is read
as it comes, so a chatty engine never blocks on a full pipe, and its most recent part is kept for
error reports. Writes and reads take an absolute deadline (``clock.now()``) and raise
:class:`ProcessTimeout`, :class:`ProcessClosed` (end of output: the engine exited or closed its
pipe) or :class:`LineTooLong`.

What the adapters share around the process (restarts, errors, budget) is
:mod:`conformance.engines.adapters.restarts`. Every process is registered with
:mod:`conformance.engines.adapters.lifetime` until its group is killed, so none outlives the harness; and
a :class:`~conformance.engines.adapters.trace.Trace` given to it records every line exchanged.
"""

from __future__ import annotations

import contextlib
import fcntl
import math
import os
import select
import shlex
import signal
import subprocess
import termios
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Final

from conformance.core.errors import EngineFailure
from conformance.engines.adapters import clock, lifetime
from conformance.engines.adapters.trace import DIAGNOSTIC, EVENT, RECEIVED, SENT, LineSplitter, Trace

MAX_LINE_BYTES: Final = 1024 * 1024
"""A line longer than this (no newline yet) is a protocol violation, not a reason to eat memory."""
OUTPUT_KEPT_BYTES: Final = 64 * 1024
"""How much of an engine's diagnostic output is kept (the most recent part)."""
OUTPUT_SHOWN_CHARS: Final = 16 * 1024
"""How much diagnostic output one error carries (its most recent part)."""
DRAIN_SECONDS: Final = 0.5
"""How long to wait for the rest of an engine's stderr once it has exited or been killed."""
REAP_SECONDS: Final = 5.0
"""How long to wait for a killed engine to be reaped (one in uninterruptible sleep may take longer)."""
LINGER_SECONDS: Final = 0.2
"""How long an engine that wrote a line out of place may write what follows before it is killed."""
PREVIEW_CHARS: Final = 200
"""How much of an unexpected line an error message quotes."""


class ProcessTimeout(EngineFailure):
    """Nothing (or not enough) came before the deadline, or the engine did not read in time."""


class ProcessClosed(EngineFailure):
    """The engine closed its stdout or stdin: it exited, or is about to."""


class LineTooLong(EngineFailure):
    """The engine wrote more than its line limit without a newline."""


class ProtocolViolation(EngineFailure):
    """A protocol violation; ``lose`` when the stream is out of step (the engine is restarted)."""

    def __init__(self, message: str, *, lose: bool) -> None:
        super().__init__(message)
        self.message = message
        self.lose = lose


def split_command(command: str | Sequence[str], *, shell: bool = False) -> tuple[str, str | list[str]]:
    """``(text shown in reports, what Popen runs)`` for a command line or an argument list."""
    if isinstance(command, str):
        args: str | list[str] = command if shell else shlex.split(command)
        text = command
    else:
        if shell:
            raise ValueError("shell=True needs the command as one string")
        args = list(command)
        text = shlex.join(args)
    if not args:
        raise ValueError("the engine command is empty")
    return text, args


def preview(data: bytes | str) -> str:
    """What an engine wrote, quoted for an error message (its first :data:`PREVIEW_CHARS`)."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return repr(text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "...")


class OutputTail:
    """The most recent :data:`OUTPUT_KEPT_BYTES` of a stream, addressed by absolute offsets."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._start = 0

    @property
    def total(self) -> int:
        """How many bytes were written in all (the offset of the next byte)."""
        return self._start + len(self._data)

    def append(self, chunk: bytes) -> None:
        self._data += chunk
        excess = len(self._data) - OUTPUT_KEPT_BYTES
        if excess > 0:
            del self._data[:excess]
            self._start += excess

    def since(self, mark: int) -> str:
        """What was written from offset ``mark`` on (its last :data:`OUTPUT_SHOWN_CHARS`)."""
        dropped = max(0, self._start - mark)
        text = bytes(self._data[max(0, mark - self._start) :]).decode("utf-8", errors="replace")
        if len(text) > OUTPUT_SHOWN_CHARS:
            dropped += len(text) - OUTPUT_SHOWN_CHARS
            text = text[-OUTPUT_SHOWN_CHARS:]
        return f"[... {dropped} earlier bytes not kept ...]\n{text}" if dropped else text


class EngineProcess:
    """A running engine in its own process group.

    With ``talk=True`` (JSON-lines, Hub) the engine's stdin and stdout are the protocol channel
    (stdin non-blocking, so a full pipe cannot hold the harness past a deadline) and its stderr
    is kept in :attr:`output`. With ``talk=False`` (DXP, which talks over a socket) its stdin is
    ``/dev/null`` and stdout and stderr both go to :attr:`output`. :meth:`read_line` refuses a
    line longer than ``max_line`` bytes and drops a ``\\r`` before the newline when ``strip_cr``.
    """

    def __init__(
        self,
        args: str | list[str],
        *,
        shell: bool = False,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        talk: bool = True,
        max_line: int = MAX_LINE_BYTES,
        strip_cr: bool = True,
        trace: Trace | None = None,
        label: str = "engine",
    ) -> None:
        environment = None if env is None else {**os.environ, **env}
        self.popen = subprocess.Popen(
            args,
            shell=shell,
            stdin=subprocess.PIPE if talk else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE if talk else subprocess.STDOUT,
            env=environment,
            cwd=cwd,
            start_new_session=True,
            bufsize=0,
        )
        self.pid = self.popen.pid
        self.name = f"{label} {self.pid}"
        """How the trace names this process (``jsonl 4242``)."""
        if not lifetime.register(self.pid):  # the harness is exiting: no engine may start now
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            self.popen.wait()
            raise OSError("the harness is exiting")
        self.trace = trace
        self._traced: dict[int, LineSplitter] = {}
        self.max_line = max_line
        self.strip_cr = strip_cr
        self.stdin: IO[bytes] | None = self.popen.stdin
        stdout = _pipe(self.popen.stdout)
        self._pipes: list[IO[bytes]] = [stdout]
        self.out_fd: int | None = stdout.fileno() if talk else None
        """The protocol channel (``talk=True``), else ``None``."""
        self._diag_fds: set[int] = set()
        self._in_fd = -1
        """The engine's stdin (``-1`` once closed, or without ``talk``: a write fails)."""
        self._writable = select.poll()
        if talk:
            self._in_fd = _pipe(self.stdin).fileno()
            os.set_blocking(self._in_fd, False)
            self._writable.register(self._in_fd, select.POLLOUT)
            stderr = _pipe(self.popen.stderr)
            self._pipes.append(stderr)
            self._diag_fds.add(stderr.fileno())
        else:
            self._diag_fds.add(stdout.fileno())
        self.poller = select.poll()
        for pipe in self._pipes:
            self.poller.register(pipe.fileno(), select.POLLIN)
        self._open_fds = {pipe.fileno() for pipe in self._pipes}
        self.buffer = bytearray()
        self.output = OutputTail()
        """The engine's stderr (and its stdout when ``talk=False``), most recent part."""
        self.out_eof = not talk
        self.killed = False
        if trace is not None:
            where = f" in {cwd}" if cwd is not None else ""
            shown = args if isinstance(args, str) else shlex.join(args)
            trace.record(self.name, EVENT, f"started {shown}{where}")
            for pipe in self._pipes:
                fd = pipe.fileno()
                direction = RECEIVED if fd == self.out_fd else DIAGNOSTIC
                self._traced[fd] = LineSplitter(trace, self.name, direction)

    def unlabel_output(self) -> None:
        """Trace the engine's output without what the reading thread asks (its answers name their
        request otherwise: a pipelining engine's ``seq``)."""
        splitter = self._traced.get(self.out_fd) if self.out_fd is not None else None
        if splitter is not None:
            splitter.labelled = False

    # -- writing and reading ---------------------------------------------------------------------

    def write(self, data: bytes, deadline: float | None = None, about: Sequence[str] | None = None) -> None:
        """Write all of ``data`` to the engine's stdin, reading its output while the pipe is full
        (an engine blocked on its own output must not deadlock with the harness):
        :class:`ProcessTimeout` past ``deadline`` (``None``: none), :class:`ProcessClosed` if
        the engine is gone. ``about`` labels each line in the trace (what it asks), if given."""
        if self.trace is not None and self._in_fd >= 0:
            text = data.decode("utf-8", errors="replace").removesuffix("\n")
            lines = text.split("\n")
            if about is not None and len(about) == len(lines):
                for line, label in zip(lines, about, strict=True):
                    self.trace.record(self.name, SENT, line, label)
            else:
                self.trace.record(self.name, SENT, text)
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in_fd, view) :]
            except BlockingIOError:  # the pipe is full: the engine is not reading
                if deadline is not None and clock.now() >= deadline:
                    raise ProcessTimeout from None
                self.poll(0)
                self._writable.poll(10)
            except (OSError, ValueError) as error:  # broken pipe, closed file: the engine is gone
                raise ProcessClosed from error

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        splitter = self._traced.get(fd)
        if not chunk:
            self._open_fds.discard(fd)
            with contextlib.suppress(KeyError, ValueError):
                self.poller.unregister(fd)
            if fd == self.out_fd:
                self.out_eof = True
            if splitter is not None:
                splitter.flush()
            return
        if splitter is not None:
            splitter.feed(chunk)
        if fd == self.out_fd:
            self.buffer += chunk
        else:
            self.output.append(chunk)

    def poll(self, seconds: float, extra_fd: int | None = None) -> list[tuple[int, int]]:
        """Wait up to ``seconds`` for the engine's output (read as it comes) or for ``extra_fd``
        to be readable; the ``(fd, event)`` pairs that were ready (``extra_fd`` is not read)."""
        timeout = max(0, math.ceil(seconds * 1000))
        if extra_fd is None:
            if not self._open_fds:
                return []
            events = self.poller.poll(timeout)
        else:
            self.poller.register(extra_fd, select.POLLIN)
            try:
                events = self.poller.poll(timeout)
            finally:
                self.poller.unregister(extra_fd)
        for fd, _ in events:
            if fd != extra_fd:
                self._read(fd)
        return events

    def buffered_line(self) -> bytes | None:
        """The next line of the protocol channel if it has already been read, else ``None``."""
        end = self.buffer.find(b"\n")
        if end < 0:
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        return line[:-1] if self.strip_cr and line.endswith(b"\r") else line

    def read_line(self, deadline: float) -> bytes:
        """The next line of the protocol channel (without its newline), reading stderr on the way.
        Past ``deadline`` the pipe is read once more before :class:`ProcessTimeout`: an answer
        already written came in time, though the harness was late to look (busy, or stopped)."""
        expired = False
        while True:
            line = self.buffered_line()
            if line is not None:
                return line
            if len(self.buffer) > self.max_line:
                raise LineTooLong
            if self.out_eof:
                raise ProcessClosed
            if expired:
                raise ProcessTimeout
            remaining = deadline - clock.now()
            expired = remaining <= 0
            self.poll(max(remaining, 0.0))

    def linger(self, seconds: float) -> None:
        """Read the engine's output for up to ``seconds``, until a complete line is buffered (what
        follows a line out of place tells a log line from garbage, in traces and diagnoses)."""
        deadline = clock.now() + seconds
        while b"\n" not in self.buffer and not self.out_eof:
            remaining = deadline - clock.now()
            if remaining <= 0 or not self.poll(remaining):
                return

    def pending_output(self) -> bytes:
        """Whatever the engine has written on the protocol channel and nobody read (no waiting)."""
        for _ in range(64):  # bounded: an engine may write stderr without pause
            if not self.poll(0):
                break
        return bytes(self.buffer)

    def wait_readable(self, fd: int, deadline: float) -> None:
        """Wait until ``fd`` (a socket) is readable, reading the engine's output meanwhile (past
        ``deadline``, once more: as :meth:`read_line`)."""
        expired = False
        while not expired:
            remaining = deadline - clock.now()
            expired = remaining <= 0
            if any(ready == fd for ready, _ in self.poll(max(remaining, 0.0), fd)):
                return
        raise ProcessTimeout

    def drain(self, seconds: float = 0.0) -> None:
        """Read the diagnostic output there is, waiting up to ``seconds`` for its end (after an
        exit or a kill)."""
        deadline = clock.now() + seconds
        while self._diag_fds & self._open_fds:
            remaining = deadline - clock.now()
            if not self.poll(max(0.0, remaining)) or remaining <= 0:
                break

    def unread_input(self) -> int | None:
        """How many bytes written to the engine's stdin it has not read yet (``None``: unknown)."""
        if self._in_fd < 0:
            return None
        try:
            buffer = bytearray(4)
            fcntl.ioctl(self._in_fd, termios.FIONREAD, buffer)
        except OSError:
            return None
        return int.from_bytes(buffer, "little")

    # -- the process -----------------------------------------------------------------------------

    def running(self) -> bool:
        return self.popen.poll() is None

    def status(self) -> str:
        """``still running``, ``exit status N`` or ``killed by signal SIGX``."""
        code = self.popen.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def wait_exit(self, seconds: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(seconds)

    def ended(self) -> str:
        """The :meth:`status` of an engine that closed its end, once it had :data:`DRAIN_SECONDS`
        to exit."""
        self.wait_exit(DRAIN_SECONDS)
        return self.status()

    def kill_group(self) -> None:
        """SIGKILL the whole process group (the engine and anything it started), then reap."""
        if self.trace is not None and not self.killed:
            self.trace.record(self.name, EVENT, f"killing the process group ({self.status()})")
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self.killed = True
        self.wait_exit(REAP_SECONDS)
        self.drain(DRAIN_SECONDS)
        self._close_pipes()
        if self.popen.poll() is not None:
            lifetime.unregister(self.pid)
            if self.trace is not None:
                self.trace.record(self.name, EVENT, f"ended: {self.status()}")

    def signal_group(self) -> None:
        """SIGKILL the process group and nothing else: safe from another thread than the one
        talking to the engine (that one sees the end of the output and cleans up)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def stop(self, grace: float, farewell: bytes | None = None) -> None:
        """Send ``farewell`` (if any), close stdin, let the engine exit within ``grace`` seconds,
        then kill its process group (which also ends anything it left behind)."""
        if farewell is not None:
            with contextlib.suppress(ProcessClosed, ProcessTimeout):
                self.write(farewell, clock.now() + grace)
        self._close_stdin()
        self.wait_exit(grace)
        self.kill_group()

    def report(self, mark: int = 0, *, short: bool = False) -> str:
        """The kept output since ``mark``, then ``[engine process PID: STATUS]`` once the process
        exited or was killed (``(killed by the harness)`` after the harness's SIGKILL). ``short``,
        the JSON-lines form (``docs/protocol.md``): the status only once the harness killed the
        process group, without that note."""
        text = self.output.since(mark)
        if self.killed or (not short and self.popen.poll() is not None):
            separator = "\n" if text and not text.endswith("\n") else ""
            how = self.status()
            if self.killed and not short and "SIGKILL" in how:
                how = f"{how} (killed by the harness)"
            text = f"{text}{separator}[engine process {self.pid}: {how}]"
        return text

    def close_input(self) -> None:
        """Close the engine's stdin (it reads the end of its input)."""
        self._close_stdin()

    def _close_stdin(self) -> None:
        self._in_fd = -1
        if self.stdin is not None:
            with contextlib.suppress(OSError):
                self.stdin.close()

    def _close_pipes(self) -> None:
        self._close_stdin()
        for pipe in self._pipes:
            with contextlib.suppress(OSError):
                pipe.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:  # pragma: no cover - subprocess.PIPE always gives a stream
        raise RuntimeError("subprocess pipe missing")
    return stream
