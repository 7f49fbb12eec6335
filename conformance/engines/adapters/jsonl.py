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
encoding of requests are :mod:`conformance.engines.adapters.jsonl_messages`'s. This module holds the
session after ``started``: requests, their answers, pipelining, restarts.

An engine that declares ``"pipeline": N`` in ``started`` (1.1) may have up to N requests in flight:
:meth:`JsonlEngine.send_ahead` sends the requests a caller knows it will make (the runner: the
first request of each question of the next cases), and each later call takes the answer of its
request, matched by ``seq``. Every request keeps its own timeout, counted from when it was sent or
the engine's previous answer, whichever is later; a timeout, a crash or a stream out of step is
charged to the oldest request unanswered, and the other requests in flight are sent again to the
restarted engine, so results do not depend on pipelining.
"""

from __future__ import annotations

import collections
import json
import time
from collections.abc import Iterable, Mapping, Sequence
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
    SCHEMA_BASE,
    SCHEMA_DIR,
    SCHEMA_FILES,
    is_integer,
    message_validator,
    move_json,
    move_spec,
    request_arguments,
    request_body,
    response_is_valid,
    schema_problem,
    schema_registry,
)
from conformance.engines.adapters.jsonl_start import Started, start_exchange
from conformance.engines.adapters.process import (
    LINGER_SECONDS,
    OUTPUT_KEPT_BYTES,
    OUTPUT_SHOWN_CHARS,
    EngineProcess,
    LineTooLong,
    ProcessClosed,
    ProcessTimeout,
    preview,
    split_command,
)
from conformance.engines.adapters.restarts import ProcessEngine
from conformance.engines.adapters.trace import Trace, asked

__all__ = [
    "MAX_LINE_BYTES",
    "MAX_PIPELINE",
    "REFUSES_MOVES",
    "REFUSES_POSITIONS",
    "SCHEMA_BASE",
    "SCHEMA_DIR",
    "SCHEMA_FILES",
    "STDERR_KEPT_BYTES",
    "STDERR_SHOWN_CHARS",
    "JsonlEngine",
    "message_validator",
    "move_json",
    "request_arguments",
    "response_is_valid",
    "schema_problem",
    "schema_registry",
]

STDERR_KEPT_BYTES: Final = OUTPUT_KEPT_BYTES
"""How much of an engine's stderr is kept (the most recent part)."""
STDERR_SHOWN_CHARS: Final = OUTPUT_SHOWN_CHARS
"""How much stderr one error carries (its most recent part)."""
MAX_PIPELINE: Final = 64
"""The most requests the harness keeps in flight, whatever an engine declares."""


class _Request:
    """One request of the session, from the moment it is known to the moment its answer is taken."""

    __slots__ = ("abandoned", "about", "body", "failure", "key", "line", "message", "op", "sent", "seq")

    def __init__(self, op: str, body: bytes, key: object) -> None:
        self.about = asked() or ""
        """What the caller was asking when the request was made (the case and question), for the trace."""
        self.op = op
        self.body = body
        """The request line after its ``seq``: :func:`request_body`."""
        self.key = key
        """The call that makes the request, ``(method, args)``: how a call finds the request sent
        ahead for it."""
        self.seq: int | None = None
        self.sent = 0.0
        self.message: dict[str, Any] | None = None
        self.line = b""
        self.failure: EngineError | None = None
        """The error of this request, when the engine was lost while it was the oldest unanswered."""
        self.abandoned = False

    @property
    def what(self) -> str:
        return f"{self.op} (seq {self.seq})"

    def line_for(self, seq: int) -> bytes:
        return b'{"type":"request","seq":%d,' % seq + self.body


# -- the adapter -------------------------------------------------------------------------------


class JsonlEngine(ProcessEngine):
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
    :data:`MAX_PIPELINE`; 1: one at a time); ``adapter`` is how reports name the engine's adapter
    (``jsonl:COMMAND`` by default). One caller at a time: use one instance per worker thread.
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
        if pipeline is not None and pipeline < 1:
            raise ValueError(f"pipeline must be 1 or more, not {pipeline!r}")
        self.strict_schemas = strict_schemas
        self._pipeline_cap = min(pipeline or MAX_PIPELINE, MAX_PIPELINE)
        self.pipeline = 1
        """How many requests may be in flight: what the engine declared, within the cap."""
        self._refill = 1
        self.declared_pipeline = 1
        """What the engine declared in ``started`` (1 when it declared nothing)."""
        self._seq = 0
        self._ahead: collections.deque[_Request] = collections.deque()
        """Requests sent ahead (or waiting to be), in the order they will be asked."""
        self._flight: dict[int, _Request] = {}
        """The requests sent and not answered yet, by ``seq`` (oldest first)."""
        self._early: dict[int, _Request] = {}
        """Requests answered while an older one was still unanswered, by ``seq``: their answers are
        not taken until every older request is answered (an answer under a shifted ``seq`` would be
        another question's), and are not trusted when the stream turns out to be out of step."""
        self._declared: frozenset[str] = frozenset()
        """The operations the engine declared (the engine methods it answers)."""
        self._answered_at = 0.0
        """When the engine last answered (a request's time starts then, or when it was sent)."""
        self.most_in_flight = 0
        """The most requests that were in flight at once (for tests and benchmarks)."""
        self.minor = 0
        """The minor protocol version the engine stated in ``started`` (0 when it stated none)."""
        self._last_answered: _Request | None = None
        """The request the engine last answered (for messages about output nobody asked for)."""
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

    # -- pipelining --------------------------------------------------------------------------

    def send_ahead(self, calls: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """Send, now or as soon as the pipeline has room, the requests of calls about to be made
        (``("legal_moves", (fen,))``...), in the order they will be made. Nothing is sent to an
        engine that does not pipeline, nor for an operation it did not declare; a call that is
        then made takes its answer, a call made out of order sends its own request, and a request
        whose call is never made is answered and forgotten."""
        if self.pipeline <= 1:
            return
        declared = self._declared
        for method, args in calls:
            if method in declared:
                _, arguments = ARGUMENTS[method](*args)
                self._ahead.append(_Request(method, request_body(method, arguments), (method, tuple(args))))
        process = self._process
        flight = len(self._flight)
        if (
            process is not None
            and not self._closed
            and (not flight or self.pipeline - flight >= self._refill)
        ):
            self._send_waiting(process)

    def _take(self, method: str, key: object, args: Sequence[Any]) -> _Request:
        """The request sent ahead for this call, if any (those before it are abandoned), else a new one."""
        ahead = self._ahead
        if not any(waiting.key == key for waiting in ahead):
            _, arguments = ARGUMENTS[method](*args)
            return _Request(method, request_body(method, arguments), key)
        while True:
            waiting = ahead.popleft()
            if waiting.key == key:
                return waiting
            waiting.abandoned = True

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

    def _answered_early(self, request: _Request) -> bool:
        """Whether ``request`` was answered while an older request is still unanswered (its answer
        is then held: :attr:`_early`); once none is, its answer is released."""
        seq = request.seq
        if seq is None or seq not in self._early:
            return False
        if self._flight and next(iter(self._flight)) < seq:
            return True
        del self._early[seq]
        return False

    def _file(self, request: _Request, message: dict[str, Any]) -> None:
        """``message`` is the answer of ``request`` (popped from the requests in flight)."""
        self._answered_at = time.monotonic()
        self._last_answered = request
        request.message = message
        if self._flight and request.seq is not None and next(iter(self._flight)) < request.seq:
            self._early[request.seq] = request

    def _between(self, process: EngineProcess, request: _Request) -> bool:
        """With nothing in flight, check the engine wrote nothing unasked and is still there; if it
        did either, ``request`` fails (the engine is lost) and ``False`` is returned."""
        if self._flight:
            return True
        pending = process.pending_output()
        if pending:
            request.failure = self._error(
                "protocol",
                f"the engine wrote output nobody asked for after {self._last_exchange}: {preview(pending)}",
                lose=True,
            )
            return False
        if process.out_eof:
            request.failure = self._error(
                "crash", f"the engine exited between requests ({process.ended()})", lose=True
            )
            return False
        return True

    def _send(self, process: EngineProcess, request: _Request) -> None:
        """Send ``request``, and with it the requests waiting ahead while the pipeline has room."""
        if not self._between(process, request):
            return
        batch = [request]
        if self._ahead and self.pipeline > 1:
            batch += self._waiting(self.pipeline - len(self._flight) - 1, besides=request)
        self._write(process, batch)

    def _send_waiting(self, process: EngineProcess) -> None:
        """Send the requests waiting ahead once the pipeline has room for half of it (one write
        for several requests: each write wakes the engine up)."""
        room = self.pipeline - len(self._flight)
        if self._flight and room < self._refill:
            return
        batch = self._waiting(room)
        if batch and self._between(process, batch[0]):
            self._write(process, batch)

    def _waiting(self, room: int, besides: _Request | None = None) -> list[_Request]:
        batch: list[_Request] = []
        for request in self._ahead:
            if len(batch) >= room:
                break
            unsent = request.seq is None and request.message is None and request.failure is None
            if unsent and request is not besides:
                batch.append(request)
        return batch

    def _write(self, process: EngineProcess, batch: list[_Request]) -> None:
        now = time.monotonic()
        data = []
        for request in batch:
            self._seq += 1
            request.seq = self._seq
            request.sent = now
            self._flight[self._seq] = request
            data.append(request.line_for(self._seq))
        self.most_in_flight = max(self.most_in_flight, len(self._flight))
        try:
            process.write(b"".join(data), now + self.timeout, about=[request.about for request in batch])
        except ProcessClosed:
            # The engine is gone. Which request it died on is told by reading what it answered
            # before: the answers still in the pipe, then the end of its output (_read_one).
            pass
        except ProcessTimeout:  # it stopped reading: what it answered before is read, then the oldest fails
            while self._flight and b"\n" in process.buffer:
                self._read_one(process)
            if self._flight:
                oldest = next(iter(self._flight.values()))
                self._lose_flight(
                    "timeout", f"the engine stopped reading its requests; no answer to {oldest.what}"
                )

    def _read_one(self, process: EngineProcess) -> None:
        """Read the next response and file it under its request; a failure is charged to the
        oldest request in flight (the engine is then lost)."""
        line = process.buffered_line()  # pipelined answers come several at a time
        if line is not None:  # the usual case, first: a response to a request in flight
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                message = None
            if type(message) is dict and message.get("type") == "response":
                seq = message.get("seq")
                request = self._flight.pop(seq, None) if type(seq) is int else None
                if request is not None:
                    self._file(request, message)
                    return
        self._read_slowly(process, line)

    def _read_slowly(self, process: EngineProcess, line: bytes | None) -> None:
        """:meth:`_read_one` for a line not read yet, or one that is not a plain response."""
        oldest = next(iter(self._flight.values()))
        try:
            if line is None:
                line = process.read_line(max(oldest.sent, self._answered_at) + self.timeout)
        except ProcessTimeout:
            unread = process.unread_input() if len(self._flight) == 1 else None
            note = ": the engine has not read it from its stdin" if unread else ""
            self._lose_flight("timeout", f"no answer to {oldest.what} within {self.timeout:g} s{note}")
            return
        except ProcessClosed:
            self._lose_flight("crash", f"the engine {self._ended(process)} while answering {oldest.what}")
            return
        except LineTooLong:
            self._lose_flight(
                "protocol", f"the answer to {oldest.what} is a line longer than {MAX_LINE_BYTES} bytes"
            )
            return
        try:
            message = json.loads(line.decode("utf-8"))
        except RecursionError:
            self._lose_flight("protocol", f"the answer to {oldest.what} is JSON nested too deeply to read")
            return
        except ValueError:
            process.linger(LINGER_SECONDS)  # what follows it (an answer: it was a log line) is traced
            self._lose_flight("protocol", f"the answer to {oldest.what} is not UTF-8 JSON: {preview(line)}")
            return
        if not isinstance(message, dict) or message.get("type") != "response":
            self._lose_flight("protocol", f"expected a 'response' to {oldest.what}, got {preview(line)}")
            return
        got = message.get("seq")
        request = self._flight.pop(got, None) if is_integer(got) and got in self._flight else None
        if request is None:
            if isinstance(got, int | float) and is_integer(got) and 0 < got <= self._seq:  # answered before
                problem = (
                    f"the engine wrote output nobody asked for after {self._last_exchange}: a second "
                    f"response to seq {got}, where the response to {oldest.what} was due"
                )
            elif len(self._flight) == 1:
                problem = f"the response to {oldest.what} carries seq {got!r} instead of {oldest.seq}"
            else:
                problem = (
                    f"a response carries seq {got!r}, which is not that of a request in flight "
                    f"({', '.join(map(str, self._flight))})"
                )
            self._lose_flight("protocol", problem, out_of_step=True)
            return
        self._file(request, message)

    def _ended(self, process: EngineProcess) -> str:
        status = process.ended()
        return f"exited ({status})" if status != "still running" else "closed its stdout"

    def _lose_flight(self, kind: str, message: str, *, out_of_step: bool = False) -> None:
        """The engine is lost: the oldest request in flight fails with this error, the others will
        be sent again to the restarted engine. The answers held because they came before the oldest
        one's (:attr:`_early`) are sent again too -- unless the engine is ``out_of_step`` (a
        response under a ``seq`` no request in flight has): then each may be another question's
        answer, and fails as such, never judged."""
        requests = list(self._flight.values())
        self._flight.clear()
        oldest = requests[0].seq or 0
        early = [request for seq, request in self._early.items() if seq > oldest]
        for request in early:
            del self._early[request.seq]  # type: ignore[arg-type]
        error = self._timed_out(message) if kind == "timeout" else self._error(kind, message, lose=True)
        requests[0].failure = error
        for request in requests[1:]:
            request.seq = None
        for request in early:
            request.message = None
            if out_of_step:
                request.failure = EngineError(
                    "protocol",
                    f"the engine answered {request.what} while out of step ({message}): its answer may "
                    "be another question's, and is not judged",
                    error.stderr,
                )
            else:
                request.seq = None

    def _judge(self, request: _Request, args: Sequence[Any]) -> dict[str, Any]:
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
        if self.strict_schemas or not response_is_valid(definition, message):
            problem = schema_problem(message_validator("response", definition), message)
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
