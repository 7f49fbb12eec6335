"""``draughts-conformance init [--kind python|jsonl-python|node] DIR``: a starter engine and its settings.

    draughts-conformance init my-engine                  # a JSON-lines engine in Python (the default)
    draughts-conformance init --kind node my-engine      # the same in Node.js
    draughts-conformance init --kind python my-engine    # an in-process Python engine

Writes the engine (it declines every question until its handlers are filled in) and a
``draughts-conformance.toml`` naming it, copied from the templates shipped with the suite
(``conformance/templates/KIND``); ``draughts-conformance run`` in DIR then gives the certificate of
an engine that answered nothing, and says which operation to fill in first. Existing files are
never overwritten (``--force`` does).
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from conformance.cli.commands import subcommand
from conformance.core.certificate import ExitStatus
from conformance.core.errors import UsageError

KINDS = {
    "jsonl-python": "a JSON-lines engine in Python, standard library only",
    "python": "an in-process Python engine (a class with a method per operation)",
    "node": "a JSON-lines engine in Node.js 18 or later, no npm packages",
}
DEFAULT_KIND = "jsonl-python"
OK, USAGE = ExitStatus.OK, ExitStatus.USAGE


class InitError(UsageError):
    """DIR cannot be written, or would lose a file."""


@subcommand(
    "init",
    order=110,
    help="write a starter engine and its settings file into DIR",
    description="Write a starter engine that declines every question, and a draughts-conformance.toml "
    "naming it, into DIR. Kinds: " + "; ".join(f"{kind}: {what}" for kind, what in KINDS.items()) + ".",
)
def register(parser: argparse.ArgumentParser) -> None:
    """Add ``init`` to the ``draughts-conformance`` subcommands."""
    parser.add_argument("dir", type=Path, metavar="DIR", help="the folder to write into (made if missing)")
    parser.add_argument(
        "--kind",
        choices=tuple(KINDS),
        default=DEFAULT_KIND,
        help=f"the kind of engine (default {DEFAULT_KIND})",
    )
    parser.add_argument("--force", action="store_true", help="overwrite files that are already there")
    parser.set_defaults(handler=run_init)


def template(kind: str) -> Traversable:
    """The folder of ``kind``'s template files, inside the installed package."""
    return resources.files("conformance") / "templates" / kind


def write_starter(kind: str, folder: Path, *, force: bool = False) -> list[Path]:
    """Copy ``kind``'s template into ``folder``; the files written. :class:`InitError` when a file
    is there already (unless ``force``) or the folder cannot be written."""
    sources = sorted(
        (item for item in template(kind).iterdir() if item.is_file()), key=lambda item: item.name
    )
    targets = [folder / source.name for source in sources]
    there = [target for target in targets if target.exists()]
    if there and not force:
        raise InitError(f"{', '.join(map(str, there))}: already there (--force overwrites)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source, target in zip(sources, targets, strict=True):
            target.write_bytes(source.read_bytes())
    except OSError as error:
        raise InitError(f"cannot write into {folder}: {error}") from None
    return targets


def run_init(args: argparse.Namespace) -> int:
    try:
        written = write_starter(args.kind, args.dir, force=args.force)
    except InitError as error:
        print(f"draughts-conformance init: {error}", file=sys.stderr)
        return USAGE
    engine = next(path for path in written if path.name.startswith("engine"))
    print(f"wrote {', '.join(str(path) for path in written)} ({KINDS[args.kind]})")
    print("next:")
    print(f"  cd {args.dir}")
    print("  draughts-conformance smoke   # a few seconds: does it start and answer?")
    print("  draughts-conformance run     # not certified yet: every question is declined (exit 3);")
    print(f"                               # it says which operation to fill in first, in {engine.name}")
    return OK
