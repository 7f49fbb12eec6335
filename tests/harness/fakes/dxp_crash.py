"""A fake DXP follower that accepts the game in an unknown position, then crashes (exit status 3)."""

import sys

from dxp_common import Link, log, parser, serve

options = parser(__doc__).parse_args()


def crash(link: Link, key: str) -> None:
    log(f"fake dxp: cannot cope with {key[:8]}..., giving up")
    sys.exit(3)


serve(options.answer, crash)
