"""A fake engine that writes every line it receives to the file named by --log, declares every
capability and declines every request (to check what the harness sends)."""

import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--log", required=True)
options = parser.parse_args()

CAPABILITIES = [
    "fen",
    "legal_moves",
    "move_count",
    "perft",
    "play",
    "parse_move",
    "format_move",
    "outcome",
    "initial_position",
    "choose_move",
]
with open(options.log, "a", encoding="utf-8") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        message = json.loads(line)
        if message["type"] == "start":
            reply = {"type": "started", "protocol": 1, "engine": {"name": "recorder", "version": "0"}}
            reply["capabilities"] = CAPABILITIES
        elif message["type"] == "stop":
            break
        else:
            reply = {"type": "response", "seq": message["seq"], "declined": "recording only"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
