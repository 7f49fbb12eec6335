"""How each kind of answer is judged against a case's expectation: one judge per question kind.

A judge asks the engine what its question needs (the case's position, and moves, counters or move
text) and compares the answer with the expectation, as data: move sets by identity (from, to,
captured set; Art. 8), positions by placement and side to move, outcomes by result, rule and ply.
A judge that returns has passed the answer; otherwise it raises one of the signals of
:mod:`conformance.harness.failures` (a wrong, partial or malformed answer), which
:func:`conformance.harness.evaluate.ask` turns into the question's result -- or lets the engine's own
exception through (a refusal, a decline, an error), which ``ask`` judges the same way for every
question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
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
    OutcomeQuestion,
    PerftQuestion,
    Question,
)
from conformance.core.errors import ErrorKind
from conformance.core.filing import file_answer
from conformance.core.move_rules import move_rule
from conformance.core.protocol import (
    Capability,
    Engine,
    EngineDeclined,
    EngineError,
    FenAnswer,
    MoveRefused,
    MoveSpec,
    PerftReached,
    PositionRefused,
)
from conformance.harness.failures import (
    Failed,
    Malformed,
    Partial,
    filed_failure,
    first_wrong_ply,
    move_keys,
    moves_filing,
    perft_filing,
    refused_in_sequence,
)
from conformance.harness.game_filing import files, quiet_beside_capture
from conformance.harness.game_judges import judge_move_text, judge_notation, judge_outcome
from oracle.board import LARGEST_SIZE
from oracle.errors import FenError
from oracle.moves import Move, legal_moves
from oracle.position import Color, Kind, Position
from oracle.rules import INTERNATIONAL, Rules


def judge_for(
    capabilities: frozenset[Capability], case: Case, question: Question
) -> Callable[[Engine, Case, Any], None] | None:
    """The judge that asks ``question`` of an engine with ``capabilities`` (``None``: unsupported)."""
    if case.capabilities_for(question) <= capabilities:
        return _JUDGES[type(question)]
    if isinstance(question, LegalMovesQuestion) and Capability.CHOOSE_MOVE in capabilities:
        return _judge_chosen_move  # a move-choice engine: its move must be one of the legal ones
    return None


def has_both_colours(fen: str, rules: Rules = INTERNATIONAL) -> bool:
    """True when each side has a piece: the positions a game goes through before its end."""
    try:
        position = Position.from_fen(fen, rules)
    except FenError:
        return False
    return bool(position.squares(Color.WHITE)) and bool(position.squares(Color.BLACK))


def move_order(text: str) -> tuple[int, ...]:
    """The order moves are listed in (for reports): from, to, then the captured squares ascending."""
    spec = MoveSpec.parse(text, LARGEST_SIZE * LARGEST_SIZE // 2)  # every board's squares
    return (spec.from_square, spec.to_square, *sorted(spec.captured))


# -- judges: one per question kind --------------------------------------------------------------


def _judge_fen(engine: Engine, case: Case, question: FenQuestion) -> None:
    """Art. 2 in PDN FEN: is the text a valid position, and which one (compared as a position).

    A refusal of the FEN says "invalid"; refusing a valid one is left to
    :func:`~conformance.harness.evaluate.ask` (a fail of Art. 2, or a skip when a side has no pieces)."""
    try:
        answer = engine.fen(case.position)
    except PositionRefused:
        if question.valid and has_both_colours(case.position, case.rule_set.rules):
            raise  # judged by ask(): a valid position refused
        answer = FenAnswer(False)  # an invalid FEN, or one a game never reaches: "invalid" is said
        if question.valid:
            raise
    if not isinstance(answer, FenAnswer):
        raise Malformed(f"fen: expected a FenAnswer, got {answer!r}")
    got = {"valid": answer.valid, "position": answer.position}
    if answer.valid != question.valid:
        verdict = "accepts an invalid FEN" if answer.valid else "rejects a valid FEN"
        raise Failed(
            f"the engine {verdict}" + (f" ({question.reason})" if question.reason else ""),
            got,
            defect=verdict,
        )
    if question.valid and question.position is not None:
        _same_position(
            case,
            question.position,
            answer.position,
            got,
            what="the position read",
            defect="reads a FEN wrongly",
        )


def _judge_initial_position(engine: Engine, case: Case, question: InitialPositionQuestion) -> None:
    """Art. 2.8: the position a new game starts from."""
    answer = engine.initial_position()
    if not isinstance(answer, str):
        raise Malformed(f"initial_position: expected a FEN string, got {answer!r}")
    _same_position(
        case, question.position, answer, answer, what="the start position", defect="wrong start position"
    )


def _kind_of(position: Position, spec: MoveSpec, legal: dict[MoveSpec, Move], rules: Rules) -> str:
    """A few words for a move: its rule's words when legal (international), else what piece does what."""
    if spec in legal and rules == INTERNATIONAL:
        return move_rule(position, legal[spec]).kind
    piece = position.piece_at(spec.from_square)
    who = (
        "king"
        if piece is not None and piece.kind is Kind.KING
        else "man"
        if piece is not None
        else "empty-square"
    )
    return f"{who} {'capture' if spec.captured else 'move' if who == 'king' else 'step'}"


def _plural(kind: str) -> str:
    """``long king move`` -> ``long king moves``; ``man capture passing ...`` -> ``man captures passing ...``."""
    words = kind.split()
    for index, word in enumerate(words):
        if word in ("move", "step", "capture"):
            words[index] = word + "s"
            break
    return " ".join(words)


def _move_set_defect(
    position: Position, missing: Iterable[MoveSpec], extra: Iterable[MoveSpec], rules: Rules = INTERNATIONAL
) -> str:
    """The defect behind a wrong move set, in words: the kinds of legal moves missed or, when
    none is, the kinds of illegal moves listed (missing captures bring extra steps with them,
    so the extras then say nothing new)."""
    legal = {MoveSpec(m.from_square, m.to_square, m.captured): m for m in legal_moves(position, rules)}
    missing_kinds = sorted({_plural(_kind_of(position, spec, legal, rules)) for spec in missing})
    if missing_kinds:
        return f"misses {', '.join(missing_kinds)}"
    extra_kinds = sorted({_plural(_kind_of(position, spec, legal, rules)) for spec in extra})
    return f"lists illegal {', '.join(extra_kinds)}"


def _judge_legal_moves(engine: Engine, case: Case, question: LegalMovesQuestion) -> None:
    """The complete legal-move set under the case's move rule (Art. 3, 4, 7.2), moves compared by
    identity (Art. 8, reading ``move-identity``): the moves missed or listed wrongly are the case
    rule's defect; a right set with a move listed twice is charged to Art. 8."""
    answer = list(engine.legal_moves(case.position))
    if not all(isinstance(move, MoveSpec) for move in answer):
        raise Malformed(f"legal_moves: expected moves, got {answer!r}")
    got = sorted(map(str, answer), key=move_order)
    problems = []
    twice = sorted({str(m) for m, n in Counter(answer).items() if n > 1}, key=move_order)
    if twice:
        problems.append(f"listed more than once: {', '.join(twice)}")
    missing_set = question.moves - set(answer)
    extra_set = set(answer) - question.moves
    missing = sorted(map(str, missing_set), key=move_order)
    extra = sorted(map(str, extra_set), key=move_order)
    if missing:
        problems.append(f"missing: {', '.join(missing)}")
    if extra:
        problems.append(f"extra: {', '.join(extra)}")
    if not problems:
        return
    if not missing and not extra:  # only repeats: the moves are right, their identity is not (Art. 8)
        eight = "8" if files(case) else None  # FMJD's article of move identity; another game: its own rule
        raise Failed(
            "; ".join(problems), got, defect="lists one move twice (several routes)", charged_to=eight
        )
    rules = case.rule_set.rules
    position = Position.from_fen(case.position, rules)
    defect = _move_set_defect(position, missing_set, extra_set, rules)
    filing = (
        file_answer(position, move_keys(answer))
        if files(case)
        else quiet_beside_capture(case, question, missing_set, extra_set)
    )
    if filing is not None and not files(case):
        defect = filing.why  # the capture rule's defect, in its words
    raise filed_failure(case, filing, "; ".join(problems), got, defect=defect)


def _judge_chosen_move(engine: Engine, case: Case, question: LegalMovesQuestion) -> None:
    """Move-choice level (Hub, DXP): the chosen move must be legal (Art. 3, 4); with one legal move,
    that one; with none (Art. 7.2), no move."""
    answer = engine.choose_move(case.position)
    if answer is not None and not isinstance(answer, MoveSpec):
        raise Malformed(f"choose_move: expected a move or None, got {answer!r}")
    got = str(answer) if answer is not None else None
    if not question.moves:
        if answer is not None:
            raise Failed(
                f"played {answer} in a position without a legal move",
                got,
                defect="plays where no move is legal",
            )
        return
    if answer is None:
        raise Failed("found no move, but the position has legal moves", got, defect="finds no legal move")
    if answer not in question.moves:
        forced = " (the only legal move)" if len(question.moves) == 1 else ""
        legal = ", ".join(sorted(map(str, question.moves)))
        rules = case.rule_set.rules
        position = Position.from_fen(case.position, rules)
        defect = _move_set_defect(position, set(), {answer}, rules).replace("extra", "chooses")
        # as if it held it legal too
        filing = file_answer(position, move_keys([*question.moves, answer])) if files(case) else None
        message = f"chose {answer}, which is not legal here; legal: {legal}{forced}"
        raise filed_failure(case, filing, message, got, defect=defect)


def _judge_move_count(engine: Engine, case: Case, question: MoveCountQuestion) -> None:
    """The number of legal moves, counted by identity (Art. 8: two routes of one capture are one move)."""
    answer = engine.move_count(case.position)
    if not isinstance(answer, int) or isinstance(answer, bool):
        raise Malformed(f"move_count: expected an integer, got {answer!r}")
    if answer != question.count:
        message = f"{answer} legal moves instead of {question.count}"
        raise filed_failure(case, moves_filing(engine, case), message, answer, defect="wrong move count")


def _judge_perft(engine: Engine, case: Case, question: PerftQuestion) -> None:
    """Perft (docs/rules.md, "perft"): leaf counts depth by depth; an engine that stops after
    correct depths is partly answered."""
    got: list[int] = []

    def check(depth: int, answer: object) -> None:
        if not isinstance(answer, int) or isinstance(answer, bool):
            raise Malformed(f"perft: expected an integer, got {answer!r}")
        got.append(answer)
        expected = question.counts[depth - 1]
        if answer != expected:
            message = f"perft({depth}) = {answer}, expected {expected}"
            raise filed_failure(
                case, perft_filing(engine, case, depth), message, got, defect="wrong perft count"
            )

    depth = 1
    while depth <= len(question.counts):
        try:
            answer = engine.perft(case.position, depth)
        except PerftReached as reached:
            for answer in reached.counts[len(got) : len(question.counts)]:
                check(len(got) + 1, answer)
            if len(got) >= len(question.counts):
                return
            raise Partial(
                f"perft correct to depth {len(got)} of {len(question.counts)}; then: {reached}"
            ) from None
        except EngineDeclined as declined:
            if not got:
                raise
            raise Partial(
                f"perft correct to depth {len(got)} of {len(question.counts)}; then declined: {declined}"
            ) from None
        except EngineError as error:
            if not got or error.kind != ErrorKind.TIMEOUT:
                raise
            raise Partial(
                f"perft correct to depth {len(got)} of {len(question.counts)}; depth {depth} timed out"
            ) from None
        check(depth, answer)
        depth = len(got) + 1


def _judge_after(engine: Engine, case: Case, question: AfterQuestion) -> None:
    """The position after the case's moves (placement and side to move, Art. 2) under the case's
    rule; a legal move of the sequence refused is charged to that move's own rule."""
    try:
        answer = engine.play(case.position, list(question.moves))
    except MoveRefused as refused:
        raise refused_in_sequence(engine, case, question.moves, refused) from None
    if not isinstance(answer, str):
        raise Malformed(f"play: expected a FEN string, got {answer!r}")
    try:
        _same_position(
            case,
            question.position,
            answer,
            answer,
            what=f"the position after {' '.join(question.moves)}",
            defect="wrong position after the moves",
        )
    except Failed as failed:
        raise filed_failure(
            case,
            first_wrong_ply(engine, case, question.moves, answer),
            failed.message,
            failed.got,
            defect=failed.defect,
        ) from None


def _same_position(
    case: Case, expected_fen: str, got_fen: str | None, got: Any, *, what: str, defect: str
) -> None:
    """Fails unless ``got_fen`` is a valid FEN of the expected position (placement and side to
    move, Art. 2: any valid spelling) on the board of the case's game."""
    if got_fen is None:
        raise Failed(f"{what}: no position given", got, defect=defect)
    rules = case.rule_set.rules
    try:
        got_position = Position.from_fen(got_fen, rules)
    except FenError as error:
        raise Failed(f"{what}: the engine's FEN is not valid: {error}", got, defect=defect) from None
    expected = Position.from_fen(expected_fen, rules)
    if got_position != expected:
        raise Failed(f"{what} is {got_position.fen()}, expected {expected.fen()}", got, defect=defect)


_JUDGES: dict[type, Callable[[Engine, Case, Any], None]] = {
    FenQuestion: _judge_fen,
    InitialPositionQuestion: _judge_initial_position,
    LegalMovesQuestion: _judge_legal_moves,
    MoveCountQuestion: _judge_move_count,
    PerftQuestion: _judge_perft,
    AfterQuestion: _judge_after,
    MoveTextQuestion: judge_move_text,
    NotationQuestion: judge_notation,
    OutcomeQuestion: judge_outcome,
}
