"""Blocking that cannot hide a defect (conformance.core.certificate): a wrong answer is blocked only by a
direct failure of a rule it relies on -- another question of that rule (its own, not charged to it),
answered wrong, itself not blocked; never by an error, never through another blocked result."""

from __future__ import annotations

from conformance.core.certificate import certify
from conformance.core.results import ErrorInfo, Result, Status


def fail(case: str, rule: str, *requires: str, charged_to: str | None = None) -> Result:
    return Result(case, "q", rule, Status.FAIL, requires=requires, charged_to=charged_to)


def error(case: str, rule: str) -> Result:
    return Result(case, "q", rule, Status.ERROR, error=ErrorInfo("exception", "boom"))


def test_a_direct_failure_of_a_prerequisite_blocks() -> None:
    certificate = certify([fail("a", "4.3"), fail("b", "4.13", "4.3")])
    assert certificate.blocked == {("b", "q"): ("4.3",)}


def test_a_blocked_failure_blocks_nothing() -> None:
    """4.13 fails only where 4.3 explains it: 4.14, relying on 4.13, is not blocked through it."""
    certificate = certify([fail("a", "4.3"), fail("b", "4.13", "4.3"), fail("c", "4.14", "4.13")])
    assert ("c", "q") not in certificate.blocked
    rows = {row.key: row for row in certificate.rows}
    assert rows["4.14"].failed == 1


def test_an_error_neither_blocks_nor_is_blocked() -> None:
    certificate = certify([error("a", "6.3"), fail("b", "endgame-no-restart", "6.3"), error("c", "4.13")])
    assert certificate.blocked == {}
    rows = {row.key: row for row in certificate.rows}
    assert rows["endgame-no-restart"].failed == 1
    certificate = certify([fail("a", "4.3"), Result("c", "q", "4.13", Status.ERROR, requires=("4.3",))])
    assert certificate.blocked == {}


def test_a_failure_does_not_block_itself_but_another_question_of_its_case_may() -> None:
    certificate = certify([fail("a", "4.13", "4.13")])
    assert certificate.blocked == {}
    certificate = certify([fail("a", "4.3"), Result("a", "r", "4.13", Status.FAIL, requires=("4.3",))])
    assert certificate.blocked == {("a", "r"): ("4.3",)}


def test_a_failure_charged_from_another_rules_question_blocks_nothing() -> None:
    """A question of 6.2 charged to 6.1 is a failure of 6.1, but not a question of 6.1: only 6.1's
    own questions, answered wrong, block what relies on 6.1 (a run of some cases asks them)."""
    certificate = certify([fail("a", "6.2", charged_to="6.1"), fail("b", "6.3", "6.1")])
    assert certificate.blocked == {}
    certificate = certify([fail("a", "6.2", charged_to="6.1"), fail("c", "6.1"), fail("b", "6.3", "6.1")])
    assert certificate.blocked == {("b", "q"): ("6.1",)}


def test_a_charged_failure_resting_on_a_failing_rule_is_blocked() -> None:
    certificate = certify([fail("a", "4.3"), fail("b", "4.13", "4.3", charged_to="4.8")])
    assert certificate.blocked == {("b", "q"): ("4.3",)}
    rows = {row.key: row for row in certificate.rows}
    assert "4.8" not in rows


def test_rules_relying_on_each_other_hide_nothing() -> None:
    """Two failures that would block each other (a cycle the corpus forbids, but a filing of
    generated positions may show): neither is blocked."""
    certificate = certify([fail("a", "4.8", "4.11"), fail("b", "4.11", "4.8")])
    assert certificate.blocked == {}
