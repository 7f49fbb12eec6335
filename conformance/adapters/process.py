"""An engine process: a command in a process group of its own, talked to with deadlines (POSIX only).

Shared by every adapter that starts a program: JSON-lines, Hub, and DXP's ``COMMAND`` form. The
program runs with ``start_new_session=True``, so killing its process group also kills whatever it
started; its stderr (and, when it talks over a socket instead of stdout, its stdout too) is read
as it comes, so a chatty engine never blocks on a full pipe, and its most recent part is kept for
error reports. Writes and reads take an absolute deadline (``time.monotonic()``) and raise
:class:`ProcessTimeout`, :class:`ProcessClosed` (end of output: the engine exited or closed its
pipe) or :class:`LineTooLong`.

:class:`ProcessEngine` is what those adapters share around the process: their common options,
starting the program, the :class:`~conformance.engine.EngineError` that carries the engine's
output, losing the engine after a timeout, a crash or a stream out of step, and starting it
again on the next request, within a restart budget.
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
from typing import IO, ClassVar, Final, Self

from conformance.engine import EngineError, EngineInfo

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
PREVIEW_CHARS: Final = 200
"""How much of an unexpected line an error message quotes."""


class ProcessTimeout(Exception):
    """Nothing (or not enough) came before the deadline, or the engine did not read in time."""


class ProcessClosed(Exception):
    """The engine closed its stdout or stdin: it exited, or is about to."""


class LineTooLong(Exception):
    """The engine wrote more than its line limit without a newline."""


class ProtocolViolation(Exception):
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

    # -- writing and reading ---------------------------------------------------------------------

    def write(self, data: bytes, deadline: float | None = None) -> None:
        """Write all of ``data`` to the engine's stdin, reading its output while the pipe is full
        (an engine blocked on its own output must not deadlock with the harness):
        :class:`ProcessTimeout` past ``deadline`` (``None``: none), :class:`ProcessClosed` if
        the engine is gone."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in_fd, view) :]
            except BlockingIOError:  # the pipe is full: the engine is not reading
                if deadline is not None and time.monotonic() >= deadline:
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

    def read_line(self, deadline: float) -> bytes:
        """The next line of the protocol channel (without its newline), reading stderr on the way."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line[:-1] if self.strip_cr and line.endswith(b"\r") else line
            if len(self.buffer) > self.max_line:
                raise LineTooLong
            if self.out_eof:
                raise ProcessClosed
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProcessTimeout
            self.poll(remaining)

    def pending_output(self) -> bytes:
        """Whatever the engine has written on the protocol channel and nobody read (no waiting)."""
        for _ in range(64):  # bounded: an engine may write stderr without pause
            if not self.poll(0):
                break
        return bytes(self.buffer)

    def wait_readable(self, fd: int, deadline: float) -> None:
        """Wait until ``fd`` (a socket) is readable, reading the engine's output meanwhile."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProcessTimeout
            if any(ready == fd for ready, _ in self.poll(remaining, fd)):
                return

    def drain(self, seconds: float = 0.0) -> None:
        """Read the diagnostic output there is, waiting up to ``seconds`` for its end (after an
        exit or a kill)."""
        deadline = time.monotonic() + seconds
        while self._diag_fds & self._open_fds:
            remaining = deadline - time.monotonic()
            if not self.poll(max(0.0, remaining)) or remaining <= 0:
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

    def ended(self) -> str:
        """The :meth:`status` of an engine that closed its end, once it had :data:`DRAIN_SECONDS`
        to exit."""
        self.wait_exit(DRAIN_SECONDS)
        return self.status()

    def kill_group(self) -> None:
        """SIGKILL the whole process group (the engine and anything it started), then reap."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)
        self.killed = True
        self.wait_exit(REAP_SECONDS)
        self.drain(DRAIN_SECONDS)
        self._close_pipes()

    def stop(self, grace: float, farewell: bytes | None = None) -> None:
        """Send ``farewell`` (if any), close stdin, let the engine exit within ``grace`` seconds,
        then kill its process group (which also ends anything it left behind)."""
        if farewell is not None:
            with contextlib.suppress(ProcessClosed, ProcessTimeout):
                self.write(farewell, time.monotonic() + grace)
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


# -- what the adapters share around the process --------------------------------------------------


class ProcessEngine:
    """The part of an adapter around its engine process (JSON-lines, Hub, DXP).

    Takes the options every such adapter takes: ``timeout`` (one request) and ``start_timeout``
    (the opening exchange) in seconds, ``restart_budget`` (how often the engine may be started
    again after it was lost), ``env`` (variables added to the inherited environment), ``cwd``,
    ``shell`` and ``stop_grace`` (how long :meth:`close` lets the engine exit). A subclass sets
    ``command`` and implements :meth:`_start` (start the engine, hold the opening exchange, set
    ``_process`` and return what the engine announced; ``EngineError("start")`` if it fails) and
    :meth:`_restart_problem`; its ``__init__`` ends with ``self._info = self._start()``.

    After a timeout, a crash or a stream out of step the engine is *lost* (``lose=True`` in
    :meth:`_error`: its process group is killed) and :meth:`_running` starts it again on the
    next request, while the budget lasts. An engine lost for a reason that is not a failure (it
    aborts on a position where a side has no pieces, which it may reject; it ended a DXP session
    as the protocol allows) is started again without spending the budget (:meth:`_lose_freely`).
    """

    not_again: ClassVar[str] = "the engine is not started again"
    """How the ``restart budget exhausted`` error ends."""
    farewell: ClassVar[bytes | None] = None
    """What :meth:`close` sends before the grace period."""
    short_reports: ClassVar[bool] = False
    """The form of the engine's output in errors (:meth:`EngineProcess.report`)."""

    command: str
    _info: EngineInfo

    def __init__(
        self,
        *,
        timeout: float,
        start_timeout: float,
        restart_budget: int,
        env: Mapping[str, str] | None,
        cwd: str | Path | None,
        shell: bool,
        stop_grace: float,
    ) -> None:
        for name, value in (("timeout", timeout), ("start_timeout", start_timeout)):
            if not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        if restart_budget < 0:
            raise ValueError(f"restart_budget must be 0 or more, not {restart_budget!r}")
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.restart_budget = restart_budget
        self.stop_grace = stop_grace
        self._env = dict(env) if env is not None else None
        self._cwd = cwd
        self._shell = shell
        self.restarts = 0
        """How many times the engine has been restarted so far."""
        self._process: EngineProcess | None = None
        self._free_restart = False
        """The next start is not charged to the restart budget (:meth:`_lose_freely`)."""
        self._mark = 0
        """Where in the engine's output the last exchange ended (errors carry what follows)."""
        self._closed = False

    @property
    def info(self) -> EngineInfo:
        return self._info

    def close(self) -> None:
        """Stop the engine: :attr:`farewell`, a grace period, then SIGKILL to its process group."""
        self._closed = True
        process, self._process = self._process, None
        if process is not None:
            process.stop(self.stop_grace, self.farewell)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- for the subclasses ----------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        raise NotImplementedError

    def _restart_problem(self, info: EngineInfo) -> str | None:
        """Why a restarted engine that announced ``info`` is not the one started first, or ``None``."""
        raise NotImplementedError

    def _spawn(
        self,
        args: str | list[str],
        env: Mapping[str, str] | None,
        *,
        talk: bool = True,
        max_line: int = MAX_LINE_BYTES,
        strip_cr: bool = True,
    ) -> EngineProcess:
        """Start the engine program; ``EngineError("start")`` if it cannot run."""
        try:
            return EngineProcess(
                args,
                shell=self._shell,
                env=env,
                cwd=self._cwd,
                talk=talk,
                max_line=max_line,
                strip_cr=strip_cr,
            )
        except (OSError, ValueError) as error:
            raise EngineError("start", f"cannot run the engine command {self.command!r}: {error}") from None

    def _start_failed(self, process: EngineProcess | None, message: str) -> EngineError:
        """The ``start`` error of a failed opening exchange, with the engine's output; its process
        group is killed (even when the engine exited: its group may live on)."""
        if process is None:
            return EngineError("start", message)
        process.kill_group()
        return EngineError("start", message, process.report(short=self.short_reports))

    def _running(self) -> EngineProcess:
        """The engine process, restarted if the last one was lost (within the restart budget)."""
        if self._closed:
            raise EngineError("crash", "the engine was closed")
        process = self._process
        if process is None:
            self._restart()
            process = self._process
            if process is None:  # pragma: no cover - a successful start sets it
                raise EngineError("start", "the restarted engine has no process")
        return process

    def _restart(self) -> None:
        """Start the engine again, if the restart budget allows; ``EngineError`` if it does not,
        if the start fails, or if the engine is not the one started first."""
        free, self._free_restart = self._free_restart, False
        if not free and self.restarts >= self.restart_budget:
            raise EngineError(
                "crash",
                f"restart budget exhausted ({self.restarts} of {self.restart_budget} restarts used); "
                f"{self.not_again}",
            )
        if not free:
            self.restarts += 1
        try:
            info = self._start()
        except EngineError as error:
            which = (
                "starting the engine again" if free else f"restart {self.restarts} of {self.restart_budget}"
            )
            raise EngineError("start", f"{which} failed: {error.message}", error.stderr) from None
        problem = self._restart_problem(info)
        if problem is not None:
            self._lose()
            raise EngineError("start", problem)

    def _error(self, kind: str, message: str, *, lose: bool = False) -> EngineError:
        """An EngineError carrying the engine's output since the last exchange; ``lose`` kills the
        engine (it is restarted on the next request) and adds how it ended."""
        process = self._process
        if lose:
            self._lose()
        elif process is not None:
            process.drain()
        if process is None:
            return EngineError(kind, message)
        output = process.report(self._mark, short=self.short_reports)
        self._mark = process.output.total
        return EngineError(kind, message, output)

    def _timed_out(self, what: str) -> EngineError:
        """The ``timeout`` error (``what``: ``no ... within N s``); the engine is lost."""
        consequence = (
            "the engine's process group was killed"
            if self._process is not None
            else "the connection was closed"
        )
        return self._error("timeout", f"{what}; {consequence}", lose=True)

    def _lose_freely(self) -> None:
        """Kill the engine's process group; the next request starts it again without spending the
        restart budget (the engine did nothing wrong)."""
        self._lose()
        self._free_restart = True

    def _lose(self) -> None:
        """Kill the engine's process group; the next request starts it again."""
        process, self._process = self._process, None
        if process is not None:
            process.kill_group()
