"""Plumbing shared by the fake DXP followers (standard library only; no rules at all).

A fake listens on 127.0.0.1:$DXP_PORT and serves one connection. It accepts every game request
(``GAMEACC`` code 0) and answers from a table given on its command line (``--answer KEY=MOVE``:
the colour to move and the 50 squares of the ``GAMEREQ``, and the raw ``MOVE`` message, or ``E``
for a ``GAMEEND`` "I lose"); in a position not in the table it misbehaves, each fake in its own
way. ``GAMEEND`` is confirmed; stop code 1 ends the fake.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from collections.abc import Callable

NAME = "fake follower"


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def parser(description: str) -> argparse.ArgumentParser:
    arguments = argparse.ArgumentParser(description=description)
    arguments.add_argument("--answer", action="append", default=[], metavar="KEY=MOVE")
    return arguments


class Link:
    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection

    def send(self, *messages: str) -> None:
        self.connection.sendall(b"".join(message.encode("ascii") + b"\0" for message in messages))

    def send_raw(self, data: bytes) -> None:
        self.connection.sendall(data)


def accept_code(link: Link, code: str = "0") -> None:
    link.send(f"A{NAME.ljust(32)}{code}")


def serve(
    answers: list[str],
    misbehave: Callable[[Link, str], None],
    *,
    on_request: Callable[[Link, str], bool] | None = None,
) -> None:
    """``misbehave(link, key)`` runs after accepting a game in an unknown position;
    ``on_request(link, message)`` may answer a ``GAMEREQ`` itself (returning True)."""
    table = dict(answer.split("=", 1) for answer in answers)
    with socket.create_server(("127.0.0.1", int(os.environ["DXP_PORT"]))) as server:
        connection, _ = server.accept()
    link = Link(connection)
    buffer = b""
    playing = False
    while True:
        chunk = connection.recv(4096)
        if not chunk:
            return
        buffer += chunk
        while b"\0" in buffer:
            raw, buffer = buffer.split(b"\0", 1)
            message = raw.decode("ascii")
            if message.startswith("R"):
                if on_request is not None and on_request(link, message):
                    continue
                accept_code(link)
                playing = True
                if message[42] == "A":
                    continue  # the probe game: the initiator moves first
                key = message[43:94]
                if key in table:
                    answer = table[key]
                    if answer == "E":
                        playing = False
                        link.send("E10")
                    else:
                        link.send(answer)
                else:
                    misbehave(link, key)
            elif message.startswith("E"):
                if playing:
                    link.send("E0" + message[2])
                playing = False
                if message[2] == "1":
                    return
