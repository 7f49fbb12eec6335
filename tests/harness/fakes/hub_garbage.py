"""A fake Hub engine that prints garbage instead of a move (--kind text: not a Hub line;
--kind move: a 'done' whose move is not a move), or garbage at the handshake (--at-start)."""

from hub_common import log, parser, send, serve

arguments = parser(__doc__)
arguments.add_argument("--kind", choices=("text", "move"), default="text")
arguments.add_argument("--at-start", action="store_true")
options = arguments.parse_args()


def garbage(position: str) -> None:
    log(f"fake hub: printing garbage for {position[:8]}...")
    send("Best move: 32-28 (score +0.35)" if options.kind == "text" else "done move=32to28")


def handshake() -> None:
    send("Hello! I am an engine")


serve(options.answer, garbage, on_hub=handshake if options.at_start else None)
