"""A JSON-lines engine that does almost no work (standard library only), to time the harness.

    python benchmarks/fast_engine.py [--pipeline N]

It answers ``fen`` (the FEN echoed as valid) and ``legal_moves`` (one fixed move) at once, and
declares ``"pipeline": N`` in ``started`` when N > 1: it reads one request at a time and answers
it before reading the next, flushing after each line, as any engine may. What a request costs
against it is the harness's and the protocol's overhead.
"""

from __future__ import annotations

import argparse
import json
import sys

MOVES = '[{"from":28,"to":39,"captured":[33]}]'


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipeline", type=int, default=1)
    options = parser.parse_args()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
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
            if options.pipeline > 1:
                started["pipeline"] = options.pipeline
            out.write(json.dumps(started).encode() + b"\n")
        elif kind == "stop":
            return 0
        elif message.get("op") == "fen":
            body = '"valid":true,"position":' + json.dumps(message["fen"])
            out.write(b'{"type":"response","seq":%d,%s}\n' % (message["seq"], body.encode()))
        else:
            out.write(b'{"type":"response","seq":%d,"moves":%s}\n' % (message["seq"], MOVES.encode()))
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
