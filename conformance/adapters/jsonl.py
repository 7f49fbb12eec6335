"""The JSON-lines subprocess adapter: any program that speaks ``docs/protocol.md`` is an engine.

The harness starts the engine command in a process group of its own and talks to it over its
stdin and stdout, one UTF-8 JSON object per line: ``start``/``started``, then one ``request``
per question with an echoed ``seq``, then ``stop``. Every message the engine sends is checked
against the JSON Schemas in ``conformance/schemas/jsonl-*.json``.

What can go wrong maps onto :class:`~conformance.engine.EngineError` kinds: ``start`` (the
start exchange failed), ``timeout`` (no answer in time: the process group is killed),
``crash`` (the engine exited, or the restart budget is spent), ``protocol`` (not JSON, wrong
``seq``, a message outside the schema, output nobody asked for) and ``exception`` (the engine
answered ``error``). After a timeout, a crash or a protocol violation that leaves the stream
out of step, the engine is restarted on the next request, within a restart budget. The
engine's stderr is kept (bounded) and attached to every error.

POSIX only: process groups (``start_new_session``) and ``select.poll``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import IO, Any, Final

import jsonschema
from referencing import Registry, Resource

from conformance.corpus import Capability, MoveSpec, Verdict
from conformance.engine import (
    PROTOCOL_VERSION,
    EngineDeclined,
    EngineError,
    EngineInfo,
    FenAnswer,
    MoveTextAnswer,
    OutcomeAnswer,
)

SCHEMA_DIR: Final = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_BASE: Final = "https://draughts-conformance.invalid/schema/jsonl-1/"
SCHEMA_FILES: Final = ("common", "start", "started", "request", "response", "stop")

MAX_LINE_BYTES: Final = 4 * 1024 * 1024
"""A line longer than this (no newline yet) is a protocol violation, not a reason to eat memory."""
STDERR_KEPT_BYTES: Final = 64 * 1024
"""How much of an engine's stderr is kept (the most recent part)."""
STDERR_SHOWN_CHARS: Final = 16 * 1024
"""How much stderr one error carries (its most recent part)."""
PREVIEW_CHARS: Final = 200
_DRAIN_SECONDS: Final = 0.5


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


_MOVE_KEYS: Final = frozenset({"from", "to", "captured"})
_VERDICTS: Final = frozenset(verdict.value for verdict in Verdict)
_RESULTS: Final = frozenset({"ongoing", "white_wins", "black_wins", "draw"})
_ENVELOPE: Final = frozenset({"type", "seq"})

_FAST_CHECKS: Final[dict[str, tuple[frozenset[str], frozenset[str], Callable[[dict[str, Any]], bool]]]] = {
    # definition: (required keys besides type and seq, all keys allowed besides them, check of the values)
    "declined": (frozenset({"declined"}), frozenset({"declined"}), lambda m: type(m["declined"]) is str),
    "error": (frozenset({"error"}), frozenset({"error"}), lambda m: type(m["error"]) is str),
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
    "perft-answer": (frozenset({"count"}), frozenset({"count"}), lambda m: _is_integer(m["count"], 0)),
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

    ``definition`` is ``declined``, ``error`` or ``<op>-answer``.
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


# -- one running engine process ----------------------------------------------------------------


class _Timeout(Exception):
    pass


class _Closed(Exception):
    """The engine closed its stdout (or stdin): it exited or is about to."""


class _Overlong(Exception):
    pass


class _StderrTail:
    """The most recent ``STDERR_KEPT_BYTES`` of a stream, addressed by absolute offsets."""

    def __init__(self) -> None:
        self._data = bytearray()
        self._start = 0

    @property
    def total(self) -> int:
        return self._start + len(self._data)

    def append(self, chunk: bytes) -> None:
        self._data += chunk
        excess = len(self._data) - STDERR_KEPT_BYTES
        if excess > 0:
            del self._data[:excess]
            self._start += excess

    def since(self, mark: int) -> str:
        """What was written from offset ``mark`` on (its last ``STDERR_SHOWN_CHARS``)."""
        dropped = max(0, self._start - mark)
        text = bytes(self._data[max(0, mark - self._start) :]).decode("utf-8", errors="replace")
        if len(text) > STDERR_SHOWN_CHARS:
            dropped += len(text) - STDERR_SHOWN_CHARS
            text = text[-STDERR_SHOWN_CHARS:]
        return f"[... {dropped} earlier bytes not kept ...]\n{text}" if dropped else text


class _Process:
    """An engine process in its own process group, read line by line with deadlines."""

    def __init__(
        self, args: str | list[str], *, shell: bool, env: Mapping[str, str] | None, cwd: str | Path | None
    ) -> None:
        environment = None if env is None else {**os.environ, **env}
        self.popen = subprocess.Popen(
            args,
            shell=shell,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
            cwd=cwd,
            start_new_session=True,
            bufsize=0,
        )
        self.stdin: IO[bytes] = _pipe(self.popen.stdin)
        self.stdout: IO[bytes] = _pipe(self.popen.stdout)
        self.stderr_pipe: IO[bytes] = _pipe(self.popen.stderr)
        self.in_fd = self.stdin.fileno()
        self.out_fd = self.stdout.fileno()
        self.err_fd = self.stderr_pipe.fileno()
        os.set_blocking(self.in_fd, False)  # a full pipe must not block the harness past its deadline
        self.writable = select.poll()
        self.writable.register(self.in_fd, select.POLLOUT)
        self.poller = select.poll()
        self.poller.register(self.out_fd, select.POLLIN)
        self.poller.register(self.err_fd, select.POLLIN)
        self.buffer = bytearray()
        self.stderr = _StderrTail()
        self.out_eof = False
        self.err_eof = False
        self.killed = False
        self.last_exchange = "'started'"
        """What the engine last answered (for messages about output nobody asked for)."""

    def write_line(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` to the engine's stdin before ``deadline``, reading its output meanwhile."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.in_fd, view) :]
            except BlockingIOError:  # the pipe is full: the engine is not reading
                if time.monotonic() >= deadline:
                    raise _Timeout from None
                self._poll(0)
                self.writable.poll(10)
            except (OSError, ValueError) as error:  # broken pipe, closed file: the engine is gone
                raise _Closed from error

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if fd == self.out_fd:
            if chunk:
                self.buffer += chunk
            else:
                self.out_eof = True
                self.poller.unregister(fd)
        elif chunk:
            self.stderr.append(chunk)
        else:
            self.err_eof = True
            self.poller.unregister(fd)

    def _poll(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for output and read it; ``False`` if nothing came."""
        if self.out_eof and self.err_eof:
            return False
        events = self.poller.poll(max(0, math.ceil(seconds * 1000)))
        for fd, _ in events:
            self._read(fd)
        return bool(events)

    def read_line(self, deadline: float) -> bytes:
        """The next line on stdout (without its newline), reading stderr on the way."""
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return line
            if len(self.buffer) > MAX_LINE_BYTES:
                raise _Overlong
            if self.out_eof:
                raise _Closed
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _Timeout
            self._poll(remaining)

    def pending_output(self) -> bytes:
        """Whatever the engine has written to stdout and not been read yet (no waiting)."""
        for _ in range(64):  # bounded: an engine may write stderr without pause
            if not self._poll(0):
                break
        return bytes(self.buffer)

    def drain_stderr(self, seconds: float = 0.0) -> None:
        """Read what stderr holds, waiting up to ``seconds`` for its end (after an exit or a kill)."""
        deadline = time.monotonic() + seconds
        while not self.err_eof:
            remaining = deadline - time.monotonic()
            if not self._poll(max(0.0, remaining)) or remaining <= 0:
                break

    def status(self) -> str:
        code = self.popen.poll()
        if code is None:
            return "still running"
        if code < 0:
            try:
                return f"killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"

    def wait_exit(self, seconds: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(seconds)

    def kill_group(self) -> None:
        """SIGKILL the whole process group (the engine and anything it started), then reap."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.killed = True
        with contextlib.suppress(subprocess.TimeoutExpired):  # a process in uninterruptible sleep
            self.popen.wait(5)
        self.drain_stderr(_DRAIN_SECONDS)
        self._close_pipes()

    def stop(self, grace: float) -> None:
        """Send ``stop``, close stdin, give the engine ``grace`` seconds to exit, then kill the group."""
        with contextlib.suppress(_Closed, _Timeout):
            self.write_line(b'{"type":"stop"}\n', time.monotonic() + grace)
        with contextlib.suppress(OSError):
            self.stdin.close()
        self.wait_exit(grace)
        self.kill_group()

    def _close_pipes(self) -> None:
        for pipe in (self.stdin, self.stdout, self.stderr_pipe):
            with contextlib.suppress(OSError):
                pipe.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    if stream is None:  # pragma: no cover - subprocess.PIPE always gives a stream
        raise RuntimeError("subprocess pipe missing")
    return stream


def _preview(data: bytes | str) -> str:
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return repr(text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "...")


def _dumps(message: Mapping[str, Any]) -> bytes:
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


# -- the adapter -------------------------------------------------------------------------------


class JsonlEngine:
    """An engine reached over the JSON-lines protocol (version 1, ``docs/protocol.md``).

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
        if isinstance(command, str):
            self.command = command
            self._args: str | list[str] = command if shell else shlex.split(command)
        else:
            if shell:
                raise ValueError("shell=True needs the command as one string")
            self._args = list(command)
            self.command = shlex.join(self._args)
        if not self._args:
            raise ValueError("the engine command is empty")
        for name, value in (("timeout", timeout), ("start_timeout", start_timeout)):
            if not value > 0:
                raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
        if restart_budget < 0:
            raise ValueError(f"restart_budget must be 0 or more, not {restart_budget!r}")
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.restart_budget = restart_budget
        self.stop_grace = stop_grace
        self.strict_schemas = strict_schemas
        self._env = dict(env) if env is not None else None
        self._cwd = cwd
        self._shell = shell
        self._seq = 0
        self.restarts = 0
        """How many times the engine has been restarted so far."""
        self._process: _Process | None = None
        self._stderr_mark = 0
        self._closed = False
        self._info = self._start()

    # -- the Engine interface ----------------------------------------------------------------

    @property
    def info(self) -> EngineInfo:
        return self._info

    def fen(self, fen: str) -> FenAnswer:
        answer = self._request(Capability.FEN, {"fen": fen})
        return FenAnswer(answer["valid"], answer.get("position"))

    def legal_moves(self, fen: str) -> Sequence[MoveSpec]:
        answer = self._request(Capability.LEGAL_MOVES, {"fen": fen})
        return [_move_spec(move) for move in answer["moves"]]

    def move_count(self, fen: str) -> int:
        return int(self._request(Capability.MOVE_COUNT, {"fen": fen})["count"])

    def perft(self, fen: str, depth: int) -> int:
        return int(self._request(Capability.PERFT, {"fen": fen, "depth": depth})["count"])

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

    def close(self) -> None:
        """Stop the engine (``stop``, a grace period, then SIGKILL to its process group)."""
        self._closed = True
        process, self._process = self._process, None
        if process is not None:
            process.stop(self.stop_grace)

    def __enter__(self) -> JsonlEngine:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"JsonlEngine({self.command!r})"

    # -- the start exchange --------------------------------------------------------------------

    def _start(self) -> EngineInfo:
        """Start the engine and hold the start exchange; ``EngineError("start")`` if it fails."""
        try:
            process = _Process(self._args, shell=self._shell, env=self._env, cwd=self._cwd)
        except (OSError, ValueError) as error:
            raise EngineError("start", f"cannot run the engine command {self.command!r}: {error}") from None
        self._stderr_mark = 0

        def fail(message: str) -> EngineError:
            process.kill_group()  # even when the engine exited: its group may live on
            return EngineError("start", message, self._stderr_text(process))

        deadline = time.monotonic() + self.start_timeout
        try:
            process.write_line(_dumps({"type": "start", "protocol": PROTOCOL_VERSION}), deadline)
            line = process.read_line(deadline)
        except _Timeout:
            raise fail(f"no 'started' line within {self.start_timeout:g} s of 'start'") from None
        except _Closed:
            process.wait_exit(_DRAIN_SECONDS)
            raise fail(f"the engine exited before answering 'start' ({process.status()})") from None
        except _Overlong:
            raise fail(f"the engine's first line is longer than {MAX_LINE_BYTES} bytes") from None
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            raise fail(
                f"the engine answered 'start' with a line that is not UTF-8 JSON: {_preview(line)}"
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
        self._stderr_mark = process.stderr.total
        capabilities = frozenset(Capability(value) for value in message["capabilities"])
        only_chooses = Capability.CHOOSE_MOVE in capabilities and Capability.LEGAL_MOVES not in capabilities
        return EngineInfo(
            name=message["engine"]["name"],
            version=message["engine"]["version"],
            capabilities=capabilities,
            adapter=f"jsonl:{self.command}",
            level="move-choice" if only_chooses else "rules",
        )

    def _running(self) -> _Process:
        """The engine process, restarted if the last one was lost (within the restart budget)."""
        if self._closed:
            raise EngineError("crash", "the engine was closed")
        if self._process is not None:
            return self._process
        if self.restarts >= self.restart_budget:
            raise EngineError(
                "crash",
                f"restart budget exhausted ({self.restarts} of {self.restart_budget} restarts used); "
                "the engine is not started again",
            )
        self.restarts += 1
        try:
            info = self._start()
        except EngineError as error:
            raise EngineError(
                "start",
                f"restart {self.restarts} of {self.restart_budget} failed: {error.message}",
                error.stderr,
            ) from None
        if info != self._info or self._process is None:
            self._lose_process()
            raise EngineError(
                "start",
                f"the restarted engine announced {info.name} {info.version} with capabilities "
                f"{sorted(c.value for c in info.capabilities)}, not what it announced at first",
            )
        return self._process

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
                f"the engine wrote output nobody asked for after {process.last_exchange}: {_preview(pending)}",
                lose=True,
            )
        if process.out_eof:
            process.wait_exit(_DRAIN_SECONDS)
            raise self._error("crash", f"the engine exited between requests ({process.status()})", lose=True)

        self._seq += 1
        seq = self._seq
        what = f"{op} (seq {seq})"
        deadline = time.monotonic() + self.timeout
        try:
            process.write_line(_dumps({"type": "request", "seq": seq, "op": op, **arguments}), deadline)
            line = process.read_line(deadline)
        except _Timeout:
            raise self._error(
                "timeout",
                f"no answer to {what} within {self.timeout:g} s; the engine's process group was killed",
                lose=True,
            ) from None
        except _Closed:
            process.wait_exit(_DRAIN_SECONDS)
            status = process.status()
            ended = f"exited ({status})" if status != "still running" else "closed its stdout"
            raise self._error("crash", f"the engine {ended} while answering {what}", lose=True) from None
        except _Overlong:
            raise self._error(
                "protocol", f"the answer to {what} is a line longer than {MAX_LINE_BYTES} bytes", lose=True
            ) from None

        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            raise self._error(
                "protocol", f"the answer to {what} is not UTF-8 JSON: {_preview(line)}", lose=True
            ) from None
        if not isinstance(message, dict) or message.get("type") != "response":
            raise self._error("protocol", f"expected a 'response' to {what}, got {_preview(line)}", lose=True)
        got = message.get("seq")
        if not _is_integer(got) or got != seq:
            raise self._error(
                "protocol", f"the response to {what} carries seq {got!r} instead of {seq}", lose=True
            )
        if "declined" in message:
            definition = "declined"
        elif "error" in message:
            definition = "error"
        else:
            definition = f"{op}-answer"
        process.last_exchange = f"its response to {what}"
        if self.strict_schemas or not response_is_valid(definition, message):
            problem = schema_problem(message_validator("response", definition), message)
        else:
            problem = None
        if problem is not None:  # the stream is still in step: keep the engine
            raise self._error("protocol", f"the response to {what} is malformed: {problem}")
        if definition == "declined":
            self._stderr_mark = process.stderr.total
            raise EngineDeclined(message["declined"])
        if definition == "error":
            raise self._error("exception", message["error"])
        self._stderr_mark = process.stderr.total
        return message

    def _error(self, kind: str, message: str, *, lose: bool = False) -> EngineError:
        """An EngineError carrying the stderr written since the last exchange; ``lose`` kills the
        engine (it is restarted on the next request) and adds how it ended to the stderr."""
        process = self._process
        if process is None:  # pragma: no cover - only called with a running engine
            return EngineError(kind, message)
        if lose:
            self._lose_process()
        else:
            process.drain_stderr()
        stderr = self._stderr_text(process)
        self._stderr_mark = process.stderr.total
        return EngineError(kind, message, stderr)

    def _lose_process(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            process.kill_group()

    def _stderr_text(self, process: _Process) -> str:
        text = process.stderr.since(self._stderr_mark)
        if process.killed:  # say how the process ended: exit status, or the signal that killed it
            separator = "\n" if text and not text.endswith("\n") else ""
            text = f"{text}{separator}[engine process {process.popen.pid}: {process.status()}]"
        return text


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
