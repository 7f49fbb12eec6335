"""A correct DXP follower (the oracle's, on $DXP_PORT) that wants one game per session: it ends
every game with stop code 1 (confirming the initiator's GAMEEND with ``E01``, or ending a game it
cannot move in with ``E11``) and closes the connection; it keeps listening for the next session,
or with --exit, exits. A session ended this way is no failure of the engine."""

import argparse
import os

from conformance.servers import oracle_dxp

arguments = argparse.ArgumentParser(description=__doc__)
arguments.add_argument("--exit", action="store_true", help="exit after the first session")
options = arguments.parse_args()


class OneGamePerSession(oracle_dxp.FollowerSession):
    def handle(self, text: str) -> list[str]:
        if text[:1] == "E":
            replies = ["E01"] if self.playing else []
            self.playing = False
            self.stop = True
            return replies
        replies = super().handle(text)
        if any(reply[:1] == "E" for reply in replies):  # it ended the game itself (no legal move)
            self.stop = True
            return [reply[:2] + "1" if reply[:1] == "E" else reply for reply in replies]
        return replies


oracle_dxp.FollowerSession = OneGamePerSession  # type: ignore[misc]
oracle_dxp.serve(
    "127.0.0.1", int(os.environ["DXP_PORT"]), oracle_dxp.chooser("first", None), single=options.exit
)
