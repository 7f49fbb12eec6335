"""``bisect``: the shortest line after which an engine's legal moves differ from the oracle's.

:mod:`~conformance.bisect.search` finds it (perft divide, or the legal-move sets breadth-first),
:mod:`~conformance.bisect.describe` says it for people (the line, the board, the moves that
differ, a case for ``cases/``), :mod:`~conformance.cli.bisect` is the subcommand; the command a report
suggests is :func:`conformance.report.hints.bisect_command`.
"""

from conformance.bisect.describe import case_rule, case_yaml, describe
from conformance.bisect.search import (
    DEFAULT_DEPTH,
    BisectError,
    Bisection,
    Difference,
    EngineProblem,
    bisect,
)
from conformance.report.hints import bisect_command, engine_spec_of

__all__ = [
    "DEFAULT_DEPTH",
    "BisectError",
    "Bisection",
    "Difference",
    "EngineProblem",
    "bisect",
    "bisect_command",
    "case_rule",
    "case_yaml",
    "describe",
    "engine_spec_of",
]
