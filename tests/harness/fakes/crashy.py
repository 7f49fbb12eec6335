"""The oracle's JSON-lines server with a fault: it exits (status 3) on about one request in
--every, chosen by the request's content (its CRC-32), so it crashes on the same questions
whatever the order they come in or the process that gets them. --pipeline N declares N requests
in flight (1: none). Not standard library only: it wraps the oracle's server."""

import argparse
import json
import os
import sys
import zlib
from typing import Any

from conformance.servers import oracle_jsonl

arguments = argparse.ArgumentParser(description=__doc__)
arguments.add_argument("--every", type=int, default=30)
arguments.add_argument("--pipeline", type=int, default=1)
options = arguments.parse_args()
answer = oracle_jsonl.answer


def crashing(engine: Any, request: dict[str, Any], *game: Any) -> dict[str, Any]:
    body = json.dumps({key: value for key, value in request.items() if key != "seq"}, sort_keys=True)
    if zlib.crc32(body.encode("utf-8")) % options.every == 0:
        sys.stderr.write(f"crashy: giving up on {body[:60]}\n")
        sys.stderr.flush()
        os._exit(3)
    return answer(engine, request, *game)


oracle_jsonl.answer = crashing  # type: ignore[assignment]
sys.exit(
    oracle_jsonl.serve(
        oracle_jsonl.oracle_engine(),
        sys.stdin.buffer,
        sys.stdout.buffer,
        sys.stderr,
        pipeline=options.pipeline,
    )
)
