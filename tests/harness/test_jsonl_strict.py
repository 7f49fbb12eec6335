"""A strict engine over JSON-lines: correct, but refusing every position where a side has no pieces.

Scan rejects such positions on purpose (a game reaches one only at its end); protocol 1.1 lets an
engine say so (``illegal`` about the position). Over the whole default corpus such an engine gets
no error and no fail: every question passes but those about a position with a side without
pieces, which are skips (issue 10: "a strict engine ... passes the default corpus").
"""

from __future__ import annotations

import sys
from pathlib import Path

from support import assert_only_lone_side_skips, certify, default_cases

from conformance.core.protocol import Capability
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.harness.evaluate import has_both_colours, question_keys

FAKES = Path(__file__).parent / "fakes"


def test_a_strict_engine_passes_the_default_corpus_with_skips_only_where_a_side_has_no_pieces() -> None:
    cases = default_cases()
    engines: list[JsonlEngine] = []

    def start() -> JsonlEngine:
        engines.append(JsonlEngine([sys.executable, str(FAKES / "strict_jsonl.py")]))
        return engines[-1]

    results = certify(start, cases)
    assert len(results) == sum(len(list(question_keys(case))) for case in cases)
    assert Capability.COUNTERS in engines[0].info.capabilities
    skips = assert_only_lone_side_skips(results)
    lone = {case.id for case in cases if not has_both_colours(case.position)}
    assert {r.case for r in skips} <= lone
    assert all("a side has no pieces" in r.message for r in skips)
    assert all(engine.restarts == 0 for engine in engines)
