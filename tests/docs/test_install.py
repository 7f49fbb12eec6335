"""Installing the suite as a user does (issue 24), in a new virtual environment outside the repository,
with nothing but PyPI (and pip's cache) and a clone: the commands docs/ci.md and the README give, run
as written from a ``file://`` clone URL and a tag, certify an engine; a wheel built from the clone has
the starter templates, and ``init`` + ``run`` work from it (in the same venv: one install of the
dependencies for both)."""

from __future__ import annotations

import json
import re
import subprocess
import zipfile
from pathlib import Path

from install_support import REPO, TAG, clean_env

from conformance.core.corpus import load_corpus

INSTALL_LINE = 'python -m pip install "git+$SUITE_URL@$SUITE_TAG"'


def install_block(page: Path) -> str:
    """The shell block of ``page`` that installs the suite from its git URL."""
    blocks = re.findall(
        r"^```sh\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL
    )
    (block,) = [block for block in blocks if INSTALL_LINE in block]
    return str(block)


def bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_readme_and_the_ci_page_give_the_same_install_commands() -> None:
    assert install_block(REPO / "README.md") == install_block(REPO / "docs" / "ci.md")


def test_the_documented_commands_install_from_a_clone_url_and_certify_then_init_works_from_a_wheel(
    suite_clone: Path, suite_wheel: Path, tmp_path: Path
) -> None:
    """The block as written: a venv, pip install "git+URL@TAG", run "$ENGINE" (the oracle's JSON-lines
    server, from the installed package); certified, exit 0, every question of the corpus answered.
    Then, in that venv outside the repository, the wheel ``pip wheel`` builds: it has the starter
    templates, and ``init`` + ``run`` give the certificate of an engine that answered nothing."""
    home = tmp_path / "home"
    work = home / "my-engine"
    work.mkdir(parents=True)
    (home / ".git").mkdir()  # the user's own repository, holding no settings file
    env = clean_env(
        Path("/nonexistent"),
        SUITE_URL=f"file://{suite_clone}",
        SUITE_TAG=TAG,
        ENGINE="jsonl:python -m conformance.servers.oracle_jsonl",
    )
    done = bash(install_block(REPO / "docs" / "ci.md"), work, env)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    questions = sum(len(case.questions) for case in load_corpus().cases if "slow" not in case.tags)
    assert summary.startswith("oracle 0.1.0: CERTIFIED at rules level"), summary
    assert f"{questions}/{questions} answered" in summary
    venv = work / ".venv"
    installed = list((venv / "lib").glob("python3*/site-packages/conformance/__init__.py"))
    assert len(installed) == 1, "the suite was installed into the new venv, not found elsewhere"

    with zipfile.ZipFile(suite_wheel) as archive:
        names = set(archive.namelist())
    for kind, engine in (("python", "engine.py"), ("jsonl-python", "engine.py"), ("node", "engine.js")):
        assert f"conformance/templates/{kind}/{engine}" in names
        assert f"conformance/templates/{kind}/draughts-conformance.toml" in names
    assert not any("__pycache__" in name for name in names if name.startswith("conformance/templates/"))
    env = clean_env(venv / "bin")
    reinstall = ["pip", "install", "--quiet", "--no-deps", "--force-reinstall", str(suite_wheel)]
    subprocess.run(reinstall, check=True, timeout=600, env=env, cwd=home)
    # The built-in rule sets ship in the wheel: another game's perft outside the repository.
    assert "oracle/rulesets/russian.yaml" in names
    perft = subprocess.run(
        ["python", "-m", "oracle", "perft", "--rules", "russian", "start", "3"],
        capture_output=True, text=True, timeout=60, env=env, cwd=home,
    )  # fmt: skip
    assert perft.returncode == 0, perft.stderr
    assert json.loads(perft.stdout)["nodes"] == 302  # rulesets/perft.yaml, russian depth 3
    for kind in ("jsonl-python", "python"):
        folder = home / kind
        init = subprocess.run(
            ["draughts-conformance", "init", "--kind", kind, str(folder)],
            capture_output=True, text=True, timeout=60, env=env, cwd=home,
        )  # fmt: skip
        assert init.returncode == 0, init.stderr
        run = subprocess.run(
            ["draughts-conformance", "run"], capture_output=True, text=True, timeout=300, env=env, cwd=folder
        )
        assert run.returncode == 3, run.stdout[-2000:] + run.stderr[-2000:]  # nothing certified yet
        out = run.stdout.splitlines()
        assert "Fill in legal_moves first" in " ".join(out[-3:]), out[-3:]
        assert out[-1].startswith("my-engine 0.1: NOT CERTIFIED"), out[-1]
        assert f"settings from {folder / 'draughts-conformance.toml'}" in run.stderr
