"""Ask an engine one question of a case and judge its answer against the expectation.

The expectation never reaches the engine: the engine gets the case's position (and moves,
counters, move text as the question needs) and its answer is compared here, as data:
move sets by identity (from, to, captured set), positions by placement and side to move,
outcomes by result, rule and ply.
"""

from __future__ import annotations

import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from conformance.corpus import (
    AfterQuestion,
    Capability,
    Case,
    FenQuestion,
    InitialPositionQuestion,
    LegalMovesQuestion,
    MoveCountQuestion,
    MoveSpec,
    MoveTextQuestion,
    NotationQuestion,
    OutcomeQuestion,
    PerftQuestion,
    Question,
    Verdict,
)
from conformance.engine import Engine, EngineDeclined, EngineError, FenAnswer, MoveTextAnswer, OutcomeAnswer
from conformance.results import ErrorInfo, Result, Status
from oracle.errors import FenError
from oracle.position import Position


class _Failed(Exception):
    """A wrong answer: ``message`` says how, ``got`` is the engine's answer as data."""

    def __init__(self, message: str, got: Any) -> None:
        super().__init__(message)
        self.message = message
        self.got = got


class _Malformed(Exception):
    """The engine answered something that is not an answer of the right type."""


def question_keys(case: Case) -> Iterator[tuple[str, Question]]:
    """Each question of a case with its key: ``legal_moves``, ``after[0]``, ``move_texts[2]``."""
    counts: Counter[str] = Counter(question.kind for question in case.questions)
    seen: Counter[str] = Counter()
    for question in case.questions:
        index = seen[question.kind]
        seen[question.kind] += 1
        many = counts[question.kind] > 1 or question.kind in ("after", "move_text", "notation")
        yield (f"{question.kind}[{index}]" if many else question.kind), question


def ask(engine: Engine, case: Case, key: str, question: Question) -> Result:
    """Ask one question and judge the answer; never raises for anything the engine does."""
    base: dict[str, Any] = {
        "case": case.id,
        "question": key,
        "articles": case.articles,
        "position": case.position,
    }
    expected = expectation_json(question)
    capabilities = engine.info.capabilities
    judge = _JUDGES[type(question)]
    if question.capability not in capabilities:
        if isinstance(question, LegalMovesQuestion) and Capability.CHOOSE_MOVE in capabilities:
            judge = _judge_chosen_move  # a move-choice engine: its move must be one of the legal ones
        else:
            return Result(
                **base, status=Status.UNSUPPORTED, message=f"engine lacks {question.capability.value}"
            )
    started = time.perf_counter()
    try:
        judge(engine, case, question)
    except _Failed as failed:
        status, extra = Status.FAIL, {"message": failed.message, "got": failed.got}
    except _Malformed as malformed:
        status = Status.ERROR
        extra = {"message": str(malformed), "error": ErrorInfo("protocol", str(malformed))}
    except EngineDeclined as declined:
        status, extra = Status.SKIP, {"message": f"the engine declined: {declined}"}
    except EngineError as error:
        status = Status.ERROR
        extra = {"message": error.message, "error": ErrorInfo(error.kind, error.message, error.stderr)}
    except Exception as error:  # an in-process engine raised: its bug, reported, never fatal
        message = f"{type(error).__name__}: {error}"
        status = Status.ERROR
        extra = {"message": message, "error": ErrorInfo("exception", message, traceback.format_exc())}
    else:
        status, extra = Status.PASS, {}
    duration = (time.perf_counter() - started) * 1000
    return Result(**base, status=status, expected=expected, duration_ms=duration, **extra)


def expectation_json(question: Question) -> Any:
    """The expected answer as JSON data (for reports)."""
    if isinstance(question, FenQuestion):
        return {"valid": question.valid, "position": question.position}
    if isinstance(question, InitialPositionQuestion):
        return question.position
    if isinstance(question, LegalMovesQuestion):
        return sorted(map(str, question.moves), key=_move_order)
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


def _move_order(text: str) -> tuple[int, ...]:
    spec = MoveSpec.parse(text)
    return (spec.from_square, spec.to_square, *sorted(spec.captured))


# -- judges: one per question kind --------------------------------------------------------------


def _judge_fen(engine: Engine, case: Case, question: FenQuestion) -> None:
    answer = engine.fen(case.position)
    if not isinstance(answer, FenAnswer):
        raise _Malformed(f"fen: expected a FenAnswer, got {answer!r}")
    got = {"valid": answer.valid, "position": answer.position}
    if answer.valid != question.valid:
        verdict = "accepted an invalid FEN" if answer.valid else "rejected a valid FEN"
        raise _Failed(f"the engine {verdict}" + (f" ({question.reason})" if question.reason else ""), got)
    if question.valid and question.position is not None:
        _same_position(question.position, answer.position, got, what="the position read")


def _judge_initial_position(engine: Engine, case: Case, question: InitialPositionQuestion) -> None:
    answer = engine.initial_position()
    if not isinstance(answer, str):
        raise _Malformed(f"initial_position: expected a FEN string, got {answer!r}")
    _same_position(question.position, answer, answer, what="the start position")


def _judge_legal_moves(engine: Engine, case: Case, question: LegalMovesQuestion) -> None:
    answer = list(engine.legal_moves(case.position))
    if not all(isinstance(move, MoveSpec) for move in answer):
        raise _Malformed(f"legal_moves: expected moves, got {answer!r}")
    got = sorted(map(str, answer), key=_move_order)
    problems = []
    twice = sorted({str(m) for m, n in Counter(answer).items() if n > 1}, key=_move_order)
    if twice:
        problems.append(f"listed more than once: {', '.join(twice)}")
    missing = sorted(map(str, question.moves - set(answer)), key=_move_order)
    extra = sorted(map(str, set(answer) - question.moves), key=_move_order)
    if missing:
        problems.append(f"missing: {', '.join(missing)}")
    if extra:
        problems.append(f"extra: {', '.join(extra)}")
    if problems:
        raise _Failed("; ".join(problems), got)


def _judge_chosen_move(engine: Engine, case: Case, question: LegalMovesQuestion) -> None:
    """Move-choice level (Hub, DXP): the chosen move must be legal; with one legal move, that one."""
    answer = engine.choose_move(case.position)
    if answer is not None and not isinstance(answer, MoveSpec):
        raise _Malformed(f"choose_move: expected a move or None, got {answer!r}")
    got = str(answer) if answer is not None else None
    if not question.moves:
        if answer is not None:
            raise _Failed(f"played {answer} in a position without a legal move", got)
        return
    if answer is None:
        raise _Failed("found no move, but the position has legal moves", got)
    if answer not in question.moves:
        forced = " (the only legal move)" if len(question.moves) == 1 else ""
        raise _Failed(
            f"chose {answer}, which is not legal here; legal: {', '.join(sorted(map(str, question.moves)))}{forced}",
            got,
        )


def _judge_move_count(engine: Engine, case: Case, question: MoveCountQuestion) -> None:
    answer = engine.move_count(case.position)
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise _Malformed(f"move_count: expected an integer, got {answer!r}")
    if answer != question.count:
        raise _Failed(f"{answer} legal moves instead of {question.count}", answer)


def _judge_perft(engine: Engine, case: Case, question: PerftQuestion) -> None:
    got: list[int] = []
    for depth, expected in enumerate(question.counts, start=1):
        answer = engine.perft(case.position, depth)
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise _Malformed(f"perft: expected an integer, got {answer!r}")
        got.append(answer)
        if answer != expected:
            raise _Failed(f"perft({depth}) = {answer}, expected {expected}", got)


def _judge_after(engine: Engine, case: Case, question: AfterQuestion) -> None:
    answer = engine.play(case.position, list(question.moves))
    if not isinstance(answer, str):
        raise _Malformed(f"play: expected a FEN string, got {answer!r}")
    _same_position(question.position, answer, answer, what=f"the position after {' '.join(question.moves)}")


def _judge_move_text(engine: Engine, case: Case, question: MoveTextQuestion) -> None:
    answer = engine.parse_move(case.position, question.text, question.notation)
    if not isinstance(answer, MoveTextAnswer) or not isinstance(answer.verdict, Verdict):
        raise _Malformed(f"parse_move: expected a MoveTextAnswer, got {answer!r}")
    got = {"verdict": answer.verdict.value, "move": str(answer.move) if answer.move else None}
    if answer.verdict is not question.verdict:
        raise _Failed(
            f"{question.text!r} read as {answer.verdict.value}, expected {question.verdict.value}", got
        )
    if question.move is not None and answer.move != question.move:
        raise _Failed(f"{question.text!r} read as {answer.move}, expected {question.move}", got)


def _judge_notation(engine: Engine, case: Case, question: NotationQuestion) -> None:
    got: dict[str, str] = {}
    problems = []
    if question.pdn:
        text = engine.format_move(case.position, question.move, "pdn")
        if not isinstance(text, str):
            raise _Malformed(f"format_move: expected text, got {text!r}")
        got["pdn"] = text
        if text.strip() not in question.pdn:
            problems.append(f"PDN {text!r}, expected {' or '.join(map(repr, question.pdn))}")
    if question.hub is not None:
        text = engine.format_move(case.position, question.move, "hub")
        if not isinstance(text, str):
            raise _Malformed(f"format_move: expected text, got {text!r}")
        got["hub"] = text
        if _hub_key(text) != _hub_key(question.hub):
            problems.append(f"Hub {text!r}, expected {question.hub!r}")
    if problems:
        raise _Failed("; ".join(problems), got)


def _hub_key(text: str) -> tuple[str, str, frozenset[str]]:
    """Hub move text compared with the captured squares in any order."""
    text = text.strip()
    if "-" in text:
        return (text, "", frozenset())
    parts = text.split("x")
    return (parts[0], parts[1] if len(parts) > 1 else "", frozenset(parts[2:]))


def _judge_outcome(engine: Engine, case: Case, question: OutcomeQuestion) -> None:
    answer = engine.outcome(case.position, case.counters, list(question.moves))
    if not isinstance(answer, OutcomeAnswer):
        raise _Malformed(f"outcome: expected an OutcomeAnswer, got {answer!r}")
    got = {"result": answer.result, "rule": answer.rule, "ply": answer.ply}
    want = {"result": question.result, "rule": question.rule, "ply": question.ply}
    if got != want:
        differences = [
            f"{key} {got[key]!r} instead of {want[key]!r}" for key in want if got[key] != want[key]
        ]
        raise _Failed("; ".join(differences), got)


def _same_position(expected_fen: str, got_fen: str | None, got: Any, *, what: str) -> None:
    if got_fen is None:
        raise _Failed(f"{what}: no position given", got)
    try:
        got_position = Position.from_fen(got_fen)
    except FenError as error:
        raise _Failed(f"{what}: the engine's FEN is not valid: {error}", got) from None
    expected = Position.from_fen(expected_fen)
    if got_position != expected:
        raise _Failed(f"{what} is {got_position.fen()}, expected {expected.fen()}", got)


_JUDGES: dict[type, Callable[[Engine, Case, Any], None]] = {
    FenQuestion: _judge_fen,
    InitialPositionQuestion: _judge_initial_position,
    LegalMovesQuestion: _judge_legal_moves,
    MoveCountQuestion: _judge_move_count,
    PerftQuestion: _judge_perft,
    AfterQuestion: _judge_after,
    MoveTextQuestion: _judge_move_text,
    NotationQuestion: _judge_notation,
    OutcomeQuestion: _judge_outcome,
}
