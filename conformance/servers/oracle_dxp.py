"""The reference oracle as a DXP follower: ``python -m conformance.servers.oracle_dxp --port N``.

It listens on TCP (``--host``, default 127.0.0.1; ``--port``, default ``$DXP_PORT`` or 27531;
``--port 0`` picks a free port) and prints ``listening on HOST:PORT`` on stdout once it does.
Each connection is an initiator's session (one thread each; ``--single`` serves one connection
and exits when it ends). It accepts every well-formed ``GAMEREQ`` of version 01 whose position
is valid (``GAMEACC`` code 0; ``1`` for another version, ``2`` for a position it cannot read) and
plays the oracle's first legal move (``--choice random``: a random one, ``--seed`` to repeat)
whenever it is its turn; with no legal move (Art. 7.2) it ends the game with ``E10`` ("I lose").
An initiator's ``MOVE`` must be legal (by from, to and captured set; otherwise a ``CHAT`` says
why and ``E00`` ends the game). ``GAMEEND`` during a game is confirmed with ``E0`` + the same stop
code (after a game, not answered); stop code 1 closes the connection. ``BACKREQ`` is refused
(``K1``); ``CHAT`` is ignored. Standard library and oracle only (the message formats are read
here independently of :mod:`conformance.engines.adapters.dxp_messages`).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Final

from oracle.errors import FenError
from oracle.moves import Move, legal_moves, play
from oracle.position import Color, Kind, Position

DEFAULT_PORT: Final = 27531
NAME: Final = "oracle (draughts-conformance)"
MAX_MESSAGE: Final = 127

Chooser = Callable[[list[Move]], Move]

_LETTERS: Final = {
    "w": (Color.WHITE, Kind.MAN),
    "W": (Color.WHITE, Kind.KING),
    "z": (Color.BLACK, Kind.MAN),
    "Z": (Color.BLACK, Kind.KING),
}


def position_from_dxp(colour: str, board: str) -> Position:
    """The position of a ``GAMEREQ``'s colour to move and 50 squares; :class:`FenError` if invalid."""
    if colour not in "WZ" or len(colour) != 1:
        raise FenError(f"the colour to move must be W or Z, not {colour!r}")
    if len(board) != 50:
        raise FenError(f"a DXP board is 50 squares, not {len(board)}")
    squares: dict[tuple[Color, Kind], set[int]] = {kind: set() for kind in _LETTERS.values()}
    for square, letter in enumerate(board, start=1):
        if letter == "e":
            continue
        if letter not in _LETTERS:
            raise FenError(f"square {square}: {letter!r} is not one of e, w, z, W, Z")
        squares[_LETTERS[letter]].add(square)
    return Position.from_squares(
        Color.WHITE if colour == "W" else Color.BLACK,
        white_men=squares[Color.WHITE, Kind.MAN],
        white_kings=squares[Color.WHITE, Kind.KING],
        black_men=squares[Color.BLACK, Kind.MAN],
        black_kings=squares[Color.BLACK, Kind.KING],
    )


def move_message(move: Move, seconds: int = 0) -> str:
    """``M`` + time (4) + from (2) + to (2) + number captured (2) + captured squares (2 each)."""
    captured = sorted(move.captured)
    return f"M{seconds:04d}{move.from_square:02d}{move.to_square:02d}{len(captured):02d}" + "".join(
        f"{square:02d}" for square in captured
    )


def _read_move(text: str) -> tuple[int, int, frozenset[int]]:
    if len(text) < 11 or not text[1:].isdigit():
        raise ValueError(f"a MOVE is 'M' and digits: {text!r}")
    count = int(text[9:11])
    if len(text) != 11 + 2 * count:
        raise ValueError(f"a MOVE with {count} captured pieces is {11 + 2 * count} characters: {text!r}")
    captured = frozenset(int(text[11 + 2 * index : 13 + 2 * index]) for index in range(count))
    return int(text[5:7]), int(text[7:9]), captured


class FollowerSession:
    """One initiator's session: messages in, messages out (no sockets here)."""

    def __init__(self, choose: Chooser) -> None:
        self.choose = choose
        self.position: Position | None = None
        self.colour: Color | None = None
        self.playing = False
        self.stop = False
        """Set once the initiator asked for no more games (the connection should close)."""

    def handle(self, text: str) -> list[str]:
        """The replies to one received message."""
        header = text[:1]
        if header == "R":
            return self._game_request(text)
        if header == "M":
            return self._move(text)
        if header == "E":
            stop = text[2:3] == "1"
            replies = [f"E0{'1' if stop else '0'}"] if self.playing else []
            self.playing = False
            self.stop = stop
            return replies
        if header == "B":
            return ["K1"]
        return []  # CHAT, BACKACC, GAMEACC, anything else: ignored

    def _game_request(self, text: str) -> list[str]:
        def answer(code: str) -> list[str]:
            return [f"A{NAME[:32].ljust(32)}{code}"]

        self.playing = False
        if text[1:3] != "01":
            return answer("1")
        if len(text) not in (43, 94) or text[35] not in "WZ" or not text[36:42].isdigit():
            return answer("2")
        if text[42] == "A" and len(text) == 43:
            position = Position.initial()
        elif text[42] == "B" and len(text) == 94:
            try:
                position = position_from_dxp(text[43], text[44:94])
            except FenError:
                return answer("2")
        else:
            return answer("2")
        self.position = position
        self.colour = Color.WHITE if text[35] == "W" else Color.BLACK
        self.playing = True
        return answer("0") + self._my_turn()

    def _move(self, text: str) -> list[str]:
        if not self.playing or self.position is None:
            return ["Cno game in progress: MOVE ignored"]
        if self.position.turn is self.colour:
            return ["Cnot your turn: MOVE ignored"]
        try:
            from_square, to_square, captured = _read_move(text)
        except ValueError as error:
            self.playing = False
            return [f"C{str(error)[: MAX_MESSAGE - 1]}", "E00"]
        for move in legal_moves(self.position):
            if (move.from_square, move.to_square, move.captured) == (from_square, to_square, captured):
                self.position = play(self.position, move)
                return self._my_turn()
        self.playing = False
        return [f"Cillegal move {text}: the game ends"[:MAX_MESSAGE], "E00"]

    def _my_turn(self) -> list[str]:
        if self.position is None or self.position.turn is not self.colour:
            return []
        moves = legal_moves(self.position)
        if not moves:
            self.playing = False
            return ["E10"]  # no legal move: the follower loses (Art. 7.2)
        move = self.choose(moves)
        self.position = play(self.position, move)
        return [move_message(move)]


def handle_connection(connection: socket.socket, choose: Chooser) -> None:
    """Serve one initiator until it stops or disconnects."""
    session = FollowerSession(choose)
    buffer = bytearray()
    with connection:
        with contextlib.suppress(OSError):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while not session.stop:
            try:
                chunk = connection.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\0" in buffer and not session.stop:
                raw, _, rest = bytes(buffer).partition(b"\0")
                buffer = bytearray(rest)
                replies = session.handle(raw.decode("ascii", errors="replace"))
                if replies:
                    try:
                        connection.sendall(b"".join(reply.encode("ascii") + b"\0" for reply in replies))
                    except OSError:
                        return
            if len(buffer) > MAX_MESSAGE:
                sys.stderr.write(f"oracle_dxp: {len(buffer)} bytes without a NUL; closing the connection\n")
                return


def chooser(choice: str, seed: int | None) -> Chooser:
    if choice == "first":
        return lambda moves: moves[0]
    generator = random.Random(seed)
    lock = threading.Lock()

    def choose(moves: list[Move]) -> Move:
        with lock:
            return generator.choice(moves)

    return choose


def serve(host: str, port: int, choose: Chooser, *, single: bool = False) -> None:
    with socket.create_server((host, port)) as server:
        bound_host, bound_port = server.getsockname()[:2]
        print(f"listening on {bound_host}:{bound_port}", flush=True)
        while True:
            connection, _ = server.accept()
            if single:
                handle_connection(connection, choose)
                return
            threading.Thread(target=handle_connection, args=(connection, choose), daemon=True).start()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.servers.oracle_dxp",
        description="The reference oracle as a DXP follower on TCP: accepts games, plays legal moves.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    default_port = os.environ.get("DXP_PORT", str(DEFAULT_PORT))
    parser.add_argument(
        "--port",
        type=int,
        default=int(default_port) if default_port.isdigit() else DEFAULT_PORT,
        help=f"TCP port (default $DXP_PORT or {DEFAULT_PORT}; 0 = any free port)",
    )
    parser.add_argument("--single", action="store_true", help="serve one connection, then exit")
    parser.add_argument(
        "--choice", choices=("first", "random"), default="first", help="which legal move to play"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of --choice random")
    options = parser.parse_args(argv)
    try:
        serve(options.host, options.port, chooser(options.choice, options.seed), single=options.single)
    except KeyboardInterrupt:
        return 0
    except OSError as error:
        print(f"oracle_dxp: cannot listen on {options.host}:{options.port}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
