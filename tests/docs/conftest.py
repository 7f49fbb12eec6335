"""Fixtures of the install tests: a clone of this repository reached by a file:// URL, with a release tag,
and fresh virtual environments outside the repository (the suite installed only from PyPI and the clone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TAG = "v0.1.0"


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=120)
    return done.stdout


@pytest.fixture(scope="session")
def suite_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this repository's committed HEAD (what a user would clone), tagged ``v0.1.0``."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    clone = tmp_path_factory.mktemp("suite") / "draughts-conformance"
    git("clone", "--quiet", "--no-hardlinks", REPO.as_uri(), str(clone), cwd=REPO)
    git("-c", "user.name=test", "-c", "user.email=test@localhost", "tag", TAG, cwd=clone)
    return clone


def fresh_venv(folder: Path) -> Path:
    """A new virtual environment in ``folder``, nothing installed: its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=300)
    return folder / "bin"


def clean_env(bin_folder: Path, **extra: str) -> dict[str, str]:
    """The environment of a user's shell with ``bin_folder`` first on PATH: no PYTHONPATH, no venv of
    this test run, so only what was installed there is found."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if Path(sys.executable).parent != Path(p)]
    env["PATH"] = os.pathsep.join([str(bin_folder), *path])
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def suite_wheel(suite_clone: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip wheel`` builds from the clone (PyPI for the build backend)."""
    wheels = tmp_path_factory.mktemp("wheels")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(suite_clone)],
        check=True,
        timeout=600,
    )
    (wheel,) = wheels.glob("draughts_conformance-*.whl")
    return wheel
