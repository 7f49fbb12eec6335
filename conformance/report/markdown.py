"""Markdown for pull requests: the per-article table, then failures in collapsible blocks."""

from __future__ import annotations

from collections.abc import Mapping

from conformance.report.stream import Report
from conformance.report.text import articles_in_order, as_text, board, headline, problems, rate_text, tally
from conformance.results import Status


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(
    report: Report, *, articles: Mapping[str, str] | None = None, max_failures: int = 50
) -> str:
    engine = report.header.get("engine", {})
    out = [
        f"## FMJD conformance: {engine.get('name', '?')} {engine.get('version', '')}",
        "",
        f"**{headline(report)}**  ",
        f"Adapter `{engine.get('adapter', '?')}`, level `{engine.get('level', 'rules')}`, "
        + (
            f"generated positions (seed `{report.header.get('seed')}`)."
            if report.header.get("kind") == "verify"
            else f"corpus `{str(report.header.get('corpus_digest', ''))[:12]}`."
        ),
        "",
        "| article | rule | pass rate | " + " | ".join(s.value for s in Status) + " |",
        "|---|---|---:|" + "---:|" * len(Status),
    ]
    for article, results in articles_in_order(report):
        counts = tally(results)
        summary = _cell((articles or {}).get(article, ""))
        cells = " | ".join(str(counts[s.value]) for s in Status)
        out.append(f"| {article} | {summary} | {rate_text(results)} | {cells} |")
    shown = problems(report)
    if shown:
        out += ["", f"### Failures and errors ({len(shown)})", ""]
    for result in shown[:max_failures]:
        known = " (baselined)" if result.baselined else ""
        out += [
            "<details>",
            f"<summary><b>{result.status.value}</b> <code>{result.case}</code> [{result.question}]{known}: "
            f"{_cell(result.message)}</summary>",
            "",
            "```",
            f"FEN {result.position}",
            board(result.position) if result.position else "",
            f"expected: {as_text(result.expected)}",
            f"got:      {as_text(result.got)}",
            "```",
            "</details>",
        ]
    if len(shown) > max_failures:
        out.append(f"\n... and {len(shown) - max_failures} more.")
    return "\n".join(out) + "\n"
