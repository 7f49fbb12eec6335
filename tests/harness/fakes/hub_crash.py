"""A fake Hub engine that crashes (exit status 3, after a word on stderr) on 'go' in an unknown position."""

import sys

from hub_common import log, parser, serve

options = parser(__doc__).parse_args()


def crash(position: str) -> None:
    log(f"fake hub: cannot cope with {position[:8]}..., giving up")
    sys.exit(3)


serve(options.answer, crash)
