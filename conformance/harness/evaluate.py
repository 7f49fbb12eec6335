"""Ask an engine one question of a case and turn what it does into the question's result.

The expectation never reaches the engine: the engine gets the case's position (and moves,
counters, move text as the question needs). How each kind of answer is compared with the
expectation is :mod:`conformance.harness.judges`'s concern; this module picks the judge for the engine's
capabilities, runs it, and makes a :class:`Result` of whatever happens -- a pass, a judge's
signal (a wrong or partial answer), a refused position, or what the engine did instead of answering
(:mod:`conformance.harness.misbehaviour`: a decline, garbage, an engine error or an exception) --
never raising for anything the engine does. It also plans the first call of a
question (for pipelining engines), settles which rule a case's one defect is charged to, and
writes the expectation as data for the reports.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from conformance.core.corpus.model import (
    AfterQuestion,
    Case,
    FenQuestion,
    InitialPositionQuestion,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveTextQuestion,
    NotationQuestion,
    PerftQuestion,
    Question,
)
from conformance.core.errors import Signal
from conformance.core.protocol import Capability, Engine, PositionRefused
from conformance.core.results import Result, Status
from conformance.core.rule_sets import plays
from conformance.harness.failures import Failed, Partial
from conformance.harness.judges import has_both_colours, judge_for, move_order
from conformance.harness.misbehaviour import misbehaviour

__all__ = [
    "ask",
    "ask_case",
    "expectation_json",
    "first_call",
    "has_both_colours",
    "question_keys",
]


def question_keys(case: Case) -> Iterator[tuple[str, Question]]:
    """Each question of a case with its key: ``legal_moves``, ``after[0]``, ``move_texts[2]``."""
    counts: Counter[str] = Counter(question.kind for question in case.questions)
    seen: Counter[str] = Counter()
    for question in case.questions:
        index = seen[question.kind]
        seen[question.kind] += 1
        many = counts[question.kind] > 1 or question.kind in ("after", "move_text", "notation")
        yield (f"{question.kind}[{index}]" if many else question.kind), question


def ask_case(engine: Engine, case: Case) -> list[Result]:
    """Every question of ``case``, judged (each failure filed by :mod:`conformance.core.filing`)."""
    return [ask(engine, case, key, question) for key, question in question_keys(case)]


def ask(engine: Engine, case: Case, key: str, question: Question) -> Result:
    """Ask one question and judge the answer; never raises for anything the engine does."""
    base: dict[str, Any] = {
        "case": case.id,
        "question": key,
        "article": case.article,
        "requires": case.requires,
        "reading": case.reading,
        "position": case.position,
    }
    expected = expectation_json(question)
    if not plays(engine.info.rule_sets, case.rule_set):
        declared = ", ".join(sorted(engine.info.rule_sets)) or "none"
        message = f"the engine does not play {case.rule_set.name} (it declares {declared})"
        return Result(**base, status=Status.UNSUPPORTED, message=message)
    capabilities = engine.info.capabilities
    judge = judge_for(capabilities, case, question)
    if judge is None:
        lacking = ", ".join(sorted(c.value for c in case.capabilities_for(question) - capabilities))
        return Result(**base, status=Status.UNSUPPORTED, message=f"engine lacks {lacking}")
    started = time.perf_counter()
    try:
        judge(engine, case, question)
    except Failed as failed:
        status = Status.FAIL
        extra = {
            "message": failed.message,
            "got": failed.got,
            "defect": failed.defect,
            "charged_to": failed.charged_to if failed.charged_to != case.judged_under else None,
        }
        if failed.requires is not None:
            base["requires"] = failed.requires
    except Partial as partial:
        status, extra = Status.SKIP, {"message": str(partial)}
    except PositionRefused as refused:
        status, extra = _position_refused(case, refused)
    except BaseException as error:  # a decline, a crash, garbage, an exception: never ends the run
        outcome = misbehaviour(error)
        status, extra = outcome.status, {"message": outcome.message}
        if outcome.error is not None:
            extra |= {"error": outcome.error, "defect": outcome.defect}
    else:
        status, extra = Status.PASS, {}
    duration = (time.perf_counter() - started) * 1000
    return Result(**base, status=status, expected=expected, duration_ms=duration, **extra)


class _Planned(Signal):
    """Raised by :class:`_Planner` at the judge's first call (a BaseException: no judge catches it)."""

    def __init__(self, method: str, args: tuple[Any, ...]) -> None:
        super().__init__(method)
        self.method = method
        self.args = args


class _Planner:
    """An engine that only notes the first call a judge makes."""

    def __getattr__(self, method: str) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            raise _Planned(method, args)

        return call


def first_call(
    capabilities: frozenset[Capability], case: Case, question: Question
) -> tuple[str, tuple[Any, ...]] | None:
    """The engine method and arguments that :func:`ask` calls first for ``question`` (``None`` when
    it calls none): what a pipelining engine can be sent ahead. Later calls of the same question
    (perft's next depth, the Hub text after the PDN one) depend on the answers and are not planned."""
    judge = judge_for(capabilities, case, question)
    if judge is None or not case.rule_set.is_default:  # another game's questions are not sent ahead
        return None
    try:
        judge(_Planner(), case, question)  # type: ignore[arg-type]
    except _Planned as planned:
        return planned.method, planned.args
    except Exception:
        return None
    return None


def _position_refused(case: Case, refused: PositionRefused) -> tuple[Status, dict[str, Any]]:
    """A refused position: a skip when a side has no pieces (a game reaches that only at its
    end, and an engine may reject it), a fail of Art. 2 when the position is a valid one."""
    reason = f" ({refused.reason})" if refused.reason else ""
    if not has_both_colours(case.position, case.rule_set.rules):
        return Status.SKIP, {
            "message": f"the engine does not accept a position where a side has no pieces{reason}"
        }
    return Status.FAIL, {
        "message": f"the engine refused a valid position{reason}",
        "got": {"illegal": {"position": case.position}},
        "defect": "refuses a valid position",
        "charged_to": "2" if case.judged_under != "2" and case.rule_set.is_default else None,
    }


def expectation_json(question: Question) -> Any:
    """The expected answer as JSON data (for reports)."""
    if isinstance(question, FenQuestion):
        return {"valid": question.valid, "position": question.position}
    if isinstance(question, InitialPositionQuestion):
        return question.position
    if isinstance(question, LegalMovesQuestion):
        return sorted(map(str, question.moves), key=move_order)
    if isinstance(question, MoveCountQuestion):
        return question.count
    if isinstance(question, PerftQuestion):
        return list(question.counts)
    if isinstance(question, AfterQuestion):
        return {"moves": list(question.moves), "position": question.position}
    if isinstance(question, MoveTextQuestion):
        return {
            "text": question.text,
            "notation": question.notation,
            "verdict": question.verdict.value,
            "move": str(question.move) if question.move else None,
        }
    if isinstance(question, NotationQuestion):
        return {"move": str(question.move), "pdn": list(question.pdn) or None, "hub": question.hub}
    return {
        "moves": list(question.moves),
        "result": question.result,
        "rule": question.rule,
        "ply": question.ply,
    }
