"""Engine specs: the strings that name an engine on the command line and in the pytest plugin.

=========================  ===========================================================
``oracle``                 the built-in reference oracle, in-process
``python:MODULE:ATTR``     a Python engine object (or a factory returning one), in a child process of
                           its own (conformance.servers.python_host); MODULE is looked up in the
                           current folder first (docs/engines-python.md)
``jsonl:COMMAND``          any program speaking the JSON-lines protocol (docs/protocol.md)
``hub:COMMAND``            a Hub engine (Scan's protocol): move-choice level
``dxp:HOST:PORT``          a DXP engine listening on HOST:PORT: move-choice level
``dxp:COMMAND``            a DXP engine started by COMMAND (it must listen on the port given as $DXP_PORT)
``py-draughts`` ...        a built-in adapter of a real engine from the package registries
``mutant:NAME``            the oracle with one rule broken (conformance.engines.mutants), to see the suite catch it
=========================  ===========================================================

Each kind is declared once, as a class registered with
:func:`conformance.engines.adapters.kinds.engine_kind` (the built-in ones in :mod:`~conformance.engines.adapters.builtin`): its prefix, the
options it takes, how it starts; the error for an unknown spec lists them all.

Engines started from a command take options (:func:`engine_factory`; on the command line
:func:`add_engine_options`): ``trace`` (every line exchanged, with timestamps), ``cwd`` (the folder
the engine runs in), and for Hub engines ``hub_params`` (``set-param``) and the search level
(``depth``, ``move_time``; ``move_time`` also sets a DXP engine's time control).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from conformance.core.arguments import seconds
from conformance.core.protocol import Engine
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.engines.adapters.builtin import hub_level as hub_level
from conformance.engines.adapters.kinds import DEFAULT_START_TIMEOUT as DEFAULT_START_TIMEOUT
from conformance.engines.adapters.kinds import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
from conformance.engines.adapters.kinds import EngineKind, EngineSettings, kind_of, known_specs, taking
from conformance.engines.adapters.kinds import SpecError as SpecError
from conformance.engines.adapters.trace import EVENT, Trace


def engine_factory(
    spec: str,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    trace: Trace | None = None,
    cwd: str | Path | None = None,
    hub_params: Mapping[str, str] | None = None,
    depth: int | None = None,
    move_time: float | None = None,
    start_timeout: float = DEFAULT_START_TIMEOUT,
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> Callable[[], Engine]:
    """A function that starts a fresh engine for ``spec`` (one per worker), by its kind
    (:mod:`conformance.engines.adapters.kinds`).

    ``trace`` records every line exchanged with the engines it starts (:class:`Trace`; an
    in-process engine exchanges none); ``cwd`` is the folder a command runs in (``jsonl:``,
    ``hub:``, ``dxp:COMMAND``); ``hub_params`` are sent to a Hub engine as ``set-param``; ``depth``
    and ``move_time`` set its search (``level depth=N move-time=S``), ``move_time`` also a DXP
    engine's time control; ``start_timeout`` bounds the opening exchange of an engine started from a
    command; ``rule_set`` is the game it is started for (an engine that does not declare it is asked
    nothing). :class:`SpecError` for a spec that names no engine, or an option that does not apply to it.
    """
    spec = spec.strip()
    found = kind_of(spec)
    settings = EngineSettings(
        timeout=timeout,
        trace=trace,
        cwd=Path(cwd) if cwd is not None else None,
        hub_params=hub_params,
        depth=depth,
        move_time=move_time,
        start_timeout=start_timeout,
        rule_set=rule_set,
    )
    if found is not None:
        found[0].check(found[1], settings)
    _check_options(spec, found[0] if found else None, cwd, hub_params, depth, move_time)
    if found is None:
        raise SpecError(f"unknown engine spec {spec!r}; expected one of: {known_specs()}")
    kind, rest = found
    if kind.in_process and trace is not None:
        trace.record(spec, EVENT, "an in-process engine: no lines are exchanged")
    return kind.factory(rest, settings)


def trace_problem(options: Mapping[str, Any]) -> str | None:
    """The one line saying the ``--trace`` file of :func:`engine_options` could not be written
    (None when it was, or when there is none)."""
    trace = options.get("trace")
    return trace.problem() if isinstance(trace, Trace) else None


def _check_options(
    spec: str,
    kind: EngineKind | None,
    cwd: str | Path | None,
    hub_params: Mapping[str, str] | None,
    depth: int | None,
    move_time: float | None,
) -> None:
    """:class:`SpecError` for an engine option that ``spec``'s kind does not take (naming the kinds
    that do), or a bad value."""
    takes = kind.takes if kind is not None else frozenset()
    if cwd is not None:
        if "cwd" not in takes:
            raise SpecError(
                f"--engine-cwd applies to engines started by a command ({', '.join(taking('cwd'))}), "
                f"not {spec!r}"
            )
        if not Path(cwd).is_dir():
            raise SpecError(f"--engine-cwd {cwd}: no such folder")
    if hub_params and "hub_params" not in takes:
        raise SpecError(
            f"--hub-param applies to {' and '.join(taking('hub_params'))} engines only, not {spec!r}"
        )
    for name, value in (hub_params or {}).items():
        if not name or any(character in name for character in ' \t="\n\r') or any(c in value for c in "\n\r"):
            raise SpecError(f"--hub-param {name}={value}: a Hub parameter is NAME=VALUE, on one line")
    if depth is not None:
        if "depth" not in takes:
            raise SpecError(
                f"--search-depth applies to {' and '.join(taking('depth'))} engines only "
                f"(the Hub 'level' command), not {spec!r}"
            )
        if depth < 1:
            raise SpecError(f"--search-depth must be 1 or more, not {depth}")
    if move_time is not None:
        if "move_time" not in takes:
            raise SpecError(
                f"--move-time applies to {' and '.join(taking('move_time'))} engines only, not {spec!r}"
            )
        if not (math.isfinite(move_time) and move_time > 0):
            raise SpecError(f"--move-time must be a positive number of seconds, not {move_time!r}")


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """The engine options of a command that starts an engine: ``--trace``, ``--engine-cwd``,
    ``--hub-param``, ``--search-depth``, ``--move-time``, ``--start-timeout`` (read them with
    :func:`engine_options`)."""
    parser.add_argument(
        "--trace", type=Path, metavar="FILE", help="write every line exchanged with the engine here, timed"
    )
    parser.add_argument(
        "--engine-cwd", type=Path, metavar="DIR", help="run the engine command in this folder (Scan: its own)"
    )
    parser.add_argument(
        "--hub-param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a Hub engine parameter, sent as 'set-param name=NAME value=VALUE' (repeatable)",
    )
    parser.add_argument(
        "--search-depth", type=int, metavar="N", help="Hub search depth per move ('level depth=N')"
    )
    parser.add_argument(
        "--move-time",
        type=float,
        metavar="SECONDS",
        help="Hub search time per move ('level move-time=S'); a DXP engine's time control",
    )
    parser.add_argument(
        "--start-timeout",
        type=seconds,
        default=DEFAULT_START_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds for the engine's start (default {DEFAULT_START_TIMEOUT:g})",
    )


def engine_options(args: argparse.Namespace, stack: contextlib.ExitStack) -> dict[str, Any]:
    """The keyword arguments of :func:`engine_factory` from :func:`add_engine_options`'s options;
    the trace file is opened (emptied) and closed with ``stack``. :class:`SpecError` on a bad value."""
    params: dict[str, str] = {}
    for item in getattr(args, "hub_param", None) or []:
        name, equals, value = item.partition("=")
        if not equals or not name:
            raise SpecError(f"--hub-param {item!r}: expected NAME=VALUE, e.g. hash=16")
        params[name] = value
    options: dict[str, Any] = {
        "cwd": getattr(args, "engine_cwd", None),
        "hub_params": params or None,
        "depth": getattr(args, "search_depth", None),
        "move_time": getattr(args, "move_time", None),
        "start_timeout": getattr(args, "start_timeout", None) or DEFAULT_START_TIMEOUT,
    }
    if getattr(args, "rule_set", None) is not None:  # the command's --rules, read before the engine starts
        options["rule_set"] = args.rule_set
    path = getattr(args, "trace", None)
    if path is not None:
        try:
            options["trace"] = stack.enter_context(Trace.open(path))
        except OSError as error:
            raise SpecError(f"cannot write the trace to {path}: {error}") from None
    return options


@dataclasses.dataclass(frozen=True)
class EngineRecipe:
    """An engine spec, its timeout and its options: an engine factory that can be pickled and sent
    to worker processes or machines (engines themselves hold pipes, sockets and solvers and cannot be).

    Calling it starts a fresh engine, like the factory :func:`engine_factory` returns, with the same
    options: ``cwd``, ``hub_params`` (NAME, VALUE pairs), ``depth``, ``move_time`` and ``trace`` -- a
    path, not an open file: each process appends its engines' lines to that file
    (:func:`appending_trace`; the process that made the recipe created it).
    """

    spec: str
    timeout: float = DEFAULT_TIMEOUT
    trace: Path | None = None
    cwd: Path | None = None
    hub_params: tuple[tuple[str, str], ...] = ()
    depth: int | None = None
    move_time: float | None = None
    start_timeout: float = DEFAULT_START_TIMEOUT
    rule_set: RuleSet = INTERNATIONAL_SET

    @classmethod
    def of(cls, spec: str, timeout: float = DEFAULT_TIMEOUT, **options: Any) -> EngineRecipe:
        """The recipe of ``engine_factory(spec, timeout=timeout, **options)`` (the options as
        :func:`engine_options` gives them: an open :class:`Trace` becomes the path it writes)."""
        trace: Trace | None = options.get("trace")
        if trace is not None and trace.path is None:
            raise ValueError("a trace sent to other processes must be a file (Trace.open)")
        cwd = options.get("cwd")
        return cls(
            spec,
            timeout,
            trace=trace.path.resolve() if trace is not None and trace.path is not None else None,
            cwd=Path(cwd).resolve() if cwd is not None else None,
            hub_params=tuple(sorted((options.get("hub_params") or {}).items())),
            depth=options.get("depth"),
            move_time=options.get("move_time"),
            start_timeout=options.get("start_timeout") or DEFAULT_START_TIMEOUT,
            rule_set=options.get("rule_set") or INTERNATIONAL_SET,
        )

    def __call__(self) -> Engine:
        trace = appending_trace(self.trace) if self.trace is not None else None
        engine = engine_factory(
            self.spec,
            timeout=self.timeout,
            trace=trace,
            cwd=self.cwd,
            hub_params=dict(self.hub_params) or None,
            depth=self.depth,
            move_time=self.move_time,
            start_timeout=self.start_timeout,
            rule_set=self.rule_set,
        )()
        name = getattr(engine, "traced_as", None)  # engines started from a command
        if trace is not None and name is not None:
            trace.record(f"process {os.getpid()}", EVENT, f"started its engine {name}")
        return engine


_traces: dict[Path, Trace] = {}


def appending_trace(path: Path) -> Trace:
    """This process's trace appending to ``path``, opened once (every engine of the process shares
    it) and closed by :func:`close_traces`; :class:`SpecError` if it cannot be opened. The
    process says so first, in a line of its own: ``process PID * ...``."""
    if path not in _traces:
        try:
            trace = Trace.open(path, append=True)
        except OSError as error:
            raise SpecError(f"cannot append the trace to {path} in process {os.getpid()}: {error}") from None
        trace.record(f"process {os.getpid()}", EVENT, "appends the lines of its engines to this trace")
        _traces[path] = trace
    return _traces[path]


def close_traces() -> None:
    """Close the traces :func:`appending_trace` opened in this process."""
    traces = list(_traces.values())
    _traces.clear()
    for trace in traces:
        trace.close()
