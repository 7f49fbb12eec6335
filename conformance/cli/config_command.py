"""``draughts-conformance config [COMMAND [ARGUMENTS...]]``: the settings a command would run with.

    draughts-conformance config                      # what `run` would use, from the settings file
    draughts-conformance config smoke --timeout 2    # what `smoke --timeout 2` would use

Prints the settings file found (or none), then every setting of the command with its value and
where it came from: the command line, the file and line, or the command's default
(:mod:`conformance.cli.config`), as pytest prints the ini file it read.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from conformance.cli import config
from conformance.cli.commands import build_parser, subcommand, subcommands
from conformance.core.certificate import ExitStatus


@subcommand(
    "config",
    order=140,
    help="print the settings a command would run with, and where each came from",
    description="Print the settings file found (the nearest draughts-conformance.toml, or pyproject.toml "
    "with [tool.draughts-conformance]), then each setting of COMMAND (default run) with its value and "
    "where it came from: the command line (the ARGUMENTS given after COMMAND), the file, or the default.",
)
def register(parser: argparse.ArgumentParser) -> None:
    """``config``: COMMAND is any subcommand that starts an engine (its settings come from the file)."""
    commands = [command.name for command in subcommands() if command.starts_engine]
    parser.add_argument("command", nargs="?", choices=commands, default="run", help="default run")
    parser.add_argument(
        "arguments", nargs=argparse.REMAINDER, help="the command's arguments, as you would give them to it"
    )
    parser.add_argument("--config", type=Path, metavar="FILE", help="this settings file instead")

    def handler(args: argparse.Namespace) -> int:
        return show_config(args, build_parser)

    parser.set_defaults(handler=handler)


def show_config(args: argparse.Namespace, build_parser: Callable[[], argparse.ArgumentParser]) -> int:
    inner = build_parser().parse_args([args.command, *args.arguments])
    if args.config is not None and inner.config is None:
        inner.config = args.config
    for line in config.describe(config.resolve(inner), args.command):
        print(line)
    return ExitStatus.OK
