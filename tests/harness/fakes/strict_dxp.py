"""A correct but strict DXP follower: the oracle's follower on $DXP_PORT, refusing every game whose
position has a side without pieces, with GAMEACC code 2 ("not this game"), or with --abort
exiting on one (status 3), as Scan aborts. Not standard library only: it wraps the oracle's server."""

import argparse
import os
import sys

from conformance.servers import oracle_dxp
from oracle.errors import FenError
from oracle.position import Color

arguments = argparse.ArgumentParser(description=__doc__)
arguments.add_argument("--abort", action="store_true", help="exit on such a position instead of refusing it")
options = arguments.parse_args()


class StrictSession(oracle_dxp.FollowerSession):
    def _game_request(self, text: str) -> list[str]:
        if text[42:43] == "B" and len(text) == 94:
            try:
                position = oracle_dxp.position_from_dxp(text[43], text[44:94])
            except FenError:
                position = None
            if position is not None and not all(position.squares(colour) for colour in Color):
                if options.abort:
                    sys.stderr.write("strict dxp: a side has no pieces; aborting\n")
                    sys.stderr.flush()
                    os._exit(3)
                self.playing = False
                return [f"A{oracle_dxp.NAME[:32].ljust(32)}2"]
        return super()._game_request(text)


oracle_dxp.FollowerSession = StrictSession  # type: ignore[misc]
oracle_dxp.serve("127.0.0.1", int(os.environ["DXP_PORT"]), oracle_dxp.chooser("first", None), single=True)
