"""What the adapters that start a program share around it: restarts within a budget, errors that
carry the engine's output, killing it at once (JSON-lines, Hub, DXP).

:class:`ProcessEngine` owns the engine's :class:`~conformance.engines.adapters.process.EngineProcess`: it
starts it (a start that does not finish leaves no process), loses it after a timeout, a crash or
a stream out of step (its process group is killed) and starts it again on the next request while
its :class:`RestartBudget` lasts -- one per engine, or one shared by every engine of a run
(``conformance.harness.runner``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar, Self

from conformance.core.protocol import EngineError, EngineInfo
from conformance.engines.adapters.process import MAX_LINE_BYTES, EngineProcess
from conformance.engines.adapters.trace import Trace


class RestartBudget:
    """How many times lost engines may be started again: one budget per engine, unless shared.

    :meth:`lost` is told when an engine is lost in a way that counts (it timed out, crashed, or
    broke the protocol: its next start will be a restart), :meth:`spend` is asked before that
    restart, :meth:`contact` before each request. The runner gives every engine of a run one
    shared budget whose answers do not depend on the number of workers (``conformance.harness.runner``);
    on its own an engine has this plain counter.
    """

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"restart_budget must be 0 or more, not {limit!r}")
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def lost(self) -> None:
        """An engine was lost; its next start will ask :meth:`spend`."""

    def spend(self) -> bool:
        """Whether one more restart may happen (it is then counted)."""
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def contact(self) -> bool:
        """Whether a request may reach the engine (``False``: the budget ran out for this run)."""
        return True


class ProcessEngine:
    """The part of an adapter around its engine process (JSON-lines, Hub, DXP).

    Takes the options every such adapter takes: ``timeout`` (one request) and ``start_timeout``
    (the opening exchange) in seconds, ``restart_budget`` (how often the engine may be started
    again after it was lost), ``env`` (variables added to the inherited environment), ``cwd``
    (the folder the engine runs in: a relative command is found there too), ``shell``,
    ``stop_grace`` (how long :meth:`close` lets the engine exit) and ``trace`` (where every line
    exchanged is recorded). A subclass sets ``command`` and implements :meth:`_start` (start the
    engine, hold the opening exchange, set ``_process`` and return what the engine announced;
    ``EngineError("start")`` if it fails) and :meth:`_restart_problem`; its ``__init__`` ends
    with ``self._info = self._start_engine()``.

    After a timeout, a crash or a stream out of step the engine is *lost* (``lose=True`` in
    :meth:`_error`: its process group is killed) and :meth:`_running` starts it again on the
    next request, while the budget lasts. An engine lost for a reason that is not a failure (it
    aborts on a position where a side has no pieces, which it may reject; it ended a DXP session
    as the protocol allows) is started again without spending the budget (:meth:`_lose_freely`).
    :meth:`kill` stops the engine at once, from any thread.
    """

    not_again: ClassVar[str] = "the engine is not started again"
    """How the ``restart budget exhausted`` error ends."""
    farewell: ClassVar[bytes | None] = None
    """What :meth:`close` sends before the grace period."""
    short_reports: ClassVar[bool] = False
    """The form of the engine's output in errors (:meth:`EngineProcess.report`)."""
    label: ClassVar[str] = "engine"
    """How the trace names the engine's processes (with their pid)."""

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
        trace: Trace | None = None,
    ) -> None:
        for name, value in (("timeout", timeout), ("start_timeout", start_timeout)):
            if not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        self.budget = RestartBudget(restart_budget)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.stop_grace = stop_grace
        self.trace = trace
        self._env = dict(env) if env is not None else None
        self._cwd = cwd
        self._shell = shell
        self.restarts = 0
        """How many times this engine has been restarted so far."""
        self._process: EngineProcess | None = None
        self._starting: EngineProcess | None = None
        """The process of a start in progress (killed if the start does not finish)."""
        self._free_restart = False
        """The next start is not charged to the restart budget (:meth:`_lose_freely`)."""
        self._mark = 0
        """Where in the engine's output the last exchange ended (errors carry what follows)."""
        self._closed = False

    @property
    def info(self) -> EngineInfo:
        return self._info

    @property
    def traced_as(self) -> str | None:
        """How the trace names the engine's current process (``jsonl 4242``), if one runs."""
        process = self._process
        return process.name if process is not None else None

    @property
    def restart_budget(self) -> int:
        """How many restarts the budget allows (for this engine, or for the run that shares it)."""
        return self.budget.limit

    def share_budget(self, budget: RestartBudget) -> None:
        """Spend ``budget`` (shared with other engines) instead of this engine's own."""
        self.budget = budget

    def close(self) -> None:
        """Stop the engine: :attr:`farewell`, a grace period, then SIGKILL to its process group."""
        self._closed = True
        process, self._process = self._process, None
        if process is not None:
            process.stop(self.stop_grace, self.farewell)

    def kill(self) -> None:
        """SIGKILL the engine's process group now, and never start it again; safe from any thread
        (the thread using the engine gets an error, and :meth:`close` still reaps it)."""
        self._closed = True
        for process in (self._process, self._starting):
            if process is not None:
                process.signal_group()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- for the subclasses ----------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        raise NotImplementedError

    def _start_engine(self) -> EngineInfo:
        """:meth:`_start`, with the certainty that a start that does not finish (an error, the
        user's Ctrl-C, a signal) leaves no process behind."""
        try:
            return self._start()
        except BaseException:
            process, self._starting = self._starting, None
            if process is not None and process is not self._process:
                process.kill_group()
            raise
        finally:
            self._starting = None

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
        if self._closed:
            raise EngineError("start", "the engine was closed")
        try:
            process = EngineProcess(
                args,
                shell=self._shell,
                env=env,
                cwd=self._cwd,
                talk=talk,
                max_line=max_line,
                strip_cr=strip_cr,
                trace=self.trace,
                label=self.label,
            )
        except (OSError, ValueError) as error:
            where = f" in the folder {self._cwd}" if self._cwd is not None else ""
            raise EngineError(
                "start", f"cannot run the engine command {self.command!r}{where}: {error}"
            ) from None
        self._starting = process
        return process

    def _start_failed(self, process: EngineProcess | None, message: str) -> EngineError:
        """The ``start`` error of a failed opening exchange, with the engine's output; its process
        group is killed (even when the engine exited: its group may live on)."""
        if process is None:
            return EngineError("start", message)
        process.kill_group()
        return EngineError("start", message, process.report(short=self.short_reports))

    def exhausted_error(self) -> EngineError:
        """The error of every request once the restart budget has run out."""
        limit = self.budget.limit
        return EngineError(
            "crash", f"restart budget exhausted ({limit} of {limit} restarts used); {self.not_again}"
        )

    def _running(self) -> EngineProcess:
        """The engine process, restarted if the last one was lost (within the restart budget)."""
        if self._closed:
            raise EngineError("crash", "the engine was closed")
        if not self.budget.contact():
            raise self.exhausted_error()
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
        if not free:
            if not self.budget.spend():
                raise self.exhausted_error()
            self.restarts += 1
        try:
            info = self._start_engine()
        except EngineError as error:
            which = (
                "starting the engine again" if free else f"restart {self.budget.used} of {self.budget.limit}"
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
        self._lose(charged=False)
        self._free_restart = True

    def _held(self) -> bool:
        """Whether there is a running engine to lose."""
        return self._process is not None

    def _lose(self, *, charged: bool = True) -> None:
        """Kill the engine's process group; the next request starts it again (a restart that
        counts against the budget when ``charged``)."""
        if charged and self._held():
            self.budget.lost()
        process, self._process = self._process, None
        if process is not None:
            process.kill_group()
