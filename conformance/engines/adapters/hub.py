"""The Hub adapter: certify a Hub engine (Scan's protocol, version 2) at the move-choice level.

A Hub engine only plays: given a position it chooses a move. Through it the harness checks that
the chosen move is legal (Art. 3, 4: with a compulsory or maximum capture, only those moves are)
and, in a position with one legal move, that it is that move; a position without a legal move
(Art. 7.2) must get no move. ``docs/adapters-hub-dxp.md`` lists every line sent and expected.

One session (the engine runs in a process group of its own; ``hub`` is not added to the
command, give it: ``dame hub``, ``scan hub``)::

    > hub                                  < id name=... version=...   < param ...   < wait
    > set-param name=N value=V  (optional) > init                      < ready
    per position:
    > new-game   > pos pos=<W|B><50 x w|b|W|B|e>   > level depth=1   > ping
                                                   < (error message=... = the position was refused)  < pong
    > go think                                     < info ...   < done move=<move>  (or a bare ``done``)
    > quit                                         (then the process group is killed)

The ``ping`` after ``pos`` and ``level`` is how a refused position is noticed: an engine answers
``error`` and keeps its previous position, so ``go think`` would answer for a stale one. A refused
position is the engine's word that it does not accept it (:class:`PositionRefused`): Scan answers
``error message="bad position"`` where a side has no pieces, which the harness reports as a skip
(a game reaches such a position only at its end); where both sides have pieces, a fail of Art. 2.
An engine that exits on a position where a side has no pieces refuses it too: it is started
again for the next position without spending the restart budget.

Hub syntax: ``<command> <name>=<value> ...``; a value may be double-quoted; a flag has no value;
unknown commands are ignored (the protocol's rule for extensions), but a line that is not Hub
syntax at all (its command is not a lower-case word, a quote is not closed) is a protocol
violation. Moves: ``32-28``, or ``from x to x captured x captured ...`` (captured squares in any
order, no intermediate squares): ``47x36x14x29x31x42``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from conformance.core.errors import EngineFailure
from conformance.core.protocol import (
    BaseEngine,
    Capability,
    EngineDeclined,
    EngineError,
    EngineInfo,
    MoveSpec,
    PositionRefused,
)
from conformance.engines.adapters import clock
from conformance.engines.adapters.process import (
    EngineProcess,
    LineTooLong,
    ProcessClosed,
    ProcessTimeout,
    ProtocolViolation,
    preview,
    split_command,
)
from conformance.engines.adapters.restarts import ProcessEngine
from conformance.engines.adapters.trace import Trace
from oracle.errors import FenError
from oracle.position import Color, Position

LEVEL_MOVE_CHOICE: Final = "move-choice"
MAX_HANDSHAKE_LINES: Final = 1000
"""The most lines an engine may write from ``hub`` to ``ready`` (a real engine writes a few dozen)."""
MAX_HANDSHAKE_BYTES: Final = 256 * 1024
"""The most bytes it may write in them: a flood of ``param`` lines is a failed start, not memory."""


# -- the Hub text formats ----------------------------------------------------------------------------


def hub_position(position: Position) -> str:
    """The Hub ``pos=`` value: ``W``/``B`` for the side to move, then one character per square
    1..50: ``w``/``b`` a white/black man, ``W``/``B`` a white/black king, ``e`` empty."""
    side = "W" if position.turn is Color.WHITE else "B"
    squares = []
    for square in range(1, 51):
        piece = position.piece_at(square)
        squares.append("e" if piece is None else piece.symbol)
    return side + "".join(squares)


class HubSyntaxError(EngineFailure, ValueError):
    """A line that is not ``<command> <name>=<value> ...`` Hub syntax."""


@dataclasses.dataclass(frozen=True)
class HubLine:
    """One Hub line: its command and its arguments (a flag maps to ``""``)."""

    command: str
    args: Mapping[str, str]


_COMMAND: Final = re.compile(r"[a-z][a-z0-9_-]*")
_NAME: Final = re.compile(r"[^\s=\"]+")


def parse_hub_line(text: str) -> HubLine:
    """Split a Hub line into its command and arguments; :class:`HubSyntaxError` if it is not Hub."""
    position = 0
    length = len(text)

    def skip_blanks(index: int) -> int:
        while index < length and text[index] in " \t":
            index += 1
        return index

    position = skip_blanks(position)
    match = _COMMAND.match(text, position)
    if match is None or (match.end() < length and text[match.end()] not in " \t"):
        raise HubSyntaxError("the line does not start with a command (a lower-case word)")
    command = match.group()
    position = match.end()
    args: dict[str, str] = {}
    while True:
        position = skip_blanks(position)
        if position >= length:
            return HubLine(command, args)
        name_match = _NAME.match(text, position)
        if name_match is None:
            raise HubSyntaxError(f"expected an argument name at column {position + 1}")
        name = name_match.group()
        position = name_match.end()
        value = ""
        if position < length and text[position] == "=":
            position += 1
            if position < length and text[position] == '"':
                close = text.find('"', position + 1)
                if close < 0:
                    raise HubSyntaxError(f"the quoted value of {name!r} is not closed")
                value = text[position + 1 : close]
                position = close + 1
            else:
                start = position
                while position < length and text[position] not in " \t":
                    if text[position] == '"':
                        raise HubSyntaxError(f"a quote inside the unquoted value of {name!r}")
                    position += 1
                value = text[start:position]
            if position < length and text[position] not in " \t":
                raise HubSyntaxError(f"no blank after the value of {name!r} at column {position + 1}")
        elif position < length and text[position] not in " \t":
            raise HubSyntaxError(f"unexpected {text[position]!r} at column {position + 1}")
        args[name] = value


def hub_value(value: str) -> str:
    """A value as Hub writes it: double-quoted if empty or holding a blank or ``=``."""
    if value == "" or any(character in value for character in ' \t="'):
        return '"' + value.replace('"', "'") + '"'
    return value


_STEP: Final = re.compile(r"([0-9]{1,2})-([0-9]{1,2})")
_CAPTURE: Final = re.compile(r"[0-9]{1,2}(?:x[0-9]{1,2})+")


def parse_hub_move(text: str) -> MoveSpec:
    """A Hub move (``32-28`` or ``from x to x captured...``) by identity; ``ValueError`` saying why not."""
    step = _STEP.fullmatch(text)
    if step is not None:
        squares = [int(step.group(1)), int(step.group(2))]
        captured: list[int] = []
    elif _CAPTURE.fullmatch(text):
        squares = [int(part) for part in text.split("x")]
        if len(squares) < 3:
            raise ValueError(
                f"{text!r} is a capture without captured squares (Hub writes from x to x every captured square)"
            )
        captured = squares[2:]
        squares = squares[:2]
    else:
        raise ValueError(f"{text!r} is not a Hub move ('32-28' or 'from x to x captured...')")
    for square in (*squares, *captured):
        if not 1 <= square <= 50:
            raise ValueError(f"{text!r} names square {square}, outside 1-50")
    if len(set(captured)) != len(captured):
        raise ValueError(f"{text!r} lists a captured square twice")
    return MoveSpec(squares[0], squares[1], frozenset(captured))


# -- the adapter --------------------------------------------------------------------------------------


class HubEngine(ProcessEngine, BaseEngine):
    """A Hub engine, certified at the move-choice level (``info.level == "move-choice"``).

    ``command`` is the engine's command line including its Hub switch (``"dame hub"``), split
    with :func:`shlex.split` (or run by ``/bin/sh`` when ``shell``), or an argument list.
    ``timeout`` bounds one position (seconds, from ``new-game`` to ``done``); ``start_timeout``
    the ``hub``/``init`` exchange; ``level`` is what follows ``level`` (``"depth=1"``,
    ``"move-time=0.1"``: a rules check, not a strength test); ``params`` are sent as
    ``set-param`` before ``init``; ``new_game`` sends ``new-game`` before each position (they are
    unrelated); ``restart_budget`` is how often the engine may be restarted after a timeout, a
    crash or a stream out of step; ``cwd`` is the folder the engine runs in (Scan finds its data
    files there); ``trace`` records every line. The engine starts at once (``EngineError("start")``
    if the handshake fails). One position at a time: one instance per worker thread.
    """

    farewell = b"quit\n"
    label = "hub"

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = 10.0,
        start_timeout: float = 10.0,
        level: str = "depth=1",
        params: Mapping[str, str] | None = None,
        new_game: bool = True,
        restart_budget: int = 3,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        shell: bool = False,
        stop_grace: float = 1.0,
        trace: Trace | None = None,
    ) -> None:
        self.command, self._args = split_command(command, shell=shell)
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
        if not level.strip() or "\n" in level:
            raise ValueError(
                f"level must be the arguments of one 'level' line, e.g. 'depth=1', not {level!r}"
            )
        self.level = level.strip()
        self.params = dict(params or {})
        self.new_game = new_game
        self.params_declared: dict[str, dict[str, str]] = {}
        """The ``param`` lines of the handshake, by name."""
        self._info = self._start_engine()

    # -- the Engine interface ----------------------------------------------------------------------

    def choose_move(self, fen: str) -> MoveSpec | None:
        """The engine's move in ``fen`` (``None`` for a bare ``done``: it found no move);
        :class:`PositionRefused` when it answers ``pos`` with ``error`` (or exits on a position
        where a side has no pieces)."""
        try:
            position = Position.from_fen(fen)
        except FenError as error:
            raise EngineDeclined(f"the position cannot be sent over Hub: {error}") from None
        process = self._running()
        deadline = clock.now() + self.timeout
        pos_line = f"pos pos={hub_position(position)}"
        setup = [*(["new-game"] if self.new_game else []), pos_line, f"level {self.level}", "ping"]
        waiting = "'pong' (after 'pos', 'level' and 'ping')"
        try:
            self._send(process, setup)
            errors = self._read_until(process, deadline, "pong", after="ping")
            if errors:
                self._mark = process.output.total
                raise PositionRefused(f"it answered {'; '.join(errors)} to {pos_line!r}")
            waiting = "'done' (after 'go think')"
            self._send(process, ["go think"])
            done = self._read_done(process, deadline)
        except ProcessTimeout:
            raise self._timed_out(f"no {waiting} within {self.timeout:g} s for {pos_line!r}") from None
        except ProcessClosed:
            status = process.ended()
            if not position.squares(Color.WHITE) or not position.squares(Color.BLACK):
                self._lose_freely()
                raise PositionRefused(
                    f"the engine exited on {pos_line!r}, a position where a side has no pieces ({status}); "
                    "it is started again"
                ) from None
            raise self._error(
                "crash", f"the engine exited while answering {pos_line!r} ({status})", lose=True
            ) from None
        except LineTooLong:
            raise self._error("protocol", "the engine wrote an over-long line", lose=True) from None
        except ProtocolViolation as violation:
            raise self._error("protocol", violation.message, lose=violation.lose) from None
        self._mark = process.output.total
        return done

    def __repr__(self) -> str:
        return f"HubEngine({self.command!r})"

    # -- the exchanges -----------------------------------------------------------------------------

    def _send(self, process: EngineProcess, lines: Sequence[str]) -> None:
        process.write("".join(f"{line}\n" for line in lines).encode("utf-8"))

    def _next_line(self, process: EngineProcess, deadline: float) -> HubLine | None:
        """The next line, parsed (``None`` for a blank line)."""
        return self._parse_line(process.read_line(deadline))

    def _parse_line(self, raw: bytes) -> HubLine | None:
        """A line read, parsed (``None`` for a blank line); ProtocolViolation if it is not Hub."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolViolation(
                f"the engine wrote a line that is not UTF-8: {preview(raw)}", lose=True
            ) from None
        if not text.strip():
            return None
        try:
            return parse_hub_line(text)
        except HubSyntaxError as error:
            raise ProtocolViolation(
                f"the engine wrote a line that is not Hub: {preview(text)} ({error})", lose=True
            ) from None

    def _read_until(self, process: EngineProcess, deadline: float, command: str, *, after: str) -> list[str]:
        """Read up to the ``command`` line; the ``error`` lines met on the way, as text."""
        errors: list[str] = []
        while True:
            line = self._next_line(process, deadline)
            if line is None:
                continue
            if line.command == command:
                return errors
            if line.command == "error":
                errors.append(f"error message={hub_value(line.args.get('message', ''))}")
            elif line.command in ("done", "info", "wait", "ready", "id", "param", "pong"):
                raise ProtocolViolation(
                    f"the engine wrote {line.command!r} after {after!r}, where only {command!r} was due",
                    lose=True,
                )
            # any other command: unknown, ignored (Hub's rule for extensions)

    def _read_done(self, process: EngineProcess, deadline: float) -> MoveSpec | None:
        while True:
            line = self._next_line(process, deadline)
            if line is None or line.command == "info":
                continue
            if line.command == "error":
                raise ProtocolViolation(
                    f"the engine answered 'go think' with error message={hub_value(line.args.get('message', ''))}",
                    lose=True,
                )
            if line.command in ("pong", "wait", "ready", "id", "param"):
                raise ProtocolViolation(f"the engine wrote {line.command!r} during its search", lose=True)
            if line.command != "done":
                continue
            if "move" not in line.args:
                return None  # a bare 'done': no move (a position without a legal move)
            try:
                return parse_hub_move(line.args["move"])
            except ValueError as error:
                raise ProtocolViolation(
                    f"the engine's 'done move=' is not a move: {error}", lose=False
                ) from None

    # -- starting, restarting, errors --------------------------------------------------------------

    def _start(self) -> EngineInfo:
        """Start the engine and hold the ``hub``/``init`` exchange; ``EngineError("start")`` on failure."""
        process = self._spawn(self._args, self._env)

        def fail(message: str) -> EngineError:
            return self._start_failed(process, message)

        deadline = clock.now() + self.start_timeout
        ids: dict[str, str] = {}
        params: dict[str, dict[str, str]] = {}
        stage = "'hub'"
        lines_read = bytes_read = 0

        def read() -> bytes:
            nonlocal lines_read, bytes_read
            raw = process.read_line(deadline)
            lines_read, bytes_read = lines_read + 1, bytes_read + len(raw) + 1
            if lines_read > MAX_HANDSHAKE_LINES or bytes_read > MAX_HANDSHAKE_BYTES:
                raise ProtocolViolation(
                    f"the engine wrote more than {MAX_HANDSHAKE_LINES} lines or {MAX_HANDSHAKE_BYTES // 1024} KiB "
                    f"before 'ready' ({lines_read} lines, {bytes_read} bytes)",
                    lose=True,
                )
            return raw

        try:
            self._send(process, ["hub"])
            while True:
                line = self._parse_line(read())
                if line is None:
                    continue
                if line.command == "wait":
                    break
                if line.command == "id":
                    ids.update(line.args)
                elif line.command == "param" and "name" in line.args:
                    params[line.args["name"]] = dict(line.args)
                elif line.command == "error":
                    raise ProtocolViolation(
                        f"error message={hub_value(line.args.get('message', ''))} in answer to 'hub'",
                        lose=True,
                    )
            lines = [
                f"set-param name={hub_value(name)} value={hub_value(value)}"
                for name, value in self.params.items()
            ]
            self._send(process, [*lines, "init"])
            stage = "'init'"
            while True:  # between 'init' and 'ready' the engine may print anything: ignored
                raw = read()
                text = raw.decode("utf-8", errors="replace").strip()
                if text == "ready" or text.startswith(("ready ", "ready\t")):
                    break
                if text.startswith("error ") or text == "error":
                    raise ProtocolViolation(f"{text} in answer to 'init'", lose=True)
        except ProcessTimeout:
            expected = "'wait'" if stage == "'hub'" else "'ready'"
            raise fail(f"no {expected} within {self.start_timeout:g} s of {stage}") from None
        except ProcessClosed:
            raise fail(f"the engine exited during the {stage} exchange ({process.ended()})") from None
        except LineTooLong:
            raise fail(f"the engine wrote an over-long line during the {stage} exchange") from None
        except ProtocolViolation as violation:
            raise fail(f"the {stage} exchange failed: {violation.message}") from None
        self._process = process
        self._mark = process.output.total
        self.params_declared = params
        return EngineInfo(
            name=ids.get("name") or Path(self.command.split()[0] if self.command.split() else "hub").name,
            version=ids.get("version") or "unknown",
            capabilities=frozenset({Capability.CHOOSE_MOVE}),
            adapter=f"hub:{self.command}",
            level=LEVEL_MOVE_CHOICE,
        )

    def _running(self) -> EngineProcess:
        """The engine process (restarted if the last one was lost); a ``crash`` if it exited since."""
        process = self._process
        if process is not None and not process.running():
            raise self._error("crash", f"the engine exited between positions ({process.ended()})", lose=True)
        return super()._running()

    def _restart_problem(self, info: EngineInfo) -> str | None:
        if info == self._info:
            return None
        return f"the restarted engine announced {info.name} {info.version}, not {self._info.name} {self._info.version}"
