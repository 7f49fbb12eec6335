"""A fake engine with a classic bug: it reports the landing squares of a capture as the captured
squares. A well-formed but wrong answer: the harness must report a ``fail``, not an error."""

from typing import Any

from _fake import default_answer, serve

# The fake's answers, for the positions the tests ask about; anything else is declined.
ANSWERS = {
    "W:W28:B33": [{"from": 28, "to": 39, "captured": [39]}],  # right: 28x39 {33}
}


def handle(request: dict[str, Any]) -> dict[str, Any]:
    if request["op"] == "legal_moves" and request["fen"] in ANSWERS:
        return {"moves": ANSWERS[request["fen"]]}
    if request["op"] == "legal_moves":
        return {"declined": "unknown position"}
    return default_answer(request)


serve(handle)
