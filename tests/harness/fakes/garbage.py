"""A fake engine that prints garbage: instead of 'started' with --at-start, else instead of answers."""

import argparse
import sys
from typing import Any

from _fake import log, serve

parser = argparse.ArgumentParser()
parser.add_argument("--at-start", action="store_true")
options = parser.parse_args()


def handle(request: dict[str, Any]) -> None:
    log(f"fake engine: about to print garbage for seq {request['seq']}")
    sys.stdout.write("Position evaluated: +0.35 (this is not JSON\n")
    sys.stdout.flush()


if options.at_start:
    sys.stdin.readline()
    sys.stdout.write("hello, I am an engine\n")
    sys.stdout.flush()
    sys.stdin.read()
else:
    serve(handle)
