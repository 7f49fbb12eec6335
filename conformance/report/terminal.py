"""The terminal report: per-article pass rates, then every failure with its board."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from conformance.report.stream import Report
from conformance.report.text import articles_in_order, as_text, board, headline, problems, rate_text, tally
from conformance.results import Status

_STYLE = {
    Status.PASS: "green",
    Status.FAIL: "red",
    Status.ERROR: "magenta",
    Status.SKIP: "yellow",
    Status.UNSUPPORTED: "dim",
}


def render_terminal(
    report: Report,
    console: Console,
    *,
    articles: Mapping[str, str] | None = None,
    max_failures: int = 50,
) -> None:
    """Print the report: a table by article, then failures and errors in full."""
    engine = report.header.get("engine", {})
    console.print(
        Text.assemble(
            ("draughts-conformance ", "bold"),
            f"{report.header.get('suite_version', '')}  engine ",
            (f"{engine.get('name', '?')} {engine.get('version', '')}", "bold"),
            f"  via {engine.get('adapter', '?')}  level {engine.get('level', 'rules')}",
        )
    )
    with_rule = console.width >= 100  # narrow terminals: the numbers first
    table = Table(title="Results by article", show_lines=False)
    table.add_column("article", no_wrap=True)
    if with_rule:
        table.add_column("rule", overflow="ellipsis", no_wrap=True, max_width=console.width - 70)
    table.add_column("pass rate", justify="right")
    for status in Status:
        table.add_column(status.value, justify="right", style=_STYLE[status])
    for article, results in articles_in_order(report):
        counts = tally(results)
        summary = (articles or {}).get(article, "")
        cells = [article, summary] if with_rule else [article]
        table.add_row(*cells, rate_text(results), *(str(counts[s.value] or "") for s in Status))
    console.print(table)

    shown = problems(report)
    for result in shown[:max_failures]:
        style = _STYLE[result.status]
        title = f"{result.status.value.upper()} {result.case} [{result.question}]  art. {', '.join(result.articles)}"
        if result.baselined:
            title += "  (baselined: known)"
        lines = [Text(result.message or "", style=style)]
        if result.position:
            lines.append(Text(f"FEN {result.position}"))
            lines.append(Text(board(result.position)))
        lines.append(Text(f"expected: {as_text(result.expected)}"))
        if result.got is not None:
            lines.append(Text(f"got:      {as_text(result.got)}"))
        if result.error is not None and result.error.stderr:
            lines.append(Text("engine stderr:\n" + result.error.stderr[-2000:], style="dim"))
        console.print(Panel(Group(*lines), title=Text(title), title_align="left", border_style=style))
    if len(shown) > max_failures:
        console.print(f"... and {len(shown) - max_failures} more failures/errors (see the JSON-lines report)")
    unexpected = report.footer.get("unexpected_passes") or []
    if unexpected:
        message = f"{len(unexpected)} baselined question(s) now pass: " + ", ".join(unexpected)
        console.print(Text(message, style="yellow"))
    if report.footer.get("stopped_early"):
        console.print("[yellow]stopped early (--max-fail)[/]")
    if report.footer.get("interrupted"):
        console.print("[yellow]the run was interrupted: the report is partial[/]")
    console.print(Text(headline(report), style="bold"))
