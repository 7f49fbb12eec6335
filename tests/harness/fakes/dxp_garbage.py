"""A fake DXP follower that sends garbage instead of a move: --kind unknown (a message of an
unknown type), --kind move (a MOVE whose fields are not numbers), --kind flood (bytes without NUL)."""

from dxp_common import Link, log, parser, serve

arguments = parser(__doc__)
arguments.add_argument("--kind", choices=("unknown", "move", "flood"), default="unknown")
options = arguments.parse_args()


def garbage(link: Link, key: str) -> None:
    log(f"fake dxp: garbage for {key[:8]}...")
    if options.kind == "unknown":
        link.send("Xbest move 32-28")
    elif options.kind == "move":
        link.send("M00003228xx")
    else:
        link.send_raw(b"32-28 " * 100)


serve(options.answer, garbage)
