"""The subcommands of ``draughts-conformance``, each declared once (after Bowtie's ``@subcommand``).

A subcommand is a function that adds its arguments to the parser made for it and sets its
``handler`` (a function from the parsed arguments to the exit status)::

    @subcommand("toy", order=200, help="one line for the list of commands")
    def register(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--size", type=int)
        parser.set_defaults(handler=run_toy)

A module of ``conformance/cli/`` is found by itself (:func:`subcommands` imports them all the first
time it is asked), so a new subcommand is one new file there. ``starts_engine`` marks the commands
that start an engine (their settings come from the settings file too: ``config``).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import Final, NoReturn

from conformance import __version__
from conformance.core.certificate import ExitStatus
from conformance.core.discovery import import_modules_of
from conformance.core.errors import (
    CaseError,
    ConformanceError,
    EngineFailure,
    EngineRefusal,
    IncompleteError,
    ReportError,
    UsageError,
    WrongAnswer,
)

AddArguments = Callable[[argparse.ArgumentParser], None]


@dataclasses.dataclass(frozen=True)
class Subcommand:
    name: str
    order: int
    help: str
    description: str | None
    add_arguments: AddArguments
    starts_engine: bool = False


_COMMANDS: dict[str, Subcommand] = {}


def subcommand(
    name: str, *, order: int, help: str, description: str | None = None, starts_engine: bool = False
) -> Callable[[AddArguments], AddArguments]:
    """Register the decorated function as the subcommand ``name`` (ValueError if taken)."""

    def register(add_arguments: AddArguments) -> AddArguments:
        known = _COMMANDS.get(name)
        if known is not None and known.add_arguments.__qualname__ != add_arguments.__qualname__:
            raise ValueError(f"two subcommands named {name!r}")
        _COMMANDS[name] = Subcommand(name, order, help, description, add_arguments, starts_engine)
        return add_arguments

    return register


def unregister(name: str) -> None:
    """Forget a subcommand (a test's own, once it is done)."""
    _COMMANDS.pop(name, None)


def subcommands() -> tuple[Subcommand, ...]:
    """Every subcommand, in the order ``--help`` lists them."""
    import_modules_of("conformance.cli")
    return tuple(sorted(_COMMANDS.values(), key=lambda command: (command.order, command.name)))


EXIT_STATUSES: Final[tuple[tuple[type[ConformanceError], ExitStatus], ...]] = (
    (UsageError, ExitStatus.USAGE),
    (CaseError, ExitStatus.USAGE),
    (ReportError, ExitStatus.USAGE),
    (EngineFailure, ExitStatus.FAILED),
    (EngineRefusal, ExitStatus.FAILED),
    (WrongAnswer, ExitStatus.FAILED),
    (IncompleteError, ExitStatus.FAILED),
)
"""The exit status of a command that an error of each base (:mod:`conformance.core.errors`) ends:
2 for what the user gave (arguments, an engine spec, a case file, a report), 1 for what the command
met on its way (an engine that failed, a search that could not finish)."""


def exit_status_of(error: ConformanceError) -> ExitStatus:
    """The exit status of a command that ``error`` ended: its base's in :data:`EXIT_STATUSES`."""
    for base, status in EXIT_STATUSES:
        if isinstance(error, base):
            return status
    return ExitStatus.FAILED


class Parser(argparse.ArgumentParser):
    """A usage error exits with :attr:`ExitStatus.USAGE`, in one line."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitStatus.USAGE, f"{self.prog}: error: {message}\n")


def build_parser(description: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: every registered subcommand."""
    parser = Parser(prog="draughts-conformance", description=description)
    parser.add_argument("--version", action="version", version=f"draughts-conformance {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in subcommands():
        command.add_arguments(
            commands.add_parser(command.name, help=command.help, description=command.description)
        )
    return parser
