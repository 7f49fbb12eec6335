"""The terminal report: defects first, then failures in full, then the certificate; the summary last."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import IO

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from conformance.core.results import Result, Status
from conformance.core.safe_text import printable
from conformance.core.stream import Report
from conformance.report.first_steps import first_steps
from conformance.report.formats import Rendering, report_format
from conformance.report.hints import bisect_command
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
    other_counts,
    played,
    rule_label,
    rules_of,
    standing_style,
)
from oracle.rules import INTERNATIONAL, Rules

_STYLE = {
    Status.PASS: "green",
    Status.FAIL: "red",
    Status.ERROR: "magenta",
    Status.SKIP: "yellow",
    Status.UNSUPPORTED: "dim",
}

DEFAULT_SHOWN = 10


def render_terminal(
    report: Report,
    console: Console,
    *,
    articles: Mapping[str, str] | None = None,
    max_failures: int = DEFAULT_SHOWN,
) -> None:
    """Print the report: distinct defects, up to ``max_failures`` failures in full, the
    certificate rule by rule, and the one-line summary last."""
    certificate = report.certificate()
    engine = report.header.get("engine", {})
    console.print(
        Text.assemble(
            ("draughts-conformance ", "bold"),
            f"{report.header.get('suite_version', '')}  engine ",
            (engine_title(report), "bold"),
            printable(f"  via {engine.get('adapter', '?')}  level {engine.get('level', 'rules')}"),
            (printable(f"  {played(report)}") if played(report) else "", "bold"),
        ),
        highlight=False,
    )
    for note in report.notes:
        console.print(Text(printable(f"note: this report is {note}"), style="yellow"), highlight=False)

    found, blocked = defects(report, certificate)
    if found:
        table = Table(title=f"Defects ({len(found)} distinct)", title_justify="left", show_lines=False)
        table.add_column("rule", no_wrap=True)
        table.add_column("what goes wrong", overflow="fold")
        table.add_column("new", justify="right", style="red")
        table.add_column("known", justify="right", style="yellow")
        table.add_column("seen in", overflow="fold")
        for defect in found:
            what = defect.what + (
                f" (blocked: relies on {', '.join(defect.blocked_by)}, failed directly; fix that first)"
                if defect.blocked_by
                else ""
            )
            table.add_row(
                Text(printable(defect.rule), style="yellow" if defect.blocked_by else ""),
                Text(printable(what)),
                str(len(defect.new) or ""),
                str(len(defect.known) or ""),
                Text(printable(", ".join(defect.touches))),
            )
        console.print(table)
        command = bisect_command(report.results, report.header)
        if command:
            console.print(
                Text(
                    printable(f"A perft count is wrong: find the first wrong position with  {command}"),
                    style="cyan",
                ),
                soft_wrap=True,
            )
    probes = [r for r in report.results if r.probe]
    if probes:
        console.print(
            Text(
                f"{len(probes)} question(s) of {len({r.case for r in probes})} case(s) outside the selection were "
                f"asked as probes ({', '.join(sorted({r.judged_under for r in probes}))}): the failures of the "
                "selection rely on those rules, and are judged as in a run of every case.",
                style="cyan",
            )
        )
    if blocked:
        console.print(Text(printable(blocked_sentence(blocked, certificate)), style="yellow"))

    shown = examples_first(found, max_failures, blocked)
    rerun = report.header.get("rerun")
    for result in shown:
        console.print(
            _panel(
                result,
                blocked_by(result, certificate),
                rerun if isinstance(rerun, str) else None,
                rules_of(report),
            )
        )
    total = sum(len(d.results) for d in found)
    if total > len(shown):
        console.print(
            f"... {total - len(shown)} more failure(s) not shown (--show N to see more; the JSON-lines report has all)",
            highlight=False,
        )

    with_rule = console.width >= 150  # narrow terminals: the standings and numbers first
    table = Table(title="Certificate by rule", title_justify="left", show_lines=False)
    table.add_column("rule", no_wrap=True)
    if with_rule:
        table.add_column("summary", overflow="ellipsis", no_wrap=True, max_width=max(20, console.width - 130))
    table.add_column("standing", no_wrap=True)
    table.add_column("by scope", overflow="fold")
    table.add_column("passed", justify="right", no_wrap=True)
    table.add_column("not passed", overflow="fold")
    for row in certificate.rows:
        summary = (articles or {}).get(row.key if not row.reading else row.article, "")
        cells = [rule_label(row), summary] if with_rule else [rule_label(row)]
        table.add_row(
            *cells,
            Text(row.standing.value, style=standing_style(row.standing)),
            Text(row.scope_text()),
            coverage_text(row),
            Text(other_counts(row)),
        )
    console.print(table)

    unexpected = report.footer.get("unexpected_passes") or []
    if unexpected:
        message = printable(
            f"{len(unexpected)} baselined question(s) now pass: " + ", ".join(map(str, unexpected))
        )
        console.print(Text(message, style="yellow"))
    advice = first_steps(report)
    if advice:
        console.print(Text(advice, style="cyan"))
    if not certificate.complete:
        console.print(
            Text(
                f"PARTIAL RUN: {certificate.incompleteness}; the certificate covers what ran.", style="yellow"
            )
        )
    style = {0: "bold green", 1: "bold red"}.get(int(certificate.exit_status), "bold yellow")
    console.print(Text(headline(report, certificate), style=style), soft_wrap=True)  # one line, for grep


def _panel(
    result: Result, blockers: tuple[str, ...] = (), rerun: str | None = None, rules: Rules = INTERNATIONAL
) -> Panel:
    """One failure in full (its board drawn under ``rules``, the report's rule set); last, the
    command that runs just its case again (``rerun``: the report's command line without its selection)."""
    style = _STYLE[result.status]
    rule = (
        f"art. {result.charged}" if not result.reading or result.charged_to else f"reading {result.reading}"
    )
    title = printable(f"{result.status.value.upper()} {result.case} [{result.question}]  {rule}")
    if result.charged_to:
        title += f" (found in a question of {result.judged_under})"
    if result.baselined:
        title += "  (baselined: known)"
    if blockers:
        title += f"  (blocked by {', '.join(blockers)}, failed directly)"
    lines = [Text(printable(result.message or ""), style=style)]
    if result.position:
        lines.append(Text(printable(f"FEN {result.position}")))
        lines.append(Text(board(result.position, rules)))
    lines.append(Text(f"expected: {as_text(result.expected)}"))
    if result.got is not None:
        lines.append(Text(f"got:      {as_text(result.got)}"))
    if result.error is not None and result.error.stderr:
        lines.append(Text("engine stderr:\n" + printable(result.error.stderr[-2000:]), style="dim"))
    if rerun:
        lines.append(Text(printable(f"rerun: {rerun} --case {shlex.quote(result.case)}"), style="cyan"))
    return Panel(Group(*lines), title=Text(title), title_align="left", border_style=style)


def terminal_console(stream: IO[str], to_file: bool) -> Console:
    """A console for the terminal format: the terminal's width, or 120 columns into a pipe or file."""
    interactive = not to_file and stream.isatty()
    return Console(file=stream, width=None if interactive else 120, no_color=to_file)


@report_format("terminal", order=0)
def print_terminal(report: Report, out: Rendering) -> None:
    """The terminal format: :func:`render_terminal`, then the epilogue."""
    console = terminal_console(out.stream, out.to_file)
    render_terminal(
        report, console, articles=out.articles, max_failures=DEFAULT_SHOWN if out.show is None else out.show
    )
    if out.epilogue:
        console.print(out.epilogue, markup=False, highlight=False)
