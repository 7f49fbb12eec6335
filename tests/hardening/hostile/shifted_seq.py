"""A pipelining JSON-lines engine that answers every request right, but under the ``seq`` of the
request after it (``seq + 1``): each answer is filed under another question. It declares a
pipeline of 8, so that several answers are in flight before the shift shows."""

import json
import sys

from conformance.engines.oracle_engine import OracleEngine
from conformance.servers.oracle_jsonl import answer

engine = OracleEngine()
out = sys.stdout
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        capabilities = sorted(c.value for c in engine.info.capabilities)
        started = {"type": "started", "protocol": 1, "minor": 1, "pipeline": 8}
        out.write(
            json.dumps(
                {**started, "engine": {"name": "shifted", "version": "0"}, "capabilities": capabilities}
            )
            + "\n"
        )
    elif message["type"] == "stop":
        break
    else:
        response = answer(engine, message)
        response["seq"] = message["seq"] + 1
        out.write(json.dumps(response) + "\n")
    out.flush()
