"""A fake engine that will not go away: it ignores SIGTERM (and SIGINT, SIGHUP), stops reading its
stdin, and with --child starts a child in its process group that does the same; only SIGKILL to
the group ends them. It writes "PID PGID" of each of its processes to --pids (one line each), and
"waiting PID" once it waits forever (at start, or on a request).

--at start: it never answers 'start'. --at request (default): it answers 'start' (capabilities
fen, legal_moves, play), answers 'fen' with an error after --error-delay seconds, and on any other
request stops reading and answering, forever.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--pids", required=True)
parser.add_argument("--at", choices=("start", "request"), default="request")
parser.add_argument("--child", action="store_true")
parser.add_argument("--error-delay", type=float, default=0.0)
options = parser.parse_args()

for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(signum, signal.SIG_IGN)


def note(pid: int) -> None:
    with open(options.pids, "a", encoding="ascii") as pids:
        pids.write(f"{pid} {os.getpgid(pid)}\n")


def forever() -> None:
    with open(options.pids, "a", encoding="ascii") as pids:
        pids.write(f"waiting {os.getpid()}\n")
    while True:
        time.sleep(60)


note(os.getpid())
if options.child:
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\ntime.sleep(600)",
        ],
        stdin=subprocess.DEVNULL,
    )
    note(child.pid)
sys.stdin.readline()  # start
if options.at == "start":
    forever()
capabilities = ["fen", "legal_moves", "play"]
started = {"type": "started", "protocol": 1, "engine": {"name": "stubborn", "version": "0"}}
sys.stdout.write(json.dumps({**started, "capabilities": capabilities}) + "\n")
sys.stdout.flush()
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") != "fen":
        forever()
    time.sleep(options.error_delay)
    sys.stdout.write(json.dumps({"type": "response", "seq": request["seq"], "error": "stubborn"}) + "\n")
    sys.stdout.flush()
