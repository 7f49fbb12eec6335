"""One way to start an engine for the commands that certify one (``run``, ``verify``, ``bisect``;
``smoke`` reports a failed start as one of its checks, with hints, through the same factory).

The settings file has been settled into the arguments first (:func:`conformance.cli.config.settle`);
the engine options (``--trace``, ``--engine-cwd``, ``--hub-param``...) are read once, here, into the
factory of the spec's kind (:func:`conformance.engines.adapters.specs.engine_factory`).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from typing import Any

from conformance.core.errors import UsageError
from conformance.core.protocol import Engine, EngineError
from conformance.core.rule_sets import RuleSet, rule_set
from conformance.engines.adapters.specs import EngineRecipe, engine_factory, engine_options


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules NAME|FILE``: the game the command plays (default international)."""
    parser.add_argument(
        "--rules",
        metavar="NAME|FILE",
        help="the rule set played: international (default), brazilian, canadian, russian, pool, "
        "american, or the path of a rules file (docs/rulesets.md)",
    )


def chosen_rule_set(args: argparse.Namespace) -> RuleSet:
    """The rule set ``--rules`` names (international without it); ValueError (:class:`RuleSetError`)
    in one line for a bad name or file."""
    return rule_set(getattr(args, "rules", None))


class StartError(UsageError):
    """The engine did not start: a usage error of the command (exit 2), in one message."""


def engine_factories(
    args: argparse.Namespace, stack: contextlib.ExitStack, *, elsewhere: bool = False
) -> tuple[Callable[[], Engine], Callable[[], Engine], dict[str, Any]]:
    """The factory of ``args.engine`` with the command's timeout and engine options (a trace file
    is opened with ``stack``), the one to send to other processes (a picklable
    :class:`EngineRecipe` when ``elsewhere``: workers, a cluster; else the same factory), and the
    options chosen (:func:`~conformance.engines.adapters.specs.trace_problem` reads them at the end).
    :class:`~conformance.engines.adapters.specs.SpecError` for a spec or an option that names no engine."""
    chosen = engine_options(args, stack)
    local = engine_factory(args.engine, timeout=args.timeout, **chosen)
    remote = EngineRecipe.of(args.engine, args.timeout, **chosen) if elsewhere else local
    return local, remote, chosen


def start_engine(args: argparse.Namespace, factory: Callable[[], Engine], *, note: str = "") -> Engine:
    """A started engine; :class:`StartError` saying why it did not start (its standard error after,
    then ``note``)."""
    try:
        return factory()
    except EngineError as error:
        stderr = f"\n{error.stderr}" if error.stderr else ""
        raise StartError(f"the engine {args.engine!r} did not start: {error}{stderr}{note}") from None
