"""The requests in flight of a JSON-lines session: sent ahead, matched to their answers by ``seq``.

An engine that declares ``"pipeline": N`` in ``started`` (1.1) may have up to N requests in flight:
:meth:`PipelinedEngine.send_ahead` sends the requests a caller knows it will make (the runner: the
first request of each question of the next cases), and each later call takes the answer of its
request, matched by ``seq``. Every request keeps its own timeout, counted from when it was sent or
the engine's previous answer, whichever is later; a timeout, a crash or a stream out of step is
charged to the oldest request unanswered, and the other requests in flight are sent again to the
restarted engine, so results do not depend on pipelining.

:class:`PipelinedEngine` holds the requests (:class:`Request`) from the moment they are known to
the moment their answer is read or their failure charged; what an answer means is
:class:`~conformance.engines.adapters.jsonl.JsonlEngine`'s, which asks through it (one request at a
time when the engine declares no pipeline).
"""

from __future__ import annotations

import collections
import json
from collections.abc import Iterable, Sequence
from typing import Any, Final

from conformance.core.protocol import EngineError
from conformance.engines.adapters import clock
from conformance.engines.adapters.jsonl_messages import ARGUMENTS, MAX_LINE_BYTES, is_integer, request_body
from conformance.engines.adapters.process import (
    LINGER_SECONDS,
    EngineProcess,
    LineTooLong,
    ProcessClosed,
    ProcessTimeout,
    preview,
)
from conformance.engines.adapters.restarts import ProcessEngine
from conformance.engines.adapters.trace import asked

__all__ = ["MAX_PIPELINE", "PipelinedEngine", "Request"]

MAX_PIPELINE: Final = 64
"""The most requests the harness keeps in flight, whatever an engine declares."""


class Request:
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


class PipelinedEngine(ProcessEngine):
    """The requests of an engine process in flight: sent (ahead), read back by ``seq``, and the
    oldest charged when the engine is lost. A subclass calls :meth:`_init_pipeline` in its
    ``__init__`` and sets :attr:`_declared`, :attr:`declared_pipeline`, :attr:`pipeline` and
    :attr:`_refill` when the engine has started."""

    def _init_pipeline(self, pipeline: int | None) -> None:
        """The empty pipeline; ``pipeline`` caps the requests in flight (``None``: :data:`MAX_PIPELINE`)."""
        if pipeline is not None and pipeline < 1:
            raise ValueError(f"pipeline must be 1 or more, not {pipeline!r}")
        self._pipeline_cap = min(pipeline or MAX_PIPELINE, MAX_PIPELINE)
        self.pipeline = 1
        """How many requests may be in flight: what the engine declared, within the cap."""
        self._refill = 1
        self.declared_pipeline = 1
        """What the engine declared in ``started`` (1 when it declared nothing)."""
        self._seq = 0
        self._ahead: collections.deque[Request] = collections.deque()
        """Requests sent ahead (or waiting to be), in the order they will be asked."""
        self._flight: dict[int, Request] = {}
        """The requests sent and not answered yet, by ``seq`` (oldest first)."""
        self._early: dict[int, Request] = {}
        """Requests answered while an older one was still unanswered, by ``seq``: their answers are
        not taken until every older request is answered (an answer under a shifted ``seq`` would be
        another question's), and are not trusted when the stream turns out to be out of step."""
        self._declared: frozenset[str] = frozenset()
        """The operations the engine declared (the engine methods it answers)."""
        self._answered_at = 0.0
        """When the engine last answered (a request's time starts then, or when it was sent)."""
        self.most_in_flight = 0
        """The most requests that were in flight at once (for tests and benchmarks)."""
        self._last_answered: Request | None = None
        """The request the engine last answered (for messages about output nobody asked for)."""

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
                self._ahead.append(Request(method, request_body(method, arguments), (method, tuple(args))))
        process = self._process
        flight = len(self._flight)
        if (
            process is not None
            and not self._closed
            and (not flight or self.pipeline - flight >= self._refill)
        ):
            self._send_waiting(process)

    def _take(self, method: str, key: object, args: Sequence[Any]) -> Request:
        """The request sent ahead for this call, if any (those before it are abandoned), else a new one."""
        ahead = self._ahead
        if not any(waiting.key == key for waiting in ahead):
            _, arguments = ARGUMENTS[method](*args)
            return Request(method, request_body(method, arguments), key)
        while True:
            waiting = ahead.popleft()
            if waiting.key == key:
                return waiting
            waiting.abandoned = True

    @property
    def _last_exchange(self) -> str:
        last = self._last_answered
        return f"its response to {last.what}" if last is not None else "'started'"

    def _answered_early(self, request: Request) -> bool:
        """Whether ``request`` was answered while an older request is still unanswered (its answer
        is then held: :attr:`_early`); once none is, its answer is released."""
        seq = request.seq
        if seq is None or seq not in self._early:
            return False
        if self._flight and next(iter(self._flight)) < seq:
            return True
        del self._early[seq]
        return False

    def _file(self, request: Request, message: dict[str, Any]) -> None:
        """``message`` is the answer of ``request`` (popped from the requests in flight)."""
        self._answered_at = clock.now()
        self._last_answered = request
        request.message = message
        if self._flight and request.seq is not None and next(iter(self._flight)) < request.seq:
            self._early[request.seq] = request

    def _between(self, process: EngineProcess, request: Request) -> bool:
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

    def _send(self, process: EngineProcess, request: Request) -> None:
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

    def _waiting(self, room: int, besides: Request | None = None) -> list[Request]:
        batch: list[Request] = []
        for request in self._ahead:
            if len(batch) >= room:
                break
            unsent = request.seq is None and request.message is None and request.failure is None
            if unsent and request is not besides:
                batch.append(request)
        return batch

    def _write(self, process: EngineProcess, batch: list[Request]) -> None:
        now = clock.now()
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
