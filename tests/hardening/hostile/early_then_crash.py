"""A pipelining JSON-lines engine that answers its first two requests in reverse order (as the
protocol allows), and exits instead of answering the first when it is ``legal_moves``; then it
answers in order. The answer it gave early belongs to its own request: the crash must not cost
it (it is asked again), nor make it an error."""

import json
import sys


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request: dict) -> dict:
    if request["op"] == "fen":
        return {"type": "response", "seq": request["seq"], "valid": True, "position": request["fen"]}
    return {"type": "response", "seq": request["seq"], "declined": "only fen"}


lines = iter(sys.stdin)
next(lines)  # start
send(
    {
        "type": "started",
        "protocol": 1,
        "minor": 1,
        "pipeline": 4,
        "engine": {"name": "early", "version": "0"},
        "capabilities": ["fen", "legal_moves"],
    }
)
first = json.loads(next(lines))
second = json.loads(next(lines))
send(answer(second))
if first["op"] == "legal_moves":
    sys.exit(1)
send(answer(first))
for line in lines:
    request = json.loads(line)
    if request["type"] == "stop":
        break
    send(answer(request))
