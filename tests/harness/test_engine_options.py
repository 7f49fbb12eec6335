"""Engines like Scan are started from their own folder, with parameters and a search level
(issue 13): ``--engine-cwd``, ``--hub-param NAME=VALUE`` (Hub ``set-param``), ``--search-depth`` and
``--move-time`` (the Hub ``level`` line; a DXP engine's time control); options that do not apply to
an engine are usage errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO

from conformance.cli.smoke import CAPTURE, smoke
from conformance.engines.adapters.dxp_messages import time_control
from conformance.engines.adapters.hub import hub_position
from conformance.engines.adapters.specs import SpecError, engine_factory, hub_level
from conformance.engines.adapters.trace import SENT, Trace
from oracle.position import Position

FAKES = Path(__file__).parent / "fakes"
PY = sys.executable
ANSWER = f"--answer {hub_position(Position.from_fen(CAPTURE))}=28x39x33"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PY, "-m", "conformance", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


@pytest.fixture
def scan_like(tmp_path: Path) -> Path:
    """A folder holding a Hub engine that needs it as its working folder (``hub.ini`` in it)."""
    folder = tmp_path / "engine"
    folder.mkdir()
    for name in ("hub_folder.py", "hub_common.py"):
        shutil.copy(FAKES / name, folder / name)
    (folder / "hub.ini").write_text("hash = 16\n", encoding="ascii")
    return folder


def test_a_hub_engine_started_outside_its_folder_fails_and_inside_it_passes(
    tmp_path: Path, scan_like: Path
) -> None:
    spec = f"hub:{PY} hub_folder.py {ANSWER}"  # a relative command: found in the engine's folder
    outside = cli("smoke", spec, "--timeout", "2", cwd=tmp_path)
    assert outside.returncode == 1
    assert "hub_folder.py" in outside.stdout  # python cannot find the script here
    inside = cli("smoke", spec, "--engine-cwd", str(scan_like), "--timeout", "2", cwd=tmp_path)
    assert inside.returncode == 0, inside.stdout + inside.stderr
    absolute = f"hub:{PY} {scan_like / 'hub_folder.py'} {ANSWER}"
    elsewhere = cli("smoke", absolute, "--timeout", "2", cwd=tmp_path)
    assert elsewhere.returncode == 1
    assert "cannot find hub.ini" in elsewhere.stdout


def sent_lines(spec: str, **options: object) -> list[str]:
    with Trace(keep=True) as trace:
        checks = smoke(spec, timeout=2.0, trace=trace, **options)  # type: ignore[arg-type]
    assert [check for check in checks if check.state != "ok"] == []
    return [record.text for record in trace.records or [] if record.direction == SENT]


def test_hub_parameters_are_sent_before_init_and_the_level_before_each_search(scan_like: Path) -> None:
    spec = f"hub:{PY} hub_folder.py {ANSWER}"
    lines = sent_lines(spec, cwd=scan_like, hub_params={"hash": "1", "book": "my book"}, depth=3)
    assert lines.index('set-param name=book value="my book"') < lines.index("init")
    assert lines.index("set-param name=hash value=1") < lines.index("init")
    assert "level depth=3" in lines
    lines = sent_lines(spec, cwd=scan_like, move_time=0.5)
    assert "level move-time=0.5" in lines
    lines = sent_lines(spec, cwd=scan_like)
    assert "level depth=1" in lines


def test_the_level_line() -> None:
    assert hub_level(None, None) == "depth=1"
    assert hub_level(4, None) == "depth=4"
    assert hub_level(None, 0.25) == "move-time=0.25"
    assert hub_level(2, 1.5) == "depth=2 move-time=1.5"


def test_a_dxp_engine_gets_a_time_control_for_its_move_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    assert time_control(0.06) == (1, 999)
    assert time_control(1.0) == (17, 999)
    assert time_control(120.0) == (999, 500)
    spec = f"dxp:{PY} -m conformance.servers.oracle_dxp --port {{port}} --single"
    requests = [line for line in sent_lines(spec, move_time=1.0) if line.startswith("R01")]
    assert requests
    assert all(line[36:42] == "017999" for line in requests), (
        requests
    )  # after the colour: time 017, moves 999


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["jsonl:engine", "--hub-param", "hash=1"], "--hub-param applies to hub: engines only"),
        (["hub:engine", "--hub-param", "nonsense"], "expected NAME=VALUE"),
        (["dxp:engine", "--search-depth", "3"], "--search-depth applies to hub: engines only"),
        (["jsonl:engine", "--move-time", "1"], "--move-time applies to hub: and dxp: engines only"),
        (["hub:engine", "--move-time", "0"], "--move-time must be a positive number"),
        (["hub:engine", "--search-depth", "0"], "--search-depth must be 1 or more"),
        (["oracle", "--engine-cwd", "."], "--engine-cwd applies to engines started by a command"),
        (["hub:engine", "--engine-cwd", "/no/such/folder"], "no such folder"),
        (["dxp:localhost:27531", "--engine-cwd", "."], "connects to an engine already running"),
    ],
)
def test_options_that_do_not_apply_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = cli("run", *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_the_factory_checks_its_options_before_starting_anything() -> None:
    with pytest.raises(SpecError, match="applies to hub"):
        engine_factory("jsonl:anything", hub_params={"hash": "1"})
    with pytest.raises(SpecError, match="one line"):
        engine_factory("hub:anything", hub_params={"hash": "1\ninit"})
