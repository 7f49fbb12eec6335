"""A JSON-lines engine whose every answer is a text of megabytes: it declines the legal moves of
each position with a 1 MiB reason, answers every other question with an error of 1 MiB (and
writes 1 MiB to stderr), and plays a 1 MiB move. Each text fits the protocol's line limit."""

import json
import sys

from conformance.engines.oracle_engine import OracleEngine

HUGE = "blah " * 200_000
engine = OracleEngine()
out = sys.stdout
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"] if message["type"] != "request" else message["op"]
    if kind == "start":
        capabilities = sorted(c.value for c in engine.info.capabilities)
        started = {"type": "started", "protocol": 1, "engine": {"name": "verbose", "version": "0"}}
        out.write(json.dumps({**started, "capabilities": capabilities}) + "\n")
    elif kind == "stop":
        break
    elif kind == "legal_moves":
        out.write(json.dumps({"type": "response", "seq": message["seq"], "declined": HUGE}) + "\n")
    elif kind == "play":
        out.write(json.dumps({"type": "response", "seq": message["seq"], "position": HUGE}) + "\n")
    else:
        sys.stderr.write(HUGE + "\n")
        out.write(json.dumps({"type": "response", "seq": message["seq"], "error": HUGE}) + "\n")
    out.flush()
