"""A fake DXP follower that accepts the game in an unknown position and never moves."""

import time

from dxp_common import Link, log, parser, serve

options = parser(__doc__).parse_args()


def hang(link: Link, key: str) -> None:
    log("fake dxp: thinking forever")
    while True:
        time.sleep(60)


serve(options.answer, hang)
