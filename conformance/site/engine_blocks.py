"""An engine's results, on its page of the site and in the single-run HTML report, told as the
terminal tells them (:mod:`conformance.report.terminal`), from the same functions:

- :func:`engine_facts`: name, version, adapter, level, capabilities, corpus, the certificate;
- :func:`defect_list`: the distinct defects, one line each (the rule, what goes wrong, how often,
  where it was seen), and the sentence on the failures blocked by a prerequisite failed directly
  (:func:`conformance.report.text.defects`);
- :func:`rule_table`: the results by rule, counted as the certificate counts them (blocked apart
  from failed);
- :func:`defect_examples`: one failure of each defect drawn in full (the case's board, expected and
  got, the wrong answer drawn), the defect's other failures linked to where they are shown;
- :func:`blocked_table`: the blocked failures, each linked, with the rules that block them;
- :func:`problem_case`: a case of the single-run report with its wrong answers in words.

Each failure is drawn once per page: a page stays light however many questions an engine gets
wrong (an engine page of a badly broken engine weighs tens of kilobytes, not megabytes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conformance.core.results import Result
from conformance.report.hints import bisect_command
from conformance.report.text import (
    RESULT_WORDS,
    Defect,
    blocked_sentence,
    played,
    row_counts,
    verify_scope,
    z3_use,
)
from conformance.site.blocks import MAX_LISTED, PROBLEMS, more_note, results_text, standing_cell, status_tally
from conformance.site.links import Links, engine_anchor
from conformance.site.markup import (
    QUESTION_LABELS,
    anchor,
    case_anchor,
    case_diagram,
    code,
    esc,
    failure_block,
)
from conformance.site.model import LEVELS, CaseView, EngineRun, Site


def wide(table: str) -> str:
    """A table that may be wider than a phone: it scrolls on its own, the page does not."""
    return f'<div class="wide">{table}</div>'


def _corpus_run(header: Mapping[str, Any], digest: str, same: str) -> list[tuple[str, str]]:
    return [
        ("corpus", f"{code(digest[:16])}{same}"),
        ("cases run", esc(f"{header.get('selected_cases', '?')} of {header.get('corpus_cases', '?')}")),
    ]


def _verified(header: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A verify report checked generated (or every) positions, not the corpus's cases."""
    examples = header.get("examples")
    count = f"{examples:,}" if isinstance(examples, int) else "?"
    drawn = "" if (header.get("verify") or {}).get("pieces") else f", seed {header.get('seed', '?')}"
    return [
        ("positions", esc(f"{count}{drawn} ({verify_scope(header)})")),
        ("z3", esc(z3_use(header.get("verify") or {}))),
    ]


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
        *([("rule set", esc(played(run.report)))] if played(run.report) else []),
        *(_verified(header) if header.get("kind") == "verify" else _corpus_run(header, digest, same)),
        ("started", esc(header.get("started", "?"))),
    ]
    for note in run.report.notes:
        facts.append(("note", esc(f"this report is {note}")))
    footer = run.report.footer
    if footer.get("interrupted"):
        facts.append(("note", "the run was interrupted: the report is partial"))
    if footer.get("stopped_early"):
        facts.append(("note", "the run stopped early (--max-fail)"))
    facts.append(("certificate", f"<strong>{esc(run.certificate.summary())}</strong>"))
    facts.append(("results", esc(results_text(run) or "no result")))
    return f'<dl class="meta">{"".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)}</dl>'


def _rule_href(site: Site, run: EngineRun, rule: str, links: Links) -> tuple[str, str | None]:
    """A rule's label (``4.13``, ``reading endgame-no-restart``) and where it is documented (None when
    the page has no section for it: a reading without the corpus's registry)."""
    row = run.row(rule)
    if (row is not None and row.reading) or rule in site.readings:
        return f"reading {rule}", links.reading(rule) if rule in site.readings else None
    return rule, links.article(rule, engine_anchor(run)) if rule in site.articles else None


def _rule_link(site: Site, run: EngineRun, rule: str, links: Links) -> str:
    label, href = _rule_href(site, run, rule, links)
    return f'<a href="{esc(href)}">{esc(label)}</a>' if href else esc(label)


def defect_list(site: Site, run: EngineRun, links: Links) -> str:
    """The distinct defects, one line each, most frequent first; then what is blocked."""
    found, blocked = run.defects
    if not found and not blocked:
        return "<p>No failure and no error: nothing to fix.</p>"
    parts = []
    if found:
        rows = "".join(
            f'<tr><td class="num"><a href="#defect-{index}">{index}</a></td>'
            f"<td>{_rule_link(site, run, defect.rule, links)}</td><td>{esc(defect.what)}</td>"
            f'<td class="num">{len(defect.new) or ""}</td><td class="num">{len(defect.known) or ""}</td>'
            f"<td>{', '.join(_rule_link(site, run, rule, links) for rule in defect.touches)}</td></tr>"
            for index, defect in enumerate(found, start=1)
        )
        parts.append(
            wide(
                '<table class="defects"><tr><th class="num">#</th><th>rule</th><th>what goes wrong</th>'
                f'<th class="num">new</th><th class="num">known</th><th>seen in</th></tr>{rows}</table>'
            )
        )
        command = bisect_command(run.report.results, run.report.header)
        if command:
            parts.append(f"<p>A perft count is wrong: find the first wrong position with {code(command)}</p>")
    if blocked:
        parts.append(
            f'<p class="blocked-note">{esc(blocked_sentence(blocked, run.certificate))} '
            f'<a href="#blocked">The blocked failures</a>.</p>'
        )
    return "".join(parts)


def rule_table(site: Site, run: EngineRun, links: Links) -> str:
    """The engine's results rule by rule, in the certificate's order: its standing and how its
    questions count."""
    rows = []
    for row in run.certificate.rows:
        _, href = _rule_href(site, run, row.key, links)
        reading = site.readings.get(row.key)
        summary = reading.text if reading is not None else site.articles.get(row.key, "")
        counts = row_counts(row)
        cells = "".join(f'<td class="num">{counts[word] or ""}</td>' for word in RESULT_WORDS)
        rows.append(
            f"<tr><td>{_rule_link(site, run, row.key, links)}</td><td>{esc(summary)}</td>"
            f"{standing_cell(row, href or '#articles')}{cells}</tr>"
        )
    head = "".join(f'<th class="num">{word}</th>' for word in RESULT_WORDS)
    return wide(
        '<table class="matrix"><tr><th>rule</th><th>our summary</th><th>standing</th>'
        f"{head}</tr>{''.join(rows)}</table>"
    )


def _heading(case: CaseView, result: Result) -> str:
    question = next((q for q in case.questions if q.key == result.question), None)
    kind = question.kind if question is not None else result.question
    return f"<strong>{esc(QUESTION_LABELS.get(kind, kind))}</strong> [{esc(result.question)}]:"


def _example(site: Site, run: EngineRun, defect: Defect, index: int, links: Links) -> str:
    result = defect.results[0]
    case = site.case(result.case)
    question = next((q for q in case.questions if q.key == result.question), None) if case else None
    counts = f"{len(defect.new)} new" + (f", {len(defect.known)} known (baselined)" if defect.known else "")
    parts = [
        f'<section class="defect" id="defect-{index}">',
        f"<h3>{index}. {_rule_link(site, run, defect.rule, links)}: {esc(defect.what)}</h3>",
        f'<p class="muted">{counts}; seen in questions of '
        f"{', '.join(_rule_link(site, run, rule, links) for rule in defect.touches)}.</p>",
    ]
    if case is not None and question is not None:
        block = failure_block(
            case, question, result, anchor_id=f"defect-{index}-example", heading=_heading(case, result)
        )
        description = f" {esc(case.description)}" if case.description else ""
        parts.append(
            f'<p>Example: <a href="{esc(links.case(case))}">{esc(case.id)}</a>{description}</p>'
            f'<div class="case-body">{case_diagram(case)}<div class="questions">{block}</div></div>'
        )
    rest = defect.results[1:]
    if rest:
        parts.append(
            f"<p>The {len(rest)} other failure(s) of this defect:</p>{_result_list(site, run, rest, links)}"
        )
    parts.append("</section>")
    return "".join(parts)


def _result_list(site: Site, run: EngineRun, results: list[Result], links: Links) -> str:
    """The failures linked, at most :data:`~conformance.site.blocks.MAX_LISTED` (counted beyond)."""
    items = []
    for result in results[:MAX_LISTED]:
        case = site.case(result.case)
        label = f"{esc(result.case)} [{esc(result.question)}]"
        link = f'<a href="{esc(links.failure(case, result.question, run))}">{label}</a>' if case else label
        known = " (baselined)" if result.baselined else ""
        items.append(f"<li>{link}{known} {esc(result.message)}</li>")
    return f'<ul class="results">{"".join(items)}</ul>' + more_note(len(results), "failures of this defect")


def defect_examples(site: Site, run: EngineRun, links: Links) -> str:
    """Each defect with one failure drawn in full and its other failures linked."""
    found, _ = run.defects
    if not found:
        return "<p>No defect.</p>"
    return "".join(_example(site, run, defect, index, links) for index, defect in enumerate(found, start=1))


def blocked_table(site: Site, run: EngineRun, links: Links) -> str:
    """The failures blocked by a prerequisite failed directly: not failures of their own rule."""
    _, blocked = run.defects
    if not blocked:
        return "<p>None: every wrong answer is a defect of its own rule.</p>"
    rows = []
    for result in blocked[:MAX_LISTED]:
        case = site.case(result.case)
        label = f"{esc(result.case)} [{esc(result.question)}]"
        link = f'<a href="{esc(links.failure(case, result.question, run))}">{label}</a>' if case else label
        rows.append(
            f"<tr><td>{link}</td><td>{esc(result.judged_under)}</td>"
            f"<td>{esc(', '.join(run.blocked_by(result)))}</td><td>{esc(result.message)}</td></tr>"
        )
    return (
        f"<p>{esc(blocked_sentence(blocked, run.certificate))} They are not counted against the rule "
        "they are filed under; fix the blocking rule and run again.</p>"
        + wide(
            '<table class="blocked"><tr><th>case [question]</th><th>filed under</th><th>blocked by</th>'
            f"<th>the engine's answer</th></tr>{''.join(rows)}</table>"
        )
        + more_note(len(blocked), "blocked failures")
    )


def problem_case(site: Site, case: CaseView, run: EngineRun, links: Links) -> str:
    """A case of the single-run report that got a wrong answer: its facts and every wrong answer in
    words (the drawings are the defects' examples, not repeated here; a blocked answer gets its
    message only: the rule that blocks it is to be fixed first)."""
    results = [run.results.get((case.id, q.key)) for q in case.questions]
    blocks = []
    for question in case.questions:
        result = run.results.get((case.id, question.key))
        if result is None or result.status not in PROBLEMS:
            continue
        blocks.append(
            failure_block(
                case,
                question,
                result,
                anchor_id=anchor("f", case.id, question.key),
                heading=_heading(case, result),
                detail="message" if run.blocked_by(result) else "words",
                blocked_by=run.blocked_by(result),
            )
        )
    articles = ", ".join(f'<a href="{esc(links.article(a))}">{esc(a)}</a>' for a in case.articles)
    description = f"<p>{esc(case.description)}</p>" if case.description else ""
    return (
        f'<section class="case" id="{case_anchor(case.id)}"><h3>{esc(case.id)}</h3>{description}'
        f'<dl class="meta"><dt>articles</dt><dd>{articles}</dd><dt>position</dt><dd>{code(case.position)}</dd>'
        f"<dt>results</dt><dd>{status_tally(results, run)}</dd></dl>{''.join(blocks)}</section>"
    )
