"""A fake engine that breaks the protocol in one way, chosen with --violation."""

import argparse
import sys
from typing import Any

from _fake import default_answer, send, serve, started

VIOLATIONS = [
    "wrong-seq",
    "missing-start",
    "wrong-version",
    "extra-line",
    "log-line",
    "bad-schema",
    "started-schema",
    "banner",
    "deep-start",
    "deep-answer",
]
DEEP = "[" * 100_000 + "]" * 100_000
parser = argparse.ArgumentParser()
parser.add_argument("--violation", choices=VIOLATIONS, required=True)
violation = parser.parse_args().violation


def handle(request: dict[str, Any]) -> dict[str, Any] | None:
    answer = default_answer(request)
    if violation == "wrong-seq":
        send({"type": "response", "seq": request["seq"] + 1, **answer})
        return None
    if violation == "extra-line":
        send({"type": "response", "seq": request["seq"], **answer})
        send({"type": "response", "seq": request["seq"], **answer})
        return None
    if violation == "log-line":
        sys.stdout.write("info: thinking about it\n")
    if violation == "deep-answer":
        sys.stdout.write(f'{{"type": "response", "seq": {request["seq"]}, "valid": {DEEP}}}\n')
        sys.stdout.flush()
        return None
    if violation == "bad-schema":
        if request["op"] == "legal_moves":
            return {"moves": [{"from": 28, "to": 39, "captures": [33]}]}  # 'captures' for 'captured'
        if request["op"] == "fen":
            return {"valid": "yes", "position": request["fen"]}
    return answer


if violation == "wrong-version":
    sys.stdin.readline()
    started(protocol=2)
    sys.stdin.read()
elif violation == "banner":
    sys.stdin.readline()
    sys.stdout.write("MyEngine 1.0, (c) A. Author\n")
    started()
    serve(handle, start=False)
elif violation == "deep-start":
    sys.stdin.readline()
    sys.stdout.write(DEEP + "\n")
    sys.stdout.flush()
    sys.stdin.read()
elif violation == "started-schema":
    sys.stdin.readline()
    started(capabilities=["legal_moves", "best_move"])
    sys.stdin.read()
else:
    serve(handle, start=violation != "missing-start")
