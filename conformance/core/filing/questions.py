"""What a corpus question relies on, derived from its content: the rules a case must ``require``.

* the moves of a sequence (``after``, ``outcome``), each by the rule that makes it legal
  (:func:`~conformance.core.filing.moves.relies_on`), and for an outcome the draw rules that must not
  fire before its answer (:mod:`conformance.core.filing.draws`);
* the moves of an expected answer: a legal-move set or a count (every legal move), the move a
  text names or is written for (``move_texts``, ``notation``), and move identity (Art. 8) where a
  count or a text depends on which routes make one move;
* perft: the moves of its tree, to :data:`PERFT_DEPTH` plies.

A case's ``requires`` must hold every rule derived here but its own (``tests/corpus/test_filing.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from conformance.core.corpus import model
from conformance.core.corpus.model import Case, Question
from conformance.core.filing.draws import draw_requires, replay
from conformance.core.filing.moves import relies_on
from conformance.core.protocol import MoveSpec
from oracle.errors import FenError
from oracle.moves import Move, capture_routes, legal_moves, play
from oracle.position import Position

PERFT_DEPTH: Final = 2
"""How deep a perft question's tree is classified (its deeper moves are of the same kinds, or the
case says so by hand)."""

MOVE_IDENTITY: Final = "8"


def _moves_rules(position: Position, moves: Iterable[Move]) -> set[str]:
    return {rule for move in moves for rule in relies_on(position, move)}


def _identity_matters(position: Position, moves: Iterable[Move]) -> bool:
    """Whether one of ``moves`` can be made along several routes (Art. 8: they are one move)."""
    wanted = set(moves)
    return any(len(routes) > 1 for move, routes in capture_routes(position).items() if move in wanted)


def _legal(position: Position) -> list[Move]:
    return legal_moves(position)


def _named(position: Position, spec: MoveSpec) -> list[Move]:
    """The legal move ``spec`` names (none when it names no legal move)."""
    wanted = (spec.from_square, spec.to_square, frozenset(spec.captured))
    return [m for m in _legal(position) if m.key == wanted]


def question_requires(case: Case, question: Question) -> frozenset[str]:
    """Every rule ``question`` of ``case`` relies on (its own included; see the module)."""
    try:
        position = Position.from_fen(case.position)
    except FenError:
        return frozenset()
    needs: set[str] = set()
    if isinstance(question, model.LegalMovesQuestion | model.MoveCountQuestion):
        moves = _legal(position)
        needs |= _moves_rules(position, moves)
        if isinstance(question, model.MoveCountQuestion) and _identity_matters(position, moves):
            needs.add(MOVE_IDENTITY)
    elif isinstance(question, model.AfterQuestion | model.OutcomeQuestion):
        for before, move in replay(position, question.moves):
            needs |= relies_on(before, move)
        if isinstance(question, model.OutcomeQuestion):
            needs |= draw_requires(
                case.position, case.counters, question.moves, question.result, question.ply, question.rule
            )
    elif isinstance(question, model.MoveTextQuestion | model.NotationQuestion):
        named = _named(position, question.move) if question.move is not None else []
        if isinstance(question, model.MoveTextQuestion) and question.verdict.value == "ambiguous":
            named = [m for m in _legal(position) if _text_could_name(question.text, m)]
        needs |= _moves_rules(position, named)
    elif isinstance(question, model.PerftQuestion):
        needs |= _tree_rules(position, min(PERFT_DEPTH, len(question.counts)))
    return frozenset(needs)


def _text_could_name(text: str, move: Move) -> bool:
    squares = [part for part in text.replace("x", "-").split("-") if part.strip().isdigit()]
    return len(squares) >= 2 and (int(squares[0]), int(squares[-1])) == (move.from_square, move.to_square)


def _tree_rules(position: Position, depth: int) -> set[str]:
    needs: set[str] = set()
    frontier = [position]
    for _ in range(depth):
        following = []
        for node in frontier:
            moves = _legal(node)
            needs |= _moves_rules(node, moves)
            if _identity_matters(node, moves):
                needs.add(MOVE_IDENTITY)
            following += [play(node, move) for move in moves]
        frontier = following
    return needs


def derived_requires(case: Case) -> frozenset[str]:
    """The rules ``case`` relies on but does not check: what its ``requires`` must hold."""
    needs = {rule for question in case.questions for rule in question_requires(case, question)}
    return frozenset(needs - {case.article, case.judged_under})
