"""Pipelined requests (issue 14, point 5; protocol 1.1): an engine that declares ``"pipeline": N``
in ``started`` gets up to N requests in flight, answered by ``seq`` in any order; each request keeps
its own timeout; a hang or a crash is charged to the request the engine was on, and the others are
sent again to the restarted engine. The runner sends each case's first requests ahead, and its
results are those of an engine asked one request at a time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import REPO

from conformance.core.corpus import load_corpus
from conformance.core.protocol import EngineDeclined, EngineError
from conformance.core.results import Result
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.adapters.trace import SENT, Trace
from conformance.engines.oracle_engine import OracleEngine
from conformance.harness.runner import RunOptions, run

FAKES = Path(__file__).parent / "fakes"
START = "W:W31-50:B1-20"
SERVER = [sys.executable, "-m", "conformance.servers.oracle_jsonl"]


def fake(name: str, *args: str, **options: object) -> JsonlEngine:
    return JsonlEngine([sys.executable, str(FAKES / f"{name}.py"), *args], **options)  # type: ignore[arg-type]


def fen_calls(count: int) -> list[tuple[str, tuple[str]]]:
    return [("fen", (f"W:W{31 + n}:B1",)) for n in range(count)]


def outcome(result: Result) -> tuple[str, str, str, str]:
    return result.case, result.question, result.status.value, result.message


def test_the_runner_pipelines_and_gets_the_in_process_results_on_the_whole_corpus() -> None:
    cases = load_corpus().select(exclude_tags=("slow",))
    local: list[Result] = []
    run(cases, OracleEngine, RunOptions(), local.append)
    engine = JsonlEngine(SERVER, env={"PYTHONPATH": str(REPO)})
    assert engine.pipeline > 1, "the reference server declares a pipeline"
    remote: list[Result] = []
    run(cases, lambda: engine, RunOptions(), remote.append, engine=engine)
    assert [outcome(r) for r in remote] == [outcome(r) for r in local]
    assert engine.most_in_flight > 1, "requests were in flight together"


def test_an_engine_that_declares_no_pipeline_gets_one_request_at_a_time(tmp_path: Path) -> None:
    with Trace(keep=True) as trace, fake("slow", "--delay", "0", trace=trace) as engine:
        assert engine.pipeline == 1
        engine.send_ahead(fen_calls(3))
        assert not [r for r in trace.records or [] if r.direction == SENT and '"request"' in r.text]
        for _, (fen,) in fen_calls(3):
            assert engine.fen(fen).position == fen
        assert engine.most_in_flight == 1


def test_the_pipeline_is_capped_by_the_caller() -> None:
    with fake("slow", "--delay", "0", "--pipeline", "8", pipeline=2) as engine:
        assert (engine.declared_pipeline, engine.pipeline) == (8, 2)
        engine.send_ahead(fen_calls(6))
        for _, (fen,) in fen_calls(6):
            engine.fen(fen)
        assert engine.most_in_flight == 2


def test_each_request_keeps_its_own_timeout_counted_from_the_previous_answer() -> None:
    # 8 answers of 0.3 s each: the last comes 2.4 s after it was sent, within 1 s of the one before
    with fake("slow", "--delay", "0.3", "--pipeline", "8", timeout=1.0) as engine:
        engine.send_ahead(fen_calls(8))
        assert [engine.fen(fen).position for _, (fen,) in fen_calls(8)] == [fen for _, (fen,) in fen_calls(8)]
        assert engine.most_in_flight == 8
        assert engine.restarts == 0


def test_a_hang_in_flight_is_charged_to_its_request_and_the_others_are_sent_again() -> None:
    with fake("hang", "--op", "legal_moves", "--pipeline", "4", timeout=1.0) as engine:
        engine.send_ahead(
            [("fen", (START,)), ("legal_moves", (START,)), ("fen", ("W:W31:B1",)), ("fen", ("W:W32:B1",))]
        )
        assert engine.most_in_flight == 4
        assert engine.fen(START).valid
        with pytest.raises(EngineError, match="no answer to legal_moves") as raised:
            engine.legal_moves(START)
        assert raised.value.kind == "timeout"
        assert engine.fen("W:W31:B1").position == "W:W31:B1"  # sent again to the restarted engine
        assert engine.fen("W:W32:B1").position == "W:W32:B1"
        assert engine.restarts == 1


def test_a_crash_in_flight_is_charged_to_its_request_and_the_others_are_sent_again() -> None:
    with fake("crash", "--op", "legal_moves", "--pipeline", "4") as engine:
        engine.send_ahead([("legal_moves", (START,)), ("fen", ("W:W31:B1",)), ("fen", ("W:W32:B1",))])
        with pytest.raises(EngineError, match="while answering legal_moves") as raised:
            engine.legal_moves(START)
        assert raised.value.kind == "crash"
        assert "cannot cope with legal_moves" in raised.value.stderr
        assert engine.fen("W:W31:B1").valid
        assert engine.fen("W:W32:B1").valid
        assert engine.restarts == 1


def test_answers_out_of_order_are_matched_by_seq() -> None:
    with fake("reorder") as engine:
        assert engine.pipeline == 4
        engine.send_ahead([("fen", ("W:W31:B1",)), ("legal_moves", (START,)), ("fen", ("W:W32:B1",))])
        assert engine.fen("W:W31:B1").position == "W:W31:B1"
        with pytest.raises(EngineDeclined, match=r"^seq 2$"):
            engine.legal_moves(START)
        assert engine.fen("W:W32:B1").position == "W:W32:B1"
        assert engine.restarts == 0


def test_a_call_out_of_order_sends_its_own_request_and_abandoned_answers_are_dropped() -> None:
    with fake("slow", "--delay", "0", "--pipeline", "4") as engine:
        engine.send_ahead(fen_calls(3))
        _, (last,) = fen_calls(3)[2]
        assert engine.fen(last).position == last  # the two before it are abandoned
        assert engine.fen(START).position == START  # not sent ahead: sent now
        assert engine.fen("W:W31:B1").position == "W:W31:B1"
        assert engine.restarts == 0


def test_a_response_with_a_seq_not_in_flight_is_a_protocol_error() -> None:
    with fake("protocol", "--violation", "wrong-seq") as engine:
        with pytest.raises(EngineError, match="carries seq 2 instead of 1") as raised:
            engine.fen(START)
        assert raised.value.kind == "protocol"


def test_a_pipeline_of_0_is_not_a_valid_started_message() -> None:
    reply = '{"type": "started", "protocol": 1, "pipeline": 0, "engine": {"name": "x", "version": "0"}, "capabilities": ["fen"]}'
    command = [
        sys.executable,
        "-c",
        f"import sys; sys.stdin.readline(); print({reply!r}, flush=True); sys.stdin.read()",
    ]
    with pytest.raises(EngineError, match="pipeline") as raised:
        JsonlEngine(command, start_timeout=5)
    assert raised.value.kind == "start"


def test_a_request_is_encoded_as_json_would_encode_it() -> None:
    import json

    from conformance.core.protocol import MoveSpec
    from conformance.engines.adapters.jsonl_messages import dumps, request_arguments, request_body

    calls = [
        ("fen", ("W:W31-50:B1-20",)),
        ("play", ("W:W31-50:B1-20", ["32-28", 'é"\\x\n'])),
        ("outcome", ("W:W28:B33", {"occurrences": 2}, ["28x39"])),
        ("format_move", ("W:W28:B33", MoveSpec(28, 39, frozenset({33})), "hub")),
        ("parse_move", ("W:W28:B33", "28x39", "pdn")),
        ("perft", (START, 3)),
        ("initial_position", ()),
    ]
    for method, args in calls:
        _, arguments = request_arguments(method, *args)
        line = b'{"type":"request","seq":7,' + request_body(method, arguments)
        assert line == dumps({"type": "request", "seq": 7, "op": method, **arguments})
        assert json.loads(line) == {"type": "request", "seq": 7, "op": method, **arguments}
