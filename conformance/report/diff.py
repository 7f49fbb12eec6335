"""Two reports of one engine compared: what broke, what was fixed, what changed (``diff``).

Results are matched by (case, question); a question a campaign counted (a pass in a ``tally`` line,
:mod:`conformance.core.tallies`) is matched as that pass. Between the OLD and the NEW report:

* a **regression** is a question that did not fail in OLD (pass, skip, unsupported, or a failure
  the baseline listed) and fails or errs in NEW outside the baseline; a rule certified in OLD and
  no longer certified in NEW is one too (a question the engine stopped answering, a failing
  question added to a certified rule);
* a **fix** is a question that failed or erred in OLD and passes in NEW;
* a **changed answer** keeps its status but not its answer (``got``): a wrong answer wrong in
  another way;
* other **status changes** (now declined, now answered, a failure become an error...), questions
  **added** and **removed**, and each rule whose certificate standing moved.

``diff`` exits 1 when there is a regression; 3 when there is none but a report is partial --
interrupted, stopped early, header-only, questions without a result (its certificate is incomplete):
the questions it lacks are not "removed", and "no regression" would be a false pass --; 0 otherwise.
The Markdown form is for a pull-request comment: every text an engine wrote is escaped, and long
sections are cut.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any, Final

from conformance.core.certificate import PROBLEMS, ExitStatus, Standing
from conformance.core.results import Result, Status
from conformance.core.safe_text import printable
from conformance.core.stream import Report, rule_order
from conformance.report.formats import diff_format
from conformance.report.markdown import code_fence, code_span, escape_cell
from conformance.report.text import engine_title

Key = tuple[str, str]

MARKDOWN_ROWS: Final = 50
"""Rows per section of the Markdown form (a pull-request comment has a size limit)."""


def _problem(result: Result | None) -> bool:
    """A failure or error that counts (not one the baseline lists)."""
    return result is not None and result.status in PROBLEMS and not result.baselined


@dataclasses.dataclass(frozen=True)
class Change:
    """One question in both reports (or in one of them): its result before and after."""

    case: str
    question: str
    old: Result | None
    new: Result | None

    @property
    def rule(self) -> str:
        """The rule the question is filed under (or charged to, for a failure)."""
        result = self.new or self.old
        assert result is not None
        return result.charged if result.status in PROBLEMS else result.judged_under

    @property
    def was(self) -> str:
        return _status(self.old)

    @property
    def now(self) -> str:
        return _status(self.new)


def _status(result: Result | None) -> str:
    if result is None:
        return "absent"
    return result.status.value + (" (baselined)" if result.baselined else "")


@dataclasses.dataclass(frozen=True)
class StandingChange:
    """A rule whose certificate standing moved; None when the rule is absent from a report."""

    rule: str
    reading: bool
    old: Standing | None
    new: Standing | None

    @property
    def lost_certification(self) -> bool:
        return self.old is Standing.CERTIFIED and self.new is not None and self.new is not Standing.CERTIFIED


@dataclasses.dataclass(frozen=True)
class ReportDiff:
    old: Report
    new: Report
    regressions: tuple[Change, ...]
    fixes: tuple[Change, ...]
    changed: tuple[Change, ...]
    """Same status, another answer."""
    moved: tuple[Change, ...]
    """Other status changes."""
    added: tuple[Change, ...]
    removed: tuple[Change, ...]
    standings: tuple[StandingChange, ...]
    partial: tuple[str, ...] = ()
    """Why a report cannot be judged: "the new report is partial (interrupted after ...)"."""

    @property
    def lost(self) -> tuple[StandingChange, ...]:
        """Rules certified before and not any more: regressions of the certificate."""
        return tuple(change for change in self.standings if change.lost_certification)

    @property
    def regressed(self) -> bool:
        return bool(self.regressions or self.lost)

    @property
    def exit_status(self) -> int:
        if self.regressed:
            return int(ExitStatus.FAILED)
        return int(ExitStatus.NOT_CERTIFIED) if self.partial else int(ExitStatus.CERTIFIED)

    def summary(self) -> str:
        counts = [
            (len(self.regressions), "regression(s)"),
            (len(self.lost), "rule(s) no longer certified"),
            (len(self.fixes), "fix(es)"),
            (len(self.changed), "changed answer(s)"),
            (len(self.moved), "other status change(s)"),
            (len(self.added), "question(s) added"),
            (
                len(self.removed),
                "question(s) without a result now" if self.partial else "question(s) removed",
            ),
        ]
        parts = [f"{number} {what}" for number, what in counts if number]
        verdict = "REGRESSED" if self.regressed else "NO VERDICT" if self.partial else "no regression"
        line = f"{verdict}: {', '.join(parts) or 'nothing changed'}"
        if self.partial:
            line += f"; {'; '.join(self.partial)}: run it again to completion"
        return line


def _by_key(results: Iterable[Result]) -> dict[Key, Result]:
    return {(result.case, result.question): result for result in results}


def diff_reports(old: Report, new: Report) -> ReportDiff:
    """Compare ``old`` with ``new`` question by question, and their certificates rule by rule."""
    before, after = _by_key(old.results), _by_key(new.results)
    regressions, fixes, changed, moved, added, removed = [], [], [], [], [], []
    for key in sorted(before.keys() | after.keys()):
        was, now = before.get(key), after.get(key)
        # A campaign counts its passes (tally lines): a question counted in one report is not missing.
        was = was or old.counted(*key, like=now)
        now = now or new.counted(*key, like=was)
        change = Change(*key, was, now)
        if was is None:
            added.append(change)
        elif now is None:
            removed.append(change)
        elif _problem(now) and not _problem(was):
            regressions.append(change)
        elif was.status in PROBLEMS and now.status is Status.PASS:
            fixes.append(change)
        elif was.status is now.status and was.baselined == now.baselined:
            if was.got != now.got:
                changed.append(change)
        else:
            moved.append(change)
    return ReportDiff(
        old,
        new,
        tuple(regressions),
        tuple(fixes),
        tuple(changed),
        tuple(moved),
        tuple(added),
        tuple(removed),
        _standings(old, new),
        _partial(old, new),
    )


def _partial(old: Report, new: Report) -> tuple[str, ...]:
    """What makes a report unfit to judge regressions by: an incomplete certificate."""
    reasons = []
    for name, report in (("new", new), ("old", old)):
        certificate = report.certificate()
        if not certificate.complete:
            reasons.append(f"the {name} report is partial ({certificate.incompleteness})")
    return tuple(reasons)


def _standings(old: Report, new: Report) -> tuple[StandingChange, ...]:
    rows_before = {row.key: row for row in old.certificate().rows}
    rows_after = {row.key: row for row in new.certificate().rows}
    changes = []
    for rule in rule_order([*old.results, *new.results], [*old.tallied(), *new.tallied()]):
        was, now = rows_before.get(rule), rows_after.get(rule)
        if was is None and now is None:
            continue
        standing_was = was.standing if was else None
        standing_now = now.standing if now else None
        if standing_was is not standing_now:
            reading = bool((now or was) and (now or was).reading)  # type: ignore[union-attr]
            changes.append(StandingChange(rule, reading, standing_was, standing_now))
    return tuple(changes)


# -- rendering --------------------------------------------------------------------------------


def _answer(value: Any) -> str:
    if value is None:
        return "-"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def notes(diff: ReportDiff) -> list[str]:
    """What reading the reports found (unchained, cut short...), for each report it concerns."""
    return [
        f"the {name} report is {note}"
        for name, report in (("old", diff.old), ("new", diff.new))
        for note in report.notes
    ]


def _title(report: Report) -> str:
    where = f" ({report.source})" if report.source else ""
    return f"{engine_title(report)}{where}"


def _standing(value: Standing | None) -> str:
    return value.value if value is not None else "absent"


def _message(change: Change) -> str:
    result = change.new if change.new is not None and change.new.status is not Status.PASS else change.old
    return result.message if result is not None else ""


@diff_format("terminal", order=10)
def render_terminal(diff: ReportDiff) -> str:
    """Plain text: one section per kind of change, the summary last."""
    lines = [f"diff {_title(diff.old)} -> {_title(diff.new)}"]
    if diff.old.header.get("corpus_digest") != diff.new.header.get("corpus_digest"):
        lines.append("note: the two runs used different corpora (questions may be added or removed)")
    lines += [f"note: {note}" for note in notes(diff)]
    sections: list[tuple[str, tuple[Change, ...]]] = [
        ("REGRESSIONS", diff.regressions),
        ("FIXES", diff.fixes),
        ("CHANGED ANSWERS", diff.changed),
        ("OTHER STATUS CHANGES", diff.moved),
        ("QUESTIONS ADDED", diff.added),
        (
            "QUESTIONS WITHOUT A RESULT IN A PARTIAL REPORT" if diff.partial else "QUESTIONS REMOVED",
            diff.removed,
        ),
    ]
    for title, changes in sections:
        if not changes:
            continue
        lines += ["", f"{title} ({len(changes)})"]
        for change in changes:
            lines.append(
                f"  {change.case} [{change.question}]  art. {change.rule}: {change.was} -> {change.now}"
                + (f": {_message(change).replace(chr(10), ' ')}" if _message(change) else "")
            )
            if title == "CHANGED ANSWERS":
                lines.append(f"      was: {_answer(change.old.got if change.old else None)}")
                lines.append(f"      now: {_answer(change.new.got if change.new else None)}")
    if diff.standings:
        lines += ["", "CERTIFICATE"]
        for standing in diff.standings:
            mark = "  (no longer certified)" if standing.lost_certification else ""
            label = f"reading {standing.rule}" if standing.reading else standing.rule
            lines.append(f"  {label}: {_standing(standing.old)} -> {_standing(standing.new)}{mark}")
    lines += ["", diff.summary()]
    return "\n".join(printable(line) for line in lines) + "\n"


def _table(changes: tuple[Change, ...], *, answers: bool = False) -> list[str]:
    header = "| case | question | rule | was | now | message |"
    rule = "|---|---|---|---|---|---|"
    if answers:
        header, rule = "| case | question | rule | was | now |", "|---|---|---|---|---|"
    out = [header, rule]
    for change in changes[:MARKDOWN_ROWS]:
        cells = [change.case, change.question, change.rule, change.was, change.now]
        if answers:
            cells = [
                change.case,
                change.question,
                change.rule,
                _answer(change.old.got if change.old else None),
                _answer(change.new.got if change.new else None),
            ]
        else:
            cells.append(_message(change))
        out.append(
            "| "
            + " | ".join(code_span(cell) if i < 2 else escape_cell(cell) for i, cell in enumerate(cells))
            + " |"
        )
    if len(changes) > MARKDOWN_ROWS:
        out.append(f"\n... and {len(changes) - MARKDOWN_ROWS} more (the terminal form lists them all).")
    return out


@diff_format("markdown", order=20)
def render_markdown(diff: ReportDiff) -> str:
    """A pull-request comment: the verdict, then each kind of change as a table, cut when long."""
    icon = ":x:" if diff.regressed else ":warning:" if diff.partial else ":white_check_mark:"
    out = [
        f"## FMJD conformance: {escape_cell(engine_title(diff.new))} against {escape_cell(engine_title(diff.old))}",
        "",
        f"{icon} **{escape_cell(diff.summary())}**",
    ]
    if diff.old.header.get("corpus_digest") != diff.new.header.get("corpus_digest"):
        out += ["", "> The two runs used different corpora: questions may be added or removed."]
    out += ["", *(f"> **Note:** {escape_cell(note)}." for note in notes(diff))] if notes(diff) else []
    for title, changes, answers in (
        ("Regressions", diff.regressions, False),
        ("Fixes", diff.fixes, False),
        ("Changed answers", diff.changed, True),
        ("Other status changes", diff.moved, False),
        ("Questions added", diff.added, False),
        (
            "Questions without a result (partial report)" if diff.partial else "Questions removed",
            diff.removed,
            False,
        ),
    ):
        if changes:
            out += ["", f"### {title} ({len(changes)})", "", *_table(changes, answers=answers)]
    if diff.standings:
        out += ["", "### Certificate", "", "| rule | was | now |", "|---|---|---|"]
        for standing in diff.standings:
            label = f"reading {standing.rule}" if standing.reading else standing.rule
            now = _standing(standing.new) + (" :x:" if standing.lost_certification else "")
            out.append(f"| {escape_cell(label)} | {_standing(standing.old)} | {now} |")
    examples = [c for c in diff.regressions if c.new is not None and c.new.position][:5]
    if examples:
        out += ["", "<details><summary>Regressions in full (first 5)</summary>", ""]
        for change in examples:
            assert change.new is not None
            body = printable(
                "\n".join(
                    [
                        f"{change.case} [{change.question}]",
                        f"FEN {change.new.position}",
                        f"expected: {_answer(change.new.expected)}",
                        f"got:      {_answer(change.new.got)}",
                        f"message:  {change.new.message}",
                    ]
                )
            )
            fence = code_fence(body)
            out += [fence, body, fence, ""]
        out.append("</details>")
    return "\n".join(out) + "\n"
