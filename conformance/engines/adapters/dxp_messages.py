"""The DXP message format (DamExchange 1.0): the messages the harness sends and reads, as text.

Each message is printable ASCII, 1-127 characters (:data:`MAX_MESSAGE`), followed by one NUL byte
on the wire; numbers are zero-padded decimal, names space-padded to 32 characters
(``docs/adapters-hub-dxp.md`` has the table)::

    GAMEREQ  R 01 <initiator name, 32> <follower colour W|Z> <minutes 3> <moves 3> A
                                                     (or B <colour to move W|Z> <50 squares e|w|z|W|Z>)
    GAMEACC  A <follower name, 32> <code 0-3>        (0 accepted; 1, 2, 3: :data:`REFUSALS`)
    MOVE     M <seconds 4> <from 2> <to 2> <n 2> <captured 2 each, any order>
    GAMEEND  E <reason 0-3> <stop 0|1>               (:data:`END_REASONS`; stop 1: no more games)
    CHAT     C <text>
    BACKREQ  B <move number 3> <colour W|Z>          (BACKACC: K <code>)

:func:`game_request` writes a ``GAMEREQ`` (:func:`dxp_board` the squares, :func:`time_control` the
time control closest to a time per move); :func:`parse_message` reads what the follower sends into
the frozen dataclasses below, or :class:`DxpProtocolError` saying what is wrong. Text only: the
connection and its sessions are :mod:`conformance.engines.adapters.dxp_session`'s, the engine
:mod:`conformance.engines.adapters.dxp`'s.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from conformance.core.errors import EngineFailure
from conformance.core.protocol import MoveSpec
from oracle.position import Color, Kind, Position

DEFAULT_PORT: Final = 27531
"""The DamExchange port."""
MAX_MESSAGE: Final = 127
"""A DXP message is 1-127 characters (before its NUL)."""
INITIATOR_NAME: Final = "draughts-conformance"
"""The name the harness gives itself in a ``GAMEREQ``."""

REFUSALS: Final = {
    "1": "wrong protocol version",
    "2": "not this game (colour, time, moves or position)",
    "3": "no games at all",
}
END_REASONS: Final = {"0": "no result given", "1": "the sender loses", "2": "draw", "3": "the sender wins"}


# -- what the follower sends ---------------------------------------------------------------------------


class DxpProtocolError(EngineFailure, ValueError):
    """A message that is not DXP, or not the one that was due."""


@dataclasses.dataclass(frozen=True)
class GameAccept:
    """``A``: the follower's answer to a ``GAMEREQ``."""

    name: str
    code: str


@dataclasses.dataclass(frozen=True)
class MoveMessage:
    """``M``: a move, by identity (from, to, captured set)."""

    seconds: int
    move: MoveSpec


@dataclasses.dataclass(frozen=True)
class GameEnd:
    """``E``: the end of a game (``reason`` 0-3, ``stop`` 0 = more games welcome, 1 = no more)."""

    reason: str
    stop: str


@dataclasses.dataclass(frozen=True)
class Chat:
    """``C``: a ``CHAT`` message, free text."""

    text: str


@dataclasses.dataclass(frozen=True)
class BackRequest:
    """``B``: a ``BACKREQ``, a request to take moves back to ``move_number`` with ``colour`` to move."""

    move_number: int
    colour: str


@dataclasses.dataclass(frozen=True)
class Other:
    """A well-formed message the initiator never expects (``R``, ``K``)."""

    header: str
    text: str


Message = GameAccept | MoveMessage | GameEnd | Chat | BackRequest | Other

_DIGITS: Final = re.compile(r"[0-9]+")


def _number(text: str, start: int, width: int, what: str) -> int:
    field = text[start : start + width]
    if len(field) != width or not _DIGITS.fullmatch(field):
        raise DxpProtocolError(f"{what}: expected {width} digits at offset {start}, got {field!r}")
    return int(field)


def parse_message(text: str) -> Message:
    """One received message (without its NUL); :class:`DxpProtocolError` saying what is wrong."""
    if not 1 <= len(text) <= MAX_MESSAGE:
        raise DxpProtocolError(f"a DXP message is 1-{MAX_MESSAGE} characters, this one {len(text)}")
    if not all(" " <= character <= "~" for character in text):
        raise DxpProtocolError(f"a DXP message is printable ASCII: {text!r}")
    header = text[0]
    if header == "A":
        if len(text) != 34 or text[33] not in "0123":
            raise DxpProtocolError(f"GAMEACC is 'A' + name (32) + code (0-3), 34 characters: {text!r}")
        return GameAccept(text[1:33].rstrip(), text[33])
    if header == "M":
        seconds = _number(text, 1, 4, "MOVE time")
        from_square = _number(text, 5, 2, "MOVE from")
        to_square = _number(text, 7, 2, "MOVE to")
        count = _number(text, 9, 2, "MOVE number of captured pieces")
        if len(text) != 11 + 2 * count:
            raise DxpProtocolError(
                f"MOVE with {count} captured pieces is {11 + 2 * count} characters, not {len(text)}: {text!r}"
            )
        captured = [_number(text, 11 + 2 * index, 2, "MOVE captured square") for index in range(count)]
        for square in (from_square, to_square, *captured):
            if not 1 <= square <= 50:
                raise DxpProtocolError(f"MOVE names square {square}, outside 1-50: {text!r}")
        if len(set(captured)) != len(captured):
            raise DxpProtocolError(f"MOVE lists a captured square twice: {text!r}")
        return MoveMessage(seconds, MoveSpec(from_square, to_square, frozenset(captured)))
    if header == "E":
        if len(text) != 3 or text[1] not in "0123" or text[2] not in "01":
            raise DxpProtocolError(f"GAMEEND is 'E' + reason (0-3) + stop code (0-1): {text!r}")
        return GameEnd(text[1], text[2])
    if header == "C":
        return Chat(text[1:])
    if header == "B":
        if len(text) != 5 or text[4] not in "WZ":
            raise DxpProtocolError(f"BACKREQ is 'B' + move number (3) + colour (W/Z): {text!r}")
        return BackRequest(_number(text, 1, 3, "BACKREQ move number"), text[4])
    if header in "RK":
        return Other(header, text)
    raise DxpProtocolError(f"unknown DXP message type {header!r}: {text!r}")


# -- what the initiator sends ---------------------------------------------------------------------------


def dxp_colour(colour: Color) -> str:
    return "W" if colour is Color.WHITE else "Z"


def dxp_board(position: Position) -> str:
    """The 50 squares as DXP writes them: ``e`` empty, ``w``/``z`` white/black man, ``W``/``Z`` kings."""
    letters = []
    for square in range(1, 51):
        piece = position.piece_at(square)
        if piece is None:
            letters.append("e")
        else:
            letter = dxp_colour(piece.color)
            letters.append(letter if piece.kind is Kind.KING else letter.lower())
    return "".join(letters)


def game_request(
    position: Position | None,
    *,
    follower: Color,
    minutes: int,
    moves: int,
    name: str = INITIATOR_NAME,
) -> str:
    """A ``GAMEREQ``: ``position`` (``None``: the initial position, ``A``) with ``follower``'s colour."""
    if not 0 <= minutes <= 999 or not 0 <= moves <= 999:
        raise ValueError(f"DXP time and moves are 0-999 (3 digits), not {minutes!r} and {moves!r}")
    if not name or name[0] == " " or not all(" " <= character <= "~" for character in name):
        raise ValueError(f"the initiator name must be printable ASCII not starting with a blank: {name!r}")
    head = f"R01{name[:32].ljust(32)}{dxp_colour(follower)}{minutes:03d}{moves:03d}"
    if position is None:
        return head + "A"
    return f"{head}B{dxp_colour(position.turn)}{dxp_board(position)}"


def time_control(move_time: float) -> tuple[int, int]:
    """The ``GAMEREQ`` time control (minutes, moves) closest to ``move_time`` seconds a move, for an
    engine that shares its time evenly (DXP has no time per move: 1 minute for 999 moves is 0.06 s)."""
    if not move_time > 0:
        raise ValueError(f"the time per move must be a positive number of seconds, not {move_time!r}")
    if move_time <= 60:
        return max(1, min(999, round(move_time * 999 / 60))), 999
    return 999, max(1, round(999 * 60 / move_time))
