"""A fake engine that crashes on one operation (exit status 3, or SIGABRT with --signal), after
writing --noise bytes to stderr."""

import argparse
import os
import sys
from typing import Any

from _fake import default_answer, log, serve, started

parser = argparse.ArgumentParser()
parser.add_argument("--op", default="legal_moves")
parser.add_argument("--signal", action="store_true")
parser.add_argument("--noise", type=int, default=0)
parser.add_argument("--pipeline", type=int, help="requests in flight to declare")
options = parser.parse_args()


def handle(request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] == options.op:
        sys.stderr.write("noise " * (options.noise // 6))
        log(f"fake engine: cannot cope with {request['op']}, giving up")
        if options.signal:
            os.abort()
        sys.exit(3)
    return default_answer(request)


serve(handle, on_start=lambda: started(pipeline=options.pipeline))
