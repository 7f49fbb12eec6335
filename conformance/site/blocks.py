"""The HTML fragments pages are made of; most serve both the site and the single-run report.

- a matrix cell with an engine's standing on a rule (:func:`standing_cell`), tallies of results
  counted as the certificate counts them (:func:`status_tally`, :func:`results_text`: a wrong
  answer blocked by a prerequisite failed directly is ``blocked``, not ``fail``);
- the blocks of an article page: the rulebook's long form (:func:`rulebook_block`), a reading
  (:func:`reading_block`), a case with its diagram, its questions and each engine's result on
  them, wrong answers drawn (:func:`case_block`), an engine's results on the article
  (:func:`engine_section_on_article`).

An engine's own page (and the single-run report) is made of :mod:`conformance.site.engine_blocks`.

Where a fragment links elsewhere it asks a :class:`~conformance.site.links.Links`, so the same
fragment serves separate pages and the one page of a single-run report. The pages themselves
and writing them: :mod:`conformance.site.build`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Final

from conformance.core import rulebook
from conformance.core.certificate import Row, Standing
from conformance.core.results import Result, Status
from conformance.report import matrix
from conformance.report.text import RESULT_WORDS
from conformance.site.links import Links, engine_anchor
from conformance.site.markup import (
    QUESTION_LABELS,
    after_diagram,
    anchor,
    case_anchor,
    case_diagram,
    code,
    esc,
    expected_text,
    failure_block,
    markdown_html,
    status_badge,
)
from conformance.site.model import CaseView, EngineRun, QuestionView, Site

PROBLEMS = (Status.FAIL, Status.ERROR)
MAX_LISTED: Final = 1000
"""The most rows of one list of results a page shows (a campaign fails by the hundred thousand)."""


def more_note(count: int, what: str) -> str:
    """The note under a list cut at :data:`MAX_LISTED` rows ("" when it was not)."""
    if count <= MAX_LISTED:
        return ""
    return (
        f'<p class="muted">The first {MAX_LISTED} of {count:,} {what} are listed; the JSON report has '
        "every one.</p>"
    )


_STANDING_CLASS: Mapping[Standing, str] = {
    Standing.CERTIFIED: "rate-full",
    Standing.PARTLY_COVERED: "rate-mid",
    Standing.FAILED: "rate-low",
    Standing.NOT_COVERED: "rate-na",
}


def standing_cell(row: Row | None, href: str) -> str:
    """A matrix cell: the engine's standing on one rule and its coverage (:func:`matrix.cell`)."""
    shown = matrix.cell(row)
    if shown.standing is None:
        return '<td class="rate rate-na">-</td>'
    title = ", ".join(part for part in (shown.coverage, *shown.notes) if part)
    return (
        f'<td class="rate {_STANDING_CLASS[shown.standing]}" title="{esc(title)}">'
        f'<a href="{esc(href)}">{esc(shown.word)}<br/><span class="muted">'
        f"{esc(shown.coverage)}</span></a></td>"
    )


def status_tally(results: Iterable[Result | None], run: EngineRun) -> str:
    """One badge per way the results count (pass, fail, blocked...), with how many: ``FAIL x2 SKIP``."""
    counts = Counter(run.word(result) for result in results if result is not None)
    return " ".join(
        word_badge(word) + (f" &#215;{counts[word]}" if counts[word] > 1 else "")
        for word in RESULT_WORDS
        if counts[word]
    )


def word_badge(word: str) -> str:
    return f'<span class="st st-{word}">{word}</span>'


def results_text(run: EngineRun, results: Iterable[Result] | None = None, article: str | None = None) -> str:
    """``352 pass, 47 fail, 13 blocked, 37 unsupported``: results counted as the certificate counts
    them (a wrong answer blocked by a prerequisite failed directly is not a failure of its rule): the
    run's, or ``results`` and the passes a campaign counted (tally lines) under ``article``."""
    counts = Counter(run.word(result) for result in (run.report.results if results is None else results))
    if results is None or article is not None:
        for kind, number in run.report.tallied().items():
            if article is None or kind.judged_under == article:
                counts[run.word(kind.result())] += number
    return ", ".join(f"{counts[word]} {word}" for word in RESULT_WORDS if counts[word])


def rulebook_block(key: str, *, reading: bool = False) -> str:
    """The long form of an article or reading from docs/rules.md, or nothing when it has none."""
    try:
        section = rulebook.reading(key) if reading else rulebook.section(key)
    except rulebook.RulebookError:
        return ""
    return f'<div class="rulebook">{markdown_html(section.body)}</div>'


def reading_block(
    site: Site, reading_id: str, links: Links, *, with_id: bool, cases: Sequence[CaseView]
) -> str:
    reading = site.readings.get(reading_id)
    text = esc(reading.text) if reading else "<em>not in the registry</em>"
    cited = ", ".join(
        f'<a href="{esc(links.article(a))}">{esc(a)}</a>' for a in (reading.articles if reading else ())
    )
    users = [case for case in cases if case.reading == reading_id]
    applied = ""
    if users:
        applied = "<br/>Cases that rest on it: " + ", ".join(
            f'<a href="{esc(links.case(case))}">{esc(case.id)}</a>' for case in users
        )
    ident = f' id="{anchor("reading", reading_id)}"' if with_id else ""
    long_form = rulebook_block(reading_id, reading=True) if with_id else ""
    return (
        f'<div class="reading"{ident}><strong>{esc(reading_id)}</strong> '
        f'<span class="muted">(articles {cited})</span><br/>{text}{applied}{long_form}</div>'
    )


def _question_block(
    site: Site, case: CaseView, question: QuestionView, engines: Sequence[EngineRun], links: Links
) -> str:
    """A question: the expected answer, and each engine's result (wrong answers in full)."""
    label = QUESTION_LABELS.get(question.kind, question.kind)
    parts = [
        f'<div class="question" id="{anchor("q", case.id, question.key)}">',
        f'<h4>{esc(label)} <span class="muted">[{esc(question.key)}]</span></h4>',
        f"<div>{expected_text(question)}</div>",
    ]
    if question.kind == "after":
        parts.append(after_diagram(case, question))
    if engines:
        rows, details = [], []
        for run in engines:
            result = run.results.get((case.id, question.key))
            message = esc(result.message) if result is not None and result.message else ""
            status = result.status if result is not None else None
            by = run.blocked_by(result) if result is not None else ()
            badge = status_badge(status, baselined=bool(result and result.baselined), blocked_by=by)
            if result is not None and result.status in PROBLEMS:
                fragment = anchor("f", case.id, question.key, run.slug)
                badge = f'<a href="#{fragment}">{badge}</a>'
                heading = f'<a href="{esc(links.engine(run))}">{esc(run.title)}</a>:'
                details.append(
                    failure_block(case, question, result, anchor_id=fragment, heading=heading, blocked_by=by)
                )
            rows.append(
                f'<tr><td><a href="{esc(links.engine(run))}">{esc(run.title)}</a></td>'
                f"<td>{badge}</td><td>{message}</td></tr>"
            )
        parts.append(f'<table class="results">{"".join(rows)}</table>')
        parts += details
    parts.append("</div>")
    return "".join(parts)


def case_block(site: Site, case: CaseView, engines: Sequence[EngineRun], links: Links) -> str:
    articles = ", ".join(f'<a href="{esc(links.article(a))}">{esc(a)}</a>' for a in case.articles)
    meta = [("articles", articles)]
    if case.source:
        meta.append(("source", esc(case.source)))
    if case.where:
        meta.append(("file", code(f"cases/{case.where}")))
    meta.append(("position", code(case.position)))
    if case.counters:
        meta.append(("counters", ", ".join(f"{esc(k)} = {esc(v)}" for k, v in sorted(case.counters.items()))))
    if case.reading:
        note = f" {esc(case.reading_note)}" if case.reading_note else ""
        meta.append(
            ("reading", f'<a href="{esc(links.reading(case.reading))}">{esc(case.reading)}</a>{note}')
        )
    if case.tags:
        meta.append(("tags", esc(", ".join(case.tags))))
    if not case.in_corpus:
        meta.append(("note", "this case is in a report but not in the corpus the site was built from"))
    description = f"<p>{esc(case.description)}</p>" if case.description else ""
    questions = "".join(_question_block(site, case, q, engines, links) for q in case.questions)
    return (
        f'<section class="case" id="{case_anchor(case.id)}">'
        f"<h3>{esc(case.id)}</h3>{description}"
        f'<dl class="meta">{"".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta)}</dl>'
        f'<div class="case-body">{case_diagram(case)}<div class="questions">{questions}</div></div>'
        "</section>"
    )


def engine_section_on_article(
    site: Site, article: str, run: EngineRun, links: Links, shown: Collection[str] | None = None
) -> str:
    """An engine's standing on ``article`` and its wrong answers there (at most
    :data:`MAX_LISTED`, counted beyond), linked to the cases ``shown`` on the page (every case
    when None)."""
    results = run.for_article(article)
    row = run.row(article)
    text = (
        "no result"
        if row is None
        else f"{esc(row.standing.value)}: {row.passed}/{row.questions} pass "
        f"({esc(results_text(run, results, article))})"
    )
    problems = [r for r in results if r.status in PROBLEMS]

    def label(result: Result) -> str:
        text = f"{esc(result.case)} [{esc(result.question)}]"
        if shown is not None and result.case not in shown:
            return text  # a case of the reports this page does not list
        case = site.case(result.case)
        if result.judged_under == article or case is None:  # the case is on this page
            return f'<a href="#{esc(anchor("f", result.case, result.question, run.slug))}">{text}</a>'
        return f'<a href="{esc(links.failure(case, result.question, run))}">{text}</a>'  # charged here

    items = "".join(
        f"<li>{label(r)} "
        f"{status_badge(r.status, baselined=r.baselined, blocked_by=run.blocked_by(r))} {esc(r.message)}</li>"
        for r in problems[:MAX_LISTED]
    )
    more = more_note(len(problems), "wrong answer(s)")
    listing = f"<ul>{items}</ul>{more}" if items else ""
    return (
        f'<section class="engine" id="{engine_anchor(run)}">'
        f'<h3><a href="{esc(links.engine(run))}">{esc(run.title)}</a> '
        f'<span class="muted">level {esc(run.level)}</span></h3><p>{text}</p>{listing}</section>'
    )
