"""The JSON-lines subprocess adapter: any program that speaks ``docs/protocol.md`` is an engine.

The harness starts the engine command in a process group of its own and talks to it over its
stdin and stdout, one UTF-8 JSON object per line: ``start``/``started``, then one ``request``
per question with an echoed ``seq``, then ``stop``. Every message the engine sends is checked
against the JSON Schemas in ``conformance/schemas/jsonl-*.json``.

Protocol 1.1 answers become the exceptions of :mod:`conformance.core.protocol`, judged by
:mod:`conformance.harness.judges` and :mod:`conformance.harness.evaluate`: ``illegal`` about a move is
:class:`MoveRefused` (move text, ply), ``illegal`` about the position :class:`PositionRefused`, a
``perft`` answer of ``counts`` short of the depth asked :class:`PerftReached`, ``declined``
:class:`EngineDeclined`.

What can go wrong maps onto :class:`~conformance.core.protocol.EngineError` kinds: ``start`` (the
start exchange failed), ``timeout`` (no answer in time: the process group is killed),
``crash`` (the engine exited, or the restart budget is spent), ``protocol`` (not JSON, wrong
``seq``, a message outside the schema, output nobody asked for) and ``exception`` (the engine
answered ``error``). After a timeout, a crash or a protocol violation that leaves the stream
out of step, the engine is restarted on the next request, within a restart budget. The
engine's stderr is kept (bounded) and attached to every error.

The engine process, its restarts and its errors are :mod:`conformance.engines.adapters.process`'s, as
for the Hub and DXP adapters. POSIX only: process groups (``start_new_session``) and ``select.poll``.
The start exchange (``start`` sent, ``started`` checked and read) is
:mod:`conformance.engines.adapters.jsonl_start`'s; the messages' schemas, their fast check and the
encoding of requests are :mod:`conformance.engines.adapters.jsonl_messages`'s; the requests in flight
(sent ahead, matched to their answers by ``seq``, the oldest charged when the engine is lost) are
:mod:`conformance.engines.adapters.jsonl_pipeline`'s. This module holds the session after
``started``: the engine's methods, the request of each call, and what its answer means.

An engine that declares ``"pipeline": N`` in ``started`` (1.1) may have up to N requests in flight
(:meth:`JsonlEngine.send_ahead`); results do not depend on pipelining.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from conformance.core.protocol import (
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
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.engines.adapters.jsonl_messages import (
    ANSWER_DEFINITIONS,
    ARGUMENTS,
    MAX_LINE_BYTES,
    REFUSES_MOVES,
    REFUSES_POSITIONS,
    board_squares,
    message_validator,
    move_spec,
    response_is_valid,
    schema_problem,
)
from conformance.engines.adapters.jsonl_pipeline import PipelinedEngine, Request
from conformance.engines.adapters.jsonl_start import Started, start_exchange
from conformance.engines.adapters.process import OUTPUT_KEPT_BYTES, OUTPUT_SHOWN_CHARS, split_command
from conformance.engines.adapters.trace import Trace

__all__ = ["STDERR_KEPT_BYTES", "STDERR_SHOWN_CHARS", "JsonlEngine"]

STDERR_KEPT_BYTES: Final = OUTPUT_KEPT_BYTES
"""How much of an engine's stderr is kept (the most recent part)."""
STDERR_SHOWN_CHARS: Final = OUTPUT_SHOWN_CHARS
"""How much stderr one error carries (its most recent part)."""


# -- the adapter -------------------------------------------------------------------------------


class JsonlEngine(PipelinedEngine):
    """An engine reached over the JSON-lines protocol (version 1.1, ``docs/protocol.md``).

    ``command`` is a command line (split with :func:`shlex.split`, or run by ``/bin/sh`` when
    ``shell`` is true) or an argument list. The engine is started at once: a failed start
    exchange raises ``EngineError("start", ...)``. ``timeout`` bounds each request (seconds),
    ``start_timeout`` the start exchange; ``restart_budget`` is how many times the engine may
    be restarted after a timeout, crash or protocol violation; ``env`` adds variables to the
    inherited environment; ``cwd`` is the folder it runs in; ``stop_grace`` is how long
    :meth:`close` lets the engine exit; ``strict_schemas`` has jsonschema check every response
    (slower; the default check accepts exactly the same messages); ``trace`` records every line;
    ``pipeline`` caps the requests in flight (default: as many as the engine declares, at most
    :data:`~conformance.engines.adapters.jsonl_pipeline.MAX_PIPELINE`; 1: one at a time);
    ``adapter`` is how reports name the engine's adapter (``jsonl:COMMAND`` by default). One caller at a time: use one instance per worker thread.
    """

    farewell = b'{"type":"stop"}\n'
    short_reports = True
    label = "jsonl"

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
        trace: Trace | None = None,
        pipeline: int | None = None,
        adapter: str | None = None,
        rule_set: RuleSet = INTERNATIONAL_SET,
    ) -> None:
        self.command, self._args = split_command(command, shell=shell)
        self.rule_set = rule_set
        """The game the engine is started for: its ``start`` message says so (protocol 1.2)."""
        self._squares = board_squares(rule_set.rules.board_size)
        """The squares of that game's board: a move naming another is a malformed answer."""
        self._adapter = adapter or f"jsonl:{self.command}"
        """How the reports name the way the engine is reached (``jsonl:COMMAND`` by default)."""
        super().__init__(
            timeout=timeout,
            start_timeout=start_timeout,
            restart_budget=restart_budget,
            env=env,
            cwd=cwd,
            shell=shell,
            stop_grace=stop_grace,
            trace=trace,
        )
        self._init_pipeline(pipeline)
        self.strict_schemas = strict_schemas
        self.minor = 0
        """The minor protocol version the engine stated in ``started`` (0 when it stated none)."""
        self._info = self._start_engine()

    # -- the Engine interface ----------------------------------------------------------------

    def fen(self, fen: str) -> FenAnswer:
        answer = self._call("fen", fen)
        return FenAnswer(answer["valid"], answer.get("position"))

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        return [move_spec(move) for move in self._call("legal_moves", fen)["moves"]]

    def move_count(self, fen: str) -> int:
        return int(self._call("move_count", fen)["count"])

    def perft(self, fen: str, depth: int) -> int:
        answer = self._call("perft", fen, depth)
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
        return str(self._call("play", fen, moves)["position"])

    def parse_move(self, fen: str, text: str, notation: str) -> MoveTextAnswer:
        answer = self._call("parse_move", fen, text, notation)
        move = answer.get("move")
        return MoveTextAnswer(Verdict(answer["verdict"]), move_spec(move) if move is not None else None)

    def format_move(self, fen: str, move: MoveSpec, notation: str) -> str:
        return str(self._call("format_move", fen, move, notation)["text"])

    def outcome(self, fen: str, counters: Mapping[str, int], moves: Sequence[str]) -> OutcomeAnswer:
        answer = self._call("outcome", fen, counters, moves)
        ply = answer.get("ply")
        return OutcomeAnswer(answer["result"], answer.get("rule"), int(ply) if ply is not None else None)

    def initial_position(self) -> str:
        return str(self._call("initial_position")["position"])

    def choose_move(self, fen: str) -> MoveSpec | None:
        move = self._call("choose_move", fen)["move"]
        return move_spec(move) if move is not None else None

    def __repr__(self) -> str:
        return f"JsonlEngine({self.command!r})"

    # -- the start exchange --------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        """Start the engine and hold the start exchange; ``EngineError("start")`` if it fails."""
        process = self._spawn(self._args, self._env, max_line=MAX_LINE_BYTES, strip_cr=False)

        def fail(message: str) -> EngineError:
            return self._start_failed(process, message)

        message = start_exchange(
            process, timeout=self.timeout, start_timeout=self.start_timeout, fail=fail, rule_set=self.rule_set
        )
        self._process = process
        self._mark = process.output.total
        self._last_answered = None
        self._flight.clear()
        self._early.clear()
        started = Started.of(message, adapter=self._adapter)
        self._declared = started.operations
        self.minor = started.minor
        self.declared_pipeline = started.pipeline
        self.pipeline = max(1, min(self.declared_pipeline, self._pipeline_cap))
        self._refill = max(1, self.pipeline // 2)
        """Requests sent ahead go out once the pipeline has room for this many (one write each)."""
        if self.pipeline > 1:  # an answer may be read while another question is asked: its seq tells
            process.unlabel_output()
        return started.info

    @property
    def _last_exchange(self) -> str:
        last = self._last_answered
        return f"its response to {last.what}" if last is not None else "'started'"

    def _restart_problem(self, info: EngineInfo) -> str | None:
        if info == self._info:
            return None
        return (
            f"the restarted engine announced {info.name} {info.version} with capabilities "
            f"{sorted(c.value for c in info.capabilities)}, not what it announced at first"
        )

    # -- requests ----------------------------------------------------------------------------

    def _call(self, method: str, *args: Any) -> dict[str, Any]:
        """Send the request of engine method ``method`` (or take the one sent ahead for this call)
        and return its validated answer, or raise what the response means."""
        if method not in self._declared:
            raise EngineDeclined(f"the engine did not declare the {method!r} capability")
        if not self.budget.contact():
            raise self.exhausted_error()
        key = (method, args)
        ahead = self._ahead
        request = ahead.popleft() if ahead and ahead[0].key == key else self._take(method, key, args)
        while True:
            failure = request.failure
            if failure is not None:
                request.failure = None
                raise failure
            if request.message is not None:
                if not self._answered_early(request):
                    return self._judge(request, args)
                self._read_one(self._running())  # the older requests' answers first
                continue
            process = self._running()
            if request.seq is None:
                if len(self._flight) >= self.pipeline:
                    self._read_one(process)  # make room
                else:
                    self._send(process, request)
            else:
                self._read_one(process)

    def _judge(self, request: Request, args: Sequence[Any]) -> dict[str, Any]:
        """The answer of a response read for ``request``, or what it means."""
        op, message = request.op, request.message
        assert message is not None
        if "declined" in message:
            definition = "declined"
        elif "error" in message:
            definition = "error"
        elif "illegal" in message and op in REFUSES_POSITIONS:
            about = message["illegal"]
            about_position = type(about) is dict and "position" in about
            definition = "illegal-move" if op in REFUSES_MOVES and not about_position else "illegal-position"
        else:
            definition = ANSWER_DEFINITIONS[op]
        if self.strict_schemas or not response_is_valid(definition, message, self._squares):
            problem = schema_problem(message_validator("response", definition, self._squares), message)
        else:
            problem = None
        if problem is not None:  # the stream is still in step: keep the engine
            raise self._error("protocol", f"the response to {request.what} is malformed: {problem}")
        if definition == "declined":
            self._marked()
            raise EngineDeclined(message["declined"])
        if definition == "error":
            raise self._error("exception", message["error"])
        self._marked()
        if definition == "illegal-move":
            raise self._refused_move(request.what, message["illegal"], ARGUMENTS[op](*args)[1])
        if definition == "illegal-position":
            raise PositionRefused(message["illegal"].get("reason", ""))
        return message

    def _marked(self) -> None:
        if self._process is not None and not self._flight:
            self._mark = self._process.output.total

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
