"""A fake Hub engine that refuses every unknown position with 'error' (and keeps the previous one,
as dame does), and would then answer 'go' for that stale position with --move."""

from hub_common import log, parser, send, serve

arguments = parser(__doc__)
arguments.add_argument("--move", default="32-28")
options = arguments.parse_args()
known = {answer.split("=", 1)[0] for answer in options.answer}


def refuse(position: str) -> bool:
    if position in known:
        return False
    log("fake hub: I do not like this position")
    send(f'error message="invalid position `{position[:8]}...`"')
    return True


serve(options.answer, lambda position: send(f"done move={options.move}"), on_pos=refuse)
