"""Markdown for pull requests: the verdict, the certificate by rule, defects, failures folded."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Final

from conformance.core import rule_sets
from conformance.core.safe_text import printable
from conformance.core.stream import Report
from conformance.report.formats import Rendering, report_format
from conformance.report.text import (
    as_text,
    blocked_by,
    blocked_sentence,
    board,
    coverage_text,
    defects,
    engine_title,
    examples_first,
    headline,
    played,
    row_counts,
    rule_label,
    rules_of,
)

_COLUMNS = ("fail", "error", "known", "blocked", "skip", "unsupported")


_INLINE: Final = re.compile(r"([\\`*_\[\]~])")


def escape_cell(text: str) -> str:
    """Text (an engine's, say) for a table cell or a line: no HTML, no line breaks, no column
    separators, no Markdown emphasis, code or link, and no @mention (a zero-width space follows @)."""
    text = _INLINE.sub(r"\\\1", html.escape(printable(text), quote=True))
    return text.replace("|", "\\|").replace("\n", " ").replace("\r", " ").replace("@", "@\u200b")


def escape_html(text: str) -> str:
    """Text for raw HTML (``<summary>``...): no tag, no line break, no @mention."""
    safe = html.escape(printable(text), quote=True)
    return safe.replace("\n", " ").replace("\r", " ").replace("@", "@\u200b")


def code_span(text: str) -> str:
    """Text as inline code, in a table cell or a line: delimited by more backticks than it holds,
    its column separators escaped (GitHub reads ``\\|`` as ``|`` in a table, even in code)."""
    text = printable(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    body = text.replace("|", "\\|").replace("\n", " ").replace("\r", " ")
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{ticks}{pad}{body}{pad}{ticks}"


def code_fence(body: str) -> str:
    """A code fence longer than any run of backticks in ``body``, so the body cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    return "`" * max(3, longest + 1)


def render_markdown(
    report: Report, *, articles: Mapping[str, str] | None = None, max_failures: int = 50
) -> str:
    certificate = report.certificate()
    engine = report.header.get("engine", {})
    game = "FMJD" if not played(report) else rule_sets.name_of(report.header)
    source = (
        f"generated positions (seed `{report.header.get('seed')}`)"
        if report.header.get("kind") == "verify"
        else f"corpus `{str(report.header.get('corpus_digest', ''))[:12]}`"
    )
    out = [
        f"## {escape_cell(game)} conformance: {escape_cell(engine_title(report))}",
        "",
        f"**{escape_cell(headline(report, certificate))}**  ",
        f"Adapter {code_span(str(engine.get('adapter', '?')))}, "
        f"level {code_span(str(engine.get('level', 'rules')))}, {source}"
        + (f", {escape_cell(played(report))}." if played(report) else "."),
    ]
    if not certificate.complete:
        out += [
            "",
            f"> **Partial run:** {escape_cell(certificate.incompleteness)}; the certificate covers what ran.",
        ]
    for note in report.notes:
        out += ["", f"> **Note:** this report is {escape_cell(note)}."]
    out += [
        "",
        "| rule | summary | standing | by scope | passed (of asked) | " + " | ".join(_COLUMNS) + " |",
        "|---|---|---|---|---:|" + "---:|" * len(_COLUMNS),
    ]
    for row in certificate.rows:
        summary = escape_cell((articles or {}).get(row.article if row.reading else row.key, ""))
        counts = row_counts(row)
        cells = " | ".join(str(counts[name]) for name in _COLUMNS)
        out.append(
            f"| {escape_cell(rule_label(row))} | {summary} | {row.standing.value} | {row.scope_text()} | "
            f"{coverage_text(row)} | {cells} |"
        )
    found, blocked = defects(report, certificate)
    if found:
        out += [
            "",
            f"### Defects ({len(found)} distinct)",
            "",
            "| rule | what goes wrong | new | known | seen in |",
        ]
        out.append("|---|---|---:|---:|---|")
        for defect in found:
            what = defect.what + (
                f" (blocked by {', '.join(defect.blocked_by)})" if defect.blocked_by else ""
            )
            out.append(
                f"| {escape_cell(defect.rule)} | {escape_cell(what)} | {len(defect.new)} | {len(defect.known)} | "
                f"{escape_cell(', '.join(defect.touches))} |"
            )
    if blocked:
        out += ["", escape_cell(blocked_sentence(blocked, certificate))]
    shown = examples_first(found, max_failures, blocked)
    if shown:
        out += ["", f"### Failures and errors (showing {len(shown)})", ""]
    for result in shown:
        known = " (baselined)" if result.baselined else ""
        by = blocked_by(result, certificate)
        if by:
            known += f" (blocked by {', '.join(by)}, failed directly)"
        body = printable(
            "\n".join(
                [
                    f"FEN {result.position}",
                    board(result.position, rules_of(report)) if result.position else "",
                    f"expected: {as_text(result.expected)}",
                    f"got:      {as_text(result.got)}",
                ]
            )
        )
        fence = code_fence(body)
        out += [
            "<details>",
            f"<summary><b>{result.status.value}</b> <code>{escape_html(result.case)}</code> "
            f"[{escape_html(result.question)}] art. {escape_html(result.charged)}{known}: "
            f"{escape_html(result.message)}</summary>",
            "",
            fence,
            body,
            fence,
            "</details>",
        ]
    total = sum(len(d.results) for d in found)
    if total > len(shown):
        out.append(f"\n... and {total - len(shown)} more.")
    return "\n".join(out) + "\n"


@report_format("markdown", order=30)
def write_markdown(report: Report, out: Rendering) -> None:
    out.stream.write(
        render_markdown(report, articles=out.articles, max_failures=50 if out.show is None else out.show)
    )
