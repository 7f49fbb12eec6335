"""``draughts-conformance engines list|install [NAME...]``: the real engines' folders.

    draughts-conformance engines install                 # dame-rs, draughts-js, py-draughts, pydraughts
    draughts-conformance engines install pydraughts
    draughts-conformance engines list
    draughts-conformance run py-draughts                 # then certify one

Each engine gets a folder of its own under ``$DRAUGHTS_ENGINES_DIR`` (default ``./.engines``). A
PyPI engine's is a venv with the pinned engine release and this project (see
:mod:`conformance.engines.thirdparty`): editable from the source tree the harness runs from, or a
wheel rebuilt from the installed distribution (:mod:`conformance.engines.selfinstall`), never from
the package index. draughts.js's is an npm package folder (:mod:`conformance.engines.npm`), which
needs ``node`` and ``npm``: without them, an install of every engine says so and skips it.
``install`` is idempotent: an engine whose folder already works is left alone (``--force`` runs
pip or npm again).

``register(subparsers)`` adds the command to ``draughts-conformance`` (see ``conformance.cli.main``).
Exit status: 0 when everything asked for is installed, or skipped for want of node/npm when no
name was given (``list``: always 0); 2 for an unknown engine name or a failed install (pip's or
npm's last lines are shown), or an engine named but skipped for want of node/npm.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
import threading
from typing import Final

from conformance.cli.commands import subcommand
from conformance.core.certificate import ExitStatus
from conformance.engines.base import InstallError, ToolMissing
from conformance.engines.selfinstall import SelfInstallError
from conformance.engines.thirdparty import (
    BUILTIN_ENGINES,
    DEFAULT_ENGINES_DIR,
    ENGINES_DIR_VARIABLE,
    UnknownEngineError,
    engines_dir,
    expected_project,
    install,
    lookup,
    status,
)

OK: Final = ExitStatus.OK
FAILED: Final = ExitStatus.FAILED
USAGE: Final = ExitStatus.USAGE


@subcommand(
    "engines",
    order=80,
    help="install or list the real engines from the package registries (one folder each)",
    description=f"The real engines certified by the built-in adapters ({', '.join(BUILTIN_ENGINES)}) "
    "run in folders of their own, under $DRAUGHTS_ENGINES_DIR "
    f"(default ./{DEFAULT_ENGINES_DIR}): a virtual environment for a PyPI engine, an npm package "
    "folder run with Node.js for draughts-js.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``engines`` (with ``list`` and ``install``) to the ``draughts-conformance`` subcommands."""
    commands = parser.add_subparsers(dest="engines_command", required=True, parser_class=type(parser))
    lister = commands.add_parser("list", help="each engine, whether its folder exists and works, its version")
    lister.set_defaults(handler=list_engines)
    installer = commands.add_parser(
        "install",
        help="create the folders and install the pinned engines into them with pip or npm (idempotent)",
        description="Create <engines dir>/NAME: for a PyPI engine with python -m venv, then pip install "
        "into it the pinned engine release and this project; for draughts-js a package.json pinning "
        "draughts.js, then npm install (skipped, and said, when node or npm is missing and no NAME is "
        "given). An engine whose folder already works is left alone.",
    )
    installer.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"engines to install (default: all of {', '.join(BUILTIN_ENGINES)})",
    )
    installer.add_argument(
        "--force", action="store_true", help="run pip or npm again even if the folder already works"
    )
    installer.set_defaults(handler=install_engines)


def _where() -> str:
    source = f"${ENGINES_DIR_VARIABLE}" if _configured() else f"default ./{DEFAULT_ENGINES_DIR}"
    return f"engines directory: {engines_dir()} ({source})"


def _configured() -> bool:
    return bool(os.environ.get(ENGINES_DIR_VARIABLE, "").strip())


def list_engines(args: argparse.Namespace) -> int:
    """Print one line per built-in engine: name, pinned release, state, installed version, folder."""
    print(_where())
    rows = []
    for name in BUILTIN_ENGINES:
        found = status(name)
        rows.append(
            (name, found.engine.requirement, found.summary, found.engine_version or "-", str(found.directory))
        )
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    for name, requirement, summary, version, venv in rows:
        print(
            f"{name:{widths[0]}}  {requirement:{widths[1]}}  {summary:{widths[2]}}  "
            f"installed: {version:8}  {venv}"
        )
    missing = [row[0] for row in rows if row[2] != "ok"]
    if missing:
        print(f"to install: draughts-conformance engines install {' '.join(missing)}", file=sys.stderr)
    return OK


def install_engines(args: argparse.Namespace) -> int:
    """Install the named engines (all by default); exit status 2 for a name that is no engine, 1 if
    an install fails."""
    names = list(dict.fromkeys(args.names)) or list(BUILTIN_ENGINES)
    try:
        for name in names:
            lookup(name)
    except UnknownEngineError as error:
        print(f"draughts-conformance engines install: {error}", file=sys.stderr)
        return USAGE

    lock = threading.Lock()

    def say(text: str) -> None:
        with lock:  # whole lines, whichever install says them
            print(text, file=sys.stderr, flush=True)

    say(_where())
    if any(lookup(name).registry == "PyPI" for name in names):
        try:
            say(f"this project goes in as {expected_project().description}")
        except SelfInstallError as error:
            say(f"draughts-conformance engines install: {error}")
            return FAILED
    skipped: list[str] = []

    def one(name: str) -> str | None:
        """Install ``name``; its failure, said, or None (a missing tool skips it unless it was named)."""
        try:
            install(name, force=args.force, say=say)
        except ToolMissing as error:
            say(f"{name}: {'FAILED' if args.names else 'SKIPPED'}: {error.message}")
            if args.names:
                return name
            with lock:
                skipped.append(name)
            return None
        except InstallError as error:
            output = f"\n--- last lines of {name}'s output ---\n{error.output}\n---" if error.output else ""
            say(f"{name}: FAILED: {error.message}{output}")
            return name
        return None

    # In parallel: most of an install is waiting for pip or npm (downloads, unpacking), and each engine
    # has a folder of its own. Each line said names its engine.
    say(f"installing {', '.join(names)}" + (" in parallel" if len(names) > 1 else ""))
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(names)) as pool:
        failed = [name for name in pool.map(one, names) if name is not None]
    if skipped:
        say(f"skipped (node or npm missing): {', '.join(skipped)}")
    if failed:
        say(f"not installed: {', '.join(failed)}")
        return FAILED
    ready = [name for name in names if name not in skipped]
    if ready:
        say(f"ready: {', '.join(ready)} (certify one with: draughts-conformance run {ready[0]})")
    return OK
