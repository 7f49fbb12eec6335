"""The start exchange of the JSON-lines protocol: ``start`` sent, ``started`` read, checked and read out.

The harness writes ``start`` (protocol version, minor version, the timeout per request) to an
engine it has just started; the engine's first line must be a ``started`` message of the same
protocol version, valid under ``conformance/schemas/jsonl-started.json`` (``docs/protocol.md``).
:func:`start_exchange` holds the exchange and says, in words an engine author can act on, why it
failed (silence, an unfinished line, a banner on stdout, another protocol version, a message
outside the schema); :meth:`Started.of` reads what the engine declared. Starting the process,
restarting it and everything after ``started`` are :mod:`conformance.engines.adapters.jsonl`'s.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from conformance.core.protocol import PROTOCOL_MINOR, PROTOCOL_VERSION, Capability, EngineError, EngineInfo
from conformance.core.rule_sets import DEFAULT, INTERNATIONAL_SET, RuleSet
from conformance.engines.adapters import clock
from conformance.engines.adapters.jsonl_messages import (
    MAX_LINE_BYTES,
    dumps,
    message_validator,
    schema_problem,
)
from conformance.engines.adapters.process import (
    LINGER_SECONDS,
    EngineProcess,
    LineTooLong,
    ProcessClosed,
    ProcessTimeout,
    preview,
)


def start_exchange(
    process: EngineProcess,
    *,
    timeout: float,
    start_timeout: float,
    fail: Callable[[str], EngineError],
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> dict[str, Any]:
    """Send ``start`` to ``process`` and return its valid ``started`` message, within
    ``start_timeout`` seconds; ``fail(why)`` is raised if the exchange fails. ``timeout`` is the
    time per request the ``start`` message announces; ``rule_set`` the game played, sent as
    ``rules`` (name and full object) unless it is international (protocol 1.2)."""
    deadline = clock.now() + start_timeout
    try:
        start = {
            "type": "start",
            "protocol": PROTOCOL_VERSION,
            "minor": PROTOCOL_MINOR,
            "timeout": timeout,
        }
        if not rule_set.is_default:
            start["rules"] = {"name": rule_set.name, "object": rule_set.object}
        process.write(dumps(start), deadline)
        line = process.read_line(deadline)
    except ProcessTimeout:
        raise fail(_silence(process, start_timeout)) from None
    except ProcessClosed:
        raise fail(f"the engine exited before answering 'start' ({process.ended()})") from None
    except LineTooLong:
        raise fail(f"the engine's first line is longer than {MAX_LINE_BYTES} bytes") from None
    try:
        message = json.loads(line.decode("utf-8"))
    except RecursionError:
        raise fail("the engine answered 'start' with JSON nested too deeply to read") from None
    except ValueError:
        process.linger(LINGER_SECONDS)
        if is_started(process.pending_output()):
            raise fail(
                f"the engine printed {preview(line)} before its 'started' line: a banner or a log "
                "line on stdout, where only protocol messages go"
            ) from None
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
    started: dict[str, Any] = message
    return started


def _silence(process: EngineProcess, start_timeout: float) -> str:
    """Why no 'started' line came in time, in words an engine author can act on."""
    pending = process.pending_output()
    if pending:
        return (
            f"no complete 'started' line within {start_timeout:g} s of 'start': the engine printed "
            f"{preview(pending)} without ending the line"
        )
    return (
        f"no 'started' line within {start_timeout:g} s of 'start': the engine printed nothing "
        f"in {start_timeout:g} s: does it flush stdout after each line?"
    )


def is_started(pending: bytes) -> bool:
    """Whether the first line of ``pending`` is a ``started`` message (after a line out of place)."""
    line, newline, _ = pending.partition(b"\n")
    try:
        message = json.loads(line) if newline else None
    except (ValueError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("type") == "started"


@dataclasses.dataclass(frozen=True)
class Started:
    """What an engine declared in its ``started`` message."""

    info: EngineInfo
    operations: frozenset[str]
    """The operations it declared (the engine methods it answers)."""
    minor: int
    """The minor protocol version it stated (0 when it stated none)."""
    pipeline: int
    """The requests it takes in flight (1 when it declared nothing)."""

    @classmethod
    def of(cls, message: dict[str, Any], adapter: str) -> Started:
        """Read a valid ``started`` message; ``adapter`` is the spec that reached the engine."""
        capabilities = frozenset(Capability(value) for value in message["capabilities"])
        operations = frozenset(c.value for c in capabilities if c.is_operation)
        minor = int(message.get("minor", 0))
        if minor < 1 and Capability.OUTCOME in capabilities:
            capabilities |= {Capability.COUNTERS}  # protocol 1.0: 'outcome' came with its counters
        only_chooses = Capability.CHOOSE_MOVE in capabilities and Capability.LEGAL_MOVES not in capabilities
        info = EngineInfo(
            name=message["engine"]["name"],
            version=message["engine"]["version"],
            capabilities=capabilities,
            adapter=adapter,
            level="move-choice" if only_chooses else "rules",
            rule_sets=frozenset(message.get("rule_sets", (DEFAULT,))),  # 1.2; international before
        )
        return cls(info, operations, minor, int(message.get("pipeline", 1)))
