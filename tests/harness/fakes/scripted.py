"""A fake engine that answers each operation with a fixed response body given on its command line
(``--reply OP=JSON``, e.g. ``--reply 'play={"illegal": {"move": "46-28", "ply": 1}}'``): a
protocol 1.1 answer of any shape, to check how the harness reads and judges it. It declares
``--capabilities`` (comma-separated) and states ``--minor`` in ``started`` when given;
operations without a reply are declined. ``--rule-sets`` (comma-separated) declares the games it
plays (protocol 1.2)."""

import argparse
import json
from typing import Any

from _fake import send, serve

parser = argparse.ArgumentParser()
parser.add_argument("--reply", action="append", default=[], metavar="OP=JSON")
parser.add_argument("--capabilities", default="")
parser.add_argument("--minor", type=int, default=None)
parser.add_argument("--rule-sets", default="")
options = parser.parse_args()
replies = {op: json.loads(body) for op, body in (reply.split("=", 1) for reply in options.reply)}
capabilities = [name for name in options.capabilities.split(",") if name] or sorted(replies)


def started() -> None:
    message: dict[str, Any] = {"type": "started", "protocol": 1}
    if options.minor is not None:
        message["minor"] = options.minor
    if options.rule_sets:
        message["rule_sets"] = options.rule_sets.split(",")
    send({**message, "engine": {"name": "scripted", "version": "0"}, "capabilities": capabilities})


def handle(request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] in replies:
        return dict(replies[request["op"]])
    return {"declined": f"no reply scripted for {request['op']}"}


serve(handle, on_start=started)
