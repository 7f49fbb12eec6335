"""The judges of what an engine writes and plays out: a move text it reads, the text it writes for
a move, and a game's outcome (:mod:`conformance.harness.judges` picks the judge of each question)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.core.corpus.model import Case, MoveTextQuestion, NotationQuestion, OutcomeQuestion
from conformance.core.filing.draws import OUTCOME_RULES, file_game, file_outcome
from conformance.core.filing.played import file_move
from conformance.core.filing.registry import rule_articles, rule_name
from conformance.core.move_rules import move_rule
from conformance.core.protocol import Engine, MoveRefused, MoveSpec, MoveTextAnswer, OutcomeAnswer, Verdict
from conformance.harness.failures import (
    Failed,
    Malformed,
    filed_failure,
    first_wrong_ply,
    listed,
    moves_behind,
    moves_filing,
    refused_in_sequence,
)
from conformance.harness.game_filing import draw_misapplied, files
from oracle.moves import legal_moves
from oracle.position import Position


def judge_move_text(engine: Engine, case: Case, question: MoveTextQuestion) -> None:
    """What a move text means in the position, in PDN or Hub notation (docs/rules.md, "Move text:
    what a reader answers"): its verdict and, for a legal one, the move. A refusal reads as illegal."""
    try:
        answer = engine.parse_move(case.position, question.text, question.notation)
    except MoveRefused:
        answer = MoveTextAnswer(Verdict.ILLEGAL)
    if not isinstance(answer, MoveTextAnswer) or not isinstance(answer.verdict, Verdict):
        raise Malformed(f"parse_move: expected a MoveTextAnswer, got {answer!r}")
    got = {"verdict": answer.verdict.value, "move": str(answer.move) if answer.move else None}
    if answer.verdict is not question.verdict:
        raise filed_failure(
            case,
            moves_behind(engine, case, answer.verdict, question.verdict),
            f"{question.text!r} read as {answer.verdict.value}, expected {question.verdict.value}",
            got,
            defect=f"reads {question.verdict.value} move text as {answer.verdict.value}",
        )
    if question.move is not None and answer.move != question.move:
        raise filed_failure(
            case,
            moves_behind(engine, case),
            f"{question.text!r} read as {answer.move}, expected {question.move}",
            got,
            defect="reads move text as another move",
        )


def judge_notation(engine: Engine, case: Case, question: NotationQuestion) -> None:
    """The text an engine writes for a legal move (docs/rules.md, "PDN" and "Hub"; Art. 8): one of
    the case's PDN forms, the Hub text with its captured squares in any order. Refusing to write the
    move is charged to the move's own rule."""
    got: dict[str, str] = {}
    problems = []
    defects = []
    try:
        if question.pdn:
            text = engine.format_move(case.position, question.move, "pdn")
            if not isinstance(text, str):
                raise Malformed(f"format_move: expected text, got {text!r}")
            got["pdn"] = text
            if text.strip() not in question.pdn:
                problems.append(f"PDN {text!r}, expected {' or '.join(map(repr, question.pdn))}")
                defects.append("writes PDN move text wrongly")
        if question.hub is not None:
            text = engine.format_move(case.position, question.move, "hub")
            if not isinstance(text, str):
                raise Malformed(f"format_move: expected text, got {text!r}")
            got["hub"] = text
            if _hub_key(text) != _hub_key(question.hub):
                problems.append(f"Hub {text!r}, expected {question.hub!r}")
                defects.append("writes Hub move text wrongly")
    except MoveRefused as refused:
        if not files(case):  # another game: the case's own rule
            raise Failed(
                f"refused to write the legal move {question.move}",
                {"illegal": {"move": refused.move}},
                defect="refuses a legal move",
            ) from None
        position = Position.from_fen(case.position)
        legal = {MoveSpec(m.from_square, m.to_square, m.captured): m for m in legal_moves(position)}
        move = legal.get(question.move)
        if move is None:  # the corpus guarantees the move is legal; nothing to charge it to
            raise
        rule = move_rule(position, move)
        filing = moves_filing(engine, position) or file_move(position, move)
        raise Failed(
            f"refused to write the legal move {question.move}, a {rule.kind} ({rule_name(filing.rule)})",
            {"illegal": {"move": refused.move}},
            defect=f"refuses a legal {rule.kind}",
            charged_to=filing.rule,
            requires=filing.requires,
        ) from None
    if problems:  # a move text written wrongly because the engine's moves there are wrong: theirs
        raise filed_failure(
            case, moves_behind(engine, case), "; ".join(problems), got, defect="; ".join(defects)
        )


def _hub_key(text: str) -> tuple[str, str, frozenset[str]]:
    """Hub move text compared with the captured squares in any order."""
    text = text.strip()
    if "-" in text:
        return (text, "", frozenset())
    parts = text.split("x")
    return (parts[0], parts[1] if len(parts) > 1 else "", frozenset(parts[2:]))


def _describe_outcome(outcome: dict[str, Any]) -> str:
    """An outcome in a few words for a defect: ``a draw by 6.1``, ``the game going on``."""
    result, rule = outcome.get("result"), outcome.get("rule")
    if result == "ongoing":
        return "the game going on"
    if result == "draw":
        return f"a draw by {rule}"
    if result in ("white_wins", "black_wins"):
        return f"a win by {rule}"
    return f"{result!r}"


def judge_outcome(engine: Engine, case: Case, question: OutcomeQuestion) -> None:
    """The game's outcome after the case's moves, from its position and counters: result, rule and
    ply (draws Art. 6, wins Art. 7.2; plies as docs/rules.md's "Dating an outcome" says). A move
    refused after the engine's game ended is judged by the outcome it gave the moves before it; any
    other legal move refused is charged to that move's own rule."""
    refused_at = ""
    try:
        answer = engine.outcome(case.position, case.counters, list(question.moves))
    except MoveRefused as refused:
        ended = _ended_before(engine, case, question.moves, refused)
        if ended is None:
            raise refused_in_sequence(engine, case, question.moves, refused) from None
        answer = ended
        refused_at = f" (it refused the move at ply {refused.ply}: its game was over)"
    if not isinstance(answer, OutcomeAnswer):
        raise Malformed(f"outcome: expected an OutcomeAnswer, got {answer!r}")
    got = {"result": answer.result, "rule": answer.rule, "ply": answer.ply}
    want = {"result": question.result, "rule": question.rule, "ply": question.ply}
    if got != want:
        differences = [
            f"{key} {got[key]!r} instead of {want[key]!r}" for key in want if got[key] != want[key]
        ]
        differences[-1] += refused_at
        if (got["result"], got["rule"]) == (want["result"], want["rule"]):
            defect = f"{_describe_outcome(want)} at the wrong ply"
        else:
            defect = f"{_describe_outcome(got)} instead of {_describe_outcome(want)}"
        ply = want["ply"] if isinstance(want["ply"], int) else len(question.moves)
        upto = min(ply, got["ply"]) if isinstance(got["ply"], int) else ply
        if not files(case):  # another game: under the draw article the engine misapplies
            raise filed_failure(
                case, draw_misapplied(case, got, want), "; ".join(differences), got, defect=defect
            )
        filing = (
            file_game(case.position, question.moves, upto, lambda position: listed(engine, position))
            or first_wrong_ply(engine, case, question.moves[:upto], None)
            or file_outcome(
                case.position,
                case.counters,
                question.moves,
                want,
                got,
                case.judged_under,
                rule_articles(case.judged_under),
                case.article,
            )
        )
        failed = filed_failure(case, filing, "; ".join(differences), got, defect=defect)
        if failed.charged_to is None:  # the draw rules it relies on do not explain an answer not naming them
            named = {case.article if case.reading else None, got["rule"]}  # a draw it gives relies on it
            kept = [r for r in case.requires if r not in OUTCOME_RULES or r in named]
            failed.requires = tuple(dict.fromkeys([*kept, *filing.requires]))
        raise failed


def _ended_before(
    engine: Engine, case: Case, moves: Sequence[str], refusal: MoveRefused
) -> OutcomeAnswer | None:
    """A move refused at ply p > 1 because the engine's game was already over: its outcome of
    the moves before p, if that is not ``ongoing`` (the game ended, rightly or not, and the move
    refused is not the defect); None otherwise (the refusal is judged as the move's).

    The protocol lets an engine refuse the first move after the end of its game."""
    if refusal.ply is None or not 2 <= refusal.ply <= len(moves):
        return None
    try:
        before = engine.outcome(case.position, case.counters, list(moves[: refusal.ply - 1]))
    except Exception:  # the refusal stands as it was; the question is judged on it
        return None
    if isinstance(before, OutcomeAnswer) and before.result != "ongoing":
        return before
    return None
