"""Argument types shared by the subcommands: whole numbers and seconds, with one-line errors.

Each raises :class:`argparse.ArgumentTypeError`, which argparse turns into a usage error (exit 2)
naming the option. :func:`capped_workers` keeps ``--workers`` to a sane multiple of the cores;
:func:`clashing_paths` refuses a command line whose output would overwrite one
of its inputs or another output.
"""

from __future__ import annotations

import argparse
import math
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

WORKERS_PER_CORE: Final = 4
"""The most worker processes (each with its engine) per core a run starts: more only thrash."""


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


def capped_workers(requested: int, cores: int | None = None) -> tuple[int, str | None]:
    """``--workers`` as run: at most :data:`WORKERS_PER_CORE` per core of this machine, with the
    warning that says so when ``requested`` was more (None when it was not)."""
    cores = cores or os.cpu_count() or 1
    most = WORKERS_PER_CORE * cores
    if requested <= most:
        return requested, None
    return most, (
        f"warning: --workers {requested} on {cores} core(s): running {most} "
        f"({WORKERS_PER_CORE} per core; more processes would only compete for the cores and the memory)"
    )


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file (through links too); devices such as ``/dev/null`` never clash."""
    try:
        first, second = os.stat(one), os.stat(other)
    except OSError:
        return os.path.realpath(one) == os.path.realpath(other)
    if not (stat.S_ISREG(first.st_mode) and stat.S_ISREG(second.st_mode)):
        return False
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def clashing_paths(
    inputs: Mapping[str, Path | None],
    outputs: Mapping[str, Path | None],
    *,
    may_replace: Iterable[tuple[str, str]] = (),
) -> str | None:
    """The one-line refusal of a command line whose output would overwrite one of its inputs, or
    another of its outputs (``render r.jsonl -o r.jsonl``, ``--baseline K --report K``, ``--report R
    --write-baseline R``); None when every output is a file of its own. ``may_replace`` lists
    (output, input) pairs that may name one file on purpose (``--write-baseline`` regenerating
    the ``--baseline`` it read). Options are named as the keys give them."""
    allowed = set(may_replace)
    given_outputs = [(name, path) for name, path in outputs.items() if path is not None]
    for index, (name, path) in enumerate(given_outputs):
        for input_name, input_path in inputs.items():
            if input_path is not None and (name, input_name) not in allowed and _same_file(path, input_path):
                return f"{name} {path} is also {input_name}: an output never overwrites an input (write it elsewhere)"
        for other_name, other_path in given_outputs[index + 1 :]:
            if _same_file(path, other_path):
                return f"{name} and {other_name} are both {path}: each output needs a file of its own"
    return None
