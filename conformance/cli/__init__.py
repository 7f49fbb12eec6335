"""The command line: every subcommand of ``draughts-conformance`` (docs/architecture.md)."""

from conformance.cli.main import main

__all__ = ["main"]
