"""A pipelining engine out of step gets no pass on another question's answer (issue 23): an answer
that comes before an older request's is held until that one is answered, and when the stream turns
out to be out of step (a response under a ``seq`` no request in flight has) every held answer
becomes an error, never judged. An engine that answers out of order in step loses nothing."""

from __future__ import annotations

import sys

import pytest
from hardening_support import HOSTILE, ROOT

from conformance.core.corpus import load_corpus
from conformance.core.protocol import EngineError
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, run

START = "W:W31-50:B1-20"
ENV = {"PYTHONPATH": str(ROOT)}


def hostile(name: str) -> JsonlEngine:
    return JsonlEngine([sys.executable, str(HOSTILE / f"{name}.py")], env=ENV, timeout=5)


def test_every_answer_of_a_shifted_exchange_is_an_error() -> None:
    calls = [("fen", (f"W:W{31 + n}:B1",)) for n in range(6)]
    with hostile("shifted_seq") as engine:
        assert engine.pipeline == 8
        engine.send_ahead(calls)
        for _, (fen,) in calls:
            with pytest.raises(EngineError) as raised:
                engine.fen(fen)
            assert raised.value.kind in ("protocol", "crash")
        assert engine.most_in_flight > 1


def test_a_shifted_engine_passes_nothing_on_the_corpus() -> None:
    cases = load_corpus().select(exclude_tags=("slow",))
    engine = hostile("shifted_seq")
    results: list[Result] = []
    try:
        run(cases, lambda: engine, RunOptions(), results.append, engine=engine)
    finally:
        engine.close()
    assert len(results) == sum(len(list(question_keys(case))) for case in cases)
    assert [r for r in results if r.status is Status.PASS] == []
    out_of_step = [r for r in results if "while out of step" in r.message]
    assert out_of_step, "the held answers are errors that say why"
    assert all(r.error is not None and r.error.kind == "protocol" for r in out_of_step)


def test_an_answer_given_early_survives_a_crash_on_the_older_request() -> None:
    with hostile("early_then_crash") as engine:
        engine.send_ahead([("legal_moves", (START,)), ("fen", ("W:W31:B1",)), ("fen", ("W:W32:B1",))])
        with pytest.raises(EngineError) as raised:
            engine.legal_moves(START)
        assert raised.value.kind == "crash"
        assert engine.fen("W:W31:B1").position == "W:W31:B1"  # asked again, answered again
        assert engine.fen("W:W32:B1").position == "W:W32:B1"
        assert engine.restarts == 1
