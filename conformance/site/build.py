"""The rule-by-rule documentation site, and the HTML report of a single run.

:func:`write_site` writes, from the corpus and any number of saved reports (one per engine):

- ``index.html``: the engines x articles matrix (pass rate per cell, linked to that engine's
  section of the article page), the engines, and every reading the project fixes;
- ``art-<article>.html``: one page per article: our summary of the rule, the readings that
  concern it, each engine's results on it, and every case citing it with its diagram, its
  questions and expected answers, and each engine's result, wrong answers drawn;
- ``eng-<engine>.html``: one page per engine: name, version, adapter, certification level,
  per-article results and every failure in full;
- ``style.css``.

:func:`render_html` gives one self-contained page for one run (the same content, for one
engine), for CI to publish as an artifact. Plain HTML and CSS, no script, readable offline;
the output is deterministic (no clock, no random ids).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from conformance import __version__, rulebook
from conformance.certificate import Row, Standing
from conformance.corpus.model import Corpus
from conformance.report.stream import Report
from conformance.results import Result, Status
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
from conformance.site.model import (
    LEVELS,
    CaseView,
    EngineRun,
    QuestionView,
    Site,
    article_file,
    build_model,
    engine_file,
)
from conformance.site.style import CSS

PROBLEMS = (Status.FAIL, Status.ERROR)


@dataclasses.dataclass(frozen=True)
class Links:
    """Where things are: separate pages (the site) or anchors of one page (a single-run report)."""

    single_page: bool = False

    def article(self, article: str, fragment: str = "") -> str:
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


_STANDING_CLASS: Mapping[Standing, str] = {
    Standing.CERTIFIED: "rate-full",
    Standing.PARTLY_COVERED: "rate-mid",
    Standing.FAILED: "rate-low",
    Standing.NOT_COVERED: "rate-na",
}


def _standing_cell(row: Row | None, href: str) -> str:
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


def _summary(site: Site, article: str) -> str:
    if site.articles.get(article):
        return site.articles[article]
    if not site.corpus_digest:
        return "(no summary: the page was made without the corpus and its registry of articles)"
    return "(no summary in the registry)"


def _status_tally(results: Iterable[Result | None]) -> str:
    """One badge per status met, with how many questions got it: ``FAIL x2 UNSUPPORTED``."""
    counts = Counter((result.status, result.baselined) for result in results if result is not None)
    order = {status: index for index, status in enumerate(Status)}
    return " ".join(
        status_badge(status, baselined=baselined) + (f" &#215;{count}" if count > 1 else "")
        for (status, baselined), count in sorted(
            counts.items(), key=lambda item: (order[item[0][0]], item[0][1])
        )
    )


def _counts_text(results: Iterable[Result]) -> str:
    counts = Counter(result.status for result in results)
    return ", ".join(f"{counts[status]} {status.value}" for status in Status if counts[status])


def _page(title: str, body: str, *, stylesheet: str | None = "style.css", nav: str = "") -> str:
    style = f'<link rel="stylesheet" href="{stylesheet}"/>' if stylesheet else f"<style>\n{CSS}</style>"
    return (
        "<!DOCTYPE html>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">\n'
        '<head><meta charset="utf-8"/>'
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>'
        f"<title>{esc(title)}</title>{style}</head>\n"
        f'<body>\n<header class="top">{nav}</header>\n<main>\n{body}\n</main>\n'
        f"<footer>Generated by draughts-conformance {esc(__version__)}. International draughts, FMJD rules: "
        "article summaries are ours, not the rulebook's text.</footer>\n</body>\n</html>\n"
    )


def _site_nav() -> str:
    return (
        '<nav><a href="index.html">draughts-conformance: rules by article</a><a href="index.html#matrix">'
        'matrix</a><a href="index.html#engines">engines</a><a href="index.html#readings">readings</a></nav>'
    )


# -- pieces of pages ---------------------------------------------------------------------------------


def _rulebook_block(key: str, *, reading: bool = False) -> str:
    """The long form of an article or reading from docs/rules.md, or nothing when it has none."""
    try:
        section = rulebook.reading(key) if reading else rulebook.section(key)
    except rulebook.RulebookError:
        return ""
    return f'<div class="rulebook">{markdown_html(section.body)}</div>'


def _reading_block(
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
    long_form = _rulebook_block(reading_id, reading=True) if with_id else ""
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


def _case_block(site: Site, case: CaseView, engines: Sequence[EngineRun], links: Links) -> str:
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


def _engine_facts(run: EngineRun, site: Site) -> str:
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
    facts.append(("results", esc(_counts_text(run.report.results) or "no result")))
    return f'<dl class="meta">{"".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)}</dl>'


def _engine_articles_table(site: Site, run: EngineRun, links: Links) -> str:
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
            f"<td>{esc(summary)}</td>{_standing_cell(run.row(article), href)}{cells}</tr>"
        )
    for reading in site.readings:
        row = run.row(reading)
        if row is None:
            continue
        href = links.reading(reading)
        rows.append(
            f'<tr><td><a href="{esc(href)}">reading {esc(reading)}</a></td>'
            f"<td>{esc(site.readings[reading].text)}</td>{_standing_cell(row, href)}"
            f'<td class="num">{row.passed or ""}</td><td class="num">{row.failed + row.charged or ""}</td>'
            f'<td class="num">{row.errored or ""}</td><td class="num">{row.skipped or ""}</td>'
            f'<td class="num">{row.unsupported or ""}</td></tr>'
        )
    head = "".join(f'<th class="num">{status.value}</th>' for status in Status)
    return (
        '<table class="matrix"><tr><th>rule</th><th>our summary</th><th>standing</th>'
        f"{head}</tr>{''.join(rows)}</table>"
    )


def _engine_failures(site: Site, run: EngineRun, links: Links) -> str:
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


def _engine_section_on_article(site: Site, article: str, run: EngineRun, links: Links) -> str:
    results = run.for_article(article)
    row = run.row(article)
    text = (
        "no result"
        if not results or row is None
        else f"{esc(row.standing.value)}: {row.passed}/{row.questions} pass ({esc(_counts_text(results))})"
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


# -- pages ----------------------------------------------------------------------------------------------


def index_page(site: Site) -> str:
    links = Links()
    engines = site.engines
    heads = "".join(
        f'<th><a href="{esc(links.engine(run))}">{esc(run.title)}</a><br/>'
        f'<span class="muted">{esc(run.level)}</span></th>'
        for run in engines
    )
    rows = []
    for article, summary in site.articles.items():
        cells = "".join(
            _standing_cell(run.row(article), links.article(article, engine_anchor(run))) for run in engines
        )
        rows.append(
            f'<tr><td><a href="{esc(links.article(article))}">{esc(article)}</a></td>'
            f'<td>{esc(summary)}</td><td class="num">{len(site.cases_of(article))}</td>{cells}</tr>'
        )
    for reading_id, reading in site.readings.items():
        if engines and not any(run.row(reading_id) for run in engines):
            continue
        cells = "".join(_standing_cell(run.row(reading_id), links.reading(reading_id)) for run in engines)
        count = sum(1 for case in site.cases if case.reading == reading_id)
        rows.append(
            f'<tr><td><a href="{esc(links.reading(reading_id))}">reading {esc(reading_id)}</a></td>'
            f'<td>{esc(reading.text)}</td><td class="num">{count}</td>{cells}</tr>'
        )
    matrix = (
        '<table class="matrix"><tr><th>rule</th><th>our summary</th><th class="num">cases</th>'
        f"{heads}</tr>{''.join(rows)}</table>"
    )
    if engines:
        legend = (
            '<p class="muted">Each cell: the engine\'s standing on the rule, from its certificate: '
            '<span class="rate-full">certified</span> (every question of the rule answered and passing), '
            '<span class="rate-low">failed</span> (a wrong answer under this rule), '
            '<span class="rate-mid">partly covered</span> (no wrong answer, some questions not answered or '
            'blocked by another rule failing), <span class="rate-na">not covered</span>; below it, how many '
            "of the rule's questions pass. Results of cases resting on a reading of the project's are filed "
            "under that reading. A cell links to the engine's results on the article page.</p>"
        )
        engine_rows = "".join(
            f'<tr><td><a href="{esc(links.engine(run))}">{esc(run.title)}</a></td>'
            f"<td>{code(run.engine.get('adapter', '?'))}</td><td>{esc(run.level)}</td>"
            f"<td>{esc(run.certificate.verdict)}</td>"
            f"<td>{esc(_counts_text(run.report.results))}</td></tr>"
            for run in engines
        )
        engines_html = (
            "<table><tr><th>engine</th><th>adapter</th><th>level</th><th>verdict</th><th>results</th></tr>"
            f"{engine_rows}</table>"
        )
    else:
        legend = (
            '<p class="muted">No run report was given: the site documents the rules and the cases only.</p>'
        )
        engines_html = "<p>No engine: build with <code>--report R.jsonl</code> to compare engines.</p>"
    readings = "".join(
        _reading_block(site, reading_id, links, with_id=True, cases=site.cases)
        for reading_id in site.readings
    )
    body = (
        "<h1>International draughts, rule by rule</h1>"
        "<p>For each article of the FMJD rules: our summary of the rule, the readings this project fixes where "
        "the text is silent or ambiguous, every test case with its diagram and expected answer, and how each "
        f"engine behaves. {len(site.articles)} articles, {len(site.cases)} cases, {len(engines)} engine(s).</p>"
        f'<h2 id="matrix">{"Engines x articles" if engines else "Articles"}</h2>{legend}{matrix}'
        f'<h2 id="engines">Engines</h2>{engines_html}'
        '<h2 id="readings">Readings</h2><p>Where the rulebook is silent or ambiguous, the corpus follows these '
        f"readings (cases that rest on one say so).</p>{readings or '<p>None.</p>'}"
    )
    return _page("draughts-conformance: rules by article", body, nav=_site_nav())


def _topics(cases: Sequence[CaseView]) -> dict[str, list[CaseView]]:
    groups: dict[str, list[CaseView]] = {}
    for case in cases:
        groups.setdefault(case.topic, []).append(case)
    return groups


def article_page(site: Site, article: str) -> str:
    links = Links()
    order = list(site.articles)
    position = order.index(article)
    previous = order[position - 1] if position > 0 else None
    following = order[position + 1] if position + 1 < len(order) else None
    pager = (
        '<nav class="pager"><span>'
        + (
            f'<a href="{esc(links.article(previous))}">&#8592; {esc(article_title(previous))}</a>'
            if previous
            else ""
        )
        + "</span><span>"
        + (
            f'<a href="{esc(links.article(following))}">{esc(article_title(following))} &#8594;</a>'
            if following
            else ""
        )
        + "</span></nav>"
    )
    cases = site.cases_of(article)
    summary = _summary(site, article)
    readings = site.readings_of(article)
    reading_ids = [reading.id for reading in readings]
    reading_ids += sorted({c.reading for c in cases if c.reading and c.reading not in reading_ids})
    readings_html = "".join(
        _reading_block(site, reading_id, links, with_id=False, cases=cases) for reading_id in reading_ids
    )
    parts = [
        pager,
        f"<h1>{esc(article_title(article))}</h1>",
        f'<p class="summary">{esc(summary)}</p>',
        '<p class="muted">Our summary of the rule, not the rulebook\'s text.</p>',
        _rulebook_block(article),
        '<h2 id="readings">Readings</h2>',
        readings_html or "<p>No reading concerns this article: the rule is applied as written.</p>",
    ]
    if site.engines:
        parts.append('<h2 id="engines">Engines</h2>')
        parts += [_engine_section_on_article(site, article, run, links) for run in site.engines]
    parts.append(f'<h2 id="cases">Cases ({len(cases)})</h2>')
    if not cases:
        parts.append("<p>No case cites this article yet.</p>")
    for topic, group in _topics(cases).items():
        parts.append(f'<h3 class="topic">{esc(topic)}</h3>')
        parts += [_case_block(site, case, site.engines, links) for case in group]
    parts.append(pager)
    return _page(f"{article_title(article)}: draughts-conformance", "".join(parts), nav=_site_nav())


def engine_page(site: Site, run: EngineRun) -> str:
    links = Links()
    body = (
        f"<h1>{esc(run.title)}</h1>{_engine_facts(run, site)}"
        f'<h2 id="articles">Results by article</h2>{_engine_articles_table(site, run, links)}'
        f'<h2 id="failures">Failures and errors</h2>{_engine_failures(site, run, links)}'
    )
    return _page(f"{run.title}: draughts-conformance", body, nav=_site_nav())


def site_pages(site: Site) -> dict[str, str]:
    """Every page of the site: file name -> content."""
    pages = {"index.html": index_page(site), "style.css": CSS}
    for article in site.articles:
        pages[article_file(article)] = article_page(site, article)
    for run in site.engines:
        pages[engine_file(run)] = engine_page(site, run)
    return pages


def write_site(out: Path | str, corpus: Corpus | None, reports: Sequence[Report] = ()) -> list[Path]:
    """Write the site into ``out`` (created if needed); return the files written.

    Every page is built in memory first, then written to a fresh folder beside ``out`` that
    replaces the pages of ``out`` only once all are written: a failed build leaves the previous
    site as it was, never half of a new one.
    """
    directory = Path(out)
    pages = site_pages(build_model(corpus, reports))
    directory.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    try:
        for name, content in pages.items():
            (staging / name).write_text(content, encoding="utf-8")
        written = []
        for name in pages:
            os.replace(staging / name, directory / name)
            written.append(directory / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written


def render_html(report: Report, corpus: Corpus | None = None) -> str:
    """One self-contained HTML page for one run: the engine, its results by article, every case."""
    site = build_model(corpus, [report])
    run = site.engines[0]
    links = Links(single_page=True)
    ran = {result.case for result in report.results}
    cases = [case for case in site.cases if case.id in ran]
    sections = []
    for article in site.articles:  # every article, so that every link to one resolves
        own = [case for case in cases if article in case.articles]
        items = "".join(
            f'<li><a href="{esc(links.case(case))}">{esc(case.id)}</a> '
            + _status_tally([run.results.get((case.id, q.key)) for q in case.questions])
            + (f" {esc(case.description)}" if case.description else "")
            + "</li>"
            for case in own
        )
        readings = "".join(
            _reading_block(site, reading.id, links, with_id=False, cases=own)
            for reading in site.readings_of(article)
        )
        sections.append(
            f'<section class="article" id="{article_anchor(article)}"><h3>{esc(article_title(article))}</h3>'
            f'<p class="summary">{esc(_summary(site, article))}</p>'
            f"{readings}"
            + (f"<ul>{items}</ul>" if items else "<p>No case of this run cites this article.</p>")
            + "</section>"
        )
    case_blocks = []
    for topic, group in _topics(cases).items():
        case_blocks.append(f'<h3 class="topic">{esc(topic)}</h3>')
        case_blocks += [_case_block(site, case, [run], links) for case in group]
    reading_defs = "".join(
        _reading_block(site, reading_id, links, with_id=True, cases=cases) for reading_id in site.readings
    )
    body = (
        f'<h1 id="engine">Conformance report: {esc(run.title)}</h1>{_engine_facts(run, site)}'
        f'<h2 id="articles">Results by article</h2>{_engine_articles_table(site, run, links)}'
        f'<h2 id="failures">Failures and errors</h2>{_engine_failures(site, run, links)}'
        f'<h2 id="by-article">Articles</h2>{"".join(sections)}'
        f'<h2 id="cases">Cases ({len(cases)})</h2>{"".join(case_blocks)}'
        f'<h2 id="readings">Readings</h2>{reading_defs or "<p>None.</p>"}'
    )
    nav = (
        '<nav><a href="#engine">engine</a><a href="#articles">by article</a><a href="#failures">failures</a>'
        '<a href="#cases">cases</a><a href="#readings">readings</a></nav>'
    )
    return _page(f"{run.title}: draughts-conformance report", body, stylesheet=None, nav=nav)
