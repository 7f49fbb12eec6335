"""``--trace FILE`` (issue 13): every line exchanged with the engine, timed, with its direction, for
JSON-lines, Hub and DXP engines, every worker and every restart; the engine's stderr and what the
harness did; engine text made inert; the API others pass it through (``engine_factory(spec, trace=)``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support import REPO

from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.engines.adapters.specs import SpecError, engine_factory
from conformance.engines.adapters.trace import DIAGNOSTIC, EVENT, RECEIVED, SENT, Trace
from conformance.harness.runner import RunOptions, run

FAKES = Path(__file__).parent / "fakes"
PY = sys.executable
LINE = re.compile(r"(\d\d:\d\d:\d\d\.\d{6}) (\S+(?: \S+)?)(?: \[([^\]]+)\])? ([<>!*]) (.*)")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def traced(path: Path) -> list[tuple[str, str, str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# draughts-conformance trace")
    parsed = []
    for line in lines[1:]:
        match = LINE.fullmatch(line)
        assert match is not None, line
        parsed.append((match.group(1), match.group(2), match.group(4), match.group(5)))
    return parsed


def test_a_run_traces_every_line_of_every_worker_in_order(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    done = cli(
        "run", f"jsonl:{PY} -m conformance.servers.oracle_jsonl", "--article", "4.13", "--workers", "2",
        "--trace", str(trace), "--format", "badge", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = traced(trace)
    engines = {engine for _, engine, _, _ in records}
    assert len(engines) == 2, "both workers' engines are in the trace"
    assert [stamp for stamp, *_ in records] == sorted(stamp for stamp, *_ in records)
    for engine in engines:
        mine = [(direction, text) for _, name, direction, text in records if name == engine]
        assert mine[0][0] == EVENT
        assert mine[0][1].startswith("started ")
        assert json.loads(mine[1][1])["type"] == "start"
        assert mine[1][0] == SENT
        assert json.loads(mine[2][1])["type"] == "started"
        assert mine[2][0] == RECEIVED
        sent = [json.loads(text) for direction, text in mine if direction == SENT and '"request"' in text]
        answered = [
            json.loads(text) for direction, text in mine if direction == RECEIVED and '"response"' in text
        ]
        assert sorted(r["seq"] for r in sent) == sorted(r["seq"] for r in answered)
        assert json.loads([text for direction, text in mine if direction == SENT][-1]) == {"type": "stop"}
        assert mine[-1][0] == EVENT


def test_threads_sharing_a_trace_write_their_lines_in_time_order(tmp_path: Path) -> None:
    path = tmp_path / "trace.txt"
    with Trace.open(path, keep=True) as trace:

        def chatter(worker: int) -> None:
            for line in range(400):
                trace.record(f"jsonl {worker}", SENT, f"line {line}")

        threads = [threading.Thread(target=chatter, args=(worker,)) for worker in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert trace.records is not None
    assert len(trace.records) == 6 * 400
    times = [record.time for record in trace.records]
    assert times == sorted(times), "a line's time is read when it is written, not before waiting its turn"
    stamps = [stamp for stamp, *_ in traced(path)]
    assert stamps == sorted(stamps)


def test_the_engine_stderr_and_restarts_are_traced_and_control_characters_made_inert(tmp_path: Path) -> None:
    trace_path = tmp_path / "trace.txt"
    with Trace.open(trace_path) as trace:
        factory = engine_factory(f"jsonl:{PY} {FAKES}/crash.py --op legal_moves --noise 12", trace=trace)
        engine = factory()
        try:
            engine.fen("W:W31-50:B1-20")
            with pytest.raises(Exception, match="while answering legal_moves"):
                engine.legal_moves("W:W28:B33")
            engine.fen("W:W31-50:B1-20")  # the restarted engine
        finally:
            engine.close()
    records = traced(trace_path)
    assert len({engine for _, engine, _, _ in records}) == 2, "the restart is a second process"
    assert any(d == DIAGNOSTIC and "cannot cope with legal_moves" in t for _, _, d, t in records)
    assert any(d == EVENT and "exit status 3" in t for _, _, d, t in records)


def test_control_characters_of_the_engine_are_written_as_escapes(tmp_path: Path) -> None:
    script = tmp_path / "colour.py"
    script.write_text(
        "import sys\nsys.stderr.write('\\x1b[2J\\x1b]0;owned\\x07 hello\\n')\nsys.stderr.flush()\nsys.exit(1)\n",
        encoding="utf-8",
    )
    with Trace(keep=True) as trace, pytest.raises(Exception, match="exited before answering"):
        engine_factory(f"jsonl:{PY} {script}", trace=trace)()
    texts = [record.text for record in trace.records or []]
    assert any("\\x1b[2J\\x1b]0;owned\\x07 hello" in text for text in texts)
    assert not any("\x1b" in text or "\x07" in text for text in texts)


def test_hub_and_dxp_exchanges_are_traced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    cases = [c for c in load_corpus().select(articles=["4.13"]) if c.questions[0].kind == "legal_moves"][:3]
    for spec, sent, received in (
        (
            f"hub:{PY} -m conformance.servers.oracle_hub",
            ["hub", "init", "go think", "quit"],
            ["wait", "ready", "done move="],
        ),
        (
            f"dxp:{PY} -m conformance.servers.oracle_dxp --port {{port}} --single",
            ["R01", "E00", "E01"],
            ["A", "M", "E0"],
        ),
    ):
        with Trace(keep=True) as trace:
            results: list[Result] = []
            run(cases, engine_factory(spec, trace=trace), RunOptions(exclude_tags=()), results.append)
        assert Status.PASS in {r.status for r in results}
        assert {r.status for r in results} <= {Status.PASS, Status.UNSUPPORTED}  # a move-choice engine
        records = trace.records or []
        for prefix in sent:
            assert any(r.direction == SENT and r.text.startswith(prefix) for r in records), prefix
        for prefix in received:
            assert any(r.direction == RECEIVED and r.text.startswith(prefix) for r in records), prefix


def test_an_in_process_engine_is_noted_as_exchanging_nothing() -> None:
    with Trace(keep=True) as trace:
        engine_factory("oracle", trace=trace)
    assert [record.text for record in trace.records or []] == ["an in-process engine: no lines are exchanged"]


def test_a_trace_that_cannot_be_written_is_a_usage_error_before_the_engine_starts(tmp_path: Path) -> None:
    done = cli("run", "oracle", "--trace", str(tmp_path / "missing" / "trace.txt"), cwd=tmp_path)
    assert done.returncode == 2
    assert "cannot write the trace" in done.stderr
    assert "Traceback" not in done.stderr


def test_spec_errors_still_come_first() -> None:
    with pytest.raises(SpecError):
        engine_factory("nonsense", trace=Trace(keep=True))


def test_bisect_and_smoke_take_the_trace_too(tmp_path: Path) -> None:
    for command in ("bisect", "smoke"):
        trace = tmp_path / f"{command}.txt"
        extra = ["--depth", "2", "--playouts", "2", "-q"] if command == "bisect" else []
        done = cli(
            command,
            f"jsonl:{PY} -m conformance.servers.oracle_jsonl",
            *extra,
            "--trace",
            str(trace),
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        records = traced(trace)
        assert any(direction == SENT and '"op":"perft"' in text for _, _, direction, text in records), command
