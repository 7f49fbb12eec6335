"""The DXP adapter: certify a DamExchange engine (DXP over TCP) at the move-choice level.

The harness is the DXP *initiator*; the engine is the *follower*, listening on a TCP port:
either one already running (``dxp:HOST:PORT``) or one the harness starts (``dxp:COMMAND``: the
port, a free one on 127.0.0.1, is given as ``$DXP_PORT`` and replaces ``{port}`` in the command).
Every position is one short game: the harness proposes it with the engine to move, the engine
plays one move, the harness ends the game. ``docs/adapters-hub-dxp.md`` lists the exact messages.
This module holds the engine: the ``dxp:`` spec and the game of each position. The connection,
the probe game and the sessions are :mod:`conformance.engines.adapters.dxp_session`'s; the messages
are written and read as text by :mod:`conformance.engines.adapters.dxp_messages`, and carried, NUL
by NUL with deadlines, by :mod:`conformance.engines.adapters.dxp_connection`.

Per position (``>`` sent, ``<`` received; every message is ASCII followed by one NUL byte)::

    > R01<our name, 32><follower colour = side to move: W|Z><time 3><moves 3>B<W|Z><50 squares e|w|z|W|Z>
    < A<engine name, 32><0 = accepted>              (1, 2, 3: refused -> error 'protocol')
    < M<time 4><from 2><to 2><n 2><captured 2 each, any order>
    > E00                                           (the game ends, no result, more games welcome)
    < E<reason><stop>                               (the engine confirms)

In a position without a legal move (Art. 7.2) the engine cannot move: it answers ``GAMEACC``
and then, as the side to move may, ``GAMEEND`` instead of a move (Scan's follower sends
``E10``, "I lose"); the harness confirms with ``E00`` and records no move, which is right there
and wrong anywhere else. ``CHAT`` messages are ignored; a ``BACKREQ`` is refused (``K1``); a
``GAMEEND`` that comes between games (a follower confirming its own end of game) is ignored.
At start (``probe=True``) one empty game from the initial position, with the harness to move,
learns the engine's name: ``R...ZtttmmmA`` / ``A...0`` / ``E00`` / ``E..``.

A ``GAMEEND`` with stop code 1 (the engine wants no more games in this session) is no failure:
the next position opens a new session (a new connection to a follower at an address; the command
started again, without the probe game, for a follower the harness started), without spending the
restart budget. An engine that refuses a position says so with ``GAMEACC`` code 2 ("not this
game": the harness's time control and colours are always the same, so it is the position):
:class:`PositionRefused`, a skip where a side has no pieces, else a fail of Art. 2. An engine
that closes the connection (or exits) on a position where a side has no pieces refuses it too: it
is reconnected (or started again) for the next position without spending the restart budget.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Final

from conformance.core.protocol import BaseEngine, EngineDeclined, MoveSpec, PositionRefused
from conformance.engines.adapters import clock
from conformance.engines.adapters.dxp_connection import ConnectionClosed
from conformance.engines.adapters.dxp_messages import (
    REFUSALS,
    GameAccept,
    GameEnd,
    MoveMessage,
    game_request,
    time_control,
)
from conformance.engines.adapters.dxp_session import DxpSession
from conformance.engines.adapters.process import ProcessTimeout, ProtocolViolation
from conformance.engines.adapters.trace import Trace
from oracle.errors import FenError
from oracle.position import Color, Position

__all__ = ["DxpEngine", "dxp_engine", "parse_address"]


# -- the engine of a ``dxp:`` spec ---------------------------------------------------------------------


_ADDRESS: Final = re.compile(r"(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):([0-9]{1,5})")


def parse_address(text: str) -> tuple[str, int] | None:
    """``(host, port)`` if ``text`` is ``HOST:PORT`` (``[::1]:27531`` for IPv6), else ``None`` (a
    command); ``ValueError`` for ``HOST:PORT`` with a port outside 1-65535."""
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        return None
    port = int(match.group(3))
    if not 0 < port < 65536:
        raise ValueError(f"port {port} is outside 1-65535")
    return (match.group(1) or match.group(2)), port


def dxp_engine(
    rest: str,
    *,
    timeout: float = 10.0,
    start_timeout: float = 10.0,
    cwd: str | Path | None = None,
    trace: Trace | None = None,
    move_time: float | None = None,
) -> DxpEngine:
    """The engine of a ``dxp:`` spec: ``HOST:PORT`` connects there, anything else is a COMMAND
    (``ValueError`` for a ``HOST:PORT`` whose port is out of range, before anything starts);
    ``cwd`` is the folder a COMMAND runs in, ``move_time`` the seconds per move the time control
    aims at (:func:`time_control`)."""
    minutes, moves = time_control(move_time) if move_time is not None else (1, 999)
    address = parse_address(rest)
    return DxpEngine(
        address,
        command=None if address is not None else rest,
        timeout=timeout,
        start_timeout=start_timeout,
        minutes=minutes,
        moves=moves,
        cwd=cwd,
        trace=trace,
    )


# -- the adapter -------------------------------------------------------------------------------------------


class DxpEngine(DxpSession, BaseEngine):
    """A DXP follower, certified at the move-choice level (``info.level == "move-choice"``).

    Give ``address`` (``(host, port)`` of a follower already listening) or ``command`` (started
    here, in a process group of its own: ``$DXP_PORT`` and ``{port}`` name the free port it must
    listen on; the harness retries connecting until it does, up to ``start_timeout``).
    ``timeout`` bounds one position (from ``GAMEREQ`` to the confirming ``GAMEEND``);
    ``minutes`` and ``moves`` are the ``GAMEREQ`` time control (default: 1 minute for 999 moves,
    about 60 ms a move: a rules check, not a strength test); ``probe`` plays the empty start game
    that learns the engine's name. ``restart_budget`` is how often the engine may be restarted
    (``command``) or reconnected (``address``) after a timeout, a crash or a stream out of step.
    One position at a time: one instance per worker thread (and a follower that takes one
    connection at a time needs one worker).
    """

    # -- the Engine interface ------------------------------------------------------------------------

    def choose_move(self, fen: str) -> MoveSpec | None:
        """The engine's move in ``fen``; ``None`` when it ended the game instead of moving;
        :class:`PositionRefused` when it refuses the game (``GAMEACC`` code 2) or aborts on a
        position where a side has no pieces."""
        try:
            position = Position.from_fen(fen)
        except FenError as error:
            raise EngineDeclined(f"the position cannot be sent over DXP: {error}") from None
        connection = self._connected()
        self.last_game_end = None
        deadline = clock.now() + self.timeout
        request = game_request(
            position, follower=position.turn, minutes=self.minutes, moves=self.moves, name=self.name
        )
        what = f"the game request {request!r}"
        try:
            connection.send(request)
            accept = self._expect(connection, deadline, (GameAccept,), "GAMEACC", what)
            assert isinstance(accept, GameAccept)
            if accept.code == "2":
                self._mark = self._output_total()
                raise PositionRefused(f"it refused {what}: GAMEACC code 2 ({REFUSALS['2']})")
            if accept.code != "0":
                raise ProtocolViolation(
                    f"the engine refused {what}: GAMEACC code {accept.code} "
                    f"({REFUSALS.get(accept.code, 'unknown code')})",
                    lose=False,
                )
            reply = self._expect(connection, deadline, (MoveMessage, GameEnd), "MOVE (or GAMEEND)", what)
            if isinstance(reply, GameEnd):  # no move: confirm the end of the game
                self.last_game_end = reply
                with contextlib.suppress(ConnectionClosed):
                    connection.send("E00")
                if reply.stop == "1":  # it wants no more games: a new session next time
                    self._end_session()
                self._mark = self._output_total()
                return None
            assert isinstance(reply, MoveMessage)
            connection.send("E00")
            end = self._expect(connection, deadline, (GameEnd,), "GAMEEND (confirming ours)", "our E00")
            assert isinstance(end, GameEnd)
            if end.stop == "1":
                self._end_session()
        except ProcessTimeout:
            raise self._timed_out(f"no complete answer within {self.timeout:g} s to {what}") from None
        except ConnectionClosed as closed:
            if not position.squares(Color.WHITE) or not position.squares(Color.BLACK):
                status = f", {self._process.ended()}" if self._process is not None else ""
                self._lose_freely()
                raise PositionRefused(
                    f"the engine closed the connection on {what}, a position where a side has no pieces "
                    f"({closed}{status}); it is started again"
                ) from None
            raise self._crash(f"while answering {what} ({closed})") from None
        except ProtocolViolation as violation:
            raise self._error("protocol", violation.message, lose=violation.lose) from None
        self._mark = self._output_total()
        return reply.move

    def __repr__(self) -> str:
        return f"DxpEngine({self._spec!r})"
