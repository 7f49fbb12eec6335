"""A DXP session: the connection to a follower, the engine started for it, the probe game, renewals.

The harness reaches a follower at an address, or starts the command given (on a free port, as
``$DXP_PORT`` and ``{port}``) and connects to it; at start (``probe=True``) one empty game from the
initial position learns the engine's name. :class:`DxpSession` holds that connection: it renews the
session the engine ended (``GAMEEND`` stop code 1) without spending the restart budget, refuses a
``BACKREQ`` and skips ``CHAT`` while it waits for the message due (:meth:`DxpSession._expect`),
charges a lost connection as a crash and restarts (or reconnects) within the budget. The game of
each position is :class:`~conformance.engines.adapters.dxp.DxpEngine`'s; the messages as text are
:mod:`conformance.engines.adapters.dxp_messages`'s, the bytes on the wire
:mod:`conformance.engines.adapters.dxp_connection`'s.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

from conformance.core.protocol import Capability, EngineError, EngineInfo
from conformance.engines.adapters import clock
from conformance.engines.adapters.dxp_connection import Connection, ConnectionClosed
from conformance.engines.adapters.dxp_messages import (
    INITIATOR_NAME,
    REFUSALS,
    BackRequest,
    Chat,
    DxpProtocolError,
    GameAccept,
    GameEnd,
    Message,
    game_request,
    parse_message,
)
from conformance.engines.adapters.process import (
    DRAIN_SECONDS,
    EngineProcess,
    ProcessTimeout,
    ProtocolViolation,
    split_command,
)
from conformance.engines.adapters.restarts import ProcessEngine
from conformance.engines.adapters.trace import Trace
from oracle.position import Color

__all__ = ["LEVEL_MOVE_CHOICE", "DxpSession", "free_port"]

LEVEL_MOVE_CHOICE: Final = "move-choice"
"""The level of every DXP engine: the protocol only asks it to move."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the engine binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


class DxpSession(ProcessEngine):
    """The connection to a DXP follower and what keeps it: started or reached, the probe game,
    the session renewed when the engine ends it, lost and restarted within the budget. Its
    options are :class:`~conformance.engines.adapters.dxp.DxpEngine`'s."""

    not_again = "the engine is not started (or connected) again"
    label = "dxp"

    def __init__(
        self,
        address: tuple[str, int] | None = None,
        *,
        command: str | Sequence[str] | None = None,
        timeout: float = 10.0,
        start_timeout: float = 10.0,
        minutes: int = 1,
        moves: int = 999,
        name: str = INITIATOR_NAME,
        probe: bool = True,
        restart_budget: int = 3,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        shell: bool = False,
        stop_grace: float = 1.0,
        trace: Trace | None = None,
    ) -> None:
        if (address is None) == (command is None):
            raise ValueError("give exactly one of address=(host, port) and command=")
        super().__init__(
            timeout=timeout,
            start_timeout=start_timeout,
            restart_budget=restart_budget,
            env=env,
            cwd=cwd,
            shell=shell,
            stop_grace=stop_grace,
            trace=trace,
        )
        game_request(None, follower=Color.WHITE, minutes=minutes, moves=moves, name=name)  # validates
        self.address = address
        if command is not None:
            self.command, self._args = split_command(command, shell=shell)
            spec = self.command
        else:
            assert address is not None
            self.command, self._args = "", []
            host, port = address
            spec = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.minutes = minutes
        self.moves = moves
        self.name = name
        self.probe = probe
        self.port: int | None = None
        """The port of the engine started from ``command`` (the last one, after restarts)."""
        self.last_game_end: GameEnd | None = None
        """The ``GAMEEND`` the engine sent instead of a move, at the last position it did."""
        self._spec = spec
        self._connection: Connection | None = None
        self._session_over = False
        """The engine ended the session (GAMEEND stop 1): the next position opens a new one."""
        self._probing = probe
        """Whether the next start plays the probe game (not when a session the engine ended is renewed)."""
        self._info = self._start_engine()

    def close(self) -> None:
        """End the session: ``E01`` (no more games) to an engine started here, then kill its group."""
        connection, self._connection = self._connection, None
        if connection is not None:
            if self._process is not None:
                with contextlib.suppress(ConnectionClosed):
                    connection.send("E01")
            connection.close()
        super().close()

    # -- messages ------------------------------------------------------------------------------------

    def _expect(
        self,
        connection: Connection,
        deadline: float,
        kinds: tuple[type, ...],
        due: str,
        after: str,
    ) -> Message:
        """The next message of one of ``kinds``; CHAT skipped, BACKREQ refused (``K1``)."""
        while True:
            text = connection.receive(deadline)
            try:
                message = parse_message(text)
            except DxpProtocolError as error:
                raise ProtocolViolation(f"after {after}: {error}", lose=True) from None
            if isinstance(message, kinds):
                return message
            if isinstance(message, Chat):
                continue
            if isinstance(message, BackRequest):
                connection.send("K1")
                continue
            if isinstance(message, GameEnd) and GameAccept in kinds:
                continue  # a late confirmation of the previous game's end
            raise ProtocolViolation(f"after {after} the engine sent {text!r} where {due} was due", lose=True)

    # -- starting, restarting, errors ------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        """Connect (starting the engine first for ``command``) and play the probe game."""
        process = None
        if self._args:
            port = free_port()
            self.port = port
            args: str | list[str] = (
                self._args.replace("{port}", str(port))
                if isinstance(self._args, str)
                else [arg.replace("{port}", str(port)) for arg in self._args]
            )
            process = self._spawn(args, {**(self._env or {}), "DXP_PORT": str(port)}, talk=False)
            address = ("127.0.0.1", port)
        else:
            assert self.address is not None
            address = self.address

        def fail(message: str) -> EngineError:
            return self._start_failed(process, message)

        deadline = clock.now() + self.start_timeout
        sock = self._connect(address, process, deadline, fail)
        name = process.name if process is not None else f"dxp {self._spec}"
        connection = Connection(sock, process, self.trace, name)
        follower_name = ""
        probe_end: GameEnd | None = None
        if self._probing:
            request = game_request(
                None, follower=Color.BLACK, minutes=self.minutes, moves=self.moves, name=self.name
            )
            try:
                connection.send(request)
                accept = self._expect(
                    connection, deadline, (GameAccept,), "GAMEACC", f"the probe game {request!r}"
                )
                assert isinstance(accept, GameAccept)
                if accept.code != "0":
                    raise ProtocolViolation(
                        f"the engine refused the probe game {request!r} (the initial position, the harness "
                        f"to move): code {accept.code} ({REFUSALS.get(accept.code, 'unknown code')})",
                        lose=True,
                    )
                follower_name = accept.name
                connection.send("E00")
                end = self._expect(
                    connection, deadline, (GameEnd,), "GAMEEND", "the E00 that ends the probe game"
                )
                assert isinstance(end, GameEnd)
                probe_end = end
            except ProcessTimeout:
                connection.close()
                raise fail(f"no answer to the probe game within {self.start_timeout:g} s") from None
            except ConnectionClosed as closed:
                connection.close()
                if process is not None:
                    process.wait_exit(DRAIN_SECONDS)
                raise fail(f"the engine closed the connection during the probe game ({closed})") from None
            except ProtocolViolation as violation:
                connection.close()
                raise fail(violation.message) from None
        self._process = process
        self._connection = connection
        self._mark = self._output_total()
        if probe_end is not None and probe_end.stop == "1":
            self._end_session()  # one game per session: the first position opens a new one
        if not self._probing:  # a session renewed: the engine the harness knows
            return self._info
        default = Path(self.command.split()[0]).name if self.command.split() else self._spec
        return EngineInfo(
            name=follower_name or default,
            version="unknown",
            capabilities=frozenset({Capability.CHOOSE_MOVE}),
            adapter=f"dxp:{self._spec}",
            level=LEVEL_MOVE_CHOICE,
        )

    def _connect(
        self,
        address: tuple[str, int],
        process: EngineProcess | None,
        deadline: float,
        fail: Callable[[str], EngineError],
    ) -> socket.socket:
        last_error: OSError | None = None
        while True:
            remaining = deadline - clock.now()
            if remaining <= 0:
                where = f"{address[0]}:{address[1]}"
                raise fail(
                    f"cannot connect to the engine at {where} within {self.start_timeout:g} s: {last_error}"
                )
            try:
                return socket.create_connection(address, timeout=min(remaining, 2.0))
            except OSError as error:
                last_error = error
            if process is None:
                raise fail(f"cannot connect to the DXP engine at {address[0]}:{address[1]}: {last_error}")
            if not process.running():
                raise fail(f"the engine exited before listening on port {address[1]} ({process.ended()})")
            process.drain(0.05)  # wait a little, reading what it prints

    def _connected(self) -> Connection:
        """The connection, re-established if the last one was lost (within the restart budget) or
        renewed if the engine ended its session."""
        if self._closed:
            raise EngineError("crash", "the engine was closed")
        if not self.budget.contact():
            raise self.exhausted_error()
        if self._session_over:
            self._new_session()
        connection = self._connection
        if connection is not None:
            try:
                for text in connection.unasked():
                    # between games: CHAT and a late GAMEEND are harmless, a BACKREQ is refused
                    if text[:1] == "B":
                        connection.send("K1")
                    elif text[:1] not in ("C", "E"):
                        raise self._error(
                            "protocol", f"the engine sent {text[:80]!r} between games, unasked", lose=True
                        )
            except ConnectionClosed as closed:
                raise self._crash(f"between positions ({closed})") from None
            return connection
        self._restart()
        if self._session_over:  # the probe game ended the session
            self._new_session()
        if self._connection is None:  # pragma: no cover - a successful start sets it
            raise EngineError("start", "the restarted engine has no connection")
        return self._connection

    def _end_session(self) -> None:
        """The engine sent GAMEEND with stop code 1: close this session, renew it at the next position."""
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
        self._session_over = True

    def _new_session(self) -> None:
        """A new session after the engine ended the last one, not charged to the restart budget
        and without the probe game: a new connection to a follower at an address; for a command,
        the engine started again (reconnecting to a process that may be exiting would race)."""
        self._session_over = False
        self._lose(charged=False)
        self._probing = False
        try:
            self._info = self._start_engine()
        except EngineError as error:
            raise EngineError(
                "crash",
                f"the engine ended its session (GAMEEND stop code 1) and a new one could not be opened: "
                f"{error.message}",
                error.stderr,
            ) from None
        finally:
            self._probing = self.probe

    def _restart_problem(self, info: EngineInfo) -> str | None:
        if info.name == self._info.name:
            return None
        return f"the restarted engine is called {info.name!r}, not {self._info.name!r} as at first"

    def _output_total(self) -> int:
        return self._process.output.total if self._process is not None else 0

    def _crash(self, when: str) -> EngineError:
        process = self._process
        if process is not None:
            status = process.ended()
            how = "the engine exited" if not process.running() else "the engine closed the connection"
            return self._error("crash", f"{how} {when} ({status})", lose=True)
        return self._error("crash", f"the engine closed the connection {when}", lose=True)

    def _held(self) -> bool:
        return self._connection is not None or self._process is not None

    def _lose(self, *, charged: bool = True) -> None:
        """Drop the connection and kill the engine (both renewed on the next position)."""
        if charged and self._held():
            self.budget.lost()
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.close()
        super()._lose(charged=False)
