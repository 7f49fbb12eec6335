"""Plumbing shared by the fake engines: the start exchange and a request loop (stdlib only).

The fakes misbehave on purpose, each in one way, to show that the harness reports every
misbehaviour as the right ``error`` (or ``fail``) and goes on. They are not engines: besides
their misbehaviour they answer as :func:`default_answer` says.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

CAPABILITIES = ["fen", "legal_moves", "move_count"]


def send(message: Any) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def started(protocol: int = 1, capabilities: list[str] = CAPABILITIES) -> None:
    send(
        {
            "type": "started",
            "protocol": protocol,
            "engine": {"name": "fake", "version": "0"},
            "capabilities": capabilities,
        }
    )


def default_answer(request: dict[str, Any]) -> dict[str, Any]:
    """``fen``: the FEN echoed as valid; ``move_count``: an ``error`` response; the rest declined."""
    if request["op"] == "fen":
        return {"valid": True, "position": request["fen"]}
    if request["op"] == "move_count":
        log("fake engine: move_count failed")
        return {"error": "fake engine: the move counter is broken"}
    return {"declined": f"the fake does not answer {request['op']}"}


def serve(
    handle: Callable[[dict[str, Any]], dict[str, Any] | None] = default_answer,
    *,
    start: bool = True,
    on_start: Callable[[], None] = started,
) -> None:
    """Answer ``start`` with ``on_start`` (unless ``start`` is false), then each request with
    ``handle``'s answer (``None``: ``handle`` has answered itself); exit on ``stop`` or end of input."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            if start:
                on_start()
        elif message["type"] == "stop":
            return
        else:
            answer = handle(message)
            if answer is not None:
                send({"type": "response", "seq": message["seq"], **answer})
