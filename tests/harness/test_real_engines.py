"""The real engines from the package registries, certified for real on the whole default corpus.

dame-rs, py-draughts and pydraughts each run in a venv of their own, draughts.js (npm) in an npm
package folder run with Node.js, under the engines directory (``$DRAUGHTS_ENGINES_DIR``, else
``./.engines``; ``draughts-conformance engines install`` creates them). For each installed engine
the whole default corpus runs through its built-in adapter, and:

* the run completes and no question ends in ``error`` (an error means our adapter broke);
* the failures are exactly the engine's baseline, ``tests/harness/baselines/<name>.yaml``, each
  with the signature listed (its defect and a digest of its answer): a new failure is a regression
  or a new finding, a changed one too, a missing one a fix (then regenerate the baseline:
  ``draughts-conformance run NAME --write-baseline tests/harness/baselines/NAME.yaml``).

Every failure in a baseline is a finding about that engine, described in docs/real-engines.md.
A PyPI engine that is not installed is skipped; draughts-js is skipped only where ``node`` is not
on PATH (CI has it, and ``engines install`` installs it there), else it must be installed. The
rest (engines directory, unknown names, a missing venv, install and list) runs without the network.
"""

from __future__ import annotations

import json
import stat
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from conformance.cli import engines as engines_cli
from conformance.cli.commands import build_parser
from conformance.core.baseline import Baseline
from conformance.core.corpus import load_corpus
from conformance.core.protocol import (
    PROTOCOL_MINOR,
    Capability,
    EngineError,
    MoveRefused,
    MoveSpec,
    PerftReached,
)
from conformance.core.results import Result, Status
from conformance.engines import npm, thirdparty
from conformance.engines.base import InstallError
from conformance.engines.thirdparty import (
    BUILTIN_ENGINES,
    ENGINES_DIR_VARIABLE,
    UnknownEngineError,
    builtin_engine,
    engines_dir,
    install,
    status,
    venv_python,
)
from conformance.harness.evaluate import question_keys
from conformance.harness.runner import RunOptions, run, select_cases
from conformance.servers import library

REPO = Path(__file__).resolve().parents[2]
BASELINES = Path(__file__).resolve().parent / "baselines"
NAMES = list(BUILTIN_ENGINES)
TIMEOUT = 60.0
"""Seconds per request: generous, so a slow CI machine gives no timeout (the servers decline deep perft)."""


def require_installed(name: str) -> None:
    """Skip a PyPI engine that is not installed, and draughts-js where node is not on PATH."""
    if BUILTIN_ENGINES[name].registry == "npm":
        if npm.node() is None:
            pytest.skip(f"{name} runs on Node.js, and node is not on PATH")
    elif not venv_python(name).exists():
        pytest.skip(
            f"{name} is not installed in {engines_dir()}: run draughts-conformance engines install {name}"
        )


def baseline_of(name: str) -> Baseline:
    baseline = Baseline.load(BASELINES / f"{name}.yaml")
    assert baseline.legacy == 0, "each entry holds its failure's signature: regenerate with --write-baseline"
    return baseline


def baseline_pairs(name: str) -> set[tuple[str, str]]:
    return {(case, str(question)) for case, question in baseline_of(name).entries}


# -- the real engines on the whole corpus ----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_real_engine_fails_exactly_its_baseline(name: str) -> None:
    require_installed(name)
    corpus = load_corpus()
    options = RunOptions(workers=1)
    cases = select_cases(corpus, options)
    results: list[Result] = []
    summary = run(cases, lambda: builtin_engine(name, timeout=TIMEOUT), options, results.append)

    assert not summary.stopped_early
    assert len(results) == sum(len(list(question_keys(case))) for case in cases)
    errors = [
        f"{r.case} {r.question}: {r.message}\n{r.error.stderr if r.error else ''}"
        for r in results
        if r.status is Status.ERROR
    ]
    assert errors == [], "the adapter broke (an error is never the engine's finding)"
    assert Counter(r.status for r in results)[Status.PASS] > 0

    failing = {(r.case, r.question) for r in results if r.status is Status.FAIL}
    expected = baseline_pairs(name)
    new = sorted(failing - expected)
    fixed = sorted(expected - failing)
    messages = {(r.case, r.question): r.message for r in results}
    assert new == [], "new failures (a regression, or a new finding for docs/real-engines.md): " + "; ".join(
        f"{case} {question}: {messages[(case, question)]}" for case, question in new
    )
    assert fixed == [], f"no longer failing (update tests/harness/baselines/{name}.yaml): {fixed}"
    baseline = baseline_of(name)
    changed = [
        f"{r.case} {r.question}: {r.message}"
        for r in results
        if r.status is Status.FAIL and not baseline.knows(r)
    ]
    assert changed == [], "failing otherwise than the baseline says (another defect or answer): " + "; ".join(
        changed
    )


@pytest.mark.parametrize("name", NAMES)
def test_installed_engine_announces_its_pinned_release(name: str) -> None:
    require_installed(name)
    found = status(name)
    assert found.works, found.summary
    engine = builtin_engine(name, timeout=TIMEOUT)
    try:
        assert engine.info.name == name
        assert engine.info.version == BUILTIN_ENGINES[name].version
        assert engine.info.level == "rules"
        assert engine.move_count("W:W31-50:B1-20") == 9
    finally:
        engine.close()


COUNTERS_DECLARED = {"dame-rs": False, "draughts-js": False, "py-draughts": True, "pydraughts": False}
"""Which servers take the draw-rule counters of a setup position (the server docstrings say why)."""


@pytest.mark.parametrize("name", NAMES)
def test_installed_engine_answers_protocol_1_1(name: str) -> None:
    """``counters`` only where the library takes them; a refused move is ``illegal`` with its ply."""
    require_installed(name)
    engine = builtin_engine(name, timeout=TIMEOUT)
    try:
        # the Python servers speak the harness's minor version; draughts.js's server was written for 1.1
        assert engine.minor == (1 if name == "draughts-js" else PROTOCOL_MINOR)
        assert (Capability.COUNTERS in engine.info.capabilities) is COUNTERS_DECLARED[name]
        with pytest.raises(MoveRefused) as refused:
            engine.play("W:W31-50:B1-20", ["32-28", "19-23", "32-27"])  # 32 has left
        assert (refused.value.move, refused.value.ply) == ("32-27", 3)
        with pytest.raises(MoveRefused):
            engine.format_move("W:W31-50:B1-20", MoveSpec(32, 23), "pdn")
    finally:
        engine.close()


# -- what the three servers share, without the libraries --------------------------------------------


class _Listing(library.LibraryEngine):
    """A library that knows one position's two moves and refuses any move text."""

    def __init__(self) -> None:
        super().__init__("listing", "0", 1_000, counters=False)

    def _board(self, fen: str) -> list[str]:
        return []

    def _moves(self, board: object) -> list[MoveSpec]:
        return [MoveSpec(32, 28), MoveSpec(32, 27)]

    def _spec(self, move: MoveSpec) -> MoveSpec:
        return move

    def _write(self, move: MoveSpec, notation: str) -> str:
        return str(move)

    def _push(self, board: object, ply: int, text: str) -> None:
        raise MoveRefused(text, ply, "listing: no such move")


def test_a_library_server_declares_counters_only_when_it_takes_them() -> None:
    assert Capability.COUNTERS not in _Listing().info.capabilities
    assert Capability.COUNTERS in library.served_capabilities(counters=True)
    assert library.served_capabilities() == library.served_capabilities(counters=True) - {Capability.COUNTERS}


def test_a_library_server_refuses_a_move_it_does_not_list_with_its_ply() -> None:
    engine = _Listing()
    assert engine.format_move("W:W32:B1", MoveSpec(32, 28), "pdn") == "32-28"
    with pytest.raises(MoveRefused) as refused:
        engine.format_move("W:W32:B1", MoveSpec(32, 23), "pdn")
    assert (refused.value.move, refused.value.ply) == ("32-23", 1)
    with pytest.raises(MoveRefused, match="ply 1"):
        engine.play("W:W32:B1", ["32-23"])


def test_the_perft_guard_answers_the_depths_it_reached() -> None:
    counts = {1: 10, 2: 100, 3: 1_000}
    guard = library.PerftGuard(lambda fen, depth: counts[depth], max_leaves=5_000, library="listing")
    assert guard("W:W32:B1", 3) == 1_000
    with pytest.raises(PerftReached) as reached:
        guard("W:W32:B1", 4)  # about 10,000 leaves: over the budget
    assert reached.value.counts == (10, 100, 1_000)
    assert "about 10000 leaves" in str(reached.value)


# -- baselines: well formed, and about cases that exist ------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_baseline_lists_existing_questions_of_this_engine(name: str) -> None:
    data = yaml.safe_load((BASELINES / f"{name}.yaml").read_text(encoding="utf-8"))
    assert data["engine"] == name
    questions = {(case.id, key) for case in load_corpus().cases for key, _ in question_keys(case)}
    unknown = sorted(baseline_pairs(name) - questions)
    assert unknown == [], f"the baseline names questions the corpus does not have: {unknown}"


# -- the engines directory, names, a missing venv -------------------------------------------------


def test_engines_dir_is_the_variable_else_dot_engines_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENGINES_DIR_VARIABLE, raising=False)
    assert engines_dir() == tmp_path / ".engines"
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, "   ")
    assert engines_dir() == tmp_path / ".engines"
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, "elsewhere")
    assert engines_dir() == tmp_path / "elsewhere"
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path / "abs"))
    assert engines_dir() == tmp_path / "abs"
    assert venv_python("pydraughts") == tmp_path / "abs" / "pydraughts" / "bin" / "python"


def test_each_engine_runs_its_own_server_module_in_its_own_venv(tmp_path: Path) -> None:
    python_engines = [name for name in NAMES if BUILTIN_ENGINES[name].registry == "PyPI"]
    commands = {name: thirdparty.server_command(name, tmp_path) for name in python_engines}
    for name, command in commands.items():
        assert command[0] == str(tmp_path / name / "bin" / "python")
        assert command[1:] == [
            "-I",
            "-m",
            f"conformance.servers.{name.replace('-rs', '').replace('-', '_')}_jsonl",
        ]
    assert len({command[0] for command in commands.values()}) == 3


def test_draughts_js_runs_the_shipped_node_server_on_its_package_folder(tmp_path: Path) -> None:
    command = thirdparty.server_command("draughts-js", tmp_path)
    assert Path(command[0]).name == "node"
    assert command[1:] == [
        str(REPO / "conformance" / "servers" / "draughts_js.js"),
        str(tmp_path / "draughts-js"),
    ]
    assert BUILTIN_ENGINES["draughts-js"].requirement == "draughts@0.2.1"


def test_unknown_engine_name_is_refused_with_the_known_names() -> None:
    with pytest.raises(UnknownEngineError, match="dame-rs, draughts-js, py-draughts, pydraughts"):
        builtin_engine("draughts")
    with pytest.raises(UnknownEngineError):
        install("scan")


def test_missing_venv_is_a_start_error_that_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(EngineError) as raised:
        builtin_engine("py-draughts", root=tmp_path)
    assert raised.value.kind == "start"
    assert "run: draughts-conformance engines install py-draughts" in raised.value.message
    assert str(tmp_path / "py-draughts") in raised.value.message


# -- the command line, without the network ---------------------------------------------------------


def _cli(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_install_of_an_unknown_name_exits_2_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path / "engines"))
    assert _cli(["engines", "install", "dame-rs", "scan"]) == 2
    assert "unknown engine 'scan'" in capsys.readouterr().err
    assert not (tmp_path / "engines").exists()


def test_list_shows_every_engine_not_installed_in_an_empty_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path))
    assert _cli(["engines", "list"]) == 0
    out, err = capsys.readouterr()
    assert str(tmp_path) in out
    for name, engine in BUILTIN_ENGINES.items():
        line = next(line for line in out.splitlines() if line.startswith(name + " "))
        assert engine.requirement in line
        assert "not installed" in line
    assert "draughts-conformance engines install dame-rs draughts-js py-draughts pydraughts" in err


def _script(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\n{body}", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


FAKE_VENV_MAKER = """
import os, sys
# 'python -m venv [--clear] DIR': a venv whose python prints pip-like output and fails (offline)
args = [arg for arg in sys.argv[1:] if arg != "--clear"]
assert args[:2] == ["-m", "venv"], sys.argv
with open(os.path.join(os.path.dirname(sys.argv[0]), "venv-calls"), "a") as calls:
    calls.write(" ".join(sys.argv[1:]) + "\\n")
python = os.path.join(args[2], "bin", "python")
os.makedirs(os.path.dirname(python), exist_ok=True)
with open(python, "w") as out:
    out.write("#!/bin/sh\\necho 'Collecting dame-rs==0.2.0'\\necho 'ERROR: No matching distribution found'\\nexit 3\\n")
os.chmod(python, 0o755)
"""


def test_a_failed_pip_install_reports_its_exit_status_and_the_tail_of_its_output(tmp_path: Path) -> None:
    maker = tmp_path / "fake-python"
    _script(maker, FAKE_VENV_MAKER)
    said: list[str] = []
    with pytest.raises(InstallError) as raised:
        install("dame-rs", tmp_path / "engines", python=str(maker), say=said.append)
    assert "exit status 3" in raised.value.message
    assert "ERROR: No matching distribution found" in raised.value.output
    assert any("creating the virtual environment" in line for line in said)
    assert any("pip install dame-rs==0.2.0" in line for line in said)
    assert (tmp_path / "venv-calls").read_text().split() == [
        "-m",
        "venv",
        str(tmp_path / "engines" / "dame-rs"),
    ]


def test_a_venv_whose_python_is_broken_is_recreated(tmp_path: Path) -> None:
    _script(tmp_path / "engines" / "dame-rs" / "bin" / "python", "import sys\nsys.exit('interpreter gone')\n")
    found = status("dame-rs", tmp_path / "engines")
    assert not found.python_runs
    assert "its Python does not run: interpreter gone" in found.summary
    maker = tmp_path / "fake-python"
    _script(maker, FAKE_VENV_MAKER)
    said: list[str] = []
    with pytest.raises(InstallError, match="exit status 3"):  # the recreated (fake) venv's pip fails
        install("dame-rs", tmp_path / "engines", python=str(maker), say=said.append)
    assert any("recreating the virtual environment" in line for line in said)
    assert "--clear" in (tmp_path / "venv-calls").read_text().split()


def test_cli_install_failure_exits_2_with_the_output_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(ENGINES_DIR_VARIABLE, str(tmp_path))

    def failing(name: str, **_: object) -> None:
        raise InstallError(f"{name}: pip install failed: exit status 1", "ERROR: simulated")

    monkeypatch.setattr(engines_cli, "install", failing)
    assert _cli(["engines", "install", "pydraughts"]) == 1  # a failed install: FAILED, as everywhere
    err = capsys.readouterr().err
    assert "pydraughts: FAILED: pydraughts: pip install failed: exit status 1" in err
    assert "ERROR: simulated" in err
    assert "not installed: pydraughts" in err


def test_install_leaves_a_working_venv_alone(tmp_path: Path) -> None:
    """Idempotent: the probe of a working venv says so, and no pip runs (a fake venv Python that
    only answers the probe; pip through it would fail the test)."""
    project_file = str(REPO / "conformance" / "__init__.py")
    report = {
        "python": "3.11",
        "engine_version": "1.10.1",
        "engine_import": None,
        "project_version": "0.1.0",
        "project_file": project_file,
        "project_import": None,
    }
    _script(
        tmp_path / "py-draughts" / "bin" / "python",
        f"import sys\nif '-c' not in sys.argv: sys.exit('pip must not run')\nprint({json.dumps(json.dumps(report))})\n",
    )
    if thirdparty.expected_project().editable_root != REPO:
        pytest.skip("the harness under test is not this source tree")
    said: list[str] = []
    found = install("py-draughts", tmp_path, say=said.append)
    assert found.works
    assert said == [
        f"py-draughts: already installed in {tmp_path / 'py-draughts'} (py-draughts==1.10.1); nothing to do"
    ]


def test_status_names_what_is_wrong_with_a_venv(tmp_path: Path) -> None:
    report = {
        "python": "3.11",
        "engine_version": "0.6.6",
        "engine_import": "ImportError: broken",
        "project_version": None,
        "project_file": None,
        "project_import": "ModuleNotFoundError: No module named 'conformance'",
    }
    _script(tmp_path / "pydraughts" / "bin" / "python", f"print({json.dumps(json.dumps(report))})\n")
    found = status("pydraughts", tmp_path)
    assert found.exists
    assert not found.works
    assert "pydraughts 0.6.6 installed, 0.6.7 expected" in found.summary
    assert "import draughts fails: ImportError: broken" in found.summary
    assert "this project is not importable there" in found.summary


def test_the_engines_directory_is_ignored_by_git() -> None:
    ignored = (REPO / ".gitignore").read_text(encoding="utf-8").split()
    assert f"{thirdparty.DEFAULT_ENGINES_DIR}/" in ignored or f"/{thirdparty.DEFAULT_ENGINES_DIR}/" in ignored
