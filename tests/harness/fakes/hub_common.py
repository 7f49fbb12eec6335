"""Plumbing shared by the fake Hub engines (standard library only; no rules at all).

A fake answers ``go`` from a table given on its command line (``--answer POS=MOVE``: the Hub
``pos=`` value and the ``done move=`` value, ``-`` for a bare ``done``) and misbehaves, each in
its own way, in every position not in the table. The handshake, ``ping`` and ``quit`` work.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def parser(description: str) -> argparse.ArgumentParser:
    arguments = argparse.ArgumentParser(description=description)
    arguments.add_argument("--answer", action="append", default=[], metavar="POS=MOVE")
    return arguments


def serve(
    answers: list[str],
    misbehave: Callable[[str], None],
    *,
    on_pos: Callable[[str], bool] | None = None,
    on_hub: Callable[[], None] | None = None,
    on_ping: Callable[[], None] | None = None,
) -> None:
    """The Hub loop; ``misbehave(pos)`` runs on ``go`` in an unknown position; ``on_pos(pos)``
    may answer ``pos`` itself (returning True); ``on_hub`` and ``on_ping`` replace the answers
    to ``hub`` and ``ping``."""
    table = dict(answer.split("=", 1) for answer in answers)
    position = ""
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "hub":
            if on_hub is not None:
                on_hub()
                continue
            send("id name=fake version=0")
            send("wait")
        elif command == "init":
            send("ready")
        elif command == "ping":
            if on_ping is not None:
                on_ping()
                continue
            send("pong")
        elif command == "pos":
            position = words[1].removeprefix("pos=")
            if on_pos is not None:
                on_pos(position)
        elif command == "go":
            if position in table:
                move = table[position]
                send("done" if move == "-" else f"done move={move}")
            else:
                misbehave(position)
        elif command == "quit":
            return
