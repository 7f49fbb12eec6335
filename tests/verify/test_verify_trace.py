"""``verify`` takes the engine options of ``run`` (issue 13): ``--trace FILE`` (every line exchanged,
timed; with ``--workers N`` each worker process appends to the same file, whole lines), ``--engine-cwd``,
``--hub-param``, ``--search-depth``, ``--move-time``, carried to the workers by the :class:`EngineRecipe`;
bad options are usage errors before any engine starts. Real subprocess engines throughout."""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from conformance.engines.adapters.specs import EngineRecipe, SpecError, close_traces
from conformance.engines.adapters.trace import EVENT, RECEIVED, SENT, Trace

REPO = Path(__file__).resolve().parents[2]
PY = sys.executable
ORACLE_JSONL = f"jsonl:{PY} -m conformance.servers.oracle_jsonl"
ORACLE_HUB = f"hub:{PY} -m conformance.servers.oracle_hub"
LINE = re.compile(r"(\d\d:\d\d:\d\d\.\d{6}) (\S+ \d+) ([<>!*]) (.*)")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "conformance", "verify", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def traced(path: Path) -> list[tuple[str, str, str, str]]:
    """The trace's lines (time, engine, direction, text); exactly one heading line, first."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# draughts-conformance trace")
    assert not any(line.startswith("#") for line in lines[1:]), "one heading, however many processes"
    parsed = []
    for line in lines[1:]:
        match = LINE.fullmatch(line)
        assert match is not None, f"not a whole trace line: {line!r}"
        parsed.append((match.group(1), match.group(2), match.group(3), match.group(4)))
    return parsed


def exchanges(records: list[tuple[str, str, str, str]]) -> dict[str, tuple[list[int], list[int]]]:
    """For each JSON-lines engine: the seq of every request sent and of every response received."""
    seen: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for _, engine, direction, text in records:
        if not engine.startswith("jsonl ") or direction not in (SENT, RECEIVED):
            continue
        message = json.loads(text)
        if message.get("type") == "request":
            seen[engine][0].append(message["seq"])
        elif message.get("type") == "response":
            seen[engine][1].append(message["seq"])
    return dict(seen)


@pytest.mark.parametrize("workers", [1, 2])
def test_the_trace_holds_every_request_and_answer_of_every_worker(tmp_path: Path, workers: int) -> None:
    trace = tmp_path / "trace.txt"
    done = cli(
        "--engine", ORACLE_JSONL, "-n", "64", "--seed", "3", "--workers", str(workers), "--trace", str(trace),
        "--format", "badge", "--no-progress", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = traced(trace)
    talks = exchanges(records)
    busy = {engine for engine, (sent, _) in talks.items() if len(sent) > 3}
    # One process: its engine does everything. Two (64 positions: four chunks, so that a worker
    # still starting up gets one): the parent's engine tells the engine's name and
    # capabilities, and each worker's engine checks positions.
    assert len(busy) == workers, talks.keys()
    for engine, (sent, answered) in talks.items():
        assert sorted(sent) == sorted(answered), f"{engine}: every request answered, in the trace"
    stamps = [stamp for stamp, *_ in records]
    assert stamps == sorted(stamps) or workers > 1  # several processes append as they go
    for engine in talks:
        mine = [stamp for stamp, name, *_ in records if name == engine]
        assert mine == sorted(mine), "each engine's lines are in time order"
    started = [
        text for _, name, direction, text in records if name.startswith("process ") and direction == EVENT
    ]
    if workers == 1:
        assert started == []
    else:
        linked = {text.removeprefix("started its engine ") for text in started if text.startswith("started")}
        assert linked == busy, "each worker process names the engine it started"
        assert len({name for _, name, *_ in records if name.startswith("process ")}) == 2


def test_the_trace_of_a_second_run_replaces_the_first(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text("# an old trace\nstale line\n", encoding="utf-8")
    done = cli("--engine", ORACLE_JSONL, "-n", "2", "--workers", "2", "--trace", str(trace), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "stale line" not in trace.read_text(encoding="utf-8")
    traced(trace)


def test_hub_options_reach_every_worker_engine(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    done = cli(
        "--engine", ORACLE_HUB, "-n", "6", "--workers", "2", "--hub-param", "hash=16", "--search-depth", "3",
        "--trace", str(trace), "--no-z3", "--format", "badge", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = traced(trace)
    by_engine: dict[str, list[str]] = defaultdict(list)
    for _, engine, direction, text in records:
        if direction == SENT:
            by_engine[engine].append(text)
    searching = [lines for lines in by_engine.values() if any(line.startswith("go") for line in lines)]
    assert searching, "an engine searched"
    # A worker process starts its engine with its first position (on a loaded machine one worker
    # may take all six); every engine started, the parent's included, got the options.
    started = {
        text
        for _, name, direction, text in records
        if name.startswith("process ") and text.startswith("started")
    }
    assert 1 <= len(started) <= 2, started
    for lines in by_engine.values():
        assert lines.index("set-param name=hash value=16") < lines.index("init")
        assert all(line == "level depth=3" for line in lines if line.startswith("level"))
        assert any(line == "level depth=3" for line in lines) or not any(
            line.startswith("go") for line in lines
        )


def test_the_engine_folder_is_the_workers_too(tmp_path: Path) -> None:
    folder = tmp_path / "engine"
    folder.mkdir()
    (folder / "engine.py").write_text(
        "import runpy, sys\nsys.argv = ['oracle_jsonl']\n"
        "runpy.run_module('conformance.servers.oracle_jsonl', run_name='__main__')\n",
        encoding="utf-8",
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    spec = f"jsonl:{PY} engine.py"  # a relative command: found in the engine's folder only
    done = cli("--engine", spec, "-n", "4", "--workers", "2", "--engine-cwd", str(folder), cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert cli("--engine", spec, "-n", "4", cwd=elsewhere).returncode == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--hub-param", "hash"], "--hub-param 'hash': expected NAME=VALUE"),
        (["--engine-cwd", "{tmp}/missing"], "/missing: no such folder"),
        (["--trace", "{tmp}/missing/trace.txt"], "cannot write the trace to"),
        (["--trace", "{tmp}"], "cannot write the trace to"),
        (["--search-depth", "2"], "--search-depth applies to hub: engines only"),
    ],
)
def test_bad_engine_options_are_one_line_usage_errors_before_any_engine_starts(
    tmp_path: Path, options: list[str], message: str
) -> None:
    marker = tmp_path / "started"
    spec = f"jsonl:{PY} -c \"open('{marker}', 'w')\""
    arguments = [option.replace("{tmp}", str(tmp_path)) for option in options]
    done = cli("--engine", spec, "-n", "2", "--workers", "2", *arguments, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not marker.exists(), "no engine was started"


def test_a_recipe_carries_the_options_and_pickles_with_a_path_not_a_file(tmp_path: Path) -> None:
    with Trace.open(tmp_path / "trace.txt") as trace:
        recipe = EngineRecipe.of(
            ORACLE_HUB,
            2.0,
            trace=trace,
            cwd=tmp_path,
            hub_params={"b": "2", "a": "1"},
            depth=4,
            move_time=None,
        )
    copy = pickle.loads(pickle.dumps(recipe))
    assert copy == recipe
    assert copy.trace == (tmp_path / "trace.txt").resolve()
    assert copy.hub_params == (("a", "1"), ("b", "2"))
    assert (copy.cwd, copy.depth, copy.timeout) == (tmp_path.resolve(), 4, 2.0)
    with pytest.raises(ValueError, match="must be a file"), Trace(keep=True) as memory:
        EngineRecipe.of(ORACLE_HUB, trace=memory)


def test_a_worker_that_cannot_append_to_the_trace_says_where(tmp_path: Path) -> None:
    recipe = EngineRecipe(ORACLE_JSONL, trace=tmp_path / "gone" / "trace.txt")
    with pytest.raises(SpecError, match=rf"cannot append the trace to .*gone.* in process {os.getpid()}"):
        recipe()
    close_traces()


def test_a_dask_cluster_appends_to_the_trace_on_each_worker(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="needs pip install 'draughts-conformance[distributed]'")
    trace = tmp_path / "trace.txt"
    done = cli(
        "--engine", ORACLE_JSONL, "-n", "6", "--workers", "2", "--scheduler", "local", "--trace", str(trace),
        "--no-z3", "--format", "badge", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    talks = exchanges(traced(trace))
    assert sum(1 for sent, _ in talks.values() if len(sent) > 3) >= 2
    for engine, (sent, answered) in talks.items():
        assert sorted(sent) == sorted(answered), engine
