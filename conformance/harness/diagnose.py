"""What went wrong with an engine, in plain words: the hints of ``draughts-conformance smoke``.

Each function takes what the harness saw -- the adapter's error, the lines of the exchange
(:class:`~conformance.engines.adapters.trace.Trace` records) -- and says what the engine did and what to
change, in an engine author's words: flush stdout, write logs on stderr, echo the ``seq``, the name
of a field, the shape of a move. One misbehaviour, one hint; ``None`` when there is nothing to add
to the harness's own message.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any, Final

from conformance.core.errors import ErrorKind
from conformance.core.protocol import OPERATIONS, Capability, EngineError
from conformance.engines.adapters.jsonl_messages import answer_keys
from conformance.engines.adapters.trace import RECEIVED, TraceRecord

MOVE_SHAPE: Final = '{"from": 28, "to": 39, "captured": [33]}'
CAPABILITY_NAMES: Final = sorted(capability.value for capability in Capability)
_SEQ: Final = re.compile(r"\(seq (\d+)\)")


def _quoted(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _engine_lines(records: Sequence[TraceRecord]) -> list[str]:
    return [record.text for record in records if record.direction == RECEIVED]


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _stderr_tail(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith("[engine process")]
    return f" Its stderr ends with: {_quoted(lines[-1])}." if lines else ""


# -- the start --------------------------------------------------------------------------------------


def start_hint(protocol: str, error: EngineError, silence: str | None = None) -> str | None:
    """Why the engine did not start (``silence``: what :func:`conformance.cli.smoke.probe_silence`
    found out about a JSON-lines engine that printed nothing)."""
    message = error.message
    if "cannot run the engine command" in message:
        return (
            "The command could not be run: check its spelling and that it is executable; a relative "
            "path is looked for in the folder given with --engine-cwd."
        )
    if "exited before" in message or "exited during" in message:
        return f"The engine ended before it finished its start.{_stderr_tail(error.stderr)}"
    if protocol == "jsonl":
        return _jsonl_start_hint(message, silence)
    if protocol == "hub":
        if "no 'wait'" in message:
            return (
                "The engine never answered 'hub' with 'wait': is it started in Hub mode (e.g. 'scan hub'), "
                "and does it flush stdout after each line?"
            )
        if "no 'ready'" in message:
            return "The engine never answered 'init' with 'ready' (Hub engines load their data at 'init')."
        if "not Hub" in message:
            return (
                "The engine printed text that is not a Hub line at the start (a banner?): print banners "
                "and logs on stderr; stdout carries Hub lines only."
            )
    if protocol == "dxp":
        if "cannot connect" in message or "before listening" in message:
            return (
                "Nothing listened on the port: a DXP engine started by a command must listen on the "
                "port given as $DXP_PORT (or in place of {port} in the command)."
            )
        if "refused the probe game" in message:
            return (
                "The engine refused the first game (the initial position, the harness to move): a DXP "
                "follower must accept a GAMEREQ from any initiator."
            )
    return None


def _jsonl_start_hint(message: str, silence: str | None) -> str | None:
    if "printed nothing" in message:
        if silence == "answers-requests":
            return (
                "The engine answered a request but not 'start': its first line of input is "
                '{"type": "start", ...}, to be answered with {"type": "started", ...} before any request.'
            )
        if silence == "at-exit":
            return (
                "The engine's 'started' line came out only when its stdin was closed: it does not flush "
                "stdout after each line (Python: print(..., flush=True); C: fflush(stdout))."
            )
        return (
            "The engine printed nothing, not even when its stdin was closed: does it read 'start' from "
            "stdin, and flush stdout after each line?"
        )
    if "without ending the line" in message:
        return "The engine did not end its 'started' line: every message ends with a newline."
    if "nested too deeply" in message:
        return "The engine's first line is JSON nested thousands deep: 'started' is a flat object."
    if "before its 'started' line" in message:
        return (
            "The engine printed a banner (or a log line) on stdout before its 'started' line: print banners "
            "and logs on stderr; stdout carries protocol messages only."
        )
    if "not UTF-8 JSON" in message:
        return (
            "The engine printed text instead of its 'started' line: the answer to 'start' is one JSON "
            'object on one line, {"type": "started", ...}.'
        )
    if "speaks protocol" in message:
        return "The engine answered 'start' for another protocol version: answer with \"protocol\": 1."
    if "not a valid 'started' message" in message:
        unknown = re.search(r"'([^']+)' is not one of", message)
        if unknown:
            close = difflib.get_close_matches(unknown.group(1), CAPABILITY_NAMES, n=1)
            maybe = f" (did you mean {close[0]!r}?)" if close else ""
            return (
                f"The engine declares {unknown.group(1)!r}, which is not a capability{maybe}; the capabilities "
                f"are: {', '.join(CAPABILITY_NAMES)}."
            )
        return (
            "The 'started' line is not what the protocol says: "
            '{"type": "started", "protocol": 1, "engine": {"name": ..., "version": ...}, "capabilities": [...]}.'
        )
    return None


def silence_kind(lines_before_close: Sequence[str], lines_after_close: Sequence[str]) -> str:
    """What a silent JSON-lines engine did when sent ``start`` and a request, then end of input:
    ``answers-requests``, ``at-exit`` (it printed only on exit: no flush) or ``nothing``."""
    for line in lines_before_close:
        message = _json(line)
        if isinstance(message, dict) and message.get("type") == "response":
            return "answers-requests"
    for line in lines_after_close:
        message = _json(line)
        if isinstance(message, dict) and message.get("type") == "started":
            return "at-exit"
        if isinstance(message, dict) and message.get("type") == "response":
            return "answers-requests"
    return "nothing"


# -- a request --------------------------------------------------------------------------------------


def request_hint(
    protocol: str, op: str, kind: str, message: str, stderr: str, records: Sequence[TraceRecord]
) -> str | None:
    """What to change when a request of operation ``op`` ended in an error of ``kind``."""
    if kind == ErrorKind.TIMEOUT:
        return _timeout_hint(protocol, message)
    if kind == ErrorKind.CRASH:
        if "restart budget exhausted" in message:
            return "The engine was restarted too often: see the first problem above."
        ending = "killed by a signal" if "signal" in message else "exited"
        if protocol == "hub":
            return (
                f"The engine {ending} during the search: it must answer every 'go think' with 'done' (a bare "
                f"'done' when it has no move).{_stderr_tail(stderr)}"
            )
        if protocol == "dxp":
            return (
                f"The engine {ending} (or closed the connection) in the middle of a game: it must answer a "
                f"game it accepted with a MOVE, or a GAMEEND when it has no move.{_stderr_tail(stderr)}"
            )
        return (
            f"The engine {ending} while working on the request: it must answer every request, with "
            f'{{"error": "..."}} or {{"declined": "..."}} when it cannot.{_stderr_tail(stderr)}'
        )
    if kind == ErrorKind.EXCEPTION:
        return (
            "The engine answered with an error on a simple position; see its message (and stderr) for "
            "the bug."
        )
    if kind == ErrorKind.PROTOCOL:
        if protocol == "jsonl":
            return _jsonl_protocol_hint(op, message, records)
        if protocol == "hub":
            return _hub_protocol_hint(message)
        if protocol == "dxp":
            return _dxp_protocol_hint(message)
    return None


def _timeout_hint(protocol: str, message: str) -> str:
    if "has not read it" in message:
        return (
            "The engine did not even read the request from its stdin: after 'started' it must keep "
            "reading requests, one line at a time."
        )
    if protocol == "jsonl":
        return (
            "The engine read the request but no answer came in time: it is stuck on it, or it does not "
            "flush stdout after its answer."
        )
    if "'pong'" in message:
        return "The engine did not answer 'ping' with 'pong' (Hub engines must, at any time)."
    if protocol == "hub":
        return (
            "No 'done' came after 'go think': does the engine respect the 'level' line (--search-depth, "
            "--move-time)? Give it more time with --timeout."
        )
    return "The engine accepted the game but sent no move in time (DXP MOVE message)."


def _jsonl_protocol_hint(op: str, message: str, records: Sequence[TraceRecord]) -> str | None:
    lines = _engine_lines(records)
    if "not UTF-8 JSON" in message:
        bad = re.search(r"not UTF-8 JSON: (.*)$", message)
        text = bad.group(1) if bad else "a line"
        seq = _SEQ.search(message)
        if seq is not None and _answered_later(lines, int(seq.group(1))):
            return (
                f"The engine printed {text} on stdout before its answer: write logs on stderr; stdout "
                "carries protocol messages only."
            )
        return (
            f"The engine answered {op} with {text}, which is not JSON: each answer is one JSON object on "
            'one line, {"type": "response", "seq": N, ...}.'
        )
    if "nested too deeply" in message:
        return f"The answer to {op} is JSON nested thousands deep: answers are small, flat objects."
    carries = re.search(r"carries seq (\S+) instead of (\d+)", message)
    if carries:
        return (
            f"The response carries seq {carries.group(1)}, not the request's {carries.group(2)}: copy the "
            "'seq' of each request into its response."
        )
    if "nobody asked for" in message:
        return (
            "The engine wrote a line after its answer that nobody asked for (a second answer, or a log "
            "line): answer each request with exactly one line, and log on stderr."
        )
    if "expected a 'response'" in message:
        return 'Each answer is {"type": "response", "seq": N, ...}: the engine sent another kind of message.'
    if "is malformed" in message:
        seq = _SEQ.search(message)
        response = _response(lines, int(seq.group(1))) if seq else None
        problem = response_problem(op, response) if isinstance(response, dict) else None
        if problem is not None:
            return problem
        return f"The answer to {op} does not have the shape docs/protocol.md gives it."
    if "longer than" in message:
        return "The answer is a line of more than 4 MiB: is a newline missing between answers?"
    return None


def _answered_later(lines: Sequence[str], seq: int) -> bool:
    return _response(lines, seq) is not None


def _response(lines: Sequence[str], seq: int) -> dict[str, Any] | None:
    for line in lines:
        message = _json(line)
        if isinstance(message, dict) and message.get("type") == "response" and message.get("seq") == seq:
            return message
    return None


def response_problem(op: str, response: dict[str, Any]) -> str | None:
    """The first thing wrong with the shape of a JSON-lines response to ``op``, in words."""
    if "declined" in response or "error" in response or "illegal" in response:
        return None
    required, allowed = answer_keys(op)
    for key in response:
        if key in ("type", "seq") or key in allowed:
            continue
        close = difflib.get_close_matches(key, sorted(allowed), n=1)
        maybe = f" (did you mean {close[0]!r}?)" if close else ""
        return f"The answer to {op} has the key {key!r}, which the protocol does not know{maybe}."
    for key in sorted(required - response.keys()):
        return f"The answer to {op} lacks the key {key!r}."
    if op in ("legal_moves", "choose_move", "parse_move"):
        moves = response.get("moves") if op == "legal_moves" else [response.get("move")]
        if isinstance(moves, list):
            for move in moves:
                problem = move_problem(move, nullable=op != "legal_moves")
                if problem is not None:
                    return f"The answer to {op}: {problem}"
    expected_types = {"valid": bool, "count": int, "position": str, "text": str}
    for key, kind in expected_types.items():
        value = response.get(key)
        if key in response and value is not None and type(value) is not kind:
            words = {bool: "true or false", int: "a whole number", str: "a string"}[kind]
            return f"The answer to {op}: {key!r} must be {words}, not {json.dumps(value)}."
    return None


def move_problem(move: Any, *, nullable: bool = False) -> str | None:
    """What is wrong with one move of an answer, or ``None``."""
    if move is None and nullable:
        return None
    if isinstance(move, str):
        return f"a move is an object {MOVE_SHAPE}, not the text {move!r}."
    if not isinstance(move, dict):
        return f"a move is an object {MOVE_SHAPE}, not {json.dumps(move)}."
    for key in move:
        if key not in ("from", "to", "captured"):
            close = difflib.get_close_matches(key, ["from", "to", "captured"], n=1)
            maybe = f" (did you mean {close[0]!r}?)" if close else ""
            return f"a move has the key {key!r}{maybe}; a move is {MOVE_SHAPE}."
    for key in ("from", "to", "captured"):
        if key not in move:
            return f"a move lacks {key!r}; a move is {MOVE_SHAPE}."
    if not isinstance(move["captured"], list):
        return (
            f"'captured' is the list of captured squares ([] for a step), not {json.dumps(move['captured'])}."
        )
    return None


def _hub_protocol_hint(message: str) -> str | None:
    if "is not a move" in message:
        return (
            "Hub writes a move as from-to (32-28) or from x to x every captured square (28x39x33), "
            "without intermediate squares."
        )
    if "not Hub" in message:
        return (
            "The engine printed a line that is not Hub (<command> <name>=<value> ...) during its search: "
            "only Hub lines (info, done move=...) go to stdout."
        )
    if "answered 'go think' with error" in message:
        return "The engine answered 'go think' with 'error': it accepted the position, so it must search it."
    return None


def _dxp_protocol_hint(message: str) -> str | None:
    if "unknown DXP message type" in message:
        return "The engine sent a message of a type DXP does not have (R, A, M, E, C, B, K)."
    if "MOVE" in message and ("expected" in message or "characters" in message or "outside" in message):
        return (
            "A DXP MOVE is 'M', the time (4 digits), from and to (2 digits each), the number of captured "
            "pieces (2 digits) and each captured square (2 digits)."
        )
    if "without a NUL" in message:
        return "Every DXP message ends with one NUL byte, and is at most 127 characters."
    if "GAMEACC code" in message:
        return "The engine refused the game (GAMEACC code 1 or 3): it must accept games in any position."
    return None


# -- a wrong answer ---------------------------------------------------------------------------------


def fail_hint(protocol: str, op: str, message: str, backward_capture: str | None = None) -> str | None:
    """A well-formed but wrong answer; ``backward_capture``: the one legal move of the position asked
    about, when it is a man's capture backward (smoke's capture probe)."""
    said = {"hub": "its 'done move='", "dxp": "its MOVE"}.get(protocol, "its answer")
    if backward_capture is not None and _misses(message, backward_capture):
        return (
            f"The one legal move here is {backward_capture}, a man capturing backward: men capture backward "
            "as well as forward (Art. 4.1), and capturing is compulsory (Art. 4.2)."
        )
    if "refused a valid position" in message:
        how = {"hub": "with 'error' to 'pos'", "dxp": "with GAMEACC code 2"}.get(protocol, "as illegal")
        return (
            f"The engine refuses ({how}) a position where both sides have pieces: every such position is "
            "valid (Art. 2)."
        )
    if "which is not legal here" in message:
        return (
            f"The engine chose, in {said}, a move that is not legal in the position (capture is compulsory, "
            "Art. 4.2, and takes the most pieces, Art. 4.13)."
        )
    if "missing" in message or "extra" in message:
        return (
            "Compare with the expected moves: a move lists the squares of the pieces it captures "
            "(not those it lands on), and a capture is compulsory (Art. 4.2)."
        )
    if "refused the legal move" in message:
        return "The engine holds a legal move illegal: see the rule named."
    return f"The engine's answer to {op} is well-formed but not the right one."


def _misses(message: str, move: str) -> bool:
    """Whether the failure ``message`` says the engine does not play ``move`` at all (missing, and not
    listed among the extra moves with other captured squares), or refused as illegal."""
    if "refused the legal move" in message:
        return True
    parts = dict(part.strip().partition(":")[::2] for part in message.split(";"))
    return move in parts.get("missing", "") and move not in parts.get("extra", "")


def decline_hint(op: str) -> str:
    return (
        f"The engine declined {op} on a simple position: fine for a question it cannot answer, but a "
        "capability that is always declined certifies nothing; declare only what it answers."
    )


def operation_names() -> list[str]:
    return [capability.value for capability in OPERATIONS]
