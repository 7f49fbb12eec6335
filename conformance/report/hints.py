"""Commands a report suggests to its reader: ``bisect`` for the shallowest wrong perft count.

The engine is named by the spec the run was given (the header's ``engine.spec``,
:class:`conformance.core.header.RunHeader`); a report written before the spec was recorded is
read back as far as its adapter tells (:func:`engine_spec_of`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Mapping
from typing import Any, Final

from conformance.core import rule_sets
from conformance.core.header import engine_spec
from conformance.core.results import Result, Status

BISECT_DEPTH: Final = 6
"""The deepest perft ``bisect`` compares unless told (its ``--depth``; :mod:`conformance.bisect.search`)."""


def engine_spec_of(header: Mapping[str, Any]) -> str:
    """The engine spec that started a report's engine, as far as the header tells it (else ENGINE)."""
    from conformance.engines.mutants import MUTANTS
    from conformance.engines.thirdparty import BUILTIN_ENGINES

    known = frozenset({"oracle", *BUILTIN_ENGINES, *(f"mutant:{name}" for name in MUTANTS)})
    return engine_spec(header, known=known)


def bisect_command(results: Iterable[Result], header: Mapping[str, Any]) -> str | None:
    """``draughts-conformance bisect SPEC --fen FEN --depth N`` for the shallowest wrong perft of a
    run (None when no perft count was wrong)."""
    wrong = [
        (len(result.got), result.position)
        for result in results
        if result.question == "perft"
        and result.status is Status.FAIL
        and isinstance(result.got, list)
        and result.got
        and result.position
    ]
    if not wrong:
        return None
    depth, fen = min(wrong)
    command = ["draughts-conformance", "bisect", engine_spec_of(header), "--fen", fen]
    if depth != BISECT_DEPTH:
        command += ["--depth", str(depth)]
    game = rule_sets.name_of(header)
    if game != rule_sets.DEFAULT:  # the game the run played
        command += ["--rules", game]
    return shlex.join(command)
