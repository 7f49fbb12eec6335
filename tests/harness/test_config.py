"""One settings file (issue 24): ``draughts-conformance.toml`` or ``[tool.draughts-conformance]`` in
``pyproject.toml`` drives ``run``, ``verify``, ``smoke`` and ``bisect``; the command line wins over it;
``draughts-conformance config`` says where each setting came from; a bad file is one line naming the
key and the file."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from support import REPO

from conformance.cli.main import main

TEMPLATE = REPO / "conformance" / "templates" / "jsonl-python" / "engine.py"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An engine's repository (it has .git: the search for settings stops there), the current folder."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def header(report: Path) -> dict[str, object]:
    head: dict[str, object] = json.loads(report.read_text(encoding="utf-8").splitlines()[0])
    return head


def footer(report: Path) -> dict[str, object]:
    foot: dict[str, object] = json.loads(report.read_text(encoding="utf-8").splitlines()[-1])
    return foot


def test_run_takes_engine_require_workers_and_baseline_from_the_file_and_flags_win(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        project / "draughts-conformance.toml",
        'engine = "mutant:kings-step-one-square"\nrequire = ["3.9"]\nworkers = 2\nbaseline = "known.yaml"\n',
    )
    write(project / "known.yaml", "known: []\n")
    report = project / "run.jsonl"
    assert main(["run", "--article", "3.9", "--report", str(report), "--format", "badge"]) == 1
    head = header(report)
    assert head["engine"]["name"] == "kings-step-one-square"  # type: ignore[index]
    assert head["filters"]["workers"] == 2  # type: ignore[index]
    assert head["filters"]["require"] == ["3.9"]  # type: ignore[index]
    assert head["filters"]["baseline"] == str(project / "known.yaml")  # type: ignore[index]
    assert f"settings from {project / 'draughts-conformance.toml'}" in capsys.readouterr().err

    # the command line wins: another engine, other required rules, one worker
    assert main(["run", "oracle", "--article", "3.9", "--require", "3.9", "--workers", "1", "--report", str(report), "--format", "badge"]) == 0  # fmt: skip
    head = header(report)
    assert head["engine"]["name"] == "oracle"  # type: ignore[index]
    assert head["filters"]["workers"] == 1  # type: ignore[index]
    # a rule required by the file, not certified by this selection: exit 3
    assert main(["run", "oracle", "--article", "4.13", "--format", "badge"]) == 3


def test_paths_are_relative_to_the_file_found_from_a_subfolder(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The nearest file up the tree; its engine-cwd and baseline are relative to its folder, so a
    relative engine command starts from anywhere below it."""
    shutil.copy(TEMPLATE, project / "engine.py")
    write(
        project / "pyproject.toml",
        "[project]\nname = 'my-engine'\n\n[tool.draughts-conformance]\n"
        f'engine = "jsonl:{sys.executable} engine.py"\nengine-cwd = "."\nstart-timeout = 20\n',
    )
    deep = project / "src" / "deeper"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert main(["smoke"]) == 0  # every question declined: notes, no problem
    out = capsys.readouterr()
    assert f"smoke test of jsonl:{sys.executable} engine.py" in out.out
    assert "my-engine 0.1" in out.out
    assert f"settings from {project / 'pyproject.toml'} [tool.draughts-conformance]" in out.err


def test_the_search_stops_at_the_repository_root(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project.parent / "draughts-conformance.toml", 'engine = "oracle"\n')  # outside the repository
    try:
        assert main(["run", "--article", "4.13"]) == 2
        assert "no engine: give ENGINE on the command line" in capsys.readouterr().err
    finally:
        (project.parent / "draughts-conformance.toml").unlink()


def test_verify_takes_its_engine_and_timeout_from_the_file(project: Path) -> None:
    write(project / "draughts-conformance.toml", 'engine = "mutant:short-kings"\ntimeout = 7\n')
    report = project / "verify.jsonl"
    main(
        [
            "verify",
            "-n",
            "2",
            "--no-z3",
            "--no-oracle",
            "--shrink",
            "0",
            "--report",
            str(report),
            "--no-progress",
        ]
    )
    head = header(report)
    assert head["engine"]["name"] == "short-kings"  # type: ignore[index]
    assert head["verify"]["engine_timeout"] == 7.0  # type: ignore[index]


def test_bisect_takes_its_engine_from_the_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project / "draughts-conformance.toml", 'engine = "mutant:captures-not-compulsory"\n')
    assert main(["bisect", "-q", "--playouts", "0"]) == 1
    out = capsys.readouterr().out
    assert "mutant:captures-not-compulsory" in out
    assert main(["bisect", "oracle", "-q", "--depth", "3", "--playouts", "0"]) == 0  # the flag wins


def test_config_prints_each_setting_and_where_it_came_from(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(
        project / "pyproject.toml",
        "[tool.other]\ntimeout = 99\n\n[tool.draughts-conformance]\n"
        'engine = "hub:scan hub"\nsearch-depth = 3\n\n[tool.draughts-conformance.hub-params]\nhash = 16\n'
        'variant = "normal"\n',
    )
    assert main(["config", "smoke", "--timeout", "2", "--hub-param", "hash=32"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[2:]}
    assert lines["engine"].split() == ["engine", "hub:scan", "hub", f"({path}:5)"]
    assert lines["search-depth"].split() == ["search-depth", "3", f"({path}:6)"]
    assert lines["timeout"].split() == ["timeout", "2.0", "(command", "line)"]
    assert lines["start-timeout"].split() == ["start-timeout", "10.0", "(default)"]
    assert lines["hub-params"].split() == ["hub-params", "hash=32", "variant=normal", f"({path}:8", "and", "command", "line)"]  # fmt: skip
    assert "require" not in lines  # smoke takes no required rules


def test_config_without_a_file_says_so_and_shows_the_defaults(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "run", "oracle"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("config file: none")
    assert any(line.split() == ["timeout", "10.0", "(default)"] for line in out)
    assert any(line.split() == ["engine", "oracle", "(command", "line)"] for line in out)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("engine = 'oracle'\ntimeuot = 3\n", "draughts-conformance.toml:2: unknown key 'timeuot'; did you mean 'timeout'?"),
        ("engine = 'oracle'\ntimeout = 'ten'\n", "draughts-conformance.toml:2: timeout = \"ten\": expected a positive number of seconds"),
        ("workers = 0\n", "draughts-conformance.toml:1: workers = 0: expected a whole number, 1 or more"),
        ("workers = true\n", "draughts-conformance.toml:1: workers = true: expected a whole number"),
        ("require = [4]\n", "draughts-conformance.toml:1: require = [4]: expected a list of strings"),
        ("shard = '3/2'\n", "draughts-conformance.toml:1: shard = \"3/2\": shard 3/2: K must be from 1 to N"),
        ("[hub-params]\nhash = [1]\n", "draughts-conformance.toml:1: hub-params = {'hash': [1]}: expected a table"),
        ("engine = \n", "draughts-conformance.toml: not valid TOML: "),
    ],
)  # fmt: skip
def test_a_bad_file_is_one_line_naming_the_key_and_the_file(
    project: Path, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "draughts-conformance.toml", text)
    for argv in (["run", "oracle"], ["smoke", "oracle"], ["bisect", "oracle"], ["verify", "--engine", "oracle"], ["config"]):  # fmt: skip
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1, err
        assert message in err, (argv, err)
        assert str(project / "draughts-conformance.toml") in err


def test_an_unknown_key_in_the_pyproject_table_names_the_table(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "pyproject.toml", "[tool.draughts-conformance]\nengine = 'oracle'\nrule-set = 'x'\n")
    assert main(["run"]) == 2
    assert (
        "pyproject.toml:3: unknown key 'rule-set' in [tool.draughts-conformance]" in capsys.readouterr().err
    )


def test_an_explicit_config_that_is_missing_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "oracle", "--config", "nowhere.toml"]) == 2
    assert "--config nowhere.toml: no such file" in capsys.readouterr().err


def test_an_explicit_config_is_read_instead_of_the_nearest(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "draughts-conformance.toml", 'engine = "no-such-engine"\n')
    other = write(project / "ci" / "conformance.toml", 'engine = "oracle"\nrequire = ["4.13"]\n')
    assert main(["run", "--config", str(other), "--article", "4.13", "--format", "badge"]) == 0
    assert f"settings from {other}" in capsys.readouterr().err


def test_the_game_comes_from_the_file_a_rules_file_beside_it_and_the_flag_wins(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rules`` (issue 21): a built-in name, or a rules file relative to the settings file."""
    write(project / "draughts-conformance.toml", 'engine = "oracle"\nrules = "pool"\n')
    report = project / "pool.jsonl"
    assert main(["run", "--report", str(report)]) == 0
    assert header(report)["rules"]["name"] == "pool"  # type: ignore[index]
    assert "CERTIFIED for pool" in capsys.readouterr().out
    assert main(["run", "--rules", "russian", "--report", str(report)]) == 0  # the flag wins
    assert header(report)["rules"]["name"] == "russian"  # type: ignore[index]
    rules = (REPO / "oracle" / "rulesets" / "american.yaml").read_text(encoding="utf-8")
    write(project / "games" / "checkers.yaml", rules.replace("name: american", "name: checkers"))
    write(project / "draughts-conformance.toml", 'engine = "oracle"\nrules = "games/checkers.yaml"\n')
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")  # the file is found upwards; its path is read from its folder
    assert main(["smoke"]) == 0
    assert "plays checkers (it declares *)" in capsys.readouterr().out
