"""The certificate: what a run proves about an engine, rule by rule, computed from its results.

Every report format and the exit status derive from it, so that they cannot disagree. For each
rule (an FMJD article, or one of the project's readings where the rulebook is silent) it says:

* **certified** -- every question filed under the rule was answered, and every answer passed;
* **failed** -- the engine got a question of the rule wrong (or a legal move of the rule was
  refused inside another rule's question: the defect is charged to the move's rule);
* **partly covered** -- no wrong answer, but some questions were not answered (declined, outside
  the engine's capabilities, or blocked: a wrong answer explained by a rule the case relies on and
  the engine fails directly: a question of it answered wrong, itself not blocked);
* **not covered** -- no question of the rule was answered correctly.

The run as a whole is certified at the engine's level (``rules``, or ``move-choice`` for engines
that only choose moves) when at least one rule is certified, or at level ``none``. A run that
stopped early or was interrupted is *incomplete*, and every format says so.

Exit status (:class:`ExitStatus`): 0 when something was certified, no question failed or erred
(outside a baseline) and every required rule is certified; 1 when a question failed or erred;
3 when nothing could be certified, a required rule is not certified, or the run is incomplete;
2 is kept for usage and input errors.
"""

from __future__ import annotations

import dataclasses
import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from conformance.filing.registry import readings as filing_readings
from conformance.results import Result, Status

PROBLEMS: Final = (Status.FAIL, Status.ERROR)


class ExitStatus(enum.IntEnum):
    """The exit status of ``run`` and ``verify`` (and of every command, for usage errors)."""

    CERTIFIED = 0
    FAILED = 1
    USAGE = 2
    NOT_CERTIFIED = 3


class Standing(enum.Enum):
    CERTIFIED = "certified"
    FAILED = "failed"
    PARTLY_COVERED = "partly covered"
    NOT_COVERED = "not covered"


@dataclasses.dataclass(frozen=True)
class Row:
    """One rule of the certificate: an article, or a reading of the project's."""

    key: str
    reading: bool
    """True when ``key`` is one of the project's readings rather than an FMJD article."""
    article: str
    """The article the rule belongs to (for a reading, that of its cases)."""
    questions: int
    """Questions filed under this rule."""
    passed: int = 0
    failed: int = 0
    errored: int = 0
    charged: int = 0
    """Failures found in other rules' questions and charged to this one (refused legal moves...)."""
    known: int = 0
    """Failures and errors listed in the baseline (known; they do not fail the run)."""
    blocked: int = 0
    blocked_by: tuple[str, ...] = ()
    skipped: int = 0
    unsupported: int = 0

    @property
    def answered(self) -> int:
        """Questions of this rule whose answer was judged (pass, fail or error, blocked or not)."""
        return self.questions - self.skipped - self.unsupported

    @property
    def standing(self) -> Standing:
        if self.failed or self.errored or self.charged or self.known:
            return Standing.FAILED
        if self.questions and self.passed == self.questions:
            return Standing.CERTIFIED
        if self.passed == 0:
            return Standing.NOT_COVERED
        return Standing.PARTLY_COVERED

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rule": self.key,
            "reading": self.reading,
            "article": self.article,
            "standing": self.standing.value,
            "questions": self.questions,
        }
        for name in ("passed", "failed", "errored", "charged", "known", "blocked", "skipped", "unsupported"):
            data[name] = getattr(self, name)
        if self.blocked_by:
            data["blocked_by"] = list(self.blocked_by)
        return data


@dataclasses.dataclass(frozen=True)
class Certificate:
    rows: tuple[Row, ...]
    engine_level: str
    """``rules`` or ``move-choice``: what the engine can be certified for at best."""
    questions: int
    """Questions selected for the run (the results there should be)."""
    results: int
    """Results recorded."""
    problems: int
    """Failures and errors outside the baseline (blocked ones included: a defect is still there)."""
    problems_blocked: int
    """Of :attr:`problems`, those blocked by a prerequisite the engine fails directly."""
    blocked: Mapping[tuple[str, str], tuple[str, ...]]
    """(case, question) of every blocked result -> the rules that block it."""
    stopped_early: bool = False
    interrupted: bool = False
    required: tuple[str, ...] = ()
    missing_required: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not (self.stopped_early or self.interrupted) and self.results >= self.questions

    @property
    def incompleteness(self) -> str:
        """Why the run is incomplete, or the empty string."""
        if self.interrupted:
            return f"interrupted after {self.results} of {self.questions} questions"
        if self.stopped_early:
            return f"stopped early (--max-fail) after {self.results} of {self.questions} questions"
        if self.results < self.questions:
            return f"{self.questions - self.results} of {self.questions} questions have no result"
        return ""

    def rows_by(self, standing: Standing) -> list[Row]:
        return [row for row in self.rows if row.standing is standing]

    @property
    def level(self) -> str:
        """``rules``, ``move-choice`` or ``none``: the level the run certifies the engine at."""
        return self.engine_level if self.rows_by(Standing.CERTIFIED) else "none"

    @property
    def passed(self) -> int:
        return sum(row.passed for row in self.rows)

    @property
    def answered(self) -> int:
        return sum(row.answered for row in self.rows)

    @property
    def exit_status(self) -> ExitStatus:
        if self.problems:
            return ExitStatus.FAILED
        if self.level == "none" or self.missing_required or not self.complete:
            return ExitStatus.NOT_CERTIFIED
        return ExitStatus.CERTIFIED

    @property
    def verdict(self) -> str:
        """One word for the whole run: CERTIFIED, FAILED, NOT CERTIFIED (PARTIAL when incomplete)."""
        words = {
            ExitStatus.CERTIFIED: "CERTIFIED",
            ExitStatus.FAILED: "FAILED",
            ExitStatus.NOT_CERTIFIED: "NOT CERTIFIED",
        }
        word = words.get(self.exit_status, "NOT CERTIFIED")
        return f"{word} (PARTIAL RUN)" if not self.complete else word

    def summary(self) -> str:
        """One line: the verdict, rules by standing, questions answered."""
        parts = []
        for standing in Standing:
            rows = self.rows_by(standing)
            if rows:
                parts.append(f"{len(rows)} {standing.value}")
        level = f" at {self.level} level" if self.level != "none" else ""
        line = (
            f"{self.verdict}{level}: rules {', '.join(parts) or 'none'}; "
            f"{self.passed}/{self.questions} questions pass, {self.answered}/{self.questions} answered"
        )
        if self.problems:
            line += f"; {self.problems} failed or erred"
            if self.problems_blocked:
                line += f" ({self.problems_blocked} of them blocked by a failed prerequisite)"
        known = sum(row.known for row in self.rows)
        if known:
            line += f" ({known} known, baselined)"
        if self.missing_required:
            line += f"; required but not certified: {', '.join(self.missing_required)}"
        if not self.complete:
            line += f"; {self.incompleteness}"
        return line

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "level": self.level,
            "complete": self.complete,
            "questions": self.questions,
            "results": self.results,
            "answered": self.answered,
            "passed": self.passed,
            "problems": self.problems,
            "required": list(self.required),
            "missing_required": list(self.missing_required),
            "exit_status": int(self.exit_status),
            "rules": [row.to_json() for row in self.rows],
        }


def _matches(key: str, wanted: str) -> bool:
    return key == wanted or key.startswith(wanted + ".")


def certify(
    results: Sequence[Result],
    *,
    engine_level: str = "rules",
    questions: int | None = None,
    stopped_early: bool = False,
    interrupted: bool = False,
    required: Iterable[str] = (),
    order: Sequence[str] = (),
) -> Certificate:
    """The certificate of a run's ``results``.

    ``questions`` is how many results the run should have (by default, as many as there are);
    ``required`` are rules (articles -- with their sub-articles --, readings, or ``all``) that
    must be certified; ``order`` sorts the rows (rules not in it come after, by name).
    """
    held = _blockers(results)
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    blockers: dict[str, set[str]] = defaultdict(set)
    articles: dict[str, str] = {}
    readings: set[str] = set()
    reading_names = {result.reading for result in results if result.reading}
    blocked: dict[tuple[str, str], tuple[str, ...]] = {}
    problems = problems_blocked = 0
    registry = filing_readings()
    for result in results:
        key = result.judged_under
        if key in registry and not result.reading:  # filed under a reading by verify's filing
            readings.add(key)
            articles.setdefault(key, registry[key][0] if registry[key] else key)
        articles.setdefault(key, result.article)
        if result.reading:
            readings.add(key)
        row = counts[key]
        row["questions"] += 1
        if result.status is Status.PASS:
            row["passed"] += 1
        elif result.status is Status.SKIP:
            row["skipped"] += 1
        elif result.status is Status.UNSUPPORTED:
            row["unsupported"] += 1
        else:
            problems += 0 if result.baselined else 1
            by = held.get((result.case, result.question), ())
            if by:  # a wrong answer explained by a prerequisite the engine fails directly
                problems_blocked += 0 if result.baselined else 1
                row["blocked"] += 1
                blockers[key].update(by)
                blocked[(result.case, result.question)] = by
            elif result.charged_to:  # found in this rule's question, a defect of another rule
                row["blocked"] += 1
                blockers[key].add(result.charged_to)
                charged = result.charged_to
                articles.setdefault(charged, registry[charged][0] if registry.get(charged) else charged)
                counts[charged]["known" if result.baselined else "charged"] += 1
                if charged in reading_names or charged in registry:
                    readings.add(charged)
            else:
                name = (
                    "known" if result.baselined else "failed" if result.status is Status.FAIL else "errored"
                )
                row[name] += 1
    position = {key: index for index, key in enumerate(order)}
    rows = tuple(
        Row(
            key=key,
            reading=key in readings,
            article=articles[key],
            questions=values["questions"],
            passed=values["passed"],
            failed=values["failed"],
            errored=values["errored"],
            charged=values["charged"],
            known=values["known"],
            blocked=values["blocked"],
            blocked_by=tuple(sorted(blockers[key])),
            skipped=values["skipped"],
            unsupported=values["unsupported"],
        )
        for key, values in sorted(
            counts.items(), key=lambda item: (position.get(item[0], len(position)), item[0])
        )
    )
    wanted = tuple(required)
    missing = _missing_required(rows, wanted)
    return Certificate(
        rows=rows,
        engine_level=engine_level,
        questions=len(results) if questions is None else questions,
        results=len(results),
        problems=problems,
        problems_blocked=problems_blocked,
        blocked=blocked,
        stopped_early=stopped_early,
        interrupted=interrupted,
        required=wanted,
        missing_required=missing,
    )


def _blockers(results: Sequence[Result]) -> dict[tuple[str, str], tuple[str, ...]]:
    """The wrong answers a prerequisite explains: (case, question) -> the rules that block it.

    A wrong answer (``fail``) is blocked by a rule it relies on (its ``requires``) only when the
    engine fails that rule *directly*: another question whose own rule it is (filed under it, not
    charged to it from another rule's question), answered wrong, and itself not blocked. An error is never a wrong
    answer: it neither blocks nor is blocked. Blocking is never passed on through a blocked
    result, and is decided from the most basic rules up; a wrong answer whose blockers stay
    undecided (two rules relying on each other, which the corpus forbids but generated filings may
    show) is not blocked: a defect is never hidden.
    """
    failures = [r for r in results if r.status is Status.FAIL]
    by_rule: dict[str, list[Result]] = defaultdict(list)
    for result in failures:
        if not result.charged_to:  # a question of its own rule (not one charged from elsewhere)
            by_rule[result.judged_under].append(result)
    # None: undecided; else the rules that block it (empty: a direct failure of its rule)
    state: dict[int, tuple[str, ...] | None] = {id(r): None for r in failures}
    changed = True
    while changed:
        changed = False
        for result in failures:
            if state[id(result)] is not None:
                continue
            wanted = [rule for rule in result.requires if rule != result.charged]
            direct, pending = [], False
            for rule in wanted:
                others = [o for o in by_rule.get(rule, ()) if o is not result]
                if any(state[id(o)] == () for o in others):
                    direct.append(rule)
                elif any(state[id(o)] is None for o in others):
                    pending = True
            if direct:
                state[id(result)] = tuple(sorted(direct))
                changed = True
            elif not pending:
                state[id(result)] = ()
                changed = True
    return {
        (r.case, r.question): blockers
        for r in failures
        if (blockers := state[id(r)]) is not None and blockers
    }


def _missing_required(rows: Sequence[Row], required: Sequence[str]) -> tuple[str, ...]:
    missing = []
    for wanted in required:
        if wanted == "all":
            missing += [row.key for row in rows if row.standing is not Standing.CERTIFIED and row.questions]
            continue
        chosen = [row for row in rows if _matches(row.key, wanted) or _matches(row.article, wanted)]
        if not chosen or any(row.standing is not Standing.CERTIFIED for row in chosen):
            missing.append(wanted)
    return tuple(dict.fromkeys(missing))
