"""``python:MODULE:ATTR``: a Python engine certified in a child process of its own.

The engine runs in :mod:`conformance.servers.python_host`, which imports it there and serves it
over the JSON-lines protocol, so that nothing the engine does can end the harness's process: an
``os._exit``, a signal or a crash in C code ends the child, which the harness reports as the engine
exiting while answering (an ``error`` of that question) and starts again within the restart
budget. The harness itself only looks the module up, to refuse a spec that names nothing. The host's
exit status and the start of its own line on stderr are declared here, where both sides read them.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Callable
from typing import Final

from conformance.core.protocol import Engine, EngineError
from conformance.core.rule_sets import INTERNATIONAL_SET, RuleSet
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.kinds import EngineKind, EngineSettings, SpecError, engine_kind
from conformance.engines.adapters.process import EngineProcess
from conformance.engines.adapters.trace import Trace

NOT_AN_ENGINE: Final = 3
"""The host's exit status when it cannot make the engine (its reason is on stderr)."""
PREFIX: Final = "python engine: "
"""How the host's own line on stderr starts (the harness shows it as the reason)."""


@engine_kind
class PythonKind(EngineKind):
    """``python:MODULE:ATTR``: a Python engine object (or a factory of one), in a child process."""

    prefix = "python"
    usage = ("python:MODULE:ATTR",)
    order = 10

    def factory(self, rest: str, settings: EngineSettings) -> Callable[[], Engine]:
        try:
            return python_factory(
                rest,
                timeout=settings.timeout,
                start_timeout=settings.start_timeout,
                trace=settings.trace,
                rule_set=settings.rule_set,
            )
        except ValueError as error:
            raise SpecError(str(error)) from None


class PythonEngine(JsonlEngine):
    """The JSON-lines adapter of a :mod:`~conformance.servers.python_host` child: a start that
    fails says the host's reason (the module does not import, ``ATTR`` is not an engine...)."""

    label = "python"

    def _start_failed(self, process: EngineProcess | None, message: str) -> EngineError:
        error = super()._start_failed(process, message)
        lines = error.stderr.splitlines()
        reasons = [line for line in lines if line.startswith(PREFIX)]
        if not reasons:
            return error
        rest = "\n".join(line for line in lines if not line.startswith(PREFIX))
        return EngineError("start", reasons[-1].removeprefix(PREFIX), rest)


def python_factory(
    target: str,
    *,
    timeout: float,
    start_timeout: float,
    trace: Trace | None,
    rule_set: RuleSet = INTERNATIONAL_SET,
) -> Callable[[], Engine]:
    """Engines of ``python:MODULE:ATTR`` (``target`` is ``MODULE:ATTR``), each in a child process;
    ValueError when the spec is malformed or MODULE is nowhere (a typo is a usage error). The
    module is looked up, not imported: none of the engine's code runs in the harness's process."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"python:{target}: expected python:MODULE:ATTR, e.g. python:my_engine:Engine")
    top = module_name.partition(".")[0]
    folder = os.getcwd()
    try:
        found = importlib.machinery.PathFinder.find_spec(top, [folder, *sys.path])
    except (ImportError, ValueError) as error:
        found, reason = None, str(error)
    else:
        reason = f"No module named {top!r}"
    if found is None and top not in sys.builtin_module_names:
        raise ValueError(
            f"python:{target}: cannot import {module_name!r} (searched the current folder {folder} "
            f"first, then sys.path): {reason}"
        )
    command = [sys.executable, "-m", "conformance.servers.python_host", target]
    paths = [entry for entry in sys.path if entry and os.path.isdir(entry)]  # the harness's view
    env = {"PYTHONPATH": os.pathsep.join(paths)}
    return lambda: PythonEngine(
        command,
        timeout=timeout,
        start_timeout=start_timeout,
        cwd=folder,
        env=env,
        trace=trace,
        adapter=f"python:{target}",
        rule_set=rule_set,
    )
