"""One place for an engine's settings: ``draughts-conformance.toml``, or ``[tool.draughts-conformance]``
in the engine's ``pyproject.toml``, under the command line.

    # draughts-conformance.toml (or the same keys under [tool.draughts-conformance] in pyproject.toml)
    engine = "jsonl:python3 engine.py"
    engine-cwd = "."                # relative paths are relative to this file's folder
    require = ["4", "6"]
    baseline = "known-failures.yaml"
    timeout = 10
    workers = 2

The file is looked for from the current folder upward, stopping after the folder that holds
``.git`` (the repository's root): in each folder ``draughts-conformance.toml`` first, then a
``pyproject.toml`` that has the table. ``--config FILE`` names it instead. Each subcommand that
starts an engine (``run``, ``verify``, ``smoke``, ``bisect``) declares which keys it takes with
:func:`bind` and reads them with :func:`resolve`: a flag given on the command line wins, then the
file, then the command's own default. ``draughts-conformance config`` prints the resolved settings
and where each came from. An unknown key or a value of the wrong type is a :class:`ConfigError`,
one line naming the key and the file.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import math
import re
import sys
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance.core.errors import UsageError
from conformance.core.shards import Shard

CONFIG_FILE = "draughts-conformance.toml"
PYPROJECT = "pyproject.toml"
TABLE = ("tool", "draughts-conformance")
COMMAND_LINE = "command line"
DEFAULT = "default"


class ConfigError(UsageError, ValueError):
    """A settings file that cannot be read, an unknown key, or a value of the wrong type."""


Reader = Callable[[object, Path], object]
"""Turns a TOML value into what the command line would have given (the file's folder for paths);
ValueError naming what was expected."""


def _text(value: object, folder: Path) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a non-empty string")
    return value


def _rules(value: object, folder: Path) -> str:
    """A built-in rule set's name, or a rules file (relative to the settings file's folder)."""
    name = _text(value, folder)
    return name if re.fullmatch(r"[a-z][a-z0-9-]*", name) else str(folder / name)  # as load_rules reads it


def _texts(value: object, folder: Path) -> list[str]:
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not value or not all(isinstance(item, str) and item for item in value):
        raise ValueError('expected a list of strings, e.g. ["4", "6.2"], or "all"')
    return list(value)


def _path(value: object, folder: Path) -> Path:
    return folder / _text(value, folder)


def _seconds(value: object, folder: Path) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (math.isfinite(value) and value > 0)
    ):
        raise ValueError("expected a positive number of seconds")
    return float(value)


def _positive(value: object, folder: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("expected a whole number, 1 or more")
    return value


def _flag(value: object, folder: Path) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _shard(value: object, folder: Path) -> Shard:
    return Shard.parse(_text(value, folder))


def _hub_params(value: object, folder: Path) -> list[str]:
    if not isinstance(value, dict) or not all(
        isinstance(item, str | int | float) and not isinstance(item, bool) for item in value.values()
    ):
        raise ValueError('expected a table of names and values, e.g. { hash = 16, variant = "normal" }')
    return [f"{name}={item}" for name, item in value.items()]


@dataclasses.dataclass(frozen=True)
class Key:
    """One setting: its name in the file, the command line's option (destination and flag)."""

    name: str
    dest: str
    flag: str
    read: Reader


KEYS: dict[str, Key] = {
    key.name: key
    for key in (
        Key("engine", "engine", "ENGINE", _text),
        Key("engine-cwd", "engine_cwd", "--engine-cwd", _path),
        Key("rules", "rules", "--rules", _rules),
        Key("hub-params", "hub_param", "--hub-param", _hub_params),
        Key("search-depth", "search_depth", "--search-depth", _positive),
        Key("move-time", "move_time", "--move-time", _seconds),
        Key("require", "require", "--require", _texts),
        Key("baseline", "baseline", "--baseline", _path),
        Key("accept-known", "accept_known", "--accept-known", _flag),
        Key("timeout", "timeout", "--timeout", _seconds),
        Key("start-timeout", "start_timeout", "--start-timeout", _seconds),
        Key("workers", "workers", "--workers", _positive),
        Key("shard", "shard", "--shard", _shard),
    )
}
"""Every key a settings file may hold."""

ENGINE_KEYS = (
    "engine",
    "engine-cwd",
    "rules",
    "hub-params",
    "search-depth",
    "move-time",
    "timeout",
    "start-timeout",
)
"""The keys of every command that starts an engine."""

VERDICT_KEYS = ("require", "baseline", "accept-known")
"""The keys of the commands that give a verdict (``run`` and ``verify``)."""


@dataclasses.dataclass(frozen=True)
class ConfigFile:
    """A settings file that was found and read: its values (as the command line gives them) and
    the line of each key."""

    path: Path
    table: str | None
    """``[tool.draughts-conformance]`` in a pyproject.toml; None for draughts-conformance.toml."""
    values: Mapping[str, object]
    lines: Mapping[str, int]

    def where(self, key: str) -> str:
        line = self.lines.get(key)
        return f"{self.path}:{line}" if line else str(self.path)

    def describe(self) -> str:
        return f"{self.path}" + (f" [{self.table}]" if self.table else "")


def find(start: Path) -> Path | None:
    """The settings file for ``start``: the nearest ``draughts-conformance.toml``, or
    ``pyproject.toml`` with the table, from ``start`` up to the repository's root (or ``/``)."""
    for folder in (start, *start.parents):
        own = folder / CONFIG_FILE
        if own.is_file():
            return own
        pyproject = folder / PYPROJECT
        if pyproject.is_file() and _has_table(pyproject):
            return pyproject
        if (folder / ".git").exists():
            return None
    return None


def _has_table(path: Path) -> bool:
    """Whether ``path`` sets ``[tool.draughts-conformance]`` (one that cannot be parsed but names the
    table counts: :func:`load` then says what is wrong with it)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    try:
        tool = tomllib.loads(text).get(TABLE[0])
    except tomllib.TOMLDecodeError:
        return "tool.draughts-conformance" in text
    return isinstance(tool, dict) and TABLE[1] in tool


def load(path: Path) -> ConfigFile:
    """Read and check ``path`` (a draughts-conformance.toml, or a pyproject.toml's table)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the settings: {error}") from None
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    table = None
    if path.name == PYPROJECT:
        table = ".".join(TABLE)
        data = data.get(TABLE[0], {}).get(TABLE[1], {})
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: [{table}] must be a table of settings")
    lines = _key_lines(text, table)
    folder = path.parent.resolve()
    values: dict[str, object] = {}
    for name, value in data.items():
        where = f"{path}:{lines[name]}" if name in lines else str(path)
        key = KEYS.get(name)
        if key is None:
            close = difflib.get_close_matches(name, KEYS, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise ConfigError(
                f"{where}: unknown key {name!r}"
                + (f" in [{table}]" if table else "")
                + f"; {hint}known: {', '.join(KEYS)}"
            )
        try:
            values[name] = key.read(value, folder)
        except ValueError as error:
            raise ConfigError(f"{where}: {name} = {_toml(value)}: {error}") from None
    return ConfigFile(path, table, values, lines)


def _toml(value: object) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value)


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")
_ASSIGNMENT = re.compile(r"""^\s*(["']?)([A-Za-z0-9_.-]+)\1\s*=""")


def _key_lines(text: str, table: str | None) -> dict[str, int]:
    """The line (from 1) where each top-level key of ``table`` (None: the file's top level) is set,
    or where its sub-table starts."""
    section: str | None = None
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            section = header[1].replace('"', "")
            if table is not None and section.startswith(table + "."):
                lines.setdefault(section[len(table) + 1 :].split(".")[0], number)
            elif table is None and section:
                lines.setdefault(section.split(".")[0], number)
            continue
        assignment = _ASSIGNMENT.match(line)
        if assignment and section == table:
            lines.setdefault(assignment[2].split(".")[0], number)
    return lines


# -- the command line -------------------------------------------------------------------------------


def bind(parser: argparse.ArgumentParser, keys: Sequence[str]) -> None:
    """Let ``keys`` of a settings file set ``parser``'s options (already added), and add ``--config``.

    Each option's default becomes None, so that :func:`resolve` can tell a flag given on the
    command line from one left out; the command's own defaults are kept to fill in the rest."""
    by_dest = {action.dest: action for action in parser._actions}
    defaults: dict[str, object] = {}
    for name in keys:
        action = by_dest[KEYS[name].dest]
        defaults[name] = action.default
        action.default = None
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help=f"settings file (default: the nearest {CONFIG_FILE}, or pyproject.toml with "
        "[tool.draughts-conformance]; draughts-conformance config shows what it sets)",
    )
    parser.set_defaults(config_defaults=defaults)


@dataclasses.dataclass(frozen=True)
class Setting:
    key: str
    value: object
    source: str
    """``command line``, ``default``, or the file and line."""


@dataclasses.dataclass(frozen=True)
class Resolution:
    """The settings a command runs with, and the file they were read from (if any)."""

    file: ConfigFile | None
    settings: tuple[Setting, ...]
    unused: tuple[str, ...] = ()
    """Keys the file sets that this command does not take."""


def resolve(args: argparse.Namespace, start: Path | None = None) -> Resolution:
    """Fill in ``args`` (bound with :func:`bind`) from the command line, the settings file and the
    command's defaults, in that order; what each setting is and where it came from."""
    defaults: dict[str, object] = getattr(args, "config_defaults", {})
    path = getattr(args, "config", None)
    if path is not None:
        if not path.is_file():
            raise ConfigError(f"--config {path}: no such file")
    else:
        path = find((start or Path.cwd()).resolve())
    file = load(path) if path is not None else None
    settings = []
    for name, default in defaults.items():
        key = KEYS[name]
        given = getattr(args, key.dest, None)
        value: object
        if name == "hub-params" and file is not None and name in file.values:
            value, source = _merged_params(file, given)
        elif given is not None:
            value, source = given, COMMAND_LINE
        elif file is not None and name in file.values:
            value, source = file.values[name], file.where(name)
        else:
            value, source = default, DEFAULT
        setattr(args, key.dest, value)
        settings.append(Setting(name, value, source))
    unused = tuple(name for name in (file.values if file else ()) if name not in defaults)
    return Resolution(file, tuple(settings), unused)


def _merged_params(file: ConfigFile, given: list[str] | None) -> tuple[list[str], str]:
    """The file's Hub parameters, each one given on the command line replacing the file's of that name."""
    from_file: list[str] = file.values["hub-params"]  # type: ignore[assignment]  # as _hub_params reads it
    params = {item.partition("=")[0]: item for item in from_file}
    for item in given or ():
        params[item.partition("=")[0]] = item
    source = file.where("hub-params") + (f" and {COMMAND_LINE}" if given else "")
    return list(params.values()), source


def settle(args: argparse.Namespace, *, engine_flag: str = "ENGINE") -> Resolution:
    """What every command that starts an engine does first: :func:`resolve` its settings, say on
    standard error which file they came from, and check that an engine is named (``engine_flag``
    is how the command line names it)."""
    resolution = resolve(args)
    if resolution.file is not None:
        print(f"draughts-conformance: settings from {resolution.file.describe()}", file=sys.stderr)
    if not getattr(args, "engine", None):
        where = (
            resolution.file.describe()
            if resolution.file is not None
            else f"{CONFIG_FILE} (or [tool.draughts-conformance] of pyproject.toml)"
        )
        raise ConfigError(
            f'no engine: give {engine_flag} on the command line, or set engine = "..." in {where}'
        )
    return resolution


def show(value: object) -> str:
    """A setting's value as :func:`describe` prints it."""
    if value is None:
        return "-"
    if isinstance(value, list | tuple):
        return " ".join(show(item) for item in value) or "-"
    return str(value)


def describe(resolution: Resolution, command: str) -> Iterable[str]:
    """The lines of ``draughts-conformance config``: the file, then each setting and its source."""
    file = resolution.file
    yield f"config file: {file.describe() if file else f'none ({CONFIG_FILE} or pyproject.toml not found)'}"
    yield f"settings of {command} (command line, then the file, then the default):"
    width = max(len(setting.key) for setting in resolution.settings)
    values = [show(setting.value) for setting in resolution.settings]
    value_width = min(40, max(len(value) for value in values))
    for setting, value in zip(resolution.settings, values, strict=True):
        yield f"  {setting.key:{width}}  {value:{value_width}}  ({setting.source})"
    if resolution.unused:
        yield f"  (not used by {command}: {', '.join(resolution.unused)})"
