"""A fake DXP follower that plays only from the initial position: it refuses every game request
with a set-up position (GAMEACC code --code, default 2: "not this game"); --all refuses every game."""

from dxp_common import Link, accept_code, log, parser, serve

arguments = parser(__doc__)
arguments.add_argument("--code", default="2")
arguments.add_argument("--all", action="store_true")
options = arguments.parse_args()


def refuse(link: Link, message: str) -> bool:
    if message[42] == "A" and not options.all:
        return False
    log("fake dxp: set-up positions are not for me")
    accept_code(link, options.code)
    return True


serve(options.answer, lambda link, key: None, on_request=refuse)
