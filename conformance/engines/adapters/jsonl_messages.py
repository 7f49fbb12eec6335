"""The messages of the JSON-lines protocol: their JSON Schemas, and the fast check of responses.

Every message has a schema in ``conformance/schemas/jsonl-*.json`` (draft 2020-12; ``docs/protocol.md``).
The adapter (:mod:`conformance.engines.adapters.jsonl`) checks each response with :func:`response_is_valid`,
plain code that accepts exactly what the schemas accept, and asks jsonschema to explain any message
it refuses (:func:`schema_problem`); the reference server checks requests with jsonschema.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any, Final

import jsonschema
from referencing import Registry, Resource

from conformance.core.protocol import Capability, MoveSpec, Verdict

SCHEMA_DIR: Final = Path(__file__).resolve().parent.parent.parent / "schemas"
SCHEMA_BASE: Final = "https://draughts-conformance.invalid/schema/jsonl-1/"
SCHEMA_FILES: Final = ("common", "start", "started", "request", "response", "stop")
MAX_LINE_BYTES: Final = 4 * 1024 * 1024
"""A line longer than this (no newline yet) is a protocol violation, not a reason to eat memory."""


# -- schemas -----------------------------------------------------------------------------------


INTERNATIONAL_SQUARES: Final = 50
"""The squares of the 10x10 board: the ``maximum`` of ``jsonl-common.json#/$defs/square`` as written."""


@cache
def schema_registry(squares: int = INTERNATIONAL_SQUARES) -> Registry[Any]:
    """Every schema of the protocol, keyed by its ``$id`` (the tests check them against the metaschema),
    for a game whose board has ``squares`` dark squares: the square's ``maximum`` follows the board
    of the game played (``boardSize`` squared over 2: 32 on 8x8, 72 on 12x12; docs/protocol.md)."""
    resources = []
    for name in SCHEMA_FILES:
        contents = json.loads((SCHEMA_DIR / f"jsonl-{name}.json").read_text(encoding="utf-8"))
        if name == "common":
            contents["$defs"]["square"]["maximum"] = squares
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def board_squares(board_size: int) -> int:
    """The dark squares of a ``board_size`` board, numbered 1..this in the protocol's messages."""
    return board_size * board_size // 2


@cache
def message_validator(
    message: str, definition: str | None = None, squares: int = INTERNATIONAL_SQUARES
) -> jsonschema.Draft202012Validator:
    """A validator for one message schema (``request``, ``response``...), or one of its ``$defs``,
    in a game whose board has ``squares`` dark squares.

    The schema is validated with every ``$ref`` inlined: resolving references through the
    registry on each message would cost several times the validation itself.
    """
    uri = f"{SCHEMA_BASE}jsonl-{message}.json"
    registry = schema_registry(squares)
    contents = registry.contents(uri)
    node = contents["$defs"][definition] if definition else contents
    return jsonschema.Draft202012Validator(_inline(node, registry.resolver(base_uri=uri)))


def _inline(node: Any, resolver: Any) -> Any:  # resolver: a referencing Resolver
    """``node`` with each ``$ref`` replaced by what it points to (the protocol has no recursion)."""
    if isinstance(node, list):
        return [_inline(item, resolver) for item in node]
    if not isinstance(node, dict):
        return node
    rest = {key: _inline(value, resolver) for key, value in node.items() if key not in _NOT_INLINED}
    if "$ref" not in node:
        return rest
    resolved = resolver.lookup(node["$ref"])
    target = _inline(resolved.contents, resolved.resolver)
    return {"allOf": [target], **rest} if rest else target


_NOT_INLINED: Final = frozenset({"$ref", "$defs", "$id", "examples"})


def schema_problem(validator: jsonschema.Draft202012Validator, instance: Any) -> str | None:
    """``None`` when ``instance`` is valid, else the most relevant problem, with its location."""
    try:
        if validator.is_valid(instance):
            return None
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
    except RecursionError:
        return "the message is nested too deeply to be checked"
    if error is None:
        return None
    where = "/".join(map(str, error.absolute_path))
    message = error.message
    if error.validator in ("minimum", "maximum") and _SQUARE_DESCRIPTION in str(
        error.schema.get("description")
    ):
        message = f"square {error.instance} is not on the board (squares 1-{_square_range(error.schema)})"
    return f"{where}: {message}" if where else message


_SQUARE_DESCRIPTION: Final = "A square of the game's board"
"""How ``jsonl-common.json#/$defs/square`` begins its description: how a square's range error is told."""


def _square_range(schema: Mapping[str, Any]) -> str:
    return str(schema.get("maximum", "?"))


# -- the fast check of responses ---------------------------------------------------------------
#
# jsonschema needs ~30 microseconds per move of a legal_moves answer, which alone would break
# the goal of < 1 ms per request. Responses are therefore checked by the plain code below,
# which accepts exactly what the ``jsonl-response.json`` definitions accept (a test compares
# the two on generated messages); jsonschema itself explains any message this check refuses,
# and checks every message when the adapter is built with ``strict_schemas=True``.


def is_integer(value: Any, minimum: int | None = None, maximum: int | None = None) -> bool:
    """JSON Schema's ``integer``: a number without fractional part (``3.0`` counts), never a boolean."""
    if type(value) is not int and not (type(value) is float and value.is_integer()):
        return False
    return (minimum is None or value >= minimum) and (maximum is None or value <= maximum)


def _is_move(value: Any, squares: int) -> bool:
    if type(value) is not dict or value.keys() != _MOVE_KEYS:
        return False
    captured = value["captured"]
    return (
        is_integer(value["from"], 1, squares)
        and is_integer(value["to"], 1, squares)
        and type(captured) is list
        and len(captured) <= 20
        and all(is_integer(square, 1, squares) for square in captured)
        and len(set(captured)) == len(captured)
    )


def _is_optional(value: Any, kind: type) -> bool:
    return value is None or type(value) is kind


def _has_reason(value: dict[str, Any]) -> bool:
    """An optional free-text ``reason``: absent, or a string (never null)."""
    return "reason" not in value or type(value["reason"]) is str


def _is_refused_move(value: Any) -> bool:
    return (
        type(value) is dict
        and _REFUSED_MOVE_REQUIRED <= value.keys() <= _REFUSED_MOVE_KEYS
        and type(value["move"]) is str
        and len(value["move"]) >= 1
        and is_integer(value["ply"], 1)
        and _has_reason(value)
    )


def _is_refused_position(value: Any) -> bool:
    return (
        type(value) is dict
        and "position" in value
        and value.keys() <= _REFUSED_POSITION_KEYS
        and type(value["position"]) is str
        and _has_reason(value)
    )


def _is_perft_answer(message: dict[str, Any], _squares: int) -> bool:
    """``count`` (the depth asked) or ``counts`` (depths 1..k reached), exactly one of them."""
    if ("count" in message) == ("counts" in message):
        return False
    if "count" in message:
        return is_integer(message["count"], 0)
    counts = message["counts"]
    return type(counts) is list and len(counts) >= 1 and all(is_integer(count, 0) for count in counts)


_MOVE_KEYS: Final = frozenset({"from", "to", "captured"})
_VERDICTS: Final = frozenset(verdict.value for verdict in Verdict)
_RESULTS: Final = frozenset({"ongoing", "white_wins", "black_wins", "draw"})
_ENVELOPE: Final = frozenset({"type", "seq"})
_REFUSED_MOVE_REQUIRED: Final = frozenset({"move", "ply"})
_REFUSED_MOVE_KEYS: Final = frozenset({"move", "ply", "reason"})
_REFUSED_POSITION_KEYS: Final = frozenset({"position", "reason"})

REFUSES_MOVES: Final = frozenset({"play", "parse_move", "format_move", "outcome"})
"""(1.1) The operations an engine may answer with ``illegal`` about a move of the request."""
REFUSES_POSITIONS: Final = frozenset(
    capability.value for capability in Capability if capability.is_operation
) - {"initial_position"}
"""(1.1) The operations an engine may answer with ``illegal`` about the position: every one with a FEN."""

_FAST_CHECKS: Final[
    dict[str, tuple[frozenset[str], frozenset[str], Callable[[dict[str, Any], int], bool]]]
] = {
    # definition: (required keys besides type and seq, all keys allowed besides them, check of the values)
    "declined": (frozenset({"declined"}), frozenset({"declined"}), lambda m, n: type(m["declined"]) is str),
    "error": (frozenset({"error"}), frozenset({"error"}), lambda m, n: type(m["error"]) is str),
    "illegal-move": (
        frozenset({"illegal"}),
        frozenset({"illegal"}),
        lambda m, n: _is_refused_move(m["illegal"]),
    ),
    "illegal-position": (
        frozenset({"illegal"}),
        frozenset({"illegal"}),
        lambda m, n: _is_refused_position(m["illegal"]),
    ),
    "fen-answer": (
        frozenset({"valid"}),
        frozenset({"valid", "position"}),
        lambda m, n: type(m["valid"]) is bool and _is_optional(m.get("position"), str),
    ),
    "legal_moves-answer": (
        frozenset({"moves"}),
        frozenset({"moves"}),
        lambda m, n: type(m["moves"]) is list and all(_is_move(move, n) for move in m["moves"]),
    ),
    "move_count-answer": (frozenset({"count"}), frozenset({"count"}), lambda m, n: is_integer(m["count"], 0)),
    "perft-answer": (frozenset(), frozenset({"count", "counts"}), _is_perft_answer),
    "play-answer": (
        frozenset({"position"}),
        frozenset({"position"}),
        lambda m, n: type(m["position"]) is str,
    ),
    "parse_move-answer": (
        frozenset({"verdict"}),
        frozenset({"verdict", "move"}),
        lambda m, n: (
            type(m["verdict"]) is str
            and m["verdict"] in _VERDICTS
            and (_is_move(m.get("move"), n) if m["verdict"] == "legal" else m.get("move") is None)
        ),
    ),
    "format_move-answer": (frozenset({"text"}), frozenset({"text"}), lambda m, n: type(m["text"]) is str),
    "outcome-answer": (
        frozenset({"result"}),
        frozenset({"result", "rule", "ply"}),
        lambda m, n: (
            type(m["result"]) is str
            and m["result"] in _RESULTS
            and _is_optional(m.get("rule"), str)
            and (m.get("ply") is None or is_integer(m["ply"], 0))
        ),
    ),
    "initial_position-answer": (
        frozenset({"position"}),
        frozenset({"position"}),
        lambda m, n: type(m["position"]) is str,
    ),
    "choose_move-answer": (
        frozenset({"move"}),
        frozenset({"move"}),
        lambda m, n: m["move"] is None or _is_move(m["move"], n),
    ),
}


def response_is_valid(definition: str, message: Any, squares: int = INTERNATIONAL_SQUARES) -> bool:
    """Whether ``message`` is valid under ``jsonl-response.json#/$defs/<definition>``, fast, in a
    game whose board has ``squares`` dark squares.

    ``definition`` is ``declined``, ``error``, ``illegal-move``, ``illegal-position`` or ``<op>-answer``.
    """
    required, allowed, values_ok = _FAST_CHECKS[definition]
    if (
        type(message) is not dict
        or message.get("type") != "response"
        or not is_integer(message.get("seq"), 1)
    ):
        return False
    keys = message.keys() - _ENVELOPE
    return required <= keys <= allowed and values_ok(message, squares)


def answer_keys(op: str) -> tuple[frozenset[str], frozenset[str]]:
    """The keys an answer to ``op`` must have and may have, besides ``type`` and ``seq``."""
    required, allowed, _ = _FAST_CHECKS[f"{op}-answer"]
    return required, allowed


# -- building and reading messages ---------------------------------------------------------------

ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(message: Mapping[str, Any]) -> bytes:
    return (ENCODER.encode(message) + "\n").encode("utf-8")


def move_json(move: MoveSpec) -> dict[str, Any]:
    """A move as the protocol writes it: ``{"from": 28, "to": 39, "captured": [33]}``."""
    return {"from": move.from_square, "to": move.to_square, "captured": sorted(move.captured)}


def move_spec(data: Mapping[str, Any]) -> MoveSpec:
    return MoveSpec(int(data["from"]), int(data["to"]), frozenset(int(square) for square in data["captured"]))


ARGUMENTS: Final[dict[str, Callable[..., tuple[Capability, dict[str, Any]]]]] = {
    "fen": lambda fen: (Capability.FEN, {"fen": fen}),
    "legal_moves": lambda fen: (Capability.LEGAL_MOVES, {"fen": fen}),
    "move_count": lambda fen: (Capability.MOVE_COUNT, {"fen": fen}),
    "perft": lambda fen, depth: (Capability.PERFT, {"fen": fen, "depth": depth}),
    "play": lambda fen, moves: (Capability.PLAY, {"fen": fen, "moves": list(moves)}),
    "parse_move": lambda fen, text, notation: (
        Capability.PARSE_MOVE,
        {"fen": fen, "text": text, "notation": notation},
    ),
    "format_move": lambda fen, move, notation: (
        Capability.FORMAT_MOVE,
        {"fen": fen, "move": move_json(move), "notation": notation},
    ),
    "outcome": lambda fen, counters, moves: (
        Capability.OUTCOME,
        {"fen": fen, "counters": dict(counters), "moves": list(moves)},
    ),
    "initial_position": lambda: (Capability.INITIAL_POSITION, {}),
    "choose_move": lambda fen: (Capability.CHOOSE_MOVE, {"fen": fen}),
}


ANSWER_DEFINITIONS: Final = {op: f"{op}-answer" for op in ARGUMENTS}


def request_arguments(method: str, *args: Any) -> tuple[Capability, dict[str, Any]]:
    """The operation and the arguments of the request that the engine method ``method`` sends
    (``KeyError`` for a method that is not an operation)."""
    return ARGUMENTS[method](*args)


def request_body(op: str, arguments: Mapping[str, Any]) -> bytes:
    """``"op":...,ARGUMENTS}\n``: the request line after its ``seq`` (strings, the usual arguments,
    encoded directly: a request's encoding is a fair part of what the harness spends on it)."""
    parts = [f'"op":"{op}"']
    for key, value in arguments.items():
        encoded = encode_basestring(value) if type(value) is str else ENCODER.encode(value)
        parts.append(f"{encode_basestring(key)}:{encoded}")
    return (",".join(parts) + "}\n").encode("utf-8")
