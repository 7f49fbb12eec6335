"""Pieces every renderer shares: the headline, defects grouped, a failure described in words."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from conformance.core import rule_sets
from conformance.core.certificate import PROBLEMS, Certificate, Row, Standing
from conformance.core.results import Result
from conformance.core.safe_text import printable
from conformance.core.stream import Report
from oracle.errors import FenError
from oracle.position import Position
from oracle.rules import INTERNATIONAL, Rules


def rule_label(row: Row) -> str:
    """``4.13``, or ``reading endgame-no-restart (6.3)``."""
    return f"reading {row.key} ({row.article})" if row.reading else row.key


def row_counts(row: Row) -> dict[str, int]:
    """The columns every table shows, in order."""
    return {
        "pass": row.passed,
        "fail": row.failed + row.charged,
        "error": row.errored,
        "known": row.known,
        "blocked": row.blocked,
        "skip": row.skipped,
        "unsupported": row.unsupported,
    }


def other_counts(row: Row) -> str:
    """The row's results other than passes, in words: ``2 fail, 13 unsupported``."""
    return ", ".join(f"{count} {name}" for name, count in row_counts(row).items() if name != "pass" and count)


def coverage_text(row: Row) -> str:
    """Questions passed of those asked (an unsupported question is not asked: it never counts)."""
    asked = row.questions - row.unsupported
    return f"{row.passed}/{asked}" if asked else "-"


@dataclasses.dataclass(frozen=True)
class Defect:
    """Failures that share a rule and a kind of mistake: one defect of the engine."""

    rule: str
    what: str
    new: list[Result]
    known: list[Result]
    touches: tuple[str, ...]
    """The rules whose questions showed it."""
    blocked_by: tuple[str, ...] = ()
    """When its wrong answers rely on rules the engine fails directly: those rules (fix them first;
    the defect may go with them)."""

    @property
    def results(self) -> list[Result]:
        return self.new + self.known


def blocked_by(result: Result, certificate: Certificate) -> tuple[str, ...]:
    """The rules whose direct failure explains this wrong answer (empty when it is a defect in its
    own right: not blocked, or a refused move charged to that move's rule)."""
    if result.charged_to:
        return ()
    return tuple(certificate.blocked.get((result.case, result.question), ()))


def result_word(result: Result, certificate: Certificate) -> str:
    """How one result counts in every view: ``pass``, ``fail``, ``error``, ``blocked`` (a wrong answer
    explained by a prerequisite failed directly), ``known`` (baselined), ``skip`` or ``unsupported``."""
    if result.status not in PROBLEMS:
        return str(result.status.value)
    if blocked_by(result, certificate):
        return "blocked"
    return "known" if result.baselined else result.status.value


#: The words of :func:`result_word`, in the order every view lists them.
RESULT_WORDS = ("pass", "fail", "error", "known", "blocked", "skip", "unsupported")


def defects(report: Report, certificate: Certificate) -> tuple[list[Defect], list[Result]]:
    """Every distinct defect, once, most frequent first -- those whose wrong answers are blocked by
    a prerequisite the engine fails directly last, with the rules that block them -- and the
    blocked results apart (for the line that sums them up)."""
    groups: dict[tuple[str, str, bool], list[Result]] = {}
    blocked: list[Result] = []
    for result in report.results:
        if result.status not in PROBLEMS:
            continue
        held = bool(blocked_by(result, certificate))
        if held:
            blocked.append(result)
        groups.setdefault((result.charged, result.defect_name, held), []).append(result)
    found = [
        Defect(
            rule=rule,
            what=what,
            new=[r for r in results if not r.baselined],
            known=[r for r in results if r.baselined],
            touches=tuple(dict.fromkeys(r.judged_under for r in results)),
            blocked_by=tuple(
                sorted({b for r in results for b in certificate.blocked.get((r.case, r.question), ())})
            ),
        )
        for (rule, what, _), results in groups.items()
    ]
    found.sort(key=lambda d: (bool(d.blocked_by), not d.new, -len(d.results), d.rule, d.what))
    return found, blocked


def blocking_rules(blocked: Sequence[Result], certificate: Certificate) -> list[str]:
    """The rules that block ``blocked`` (results :func:`defects` set apart), sorted."""
    return sorted({rule for result in blocked for rule in blocked_by(result, certificate)})


def blocked_sentence(blocked: Sequence[Result], certificate: Certificate) -> str:
    """What the terminal, the Markdown and the site say of the blocked failures, in one sentence ('' when
    none is blocked)."""
    if not blocked:
        return ""
    touched = sorted({result.judged_under for result in blocked})
    return (
        f"{len(blocked)} failure(s) in {', '.join(touched)} are blocked: they rely on "
        f"{', '.join(blocking_rules(blocked, certificate))}, which the engine fails directly (fix that first)."
    )


def examples_first(found: list[Defect], limit: int, blocked: Sequence[Result] = ()) -> list[Result]:
    """Up to ``limit`` failures to show in full: one of each defect first, then the rest of the
    defects', then the blocked ones (explained by a rule failed directly, shown last)."""
    chosen: list[Result] = []
    for defect in found:
        chosen.append(defect.results[0])
    for defect in found:
        chosen += defect.results[1:]
    listed = {(r.case, r.question) for r in chosen}
    chosen += [r for r in blocked if (r.case, r.question) not in listed]
    return chosen[:limit]


def played(report: Report) -> str:
    """The rule set a report's run played, as every view names it: ``""`` for international (its
    reports read as before rule sets), else ``rule set russian (digest 1a2b3c4d5e6f)``."""
    name = rule_sets.name_of(report.header)
    if name == rule_sets.DEFAULT:
        return ""
    digest = rule_sets.digest_of(report.header)
    return f"rule set {name}" + (f" (digest {digest[:12]})" if digest else "")


def verify_scope(header: Mapping[str, Any]) -> str:
    """What a verify report's run drew its positions from, as every view names it: its kinds
    (``random, captures``), or ``exhaustive, at most 4 pieces``; then its shard, if any."""
    settings = header.get("verify") or {}
    scope = ", ".join(settings.get("kinds", []))
    if settings.get("pieces"):
        scope = f"exhaustive, at most {settings['pieces']} pieces"
    shard = header.get("shard")
    if shard:
        scope += f"; shard {shard['index']}/{shard['count']}"
    return scope


def z3_use(settings: Mapping[str, Any]) -> str:
    """How a verify run used z3 (``settings``: its header's ``verify``)."""
    if not settings.get("z3"):
        return "off"
    if settings.get("prove"):
        return "on every position (--prove)"
    return "on disagreements" if settings.get("pieces") else "on"


def rules_of(report: Report) -> Rules:
    """The rules a report's positions are read under (its header's rule set; international when
    it records none or cannot be read back)."""
    try:
        return rule_sets.from_header(report.header).rules
    except rule_sets.RuleSetError:
        return INTERNATIONAL


def board(position: str, rules: Rules = INTERNATIONAL) -> str:
    try:
        return Position.from_fen(position, rules).diagram()
    except FenError:
        return "(the position is not a valid FEN)"


def as_text(value: Any) -> str:
    """An answer or expectation as one printable string (control characters made visible)."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return printable(value)
    return printable(json.dumps(value, ensure_ascii=False))


def engine_title(report: Report) -> str:
    engine = report.header.get("engine", {})
    if not isinstance(engine, dict):
        engine = {}
    return printable(f"{engine.get('name', '?')} {engine.get('version', '')}".strip())


def headline(report: Report, certificate: Certificate | None = None) -> str:
    """The last line of every report: engine, verdict, rules by standing, questions answered."""
    certificate = certificate or report.certificate()
    return f"{engine_title(report)}: {certificate.summary()}"


def standing_style(standing: Standing) -> str:
    return {
        Standing.CERTIFIED: "green",
        Standing.FAILED: "red",
        Standing.PARTLY_COVERED: "yellow",
        Standing.NOT_COVERED: "dim",
    }[standing]
