"""A fake engine that takes --delay seconds over every answer (in --steps sleeps: time it was
stopped does not count as thinking)."""

import argparse
import time
from typing import Any

from _fake import default_answer, serve, started

parser = argparse.ArgumentParser()
parser.add_argument("--delay", type=float, required=True)
parser.add_argument("--pipeline", type=int, help="requests in flight to declare")
parser.add_argument("--steps", type=int, default=1, help="sleeps the delay is taken in")
options = parser.parse_args()


def handle(request: dict[str, Any]) -> dict[str, Any]:
    for _ in range(options.steps):
        time.sleep(options.delay / options.steps)
    return default_answer(request)


serve(handle, on_start=lambda: started(pipeline=options.pipeline))
