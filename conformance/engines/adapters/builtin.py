"""The built-in engine kinds: ``oracle``, ``jsonl:``, ``hub:``, ``dxp:``, ``mutant:``, and
the real engines by name (``python:`` is :mod:`conformance.engines.adapters.python_child`) -- each a class registered with
:func:`~conformance.engines.adapters.kinds.engine_kind` (the registry finds this module by itself).
The adapters they start are imported when an engine of theirs is asked for."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from conformance.core.protocol import Engine
from conformance.engines.adapters.kinds import EngineKind, EngineSettings, SpecError, engine_kind


@engine_kind
class OracleKind(EngineKind):
    """``oracle``: the built-in reference oracle, in-process."""

    order = 0
    in_process = True

    def names(self) -> tuple[str, ...]:
        return ("oracle",)

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.core.rule_sets import ANY
        from conformance.engines.oracle_engine import OracleEngine

        rules = settings.rule_set.rules
        return lambda: OracleEngine(rules, rule_sets=frozenset({ANY}))  # it plays every rule set


class _CommandKind(EngineKind):
    """A kind whose engine a command starts: the command must split as a shell would."""

    def check(self, rest: str, settings: EngineSettings) -> None:
        try:
            shlex.split(rest)
        except ValueError as error:
            raise SpecError(f"{self.prefix}:{rest}: cannot read the command line: {error}") from None


def _started(settings: EngineSettings) -> dict[str, Any]:
    """What every engine started from a command is given: its timeouts, its folder, the trace."""
    return {
        "timeout": settings.timeout,
        "start_timeout": settings.start_timeout,
        "cwd": settings.cwd,
        "trace": settings.trace,
    }


def _with_rules(settings: EngineSettings) -> dict[str, Any]:
    """What a JSON-lines engine is given besides: the game it is started for (its ``start`` says it)."""
    return {**_started(settings), "rule_set": settings.rule_set}


@engine_kind
class JsonlKind(_CommandKind):
    """``jsonl:COMMAND``: any program speaking the JSON-lines protocol (docs/protocol.md)."""

    prefix = "jsonl"
    usage = ("jsonl:COMMAND",)
    order = 20
    takes = frozenset({"cwd"})

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.engines.adapters.jsonl import JsonlEngine

        started = _with_rules(settings)
        return lambda: JsonlEngine(rest, **started)


@engine_kind
class HubKind(_CommandKind):
    """``hub:COMMAND``: a Hub engine (Scan's protocol), move-choice level."""

    prefix = "hub"
    usage = ("hub:COMMAND",)
    order = 30
    takes = frozenset({"cwd", "hub_params", "depth", "move_time"})

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.engines.adapters.hub import HubEngine

        level = hub_level(settings.depth, settings.move_time)
        params = dict(settings.hub_params or {})
        started = _started(settings)
        return lambda: HubEngine(rest, **started, level=level, params=params)


@engine_kind
class DxpKind(_CommandKind):
    """``dxp:HOST:PORT`` (an engine listening) or ``dxp:COMMAND`` (started, told $DXP_PORT)."""

    prefix = "dxp"
    usage = ("dxp:HOST:PORT",)
    order = 40
    takes = frozenset({"cwd", "move_time"})

    def check(self, rest: str, settings: EngineSettings) -> None:
        super().check(rest, settings)
        from conformance.engines.adapters.dxp import parse_address

        try:
            address = parse_address(rest)  # a HOST:PORT with a port out of range is a usage error
        except ValueError as error:
            raise SpecError(f"dxp:{rest}: {error}") from None
        if address is not None and settings.cwd is not None:
            raise SpecError(
                f"--engine-cwd: dxp:{rest} connects to an engine already running; nothing is started"
            )

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.engines.adapters.dxp import dxp_engine

        started = _started(settings)
        return lambda: dxp_engine(rest, **started, move_time=settings.move_time)


@engine_kind
class MutantKind(EngineKind):
    """``mutant:NAME``: the oracle with one rule broken (:mod:`conformance.engines.mutants`)."""

    prefix = "mutant"
    usage = ("mutant:NAME",)
    order = 50
    in_process = True

    def check(self, rest: str, settings: EngineSettings) -> None:
        from conformance.engines.mutants import KNOWN

        if rest not in KNOWN:
            raise SpecError(f"no mutant {rest!r}; known: {', '.join(KNOWN)}")

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.engines.mutants import mutant

        played = settings.rule_set
        return lambda: mutant(rest, played)  # the game's rules with the mutant's rule broken


@engine_kind
class RealEngineKind(EngineKind):
    """A real engine from the package registries, by its name (``dame-rs``, ``py-draughts``...)."""

    order = 60

    def names(self) -> tuple[str, ...]:
        from conformance.engines.thirdparty import BUILTIN_ENGINES

        return tuple(BUILTIN_ENGINES)

    def matches(self, spec: str) -> str | None:
        return spec if spec in self.names() else None  # the rest is the engine's name

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        from conformance.engines.thirdparty import builtin_engine

        played = settings.rule_set
        return lambda: builtin_engine(rest, timeout=settings.timeout, trace=settings.trace, rule_set=played)


def hub_level(depth: int | None, move_time: float | None) -> str:
    """The arguments of the Hub ``level`` line: ``depth=1`` unless a depth or a time is given."""
    parts = []
    if depth is not None:
        parts.append(f"depth={depth}")
    if move_time is not None:
        parts.append(f"move-time={move_time:g}")
    return " ".join(parts) or "depth=1"
