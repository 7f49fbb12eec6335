"""A correct but strict Hub engine: the oracle's Hub server, refusing every position where a side
has no pieces as Scan does (``error message="bad position"``, keeping its previous position), or
with --exit, exiting on one (status 3). Not standard library only: it wraps the oracle's server."""

import argparse
import sys

from conformance.servers import oracle_hub
from oracle.errors import FenError
from oracle.position import Color

arguments = argparse.ArgumentParser(description=__doc__)
arguments.add_argument("--exit", action="store_true", help="exit on such a position instead of refusing it")
options = arguments.parse_args()


class StrictHubServer(oracle_hub.HubServer):
    def _set_position(self, text: str, moves: str) -> None:
        try:
            position = oracle_hub.position_from_hub(text)
        except FenError:
            position = None
        if position is not None and not all(position.squares(colour) for colour in Color):
            if options.exit:
                sys.stderr.write("strict hub: a side has no pieces; giving up\n")
                sys.exit(3)
            self.send('error message="bad position"')
            return
        super()._set_position(text, moves)


server = StrictHubServer(oracle_hub.chooser("first", None), sys.stdout)
for line in sys.stdin:
    if not server.handle(line.rstrip("\r\n")):
        break
