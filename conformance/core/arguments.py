"""Argument types shared by the subcommands: whole numbers and seconds, with one-line errors.

Each raises :class:`argparse.ArgumentTypeError`, which argparse turns into a usage error (exit 2)
naming the option.
"""

from __future__ import annotations

import argparse
import math


def count(text: str) -> int:
    """A whole number, 0 or more (``--examples``, ``--playouts``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative: expected 0 or more")
    return value


def positive(text: str) -> int:
    """A whole number, 1 or more (``--depth``, ``--workers``)."""
    value = count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0: must be at least 1")
    return value


def seconds(text: str) -> float:
    """A finite number of seconds, more than 0 (``--timeout``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, not {text!r}")
    return value


def described(doc: str | None) -> str:
    """The first paragraph of a module's docstring as a command's ``--help`` description: plain
    text, without the reStructuredText literal quotes of the docstring."""
    return (doc or "").split("\n\n")[0].replace("``", "")
