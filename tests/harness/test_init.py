"""``draughts-conformance init`` (issue 24): a starter engine and its settings file, from the templates
the package ships; ``run`` in that folder straight away certifies nothing and says what to fill in first.
(From a wheel installed outside the repository: tests/docs/test_install.py.)"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from conformance.cli.main import main
from conformance.cli.starter import KINDS


@pytest.mark.parametrize("kind", list(KINDS))
def test_init_writes_an_engine_that_run_finds_and_that_declines_everything(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    folder = tmp_path / "my-engine"
    assert main(["init", "--kind", kind, str(folder)]) == 0
    written = sorted(path.name for path in folder.iterdir())
    assert written == sorted(["draughts-conformance.toml", "engine.js" if kind == "node" else "engine.py"])
    assert "draughts-conformance run" in capsys.readouterr().out
    (tmp_path / ".git").mkdir()  # the engine's repository: the settings are looked for up to here
    monkeypatch.chdir(folder)
    monkeypatch.delitem(sys.modules, "engine", raising=False)  # the in-process kind imports engine.py
    assert main(["run"]) == 3  # nothing certified
    out = capsys.readouterr().out.splitlines()
    assert "Fill in legal_moves first" in " ".join(out[-3:])
    assert out[-1].startswith("my-engine 0.1: NOT CERTIFIED")
    assert ", 0/" in out[-1]  # no question answered


def test_init_never_overwrites_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = tmp_path / "engine.py"
    engine.write_text("# my own work\n", encoding="utf-8")
    assert main(["init", str(tmp_path)]) == 2
    assert "engine.py: already there (--force overwrites)" in capsys.readouterr().err
    assert engine.read_text(encoding="utf-8") == "# my own work\n"
    assert not (tmp_path / "draughts-conformance.toml").exists()  # nothing half-written
    assert main(["init", str(tmp_path), "--force"]) == 0
    assert "declines every request" in engine.read_text(encoding="utf-8")


def test_init_into_a_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert main(["init", str(blocker / "sub")]) == 2
    assert "cannot write into" in capsys.readouterr().err
