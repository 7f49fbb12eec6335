"""The HTML fragments pages are made of; most serve both the site and the single-run report.

- a matrix cell with an engine's standing on a rule (:func:`standing_cell`), tallies of statuses
  (:func:`status_tally`, :func:`counts_text`);
- the blocks of an article page: the rulebook's long form (:func:`rulebook_block`), a reading
  (:func:`reading_block`), a case with its diagram, its questions and each engine's result on
  them, wrong answers drawn (:func:`case_block`), an engine's results on the article
  (:func:`engine_section_on_article`);
- the blocks of an engine's page: its facts (:func:`engine_facts`), its results by article
  (:func:`engine_articles_table`), every failure in full (:func:`engine_failures`).

Where a fragment links elsewhere it asks a :class:`~conformance.site.links.Links`, so the same
fragment serves separate pages and the one page of a single-run report. The pages themselves
and writing them: :mod:`conformance.site.build`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from conformance import rulebook
from conformance.certificate import Row, Standing
from conformance.results import Result, Status
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
from conformance.site.model import LEVELS, CaseView, EngineRun, QuestionView, Site

PROBLEMS = (Status.FAIL, Status.ERROR)


_STANDING_CLASS: Mapping[Standing, str] = {
    Standing.CERTIFIED: "rate-full",
    Standing.PARTLY_COVERED: "rate-mid",
    Standing.FAILED: "rate-low",
    Standing.NOT_COVERED: "rate-na",
}


def standing_cell(row: Row | None, href: str) -> str:
    """A matrix cell: the engine's standing on one rule (from its certificate) and its coverage."""
    if row is None:
        return '<td class="rate rate-na">-</td>'
    counts = [f"{row.passed}/{row.questions} pass"] if row.questions else []
    for name, value in (
        ("failed", row.failed + row.charged),
        ("erred", row.errored),
        ("known", row.known),
        ("blocked", row.blocked),
        ("not answered", row.skipped + row.unsupported),
    ):
        if value:
            counts.append(f"{value} {name}")
    return (
        f'<td class="rate {_STANDING_CLASS[row.standing]}" title="{esc(", ".join(counts))}">'
        f'<a href="{esc(href)}">{esc(row.standing.value)}<br/><span class="muted">'
        f"{esc(counts[0] if counts else '')}</span></a></td>"
    )


def status_tally(results: Iterable[Result | None]) -> str:
    """One badge per status met, with how many questions got it: ``FAIL x2 UNSUPPORTED``."""
    counts = Counter((result.status, result.baselined) for result in results if result is not None)
    order = {status: index for index, status in enumerate(Status)}
    return " ".join(
        status_badge(status, baselined=baselined) + (f" &#215;{count}" if count > 1 else "")
        for (status, baselined), count in sorted(
            counts.items(), key=lambda item: (order[item[0][0]], item[0][1])
        )
    )


def counts_text(results: Iterable[Result]) -> str:
    counts = Counter(result.status for result in results)
    return ", ".join(f"{counts[status]} {status.value}" for status in Status if counts[status])


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
            badge = status_badge(status, baselined=bool(result and result.baselined))
            if result is not None and result.status in PROBLEMS:
                fragment = anchor("f", case.id, question.key, run.slug)
                badge = f'<a href="#{fragment}">{badge}</a>'
                heading = f'<a href="{esc(links.engine(run))}">{esc(run.title)}</a>:'
                details.append(failure_block(case, question, result, anchor_id=fragment, heading=heading))
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


def engine_facts(run: EngineRun, site: Site) -> str:
    engine = run.engine
    header = run.report.header
    digest = str(header.get("corpus_digest", ""))
    same = ""
    if site.corpus_digest and digest:
        same = (
            " (the corpus shown here)"
            if digest == site.corpus_digest
            else " (<strong>another corpus</strong> than the one shown here: cases may differ)"
        )
    capabilities = engine.get("capabilities") or []
    facts = [
        ("name", esc(run.name)),
        ("version", esc(run.version)),
        ("adapter", code(engine.get("adapter", "?"))),
        ("certification level", esc(LEVELS.get(run.level, run.level))),
        ("capabilities", ", ".join(code(c) for c in capabilities) or "-"),
        ("suite", esc(f"{header.get('suite', '')} {header.get('suite_version', '')}")),
        ("corpus", f"{code(digest[:16])}{same}"),
        ("cases run", esc(f"{header.get('selected_cases', '?')} of {header.get('corpus_cases', '?')}")),
        ("started", esc(header.get("started", "?"))),
    ]
    footer = run.report.footer
    if footer.get("interrupted"):
        facts.append(("note", "the run was interrupted: the report is partial"))
    if footer.get("stopped_early"):
        facts.append(("note", "the run stopped early (--max-fail)"))
    facts.append(("certificate", esc(run.certificate.summary())))
    facts.append(("results", esc(counts_text(run.report.results) or "no result")))
    return f'<dl class="meta">{"".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)}</dl>'


def engine_articles_table(site: Site, run: EngineRun, links: Links) -> str:
    rows = []
    for article, summary in site.articles.items():
        results = run.for_article(article)
        if not results:
            continue
        counts = Counter(result.status for result in results)
        cells = "".join(f'<td class="num">{counts[status] or ""}</td>' for status in Status)
        href = links.article(article, engine_anchor(run))
        rows.append(
            f'<tr><td><a href="{esc(href)}">{esc(article)}</a></td>'
            f"<td>{esc(summary)}</td>{standing_cell(run.row(article), href)}{cells}</tr>"
        )
    for reading in site.readings:
        row = run.row(reading)
        if row is None:
            continue
        href = links.reading(reading)
        rows.append(
            f'<tr><td><a href="{esc(href)}">reading {esc(reading)}</a></td>'
            f"<td>{esc(site.readings[reading].text)}</td>{standing_cell(row, href)}"
            f'<td class="num">{row.passed or ""}</td><td class="num">{row.failed + row.charged or ""}</td>'
            f'<td class="num">{row.errored or ""}</td><td class="num">{row.skipped or ""}</td>'
            f'<td class="num">{row.unsupported or ""}</td></tr>'
        )
    head = "".join(f'<th class="num">{status.value}</th>' for status in Status)
    return (
        '<table class="matrix"><tr><th>rule</th><th>our summary</th><th>standing</th>'
        f"{head}</tr>{''.join(rows)}</table>"
    )


def engine_failures(site: Site, run: EngineRun, links: Links) -> str:
    """Every failure and error of a run in full, grouped by case (known, baselined ones last)."""
    problems = [result for result in run.report.results if result.status in PROBLEMS]
    if not problems:
        return "<p>No failure and no error.</p>"
    by_case: dict[str, list[Result]] = {}
    for result in sorted(problems, key=lambda result: result.baselined):
        by_case.setdefault(result.case, []).append(result)
    parts = [f"<p>{len(problems)} question(s) of {len(by_case)} case(s) failed or errored.</p>"]
    for case_id, results in by_case.items():
        case = site.case(case_id)
        if case is None:  # cannot happen: the model adds every case a report names
            continue
        blocks = []
        for result in results:
            question = next((q for q in case.questions if q.key == result.question), None)
            if question is not None:
                heading = f"<strong>{esc(QUESTION_LABELS.get(question.kind, question.kind))}</strong> [{esc(result.question)}]:"
                blocks.append(
                    failure_block(
                        case,
                        question,
                        result,
                        anchor_id=anchor("f", case.id, result.question),
                        heading=heading,
                    )
                )
        articles = ", ".join(f'<a href="{esc(links.article(a))}">{esc(a)}</a>' for a in case.articles)
        description = f"<p>{esc(case.description)}</p>" if case.description else ""
        parts.append(
            f'<section class="case"><h3><a href="{esc(links.case(case))}">{esc(case.id)}</a></h3>{description}'
            f'<p class="muted">Art. {articles}</p>'
            f'<div class="case-body">{case_diagram(case)}<div class="questions">{"".join(blocks)}</div></div>'
            "</section>"
        )
    return "".join(parts)


def engine_section_on_article(site: Site, article: str, run: EngineRun, links: Links) -> str:
    results = run.for_article(article)
    row = run.row(article)
    text = (
        "no result"
        if not results or row is None
        else f"{esc(row.standing.value)}: {row.passed}/{row.questions} pass ({esc(counts_text(results))})"
    )
    problems = [r for r in results if r.status in PROBLEMS]

    def href(result: Result) -> str:
        if result.judged_under == article:  # the case is on this page
            return "#" + anchor("f", result.case, result.question, run.slug)
        return links.engine(run, anchor("f", result.case, result.question))  # charged here from elsewhere

    items = "".join(
        f'<li><a href="{esc(href(r))}">{esc(r.case)} [{esc(r.question)}]</a> '
        f"{status_badge(r.status, baselined=r.baselined)} {esc(r.message)}</li>"
        for r in problems
    )
    listing = f"<ul>{items}</ul>" if items else ""
    return (
        f'<section class="engine" id="{engine_anchor(run)}">'
        f'<h3><a href="{esc(links.engine(run))}">{esc(run.title)}</a> '
        f'<span class="muted">level {esc(run.level)}</span></h3><p>{text}</p>{listing}</section>'
    )
