"""draughts.js, the npm engine: its install (package.json + npm), its status, its Node.js server.

The install and status tests use a stand-in ``npm`` on ``PATH`` (the real ``node`` beside it), so
they run without the network; the server tests run the real draughts.js 0.2.1 that
``draughts-conformance engines install`` put under the engines directory (they skip only where
``node`` is not on PATH). Its findings on the whole corpus are checked against its baseline in
``test_real_engines.py``.
"""

from __future__ import annotations

import fnmatch
import json
import os
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance.cli import engines as engines_cli
from conformance.cli.commands import build_parser
from conformance.core.protocol import Capability, EngineDeclined, EngineError, MoveRefused, PositionRefused
from conformance.engines import npm, thirdparty
from conformance.engines.adapters.jsonl import JsonlEngine
from conformance.engines.base import InstallError, ToolMissing
from conformance.engines.thirdparty import BUILTIN_ENGINES, ENGINES_DIR_VARIABLE, builtin_engine, status
from conformance.servers import library

REPO = Path(__file__).resolve().parents[2]
ENGINE = BUILTIN_ENGINES["draughts-js"]
NODE = npm.node()
needs_node = pytest.mark.skipif(NODE is None, reason="draughts.js runs on Node.js, and node is not on PATH")


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _tools(tmp_path: Path, npm_script: str) -> Path:
    """A folder holding the real node and a stand-in npm (a shell script), to go first on PATH."""
    tools = tmp_path / "tools"
    tools.mkdir()
    assert NODE is not None
    (tools / "node").symlink_to(NODE)
    _executable(tools / "npm", "#!/bin/sh\n" + npm_script)
    return tools


PACKAGE = """echo "$PWD $*" >> "$CALLS"
mkdir -p node_modules/draughts
printf '%s\\n' "$LIBRARY" > node_modules/draughts/draughts.js
printf '{"name": "draughts", "version": "%s", "main": "draughts.js"}\\n' "$VERSION" > node_modules/draughts/package.json
"""
"""A stand-in npm that 'installs' a package ``draughts`` of version $VERSION whose code is $LIBRARY."""


def _fake_npm_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, version: str, library: str
) -> Path:
    monkeypatch.setenv("PATH", f"{_tools(tmp_path, PACKAGE)}{os.pathsep}{os.defpath}")
    monkeypatch.setenv("CALLS", str(tmp_path / "calls"))
    monkeypatch.setenv("VERSION", version)
    monkeypatch.setenv("LIBRARY", library)
    return tmp_path / "calls"


# -- installing --------------------------------------------------------------------------------------


def test_without_node_and_npm_the_install_is_a_tool_missing_that_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(ToolMissing) as raised:
        thirdparty.install("draughts-js", tmp_path / "engines", say=lambda _: None)
    assert "node and npm not on PATH" in raised.value.message
    assert "draughts@0.2.1" in raised.value.message
    assert "draughts-conformance engines install draughts-js" in raised.value.message
    assert not (tmp_path / "engines").exists()
    found = status("draughts-js", tmp_path / "engines")
    assert not found.works
    assert found.summary == "not installed (node is not on PATH)"


@needs_node
def test_install_writes_the_pinned_package_json_and_reports_a_failing_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = 'echo "$*" > npm-arguments\necho "npm error 404 Not Found"\nexit 3\n'
    monkeypatch.setenv("PATH", f"{_tools(tmp_path, failing)}{os.pathsep}{os.defpath}")
    said: list[str] = []
    with pytest.raises(InstallError) as raised:
        thirdparty.install("draughts-js", tmp_path / "engines", say=said.append)
    folder = tmp_path / "engines" / "draughts-js"
    assert raised.value.message == "draughts-js: npm install failed: exit status 3"
    assert "npm error 404 Not Found" in raised.value.output
    assert json.loads((folder / "package.json").read_text())["dependencies"] == {"draughts": "0.2.1"}
    assert (folder / "npm-arguments").read_text().split() == [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
    ]
    assert said == [f"draughts-js: npm install draughts@0.2.1 in {folder}"]


@needs_node
def test_install_then_status_works_and_installing_again_runs_no_npm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _fake_npm_environment(monkeypatch, tmp_path, "0.2.1", "module.exports = function Draughts () {}")
    said: list[str] = []
    found = thirdparty.install("draughts-js", tmp_path / "engines", say=said.append)
    assert found.works, found.summary
    assert found.engine_version == "0.2.1"
    assert any(line.startswith("draughts-js: ok, draughts@0.2.1 in ") for line in said)
    assert len(calls.read_text().splitlines()) == 1
    again: list[str] = []
    thirdparty.install("draughts-js", tmp_path / "engines", say=again.append)
    assert again == [
        f"draughts-js: already installed in {tmp_path / 'engines' / 'draughts-js'} (draughts@0.2.1); nothing to do"
    ]
    assert len(calls.read_text().splitlines()) == 1


@needs_node
def test_an_install_whose_package_does_not_load_is_an_install_error_naming_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_npm_environment(monkeypatch, tmp_path, "0.2.0", "throw new Error('broken on load')")
    with pytest.raises(InstallError) as raised:
        thirdparty.install("draughts-js", tmp_path / "engines", say=lambda _: None)
    assert "installed, but it does not work" in raised.value.message
    assert "draughts 0.2.0 installed, 0.2.1 expected" in raised.value.message
    assert "require('draughts') fails: broken on load" in raised.value.message


@needs_node
def test_an_installed_folder_without_node_is_broken_and_does_not_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_npm_environment(monkeypatch, tmp_path, "0.2.1", "module.exports = function Draughts () {}")
    thirdparty.install("draughts-js", tmp_path / "engines", say=lambda _: None)
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert status("draughts-js", tmp_path / "engines").summary == "broken: node is not on PATH"
    with pytest.raises(EngineError) as raised:
        builtin_engine("draughts-js", root=tmp_path / "engines")
    assert raised.value.kind == "start"
    assert "needs Node.js: node is not on PATH" in raised.value.message


def test_a_missing_package_folder_is_a_start_error_that_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(EngineError) as raised:
        builtin_engine("draughts-js", root=tmp_path)
    assert raised.value.kind == "start"
    assert "run: draughts-conformance engines install draughts-js" in raised.value.message


def _cli(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.handler(args))


def _install_without_node(name: str, **_: object) -> None:
    if name == "draughts-js":
        raise ToolMissing("draughts-js: node and npm not on PATH: ...")


def test_installing_every_engine_skips_draughts_js_without_node_and_still_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(engines_cli, "install", _install_without_node)
    assert _cli(["engines", "install"]) == 0
    err = capsys.readouterr().err
    assert "draughts-js: SKIPPED: draughts-js: node and npm not on PATH" in err
    assert "skipped (node or npm missing): draughts-js" in err
    assert "ready: dame-rs, py-draughts, pydraughts" in err


def test_installing_draughts_js_by_name_without_node_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(engines_cli, "install", _install_without_node)
    assert _cli(["engines", "install", "draughts-js"]) == 1  # a failed install: FAILED, as everywhere
    err = capsys.readouterr().err
    assert "draughts-js: FAILED: draughts-js: node and npm not on PATH" in err
    assert "not installed: draughts-js" in err
    assert "this project goes in as" not in err  # no PyPI engine asked for


def test_the_server_is_package_data() -> None:
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
        "package-data"
    ]["conformance"]
    shipped = npm.server_file(ENGINE).relative_to(REPO / "conformance").as_posix()
    assert npm.server_file(ENGINE).exists()
    assert any(fnmatch.fnmatch(shipped, pattern) for pattern in patterns)


# -- the server, on the real draughts.js --------------------------------------------------------------


@pytest.fixture
def engine() -> Iterator[JsonlEngine]:
    if NODE is None:
        pytest.skip("draughts.js runs on Node.js, and node is not on PATH")
    started = builtin_engine("draughts-js", timeout=30)
    yield started
    started.close()


def test_the_server_declares_what_the_library_has_and_no_counters(engine: JsonlEngine) -> None:
    assert engine.info.name == "draughts-js"
    assert {capability.value for capability in engine.info.capabilities} == set(library.SERVED_CAPABILITIES)
    assert Capability.COUNTERS not in engine.info.capabilities
    assert engine.declared_pipeline > 1


def test_the_server_declines_hub_text_and_a_game_the_library_cannot_say_is_drawn(engine: JsonlEngine) -> None:
    with pytest.raises(EngineDeclined, match="no Hub move-text reader"):
        engine.parse_move("W:W31-50:B1-20", "32-28", "hub")
    with pytest.raises(EngineDeclined, match="no Hub move-text writer"):
        engine.format_move("W:W31-50:B1-20", engine.legal_moves("W:W31-50:B1-20")[0], "hub")
    with pytest.raises(EngineDeclined, match=r"no draw rules \(Art. 6\)"):
        engine.outcome("W:WK46:BK5", {}, ["46-41"])
    answer = engine.outcome("W:W46:B37,41", {}, [])  # White's only man is blocked
    assert (answer.result, answer.rule, answer.ply) == ("black_wins", "7.2.3", 0)


def test_the_server_passes_on_the_library_refusing_a_position(engine: JsonlEngine) -> None:
    with pytest.raises(PositionRefused, match="validate_fen"):
        engine.legal_moves("W:W31")


def test_what_the_library_prints_stays_out_of_the_protocol(engine: JsonlEngine) -> None:
    """The library's PDN reader console.logs its legal moves when it refuses a move."""
    with pytest.raises(MoveRefused, match="parsePDN refused"):  # the protocol's verdict 'illegal'
        engine.parse_move("W:W31-50:B1-20", "32-28", "pdn")
    assert engine.move_count("W:W31-50:B1-20") == 9


@needs_node
def test_a_server_that_cannot_load_the_library_fails_to_start_saying_so(tmp_path: Path) -> None:
    with pytest.raises(EngineError) as raised:
        JsonlEngine(npm.server_command(ENGINE, tmp_path), start_timeout=30)
    assert raised.value.kind == "start"
    assert "cannot load draughts.js" in raised.value.stderr


def test_node_path_is_the_one_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _executable(tmp_path / "node", "#!/bin/sh\n")
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    assert npm.server_command(ENGINE, tmp_path / "engines")[0] == str(tmp_path / "node")
