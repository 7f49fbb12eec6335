"""A JSON-lines engine that does almost no work (standard library only), to time the harness.

    python benchmarks/fast_engine.py [--pipeline N]

It answers ``fen`` (the FEN echoed as valid) and ``legal_moves`` (one fixed move) at once, and
declares ``"pipeline": N`` in ``started`` when N > 1. It reads what has arrived on its stdin and
answers every complete request of it in one write: one request at a time that is one write per
answer; pipelined, the answers to the requests that came together go out together (it never holds
an answer while it waits for input). What a request costs against it is the harness's and the
protocol's overhead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

MOVES = b'[{"from":28,"to":39,"captured":[33]}]'


def answer(line: bytes, pipeline: int) -> bytes | None:
    """The answer to one line; ``None`` for ``stop``."""
    message = json.loads(line)
    kind = message.get("type")
    if kind == "start":
        started = {
            "type": "started",
            "protocol": 1,
            "minor": 1,
            "engine": {"name": "fast", "version": "0"},
            "capabilities": ["fen", "legal_moves"],
        }
        if pipeline > 1:
            started["pipeline"] = pipeline
        return json.dumps(started).encode() + b"\n"
    if kind == "stop":
        return None
    if message.get("op") == "fen":
        position = json.dumps(message["fen"]).encode()
        return b'{"type":"response","seq":%d,"valid":true,"position":%s}\n' % (message["seq"], position)
    return b'{"type":"response","seq":%d,"moves":%s}\n' % (message["seq"], MOVES)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipeline", type=int, default=1)
    options = parser.parse_args()
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return 0
        *lines, pending = (pending + chunk).split(b"\n")
        out = []
        for line in lines:
            reply = answer(line, options.pipeline)
            if reply is None:
                os.write(1, b"".join(out))
                return 0
            out.append(reply)
        if out:
            os.write(1, b"".join(out))


if __name__ == "__main__":
    sys.exit(main())
