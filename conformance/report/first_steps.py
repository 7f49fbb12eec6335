"""What to write first, when an engine answered nothing (a starter from ``draughts-conformance init``
declines everything): the operation whose declined questions check the most rules, then the next."""

from __future__ import annotations

import typing
from collections import Counter, defaultdict

from conformance.core.corpus.model import Question
from conformance.core.results import Status
from conformance.core.stream import Report

OPERATION = {kind.kind: kind.capability.value for kind in typing.get_args(Question)}
"""The engine operation that answers each kind of question (``after`` is answered by ``play``...)."""


def first_steps(report: Report) -> str | None:
    """A line saying which operation to fill in first, when every question asked was declined
    (None when anything was answered, or nothing was asked)."""
    statuses = report.counts()  # the counted passes of a campaign too
    answered = statuses[Status.PASS.value] + statuses[Status.FAIL.value] + statuses[Status.ERROR.value]
    if not statuses[Status.SKIP.value] or answered:
        return None
    questions: Counter[str] = Counter()
    rules: defaultdict[str, set[str]] = defaultdict(set)
    for result in report.results:
        if result.status is Status.SKIP:
            operation = OPERATION.get(result.question.partition("[")[0], result.question)
            questions[operation] += 1
            rules[operation].add(result.judged_under)
    first, *rest = sorted(questions, key=lambda op: (-len(rules[op]), -questions[op], op))
    then = "; then " + ", ".join(f"{op} ({len(rules[op])} rules)" for op in rest[:3]) if rest else ""
    return (
        f"Nothing answered yet: every question asked was declined. Fill in {first} first: its "
        f"{questions[first]} questions check {len(rules[first])} rules, the most{then}."
    )
