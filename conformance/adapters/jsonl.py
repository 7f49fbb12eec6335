"""The JSON-lines subprocess adapter: any program that speaks ``docs/protocol.md`` is an engine.

The harness starts the engine command in a process group of its own and talks to it over its
stdin and stdout, one UTF-8 JSON object per line: ``start``/``started``, then one ``request``
per question with an echoed ``seq``, then ``stop``. Every message the engine sends is checked
against the JSON Schemas in ``conformance/schemas/jsonl-*.json``.

Protocol 1.1 answers become the exceptions of :mod:`conformance.protocol`, judged by
:mod:`conformance.evaluate`: ``illegal`` about a move is :class:`MoveRefused` (move text, ply),
``illegal`` about the position :class:`PositionRefused`, a ``perft`` answer of ``counts`` short
of the depth asked :class:`PerftReached`, ``declined`` :class:`EngineDeclined`.

What can go wrong maps onto :class:`~conformance.engine.EngineError` kinds: ``start`` (the
start exchange failed), ``timeout`` (no answer in time: the process group is killed),
``crash`` (the engine exited, or the restart budget is spent), ``protocol`` (not JSON, wrong
``seq``, a message outside the schema, output nobody asked for) and ``exception`` (the engine
answered ``error``). After a timeout, a crash or a protocol violation that leaves the stream
out of step, the engine is restarted on the next request, within a restart budget. The
engine's stderr is kept (bounded) and attached to every error.

The engine process, its restarts and its errors are :mod:`conformance.adapters.process`'s, as
for the Hub and DXP adapters. POSIX only: process groups (``start_new_session``) and ``select.poll``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema
from referencing import Registry, Resource

from conformance.adapters.process import (
    OUTPUT_KEPT_BYTES,
    OUTPUT_SHOWN_CHARS,
    LineTooLong,
    ProcessClosed,
    ProcessEngine,
    ProcessTimeout,
    preview,
    split_command,
)
from conformance.protocol import (
    PROTOCOL_MINOR,
    PROTOCOL_VERSION,
    Capability,
    EngineDeclined,
    EngineError,
    EngineInfo,
    FenAnswer,
    MoveRefused,
    MoveSpec,
    MoveTextAnswer,
    OutcomeAnswer,
    PerftReached,
    PositionRefused,
    Verdict,
)

SCHEMA_DIR: Final = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_BASE: Final = "https://draughts-conformance.invalid/schema/jsonl-1/"
SCHEMA_FILES: Final = ("common", "start", "started", "request", "response", "stop")

MAX_LINE_BYTES: Final = 4 * 1024 * 1024
"""A line longer than this (no newline yet) is a protocol violation, not a reason to eat memory."""
STDERR_KEPT_BYTES: Final = OUTPUT_KEPT_BYTES
"""How much of an engine's stderr is kept (the most recent part)."""
STDERR_SHOWN_CHARS: Final = OUTPUT_SHOWN_CHARS
"""How much stderr one error carries (its most recent part)."""


# -- schemas -----------------------------------------------------------------------------------


@cache
def schema_registry() -> Registry[Any]:
    """Every schema of the protocol, keyed by its ``$id`` (the tests check them against the metaschema)."""
    resources = []
    for name in SCHEMA_FILES:
        contents = json.loads((SCHEMA_DIR / f"jsonl-{name}.json").read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def message_validator(message: str, definition: str | None = None) -> jsonschema.Draft202012Validator:
    """A validator for one message schema (``request``, ``response``...), or one of its ``$defs``.

    The schema is validated with every ``$ref`` inlined: resolving references through the
    registry on each message would cost several times the validation itself.
    """
    uri = f"{SCHEMA_BASE}jsonl-{message}.json"
    registry = schema_registry()
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
    if validator.is_valid(instance):
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
    if error is None:
        return None
    where = "/".join(map(str, error.absolute_path))
    return f"{where}: {error.message}" if where else error.message


# -- the fast check of responses ---------------------------------------------------------------
#
# jsonschema needs ~30 microseconds per move of a legal_moves answer, which alone would break
# the goal of < 1 ms per request. Responses are therefore checked by the plain code below,
# which accepts exactly what the ``jsonl-response.json`` definitions accept (a test compares
# the two on generated messages); jsonschema itself explains any message this check refuses,
# and checks every message when the adapter is built with ``strict_schemas=True``.


def _is_integer(value: Any, minimum: int | None = None, maximum: int | None = None) -> bool:
    """JSON Schema's ``integer``: a number without fractional part (``3.0`` counts), never a boolean."""
    if type(value) is not int and not (type(value) is float and value.is_integer()):
        return False
    return (minimum is None or value >= minimum) and (maximum is None or value <= maximum)


def _is_square(value: Any) -> bool:
    return _is_integer(value, 1, 50)


def _is_move(value: Any) -> bool:
    if type(value) is not dict or value.keys() != _MOVE_KEYS:
        return False
    captured = value["captured"]
    return (
        _is_square(value["from"])
        and _is_square(value["to"])
        and type(captured) is list
        and len(captured) <= 20
        and all(_is_square(square) for square in captured)
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
        and _is_integer(value["ply"], 1)
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


def _is_perft_answer(message: dict[str, Any]) -> bool:
    """``count`` (the depth asked) or ``counts`` (depths 1..k reached), exactly one of them."""
    if ("count" in message) == ("counts" in message):
        return False
    if "count" in message:
        return _is_integer(message["count"], 0)
    counts = message["counts"]
    return type(counts) is list and len(counts) >= 1 and all(_is_integer(count, 0) for count in counts)


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

_FAST_CHECKS: Final[dict[str, tuple[frozenset[str], frozenset[str], Callable[[dict[str, Any]], bool]]]] = {
    # definition: (required keys besides type and seq, all keys allowed besides them, check of the values)
    "declined": (frozenset({"declined"}), frozenset({"declined"}), lambda m: type(m["declined"]) is str),
    "error": (frozenset({"error"}), frozenset({"error"}), lambda m: type(m["error"]) is str),
    "illegal-move": (
        frozenset({"illegal"}),
        frozenset({"illegal"}),
        lambda m: _is_refused_move(m["illegal"]),
    ),
    "illegal-position": (
        frozenset({"illegal"}),
        frozenset({"illegal"}),
        lambda m: _is_refused_position(m["illegal"]),
    ),
    "fen-answer": (
        frozenset({"valid"}),
        frozenset({"valid", "position"}),
        lambda m: type(m["valid"]) is bool and _is_optional(m.get("position"), str),
    ),
    "legal_moves-answer": (
        frozenset({"moves"}),
        frozenset({"moves"}),
        lambda m: type(m["moves"]) is list and all(_is_move(move) for move in m["moves"]),
    ),
    "move_count-answer": (frozenset({"count"}), frozenset({"count"}), lambda m: _is_integer(m["count"], 0)),
    "perft-answer": (frozenset(), frozenset({"count", "counts"}), _is_perft_answer),
    "play-answer": (frozenset({"position"}), frozenset({"position"}), lambda m: type(m["position"]) is str),
    "parse_move-answer": (
        frozenset({"verdict"}),
        frozenset({"verdict", "move"}),
        lambda m: (
            type(m["verdict"]) is str
            and m["verdict"] in _VERDICTS
            and (_is_move(m.get("move")) if m["verdict"] == "legal" else m.get("move") is None)
        ),
    ),
    "format_move-answer": (frozenset({"text"}), frozenset({"text"}), lambda m: type(m["text"]) is str),
    "outcome-answer": (
        frozenset({"result"}),
        frozenset({"result", "rule", "ply"}),
        lambda m: (
            type(m["result"]) is str
            and m["result"] in _RESULTS
            and _is_optional(m.get("rule"), str)
            and (m.get("ply") is None or _is_integer(m["ply"], 0))
        ),
    ),
    "initial_position-answer": (
        frozenset({"position"}),
        frozenset({"position"}),
        lambda m: type(m["position"]) is str,
    ),
    "choose_move-answer": (
        frozenset({"move"}),
        frozenset({"move"}),
        lambda m: m["move"] is None or _is_move(m["move"]),
    ),
}


def response_is_valid(definition: str, message: Any) -> bool:
    """Whether ``message`` is valid under ``jsonl-response.json#/$defs/<definition>``, fast.

    ``definition`` is ``declined``, ``error``, ``illegal-move``, ``illegal-position`` or ``<op>-answer``.
    """
    required, allowed, values_ok = _FAST_CHECKS[definition]
    if (
        type(message) is not dict
        or message.get("type") != "response"
        or not _is_integer(message.get("seq"), 1)
    ):
        return False
    keys = message.keys() - _ENVELOPE
    return required <= keys <= allowed and values_ok(message)


def _dumps(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


# -- the adapter -------------------------------------------------------------------------------


class JsonlEngine(ProcessEngine):
    """An engine reached over the JSON-lines protocol (version 1.1, ``docs/protocol.md``).

    ``command`` is a command line (split with :func:`shlex.split`, or run by ``/bin/sh`` when
    ``shell`` is true) or an argument list. The engine is started at once: a failed start
    exchange raises ``EngineError("start", ...)``. ``timeout`` bounds each request (seconds),
    ``start_timeout`` the start exchange; ``restart_budget`` is how many times the engine may
    be restarted after a timeout, crash or protocol violation; ``env`` adds variables to the
    inherited environment; ``stop_grace`` is how long :meth:`close` lets the engine exit;
    ``strict_schemas`` has jsonschema check every response (slower; the default check accepts
    exactly the same messages).
    One request at a time: use one instance per worker thread.
    """

    farewell = b'{"type":"stop"}\n'
    short_reports = True

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        timeout: float = 10.0,
        start_timeout: float = 10.0,
        restart_budget: int = 3,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        shell: bool = False,
        stop_grace: float = 1.0,
        strict_schemas: bool = False,
    ) -> None:
        self.command, self._args = split_command(command, shell=shell)
        super().__init__(
            timeout=timeout,
            start_timeout=start_timeout,
            restart_budget=restart_budget,
            env=env,
            cwd=cwd,
            shell=shell,
            stop_grace=stop_grace,
        )
        self.strict_schemas = strict_schemas
        self._seq = 0
        self.minor = 0
        """The minor protocol version the engine stated in ``started`` (0 when it stated none)."""
        self._last_exchange = "'started'"
        """What the engine last answered (for messages about output nobody asked for)."""
        self._info = self._start()

    # -- the Engine interface ----------------------------------------------------------------

    def fen(self, fen: str) -> FenAnswer:
        answer = self._request(Capability.FEN, {"fen": fen})
        return FenAnswer(answer["valid"], answer.get("position"))

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        answer = self._request(Capability.LEGAL_MOVES, {"fen": fen})
        return [_move_spec(move) for move in answer["moves"]]

    def move_count(self, fen: str) -> int:
        return int(self._request(Capability.MOVE_COUNT, {"fen": fen})["count"])

    def perft(self, fen: str, depth: int) -> int:
        answer = self._request(Capability.PERFT, {"fen": fen, "depth": depth})
        if "count" in answer:
            return int(answer["count"])
        counts = [int(count) for count in answer["counts"]]
        if len(counts) > depth:
            raise self._error(
                "protocol", f"perft to depth {depth} answered {len(counts)} counts (at most one per depth)"
            )
        if len(counts) < depth:
            raise PerftReached(counts)
        return counts[-1]

    def play(self, fen: str, moves: Sequence[str]) -> str:
        return str(self._request(Capability.PLAY, {"fen": fen, "moves": list(moves)})["position"])

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        answer = self._request(Capability.PARSE_MOVE, {"fen": fen, "text": text, "notation": notation})
        move = answer.get("move")
        return MoveTextAnswer(Verdict(answer["verdict"]), _move_spec(move) if move is not None else None)

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        arguments = {"fen": fen, "move": move_json(move), "notation": notation}
        return str(self._request(Capability.FORMAT_MOVE, arguments)["text"])

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        arguments = {"fen": fen, "counters": dict(counters), "moves": list(moves)}
        answer = self._request(Capability.OUTCOME, arguments)
        ply = answer.get("ply")
        return OutcomeAnswer(answer["result"], answer.get("rule"), int(ply) if ply is not None else None)

    def initial_position(self) -> str:
        return str(self._request(Capability.INITIAL_POSITION, {})["position"])

    def choose_move(self, fen: str) -> MoveSpec | None:
        move = self._request(Capability.CHOOSE_MOVE, {"fen": fen})["move"]
        return _move_spec(move) if move is not None else None

    def __repr__(self) -> str:
        return f"JsonlEngine({self.command!r})"

    # -- the start exchange --------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        """Start the engine and hold the start exchange; ``EngineError("start")`` if it fails."""
        process = self._spawn(self._args, self._env, max_line=MAX_LINE_BYTES, strip_cr=False)

        def fail(message: str) -> EngineError:
            return self._start_failed(process, message)

        deadline = time.monotonic() + self.start_timeout
        try:
            start = {
                "type": "start",
                "protocol": PROTOCOL_VERSION,
                "minor": PROTOCOL_MINOR,
                "timeout": self.timeout,
            }
            process.write(_dumps(start), deadline)
            line = process.read_line(deadline)
        except ProcessTimeout:
            raise fail(f"no 'started' line within {self.start_timeout:g} s of 'start'") from None
        except ProcessClosed:
            raise fail(f"the engine exited before answering 'start' ({process.ended()})") from None
        except LineTooLong:
            raise fail(f"the engine's first line is longer than {MAX_LINE_BYTES} bytes") from None
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            raise fail(
                f"the engine answered 'start' with a line that is not UTF-8 JSON: {preview(line)}"
            ) from None
        if isinstance(message, dict) and message.get("type") == "started":
            version = message.get("protocol")
            if isinstance(version, int) and not isinstance(version, bool) and version != PROTOCOL_VERSION:
                raise fail(
                    f"the engine speaks protocol {version}; this harness speaks protocol {PROTOCOL_VERSION}"
                )
        problem = schema_problem(message_validator("started"), message)
        if problem is not None:
            raise fail(f"the engine's answer to 'start' is not a valid 'started' message: {problem}")
        self._process = process
        self._mark = process.output.total
        self._last_exchange = "'started'"
        capabilities = frozenset(Capability(value) for value in message["capabilities"])
        self.minor = int(message.get("minor", 0))
        if self.minor < 1 and Capability.OUTCOME in capabilities:
            capabilities |= {Capability.COUNTERS}  # protocol 1.0: 'outcome' came with its counters
        only_chooses = Capability.CHOOSE_MOVE in capabilities and Capability.LEGAL_MOVES not in capabilities
        return EngineInfo(
            name=message["engine"]["name"],
            version=message["engine"]["version"],
            capabilities=capabilities,
            adapter=f"jsonl:{self.command}",
            level="move-choice" if only_chooses else "rules",
        )

    def _restart_problem(self, info: EngineInfo) -> str | None:
        if info == self._info:
            return None
        return (
            f"the restarted engine announced {info.name} {info.version} with capabilities "
            f"{sorted(c.value for c in info.capabilities)}, not what it announced at first"
        )

    # -- one request -------------------------------------------------------------------------

    def _request(self, capability: Capability, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Send one request and return its validated answer, or raise what the response means."""
        op = capability.value
        if capability not in self._info.capabilities:
            raise EngineDeclined(f"the engine did not declare the {op!r} capability")
        process = self._running()
        pending = process.pending_output()
        if pending:
            raise self._error(
                "protocol",
                f"the engine wrote output nobody asked for after {self._last_exchange}: {preview(pending)}",
                lose=True,
            )
        if process.out_eof:
            raise self._error("crash", f"the engine exited between requests ({process.ended()})", lose=True)

        self._seq += 1
        seq = self._seq
        what = f"{op} (seq {seq})"
        deadline = time.monotonic() + self.timeout
        try:
            process.write(_dumps({"type": "request", "seq": seq, "op": op, **arguments}), deadline)
            line = process.read_line(deadline)
        except ProcessTimeout:
            raise self._timed_out(f"no answer to {what} within {self.timeout:g} s") from None
        except ProcessClosed:
            status = process.ended()
            ended = f"exited ({status})" if status != "still running" else "closed its stdout"
            raise self._error("crash", f"the engine {ended} while answering {what}", lose=True) from None
        except LineTooLong:
            raise self._error(
                "protocol", f"the answer to {what} is a line longer than {MAX_LINE_BYTES} bytes", lose=True
            ) from None

        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            raise self._error(
                "protocol", f"the answer to {what} is not UTF-8 JSON: {preview(line)}", lose=True
            ) from None
        if not isinstance(message, dict) or message.get("type") != "response":
            raise self._error("protocol", f"expected a 'response' to {what}, got {preview(line)}", lose=True)
        got = message.get("seq")
        if not _is_integer(got) or got != seq:
            raise self._error(
                "protocol", f"the response to {what} carries seq {got!r} instead of {seq}", lose=True
            )
        if "declined" in message:
            definition = "declined"
        elif "error" in message:
            definition = "error"
        elif "illegal" in message and op in REFUSES_POSITIONS:
            about = message["illegal"]
            about_position = type(about) is dict and "position" in about
            definition = "illegal-move" if op in REFUSES_MOVES and not about_position else "illegal-position"
        else:
            definition = f"{op}-answer"
        self._last_exchange = f"its response to {what}"
        if self.strict_schemas or not response_is_valid(definition, message):
            problem = schema_problem(message_validator("response", definition), message)
        else:
            problem = None
        if problem is not None:  # the stream is still in step: keep the engine
            raise self._error("protocol", f"the response to {what} is malformed: {problem}")
        if definition == "declined":
            self._mark = process.output.total
            raise EngineDeclined(message["declined"])
        if definition == "error":
            raise self._error("exception", message["error"])
        self._mark = process.output.total
        if definition == "illegal-move":
            raise self._refused_move(what, message["illegal"], arguments)
        if definition == "illegal-position":
            raise PositionRefused(message["illegal"].get("reason", ""))
        return message

    def _refused_move(self, what: str, illegal: Mapping[str, Any], arguments: Mapping[str, Any]) -> Exception:
        """The :class:`MoveRefused` of an ``illegal`` answer about a move, or the protocol error of
        one naming a ply the request does not have."""
        plies = len(arguments["moves"]) if "moves" in arguments else 1
        ply = int(illegal["ply"])
        if ply > plies:
            return self._error(
                "protocol",
                f"the response to {what} holds ply {ply} illegal, but the request has "
                f"{plies} move{'s' if plies != 1 else ''}",
            )
        return MoveRefused(illegal["move"], ply, illegal.get("reason", ""))


def move_json(move: MoveSpec) -> dict[str, Any]:
    """A move as the protocol writes it: ``{"from": 28, "to": 39, "captured": [33]}``."""
    return {"from": move.from_square, "to": move.to_square, "captured": sorted(move.captured)}


def _move_spec(data: Mapping[str, Any]) -> MoveSpec:
    return MoveSpec(int(data["from"]), int(data["to"]), frozenset(int(square) for square in data["captured"]))


def time_requests(engine: JsonlEngine, count: int = 2000, fen: str = "W:W31-50:B1-20") -> float:
    """Seconds per ``fen`` request, averaged over ``count`` round trips (for benchmarks).

    Subtract the engine's own time for the same question (e.g. the in-process oracle's) to get
    the adapter's overhead per request.
    """
    engine.fen(fen)  # warm up: schema validators built, pipes primed
    started = time.perf_counter()
    for _ in range(count):
        engine.fen(fen)
    return (time.perf_counter() - started) / count
