"""Where things are on the site and what they are called: links, anchors and titles.

A :class:`Links` gives the address of an article, a case, an engine or a reading: a separate
page of the site (``art-<article>.html``, ``eng-<engine>.html``, ``index.html``) or, for the
single-run report, an anchor of the one page. :func:`engine_anchor` and :func:`article_anchor`
name the sections links point to; :func:`article_title` is the title of a rule's page or section.
"""

from __future__ import annotations

import dataclasses

from conformance.core.filing.registry import readings
from conformance.site.markup import anchor, case_anchor
from conformance.site.model import CaseView, EngineRun, article_file, engine_file


@dataclasses.dataclass(frozen=True)
class Links:
    """Where things are: separate pages (the site) or anchors of one page (a single-run report)."""

    single_page: bool = False

    def article(self, article: str, fragment: str = "") -> str:
        if article in readings():  # a reading a case relies on: on the page of the first article it reads
            return self.article(readings()[article][0])
        if self.single_page:  # one section per article; the fragment names a part of a page
            return "#" + article_anchor(article)
        return article_file(article) + (f"#{fragment}" if fragment else "")

    def case(self, case: CaseView) -> str:
        if self.single_page:
            return f"#{case_anchor(case.id)}"
        return self.article(case.primary_article, case_anchor(case.id))

    def engine(self, run: EngineRun, fragment: str = "") -> str:
        if self.single_page:
            return "#" + (fragment or "engine")
        return engine_file(run) + (f"#{fragment}" if fragment else "")

    def failure(self, case: CaseView, question: str, run: EngineRun) -> str:
        """Where an engine's wrong answer to a question is shown in full: under the question on the
        case's article page, or under the case in a single-run report."""
        if self.single_page:
            return "#" + anchor("f", case.id, question)
        return self.article(case.primary_article, anchor("f", case.id, question, run.slug))

    def reading(self, reading_id: str) -> str:
        fragment = anchor("reading", reading_id)
        return f"#{fragment}" if self.single_page else f"index.html#{fragment}"


def engine_anchor(run: EngineRun) -> str:
    """The id of an engine's section on an article page: ``eng-<slug>``."""
    return f"eng-{run.slug}"


def article_anchor(article: str) -> str:
    """The id of an article's section in a single-run report: its page's name without ``.html``."""
    return article_file(article).removesuffix(".html")


def article_title(article: str, *, reading: bool = False) -> str:
    """The title of a rule's page or section: an FMJD article, a notation, perft, or a reading."""
    if reading:
        return f"Reading {article}"
    if article == "PDN":
        return "PDN 3.0 notation"
    if article == "Hub":
        return "Hub protocol notation"
    if article == "perft":
        return "Perft (the move generator as a whole)"
    return f"Article {article}"
