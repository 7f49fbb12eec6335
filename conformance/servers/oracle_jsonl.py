"""The reference server: the oracle as an engine speaking the JSON-lines protocol (version 1.1).

    python -m conformance.servers.oracle_jsonl

reads requests on stdin and answers on stdout, one JSON object per line (``docs/protocol.md``);
it answers every capability with :class:`conformance.engines.oracle_engine.OracleEngine`, so certifying
``jsonl:python -m conformance.servers.oracle_jsonl`` must give exactly the in-process results.
It declares ``counters`` (the oracle takes the draw-rule counters of a setup), answers
``illegal`` where the oracle refuses a move of the request, and declares ``pipeline``: it reads
one request at a time and answers it before reading the next, so requests the harness sends
ahead simply wait in its stdin (``--pipeline N``; 1 declares none).

:func:`serve` is not tied to the oracle: it exposes any :class:`~conformance.core.protocol.Engine`,
which is how a Python engine that needs a virtual environment of its own is certified.
Requests are checked against ``conformance/schemas/jsonl-request.json``; a request that breaks
it gets an ``error`` response. What the served engine raises is answered as protocol 1.1 says:
:class:`MoveRefused` is ``illegal`` about a move (its text and ply), :class:`PositionRefused`
``illegal`` about the position, :class:`PerftReached` a ``perft`` answer of ``counts``,
:class:`EngineDeclined` ``declined``, anything else ``error``. Anything the served engine prints
goes to stderr, never into the protocol stream. A first line that is not ``start``, or a line that is not JSON, ends the
server with a message on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final

from conformance.core.protocol import (
    OPERATIONS,
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    Capability,
    Engine,
    EngineDeclined,
    EngineError,
    MoveRefused,
    MoveSpec,
    PerftReached,
    PositionRefused,
)
from conformance.core.rule_sets import ANY, DEFAULT, plays
from conformance.engines.adapters.jsonl_messages import (
    INTERNATIONAL_SQUARES,
    REFUSES_MOVES,
    REFUSES_POSITIONS,
    board_squares,
    message_validator,
    move_json,
    schema_problem,
)
from conformance.engines.oracle_engine import OracleEngine

PROTOCOL_ERROR: Final = 2
PIPELINE: Final = 16
"""The requests in flight the server declares by default."""
_OPS: Final = frozenset(capability.value for capability in OPERATIONS)


def _spec(data: Mapping[str, Any]) -> MoveSpec:
    return MoveSpec(data["from"], data["to"], frozenset(data["captured"]))


def _fen(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    answer = engine.fen(request["fen"])
    return {"valid": answer.valid, "position": answer.position}


def _legal_moves(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"moves": [move_json(move) for move in engine.legal_moves(request["fen"])]}


def _move_count(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"count": engine.move_count(request["fen"])}


def _perft(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"count": engine.perft(request["fen"], request["depth"])}


def _play(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"position": engine.play(request["fen"], request["moves"])}


def _parse_move(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    answer = engine.parse_move(request["fen"], request["text"], request["notation"])
    return {"verdict": answer.verdict.value, "move": move_json(answer.move) if answer.move else None}


def _format_move(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"text": engine.format_move(request["fen"], _spec(request["move"]), request["notation"])}


def _outcome(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    answer = engine.outcome(request["fen"], request["counters"], request["moves"])
    return {"result": answer.result, "rule": answer.rule, "ply": answer.ply}


def _initial_position(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    return {"position": engine.initial_position()}


def _choose_move(engine: Engine, request: Mapping[str, Any]) -> dict[str, Any]:
    move = engine.choose_move(request["fen"])
    return {"move": move_json(move) if move is not None else None}


_HANDLERS: Final[dict[str, Callable[[Engine, Mapping[str, Any]], dict[str, Any]]]] = {
    "fen": _fen,
    "legal_moves": _legal_moves,
    "move_count": _move_count,
    "perft": _perft,
    "play": _play,
    "parse_move": _parse_move,
    "format_move": _format_move,
    "outcome": _outcome,
    "choose_move": _choose_move,
    "initial_position": _initial_position,
}


def answer(
    engine: Engine, request: Mapping[str, Any], squares: int = INTERNATIONAL_SQUARES
) -> dict[str, Any]:
    """The response to one request (already parsed JSON): answer, ``declined`` or ``error``;
    ``squares``: the dark squares of the game's board, the range of a square in the request."""
    seq = request.get("seq")
    op = request.get("op")
    definition = op if op in _OPS else "envelope"
    problem = schema_problem(message_validator("request", definition, squares), request)
    if problem is not None:
        return {"type": "response", "seq": seq, "error": f"invalid request: {problem}"}
    assert isinstance(op, str)
    if Capability(op) not in engine.info.capabilities:
        return {"type": "response", "seq": seq, "declined": f"this engine does not offer {op!r}"}
    try:
        body = _HANDLERS[op](engine, request)
    except MoveRefused as refused:
        return {"type": "response", "seq": seq, **_refused_move(op, request, refused)}
    except PositionRefused as refused:
        if op not in REFUSES_POSITIONS:
            return {"type": "response", "seq": seq, "error": f"{op} refused a position: {refused}"}
        illegal = {"position": request["fen"], **({"reason": refused.reason} if refused.reason else {})}
        return {"type": "response", "seq": seq, "illegal": illegal}
    except PerftReached as reached:
        if op == "perft" and reached.counts:
            return {"type": "response", "seq": seq, "counts": list(reached.counts)}
        return {"type": "response", "seq": seq, "declined": str(reached) or op}
    except EngineDeclined as declined:
        return {"type": "response", "seq": seq, "declined": str(declined) or op}
    except EngineError as error:
        return {"type": "response", "seq": seq, "error": error.message}
    except Exception as error:  # the served engine's bug: reported to the harness, never fatal
        return {"type": "response", "seq": seq, "error": f"{type(error).__name__}: {error}"}
    return {"type": "response", "seq": seq, **body}


def _refused_move(op: str, request: Mapping[str, Any], refused: MoveRefused) -> dict[str, Any]:
    """The ``illegal`` answer of a refused move, with the move text and ply the protocol asks for
    (taken from the request where the engine did not say), or an ``error`` if it cannot be told."""
    if op not in REFUSES_MOVES:
        return {"error": f"{op} cannot refuse a move, but the engine did: {refused}"}
    texts: list[str]
    if op == "format_move":
        texts = [str(_spec(request["move"]))]
    elif op == "parse_move":
        texts = [request["text"]]
    else:
        texts = list(request["moves"])
    ply = refused.ply
    if ply is None and refused.move is not None:
        ply = next((index + 1 for index, text in enumerate(texts) if text == refused.move), None)
    if ply is None and len(texts) == 1:
        ply = 1
    if ply is None or not 1 <= ply <= len(texts):
        return {"error": f"the engine refused a move the request does not have: {refused}"}
    move = refused.move if refused.move else texts[ply - 1]
    return {"illegal": {"move": move, "ply": ply, **({"reason": refused.reason} if refused.reason else {})}}


def serve(
    engine: Engine, reader: IO[bytes], writer: IO[bytes], log: IO[str], *, pipeline: int = PIPELINE
) -> int:
    """Answer requests from ``reader`` on ``writer`` until ``stop`` or end of input; the exit status.
    ``pipeline`` is declared in ``started`` (requests wait in ``reader`` until they are answered)."""

    def send(message: Mapping[str, Any]) -> None:
        writer.write((json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        writer.flush()

    def refuse(problem: str) -> int:
        print(f"jsonl server: {problem}; stopping", file=log, flush=True)
        return PROTOCOL_ERROR

    first = reader.readline()
    if not first:
        return 0
    start = _parse(first)
    if not isinstance(start, dict) or start.get("type") != "start":
        return refuse(f"expected a 'start' message as the first line, got {first[:200]!r}")
    if start.get("protocol") != PROTOCOL_VERSION:  # answer anyway: the harness reports the mismatch
        print(f"jsonl server: the harness asks for protocol {start.get('protocol')!r}", file=log, flush=True)
    info = engine.info
    problem = _take_rules(engine, start.get("rules"))
    if problem is not None:
        return refuse(problem)
    squares = _board_squares(start.get("rules"))
    for op in _OPS:  # build the request validators now, not on the first requests
        message_validator("request", op, squares)
    declared = sorted(info.rule_sets)
    send(
        {
            "type": "started",
            "protocol": PROTOCOL_VERSION,
            "minor": PROTOCOL_MINOR,
            **({"pipeline": pipeline} if pipeline > 1 else {}),
            "engine": {"name": info.name, "version": info.version},
            "capabilities": sorted(capability.value for capability in info.capabilities),
            **({"rule_sets": declared} if declared != [DEFAULT] else {}),
        }
    )
    for line in reader:
        message = _parse(line)
        if not isinstance(message, dict):
            return refuse(f"a line that is not a JSON object: {line[:200]!r}")
        if message.get("type") == "stop":
            return 0
        seq = message.get("seq")
        if message.get("type") != "request" or type(seq) is not int:
            return refuse(f"expected a request with an integer 'seq' or 'stop', got {line[:200]!r}")
        send(answer(engine, message, squares))
    return 0


def _board_squares(rules: Any) -> int:
    """The squares of the board of the game ``start`` names (``boardSize`` of its object; 10x10
    when it names none): the range of the squares of its requests (docs/protocol.md)."""
    game = rules.get("object") if isinstance(rules, Mapping) else None
    size = game.get("boardSize") if isinstance(game, Mapping) else None
    return board_squares(size) if type(size) is int and size > 0 else INTERNATIONAL_SQUARES


def _take_rules(engine: Engine, rules: Any) -> str | None:
    """Hand the rule set of ``start`` (protocol 1.2: ``{name, object}``; absent: international) to
    an engine that declares it and takes it (``use_rules``); the problem, if it cannot be taken.
    An engine that does not declare the game is started all the same: the harness asks it nothing."""
    if rules is None:
        return None
    if not isinstance(rules, Mapping) or not isinstance(rules.get("object"), Mapping):
        return f"the 'rules' of 'start' is not {{name, object}}: {str(rules)[:200]}"
    if not plays(engine.info.rule_sets, str(rules.get("name"))):
        return None
    use_rules = getattr(engine, "use_rules", None)
    if use_rules is None:
        return None  # it plays the game it declares without being told (one game besides international)
    try:
        use_rules(rules["object"])
    except Exception as error:  # the engine cannot play the rule set it was given
        return f"the engine did not take the rule set {rules.get('name')!r}: {type(error).__name__}: {error}"
    return None


def _parse(line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
        return None


def oracle_engine() -> Engine:
    """The reference oracle as an engine (every capability but ``choose_move``), playing every rule
    set it is given (``*``)."""
    return OracleEngine(rule_sets=frozenset({ANY}))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.servers.oracle_jsonl",
        description="Serve the reference oracle over the JSON-lines engine protocol "
        f"(version {PROTOCOL_VERSION}.{PROTOCOL_MINOR}, docs/protocol.md) on stdin/stdout.",
    )
    parser.add_argument(
        "--pipeline",
        type=int,
        default=PIPELINE,
        help=f"requests in flight to declare (default {PIPELINE}; 1: one at a time)",
    )
    options = parser.parse_args(argv)
    writer = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever the engine code prints must not enter the protocol stream
    return serve(oracle_engine(), sys.stdin.buffer, writer, sys.stderr, pipeline=max(1, options.pipeline))


if __name__ == "__main__":
    sys.exit(main())
