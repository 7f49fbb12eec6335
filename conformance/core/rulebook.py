"""The rulebook as the project reads it (``docs/rules.md``), section by section.

``docs/rules.md`` has one section per article the corpus cites (``### Art. 4.13 — ...``, and
``### PDN — ...``, ``### Hub — ...`` for the notation standards), one per reading the project fixes
(``### `endgame-no-restart` — ...``) and a few parts (``## Move text: ...``). This module finds them
so that ``show``, the site and reports can display the long form of an article or a reading next
to the one-line summaries of ``cases/articles.yaml``::

    from conformance.core import rulebook

    rulebook.section("4.13").body          # Art. 4.13: the rule, our reading, pitfalls, cases
    rulebook.reading("endgame-no-restart")  # a reading: what it fixes, why, its cases
    rulebook.part("move-text")              # what a move-text reader must answer

The file ships in the wheel (``conformance/docs_data`` is a link to ``docs/`` in a source tree,
like ``corpus_data`` to ``cases/``). A missing section raises :class:`RulebookError` naming what
was asked and what exists.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Collection, Iterator
from functools import cache
from pathlib import Path
from typing import Final

from conformance.core.errors import CaseError

RULEBOOK_PATH: Final = (Path(__file__).parent.parent / "docs_data" / "rules.md").resolve()
"""``docs/rules.md`` (through the ``docs_data`` link in a source tree; a plain file in a wheel)."""

ARTICLES_HEADING: Final = "The articles"
READINGS_HEADING: Final = "The readings"

_ARTICLE_HEADING: Final = re.compile(r"(?:Art\. )?(?P<key>[0-9][0-9.]*|[A-Za-z]+) — (?P<title>.+)")
_READING_HEADING: Final = re.compile(r"`(?P<key>[a-z0-9][a-z0-9-]*)` — (?P<title>.+)")
_CODE: Final = re.compile(r"`([^`\n]+)`")
_CASE_ID: Final = re.compile(r"(?:[0-9]+(?:\.[0-9]+)*|pdn|hub|perft)-(?=[0-9a-z.-]*[a-z])[0-9a-z.-]*[0-9a-z]")
"""How a case id cited in the rulebook looks: led by its article (or ``pdn``, ``perft``), with a
letter after the first dash, so that move texts such as ``32-28`` are not taken for ids."""


class RulebookError(CaseError, LookupError):
    """The rulebook is missing, malformed, or has no section for what was asked."""


class Kind(enum.Enum):
    ARTICLE = "article"
    READING = "reading"
    PART = "part"
    """A ``##`` part of the page other than the articles and readings (its introduction, if any)."""


@dataclasses.dataclass(frozen=True)
class Section:
    """One section of the rulebook: its heading, and its Markdown body without the heading."""

    kind: Kind
    key: str
    """The article number (``4.13``, ``PDN``), the reading id, or the part's slug (``move-text``)."""
    title: str
    """The heading's words after the key: ``The most pieces``."""
    heading: str
    """The heading as written, without the ``#`` marks."""
    body: str
    line: int
    """The heading's line in ``docs/rules.md`` (1 = first)."""
    cases: tuple[str, ...] = ()
    """The case ids the section cites (in backquotes), in order, each once."""

    @property
    def markdown(self) -> str:
        """The section as Markdown, heading included (at its level in the page)."""
        level = "##" if self.kind is Kind.PART else "###"
        return f"{level} {self.heading}\n\n{self.body}\n"

    @property
    def anchor(self) -> str:
        """The fragment GitHub gives the heading, to link to ``docs/rules.md#<anchor>``."""
        return re.sub(r"[^\w\- ]", "", self.heading.lower()).replace(" ", "-")


def cited_case_ids(markdown: str, readings: Collection[str] = ()) -> Iterator[str]:
    """Every backquoted token of ``markdown`` shaped like a case id (``4.11-turkish-strike``),
    but for the names of ``readings`` (``pdn-full-route`` is a reading, not a case)."""
    for match in _CODE.finditer(markdown):
        token = match.group(1)
        if _CASE_ID.fullmatch(token) and token not in readings:
            yield token


@dataclasses.dataclass(frozen=True)
class Rulebook:
    """The sections of one rulebook file, by kind and key."""

    path: Path
    text: str
    sections: tuple[Section, ...]

    def find(self, kind: Kind, key: str) -> Section:
        for candidate in self.sections:
            if candidate.kind is kind and candidate.key == key:
                return candidate
        known = ", ".join(s.key for s in self.sections if s.kind is kind) or "none"
        raise RulebookError(f"{self.path.name} has no {kind.value} section {key!r}; it has: {known}")

    def keys(self, kind: Kind) -> tuple[str, ...]:
        return tuple(s.key for s in self.sections if s.kind is kind)

    def cited_case_ids(self) -> tuple[str, ...]:
        """Every case id the whole page cites, in order, each once."""
        return tuple(dict.fromkeys(cited_case_ids(self.text, self.keys(Kind.READING))))


def parse(text: str, path: Path = RULEBOOK_PATH) -> Rulebook:
    """Split a rulebook into sections: ``###`` headings under "The articles" are articles, under
    "The readings" readings; every other ``##`` heading starts a part. Fenced code is skipped."""
    sections: list[Section] = []
    seen: dict[tuple[Kind, str], int] = {}
    part = ""
    current: tuple[Kind, str, str, str, int] | None = None
    body: list[str] = []
    fenced = False

    def close() -> None:
        if current is not None:
            kind, key, title, heading, line = current
            sections.append(Section(kind, key, title, heading, "\n".join(body).strip(), line))

    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"(#{2,3}) (.+)", line)
        if heading is None:
            body.append(line)
            continue
        level, words = heading.group(1), heading.group(2).strip()
        if level == "##":
            part = words
            entry = (Kind.PART, _slug(words), words, words, number)
        elif part in (ARTICLES_HEADING, READINGS_HEADING):
            is_article = part == ARTICLES_HEADING
            match = (_ARTICLE_HEADING if is_article else _READING_HEADING).fullmatch(words)
            if match is None:
                shape = "'Art. 4.13 — Title' or 'PDN — Title'" if is_article else "'`reading-id` — Title'"
                raise RulebookError(f"{path.name}, line {number}: heading {words!r} is not {shape}")
            kind = Kind.ARTICLE if is_article else Kind.READING
            entry = (kind, match.group("key"), match.group("title"), words, number)
        else:
            body.append(line)  # a subheading inside a part belongs to the part
            continue
        if (entry[0], entry[1]) in seen:
            raise RulebookError(
                f"{path.name}, line {number}: {entry[0].value} {entry[1]!r} already has a section "
                f"(line {seen[entry[0], entry[1]]})"
            )
        seen[entry[0], entry[1]] = number
        close()
        current, body = entry, []
    close()
    readings = {s.key for s in sections if s.kind is Kind.READING}
    cited = [
        dataclasses.replace(s, cases=tuple(dict.fromkeys(cited_case_ids(s.body, readings)))) for s in sections
    ]
    return Rulebook(path, text, tuple(cited))


def _slug(heading: str) -> str:
    """A part's key: the words of its heading before any colon, lower case, joined by dashes."""
    words = re.findall(r"[a-z0-9]+", heading.split(":")[0].lower())
    return "-".join(words)


@cache
def load(path: Path = RULEBOOK_PATH) -> Rulebook:
    """The rulebook at ``path`` (the shipped ``docs/rules.md`` by default), read once."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulebookError(f"cannot read the rulebook {path}: {error.strerror or error}") from None
    return parse(text, path)


def section(article: str) -> Section:
    """The section of an article of the registry: ``section("4.13")``, ``section("PDN")``."""
    return load().find(Kind.ARTICLE, article.strip())


def reading(name: str) -> Section:
    """The section of a reading of the registry: ``reading("endgame-no-restart")``."""
    return load().find(Kind.READING, name.strip())


def part(key: str) -> Section:
    """A part of the page by its slug: ``part("move-text")``, ``part("reference-numbers")``."""
    return load().find(Kind.PART, key.strip())


def sections() -> tuple[Section, ...]:
    """Every section, in the order of the page."""
    return load().sections


__all__ = [
    "RULEBOOK_PATH",
    "Kind",
    "Rulebook",
    "RulebookError",
    "Section",
    "cited_case_ids",
    "load",
    "parse",
    "part",
    "reading",
    "section",
    "sections",
]
