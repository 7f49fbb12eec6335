"""The oracle's JSON-lines server with one fault that depends on the position asked about:
--crash-on-king exits (status 3) when the position has a king; --garbage-on-capture prints a line
that is not JSON instead of answering when the side to move can capture; --hang-on-king never
answers when the position has a king. Every other request gets the oracle's answer, so the fault
is the only thing wrong with it. Not standard library only: it wraps the oracle's server."""

import argparse
import sys
import time
from typing import Any

from conformance.servers import oracle_jsonl
from oracle.moves import legal_moves
from oracle.position import Color, Position

arguments = argparse.ArgumentParser(description=__doc__)
arguments.add_argument("--crash-on-king", action="store_true")
arguments.add_argument("--garbage-on-capture", action="store_true")
arguments.add_argument("--hang-on-king", action="store_true")
options = arguments.parse_args()
answer = oracle_jsonl.answer


def position_of(request: dict[str, Any]) -> Position | None:
    try:
        return Position.from_fen(request["fen"])
    except (KeyError, ValueError, TypeError):
        return None


def faulty(engine: Any, request: dict[str, Any], *game: Any) -> dict[str, Any]:
    position = position_of(request)
    if position is not None and request.get("op") != "fen":
        has_king = any(position.kings(color) for color in Color)
        if options.crash_on_king and has_king:
            sys.stderr.write(f"faulty: a king on the board of {request['fen']}, giving up\n")
            sys.stderr.flush()
            sys.exit(3)
        if options.hang_on_king and has_king:
            while True:
                time.sleep(60)
        if options.garbage_on_capture and any(move.captured for move in legal_moves(position)):
            sys.stdout.buffer.write(b"capture found, thinking... (not JSON)\n")
            sys.stdout.buffer.flush()
            return answer(engine, request, *game)  # the answer follows the garbage: too late
    return answer(engine, request, *game)


oracle_jsonl.answer = faulty  # type: ignore[assignment]
sys.exit(
    oracle_jsonl.serve(
        oracle_jsonl.oracle_engine(), sys.stdin.buffer, sys.stdout.buffer, sys.stderr, pipeline=1
    )
)
