"""The certificate: what a run proves about an engine, rule by rule and scope by scope, from its results.

Every report format and the exit status derive from it, so that they cannot disagree. A rule (an
FMJD article, or one of the project's readings where the rulebook is silent) is certified *for the
kinds of question that were asked of it*: its questions fall into scopes by what they ask
(:mod:`conformance.core.scopes`: ``moves``, ``positions``, ``notation``, ``games``, ``move-choice``), and
in each scope the rule is

* **certified** -- every question of the scope the engine was asked passed (at least one);
* **failed** -- the engine got a question of the scope wrong or broke on it (or a legal move of the
  rule was refused inside another rule's question of the scope: the defect is charged to the
  move's rule), known failures of a baseline included;
* **partly covered** -- no wrong answer, some passes, but questions declined (``skip``) or blocked
  (a wrong answer explained by a rule the case relies on and the engine fails directly: a
  question of that rule answered wrong, itself not blocked);
* **not covered** -- nothing of the scope passed: declined, blocked, or outside the engine's
  capabilities (``unsupported``).

An ``unsupported`` question never counts against a rule: the engine was not asked it. A rule as a
whole is *failed* when a scope failed, *certified* when every scope it was asked in is certified,
*partly covered* when something passed, else *not covered*: a move generator without notation
certifies Art. 4.1 "for moves", notation "not covered".

The run is certified at the ``rules`` level when a rule is certified for a rules scope (moves,
positions, notation, games), at ``move-choice`` when only for move choice (a Hub or DXP engine), or
at ``none``. A run that stopped early or was interrupted is *incomplete*, and every format says so.

Exit status (:class:`ExitStatus`): 0 when something was certified, no question failed or erred,
every required rule (``RULE[:SCOPE]``) is certified and the run is complete -- or, where the user
accepted the known failures of a baseline (``accept_known``), when every failure is a known one;
1 when a question failed or erred (a known failure too, unless accepted); 3 when nothing could be
certified, a requirement is not met, or the run is incomplete; 2 is kept for usage and input errors.
A run with failures is never called CERTIFIED: with a baseline it is "FAILED, N known".
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from conformance.core.filing.registry import readings as filing_readings
from conformance.core.protocol import Capability
from conformance.core.results import Result, Status
from conformance.core.scopes import SCOPES, Requirement, Scope, scope_of
from conformance.core.standing import COUNTS, Row, Standing, Tally
from conformance.core.tallies import Tallied

__all__ = [
    "COUNTS",
    "PROBLEMS",
    "Certificate",
    "ExitStatus",
    "Row",
    "Standing",
    "Tally",
    "certify",
]

PROBLEMS: Final = (Status.FAIL, Status.ERROR)


class ExitStatus(enum.IntEnum):
    """The exit statuses of every command, in one table: ``run`` and ``verify`` from the certificate;
    the other commands 0 when done (``OK``), 1 when what they did found or met a failure, 2 on usage
    errors. A signal N that stops a run gives 128 + N (:mod:`conformance.core.interrupts`)."""

    CERTIFIED = 0
    OK = 0
    """A command without a certificate did what it was asked."""
    FAILED = 1
    USAGE = 2
    NOT_CERTIFIED = 3


@dataclasses.dataclass(frozen=True)
class Certificate:
    rows: tuple[Row, ...]
    engine_level: str
    """``rules`` or ``move-choice``: what the engine says it is (the run's level is :attr:`level`)."""
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
    known: int = 0
    """Failures and errors a baseline lists as known."""
    baseline: str | None = None
    """The baseline the run used (its file), or None."""
    accept_known: bool = False
    """The user accepted the baseline's known failures: they alone do not fail the run's exit status."""
    rule_set: str = "international"
    """The game the run certifies (its rule set's name): said in the verdict unless international."""

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

    def scope_counts(self) -> dict[Scope, tuple[int, int]]:
        """For each scope some rule was asked in: (rules certified for it, rules asked in it)."""
        counts: dict[Scope, tuple[int, int]] = {}
        for scope in (*SCOPES, Scope.OTHER):
            asked = [row for row in self.rows if (row.tally(scope) or Tally()).asked]
            if asked:
                certified = sum(1 for row in asked if row.standing_for(scope) is Standing.CERTIFIED)
                counts[scope] = (certified, len(asked))
        return counts

    @property
    def level(self) -> str:
        """``rules``, ``move-choice`` or ``none``: the level of the scopes the run certifies rules for."""
        levels = {scope.level for row in self.rows for scope in row.certified_for()}
        return "rules" if "rules" in levels else "move-choice" if levels else "none"

    @property
    def passed(self) -> int:
        return sum(row.passed for row in self.rows)

    @property
    def answered(self) -> int:
        return sum(row.answered for row in self.rows)

    @property
    def exit_status(self) -> ExitStatus:
        if self.problems or (self.known and not self.accept_known):
            return ExitStatus.FAILED
        if self.level == "none" or self.missing_required or not self.complete:
            return ExitStatus.NOT_CERTIFIED
        return ExitStatus.CERTIFIED

    @property
    def verdict(self) -> str:
        """The run in a few words: CERTIFIED, NOT CERTIFIED, FAILED, "FAILED, N known" (with a
        baseline), each followed by (PARTIAL RUN) when the run is incomplete."""
        if self.problems and self.known:
            word = f"FAILED ({self.problems} new, {self.known} known)"
        elif self.problems:
            word = "FAILED"
        elif self.known:
            word = f"FAILED, {self.known} known" + (" (accepted)" if self.accept_known else "")
        else:
            word = "CERTIFIED" if self.exit_status is ExitStatus.CERTIFIED else "NOT CERTIFIED"
        return f"{word} (PARTIAL RUN)" if not self.complete else word

    @property
    def hidden_share(self) -> float:
        """The share of the run's questions the baseline hides (its known failures)."""
        return self.known / self.questions if self.questions else 0.0

    def summary(self) -> str:
        """One line: the verdict, rules by standing and by scope, questions answered, the baseline."""
        parts = []
        for standing in Standing:
            rows = self.rows_by(standing)
            if rows:
                parts.append(f"{len(rows)} {standing.value}")
        level = f" at {self.level} level" if self.level != "none" else ""
        if self.rule_set != "international":  # "CERTIFIED for russian at rules level"
            level = f" for {self.rule_set}{level}"
        if level and "," in self.verdict:  # "FAILED, 3 known, at rules level"
            level = "," + level
        scopes = ", ".join(
            f"{scope.value} {certified}/{asked}" for scope, (certified, asked) in self.scope_counts().items()
        )
        line = f"{self.verdict}{level}: rules {', '.join(parts) or 'none'}"
        if scopes:
            line += f"; rules certified for: {scopes}"
        line += f"; {self.passed}/{self.questions} questions pass, {self.answered}/{self.questions} answered"
        if self.problems:
            line += f"; {self.problems} failed or erred"
            if self.problems_blocked:
                line += f" ({self.problems_blocked} of them blocked by a failed prerequisite)"
        if self.baseline is not None:
            line += (
                f"; the baseline hides {self.known} of {self.questions} questions ({self.hidden_share:.0%})"
            )
        if self.missing_required:
            line += f"; required but not certified: {', '.join(self.missing_required)}"
        if not self.complete:
            line += f"; {self.incompleteness}"
        return line

    def to_json(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            **({} if self.rule_set == "international" else {"rule_set": self.rule_set}),
            "level": self.level,
            "complete": self.complete,
            "questions": self.questions,
            "results": self.results,
            "answered": self.answered,
            "passed": self.passed,
            "problems": self.problems,
            "known": self.known,
            "baseline": self.baseline,
            "accept_known": self.accept_known,
            "required": list(self.required),
            "missing_required": list(self.missing_required),
            "exit_status": int(self.exit_status),
            "scopes": {
                scope.value: {"certified": certified, "asked": asked}
                for scope, (certified, asked) in self.scope_counts().items()
            },
            "rules": [row.to_json() for row in self.rows],
        }


def _matches(key: str, wanted: str) -> bool:
    return key == wanted or key.startswith(wanted + ".")


def certify(
    results: Sequence[Result],
    *,
    engine_level: str = "rules",
    capabilities: Iterable[Capability] | None = None,
    questions: int | None = None,
    stopped_early: bool = False,
    interrupted: bool = False,
    required: Iterable[str] = (),
    order: Sequence[str] = (),
    baseline: str | None = None,
    accept_known: bool = False,
    tallied: Mapping[Tallied, int] | None = None,
    rule_set: str = "international",
) -> Certificate:
    """The certificate of a run's ``results``, and of the results counted in ``tallied``.

    ``capabilities`` are the engine's (they say in which scope a question was asked: a legal-move
    question of a move-choice engine is one of move choice); None: a rules engine's, or a
    move-choice engine's ``choose_move`` when ``engine_level`` says so. ``questions`` is how many
    results the run should have (by default, as many as there are); ``required`` are
    requirements ``RULE[:SCOPE]`` (:class:`conformance.core.scopes.Requirement`: articles -- with their
    sub-articles --, readings, or ``all``; a ValueError names an unknown scope); ``order`` sorts
    the rows (rules not in it come after, by name). ``baseline`` names the baseline the results
    were marked with (their ``baselined`` flag), ``accept_known`` whether its known failures are
    accepted. ``tallied`` holds results counted rather than listed (passes and unsupported questions,
    :mod:`conformance.core.tallies`): each kind counts as that many results of it, so the certificate is
    the one of the report with every line.
    """
    wanted = tuple(required)
    requirements = [Requirement.parse(text) for text in wanted]
    declared = frozenset(capabilities) if capabilities is not None else None
    if declared is None and engine_level == "move-choice":
        declared = frozenset({Capability.CHOOSE_MOVE})
    held = _blockers(results)
    counts: dict[str, dict[Scope, dict[str, int]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(int))
    )
    blockers: dict[str, set[str]] = defaultdict(set)
    articles: dict[str, str] = {}
    readings: set[str] = set()
    counted = [(kind.result(), count) for kind, count in sorted((tallied or {}).items()) if count]
    reading_names = {result.reading for result in results if result.reading}
    reading_names |= {result.reading for result, _ in counted if result.reading}
    blocked: dict[tuple[str, str], tuple[str, ...]] = {}
    problems = problems_blocked = known = 0
    registry = filing_readings()
    for result, times in itertools.chain(((result, 1) for result in results), counted):
        key = result.judged_under
        if key in registry and not result.reading:  # filed under a reading by verify's filing
            readings.add(key)
            articles.setdefault(key, registry[key][0] if registry[key] else key)
        articles.setdefault(key, result.article)
        if result.reading:
            readings.add(key)
        scope = scope_of(result.question, declared)
        row = counts[key][scope]
        row["questions"] += times
        if result.status is Status.PASS:
            row["passed"] += times
        elif result.status is Status.SKIP:
            row["skipped"] += times
        elif result.status is Status.UNSUPPORTED:
            row["unsupported"] += times
        else:  # a failure or an error: always listed (times is 1)
            problems += 0 if result.baselined else 1
            known += 1 if result.baselined else 0
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
                counts[charged][scope]["known" if result.baselined else "charged"] += 1
                if charged in reading_names or charged in registry:
                    readings.add(charged)
            else:
                name = (
                    "known" if result.baselined else "failed" if result.status is Status.FAIL else "errored"
                )
                row[name] += 1
    position = {key: index for index, key in enumerate(order)}
    scope_order = {scope: index for index, scope in enumerate(Scope)}
    rows = tuple(
        Row(
            key=key,
            reading=key in readings,
            article=articles[key],
            scopes=tuple(
                (scope, Tally(**{name: tally[name] for name in COUNTS}))
                for scope, tally in sorted(by_scope.items(), key=lambda item: scope_order[item[0]])
            ),
            blocked_by=tuple(sorted(blockers[key])),
        )
        for key, by_scope in sorted(
            counts.items(), key=lambda item: (position.get(item[0], len(position)), item[0])
        )
    )
    return Certificate(
        rows=rows,
        engine_level=engine_level,
        questions=len(results) + sum(times for _, times in counted) if questions is None else questions,
        results=len(results) + sum(times for _, times in counted),
        problems=problems,
        problems_blocked=problems_blocked,
        blocked=blocked,
        stopped_early=stopped_early,
        interrupted=interrupted,
        required=wanted,
        missing_required=_missing_required(rows, requirements),
        known=known,
        baseline=baseline,
        accept_known=accept_known,
        rule_set=rule_set,
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


def _missing_required(rows: Sequence[Row], requirements: Sequence[Requirement]) -> tuple[str, ...]:
    """The requirements the rows do not meet: ``RULE`` -- every matching rule certified (in every
    scope it was asked in); ``RULE:SCOPE`` -- every matching rule with questions of the scope
    certified for it; ``all`` and ``all:SCOPE`` -- the same of every rule, each one that falls short
    named. A requirement that matches no rule is not met."""
    missing: list[str] = []
    for requirement in requirements:
        scope = requirement.scope
        if requirement.rule == "all":
            chosen = [row for row in rows if row.questions]
        else:
            chosen = [
                row
                for row in rows
                if _matches(row.key, requirement.rule) or _matches(row.article, requirement.rule)
            ]
        if scope is not None:
            chosen = [row for row in chosen if row.tally(scope) is not None]
        short = [
            row.key
            for row in chosen
            if (row.standing if scope is None else row.standing_for(scope)) is not Standing.CERTIFIED
        ]
        if not chosen:
            missing.append(str(requirement))
        elif requirement.rule == "all":
            missing += [f"{key}:{scope.value}" if scope else key for key in short]
        elif short:
            missing.append(str(requirement))
    return tuple(dict.fromkeys(missing))
