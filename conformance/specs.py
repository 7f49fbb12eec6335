"""Engine specs: the strings that name an engine on the command line and in the pytest plugin.

=========================  ===========================================================
``oracle``                 the built-in reference oracle, in-process
``python:MODULE:ATTR``     a Python engine object (or a factory returning one), in-process; MODULE is
                           looked up in the current folder first (docs/engines-python.md)
``jsonl:COMMAND``          any program speaking the JSON-lines protocol (docs/protocol.md)
``hub:COMMAND``            a Hub engine (Scan's protocol): move-choice level
``dxp:HOST:PORT``          a DXP engine listening on HOST:PORT: move-choice level
``dxp:COMMAND``            a DXP engine started by COMMAND (it must listen on the port given as $DXP_PORT)
``py-draughts`` ...        a built-in adapter of a real engine from the package registries
``mutant:NAME``            the oracle with one rule broken (conformance.mutants), to see the suite catch it
=========================  ===========================================================
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import shlex
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from conformance.engine import Engine, EngineError
from conformance.inprocess import InProcessEngine


class SpecError(ValueError):
    """An engine spec that names no engine, or one that cannot be loaded."""


DEFAULT_TIMEOUT = 10.0


def engine_factory(spec: str, *, timeout: float = DEFAULT_TIMEOUT) -> Callable[[], Engine]:
    """A function that starts a fresh engine for ``spec`` (one per worker)."""
    spec = spec.strip()
    if spec == "oracle":
        from conformance.oracle_engine import OracleEngine

        return OracleEngine
    kind, _, rest = spec.partition(":")
    if kind in ("jsonl", "hub", "dxp") and rest:
        try:
            shlex.split(rest)
        except ValueError as error:
            raise SpecError(f"{kind}:{rest}: cannot read the command line: {error}") from None
    if kind == "python" and rest:
        return _python_factory(rest)
    if kind == "jsonl" and rest:
        from conformance.adapters.jsonl import JsonlEngine

        return lambda: JsonlEngine(rest, timeout=timeout)
    if kind == "hub" and rest:
        from conformance.adapters.hub import HubEngine

        return lambda: HubEngine(rest, timeout=timeout)
    if kind == "mutant" and rest:
        from conformance.mutants import MUTANTS

        if rest not in MUTANTS:
            raise SpecError(f"no mutant {rest!r}; known: {', '.join(MUTANTS)}")
        return MUTANTS[rest]
    if kind == "dxp" and rest:
        from conformance.adapters.dxp import dxp_engine, parse_address

        try:
            parse_address(rest)  # a HOST:PORT with a port out of range is a usage error, not a command
        except ValueError as error:
            raise SpecError(f"dxp:{rest}: {error}") from None
        return lambda: dxp_engine(rest, timeout=timeout)
    from conformance.thirdparty import BUILTIN_ENGINES, builtin_engine

    if spec in BUILTIN_ENGINES:
        return lambda: builtin_engine(spec, timeout=timeout)
    known = ", ".join(
        ["oracle", "python:MODULE:ATTR", "jsonl:COMMAND", "hub:COMMAND", "dxp:HOST:PORT", *BUILTIN_ENGINES]
    )
    raise SpecError(f"unknown engine spec {spec!r}; expected one of: {known}")


def _python_factory(target: str) -> Callable[[], Engine]:
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise SpecError(f"python:{target}: expected python:MODULE:ATTR, e.g. python:my_engine:Engine")
    try:
        module = import_from_current_folder(module_name)
    except ImportError as error:
        raise SpecError(
            f"python:{target}: cannot import {module_name!r} (searched the current folder {os.getcwd()} "
            f"first, then sys.path): {error}"
        ) from None
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # the module's own code failed, or exited, while importing
        raise SpecError(
            f"python:{target}: importing {module_name!r} raised {type(error).__name__}: {error}"
        ) from None
    try:
        obj: Any = getattr(module, attribute)
    except AttributeError:
        raise SpecError(f"python:{target}: module {module_name!r} has no attribute {attribute!r}") from None

    def make() -> Engine:
        is_factory = isinstance(obj, type) or (callable(obj) and not hasattr(obj, "info"))
        try:
            engine = obj() if is_factory else obj
        except KeyboardInterrupt:
            raise
        except BaseException as error:
            raise EngineError(
                "start", f"python:{target}: {attribute}() raised {type(error).__name__}: {error}"
            ) from None
        if not hasattr(engine, "info"):
            raise EngineError(
                "start",
                f"python:{target}: {type(engine).__name__} is not an engine: it has no 'info' "
                "(see docs/engines-python.md)",
            )
        try:
            return InProcessEngine(engine, adapter=f"python:{target}")
        except EngineError:
            raise
        except Exception as error:  # its info raised, or is not what docs/engines-python.md describes
            raise EngineError(
                "start", f"python:{target}: cannot read the engine's info: {type(error).__name__}: {error}"
            ) from None

    return make


def import_from_current_folder(module_name: str) -> ModuleType:
    """Import ``module_name`` as ``python -m`` would from the current folder: the folder comes first
    on ``sys.path`` for this import only (the console script does not have it on ``sys.path``)."""
    folder = os.getcwd()
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(module_name)
    finally:
        if sys.path and sys.path[0] == folder:
            del sys.path[0]
        elif folder in sys.path:
            sys.path.remove(folder)


@dataclasses.dataclass(frozen=True)
class EngineRecipe:
    """An engine spec and its timeout: an engine factory that can be pickled and sent to worker
    processes or machines (engines themselves hold pipes, sockets and solvers and cannot be).

    Calling it starts a fresh engine, like the factory :func:`engine_factory` returns.
    """

    spec: str
    timeout: float = DEFAULT_TIMEOUT

    def __call__(self) -> Engine:
        return engine_factory(self.spec, timeout=self.timeout)()
