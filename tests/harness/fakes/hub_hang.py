"""A fake Hub engine that never answers: on 'go' in an unknown position (--at go), at the
handshake (--at hub), or to 'ping' (--at ping). With --child it first starts a child process (in its process group) that
would outlive it, and prints the child's pid on stderr."""

import subprocess
import sys
import time

from hub_common import log, parser, serve

arguments = parser(__doc__)
arguments.add_argument("--at", choices=("go", "hub", "ping"), default="go")
arguments.add_argument("--child", action="store_true")
options = arguments.parse_args()


def hang(position: str = "") -> None:
    if options.child:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        log(f"child pid {child.pid}")
    log("fake hub: thinking forever")
    while True:
        time.sleep(60)


serve(
    options.answer,
    hang,
    on_hub=hang if options.at == "hub" else None,
    on_ping=hang if options.at == "ping" else None,
)
