"""An engine process: a command in a process group of its own, read with deadlines (POSIX only).

Shared by the adapters that start a program (Hub; DXP's ``COMMAND`` form). The program runs
with ``start_new_session=True``, so killing its process group also kills whatever it started;
its stderr (and, when it talks over a socket instead of stdout, its stdout too) is read as it
comes, so a chatty engine never blocks on a full pipe, and its most recent part is kept for
error reports. Reads take an absolute deadline (``time.monotonic()``) and raise
:class:`ProcessTimeout`, :class:`ProcessClosed` (end of output: the engine exited or closed
its pipe) or :class:`LineTooLong`.

The design follows the JSON-lines adapter (:mod:`conformance.adapters.jsonl`), which keeps its
own copy of the same machinery.
"""

from __future__ import annotations

import contextlib
import math
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Final

MAX_LINE_BYTES: Final = 1024 * 1024
"""A line longer than this (no newline yet) is a protocol violation, not a reason to eat memory."""
OUTPUT_KEPT_BYTES: Final = 64 * 1024
"""How much of an engine's diagnostic output is kept (the most recent part)."""
OUTPUT_SHOWN_CHARS: Final = 16 * 1024
"""How much diagnostic output one error carries (its most recent part)."""
DRAIN_SECONDS: Final = 0.5
"""How long to wait for the rest of an engine's stderr once it has exited or been killed."""


class ProcessTimeout(Exception):
    """Nothing (or not enough) came before the deadline."""


class ProcessClosed(Exception):
    """The engine closed its stdout or stdin: it exited, or is about to."""


class LineTooLong(Exception):
    """The engine wrote more than :data:`MAX_LINE_BYTES` without a newline."""


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

    With ``talk=True`` (Hub) the engine's stdin and stdout are the protocol channel and its
    stderr is kept in :attr:`output`. With ``talk=False`` (DXP, which talks over a socket) its
    stdin is ``/dev/null`` and stdout and stderr both go to :attr:`output`.
    """

    def __init__(
        self,
        args: str | list[str],
        *,
        shell: bool = False,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        talk: bool = True,
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
        self.stdin: IO[bytes] | None = self.popen.stdin
        stdout = _pipe(self.popen.stdout)
        self._pipes: list[IO[bytes]] = [stdout]
        self.out_fd: int | None = stdout.fileno() if talk else None
        """The protocol channel (``talk=True``), else ``None``."""
        self._diag_fds: set[int] = set()
        if talk:
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

    # -- writing and reading ---------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Write to the engine's stdin; :class:`ProcessClosed` if it is gone."""
        if self.stdin is None:
            raise ProcessClosed
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.stdin.fileno(), view) :]
        except (BrokenPipeError, ValueError, OSError) as error:
            raise ProcessClosed from error

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            self._open_fds.discard(fd)
            with contextlib.suppress(KeyError, ValueError):
                self.poller.unregister(fd)
            if fd == self.out_fd:
                self.out_eof = True
        elif fd == self.out_fd:
            self.buffer += chunk
        else:
            self.output.append(chunk)

    def poll(self, seconds: float, extra_fd: int | None = None) -> bool:
        """Wait up to ``seconds`` for the engine's output (read as it comes) or for ``extra_fd``
        to be readable; ``True`` when ``extra_fd`` is readable (without reading it)."""
        if extra_fd is not None:
            self.poller.register(extra_fd, select.POLLIN)
        try:
            if not self._open_fds and extra_fd is None:
                return False
            events = self.poller.poll(max(0, math.ceil(seconds * 1000)))
        finally:
            if extra_fd is not None:
                self.poller.unregister(extra_fd)
        ready = False
        for fd, _ in events:
            if fd == extra_fd:
                ready = True
            else:
                self._read(fd)
        return ready

    def read_line(self, deadline: float) -> bytes:
        """The next line of the protocol channel (without its newline and a ``\\r`` before it)."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line[:-1] if line.endswith(b"\r") else line
            if len(self.buffer) > MAX_LINE_BYTES:
                raise LineTooLong
            if self.out_eof:
                raise ProcessClosed
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProcessTimeout
            self.poll(remaining)

    def wait_readable(self, fd: int, deadline: float) -> None:
        """Wait until ``fd`` (a socket) is readable, reading the engine's output meanwhile."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProcessTimeout
            if self.poll(remaining, fd):
                return

    def drain(self, seconds: float = 0.0) -> None:
        """Read the diagnostic output there is, waiting up to ``seconds`` for its end."""
        deadline = time.monotonic() + seconds
        while self._diag_fds & self._open_fds:
            remaining = deadline - time.monotonic()
            before = self.output.total
            self.poll(max(0.0, remaining))
            if remaining <= 0 and self.output.total == before:
                break

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

    def kill_group(self) -> None:
        """SIGKILL the whole process group (the engine and anything it started), then reap."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self.killed = True
        self.popen.wait()
        self.drain(DRAIN_SECONDS)
        self._close_pipes()

    def stop(self, grace: float, farewell: bytes | None = None) -> None:
        """Send ``farewell`` (if any), close stdin, let the engine exit within ``grace`` seconds,
        then kill its process group (which also ends anything it left behind)."""
        if farewell is not None:
            with contextlib.suppress(ProcessClosed):
                self.write(farewell)
        if self.stdin is not None:
            with contextlib.suppress(OSError):
                self.stdin.close()
        self.wait_exit(grace)
        self.kill_group()

    def report(self, mark: int = 0) -> str:
        """The kept output since ``mark``, and how the process ended if it did."""
        text = self.output.since(mark)
        if self.killed or self.popen.poll() is not None:
            separator = "\n" if text and not text.endswith("\n") else ""
            how = self.status()
            if self.killed:
                how = f"{how} (killed by the harness)" if "SIGKILL" in how else how
            text = f"{text}{separator}[engine process {self.pid}: {how}]"
        return text

    def _close_pipes(self) -> None:
        for pipe in [*self._pipes, *([self.stdin] if self.stdin is not None else [])]:
            with contextlib.suppress(OSError):
                pipe.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:  # pragma: no cover - subprocess.PIPE always gives a stream
        raise RuntimeError("subprocess pipe missing")
    return stream
