"""A fake engine that takes --delay seconds over every answer."""

import argparse
import time
from typing import Any

from _fake import default_answer, serve, started

parser = argparse.ArgumentParser()
parser.add_argument("--delay", type=float, required=True)
parser.add_argument("--pipeline", type=int, help="requests in flight to declare")
options = parser.parse_args()


def handle(request: dict[str, Any]) -> dict[str, Any]:
    time.sleep(options.delay)
    return default_answer(request)


serve(handle, on_start=lambda: started(pipeline=options.pipeline))
