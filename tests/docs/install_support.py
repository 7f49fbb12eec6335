"""What the install tests share (a module of its own: ``conftest`` is not importable by name when
several test folders have one): the repository, the release tag, fresh venvs and a user's environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TAG = "v0.1.0"


def git(*args: str, cwd: Path) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, timeout=120)
    return done.stdout


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
