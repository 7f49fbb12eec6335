"""A starter JSON-lines engine for draughts-conformance (standard library only): it answers
'start' and 'stop' and declines every request until you fill its handlers in.

    draughts-conformance run      # in this folder: draughts-conformance.toml names this engine
    draughts-conformance run jsonl:"python3 engine.py"      # the same, without the settings file

One JSON object per line in, one per line out, flushed; logs go to stderr. The protocol, with an
example of every request and answer: docs/protocol.md.
"""

import json
import sys

NAME, VERSION, PROTOCOL = "my-engine", "0.1", 1


class Declined(Exception):
    """Raised by a handler that will not answer: the harness records a skip (not scored)."""


def not_yet(request):
    raise Declined(f"{request['op']} is not implemented yet")


# One handler per operation: it gets the request and returns the answer's keys, e.g.
#   legal_moves -> {"moves": [{"from": 32, "to": 28, "captured": []}, ...]}   perft -> {"count": 9}
# Remove the operations you will never answer: their questions become 'unsupported', not 'skip'.
OPERATIONS = "fen initial_position legal_moves move_count perft play parse_move format_move outcome"
HANDLERS = dict.fromkeys(OPERATIONS.split(), not_yet)


def respond(request):
    reply = {"type": "response", "seq": request["seq"]}
    try:
        return {**reply, **HANDLERS[request["op"]](request)}
    except Declined as reason:
        return {**reply, "declined": str(reason)}
    except Exception as error:  # report it and go on: a crash would end the session
        return {**reply, "error": f"{type(error).__name__}: {error}"}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            reply = {"type": "started", "protocol": PROTOCOL, "engine": {"name": NAME, "version": VERSION}}
            reply["capabilities"] = sorted(HANDLERS)
        elif message["type"] == "request":
            reply = respond(message)
        else:  # "stop"
            return
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
