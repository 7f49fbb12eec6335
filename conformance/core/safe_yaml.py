"""Loading untrusted YAML (case files, baselines) with limits, and errors that name file and line.

Case files and baselines come from anyone: a corpus under review, a baseline in a pull request.
:func:`load_yaml` reads one file under these rules, each broken one a :class:`YamlError` naming
the file (and the line, where there is one):

* the file is a regular file (not a FIFO, a device, a directory), read at most ``max_bytes``;
  inside ``root`` when one is given (a symbolic link out of the corpus is refused, unread);
* safe YAML only (no Python tags); no anchors and aliases (they make a few hundred bytes expand
  into gigabytes: the "billion laughs"); nesting at most ``max_depth`` deep; at most ``max_nodes``;
* a mapping key once only (a second ``known:`` would silently replace the first); keys hashable;
* dates stay text (``2020-13-45`` is not a date error); integers at most ``max_int_digits`` long.

Parsing uses libyaml when PyYAML has it (several times faster), the pure-Python parser otherwise;
the document is composed once and the limits are checked on the node tree before anything is built.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Hashable
from pathlib import Path
from typing import Any, Final

import yaml

from conformance.core.errors import CaseError

try:  # libyaml's parser, with PyYAML's safe constructor
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


class YamlError(CaseError, ValueError):
    """A YAML file that cannot be read, breaks a limit, or is not valid YAML; the message says where."""


@dataclasses.dataclass(frozen=True)
class YamlLimits:
    max_bytes: int = 4_000_000
    max_depth: int = 64
    max_nodes: int = 500_000
    max_int_digits: int = 100


DEFAULT_LIMITS: Final = YamlLimits()


class _Loader(_BaseLoader):
    """Safe loading; no timestamps; a key once per mapping; bounded integers."""

    max_int_digits = DEFAULT_LIMITS.max_int_digits


# Dates and times stay text: case files have no dates, and a malformed one must not crash loading.
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> Any:
    keys: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, Hashable) or isinstance(key, list | dict):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a plain value, not a list or mapping", key_node.start_mark
            )
        if key in keys:
            raise yaml.constructor.ConstructorError(
                None, None, f"the key {key!r} appears twice in one mapping", key_node.start_mark
            )
        keys.add(key)
    return loader.construct_mapping(node, deep=deep)


def _construct_int(loader: _Loader, node: yaml.ScalarNode) -> int:
    digits = sum(1 for char in str(node.value) if char.isdigit())
    if digits > loader.max_int_digits:
        raise yaml.constructor.ConstructorError(
            None, None, f"an integer of {digits} digits (at most {loader.max_int_digits})", node.start_mark
        )
    return int(yaml.constructor.SafeConstructor.construct_yaml_int(loader, node))


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)


def read_text(path: Path, label: str, *, root: Path | None = None, max_bytes: int) -> str:
    """The text of a regular file, at most ``max_bytes``, inside ``root`` if given; YamlError if not."""
    try:
        resolved = path.resolve(strict=True)
    except (OSError, RuntimeError) as error:
        raise YamlError(f"{label}: cannot read the file: {error}") from None
    if root is not None and not resolved.is_relative_to(root.resolve()):
        raise YamlError(f"{label}: is a link to a file outside the corpus ({resolved}); it is not read")
    try:
        info = os.stat(resolved)
    except OSError as error:
        raise YamlError(f"{label}: cannot read the file: {error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise YamlError(f"{label}: not a regular file (a FIFO, device or folder is not read)")
    if info.st_size > max_bytes:
        raise YamlError(f"{label}: {info.st_size} bytes, more than the {max_bytes} allowed")
    try:
        with open(resolved, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise YamlError(f"{label}: cannot read the file: {error}") from None
    if len(data) > max_bytes:
        raise YamlError(f"{label}: more than the {max_bytes} bytes allowed")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise YamlError(f"{label}: not UTF-8 text ({error})") from None


def _where(label: str, mark: Any) -> str:
    return f"{label}:{mark.line + 1}" if mark is not None else label


def _check_tree(root: yaml.Node, label: str, limits: YamlLimits) -> None:
    """Depth, size and no shared nodes (an alias composes to a node met twice), without recursion."""
    seen: set[int] = set()
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise YamlError(f"{_where(label, node.start_mark)}: YAML anchors and aliases are not allowed")
        seen.add(id(node))
        if len(seen) > limits.max_nodes:
            raise YamlError(f"{label}: more than {limits.max_nodes} YAML nodes")
        if depth > limits.max_depth:
            raise YamlError(f"{_where(label, node.start_mark)}: nested more than {limits.max_depth} deep")
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


def parse(text: str, label: str, limits: YamlLimits = DEFAULT_LIMITS) -> tuple[Any, yaml.Node | None]:
    """The data of a YAML document and its node tree (for line numbers), within ``limits``."""
    loader = _Loader(text)
    loader.max_int_digits = limits.max_int_digits
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        _check_tree(node, label, limits)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "malformed YAML"
        raise YamlError(f"{_where(label, mark)}: YAML error: {problem}") from None
    except yaml.YAMLError as error:
        raise YamlError(f"{label}: YAML error: {error}") from None
    except RecursionError:
        raise YamlError(f"{label}: nested too deep") from None
    finally:
        loader.dispose()
    return data, node


def load_yaml(
    path: Path, label: str, *, root: Path | None = None, limits: YamlLimits = DEFAULT_LIMITS
) -> tuple[Any, yaml.Node | None]:
    """Read and parse one YAML file under the rules of this module."""
    return parse(read_text(path, label, root=root, max_bytes=limits.max_bytes), label, limits)
