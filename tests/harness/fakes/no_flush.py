"""A fake engine that never flushes stdout: its lines wait in its output buffer until it exits
(what a Python engine printing to a pipe without ``flush=True`` does)."""

import json
import sys

# block-buffered whatever the environment says; the lines come out only when it is closed, at exit
with open(sys.stdout.fileno(), "w", buffering=1 << 16, closefd=False) as out:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            reply = {"type": "started", "protocol": 1, "engine": {"name": "no-flush", "version": "0"}}
            out.write(json.dumps({**reply, "capabilities": ["fen"]}) + "\n")  # no flush
        elif message["type"] == "stop":
            break
        else:
            out.write(json.dumps({"type": "response", "seq": message["seq"], "declined": "no"}) + "\n")
