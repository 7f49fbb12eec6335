"""Writing a case for ``cases/``: the inverse of the loader (:mod:`conformance.core.corpus.load`).

``bisect``, ``verify`` and ``verify --kind readings`` propose cases for what they found, each as a
:class:`CaseDraft`: the position, the rule, and an expectation left :data:`TODO` (or suggested, never
by the oracle) for an author to work out by hand. :func:`case_yaml` writes one, indented for a case
file's ``cases:`` list, and :func:`case_file_yaml` a whole file around them. What the YAML loader
reads back from the text is :meth:`CaseDraft.data`, exactly.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, ParamSpec

TODO: Final = "TODO"
"""A value the author works out by hand (written bare: a case holding it fails the schema)."""
TODO_DESCRIPTION: Final = "TODO: one line saying what an engine must get right here"
TODO_HEADER: Final = (
    "TODO: work out the expectation by hand from the rules (docs/rules.md), write the derivation here,",
    "then remove these TODO lines; the description too.",
)
"""The comment lines every proposed case carries under what found it."""
AFTER_SUGGESTION: Final = (
    "TODO: work out by hand. Suggested: the rules' arithmetic (before - captured, the piece",
    "moved, crowned only when a man ends on the far row), not the oracle.",
)
"""The comment over a position after a move that the rules' arithmetic suggests."""

_PLAIN: Final = re.compile(r"[a-z0-9][a-z0-9._-]*\Z")


@dataclasses.dataclass(frozen=True)
class CaseDraft:
    """A proposed case: its fields as a case file holds them (``docs/cases.md``)."""

    id: str
    article: str | None
    """The rule it checks (None: not known, the author files it)."""
    position: str
    source: str
    expect: Mapping[str, Any]
    """The ``expect`` mapping, each question kind with its answer as the file holds it."""
    description: str = TODO_DESCRIPTION
    requires: tuple[str, ...] = ()
    reading: str | None = None
    """The project's reading it rests on (``interpretation: {reading: ...}``)."""
    notes: str | None = None
    counters: Mapping[str, int] = dataclasses.field(default_factory=dict)
    comments: tuple[str, ...] = ()
    """Comment lines above the case: what found it, and the TODOs."""
    expect_comments: tuple[str, ...] = ()
    """Comment lines above the expectation: where its suggestion came from."""

    def data(self) -> dict[str, Any]:
        """The case as the loader reads it from :func:`case_yaml`'s text (comments aside)."""
        fields: dict[str, Any] = {"id": self.id}
        if self.article is not None:
            fields["article"] = self.article
        if self.requires:
            fields["requires"] = list(self.requires)
        if self.reading is not None:
            fields["interpretation"] = {"reading": self.reading}
        fields |= {"description": self.description, "source": self.source}
        if self.notes is not None:
            fields["notes"] = self.notes
        fields["position"] = self.position
        if self.counters:
            fields["counters"] = dict(self.counters)
        fields["expect"] = _plain_data(self.expect)
        return fields


def _plain_data(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): _plain_data(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_data(item) for item in value]
    return value


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if value == TODO:
        return TODO
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a YAML double-quoted one


def _slug(value: str) -> str:
    """An id or a reading's name: bare, as the corpus writes them, unless YAML would read it otherwise."""
    return value if _PLAIN.match(value) and not re.fullmatch(r"[0-9.]+", value) else _scalar(value)


def _flow(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return _scalar(value)


def _is_flat(value: Any) -> bool:
    if isinstance(value, Mapping):
        return False
    if isinstance(value, (list, tuple)):
        return all(not isinstance(item, (Mapping, list, tuple)) for item in value)
    return True


def _block(mapping: Mapping[str, Any], indent: int, first: str = "") -> list[str]:
    """``mapping`` in block style at ``indent`` spaces; ``first`` starts its first line (``- ``)."""
    lines = []
    for index, (key, value) in enumerate(mapping.items()):
        lead = " " * indent if index or not first else " " * (indent - len(first)) + first
        if _is_flat(value):
            lines.append(f"{lead}{key}: {_flow(value)}")
        elif isinstance(value, Mapping):
            lines += [f"{lead}{key}:", *_block(value, indent + 2)]
        else:  # a list of mappings (``after``, ``move_texts``...)
            lines.append(f"{lead}{key}:")
            for item in value:
                if isinstance(item, Mapping):
                    lines += _block(item, indent + 4, "- ")
                else:
                    lines.append(f"{' ' * (indent + 2)}- {_flow(item)}")
    return lines


def case_yaml(draft: CaseDraft) -> str:
    """The case in YAML, indented for a case file's ``cases:`` list."""
    data = draft.data()
    lines = [f"  # {comment}" if comment else "  #" for comment in draft.comments]
    for index, (key, value) in enumerate(data.items()):
        lead = "  - " if index == 0 else "    "
        if key == "expect":
            lines.append(f"{lead}expect:")
            lines += [f"      # {comment}" for comment in draft.expect_comments]
            lines += _block(value, 6)
        elif key == "id":
            lines.append(f"{lead}id: {_slug(value)}")
        elif key == "interpretation":
            lines.append(f"{lead}interpretation: {{reading: {_slug(value['reading'])}}}")
        else:
            lines.append(f"{lead}{key}: {_flow(value)}")
    return "\n".join(lines)


Found = ParamSpec("Found")


def written(draft: Callable[Found, CaseDraft]) -> Callable[Found, str]:
    """``draft`` followed by :func:`case_yaml`: a finder's ``case_yaml`` from its ``case_draft``."""

    def case_text(*args: Found.args, **kwargs: Found.kwargs) -> str:
        return case_yaml(draft(*args, **kwargs))

    case_text.__doc__ = f"The YAML of :func:`{draft.__name__}`, indented for a file's ``cases:`` list."
    return case_text


def case_file_yaml(
    drafts: Sequence[CaseDraft], *, topic: str, article: str, comments: Sequence[str] = ()
) -> str:
    """A whole case file around ``drafts`` (its ``topic`` and default ``article``)."""
    return "\n".join(
        [
            *(f"# {comment}" for comment in comments),
            f"topic: {_scalar(topic)}",
            f"article: {_scalar(article)}",
            "cases:",
            *(case_yaml(draft) for draft in drafts),
            "",
        ]
    )
