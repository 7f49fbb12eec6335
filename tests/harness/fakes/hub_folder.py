"""A fake Hub engine that must be started from its own folder, as Scan is: without ``hub.ini`` in
its working folder it exits at once. It declares a parameter (``hash``) and answers from its table
(``--answer POS=MOVE``), with a bare ``done`` in any other position."""

import os
import sys

from hub_common import log, parser, send, serve

options = parser(__doc__).parse_args()
if not os.path.exists("hub.ini"):
    log(f"fake hub: cannot find hub.ini in {os.getcwd()}")
    sys.exit(1)


def handshake() -> None:
    send("id name=folder version=0")
    send("param name=hash value=64 type=int min=1 max=1024")
    send("wait")


serve(options.answer, lambda position: send("done"), on_hub=handshake)
