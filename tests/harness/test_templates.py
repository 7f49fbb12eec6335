"""The starter engines (conformance/templates, shipped in the wheel for ``draughts-conformance init``;
examples/python-* link to them): each starts, is run by the harness on the whole corpus (through
conformance.engines.adapters.specs and conformance.harness.runner, as the command line does) and gives only skips and
unsupported questions, never an error; the JSON-lines ones speak the protocol's schemas."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import REPO, certify

from conformance.core.corpus import load_corpus
from conformance.core.results import Result, Status
from conformance.engines.adapters.jsonl_messages import message_validator, schema_problem
from conformance.engines.adapters.specs import engine_factory

TEMPLATES = REPO / "conformance" / "templates"
IN_PROCESS = TEMPLATES / "python" / "engine.py"
JSONL = TEMPLATES / "jsonl-python" / "engine.py"
NODE = TEMPLATES / "node" / "engine.js"


def assert_only_declined(results: list[Result]) -> Counter[Status]:
    statuses = Counter(result.status for result in results)
    assert statuses[Status.SKIP] > 0, statuses
    assert set(statuses) <= {Status.SKIP, Status.UNSUPPORTED}, [
        (r.case, r.question, r.status.value, r.message)
        for r in results
        if r.status not in (Status.SKIP, Status.UNSUPPORTED)
    ]
    return statuses


@pytest.mark.parametrize("template", [IN_PROCESS, JSONL, NODE], ids=["python", "jsonl-python", "node"])
def test_each_template_is_short_and_says_how_to_run_it(template: Path) -> None:
    text = template.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 60
    assert "draughts-conformance run " in text
    settings = (template.parent / "draughts-conformance.toml").read_text(encoding="utf-8")
    assert f"{template.name}" in settings.splitlines()[2]  # engine = "...": names this engine


def test_the_examples_folder_links_to_the_templates() -> None:
    assert (REPO / "examples" / "python-inprocess" / "engine.py").resolve() == IN_PROCESS
    assert (REPO / "examples" / "python-jsonl" / "engine.py").resolve() == JSONL


@pytest.fixture
def in_process_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The template's folder as the current folder, as its docstring says to run it."""
    monkeypatch.chdir(IN_PROCESS.parent)
    saved = sys.modules.pop("engine", None)
    yield IN_PROCESS.parent
    sys.modules.pop("engine", None)
    if saved is not None:
        sys.modules["engine"] = saved


def test_the_in_process_template_declines_every_question_and_errs_on_none(in_process_folder: Path) -> None:
    factory = engine_factory("python:engine:Engine")
    engine = factory()
    try:
        assert engine.info.name == "my-engine"
    finally:
        engine.close()
    assert "engine" not in sys.modules  # served from its own process, imported there
    statuses = assert_only_declined(certify(factory, list(load_corpus().cases)))
    assert statuses[Status.UNSUPPORTED] < statuses[Status.SKIP]  # it declares nearly every capability


def test_the_in_process_template_says_which_method_is_not_implemented(in_process_folder: Path) -> None:
    factory = engine_factory("python:engine:Engine")
    results = certify(factory, [load_corpus().by_id()["4.11-turkish-strike"]])
    (legal_moves,) = [r for r in results if r.question == "legal_moves"]
    assert legal_moves.status is Status.SKIP
    assert "legal_moves is not implemented yet" in legal_moves.message


@pytest.mark.parametrize(
    "command", [[sys.executable, str(JSONL)], ["node", str(NODE)]], ids=["jsonl-python", "node"]
)
def test_the_jsonl_templates_decline_every_request_and_err_on_none(command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    factory = engine_factory("jsonl:" + shlex.join(command), timeout=30)
    results = certify(factory, list(load_corpus().cases))
    statuses = assert_only_declined(results)
    assert statuses[Status.UNSUPPORTED] < statuses[Status.SKIP]
    assert all("is not implemented yet" in r.message for r in results if r.status is Status.SKIP)


@pytest.mark.parametrize(
    "command", [[sys.executable, str(JSONL)], ["node", str(NODE)]], ids=["jsonl-python", "node"]
)
def test_the_jsonl_templates_speak_the_protocol_schemas(command: list[str]) -> None:
    """Every line the template writes validates against conformance/schemas (start, one request per
    example of jsonl-request.json for the operations it declares, stop)."""
    request_examples = json.loads((REPO / "conformance" / "schemas" / "jsonl-request.json").read_text())[
        "examples"
    ]
    start = {"type": "start", "protocol": 1}
    assert schema_problem(message_validator("start"), start) is None
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdin is not None
        assert process.stdout is not None
        process.stdin.write(json.dumps(start) + "\n")
        process.stdin.flush()
        started = json.loads(process.stdout.readline())
        assert schema_problem(message_validator("started"), started) is None
        requests = [r for r in request_examples if r["op"] in started["capabilities"]]
        assert {r["op"] for r in requests} == set(started["capabilities"])
        answers = []
        for request in requests:
            assert schema_problem(message_validator("request"), request) is None
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            answers.append(json.loads(process.stdout.readline()))
        stop = {"type": "stop"}
        assert schema_problem(message_validator("stop"), stop) is None
        process.stdin.write(json.dumps(stop) + "\n")
        process.stdin.close()
        assert process.wait(timeout=10) == 0
        assert process.stdout.read() == ""  # nothing after 'stop'
    finally:
        process.kill()
        process.wait()
    for request, answer in zip(requests, answers, strict=True):
        assert schema_problem(message_validator("response"), answer) is None, answer
        assert schema_problem(message_validator("response", "declined"), answer) is None, answer
        assert answer["seq"] == request["seq"]
        assert answer["declined"] == f"{request['op']} is not implemented yet"
