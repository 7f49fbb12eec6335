"""Fixtures the harness tests share."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from support import REPO


@pytest.fixture
def oracle_dxp_server() -> Iterator[str]:
    """The oracle DXP follower on a free port (many connections): its ``HOST:PORT``."""
    server = subprocess.Popen(
        [sys.executable, "-m", "conformance.servers.oracle_dxp", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("listening on "), line
        yield line.split()[-1]
    finally:
        server.kill()
        server.wait()
