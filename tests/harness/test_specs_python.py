"""``python:MODULE:ATTR`` finds MODULE in the current folder, as ``python -m`` would, although the
console script does not have that folder on ``sys.path``; the engine runs in a child process
(``conformance.servers.python_host``), so the harness never imports the module itself."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.engines.adapters.specs import SpecError, engine_factory

MODULE = "authorkit_spec_engine"
ENGINE = """
from conformance.core.protocol import BaseEngine, Capability, EngineInfo

class Engine(BaseEngine):
    @property
    def info(self):
        return EngineInfo("from-the-folder", __file__, frozenset({Capability.INITIAL_POSITION}), "in-process")

    def initial_position(self):
        return "W:W31-50:B1-20"
"""


@pytest.fixture
def engine_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / f"{MODULE}.py").write_text(ENGINE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    yield tmp_path
    sys.modules.pop(MODULE, None)


def test_a_module_in_the_current_folder_is_imported_by_the_engine_process_not_the_harness(
    engine_folder: Path,
) -> None:
    assert str(engine_folder) not in sys.path
    before = list(sys.path)
    factory = engine_factory(f"python:{MODULE}:Engine")
    assert sys.path == before
    engine = factory()
    try:
        assert engine.info.name == "from-the-folder"
        assert engine.info.version == str(engine_folder / f"{MODULE}.py")  # the module's __file__
        assert engine.info.adapter == f"python:{MODULE}:Engine"
        assert engine.initial_position() == "W:W31-50:B1-20"
    finally:
        engine.close()
    assert MODULE not in sys.modules  # none of the engine's code ran in the harness's process


def test_a_module_that_is_nowhere_names_the_folder_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    with pytest.raises(
        SpecError,
        match=rf"cannot import 'no_such_engine_module' \(searched the current folder {tmp_path} first",
    ):
        engine_factory("python:no_such_engine_module:Engine")
    assert sys.path == before


def test_the_console_script_runs_an_engine_from_the_current_folder(engine_folder: Path) -> None:
    """The reported failure: ``draughts-conformance run python:mymod:Engine`` from mymod's folder."""
    script = Path(sys.executable).parent / "draughts-conformance"
    if not script.is_file():
        pytest.skip(f"no console script next to {sys.executable}")
    done = subprocess.run(
        [
            str(script),
            "run",
            f"python:{MODULE}:Engine",
            "--case",
            "2.8-new-game-start-position",
            "--format",
            "badge",
        ],
        cwd=engine_folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "No module named" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
