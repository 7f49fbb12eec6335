"""Fixtures of the install tests: a clone of this repository reached by a file:// URL, with a release tag,
and fresh virtual environments outside the repository (the suite installed only from PyPI and the clone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from install_support import REPO, TAG, git


@pytest.fixture(scope="session")
def suite_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this repository's committed HEAD (what a user would clone), tagged ``v0.1.0``."""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout: nothing to clone")
    clone = tmp_path_factory.mktemp("suite") / "draughts-conformance"
    git("clone", "--quiet", "--no-hardlinks", REPO.as_uri(), str(clone), cwd=REPO)
    git("-c", "user.name=test", "-c", "user.email=test@localhost", "tag", TAG, cwd=clone)
    return clone


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
