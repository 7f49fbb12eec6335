"""A fake engine that pipelines (it declares 4 requests in flight) and answers out of order: it
waits for a second request (up to 0.5 s) and answers the later one first. It answers ``fen`` with
the FEN echoed as valid, and every other request with ``declined`` naming the request's seq."""

import json
import os
import select
from typing import Any

from _fake import send, started

buffer = b""


def next_line(wait: float | None) -> bytes | None:
    """The next line of stdin; ``None`` if none came within ``wait`` seconds; ``b""`` at its end."""
    global buffer
    while b"\n" not in buffer:
        if wait is not None and not select.select([0], [], [], wait)[0]:
            return None
        chunk = os.read(0, 65536)
        if not chunk:
            return b""
        buffer += chunk
    line, _, buffer = buffer.partition(b"\n")
    return line


def answer(request: dict[str, Any]) -> None:
    if request["op"] == "fen":
        send({"type": "response", "seq": request["seq"], "valid": True, "position": request["fen"]})
    else:
        send({"type": "response", "seq": request["seq"], "declined": f"seq {request['seq']}"})


next_line(None)  # start
started(capabilities=["fen", "legal_moves"], pipeline=4)
while True:
    line = next_line(None)
    if not line:
        break
    first = json.loads(line)
    if first["type"] == "stop":
        break
    line = next_line(0.5)
    if not line:
        answer(first)
        if line == b"":
            break
        continue
    second = json.loads(line)
    if second["type"] == "stop":
        answer(first)
        break
    answer(second)
    answer(first)
