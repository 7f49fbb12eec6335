"""A fake engine that takes --delay seconds over every answer."""

import argparse
import time
from typing import Any

from _fake import default_answer, serve

parser = argparse.ArgumentParser()
parser.add_argument("--delay", type=float, required=True)
options = parser.parse_args()


def handle(request: dict[str, Any]) -> dict[str, Any]:
    time.sleep(options.delay)
    return default_answer(request)


serve(handle)
