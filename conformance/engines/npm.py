"""The built-in engines from npm: a package folder under the engines directory, run with Node.js.

draughts.js (npm package ``draughts``, pinned at 0.2.1) is a JavaScript library. :func:`install`
writes a ``package.json`` pinning it into ``<engines dir>/draughts-js`` and runs ``npm install``
there (the registry through its own client, install scripts off; no code of the library is kept in
this project). The harness then runs ``node conformance/servers/draughts_js.js <folder>``
(:func:`server_command`): a JSON-lines server shipped in this package, which requires the library
from that folder. :func:`status` asks ``node`` which release the folder holds and whether it loads.

Without ``node`` and ``npm`` on ``PATH`` such an engine can be neither installed nor run:
:func:`install` raises :class:`~conformance.engines.base.ToolMissing`, which an install of every
engine reports as a skip.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path
from typing import Final

import conformance
from conformance.engines.base import (
    BuiltinEngine,
    EngineStatus,
    InstallError,
    Say,
    ToolMissing,
    probe,
    run_step,
)

MIN_NODE_MAJOR: Final = 14
"""draughts.js 0.2.1 uses ``?.`` and ``??``, which Node.js reads from version 14."""

_PROBE: Final = """
const path = require('path')
const report = { node: process.version, version: null, load: null }
try {
  report.version = require(path.join(process.argv[1], 'package.json')).version
} catch (error) {
  report.version = null
}
try {
  require(process.argv[1])
} catch (error) {
  report.load = String(error && error.message ? error.message : error).split('\\n')[0]
}
console.log(JSON.stringify(report))
"""


def node() -> str | None:
    """The ``node`` on ``PATH``, or ``None``."""
    return shutil.which("node")


def package_dir(engine: BuiltinEngine, folder: Path) -> Path:
    """Where npm puts the engine's package inside its folder."""
    return folder / "node_modules" / engine.module


def server_file(engine: BuiltinEngine) -> Path:
    """The engine's JSON-lines server, a file shipped in ``conformance/servers`` (package data: read
    as a file, not imported, so that this room does not import the servers that stand above it)."""
    return Path(conformance.__file__).parent / "servers" / engine.server


def server_command(engine: BuiltinEngine, folder: Path) -> list[str]:
    """``node <server> <folder>``: the command line that serves the engine over JSON-lines."""
    return [node() or "node", str(server_file(engine)), str(folder)]


def manifest(engine: BuiltinEngine) -> str:
    """The ``package.json`` written into the engine's folder: the pinned release and nothing else."""
    return (
        json.dumps(
            {
                "name": f"draughts-conformance-engine-{engine.name}",
                "private": True,
                "description": f"Written by draughts-conformance engines install {engine.name}",
                "dependencies": {engine.distribution: engine.version},
            },
            indent=2,
        )
        + "\n"
    )


def status(engine: BuiltinEngine, folder: Path) -> EngineStatus:
    """Whether the engine's folder holds the pinned release, ``node`` loads it, and the server
    file is in this installation."""
    package = package_dir(engine, folder)
    exists = (package / "package.json").exists()
    executable = node()
    if executable is None:
        return EngineStatus(engine, folder, exists, problems=("node is not on PATH",))
    if not exists:
        return EngineStatus(engine, folder, exists=False)
    report = probe([executable, "-e", _PROBE, str(package)])
    if isinstance(report, str):
        return EngineStatus(engine, folder, exists=True, problems=(f"node does not run: {report}",))
    problems = []
    major = re.match(r"v(\d+)\.", str(report.get("node")))
    if major is None or int(major.group(1)) < MIN_NODE_MAJOR:
        problems.append(f"node {report.get('node')} is too old (Node.js {MIN_NODE_MAJOR} or later is needed)")
    version = report.get("version")
    if version != engine.version:
        problems.append(f"{engine.distribution} {version} installed, {engine.version} expected")
    if report.get("load"):
        problems.append(f"require('{engine.module}') fails: {report['load']}")
    if not server_file(engine).exists():
        problems.append(f"its server {server_file(engine)} is missing from this installation")
    return EngineStatus(engine, folder, exists=True, engine_version=version, problems=tuple(problems))


def install(
    engine: BuiltinEngine, folder: Path, *, force: bool = False, say: Say = print, timeout: float = 900.0
) -> EngineStatus:
    """Write the engine's ``package.json`` into ``folder`` and run ``npm install`` there.
    Idempotent: a folder that already works is left alone unless ``force``.
    :class:`~conformance.engines.base.ToolMissing` without ``node`` or ``npm``;
    :class:`~conformance.engines.base.InstallError` when npm fails."""
    before = status(engine, folder)
    if before.works and not force:
        say(f"{engine.name}: already installed in {folder} ({engine.requirement}); nothing to do")
        return before
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise ToolMissing(
            f"{engine.name}: {' and '.join(missing)} not on PATH: {engine.name} is the npm package "
            f"{engine.requirement}, run with Node.js {MIN_NODE_MAJOR} or later; install Node.js and npm, "
            f"then: draughts-conformance engines install {engine.name}"
        )
    npm = shutil.which("npm") or "npm"
    started = time.monotonic()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.json").write_text(manifest(engine), encoding="utf-8")
    say(f"{engine.name}: npm install {engine.requirement} in {folder}")
    run_step(
        [npm, "install", "--no-audit", "--no-fund", "--ignore-scripts"],
        f"{engine.name}: npm install failed",
        timeout=timeout,
        cwd=folder,
    )
    after = status(engine, folder)
    if not after.works:
        raise InstallError(f"{engine.name}: installed, but it does not work: {after.summary}")
    say(f"{engine.name}: ok, {engine.requirement} in {folder} ({time.monotonic() - started:.1f} s)")
    return after
