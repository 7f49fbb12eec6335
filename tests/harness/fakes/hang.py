"""A fake engine that never answers one operation; with --child it first starts a child
process (in its process group) that would outlive it, and prints the child's pid on stderr."""

import argparse
import subprocess
import sys
import time
from typing import Any

from _fake import default_answer, log, serve, started

parser = argparse.ArgumentParser()
parser.add_argument("--op", default="legal_moves")
parser.add_argument("--child", action="store_true")
parser.add_argument("--pipeline", type=int, help="requests in flight to declare")
options = parser.parse_args()


def handle(request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] == options.op:
        if options.child:
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
            log(f"child pid {child.pid}")
        log(f"fake engine: thinking about {request['op']} forever")
        while True:
            time.sleep(60)
    return default_answer(request)


serve(handle, on_start=lambda: started(pipeline=options.pipeline))
